"""Pictures of the table drawn from a view, as SVG text (for the docs and the web).

``python -m gameweave_house.pictures docs/titles/house/table.svg`` writes the
example table the docs show; a test checks the committed file is still what this
code draws.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

from .cards import SUIT_SIGNS

W, H = 760, 470
CARD_W, CARD_H = 34, 48


def _card(x: float, y: float, card: str | None) -> str:
    if card is None:  # face down
        return (
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" '
            'fill="#7a1f2b" stroke="#f3e9d2" stroke-width="2"/>'
            f'<path d="M{x + 6} {y + 6}h{CARD_W - 12}v{CARD_H - 12}h-{CARD_W - 12}z" '
            'fill="none" stroke="#f3e9d2" stroke-dasharray="3 3"/>'
        )
    rank = "10" if card[0] == "T" else card[0]
    colour = "#b3121f" if card[1] in "HD" else "#111"
    return (
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fdfcf7" '
        'stroke="#333"/>'
        f'<text x="{x + CARD_W / 2}" y="{y + 21}" text-anchor="middle" font-size="15" '
        f'font-weight="bold" fill="{colour}">{rank}</text>'
        f'<text x="{x + CARD_W / 2}" y="{y + 40}" text-anchor="middle" font-size="15" '
        f'fill="{colour}">{SUIT_SIGNS[card[1]]}</text>'
    )


def _text(x: float, y: float, text: str, size: int = 13, **attrs: str) -> str:
    extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x}" y="{y}" font-size="{size}" {extra}>{escape(text)}</text>'


def table_svg(view: Mapping[str, Any] | None = None) -> str:
    """The table in ``view`` (default: an example three-seat round) as SVG text."""
    if view is None:
        view = example_view()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" font-family="sans-serif" role="img">',
        f"<title>The House Job — round {view['round']}</title>",
        f'<rect width="{W}" height="{H}" rx="18" fill="#0d5c3a"/>',
        f'<path d="M40 {H - 40} A {W / 2 - 40} 300 0 0 1 {W - 40} {H - 40}" fill="none" '
        'stroke="#e6c76a" stroke-width="2" opacity="0.6"/>',
    ]
    # The house
    dealer = view["dealer"]
    cards: list[str | None] = list(dealer["cards"])
    if dealer["hole_down"]:
        cards.insert(1, None)
    x0 = W / 2 - len(cards) * (CARD_W + 6) / 2
    out.append(
        _text(W / 2, 30, "THE HOUSE", 14, fill="#f3e9d2", text_anchor="middle", font_weight="bold")
    )
    for i, c in enumerate(cards):
        out.append(_card(x0 + i * (CARD_W + 6), 42, c))
    if dealer["cards"]:
        shown = f"shows {dealer['points']}" if dealer["hole_down"] else f"has {dealer['points']}"
        out.append(_text(W / 2, 108, shown, 12, fill="#f3e9d2", text_anchor="middle"))
    # The Take strip with The Count and The Tell
    strip = f"TAKE {view['take']}  (opened at {view['opening']})"
    if "count" in view:
        c = view["count"]
        strip += f"   ·   The Count {c['tens_and_aces']}/{c['cards']} {c['reading']}"
    if "tell" in view:
        strip += f"   ·   The Tell {view['tell']}"
    out.append(f'<rect x="140" y="120" width="{W - 280}" height="26" rx="13" fill="#083d27"/>')
    out.append(
        _text(W / 2, 138, strip, 13, fill="#ffe08a", text_anchor="middle", font_weight="bold")
    )
    for i, p in enumerate(view["pending"]):
        out.append(
            _text(W / 2, 164 + 16 * i, "• " + p["text"], 11, fill="#f3e9d2", text_anchor="middle")
        )
    # The deck, with its face-up cards
    deck = view["deck"]
    out.append(_card(W - 90, 40, None))
    out.append(_text(W - 73, 104, f"deck {deck['left']}", 11, fill="#f3e9d2", text_anchor="middle"))
    for i, c in enumerate(deck["face_up"]):
        out.append(_card(W - 132 - i * (CARD_W + 4), 40, c))
    # The boxes along the rail
    boxes = view["boxes"]
    n = max(1, len(boxes))
    for i, b in enumerate(boxes):
        cx = 80 + (W - 160) * (i + 0.5) / n
        cy = 300 + 40 * abs(i - (n - 1) / 2) / max(1, n / 2)
        ring = "#ffd24a" if b["marked"] else "#f3e9d2"
        out.append(
            f'<circle cx="{cx}" cy="{cy + 86}" r="16" fill="#1b6e48" stroke="{ring}" '
            'stroke-width="2"/>'
        )
        bet = sum(h["bet"] for h in b["hands"])
        out.append(_text(cx, cy + 91, str(bet), 11, fill="#fff", text_anchor="middle"))
        label = b["name"] + ("  ★ MARK" if b["marked"] else "")
        out.append(
            _text(cx, cy - 12, label, 12, fill=ring, text_anchor="middle", font_weight="bold")
        )
        for j, h in enumerate(b["hands"]):
            hx = cx - len(h["cards"]) * (CARD_W + 3) / 2 + j * 80
            for k, c in enumerate(h["cards"]):
                out.append(_card(hx + k * (CARD_W + 3), cy + j * 6, c))
            if h["cards"]:
                tag = f"{'soft ' if h['soft'] else ''}{h['points']} · {h['status']}"
                out.append(
                    _text(cx + j * 70, cy + 64, tag, 11, fill="#f3e9d2", text_anchor="middle")
                )
        if b["backed"]:
            out.append(
                _text(
                    cx, cy + 122, f"backed {b['backed']}", 11, fill="#ffe08a", text_anchor="middle"
                )
            )
    # Whose turn
    banner = {"bet": "betting", "play": "to play", "call": "to Mark", "settled": "next round"}
    if view["phase"] in banner:
        out.append(
            _text(
                20,
                H - 16,
                f"Crew {view['turn']} {banner[view['phase']]}",
                13,
                fill="#ffe08a",
                font_weight="bold",
            )
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def example_view() -> dict[str, Any]:
    """A three-seat table mid-round: a Marked box, a Long Glass, a hand being played."""
    from gameweave_core import Match

    from .cards import stacked
    from .title import HouseJob

    hands = [("AS", "7S"), ("9H", "QH"), ("8C", "3D")]
    top = [*(h[0] for h in hands), "6D", *(h[1] for h in hands), "TD", "9S", "4C", "5H"]
    m = Match(HouseJob(), 3, 1, {"deck": stacked(*top)})
    for seat, role in ((1, "lookout"), (2, "bagman"), (3, "inside_man")):
        m.submit(seat, {"type": "draft", "role": role})
    m.submit(1, {"type": "mark", "box": 1})
    for seat, amount in ((1, 50), (2, 100), (3, 50)):
        m.submit(seat, {"type": "chips", "amount": amount})
        m.submit(seat, {"type": "deal_me_in"})
    m.submit(1, {"type": "ability", "card": "long_glass"})
    m.submit(1, {"type": "stand"})
    m.submit(2, {"type": "ability", "card": "double_bag"})
    m.submit(2, {"type": "ability", "card": "back_the_play", "box": 1, "amount": 100})
    m.submit(2, {"type": "stand"})
    return m.view(None)


if __name__ == "__main__":  # pragma: no cover
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("table.svg")
    target.write_text(table_svg(), encoding="utf-8")
    print(f"wrote {target}")
