"""The state of a Master Thief match, its phases, and the numbers that shape the game."""

from __future__ import annotations

import attrs

from gameweave_core.reactions import ReactionWindow

#: Thief Cards dealt to each player at the start.
HAND_DEALT = 4
#: Hand limit and carrying limit at the end of a turn (before Charmed items and Utilities).
HAND_LIMIT = 4
CARRY_LIMIT = 4
#: Security Strikes that end the game (The Scream, Carried, makes it 4).
STRIKES_TO_END = 3
#: How many times the table may abandon the opening Heist (the project's ruling).
MAX_RESTARTS = 2

IN = "in"
ESCAPED = "escaped"
CAUGHT = "caught"

# Phases.
HEIST = "heist"  # everyone steals one Museum card at once
AVERT = "avert"  # a Security card waits to be averted (a sequential window)
JURY = "jury"  # the Jury of Thieves votes on abandoning the Heist
STEAL = "steal"  # the turn's opening steal
PLAY = "play"  # play Actions and Utilities, or end the turn
REACT = "react"  # a Grip or Latch window is open
OVERFLOW = "overflow"  # a seat over its carrying limit on another's turn drops items
CLEANUP = "cleanup"  # discard to the hand limit, drop to the carrying limit
LEAVE = "leave"  # stay in the Museum or try to escape
TIEBREAK = "tiebreak"  # tied thieves steal once more, all at once
OVER = "over"


@attrs.define
class State:
    """Everything about a match, secrets included. Only the rules see it whole.

    Seats are numbered from 1; per-seat lists are indexed ``seat - 1``. Hands and
    Stashed items are kept sorted (a hand has no order), Carried items in the
    order they came.
    """

    players: int
    museum: list[str]  # the face-down pile: what it holds is public, its order secret
    deck: list[str]  # Thief Cards to draw, next last: secret
    hands: list[list[str]]  # secret to all but the owner (sizes are public)
    calling: list[str]  # each seat's Calling Card: secret until revealed
    spare_calling: list[str]  # Calling Cards dealt to nobody: secret from everyone
    carried: list[list[str]]
    stashed: list[list[str]]
    utilities: list[list[str]]  # Utilities face up in front of each seat
    status: list[str]
    revealed: list[bool]  # Calling Cards shown to the table
    snooped: list[list[int]]  # per seat, the seats whose Calling Card it has seen
    discard: list[str] = attrs.field(factory=list)  # face up, in order
    strikes: list[str] = attrs.field(factory=list)
    phase: str = HEIST
    turn: int = 1
    first: int = 1  # who takes the first turn: the poorest Heist (the project's ruling)
    turns: int = 0  # turns begun, the Heist not counted
    played: list[str] = attrs.field(factory=list)  # Thief Cards played this turn
    heist_in: list[int] = attrs.field(factory=list)  # seats that have stolen (sorted)
    alarms: list[tuple[int, str]] = attrs.field(factory=list)  # Security to avert, in order
    window: ReactionWindow | None = None
    overflow: list[int] = attrs.field(factory=list)  # seats that must drop now
    alarmed: bool = False  # this turn was ended by Security: no escape
    last_turn: bool = False  # the Thief deck was drawn out exactly: the game ends after it
    final_turn: bool = False  # the last thief in play: must escape after this turn
    restarts: int = 0
    votes: dict[int, bool] = attrs.field(factory=dict)  # secret until all are in
    jury_result: str = ""
    ended: str = ""  # how the game ended: strikes, time, escapes
    escapes: list[int] = attrs.field(factory=list)  # seats in the order they escaped
    tied: list[int] = attrs.field(factory=list)  # thieves in the tie-break steal
    tie_steals: dict[int, str] = attrs.field(factory=dict)  # the last tie-break's cards
    tie_in: list[int] = attrs.field(factory=list)  # tied seats that have stolen
    scores: list[int] = attrs.field(factory=list)  # final BMC, once the game is over
    #: Per seat, what it carried when caught at the end (back into the Museum), in sight.
    caught_with: list[list[str]] = attrs.field(factory=list)
    winners: list[int] = attrs.field(factory=list)
