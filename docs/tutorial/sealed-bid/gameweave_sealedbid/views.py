"""What each seat of Sealed Bids may know: the views are allow-lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameweave_core import Bag, IntRange, ListOf, MapOf, Maybe, Record, Schema

from .state import LOTS, START_COINS, VALUES, State


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


def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
    """The shape of every view above, which the core encodes as numbers for
    game-playing algorithms; a view outside it is an error the kit reports."""
    coins = IntRange(0, START_COINS)
    seats = range(1, players + 1)
    return Record(
        lot=IntRange(min(VALUES), max(VALUES)),
        lots_left=IntRange(0, LOTS),
        coins=ListOf(coins, length=players),
        points=ListOf(IntRange(0, sum(sorted(VALUES)[-LOTS:])), length=players),
        sealed=Bag(seats, max_count=1),  # who has bid: a set of seats
        revealed=Maybe(MapOf([str(s) for s in seats], value=coins)),
        my_bid=Maybe(coins),
    )


def seat_label(state: State, seat: int) -> str:
    """How people call a seat: the same for everyone, whatever the state."""
    return f"Bidder {seat}"
