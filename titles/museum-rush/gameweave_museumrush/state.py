"""The state of a Museum Rush match, and its phases.

Lists indexed by seat hold seat 1 at index 0; ``-1`` stands for "none" (views travel
through TOML, which has no null). Cards are indices into :data:`~.cards.CARDS`.
``knows[card]`` is a bit mask of who knows where that card is: bit 0 for everyone
(spectators too), bit ``s`` for seat ``s``.
"""

from __future__ import annotations

import attrs

#: The thieves break in, one after another, before anything else.
BREAKIN = "breakin"
#: Turns: the current thief moves, steals, plays Items, ends the turn.
TURN = "turn"
#: The clock has struck: thieves still inside drop cards on their way out.
RUSH = "rush"
OVER = "over"

#: Where a thief who is not in the museum is: kicked out (may break in again)...
OUTSIDE = -1
#: ... or escaped (out for good).
ESCAPED = -2

PUBLIC = 1


@attrs.define
class Tile:
    """A Room tile on the grid and what lies on it."""

    room: int
    #: Cards on the tile, top first.
    cards: list[int] = attrs.field(factory=list)
    #: Whether the top card is face up.
    up: bool = False
    #: Digits of the lock code covered by Unlock tokens.
    covered: list[bool] = attrs.field(factory=list)
    #: The Booby Trap card set here, -1 if none.
    trap: int = -1
    #: Keys (Unlock tokens) left by Guards caught in a Booby Trap.
    keys: int = 0
    wayout: bool = False


@attrs.define
class Task:
    """Something the rules must settle before play goes on, maybe with a choice.

    ``kind`` is one of: ``alert`` (the nearest Guard moves 2 towards ``seat``; the
    Guard mover picks among equally short routes), ``caught`` (Guard ``guard``
    found ``seat``), ``slip`` (``seat`` slipped away: where to), ``bust`` (``seat``
    keeps one card), ``camera`` (a Camera on ``room`` saw ``seat``), ``turnover``
    (the next card on ``room``), ``newguard`` (the Guard mover places a Guard next to
    ``room``), ``drop`` (``seat`` drops down to the limit, or ``n`` cards fleeing),
    ``pick`` (``seat`` takes up to ``n`` cards from ``room``'s pile), ``keys``
    (``seat`` may finish the lock with keys), ``defend`` (``seat`` may Lure the
    thief ``n`` who tries to steal from it), ``owl`` (keep one of ``cards``),
    ``wayout`` (``seat`` picks the edge tile).
    """

    kind: str
    seat: int = 0
    room: int = -1
    guard: int = -1
    n: int = 0
    cards: list[int] = attrs.field(factory=list)


@attrs.define
class State:
    """A whole match."""

    players: int
    first_game: bool
    #: ``grid[t]``: the tile at grid position ``t`` (row-major, 4 x 7).
    grid: list[Tile]
    #: Search deck, top first.
    deck: list[int]
    knows: list[int]
    phase: str = BREAKIN
    turn: int = 1
    starter: int = 1
    turns_taken: int = 0
    #: Tile of each Guard, -1 once removed from the game.
    guards: list[int] = attrs.field(factory=list)
    discard: list[int] = attrs.field(factory=list)
    #: Guard, Camera and Booby Trap cards removed from the game (public).
    removed: list[int] = attrs.field(factory=list)
    vault: list[int] = attrs.field(factory=list)
    lost: list[int] = attrs.field(factory=list)
    clocks: int = 0
    supply: int = 16
    # -- per seat
    pos: list[int] = attrs.field(factory=list)
    hands: list[list[int]] = attrs.field(factory=list)
    keys: list[int] = attrs.field(factory=list)
    thief: list[str] = attrs.field(factory=list)
    stash: list[str] = attrs.field(factory=list)
    stash_shown: list[bool] = attrs.field(factory=list)
    stashed: list[int] = attrs.field(factory=list)
    buyer: list[int] = attrs.field(factory=list)
    #: Tile whose lock the seat tried on its latest turn, -1 if none.
    cracked_at: list[int] = attrs.field(factory=list)
    # -- the turn in progress
    moves_left: int = 3
    stolen: bool = False
    moved: bool = False
    used_control: bool = False
    used_security: bool = False
    used_shop: bool = False
    used_cipher: bool = False
    #: Tiles the current thief started on or moved into this turn.
    visited: list[int] = attrs.field(factory=list)
    tasks: list[Task] = attrs.field(factory=list)
    #: The last dice rolled, as everyone saw them: (seat, what, faces).
    rolls: list[tuple[int, str, list[int]]] = attrs.field(factory=list)
    #: The public lines of the latest action.
    news: list[str] = attrs.field(factory=list)
    takes: list[int] = attrs.field(factory=list)
    winners: list[int] = attrs.field(factory=list)
    ended: str = ""
