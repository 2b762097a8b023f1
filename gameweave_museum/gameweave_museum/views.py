"""What each seat may know, built as allow-lists.

``public_view`` is built only from what Security has been told: the floor plan,
the guards, the cases as Security believes them, the cameras' and breakers'
known state, and the evidence. It is the whole of a Security seat's view and of
a spectator's. The Thief's view adds a ``thief`` section with everything only
the Thief knows. Once the heist is over, that section is added for everyone.

No value is ever ``None``: views travel through TOML.
"""

from __future__ import annotations

import pickle
from functools import cache
from typing import Any

from .floorplan import COLUMNS, HEIGHT, WIDTH, FloorPlan, coord, quayside_palace
from .queries import THIEF_SEAT, guards_of, satchel, walk_range, walk_targets
from .reveal import artifact, thief_section
from .sight import office_manned
from .state import ENTRY, ESCAPE_VALUE, OVER, POSTING, SECURITY, THIEF, State

PHASE_WORDS = {
    POSTING: "Security posts its guards",
    ENTRY: "The Thief chooses where to break in",
    THIEF: "The Thief's turn",
    SECURITY: "The Security turn",
    OVER: "The heist is over",
}


@cache
def _board(plan: FloorPlan) -> tuple[tuple[str, Any], ...]:
    # Built once; views copy it (see board_view) so no caller can change another's.
    wings: dict[str, list[str]] = {}
    for sq in plan.floor:
        wings.setdefault(plan.wing_of[sq], []).append(coord(sq))
    return (
        ("name", plan.name),
        ("width", WIDTH),
        ("height", HEIGHT),
        ("columns", COLUMNS),
        ("walls", [coord(sq) for sq in sorted(plan.walls)]),
        ("wings", wings),
        ("office", [coord(sq) for sq in sorted(plan.office)]),
        ("posts", [coord(sq) for sq in plan.posts]),
        (
            "exits",
            [{"at": coord(e.square), "name": e.name, "kind": e.kind} for e in plan.exits],
        ),
        (
            "cases",
            [
                {"at": coord(c.square), "kind": "vault" if c.vault else "display", "wing": c.wing}
                for c in plan.cases
            ],
        ),
        (
            "cameras",
            [
                {
                    "number": cam.number,
                    "at": coord(cam.square),
                    "wing": cam.wing,
                    "covers": [coord(sq) for sq in sorted(cam.coverage)],
                }
                for cam in plan.cameras
            ],
        ),
        ("breakers", [{"wing": w, "at": coord(sq)} for w, sq in plan.breakers.items()]),
    )


@cache
def _pickled_board(plan: FloorPlan) -> bytes:
    return pickle.dumps(dict(_board(plan)), protocol=pickle.HIGHEST_PROTOCOL)


def board_view(plan: FloorPlan) -> dict[str, Any]:
    """The static floor plan, as every seat sees it (a fresh copy each time)."""
    # Unpickled from bytes made once: about a quarter of the time of copying its
    # dicts and lists one by one (16 against 60 microseconds), and the search bot
    # asks for a view at every step of its tree.
    board: dict[str, Any] = pickle.loads(_pickled_board(plan))
    return board


def _evidence(plan: FloorPlan, state: State) -> list[dict[str, Any]]:
    out = []
    for ev in state.evidence:
        item: dict[str, Any] = {"kind": ev.kind, "at": coord(ev.square), "round": ev.round}
        if ev.since:
            item["since"] = ev.since
        if ev.how:
            item["how"] = ev.how
        cam = plan.camera_at(ev.square)
        if ev.kind == "cut_camera" and cam is not None:
            item["camera"] = cam.number
        if ev.kind == "dark":
            item["wing"] = plan.breaker_at(ev.square) or ""
        out.append(item)
    return out


def public_view(plan: FloorPlan, state: State) -> dict[str, Any]:
    """What Security and spectators see: never the Thief's square, route, satchel,
    unfound cuts or entry."""
    guards = [
        {
            "number": i + 1,
            "at": coord(sq),
            "seat": state.guard_seats[i],
            # Where it stood when this round's Security turn began (its post at first).
            "from": coord(state.turn_start[i]),
        }
        for i, sq in enumerate(state.guards)
        if sq >= 0
    ]
    placards = []
    for case in plan.cases:
        item = {
            "case": coord(case.square),
            "kind": "vault" if case.vault else "display",
            **artifact(plan, state.display[case.index]),
        }
        if case.index in state.revealed:
            item["status"] = "gone"
            item["taken_round"] = state.revealed[case.index]
        else:
            item["status"] = "on display"
        placards.append(item)
    cameras = []
    for cam in plan.cameras:
        status = "working"
        if cam.number in state.dead_cameras:
            status = "dead"
        elif cam.wing in state.dark_wings:
            status = "dark"
        cameras.append(
            {
                "number": cam.number,
                "status": status,
                "checked_round": state.confirmed.get(f"camera {cam.number}", 0),
            }
        )
    breakers = [
        {
            "wing": wing,
            "status": "dark" if wing in state.dark_wings else "on",
            "checked_round": state.confirmed.get(wing, 0),
        }
        for wing in plan.breakers
    ]
    evidence = _evidence(plan, state)
    view: dict[str, Any] = {
        "board": board_view(plan),
        "phase": state.phase,
        "phase_text": PHASE_WORDS[state.phase],
        "round": state.round,
        "dawn": state.dawn,
        "players": state.players,
        "guards": guards,
        "guard_to_move": state.turn + 1 if state.phase == SECURITY else 0,
        "monitors_watched": office_manned(plan, state),
        "placards": placards,
        "cameras": cameras,
        "breakers": breakers,
        "evidence": evidence,
    }
    sightings = [e for e in evidence if e["kind"] == "last_seen"]
    if sightings:
        view["last_seen"] = dict(sightings[-1])
    if state.phase == OVER:
        view["ended"] = state.ended
        view["reveal"] = thief_section(plan, state)
    return view


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator)."""
    plan = quayside_palace()
    out = public_view(plan, state)
    if seat is None:
        out["you"] = {"role": "spectator"}
        return out
    if seat == THIEF_SEAT:
        out["you"] = {"seat": 1, "role": "Thief"}
        mine = thief_section(plan, state)
        if state.phase == THIEF:
            mine["walk"] = walk_range(plan, state)
            mine["can_reach"] = [coord(sq) for sq in sorted(walk_targets(plan, state))]
        mine["escape_value"] = ESCAPE_VALUE
        mine["carrying"] = [artifact(plan, a) for a in satchel(plan, state)]
        out["thief"] = mine
        return out
    out["you"] = {"seat": seat, "role": "Security", "guards": guards_of(state, seat)}
    return out


def seat_label(state: State, seat: int) -> str:
    """How ``seat`` is named to every seat: its side, and the guards it runs.

    Built from public facts only (guard assignments are made in the open)."""
    if seat == THIEF_SEAT:
        return "Thief"
    guards = guards_of(state, seat)
    if not guards:
        return f"Security {seat}"
    listed = ", ".join(map(str, guards))
    return f"Security {seat} (guard{'s' if len(guards) > 1 else ''} {listed})"


def has_secrets(state: State, seat: int) -> bool:
    """Whether ``seat`` knows something others do not: only the Thief, and only
    until the heist ends (then everything is public)."""
    return seat == THIEF_SEAT and state.phase != OVER
