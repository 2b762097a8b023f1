"""Master Thief in a terminal: action labels, typed actions, the table in 80x24."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from .actions import (
    Discard,
    Drop,
    EndTurn,
    Escape,
    Grip,
    Latch,
    Lift,
    Pass,
    PlayUtility,
    Raid,
    Snoop,
    Stash,
    Stay,
    Steal,
    Surrender,
    Swipe,
    Trip,
    Vote,
)

WIDTH = 80
SHORT = {
    "Artifacts": "Ar",
    "Bones": "Bo",
    "Gems": "Ge",
    "Masks": "Ma",
    "Paintings": "Pa",
    "Statues": "St",
    "Security": "Se",
}


def describe_action(action: Any) -> str:
    """The label of an action in menus and buttons, also what a player types."""
    match action:
        case Steal():
            return "steal"
        case Swipe(target=t, item=i):
            return f"swipe {t} {i}"
        case Stash(item=i):
            return f"stash {i}"
        case Raid(target=t):
            return f"raid {t}"
        case Trip(target=t, item=i):
            return f"trip {t} {i}"
        case Snoop(target=t):
            return f"snoop {t}"
        case Lift():
            return "lift"
        case PlayUtility(card=c):
            return f"play {c}"
        case Grip():
            return "grip"
        case Latch():
            return "latch"
        case Pass():
            return "pass"
        case Surrender(item=i):
            return f"surrender {i}"
        case Vote(abandon=a):
            return "vote abandon" if a else "vote continue"
        case EndTurn():
            return "end turn"
        case Discard(card=c):
            return f"discard {c}"
        case Drop(item=i):
            return f"drop {i}"
        case Stay():
            return "stay"
        case Escape():
            return "escape"
    raise TypeError(f"not a Master Thief action: {action!r}")


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def parse_action(text: str, legal: Sequence[Any]) -> Any:
    """An action typed as its label (any case), or the start of exactly one label:
    ``swipe 2 ruby`` for ``swipe 2 Ruby Sceptre``. Raises ``ValueError`` otherwise."""
    typed = _norm(text)
    labels = [(_norm(describe_action(a)), a) for a in legal]
    for label, act in labels:
        if label == typed:
            return act
    starts = [act for label, act in labels if typed and label.startswith(typed)]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise ValueError(f"{text.strip()!r} fits {len(starts)} actions; type more of it")
    examples = ", ".join(sorted({label.split()[0] for label, _ in labels}))
    raise ValueError(f"cannot read {text.strip()!r}: try one of {examples} (or a menu number)")


def _item(entry: Mapping[str, Any]) -> str:
    return f"{entry['name']}({SHORT[entry['category']]}{entry['bmc']})"


def _seats(values: Sequence[Any]) -> str:
    # Comma-separated, never a Python list: square brackets are rich markup.
    return ", ".join(str(v) for v in values) or "none"


def _fitter(width: int) -> Any:
    """Cuts a line of rich markup to ``width`` columns (as shown: markup takes no
    room), with an ellipsis where it was cut."""

    def fit(line: str) -> str:
        text = Text.from_markup(line)
        if text.cell_len <= width:
            return line
        text.truncate(width, overflow="ellipsis")
        return text.markup

    return fit


def render_text(view: Mapping[str, Any], seat: int | None, width: int = WIDTH) -> str:
    """The seat's view drawn with rich markup, at most 24 lines of ``width`` columns."""
    _fit = _fitter(width)
    strikes = len(view["strikes"])
    head = (
        f"MASTER THIEF  {view['phase'].upper()}  turn: Seat {view['turn']}  "
        f"Strikes {strikes}/{view['strikes_to_end']}  Museum {view['museum']}  "
        f"Thief deck {view['deck']}"
    )
    lines = [f"[bold]{_fit(head)}[/bold]"]
    for s in view["seats"]:
        you = " (you)" if s["seat"] == seat else ""
        calling = f" {s['calling']}" if "calling" in s else ""
        top = (
            f"Seat {s['seat']}{you} ({s['status']}){calling} hand {s['hand']}"
            f" carry {len(s['carried'])}/{s['carry_limit']}"
        )
        if s["utilities"]:
            top += " in play: " + ", ".join(s["utilities"])
        lines.append(_fit(top))
        items = " ".join(_item(i) for i in s["carried"]) or "-"
        stash = " ".join(_item(i) for i in s["stashed"]) or "-"
        lines.append(_fit(f"  carried: {items} | stashed: {stash}"))
    if "security" in view:
        sec = view["security"]
        card = sec["card"]
        lines.append(
            _fit(
                f"[red]SECURITY {card['name']}[/red]: avert with {card['category']} "
                f"(pulled by Seat {sec['pulled_by']})"
            )
        )
    if "window" in view:
        w = view["window"]
        what = f" at Seat {w['target']}" if "target" in w else ""
        lines.append(
            _fit(
                f"Answering Seat {w['actor']}'s {w['trigger']}{what}: asked "
                f"{_seats(w['asked'])}; answered {_seats(w['answered'])}"
            )
        )
    notes = [view[k] for k in ("jury",) if k in view]
    if view.get("last_turn"):
        notes.append("Thief deck empty: last turn")
    if view.get("final_turn"):
        notes.append("last thief inside: final turn")
    if "scores" in view:
        if "winners" in view:
            many = len(view["winners"]) > 1
            won = f", winner{'s' if many else ''} {_seats(view['winners'])}"
        else:
            won = ", a tie-break"
        notes.append(f"Final BMC {_seats(view['scores'])}{won} ({view['ended']})")
    # Each note whole, folded at word boundaries: the last one is how the game ended
    # (the scores and the winners), which a cut line would hide.
    for note in notes:
        lines.extend(_fit(row) for row in textwrap.wrap(note, width, subsequent_indent="  "))
    if seat is not None:
        lines.append(_fit(f"[bold]Your hand:[/bold] {', '.join(view['hand']) or '-'}"))
        lines.append(_fit(f"Your Calling Card: {view['calling']}"))
    return "\n".join(lines[:24])
