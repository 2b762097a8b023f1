"""The state of a Museum Heist match, and its phases.

Every list indexed by seat holds seat 1 at index 0. A character is a key of
:data:`~gameweave_museumheist.board.CHARACTERS`; ``""`` stands for "none yet"
(the state is snapshotted to JSON and views travel through TOML, which has no null).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

#: The player to the right of the last winner places the Artwork (rounds 2 on).
PLACE = "place"
#: Every player secretly picks a character, all at the same time.
CHOOSE = "choose"
#: Turns go clockwise: move a piece, challenge or swap.
PLAY = "play"
#: Someone has the tokens they need.
OVER = "over"

#: Artwork tokens in the box.
ARTWORK_TOKENS = 9
#: Swap tokens each player gets for the whole game.
SWAPS_EACH = 2


def tokens_to_win(players: int) -> int:
    """Tokens that win the game: 3, or 4 in a two-player game."""
    return 4 if players == 2 else 3


@attrs.define
class RoundEnd:
    """How the last round ended, as every seat was told."""

    round: int
    winner: int
    how: str  # "artwork", "challenge" or "last"
    revealed: dict[int, str] = attrs.field(factory=dict)
    #: ``shown[v]``: the cards seat ``v + 1`` alone was shown in that round.
    shown: list[dict[int, str]] = attrs.field(factory=list)
    #: The round's challenges and public deductions, as they stood at its end.
    challenges: list[tuple[int, int, str, bool]] = attrs.field(factory=list)
    ruled_out: dict[int, list[str]] = attrs.field(factory=dict)


class PastRound(NamedTuple):
    """A round that has ended, as the table saw it, kept for ``resample_world``: the
    step each seat chose at, the cards shown to all, the cards each seat alone was
    shown (``shown[v]`` for seat ``v + 1``) and what everyone knew each seat was not.
    Tuples only: copies share it, and nothing changes it."""

    chose_at: tuple[int, ...]
    revealed: tuple[tuple[int, str], ...]
    shown: tuple[tuple[tuple[int, str], ...], ...]
    ruled_out: tuple[tuple[int, tuple[str, ...]], ...]


#: The fields that keep the match's past for ``resample_world`` alone: the digest
#: leaves them out (the title's ``snapshot``), since the seed and the actions fix
#: them, and logs recorded before they existed still verify.
HISTORY_FIELDS = ("start", "start_artwork", "acted", "chose_at", "rounds")


@attrs.define
class State:
    """A whole match: the board, every seat's secrets, and the round in progress."""

    players: int
    #: Square of each character's piece, in ``CHARACTERS`` order.
    pieces: list[int]
    #: Square of the Artwork token, -1 while it waits to be placed.
    artwork: int
    phase: str
    round: int = 1
    #: The seat whose turn it is (PLAY), or who places the Artwork (PLACE).
    turn: int = 1
    #: The seat that starts this round's turns.
    starter: int = 1
    #: Each seat's character for this round ("" until chosen).
    chosen: list[str] = attrs.field(factory=list)
    tokens: list[int] = attrs.field(factory=list)
    swaps: list[int] = attrs.field(factory=list)
    #: Seats out of this round (a wrong challenge).
    out: list[bool] = attrs.field(factory=list)
    #: Seats whose card this round every seat has seen.
    public: list[int] = attrs.field(factory=list)
    #: ``shown[v]``: seats whose card seat ``v + 1`` alone was shown this round.
    shown: list[list[int]] = attrs.field(factory=list)
    #: ``ruled_out[s]``: characters everyone knows seat ``s + 1`` is not, this round.
    ruled_out: list[list[str]] = attrs.field(factory=list)
    #: Characters whose piece began the round on a passage and has not moved since.
    rested: list[str] = attrs.field(factory=list)
    #: This round's moves, as everyone saw them: (seat, character, from, to).
    moves: list[tuple[int, str, int, int]] = attrs.field(factory=list)
    #: This round's challenges, as everyone saw them: (challenger, seat, named, right).
    challenges: list[tuple[int, int, str, bool]] = attrs.field(factory=list)
    #: Artwork tokens still in the box.
    supply: int = ARTWORK_TOKENS
    last: RoundEnd | None = None
    winner: int = 0
    # -- the past, for resample_world (see HISTORY_FIELDS) ----------------------------
    #: The squares the setup drew for the pieces, and for the first Artwork.
    start: tuple[int, ...] = ()
    start_artwork: int = -1
    #: Actions taken so far in the match (the step of the last one).
    acted: int = 0
    #: The step at which each seat chose its character this round (0: not yet).
    chose_at: list[int] = attrs.field()
    #: Every round that has ended.
    rounds: list[PastRound] = attrs.field(factory=list)

    @chose_at.default
    def _nobody_chose(self) -> list[int]:
        return [0] * self.players


def readable_snapshot(state: State) -> dict[str, Any]:
    """The whole state as a maintainer reads it (``gameweave replay --state`` and
    ``--diff``): every square by its name (``"C5"``), as the board and the history
    name it; the Artwork not yet placed stays -1. Not used for digests (those take
    the title's plain snapshot)."""
    from .board import coord

    data = attrs.asdict(state)
    data["pieces"] = [coord(sq) for sq in state.pieces]
    data["artwork"] = coord(state.artwork) if state.artwork >= 0 else state.artwork
    data["moves"] = [[seat, who, coord(a), coord(b)] for seat, who, a, b in state.moves]
    return data
