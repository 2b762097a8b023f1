"""Museum Rush at the terminal: action labels, typed actions, and the board in 80x24.

An action is typed as its tag and fields in order, e.g. ``move B2``, ``loot``,
``lure 3 0 C2`` (Guard 3 to C2), ``lure -1 2 C2`` (Seat 2's thief to C2),
``route 1 B2-B3``, ``keep 14``, ``end`` or ``escape``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from rich.text import Text

from gameweave_core.actions import action_tag

from .actions import ACTIONS, End
from .cards import CARDS, COLUMN_LETTERS, COLUMNS, ROWS

#: Typed words for each action: its tag (``loot``), or its class name (``stealloot``).
_TAGS = {cls.__name__.lower(): cls for cls in ACTIONS}
_TAGS.update({action_tag(cls): cls for cls in ACTIONS})


def _card(card: int) -> str:
    c = CARDS[card]
    return f"{c.name} ${c.value}M" if c.value and c.kind in ("loot", "rare") else c.name


#: The actions whose ``guard`` field names a Guard (-1 in a Lure: a thief instead).
#: Typed and shown numbered from 1, as the board marks the Guards (G1, G2): the
#: field counts from 0.
_GUARDED = frozenset({"lure", "security", "route"})


def describe_action(action: Any) -> str:
    """A short label for a legal action: its tag, then its fields (a Guard by the
    number the board shows, ``security 1 E2`` for the field's 0)."""
    if isinstance(action, End):
        return "escape" if action.escape else "end"
    tag = action_tag(action)
    parts = [tag]
    for f in attrs.fields(type(action)):
        value = getattr(action, f.name)
        if f.name == "guard" and tag in _GUARDED and value >= 0:
            value += 1
        parts.append(str(value))
    text = " ".join(parts)
    if "card" in {f.name for f in attrs.fields(type(action))}:
        text += f" ({_card(action.card)})"
    return text


def parse_action(text: str, legal: Sequence[Any]) -> Any:
    """The action ``text`` names; ``ValueError`` with a one-line message otherwise.
    A readable but illegal action is returned as it is, for the match to refuse."""
    typed = " ".join(text.strip().lower().split())
    if not typed:
        raise ValueError("type an action, e.g. 'move B2' or 'end'")
    for a in legal:
        label = describe_action(a).lower()
        if typed in (label, label.split(" (")[0]):
            return a
    if typed == "escape":
        return End(True)
    if typed == "end":
        return End(False)
    words = typed.split()
    cls = _TAGS.get(words[0])
    if cls is None:
        kinds = sorted({describe_action(a).split()[0] for a in legal})
        raise ValueError(f"unknown action {words[0]!r}; now you can: {', '.join(kinds)}")
    fields = attrs.fields(cls)
    if len(words) - 1 != len(fields):
        names = " ".join(f.name for f in fields)
        raise ValueError(f"{words[0]} takes {len(fields)} value(s): {words[0]} {names}".strip())
    values: list[Any] = []
    for f, w in zip(fields, words[1:], strict=True):
        if f.type in (int, "int"):
            try:
                number = int(w)
            except ValueError:
                raise ValueError(f"{f.name} must be a number, not {w!r}") from None
            if f.name == "guard" and words[0] in _GUARDED and number >= 0:
                if number == 0:
                    raise ValueError("Guards are numbered from 1, as the board shows them (G1)")
                number -= 1
            values.append(number)
        elif f.type in (bool, "bool"):
            values.append(w in ("1", "true", "yes"))
        else:
            values.append(w.upper())
    return cls(*values)


#: Three letters per room for the 80-column grid.
ABBREVIATIONS = {
    "Egyptian Hall": "EGY",
    "Roman Gallery": "ROM",
    "Asian Art": "ASI",
    "Modern Art": "MOD",
    "Fossil Hall": "FOS",
    "Sculpture Court": "SCU",
    "Armoury": "ARM",
    "Sunflower Room": "SUN",
    "Mask Room": "MSK",
    "Judith Room": "JUD",
    "Vase Room": "VAS",
    "Crown Room": "CRN",
    "Sapphire Room": "SAP",
    "Night Watch Room": "NWR",
    "Vault": "VLT",
    "Security Room": "SEC",
    "Lost & Found": "L&F",
    "Archive A": "ArA",
    "Archive B": "ArB",
    "Entrance Hall": "ENT",
    "Gents": "GNT",
    "Ladies": "LAD",
    "Control Room": "CTL",
    "Gift Shop": "GFT",
    "Cloakroom": "CLK",
    "Cafe": "CAF",
    "Stairwell": "STR",
    "Library": "LIB",
}


#: What the marks in the grid's cells mean (the legend under the grid).
LEGEND = "L3=Loot $3M R=Rare C=Camera #2=locked *=open G1=Guard T=trap W=Way Out @2=Seat 2"


def _fit(line: str, width: int) -> str:
    """``line`` (rich markup) cut to ``width`` columns, with an ellipsis where it
    was cut."""
    text = Text.from_markup(line)
    if text.cell_len <= width:
        return line
    text.truncate(width, overflow="ellipsis")
    return text.markup


def _cell(tile: Mapping[str, Any], guards: Sequence[int], thieves: str) -> str:
    """Ten characters: the room's letters and what lies face up, then who is
    there after a space: Guards (``G1``, numbered), a trap, a Way Out, and the seats of the
    thieves after ``@`` (``ASIL1 @2``: Loot worth $1M, Seat 2's thief), so that a
    value never runs into a seat number."""
    room = ABBREVIATIONS.get(tile["room"], tile["room"][:3])
    top = tile.get("top")
    mark = "-"
    if top:
        mark = {"loot": "L", "rare": "R", "camera": "C"}.get(top["kind"], "?")
        if top["kind"] in ("loot", "rare"):
            mark += str(top["value"])
    if tile.get("code"):
        mark += "*" if all(tile["covered"]) else f"#{tile['covered'].count(False)}"
    marks = "".join(f"G{g + 1}" for g in guards)  # numbered as typed: security 1 E2
    people = marks + ("T" if tile["trap"] else "") + ("W" if tile["wayout"] else "")
    if thieves:
        people += f"@{thieves}"
    cell = f"{room}{mark} {people}" if people else f"{room}{mark}"
    return cell if len(cell) <= 10 else cell[:9] + "…"


def render_text(view: Mapping[str, Any], seat: int | None, width: int = 80) -> str:
    """The museum and the table in at most 24 lines of at most ``width`` columns
    (the grid takes 80; a line too long for the terminal ends in an ellipsis)."""
    guards: dict[str, list[int]] = {}
    for g in view["guards"]:
        guards.setdefault(g["at"], []).append(g["id"])
    thieves: dict[str, str] = {}
    for t in view["thieves"]:
        thieves[t["at"]] = thieves.get(t["at"], "") + str(t["seat"])
    lines = [("    " + "".join(f"{c:<11}" for c in COLUMN_LETTERS)).rstrip()]
    for r in range(ROWS):
        row = [view["grid"][r * COLUMNS + c] for c in range(COLUMNS)]
        cells = [_cell(t, guards.get(t["at"], []), thieves.get(t["at"], "")) for t in row]
        lines.append((f" {r + 1}  " + " ".join(f"{c:<10}" for c in cells)).rstrip())
    lines.extend(_legend(width))
    lines.append(
        f"Clocks {view['clocks']}/{view['clocks_to_end']}  deck {view['deck']}  "
        f"Vault {view['vault']['count']}  Lost&Found {view['lost']['count']}  "
        f"tokens {view['supply']}  turn: Seat {view['turn']}"
    )
    for t in view["thieves"]:
        known = ", ".join(_card(c["id"]) for c in t["known"])
        who = f"Seat {t['seat']} {t['thief']}".strip()
        lines.append(
            f"{who:<24} {t['at']:<3} keys {t['keys']} cards {t['valuables']}+{t['items']} {known}".rstrip()
        )
    you = view.get("you")
    if you is not None:
        hand = ", ".join(_card(c["id"]) for c in you["hand"]) or "nothing"
        lines.append(f"Your hand: {hand}")
        extra = []
        if "stash" in you:
            extra.append(f"Stash: {you['stash']}")
        if "buyer" in you:
            wants = " & ".join(w["name"] for w in you["buyer"]["wants"])
            extra.append(f"Buyer {you['buyer']['name']} wants {wants}")
        if extra:
            lines.append("; ".join(extra))
        if "drawn" in you:
            lines.append("You drew: " + ", ".join(_card(c["id"]) for c in you["drawn"]))
    if "pending" in view:
        p = view["pending"]
        lines.append(f"Waiting for Seat {p['by']}: {p['what']}")
    if view["rolls"]:
        r = view["rolls"][-1]
        lines.append(f"Last roll: Seat {r['seat']} ({r['for']}): {' '.join(map(str, r['dice']))}")
    if view["phase"] == "over":
        takes = ", ".join(f"Seat {s} ${t}M" for s, t in enumerate(view["takes"], start=1))
        lines.append(f"Game over ({view['ended']}): {takes}")
    return "\n".join(_fit(line, width) for line in lines[:24])


def _legend(width: int) -> list[str]:
    """The grid's legend in one line, or two on a terminal too narrow for it."""
    if len(LEGEND) <= width:
        return [LEGEND]
    cut = LEGEND.rindex(" ", 0, width)
    return [LEGEND[:cut], LEGEND[cut + 1 :]]
