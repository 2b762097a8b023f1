"""Pictures of Master Thief for the docs, drawn from the card data (SVG text)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from .cards import CALLING, MUSEUM, THIEF

#: Colours of the Museum categories, also used by the browser renderer.
COLOURS = {
    "Artifacts": "#b8860b",
    "Bones": "#8d8577",
    "Gems": "#2a7fb8",
    "Masks": "#7b3fa8",
    "Paintings": "#2e8b57",
    "Statues": "#6b6b8a",
    "Security": "#c62828",
}
KINDS = {"Action": "#1f5f99", "Reaction": "#a34700", "Utility": "#2e7d32"}

W, H, GAP = 120, 186, 14


def _wrap(text: str, width: int = 19) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _card(x: int, title: str, band: str, top: str, body: str, corner: str) -> str:
    text = "".join(
        f'<text x="{x + 10}" y="{96 + 13 * i}" font-size="10">{escape(line)}</text>'
        for i, line in enumerate(_wrap(body)[:6])
    )
    return (
        f'<rect x="{x}" y="0" width="{W}" height="{H}" rx="9" fill="#fffdf6" '
        f'stroke="#333" stroke-width="1.5"/>'
        f'<rect x="{x}" y="0" width="{W}" height="30" rx="9" fill="{band}"/>'
        f'<text x="{x + 8}" y="20" font-size="11" fill="#fff" font-weight="bold">'
        f"{escape(top)}</text>"
        f'<text x="{x + 10}" y="{H - 10}" font-size="11" font-weight="bold">'
        f"{escape(corner)}</text>"
        f'<text x="{x + 10}" y="60" font-size="13" font-weight="bold">{escape(title)}</text>'
        f"{text}"
    )


def cards_svg() -> str:
    """Six cards side by side: three Thief Cards, an Item, a Security, a Calling Card."""
    cards = []
    for name in ("Swipe", "Grip", "Smoke Pellet"):
        card = THIEF[name]
        cards.append((name, KINDS[card.kind], card.kind, card.text, ""))
    for name in ("T-Rex Skull", "The Scream", "Laser Snare"):
        item = MUSEUM[name]
        if item.kind == "Security":
            body, corner = f"Avert with a Carried {item.category[:-1]} item.", "draw 0"
            cards.append((name, COLOURS["Security"], "Security", body, corner))
        else:
            body = item.text or f"{item.category}. Draw {item.draw} Thief Cards."
            corner = f"{item.bmc} BMC · draw {item.draw}"
            cards.append((name, COLOURS[item.category], item.category, body, corner))
    calling = CALLING["The Looter"]
    cats = " and ".join(calling.categories)
    cards.append(("The Looter", "#222", "Calling", f"Reveal to escape. +2 BMC per {cats}.", ""))
    width = len(cards) * (W + GAP) - GAP
    body = "".join(_card(i * (W + GAP), *c) for i, c in enumerate(cards))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 {width + 4} {H + 4}" '
        f'width="{width + 4}" height="{H + 4}" font-family="sans-serif">{body}</svg>\n'
    )
