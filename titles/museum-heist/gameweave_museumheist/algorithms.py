"""What Museum Heist declares for game-playing algorithms: the shape of its views
(``view_schema``), from which the core encodes every view into numbers, and its
facts (``game_facts``): chance, dynamics and the kind of utilities; and a fast
``copy_state`` for the clones search algorithms make.

The schema follows ``views.py`` key by key; the fixed board is checked, not
encoded, and the phase's words are not encoded. Squares are one-hot, except in this
round's moves, a long list where each square is one number (its place, scaled). List lengths are the most the rules allow, worked out below.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from gameweave_core import (
    Bag,
    Bool,
    Const,
    GameFacts,
    IntRange,
    ListOf,
    MapOf,
    Maybe,
    NotEncoded,
    OneOf,
    Record,
)

from .actions import COORDS
from .board import CHARACTERS, DISTANCE2, PASSAGES, SQUARES
from .state import (
    ARTWORK_TOKENS,
    CHOOSE,
    OVER,
    PLACE,
    PLAY,
    SWAPS_EACH,
    RoundEnd,
    State,
    tokens_to_win,
)
from .views import board_view

#: Rounds in a game: one Artwork token each, and the box holds nine.
MAX_ROUNDS = ARTWORK_TOKENS


def most_moves_in_a_round() -> int:
    """A move must end strictly closer to the Artwork, a swap only exchanges two
    pieces' squares, and the Artwork stays put for the round: so the sum of the
    pieces' squared distances to it drops by at least 1 with every move. It starts
    at most at the seven largest squared distances from the Artwork's square."""
    return max(
        sum(sorted((d for b, d in enumerate(row) if b != a), reverse=True)[: len(CHARACTERS)])
        for a, row in enumerate(DISTANCE2)
    )


def most_ruled_out(players: int) -> int:
    """What one seat can be ruled out as in a round: one wrong challenge from each
    other seat (a wrong challenger is out), its own piece landing on the Artwork
    when it is not its character (once, and again after each swap moves that piece
    off: two Swap tokens a seat), and the reveal that ends the round."""
    return (players - 1) + (1 + SWAPS_EACH * players) + 1


@cache
def _schema(players: int) -> Record:
    square = OneOf(COORDS)
    # Up to 553 moves a round: one number per square keeps the list small.
    place = OneOf(COORDS, one_hot=False)
    character = OneOf(CHARACTERS)
    seat = IntRange(1, players)
    seat_keys = tuple(str(s) for s in range(1, players + 1))
    # A wrong challenge puts the challenger out; a right one ends the round.
    challenge = Record(by=seat, seat=seat, named=character, right=Bool())
    challenges = ListOf(challenge, max_len=players)
    ruled_out = MapOf(seat_keys, value=ListOf(character, max_len=most_ruled_out(players)))
    cards = MapOf(seat_keys, value=character)
    round_number = IntRange(1, MAX_ROUNDS)
    return Record(
        players=IntRange(2, 4),
        round=round_number,
        phase=OneOf((PLACE, CHOOSE, PLAY, OVER)),
        phase_text=NotEncoded("the phase in words for people; 'phase' encodes it"),
        board=Const(
            board_view(), "the 8 x 8 board and its Secret Passages, the same in every match"
        ),
        pieces=Record.of({c: square for c in CHARACTERS}),
        tokens=ListOf(IntRange(0, tokens_to_win(players)), length=players),
        swaps=ListOf(IntRange(0, SWAPS_EACH), length=players),
        target=IntRange(3, 4),
        supply=IntRange(0, ARTWORK_TOKENS),
        starter=seat,
        # Seats in order: sets, so counts lose nothing.
        chosen=Bag(range(1, players + 1), 1),
        out=Bag(range(1, players + 1), 1),
        known=cards,
        ruled_out=ruled_out,
        # Pieces that began the round on a passage: one piece a passage.
        rested=ListOf(character, max_len=len(PASSAGES)),
        moves=ListOf(
            Record.of({"seat": seat, "piece": character, "from": place, "to": place}),
            max_len=most_moves_in_a_round(),
        ),
        challenges=challenges,
        artwork=Maybe(square),
        turn=Maybe(seat),
        you=Maybe(Record(seat=seat, card=Maybe(character))),
        last=Maybe(
            Record(
                round=round_number,
                winner=seat,
                how=OneOf(("artwork", "challenge", "last")),
                revealed=cards,
                challenges=challenges,
                ruled_out=ruled_out,
                shown_to_you=Maybe(cards),
            )
        ),
        winner=Maybe(seat),
    )


def view_schema(players: int, config: Mapping[str, Any]) -> Record:
    """The shape of every view of Museum Heist (any seat, the spectator, any phase)."""
    return _schema(players)


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """Chance only at setup: seven pieces drawn onto the 64 squares, then the first
    Artwork's square among the free ones. Every seat chooses its character at the
    same time. Exactly one seat wins: 1 to it, 0 to the others."""
    return GameFacts(
        max_chance_outcomes=SQUARES,
        simultaneous=True,
        utility="constant_sum",
        utility_sum=1.0,
        min_utility=0.0,
        max_utility=1.0,
        max_chance_nodes=len(CHARACTERS) + 1,
    )


def copy_state(state: State) -> State:
    """An independent copy of ``state`` for clones and explicit chance: its lists,
    dicts and records copied, far cheaper than ``copy.deepcopy`` (the moves and
    challenges are tuples, shared as they are; tests/test_algorithms.py checks
    that nothing mutable is shared)."""
    last = state.last
    return State(
        players=state.players,
        pieces=list(state.pieces),
        artwork=state.artwork,
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        starter=state.starter,
        chosen=list(state.chosen),
        tokens=list(state.tokens),
        swaps=list(state.swaps),
        out=list(state.out),
        public=list(state.public),
        shown=[list(s) for s in state.shown],
        ruled_out=[list(r) for r in state.ruled_out],
        rested=list(state.rested),
        moves=list(state.moves),
        challenges=list(state.challenges),
        supply=state.supply,
        last=None
        if last is None
        else RoundEnd(
            last.round,
            last.winner,
            last.how,
            dict(last.revealed),
            [dict(s) for s in last.shown],
            list(last.challenges),
            {s: list(r) for s, r in last.ruled_out.items()},
        ),
        winner=state.winner,
        start=state.start,
        start_artwork=state.start_artwork,
        acted=state.acted,
        chose_at=list(state.chose_at),
        rounds=list(state.rounds),  # records of tuples: shared, never changed
    )
