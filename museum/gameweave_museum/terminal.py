"""The Museum Job in a terminal: drawing a view, and reading typed actions.

``render_text`` draws only from the view it is given (rich markup): the map with
coordinates on its edges, guards, camera coverage, evidence, the placards, the
dawn track, and for the Thief their own square and satchel. ``parse_action``
reads what a person types, e.g. ``walk K7``, ``walk K7 cut``, ``hold``,
``guard 2 D4``, ``post 1 J4 seat 2``, ``enter A8``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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

WING_TINT = {
    "North": "grey70",
    "West": "wheat4",
    "South": "light_sky_blue3",
    "East": "dark_sea_green4",
    "Court": "grey50",
}

LEGEND = (
    "[bold white on red]G1[/] guard  [bold magenta]@ [/] you (Thief only)  "
    "[bold yellow]? [/] last seen  [gold1]V [/] vault case  [cyan]C [/] display case  "
    "[red]x [/] empty frame\n[bright_cyan]c1[/] camera  [on grey23]. [/] watched now  "
    "[bright_yellow]B [/] breaker  [green]P [/] guard post  [bright_green]D W S[/] door, "
    "window, skylight  [blue]::[/] Security Office  [grey35]##[/] wall"
)


def _cells(view: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Glyph (two characters) and style for every square that is not plain floor."""
    board = view["board"]
    cells: dict[str, tuple[str, str]] = {}
    for sq in board["walls"]:
        cells[sq] = ("##", "grey35")
    for sq in board["office"]:
        cells[sq] = ("::", "blue")
    for sq in board["posts"]:
        cells[sq] = ("P ", "green")
    for ex in board["exits"]:
        glyph = {"door": "D ", "window": "W ", "skylight": "S "}.get(ex["kind"], "X ")
        cells[ex["at"]] = (glyph, "bright_green")
    for br in board["breakers"]:
        cells[br["at"]] = ("B ", "bright_yellow")
    for cam in board["cameras"]:
        cells[cam["at"]] = (f"c{cam['number']}", "bright_cyan")
    for placard in view["placards"]:
        vault = placard["kind"] == "vault"
        if placard["status"] == "gone":
            cells[placard["case"]] = ("x ", "red")
        else:
            cells[placard["case"]] = ("V " if vault else "C ", "gold1" if vault else "cyan")
    seen = view.get("last_seen")
    if seen:
        cells[seen["at"]] = ("? ", "bold yellow")
    thief = view.get("thief") or view.get("reveal")
    if thief and "at" in thief:
        cells[thief["at"]] = ("@ ", "bold magenta")
    for g in view["guards"]:
        # Drawn after the Thief: a guard on the Thief's square has caught them, and
        # the catch is the guard's (magenta under it shows the Thief is there too).
        caught = thief is not None and thief.get("at") == g["at"]
        cells[g["at"]] = (
            f"G{g['number']}",
            "bold white on magenta" if caught else "bold white on red",
        )
    return cells


def render_map(view: Mapping[str, Any], seat: int | None) -> str:
    """The floor plan with everything the view shows, coordinates on all four edges."""
    board = view["board"]
    columns = board["columns"]
    cells = _cells(view)
    wing_of = {sq: wing for wing, squares in board["wings"].items() for sq in squares}
    watched: set[str] = set()
    if view["monitors_watched"]:
        for cam, state in zip(board["cameras"], view["cameras"], strict=True):
            if state["status"] == "working":
                watched.update(cam["covers"])
    header = "    " + " ".join(f"{c} " for c in columns)
    lines = [header]
    for row in range(1, board["height"] + 1):
        parts = []
        for col in columns:
            sq = f"{col}{row}"
            glyph, style = cells.get(sq, (". ", WING_TINT.get(wing_of.get(sq, ""), "white")))
            if sq in watched and " on " not in f" {style}":
                style += " on grey23"
            parts.append(f"[{style}]{glyph}[/]")
        lines.append(f"{row:>3} " + " ".join(parts) + f" {row}")
    lines.append(header)
    return "\n".join(lines)


