"""What every seat learns of the Thief's night once the heist is over: the route,
the satchel, the exits opened and what was cut. The Thief's own view shows the same
throughout; the events that end the heist carry it, so the rules and the views both
build on this module.
"""

from __future__ import annotations

from typing import Any

from .floorplan import FloorPlan, coord
from .queries import satchel_value
from .state import State


def artifact(plan: FloorPlan, index: int) -> dict[str, Any]:
    """An artifact of the collection as the views show it."""
    art = plan.collection[index]
    return {"name": art.name, "value": art.value, "heavy": art.heavy}


def thief_section(plan: FloorPlan, state: State) -> dict[str, Any]:
    """Everything the Thief knows that Security does not."""
    cases_taken = [
        {
            "case": coord(plan.cases[c].square),
            "round": r,
            "public": c in state.revealed,
            **artifact(plan, state.display[c]),
        }
        for c, r in state.taken.items()
    ]
    out: dict[str, Any] = {
        "route": [coord(sq) for sq in state.route],
        "satchel": cases_taken,
        "satchel_value": satchel_value(plan, state),
        "open_exits": [coord(sq) for sq in state.open_exits],
        "cut_cameras": [
            {"number": n, "round": r, "found": n in state.dead_cameras}
            for n, r in sorted(state.cut_cameras.items())
        ],
        "cut_breakers": [
            {"wing": w, "round": r, "found": w in state.dark_wings}
            for w, r in sorted(state.cut_breakers.items())
        ],
    }
    if state.thief >= 0:
        out["at"] = coord(state.thief)
        out["entry"] = coord(state.entry)
    return out
