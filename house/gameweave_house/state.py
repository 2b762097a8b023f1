"""The state of a House Job: small attrs classes the rules change in place.

The state is private to the match. Views are built from it by allow-list in
``views.py``; the deck order and a face-down hole card never leave through them.
"""

from __future__ import annotations

from typing import Final

import attr

from .cards import hand_points

#: The Take the crew opens with.
OPENING_TAKE: Final = 1000
#: The smallest bet a box may be dealt in with (and what a seat needs to be covered).
MIN_BET: Final = 10
#: The house's table maximum on one box, and on the Bagman's own box.
TABLE_MAX: Final = 250
DEEP_POCKETS_MAX: Final = 500

# Phases of the job (Final: the compiled build inlines them).
DRAFT: Final = "draft"
BET: Final = "bet"
CALL: Final = "call"  # The Call's pause in the deal, waiting for the caller
PLAY: Final = "play"
SETTLED: Final = "settled"  # waiting for the next caller to press Next round
OVER: Final = "over"


# ``attr.s(auto_attribs=True)`` rather than ``attrs.define``: it is the spelling mypyc
# recognises, so the compiled build makes these native classes (see setup.py).
# ``init=False`` with a hand-written ``__init__`` (same parameters as the generated
# one): a new round makes a Box and a Hand per seat, and mypyc compiles this
# ``__init__`` natively where the generated one stays interpreted.
@attr.s(auto_attribs=True, init=False)
class Hand:
    """One hand of cards with its own bet (a box holds one, or two after a split)."""

    cards: list[str]
    bet: int
    hits: int
    done: bool
    bust: bool
    natural: bool
    walked: bool
    doubled: bool
    from_split: bool
    #: Busted while Vanish covered its box: the bet comes back at settlement.
    saved: bool

    def __init__(
        self,
        cards: list[str] | None = None,
        bet: int = 0,
        hits: int = 0,
        done: bool = False,
        bust: bool = False,
        natural: bool = False,
        walked: bool = False,
        doubled: bool = False,
        from_split: bool = False,
        saved: bool = False,
    ) -> None:
        self.cards = [] if cards is None else cards
        self.bet = bet
        self.hits = hits
        self.done = done
        self.bust = bust
        self.natural = natural
        self.walked = walked
        self.doubled = doubled
        self.from_split = from_split
        self.saved = saved

    @property
    def points(self) -> int:
        return hand_points(self.cards)

    @property
    def live(self) -> bool:
        """Still in the round against the dealer: not bust, walked out or a blackjack."""
        return not (self.bust or self.walked or self.natural)


@attr.s(auto_attribs=True, init=False)  # init=False: as for Hand
class Box:
    """A box on the table: a seat's own box, or the Inside Man's Extra Box."""

    id: int
    seat: int
    extra: bool
    hands: list[Hand]
    #: Chips pushed on by Back the Play, counted apart from the box's own bet.
    backed: int

    # id and seat default to 0 (no box) only because copying the compiled class
    # calls __init__ with no arguments before filling the copy in.
    def __init__(
        self,
        id: int = 0,
        seat: int = 0,
        extra: bool = False,
        hands: list[Hand] | None = None,
        backed: int = 0,
    ) -> None:
        self.id = id
        self.seat = seat
        self.extra = extra
        self.hands = [Hand()] if hands is None else hands
        self.backed = backed

    @property
    def main(self) -> Hand:
        return self.hands[0]


@attr.s(auto_attribs=True)
class State:
    """Everything about one job."""

    players: int
    take: int
    opening: int
    #: Undealt cards; the next card drawn is the LAST item. Secret except the face-up top.
    deck: list[str]
    #: How many cards on top of the deck are face up for the crew.
    shown: int = 0
    discard: list[str] = attr.ib(factory=list)
    #: Role key per seat (index seat - 1); "" until drafted.
    roles: list[str] = attr.ib(factory=list)
    #: Spent ability cards per seat (index seat - 1), in the order spent.
    spent: list[list[str]] = attr.ib(factory=list)
    phase: str = DRAFT
    #: The seat whose turn it is (drafting, betting, playing or pressing Next round).
    turn: int = 1
    caller: int = 1
    round: int = 0
    heavy_used: bool = False
    # -- this round ------------------------------------------------------------
    boxes: list[Box] = attr.ib(factory=list)
    #: Seats still to take their betting turn this round, in order.
    to_bet: list[int] = attr.ib(factory=list)
    sitting_out: list[int] = attr.ib(factory=list)
    dealer: list[str] = attr.ib(factory=list)
    hole_up: bool = False
    #: The Marked box id, 0 for none.
    mark: int = 0
    call: bool = False
    heavy: bool = False
    double_bag: bool = False
    slow_hand: bool = False
    nod: bool = False
    #: Box ids covered by Vanish and by Short Change this round.
    vanish: list[int] = attr.ib(factory=list)
    short_change: list[int] = attr.ib(factory=list)
    #: Index into ``boxes`` and into that box's hands of the hand being played.
    cur_box: int = 0
    cur_hand: int = 0
    #: The deck ran dry mid-round and the discard went back in: this round is the last.
    last_round: bool = False
    #: How the job ended: "" while it goes on, "deck" or "broke".
    ended: str = ""

    def box(self, box_id: int) -> Box | None:
        for b in self.boxes:
            if b.id == box_id:
                return b
        return None

    def seat_box(self, seat: int) -> Box | None:
        for b in self.boxes:
            if b.seat == seat and not b.extra:
                return b
        return None

    def role_seat(self, role: str) -> int:
        """The seat holding ``role``, or 0."""
        try:
            return self.roles.index(role) + 1
        except ValueError:
            return 0

    def has_role(self, role: str) -> bool:
        return role in self.roles

    @property
    def extra_id(self) -> int:
        """The id of the Extra Box: one past the seats."""
        return self.players + 1
