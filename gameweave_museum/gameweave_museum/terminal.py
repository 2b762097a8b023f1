"""The Museum Job in a terminal: drawing a view, and reading typed actions.

``render_text`` draws only from the view it is given (rich markup): the map with
coordinates on its edges, guards, camera coverage, evidence, the placards, the
dawn track, and for the Thief their own square and satchel. ``parse_action``
reads what a person types, e.g. ``walk K7``, ``walk K7 cut``, ``hold``,
``guard 2 D4``, ``post 1 J4 seat 2``, ``enter A8``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from . import symbols
from .actions import (
    THEN_CUT,
    THEN_ESCAPE,
    Cut,
    Enter,
    Escape,
    Hold,
    Lift,
    MoveGuard,
    Pick,
    Post,
    Walk,
)
from .floorplan import coord, parse_coord

# -- describing and parsing ------------------------------------------------------

_SIMPLE = {"hold": Hold, "lift": Lift, "pick": Pick, "cut": Cut, "escape": Escape}


def describe_action(act: Any) -> str:
    """An action as a person would type it (``parse_action`` reads it back)."""
    if isinstance(act, Walk):
        return f"walk {act.to}" + (f" {act.then}" if act.then else "")
    if isinstance(act, MoveGuard):
        return f"guard {act.guard} {act.to}"
    if isinstance(act, Post):
        return f"post {act.guard} {act.at} seat {act.seat}"
    if isinstance(act, Enter):
        return f"enter {act.exit}"
    for word, cls in _SIMPLE.items():
        if isinstance(act, cls):
            return word
    raise TypeError(f"not a Museum Job action: {act!r}")


def _square(word: str) -> str:
    return coord(parse_coord(word))


def _number(word: str, what: str) -> int:
    if not word.isdigit():
        raise ValueError(f"{what} must be a number, not {word!r}")
    return int(word)


def _kinds(legal: Sequence[Any]) -> str:
    words = {describe_action(a).split()[0] for a in legal}
    return ", ".join(sorted(words)) or "nothing (it is not your turn)"


def parse_action(text: str, legal: Sequence[Any]) -> Any:
    """The action ``text`` describes; ``ValueError`` with a helpful one-line message
    when it cannot be read. A readable but illegal action is returned as it is:
    the match refuses it and says why."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError(f"type an action; now you can: {_kinds(legal)}")
    cmd, args = words[0], words[1:]
    if cmd in _SIMPLE:
        if args:
            raise ValueError(f"'{cmd}' takes nothing after it (to move, type: walk K7 {cmd})")
        return _SIMPLE[cmd]()
    if cmd in ("walk", "w", "go"):
        if not args or len(args) > 2:
            raise ValueError("walk needs a square, then optionally cut or escape: walk K7 cut")
        then = None
        if len(args) == 2:
            if args[1] not in (THEN_CUT, THEN_ESCAPE):
                raise ValueError(f"a walk may end with 'cut' or 'escape', not {args[1]!r}")
            then = args[1]
        return Walk(_square(args[0]), then)
    if cmd in ("guard", "g"):
        if len(args) != 2:
            raise ValueError("move a guard like this: guard 2 D4")
        return MoveGuard(_number(args[0], "the guard"), _square(args[1]))
    if cmd == "post":
        if args[2:3] == ["seat"]:
            del args[2]
        if len(args) == 2:
            guard, at = _number(args[0], "the guard"), _square(args[1])
            seats = sorted({a.seat for a in legal if isinstance(a, Post) and a.guard == guard})
            if len(seats) != 1:
                raise ValueError(f"say who runs guard {guard}: post {guard} {at} seat 2")
            return Post(guard, at, seats[0])
        if len(args) != 3:
            raise ValueError("post a guard like this: post 1 J4 seat 2")
        return Post(_number(args[0], "the guard"), _square(args[1]), _number(args[2], "the seat"))
    if cmd == "enter":
        if len(args) != 1:
            raise ValueError("choose your way in like this: enter A8")
        return Enter(_square(args[0]))
    if not args and len(cmd) >= 2 and cmd[0].isalpha() and cmd[1:].isdigit():
        # A bare square: the obvious move for whoever is asked to act.
        square = _square(cmd)
        for act in legal:
            if isinstance(act, MoveGuard):
                return MoveGuard(act.guard, square)
            if isinstance(act, Enter):
                return Enter(square)
        return Walk(square)
    raise ValueError(f"unknown action {cmd!r}; now you can: {_kinds(legal)}")


# -- drawing ---------------------------------------------------------------------

