"""What each seat of Master Thief may know: the views are allow-lists.

Public: the Museum's size, the Thief deck's size, the face-up discard pile, every
Carried and Stashed item (everyone sees an item stolen and turned face down), the
Utilities in play, hand sizes, Strikes, revealed Calling Cards, who has answered a
window or voted. Private to a seat: its hand, its Calling Card, the Calling Cards
it has Snooped, its own answer or vote while others still decide.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import charms
from .cards import MUSEUM
from .rules import awaiting, knows_calling
from .state import OVER, State


def item(name: str) -> dict[str, Any]:
    card = MUSEUM[name]
    return {
        "name": name,
        "kind": card.kind,
        "category": card.category,
        "bmc": card.bmc,
        "draw": card.draw,
    }


def seat_view(state: State, who: int | None, s: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": s,
        "status": state.status[s - 1],
        "hand": len(state.hands[s - 1]),
        "carried": [item(i) for i in state.carried[s - 1]],
        "stashed": [item(i) for i in state.stashed[s - 1]],
        "utilities": list(state.utilities[s - 1]),
        # Whose Calling Card the seat has Snooped: played in the open, kept in sight.
        "snooped": list(state.snooped[s - 1]),
        "carry_limit": charms.carry_limit(state, s),
        "hand_limit": charms.hand_limit(state, s),
    }
    if (who is not None and knows_calling(state, who, s)) or state.revealed[s - 1]:
        out["calling"] = state.calling[s - 1]
    if state.caught_with and state.caught_with[s - 1]:
        # What a thief caught at the end dropped back into the Museum, as all saw it.
        out["caught_with"] = [item(i) for i in state.caught_with[s - 1]]
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """All that ``seat`` (``None``: a spectator) may know, built up field by field."""
    out: dict[str, Any] = {
        "players": state.players,
        "phase": state.phase,
        "turn": state.turn,
        "turns": state.turns,
        "awaiting": list(awaiting(state)),
        "museum": len(state.museum),
        "deck": len(state.deck),
        "discard": dict(sorted(Counter(state.discard).items())),
        "strikes": list(state.strikes),
        "strikes_to_end": charms.strikes_to_end(state),
        "played": list(state.played),
        "seats": [seat_view(state, seat, s) for s in range(1, state.players + 1)],
        "restarts": state.restarts,
    }
    for flag in ("last_turn", "final_turn", "alarmed"):
        if getattr(state, flag):
            out[flag] = True
    if state.jury_result:
        out["jury"] = state.jury_result
    if state.heist_in:
        out["heist_in"] = list(state.heist_in)
    if state.alarms:
        puller, security = state.alarms[0]
        out["security"] = {"card": item(security), "pulled_by": puller}
    window = state.window
    if window is not None:
        out["window"] = {
            "trigger": window.trigger,
            "actor": window.actor,
            "asked": list(window.order),
            "answered": sorted(window.answers),
            **{k: v for k, v in sorted(window.context.items()) if v != ""},
        }
        if seat is not None and seat in window.answers:
            out["window"]["mine"] = window.answers[seat]
    if state.votes:
        out["voted"] = sorted(state.votes)
        if seat is not None and seat in state.votes:
            out["my_vote"] = state.votes[seat]
    if state.tied:
        out["tied"] = list(state.tied)
        out["tie_in"] = list(state.tie_in)
        if state.tie_steals:
            out["tie_steals"] = {str(s): c for s, c in sorted(state.tie_steals.items())}
    if state.ended:
        out["scores"] = list(state.scores)
        out["ended"] = state.ended
    if state.phase == OVER:
        out["winners"] = list(state.winners)
    if seat is not None:
        out["you"] = seat
        out["hand"] = list(state.hands[seat - 1])
        out["calling"] = state.calling[seat - 1]
    return out


def seat_label(state: State, seat: int) -> str:
    """How people call a seat: the same for everyone, whatever the state."""
    return f"Seat {seat}"


def has_secrets(state: State, seat: int) -> bool:
    """Every thief has a hand and a Calling Card to hide."""
    return True
