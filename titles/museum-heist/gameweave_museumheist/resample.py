"""The information-set sampler (the title's ``resample`` hook).

The only hidden information in Museum Heist is this round's choice of each other
seat (the board, tokens and moves are public, and cards of past rounds went back to
their hands unseen and no longer matter). A seat knows its own card, the cards
shown to everyone, the cards shown to it alone, and what everyone can deduce: a
wrong challenge says the challenged seat is not the named character, and a piece
moved onto the Artwork without a reveal says the mover is not that character.

Each player picks from a full set of their own, so choices are independent: the
sampler redraws every other chosen card uniformly among the characters consistent
with all of that. Uniform is not the true posterior (people pick with intent, and
which pieces a seat moves is evidence of a kind no rule states), but it is exactly
the set of assignments the seat cannot rule out.
"""

from __future__ import annotations

from collections.abc import Sequence

from gameweave_core import Rng
from gameweave_core.worlds import World, sample_outcomes

from .actions import Choose
from .algorithms import copy_state
from .board import CHARACTERS, SQUARES
from .rules import artwork_spaces
from .state import State


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A fresh state ``seat`` (``None``: a spectator) cannot tell from ``state``."""
    out = copy_state(state)  # the title's fast copy (the past it keeps is shared)
    seen = set(state.public)
    if seat is not None:
        seen.add(seat)
        seen.update(state.shown[seat - 1])
    for other in range(1, state.players + 1):
        if other in seen or not state.chosen[other - 1]:
            continue
        # Seats out of the round keep their secrets too; they can be anything not ruled out.
        options = [c for c in CHARACTERS if c not in state.ruled_out[other - 1]]
        out.chosen[other - 1] = rng.choice(options)
    redraw_last_round(out, seat, rng)
    return out


def redraw_last_round(out: State, seat: int | None, rng: Rng) -> None:
    """The cards other seats alone were shown last round are theirs to know: each
    such card is drawn again (uniformly among the characters not publicly ruled
    out for its owner, one draw per owner so that a card shown to two seats stays
    one card), unless ``seat`` saw it itself, it was revealed to all, or it is
    ``seat``'s own. Without this the draw kept them as they truly were, and a
    search from it would read them."""
    last = out.last
    if last is None:
        return
    mine = last.shown[seat - 1] if seat is not None else {}
    cards: dict[int, str] = {}
    for owner in range(1, out.players + 1):
        options = [c for c in CHARACTERS if c not in last.ruled_out.get(owner, [])]
        pick = rng.choice(options or list(CHARACTERS))  # drawn for every owner: canonical
        cards[owner] = last.revealed.get(owner) or mine.get(owner) or pick
    for viewer, shown in enumerate(last.shown, start=1):
        if viewer != seat:
            for owner in shown:
                if owner != seat:
                    shown[owner] = cards[owner]


def resample_world(state: State, seat: int | None, rng: Rng) -> World:
    """A history ``seat`` (``None``: a spectator) cannot tell from the real one, as a
    world the core replays and checks (:mod:`gameweave_core.worlds`).

    The setup's draws are public (the pieces and the first Artwork stand where
    everyone saw them), so its chance outcomes are the real ones. Every other seat's
    choice, in every round so far, is drawn as :func:`resample` draws this round's:
    the card the seat saw (shown to all, or to it alone) where it saw one, else
    uniformly among the characters not publicly ruled out for that seat in that
    round. Each choice stands at the step it was made."""
    chance = [
        *sample_outcomes(range(SQUARES), state.start),
        artwork_spaces(state.start).index(state.start_artwork),
    ]
    choices: dict[int, Choose] = {}
    for past in state.rounds:
        revealed = dict(past.revealed)
        mine = dict(past.shown[seat - 1]) if seat is not None else {}
        ruled = dict(past.ruled_out)
        for owner, step in enumerate(past.chose_at, start=1):
            if owner != seat:
                known = revealed.get(owner) or mine.get(owner)
                choices[step] = Choose(known or _unruled(ruled.get(owner, ()), rng))
    seen = set(state.public)
    if seat is not None:
        seen.update(state.shown[seat - 1])
    for owner, step in enumerate(state.chose_at, start=1):
        if step and owner != seat:
            known = state.chosen[owner - 1] if owner in seen else ""
            choices[step] = Choose(known or _unruled(state.ruled_out[owner - 1], rng))
    return World(tuple(chance), choices)


def _unruled(ruled_out: Sequence[str], rng: Rng) -> str:
    return rng.choice([c for c in CHARACTERS if c not in ruled_out])