#: The width drawn for when the terminal's is not known: 80 columns.
WIDTH = 80
#: From this width on, the placards, evidence and secrets stand beside the map.
WIDE = 118

#: The floor's tint in each wing (the same as the browser's and the docs').
WING_TINT = dict(symbols.WINGS)

#: The mark of a square the monitors watch now: a glyph as well as a shade, so it
#: shows without colours (``NO_COLOR``) too.
WATCHED = symbols.glyph("watched")
WATCHED_STYLE = "on grey23"


def style(kind: str) -> str:
    """The rich style of a kind of square: its colour from :mod:`.symbols`, and
    bold for what moves (a guard is white on its colour, to stand out most)."""
    hue = symbols.colour(kind)
    if kind == "guard":
        return f"bold white on {hue}"
    if kind in ("thief", "last_seen", "watched"):
        return f"bold {hue}"
    return hue


#: The legend: (glyph, style, meaning), one short entry per symbol of the map, all
#: from :mod:`.symbols` (the browser and the docs draw the same).
LEGEND_ENTRIES: tuple[tuple[str, str, str], ...] = tuple(
    (s.glyph, style(s.kind), s.name) for s in symbols.SQUARES
)

#: A piece of a line: its text and its rich style ("" for none).
Seg = tuple[str, str]


def _markup(segs: Sequence[Seg]) -> str:
    """Segments as rich markup (the text's own brackets escaped)."""
    out = []
    for text, style in segs:
        safe = text.replace("[", "\\[")
        out.append(f"[{style}]{safe}[/]" if style else safe)
    return "".join(out)


def _len(segs: Sequence[Seg]) -> int:
    return sum(len(text) for text, _ in segs)


def _pack(
    items: Sequence[list[Seg]], width: int, first: list[Seg] | None = None, sep: str = "  "
) -> list[str]:
    """Items laid out on as few lines as fit ``width``, ``sep`` apart, never
    breaking an item (so no word is ever split); ``first`` opens the first line
    and the lines after it are indented."""
    lines: list[list[Seg]] = [list(first or [])]
    for item in items:
        line = lines[-1]
        gap = [(sep, "")] if _len(line) else []
        if _len(line) and _len(line) + len(sep) + _len(item) > width:
            lines.append([("  ", ""), *item] if first else list(item))
        else:
            line.extend(gap + item)
    return [_markup(line) for line in lines if line]


def legend_items(*, short: bool = False) -> list[list[Seg]]:
    """The legend's entries; ``short`` puts the three kinds of exit on one entry.

    Every seat gets the same legend (the Thief's ``@`` is drawn for everyone once
    the heist is over), so that screens differ only where the views do."""
    entries = list(LEGEND_ENTRIES)
    if short:
        exits = [e for e in entries if e[0] in "DWS"]
        entries = [e for e in entries if e not in exits]
        entries.insert(-2, (" ".join(e[0] for e in exits), style("door"), "exits"))
    return [
        [(glyph, look), (" " * max(1, 3 - len(glyph)) + meaning, "")]
        for glyph, look, meaning in entries
    ]


