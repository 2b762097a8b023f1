"""What a thief may play now, and why a card may not be played: the helpers of
:func:`~.rules.legal_actions` and :func:`~.rules.explain_illegal`.
"""

from __future__ import annotations

from typing import Any

from . import charms
from .actions import (
    Lift,
    PlayUtility,
    Raid,
    Snoop,
    Stash,
    Swipe,
    Trip,
)
from .cards import (
    ACTION,
    THIEF,
    UTILITY,
)
from .state import (
    PLAY,
    State,
)
from .table import in_play


def may_play(state: State, seat: int, card: str) -> bool:
    """Whether ``seat`` may play ``card`` now by the hand and the same-title rule."""
    return (
        card in state.hands[seat - 1]
        and THIEF[card].kind in (ACTION, UTILITY)
        and state.played.count(card) < charms.same_title_allowed(state, seat)
    )


def targets(state: State, seat: int) -> list[int]:
    """Opponents still in the Museum whose items an opponent's card may reach."""
    return [s for s in in_play(state) if s != seat and not charms.protected(state, s)]


def card_plays(state: State, seat: int) -> list[Any]:
    """The Thief Cards ``seat`` may play in its turn, with every choice of target."""
    out: list[Any] = []
    others = targets(state, seat)
    if may_play(state, seat, "Swipe"):
        out += [Swipe(t, i) for t in others for i in sorted(set(state.carried[t - 1]))]
    if may_play(state, seat, "Stash"):
        out += [Stash(i) for i in sorted(set(state.carried[seat - 1]))]
    if may_play(state, seat, "Raid"):
        out += [Raid(t) for t in others if state.stashed[t - 1]]
    if may_play(state, seat, "Trip"):
        out += [Trip(t, i) for t in others for i in sorted(set(state.carried[t - 1]))]
    if may_play(state, seat, "Snoop"):
        out += [Snoop(t) for t in in_play(state) if t != seat and not knows_calling(state, seat, t)]
    if may_play(state, seat, "Lift") and state.museum:
        out.append(Lift())
    for card in ("Smoke Pellet", "Deep Pockets", "Getaway Car"):
        if may_play(state, seat, card):
            out.append(PlayUtility(card))
    return out


def knows_calling(state: State, seat: int, other: int) -> bool:
    """Whether ``seat`` has seen ``other``'s Calling Card."""
    return seat == other or state.revealed[other - 1] or other in state.snooped[seat - 1]


def why_not_card(state: State, seat: int, card: str, target: int | None) -> str | None:
    """Why ``seat`` may not play the Thief Card ``card`` (at ``target``) now, or None."""
    if state.phase != PLAY:
        return "Thief Cards are played after your steal, before you end your turn"
    if card not in state.hands[seat - 1]:
        return f"you hold no {card}"
    if state.played.count(card) >= charms.same_title_allowed(state, seat):
        return f"you have already played {card} this turn (no 2 of the same title)"
    if target is not None and (target == seat or target not in in_play(state)):
        return f"seat {target} is not an opponent in the Museum"
    if target is not None and charms.protected(state, target):
        return f"seat {target}'s Smoke Pellet keeps its items out of reach"
    return None
