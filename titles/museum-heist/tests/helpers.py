"""Hand-made positions for the rule tests (imported as ``from helpers import ...``).

``position`` builds a state in the turns phase with the pieces, the Artwork and
the cards a test wants; ``act`` applies one action through the rules, as the match
would, and returns the events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_museumheist import rules
from gameweave_museumheist.board import CHARACTERS, PASSAGE_SET, coord, parse_coord
from gameweave_museumheist.state import PLAY, State

from gameweave_core import Event, Rng

#: Where pieces a test does not place go: the bottom row, out of the way.
PARKING = ("A8", "C8", "E8", "H8", "D8", "F8", "B8")


def position(
    pieces: Mapping[str, str],
    artwork: str,
    players: int = 2,
    chosen: Sequence[str] | None = None,
    turn: int = 1,
) -> State:
    """A state in the turns phase: ``pieces`` where given (the rest parked on row 8),
    the Artwork on ``artwork``, each seat's card from ``chosen``."""
    state = rules.setup(players, {}, Rng(1))
    spots = [s for s in PARKING if s not in pieces.values() and s != artwork]
    for c in CHARACTERS:
        state.pieces[CHARACTERS.index(c)] = parse_coord(pieces[c] if c in pieces else spots.pop(0))
    state.artwork = parse_coord(artwork)
    state.chosen = list(chosen or CHARACTERS[-players:])
    state.phase = PLAY
    state.turn = state.starter = turn
    state.rested = [c for c, sq in zip(CHARACTERS, state.pieces, strict=True) if sq in PASSAGE_SET]
    return state


def act(state: State, seat: int, action: Any) -> list[Event]:
    """Apply ``action`` for ``seat``, after checking it is awaited and legal."""
    assert seat in rules.awaiting(state), f"seat {seat} is not awaited"
    legal = rules.legal_actions(state, seat)
    assert action in legal, f"{action} is not legal: {rules.explain_illegal(state, seat, action)}"
    return rules.apply(state, seat, action, Rng(0))


def ends(state: State, piece: str) -> set[str]:
    """The squares the rules let ``piece`` end a move on, as coordinates."""
    return {coord(s) for s in rules.piece_destinations(state, piece)}


def texts(events: Sequence[Event], seat: int | None) -> list[str]:
    """What ``seat`` (``None``: a spectator) reads of ``events``."""
    return [e.text for e in events if e.visible_to(seat)]