def _cells(view: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Glyph (two characters) and style for every square that is not plain floor."""
    board = view["board"]
    cells: dict[str, tuple[str, str]] = {}

    def put(square: str, kind: str, number: int | None = None, *, on: str = "") -> None:
        text = symbols.glyph(kind, number)
        cells[square] = (text.ljust(2), style(kind) + on)

    for sq in board["walls"]:
        put(sq, "wall")
    for sq in board["office"]:
        put(sq, "office")
    for sq in board["posts"]:
        put(sq, "post")
    for ex in board["exits"]:
        put(ex["at"], ex["kind"] if ex["kind"] in symbols.EXIT_KINDS else "door")
    for br in board["breakers"]:
        put(br["at"], "breaker")
    for cam in board["cameras"]:
        put(cam["at"], "camera", cam["number"])
    for placard in view["placards"]:
        if placard["status"] == "gone":
            put(placard["case"], "empty")
        else:
            put(placard["case"], "vault" if placard["kind"] == "vault" else "case")
    seen = view.get("last_seen")
    if seen:
        put(seen["at"], "last_seen")
    thief = view.get("thief") or view.get("reveal")
    if thief and "at" in thief:
        put(thief["at"], "thief")
    for g in view["guards"]:
        # Drawn after the Thief: a guard on the Thief's square has caught them, and
        # the catch is the guard's (the Thief's colour under it shows they are there too).
        caught = thief is not None and thief.get("at") == g["at"]
        text = symbols.glyph("guard", g["number"])
        hue = symbols.colour("thief" if caught else "guard")
        cells[g["at"]] = (text, f"bold white on {hue}")
    return cells


def watched_squares(view: Mapping[str, Any]) -> set[str]:
    """The squares the monitors show now (none while nobody is in the Office)."""
    watched: set[str] = set()
    if view["monitors_watched"]:
        for cam, state in zip(view["board"]["cameras"], view["cameras"], strict=True):
            if state["status"] == "working":
                watched.update(cam["covers"])
    return watched


def render_map(view: Mapping[str, Any], seat: int | None, *, right_numbers: bool = True) -> str:
    """The floor plan with everything the view shows, coordinates on its edges
    (the row numbers on the right too unless ``right_numbers`` is false, and the
    column letters below only then)."""
    board = view["board"]
    columns = board["columns"]
    cells = _cells(view)
    wing_of = {sq: wing for wing, squares in board["wings"].items() for sq in squares}
    watched = watched_squares(view)
    header = "    " + " ".join(f"{c} " for c in columns)
    lines = [header.rstrip()]
    for row in range(1, board["height"] + 1):
        parts = []
        for col in columns:
            sq = f"{col}{row}"
            glyph, style = cells.get(sq, (". ", WING_TINT.get(wing_of.get(sq, ""), "white")))
            if sq in watched:
                if glyph == ". ":
                    glyph = f"{WATCHED} "
                elif glyph[1] == " ":
                    glyph = glyph[0] + WATCHED
                if " on " not in f" {style}":
                    style += f" {WATCHED_STYLE}"
            parts.append(f"[{style}]{glyph}[/]")
        line = f"{row:>3} " + " ".join(parts)
        lines.append(line + f" {row}" if right_numbers else line)
    if right_numbers:
        lines.append(header.rstrip())
    return "\n".join(lines)


def _who(view: Mapping[str, Any]) -> str:
    you = view["you"]
    guards = you.get("guards") or []
    runs = f" (guard{'s' if len(guards) > 1 else ''} {', '.join(map(str, guards))})"
    return f"you are [bold]{you['role']}[/]" + (runs if guards else "")


def _phase(view: Mapping[str, Any]) -> str:
    mover = view.get("guard_to_move")
    return str(view["phase_text"]) + (f" — guard {mover} to move" if mover else "")


def _monitors(view: Mapping[str, Any]) -> str:
    if view["monitors_watched"]:
        return f"monitors watched ([bold]{WATCHED}[/] squares)"
    return "monitors: nobody watching"


def _faults(view: Mapping[str, Any]) -> list[str]:
    dead = [
        f"camera {c['number']} {c['status']}" for c in view["cameras"] if c["status"] != "working"
    ]
    dark = [f"{b['wing']} breaker dark" for b in view["breakers"] if b["status"] != "on"]
    return dead + dark


def _mine(view: Mapping[str, Any]) -> dict[str, Any]:
    secret = view.get("thief") or {}
    return {item["case"]: item for item in secret.get("satchel", [])}


def _case_items(view: Mapping[str, Any]) -> list[list[Seg]]:
    """Each placard in a few characters: case, value, ``h`` for heavy, and what
    became of it (``gone``, or ``yours`` when it is in the Thief's satchel)."""
    mine = _mine(view)
    items = []
    for p in view["placards"]:
        item: list[Seg] = [(f"{p['case']} {p['value']}{'h' if p['heavy'] else ''}", "")]
        if p["status"] == "gone":
            item.append((f" gone r{p['taken_round']}", symbols.colour("empty")))
        elif p["case"] in mine:
            item.append((" yours", symbols.colour("thief")))
        items.append(item)
    return items


def _secret_lines(view: Mapping[str, Any], width: int) -> list[str]:
    """The Thief's own lines (nothing on another seat's screen)."""
    secret = view.get("thief")
    if not secret:
        return []
    out = [
        f"[{style('thief')}]You[/] at {secret.get('at', 'outside')}; satchel worth "
        f"{secret['satchel_value']} (4 to leave)"
        + (f"; walk {secret['walk']} steps" if "walk" in secret else "")
    ]
    items = [f"{a['name']} ({a['value']})" for a in secret["carrying"]]
    if items:
        out.extend(_pack([[(f"{i},", "")] for i in items], width, [("Satchel: ", "")]))
    out.append(f"Open exits: {', '.join(secret['open_exits']) or 'none'}")
    cuts = [f"camera {c['number']}" for c in secret["cut_cameras"] if not c["found"]] + [
        f"{b['wing']} breaker" for b in secret["cut_breakers"] if not b["found"]
    ]
    if cuts:
        out.append(f"Cuts not yet found: {', '.join(cuts)}")
    route = list(secret["route"])
    steps: list[list[Seg]] = [[(f"→ {sq}" if n else sq, "")] for n, sq in enumerate(route)]
    out.extend(_pack(steps, width, [("Route:", "")], sep=" "))
    return out


def _reveal_lines(view: Mapping[str, Any], width: int) -> list[str]:
    reveal = view.get("reveal")
    if not reveal:
        return []
    out = [f"[bold]The heist is over ({view['ended']}). What the Thief did:[/]"]
    route = [[(f"→ {sq}" if n else sq, "")] for n, sq in enumerate(reveal["route"])]
    entry = reveal.get("entry", "?")
    out.extend(_pack(route, width, [(f"Broke in at {entry}; route", "")], sep=" "))
    out.append(f"Satchel worth {reveal['satchel_value']}")
    return out


def _beside(left: list[str], left_width: int, right: list[str], gap: int) -> list[str]:
    """Two columns of markup lines; the left ones are ``left_width`` wide."""
    out = []
    for n in range(max(len(left), len(right))):
        a = left[n] if n < len(left) else ""
        b = right[n] if n < len(right) else ""
        if b:
            pad = left_width - len(_plain(a)) + gap
            out.append(a + " " * pad + b)
        else:
            out.append(a)
    return out


def _plain(markup: str) -> str:
    """The visible text of markup built here (tags removed, escapes undone)."""
    return re.sub(r"(?<!\\)\[[^\]\[]*\]", "", markup).replace("\\[", "[")


def _header_items(view: Mapping[str, Any]) -> list[list[Seg]]:
    """Round, dawn and whose move it is: the same words for every seat (the
    adapters name the seat and its role around the screen)."""
    dawn = view["dawn"]
    mover = view.get("guard_to_move")
    return [
        [(f"Round {view['round']}", "")],
        [("Dawn ", ""), ("●" * dawn, "yellow"), ("○" * (18 - dawn), "grey35"), (f" {dawn}", "")],
        [(f"guard {mover} to move" if mover else view["phase_text"], "")],
    ]


def _narrow_secrets(view: Mapping[str, Any], width: int) -> list[str]:
    """The Thief's own facts, packed into a line or two."""
    secret = view.get("thief")
    if not secret:
        return []
    where = f" at {secret['at']}" if "at" in secret else " are outside"
    items: list[list[Seg]] = [
        [("You", style("thief")), (where, "")],
        [(f"loot {secret['satchel_value']} (4 to leave)", "")],
    ]
    if "walk" in secret:
        items.append([(f"walk {secret['walk']}", "")])
    if secret["open_exits"]:
        items.append([(f"open exits {', '.join(secret['open_exits'])}", "")])
    items.extend([(f"carrying {a['name']} {a['value']}", "")] for a in secret["carrying"])
    cuts = [f"camera {c['number']}" for c in secret["cut_cameras"] if not c["found"]] + [
        f"{b['wing']} breaker" for b in secret["cut_breakers"] if not b["found"]
    ]
    if cuts:
        items.append([(f"unfound cuts: {', '.join(cuts)}", "")])
    route = list(secret["route"])
    if route:
        shown = " → ".join(route[-4:])
        items.append([(f"route {'… → ' if len(route) > 4 else ''}{shown}", "")])
    return _pack(items, width, sep=" · ")


def _narrow_evidence(view: Mapping[str, Any], width: int) -> list[str]:
    """The newest evidence that fits one line (all of it is in the history)."""
    evidence = view["evidence"]
    if not evidence:
        return []
    head: list[Seg] = [("Evidence:", "bold")]
    room = width - _len(head)
    shown: list[str] = []
    for n, ev in enumerate(reversed(evidence)):
        word = evidence_short(ev)
        rest = len(evidence) - n - 1
        more = f" +{rest} older" if rest else ""
        if len(" ".join([*shown, word])) + 1 + len(more) > room:
            break
        shown.append(word)
    older = len(evidence) - len(shown)
    text = " " + "; ".join(shown) + (f"; +{older} older" if older else "")
    return [_markup([*head, (text, "")])]


def render_text(view: Mapping[str, Any], seat: int | None, width: int = WIDTH) -> str:
    """The whole screen for one seat, from that seat's view alone, laid out for a
    terminal ``width`` columns wide. Below :data:`WIDE` it is compact, so that at
    80×24 the map, its legend and the menu fit on one screen; from :data:`WIDE` on,
    the placards, evidence and secrets stand in full beside the map. Nothing is
    ever broken mid-word."""
    if width >= WIDE:
        return _render_wide(view, seat, width)
    out = _pack(_header_items(view), width, sep=" · ")
    board = render_map(view, seat, right_numbers=False)
    map_width = 4 + 3 * len(view["board"]["columns"]) - 1
    legend = legend_items(short=True)
    panel = [*(_markup(i) for i in legend), "", _monitors_short(view)]
    if width >= map_width + 2 + max(_len(item) for item in legend):
        out.extend(_beside(board.split("\n"), map_width, panel, 2))
    else:
        out.extend(board.split("\n"))
        out.extend(_pack([*legend, [(_plain(panel[-1]), "")]], width))
    out.extend(_pack(_case_items(view), width, [("Cases (h heavy):", "")]))
    faults = _faults(view)
    if faults:
        out.extend(_pack([[(f, "")] for f in faults], width, [("Known faults:", "red")]))
    out.extend(_narrow_evidence(view, width))
    out.extend(_narrow_secrets(view, width))
    out.extend(_reveal_lines(view, width))
    return "\n".join(out)


def _monitors_short(view: Mapping[str, Any]) -> str:
    return f"monitors [bold]{'on' if view['monitors_watched'] else 'off'}[/]"


def _render_wide(view: Mapping[str, Any], seat: int | None, width: int) -> str:
    board = render_map(view, seat).split("\n")
    map_width = 4 + 3 * len(view["board"]["columns"]) + 2
    panel = width - map_width - 3
    right = [
        f"Y{_who(view)[1:]}",
        *_pack([*_header_items(view)[:-1], [(_phase(view), "")]], panel, sep="   "),
        _monitors(view).capitalize(),
        "",
        *_pack(legend_items(), panel),
        "",
        "[bold]Placards[/] (h: heavy)",
    ]
    mine = _mine(view)
    for p in view["placards"]:
        line = f"{p['case']:>3} {p['value']}{'h' if p['heavy'] else ' '} {p['name']}"
        if p["status"] == "gone":
            line += f" [red]gone, round {p['taken_round']}[/]"
        elif p["case"] in mine:
            line += f" [{symbols.colour('thief')}]in your satchel[/]"
        right.append(line)
    faults = _faults(view)
    if faults:
        right.append("[red]Known faults:[/] " + ", ".join(faults))
    if view["evidence"]:
        right.append("[bold]Evidence[/]")
        right.extend(evidence_line(ev) for ev in view["evidence"])
    secret = _secret_lines(view, panel)
    if secret:
        right.extend(["", *secret])
    right.extend(_reveal_lines(view, panel))
    return "\n".join(_beside(board, map_width, right, 3))


def evidence_short(ev: Mapping[str, Any]) -> str:
    """One evidence token in a few words, for a narrow screen."""
    kind, at, rnd = ev["kind"], ev["at"], ev["round"]
    window = f"r{rnd}" if ev.get("since", rnd) == rnd else f"r{ev['since']}-{rnd}"
    words = {
        "last_seen": f"? seen {at} r{rnd}" + (f" ({ev['how']})" if ev.get("how") else ""),
        "empty_frame": f"x empty {at} r{rnd}",
        "cut_camera": f"camera {ev.get('camera', '')} cut {window}",
        "dark": f"{ev.get('wing', '')} dark {window}",
        "alarm": f"alarm {at} r{rnd}",
        "forced_exit": f"forced exit {at} r{rnd}",
    }
    return words.get(kind, f"{kind} {at} r{rnd}")


def evidence_line(ev: Mapping[str, Any]) -> str:
    """One evidence token in words."""
    kind, at, rnd = ev["kind"], ev["at"], ev["round"]
    window = f"round {rnd}" if ev.get("since", rnd) == rnd else f"rounds {ev['since']}-{rnd}"
    if kind == "last_seen":
        return (
            f"[{symbols.colour('last_seen')}]Last Seen[/] {at}, round {rnd} ({ev.get('how', '')})"
        )
    if kind == "empty_frame":
        return f"[red]Empty frame[/] {at}, taken in round {rnd}"
    if kind == "cut_camera":
        return f"[red]Cut camera[/] {ev.get('camera', '')} at {at}, cut in {window}"
    if kind == "dark":
        return f"[red]Dark[/] {ev.get('wing', '')} breaker at {at}, cut in {window}"
    if kind == "alarm":
        return f"[bold red]Alarm[/] at the vault case {at}, round {rnd}"
    if kind == "forced_exit":
        return f"[red]Forced Exit[/] {at}, found open in round {rnd}"
    return f"{kind} {at} {rnd}"
