"""The state of a House Job: small attrs classes the rules change in place.

The state is private to the match. Views are built from it by allow-list in
``views.py``; the deck order and a face-down hole card never leave through them.
"""

from __future__ import annotations

from typing import Final

import attr
import attrs

from .cards import points

#: The Take the crew opens with.
OPENING_TAKE: Final = 1000
#: The smallest bet a box may be dealt in with (and what a seat needs to be covered).
MIN_BET: Final = 10
#: The house's table maximum on one box, and on the Bagman's own box.
TABLE_MAX: Final = 250
DEEP_POCKETS_MAX: Final = 500

# Phases of the job.
DRAFT: Final = "draft"
BET: Final = "bet"
CALL: Final = "call"  # The Call's pause in the deal, waiting for the caller
PLAY: Final = "play"
SETTLED: Final = "settled"  # waiting for the next caller to press Next round
OVER: Final = "over"


# ``attr.s(auto_attribs=True)``, not ``attrs.define``: mypyc makes native classes only
# of the spellings it knows, and the compiled rules read these fields everywhere.
# Hand and Box, made afresh every round, write their own ``__init__`` (the same
# parameters as the generated one) because mypyc compiles it, where the generated
# one stays interpreted. docs/titles/house/compiled.md has the figures of both.
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
        return points(self.cards)

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

    @property
    def live_main(self) -> bool:
        """The main hand holds cards and is still in the round."""
        h = self.hands[0]
        return bool(h.cards) and h.live


@attr.s(auto_attribs=True, init=False)  # init=False: as for Hand (one per hand settled)
class Result:
    """One line of a settlement as the table shows it: a hand, or chips backed on a box."""

    #: ``"Crew 2"``, ``"Crew 2 split"``, ``"Extra Box"`` or ``"Raise on Crew 2"``.
    name: str
    cards: list[str]
    points: int
    #: What the hand did (``"WIN · MARK"``, ``"BUST · LOSS"``); "" for backed chips.
    result: str
    #: What it moved against the bet already spent (``+15``, ``-10``).
    chips: int

    # Defaults only so that copying the compiled class may call it with no arguments.
    def __init__(
        self,
        name: str = "",
        cards: list[str] | None = None,
        points: int = 0,
        result: str = "",
        chips: int = 0,
    ) -> None:
        self.name = name
        self.cards = [] if cards is None else cards
        self.points = points
        self.result = result
        self.chips = chips


@attr.s(auto_attribs=True, init=False)  # init=False: as for Hand (one per round)
class Settled:
    """The round that settled last: the dealer's final hand and every result."""

    round: int
    dealer: list[str]
    results: list[Result]
    take: int

    def __init__(
        self,
        round: int = 0,
        dealer: list[str] | None = None,
        results: list[Result] | None = None,
        take: int = 0,
    ) -> None:
        self.round = round
        self.dealer = [] if dealer is None else dealer
        self.results = [] if results is None else results
        self.take = take


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
    discard: list[str] = attrs.Factory(list)
    #: Role key per seat (index seat - 1); "" until drafted.
    roles: list[str] = attrs.Factory(list)
    #: Spent ability cards per seat (index seat - 1), in the order spent.
    spent: list[list[str]] = attrs.Factory(list)
    phase: str = DRAFT
    #: The seat whose turn it is (drafting, betting, playing or pressing Next round).
    turn: int = 1
    caller: int = 1
    round: int = 0
    heavy_used: bool = False
    # -- this round ------------------------------------------------------------
    boxes: list[Box] = attrs.Factory(list)
    #: Seats still to take their betting turn this round, in order.
    to_bet: list[int] = attrs.Factory(list)
    sitting_out: list[int] = attrs.Factory(list)
    dealer: list[str] = attrs.Factory(list)
    hole_up: bool = False
    #: The Marked box id, 0 for none.
    mark: int = 0
    call: bool = False
    heavy: bool = False
    double_bag: bool = False
    slow_hand: bool = False
    nod: bool = False
    #: Box ids covered by Vanish and by Short Change this round.
    vanish: list[int] = attrs.Factory(list)
    short_change: list[int] = attrs.Factory(list)
    #: Index into ``boxes`` and into that box's hands of the hand being played.
    cur_box: int = 0
    cur_hand: int = 0
    #: The deck ran dry mid-round and the discard went back in: this round is the last.
    last_round: bool = False
    #: How the job ended: "" while it goes on, "deck" or "broke".
    ended: str = ""
    #: The round that settled last, kept on the table until the next deal so every
    #: seat sees it whoever presses Next round. Only the views read it; it is a copy
    #: of what the state held when the round settled, so the digest leaves it out
    #: (see :func:`for_digest`).
    last: Settled | None = None
    #: Every shuffle of the job so far: the pile as it was, and as the shuffle left it
    #: (the setup's, unless the test option ``deck`` fixed the order, and the
    #: discard's when the deck runs dry). Only ``resample_world`` reads it, to give a
    #: job as the chance outcomes that made it; the digest leaves it out (see
    #: :func:`for_digest`): it adds nothing the actions and the seed do not fix.
    shuffles: list[tuple[tuple[str, ...], tuple[str, ...]]] = attrs.Factory(list)

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

    def current(self) -> tuple[Box, Hand]:
        """The box and the hand being played."""
        box = self.boxes[self.cur_box]
        return box, box.hands[self.cur_hand]

    def role_of(self, seat: int) -> str:
        """The role ``seat`` drafted ("" before the draft)."""
        return self.roles[seat - 1]

    def role_seat(self, role: str) -> int:
        """The seat holding ``role``, or 0."""
        try:
            return self.roles.index(role) + 1
        except ValueError:
            return 0

    def has_role(self, role: str) -> bool:
        return role in self.roles

    def table_max(self, box: Box) -> int:
        """The most chips ``box`` may hold: Deep Pockets raises the Bagman's own box."""
        if not box.extra and self.roles[box.seat - 1] == "bagman":
            return DEEP_POCKETS_MAX
        return TABLE_MAX

    @property
    def extra_id(self) -> int:
        """The id of the Extra Box: one past the seats."""
        return self.players + 1

    @property
    def hole_down(self) -> bool:
        """The dealer holds a hole card the crew has not seen."""
        return len(self.dealer) >= 2 and not self.hole_up

    @property
    def face_down(self) -> int:
        """How many deck cards are still face down (they sit below the face-up top)."""
        return len(self.deck) - self.shown


def for_digest(data: dict[str, object]) -> dict[str, object]:
    """The title's snapshot (``data``, the whole state unstructured) without
    :attr:`State.last` and :attr:`State.shuffles`: the rules never read them, and
    leaving them out keeps the digests of logs recorded before they existed."""
    data.pop("last", None)
    data.pop("shuffles", None)
    return data
