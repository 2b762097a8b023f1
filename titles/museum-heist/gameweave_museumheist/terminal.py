"""Museum Heist in a terminal: drawing a view (within 80 x 24), reading typed actions.

``render_text`` draws only from the view it is given (rich markup). ``parse_action``
reads what a person types: ``place D5``, ``choose artist``, ``move guard E5``
(or just ``guard E5``), ``challenge 2 artist``, ``swap artist guard``. Characters
may be given by key, by a word of their name, or by their board letter. As in
the other titles, a single word stands for the one legal action it names: a
square (``E5``: the only piece that may move there, or the Artwork placed
there) or a piece (``guard``: its only move).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from .actions import Challenge, Choose, Move, Place, Swap
from .board import CHARACTERS, LETTERS, NAMES, parse_character, parse_coord


def describe_action(act: Any) -> str:
    """An action as a person would type it (``parse_action`` reads it back)."""
    match act:
        case Place(at=at):
            return f"place {at}"
        case Choose(character=c):
            return f"choose {c}"
        case Move(piece=p, to=to):
            return f"move {p} {to}"
        case Challenge(seat=s, character=c):
            return f"challenge {s} {c}"
        case Swap(first=a, second=b):
            return f"swap {a} {b}"
    raise TypeError(f"not a Museum Heist action: {act!r}")


def _kinds(legal: Sequence[Any]) -> str:
    words = {describe_action(a).split()[0] for a in legal}
    return ", ".join(sorted(words)) or "nothing (it is not your turn)"


def _square(word: str) -> str:
    t = word.upper()
    parse_coord(t)  # raises a one-line ValueError
    return t


def parse_action(text: str, legal: Sequence[Any]) -> Any:
    """The action ``text`` describes; ``ValueError`` with a one-line message when it
    cannot be read. A readable but illegal action is returned as it is: the match
    refuses it and says why."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError(f"type an action; now you can: {_kinds(legal)}")
    cmd, args = words[0], words[1:]
    if cmd in ("place", "p"):
        if len(args) != 1:
            raise ValueError("place needs one square: place D5")
        return Place(_square(args[0]))
    if cmd in ("choose", "pick"):
        if not args:
            raise ValueError("choose needs a character: choose artist")
        return Choose(parse_character(" ".join(args)))
    if cmd in ("challenge", "c", "accuse"):
        if len(args) < 2 or not args[0].isdigit():
            raise ValueError("challenge needs a seat number and a character: challenge 2 artist")
        return Challenge(int(args[0]), parse_character(" ".join(args[1:])))
    if cmd in ("swap", "s"):
        if len(args) != 2:
            raise ValueError("swap needs two characters: swap artist guard")
        a, b = sorted((parse_character(args[0]), parse_character(args[1])), key=CHARACTERS.index)
        return Swap(a, b)
    if cmd in ("move", "m"):
        if len(args) < 2:
            raise ValueError("move needs a character and a square: move guard E5")
        return Move(parse_character(" ".join(args[:-1])), _square(args[-1]))
    if len(words) == 1:
        return _one_word(words[0], legal)
    # "guard e5": a character then a square.
    if len(words) >= 2:
        try:
            piece = parse_character(" ".join(words[:-1]))
        except ValueError:
            piece = ""
        if piece:
            return Move(piece, _square(words[-1]))
    raise ValueError(f"cannot read {text!r}; now you can: {_kinds(legal)}")


def _one_word(word: str, legal: Sequence[Any]) -> Any:
    """The legal action a single typed word names: a square (where one piece may
    move, or the Artwork may go) or a piece (that has one move); ``ValueError``
    saying what the word could mean when it names none or several."""
    try:
        at = _square(word)
    except ValueError:
        at = ""
    if at:
        found = [a for a in legal if isinstance(a, Move | Place) and _target(a) == at]
        if len(found) == 1:
            return found[0]
        if found:
            options = " or ".join(describe_action(a) for a in found)
            raise ValueError(f"several pieces may move to {at}: type {options}")
        raise ValueError(f"nothing you may do now goes to {at}; now you can: {_kinds(legal)}")
    try:
        piece = parse_character(word)
    except ValueError:
        raise ValueError(f"cannot read {word!r}; now you can: {_kinds(legal)}") from None
    moves = [a for a in legal if isinstance(a, Move) and a.piece == piece]
    if len(moves) == 1:
        return moves[0]
    if moves:
        squares = ", ".join(m.to for m in moves)
        raise ValueError(f"{_name(piece)} may move to {squares}: type {piece} and the square")
    raise ValueError(f"{_name(piece)} has no move now; now you can: {_kinds(legal)}")