def render_text(view: Mapping[str, Any], seat: int | None) -> str:
    """The whole screen for one seat, from that seat's view alone."""
    you = view["you"]
    dawn = view["dawn"]
    track = "[yellow]" + "●" * dawn + "[/][grey35]" + "○" * (18 - dawn) + "[/]"
    guards = you.get("guards") or []
    runs = f" (guard{'s' if len(guards) > 1 else ''} {', '.join(map(str, guards))})"
    out = [
        f"[bold]The Museum Job[/] — {view['board']['name']} — you are "
        f"[bold]{you['role']}[/]" + (runs if guards else ""),
        f"Round {view['round']}   Dawn {track} {dawn}   {view['phase_text']}"
        + (f" — guard {view['guard_to_move']} to move" if view.get("guard_to_move") else ""),
        "",
        render_map(view, seat),
        "",
        LEGEND,
        "",
        "[bold]Monitors:[/] "
        + ("watched (a guard is in the Office)" if view["monitors_watched"] else "nobody watching"),
    ]
    dead = [
        f"camera {c['number']} {c['status']}" for c in view["cameras"] if c["status"] != "working"
    ]
    dark = [f"{b['wing']} breaker dark" for b in view["breakers"] if b["status"] != "on"]
    if dead or dark:
        out.append("[red]Known faults:[/] " + ", ".join(dead + dark))
    out.append("")
    out.append("[bold]Placards[/]")
    secret = view.get("thief") or {}
    mine = {item["case"]: item for item in secret.get("satchel", [])}
    for p in view["placards"]:
        heavy = ", heavy" if p["heavy"] else ""
        status = (
            f"[red]gone, taken in round {p['taken_round']}[/]"
            if p["status"] == "gone"
            else "on display"
        )
        if p["case"] in mine and p["status"] != "gone":
            lifted = mine[p["case"]]["round"]
            status = f"[magenta]in your satchel (round {lifted}); Security has not noticed[/]"
        out.append(f"  {p['case']:>3} {p['name']} ({p['value']}{heavy}, {p['kind']}) — {status}")
    if view["evidence"]:
        out.append("")
        out.append("[bold]Evidence[/]")
        for ev in view["evidence"]:
            out.append("  " + evidence_line(ev))
    if secret:
        out.append("")
        out.append(f"[bold magenta]Your secrets[/] — you are at {secret.get('at', 'outside')}")
        items = ", ".join(f"{a['name']} ({a['value']})" for a in secret["carrying"]) or "empty"
        out.append(f"  Satchel: {items} — worth {secret['satchel_value']} (need 4 to leave)")
        out.append(f"  Open exits: {', '.join(secret['open_exits']) or 'none'}")
        if "walk" in secret:
            out.append(f"  You can walk {secret['walk']} steps this turn")
        cuts = [f"camera {c['number']}" for c in secret["cut_cameras"] if not c["found"]] + [
            f"{b['wing']} breaker" for b in secret["cut_breakers"] if not b["found"]
        ]
        if cuts:
            out.append(f"  Cuts not yet found: {', '.join(cuts)}")
        out.append(f"  Route: {' → '.join(secret['route'])}")
    reveal = view.get("reveal")
    if reveal:
        out.append("")
        out.append(f"[bold]The heist is over ({view['ended']}). What the Thief did:[/]")
        out.append(f"  Broke in at {reveal.get('entry', '?')}; route {' → '.join(reveal['route'])}")
        out.append(f"  Satchel worth {reveal['satchel_value']}")
    return "\n".join(out)


def evidence_line(ev: Mapping[str, Any]) -> str:
    """One evidence token in words."""
    kind, at, rnd = ev["kind"], ev["at"], ev["round"]
    window = f"round {rnd}" if ev.get("since", rnd) == rnd else f"rounds {ev['since']}-{rnd}"
    if kind == "last_seen":
        return f"[yellow]Last Seen[/] {at}, round {rnd} ({ev.get('how', '')})"
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
