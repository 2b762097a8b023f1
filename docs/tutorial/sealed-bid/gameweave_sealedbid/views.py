"""What each seat of Sealed Bids may know: the views are allow-lists."""

from __future__ import annotations

from typing import Any

from .state import LOTS, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    """All that ``seat`` (``None``: a spectator) may know, built up field by field."""
    out: dict[str, Any] = {
        "lot": state.lot,
        "lots_left": LOTS - state.sold,
        "coins": list(state.coins),
        "points": list(state.points),
        "sealed": sorted(state.bids),  # who has bid, never how much
    }
    if state.revealed:  # the bids on the last lot sold, as everyone saw them revealed
        out["revealed"] = {str(s): b for s, b in sorted(state.revealed.items())}
    if seat is not None and seat in state.bids:
        out["my_bid"] = state.bids[seat]
    return out


def seat_label(state: State, seat: int) -> str:
    """How people call a seat: the same for everyone, whatever the state."""
    return f"Bidder {seat}"