def _target(action: Move | Place) -> str:
    return action.to if isinstance(action, Move) else action.at


def _name(c: str) -> str:
    return NAMES.get(c, c)


def _fit(line: str, width: int) -> str:
    """A line of markup cut to ``width`` columns with an ellipsis (a board row's
    fixed parts always fit; a list of facts can run long)."""
    text = Text.from_markup(line)
    if text.cell_len <= width:
        return line
    text.truncate(width, overflow="ellipsis")
    return text.markup


def render_board(view: Mapping[str, Any]) -> list[str]:
    """The board, 10 lines: letters for pieces, * the Artwork, @ a free passage."""
    board = view["board"]
    columns = board["columns"]
    at = {sq: LETTERS[c] for c, sq in view["pieces"].items()}
    passages = set(board["passages"])
    art = view.get("artwork", "")
    legend = [f"{LETTERS[c]} {NAMES[c]}" for c in CHARACTERS]
    legend += ["* the Artwork", "@ Secret Passage"]
    header = "    " + " ".join(columns)
    lines = [header + "      Pieces"]
    for row in range(1, board["size"] + 1):
        cells = []
        for col in columns:
            sq = f"{col}{row}"
            if sq in at:
                style = "bold yellow" if sq == art else "bold"
                cells.append(f"[{style}]{at[sq]}[/]")
            elif sq == art:
                cells.append("[bold yellow]*[/]")
            elif sq in passages:
                cells.append("[cyan]@[/]")
            else:
                cells.append("[grey50].[/]")
        side = legend[row - 1] if row - 1 < len(legend) else ""
        lines.append(f"{row:>3} " + " ".join(cells) + f"  {row:<3} {side}")
    lines.append(header + "      " + legend[8])
    return lines


def render_text(view: Mapping[str, Any], seat: int | None, width: int = 80) -> str:
    """The whole screen for one seat, from that seat's view alone (at most 17 lines,
    so a menu fits below it in 24), no line wider than ``width`` columns."""
    you = view.get("you", {})
    who = f"Seat {you['seat']}" if you else "spectator"
    card = f"your card: [bold]{_name(you['card'])}[/]" if you.get("card") else "no card yet"
    if not you:
        card = "watching"
    out = [f"[bold]Museum Heist[/] · round {view['round']} · {who} · {card}"]
    turn = f" · Seat {view['turn']} to act" if "turn" in view else ""
    out.append(f"{view['phase_text']}{turn}")
    out.extend(render_board(view))
    tokens = "  ".join(
        f"S{s} {'●' * t}{'○' * (view['target'] - t)} swaps {w}"
        for s, (t, w) in enumerate(zip(view["tokens"], view["swaps"], strict=True), start=1)
    )
    out.append(tokens)
    facts = []
    if view["out"]:
        facts.append("out: " + ", ".join(f"Seat {s}" for s in view["out"]))
    if view["known"]:
        facts.append("seen: " + ", ".join(f"Seat {s} {_name(c)}" for s, c in view["known"].items()))
    if view["ruled_out"]:
        facts.append(
            "not: "
            + "; ".join(
                f"S{s} " + "/".join(LETTERS[c] for c in cs) for s, cs in view["ruled_out"].items()
            )
        )
    if view["phase"] == "choose":
        facts.append("chosen: " + (", ".join(f"Seat {s}" for s in view["chosen"]) or "nobody"))
    if facts:
        out.append(" · ".join(facts))
    if view["moves"]:
        recent = view["moves"][-2:]
        out.append(
            "moves: "
            + "; ".join(f"S{m['seat']} {LETTERS[m['piece']]} {m['from']}→{m['to']}" for m in recent)
        )
    last = view.get("last")
    if "winner" in view:
        out.append(f"[bold]Seat {view['winner']} wins the game[/]")
    elif last:
        shown = ", ".join(f"Seat {s} {_name(c)}" for s, c in last["revealed"].items())
        seen = ", ".join(f"S{s} {LETTERS[c]}" for s, c in last.get("shown_to_you", {}).items())
        out.append(
            f"Round {last['round']} went to Seat {last['winner']} ({last['how']})"
            + (f": {shown}" if shown else "")
            + (f"; shown to you: {seen}" if seen else "")
        )
    return "\n".join(_fit(line, width) for line in out)
