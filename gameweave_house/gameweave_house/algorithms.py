"""What The House Job declares for game-playing algorithms: its numbered actions
(``action_list``), the shape of its views (``view_schema``), from which the core
encodes every view into numbers, its facts (``game_facts``), and a fast
``copy_state`` for the clones search algorithms make.

Actions: every kind but ``ability`` is the product of its fields' declared values
(``actions.py``); an ability card names only the fields its play uses, so each
card's plays are listed with the ranges that card can reach. Going all-in with
Back the Play when the Take is none of its steps (the amount is the Take itself,
any whole number) is one number per box standing for the Take of the moment
(a ``Relative`` entry: its action is made from the acting seat's view).

The view schema follows ``views.py`` key by key. Cards are one-hot, except in the
last round's settlement, where each is one number (its place in the deck's order,
scaled). Texts for people (card and role texts, names the keys already give) are
not encoded; every bound is worked out below from the rules.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import cache
from typing import Any

import attrs

from gameweave_core import (
    Bag,
    Bool,
    Const,
    GameFacts,
    IntRange,
    ListOf,
    Maybe,
    NotEncoded,
    Number,
    OneOf,
    Record,
    Relative,
    Schema,
)
from gameweave_core.space import domain_of

from .abilities import BACKING_STEPS, CARDS
from .actions import ACTIONS, DECK_CARDS, MOST_CARDS, Ability
from .cards import FULL_DECK
from .roles import ABILITIES, ANY, BEFORE_DEAL, DEALT, ROLES
from .settle import BLACKJACK, BUST, LOSS, PUSH, WALKED, WIN
from .state import (
    BET,
    CALL,
    DRAFT,
    MIN_BET,
    OVER,
    PLAY,
    SETTLED,
    TABLE_MAX,
    Box,
    Hand,
    Result,
    Settled,
    State,
)

#: The most cards one hand or the dealer holds: at most 11 stay under 22 (four aces,
#: four twos, three threes), and a hand is dealt no card once over 21.
MOST_HAND = MOST_CARDS + 1
#: Rounds in a job: every round deals from the deck, which only shrinks until the
#: round that shuffles the discard back in, the last.
MOST_ROUNDS = DECK_CARDS
#: Most chips on one hand: the Bagman's 500 table maximum, doubled.
MOST_BET = 2 * 500
#: Tens and aces in a deck.
RICH_CARDS = 20


def most_take(players: int, opening: int) -> int:
    """A bound on the Take. A round's hands bet at most 2 hands x ``MOST_BET`` on each
    box (the seats' and the Extra Box) and a hand gets back at most 7 times its bet
    (the Heavy doubles it, the Marked win pays 3:1 with Double Bag); the one Back the
    Play of a job at most doubles the Take. Loose on purpose: a scale, not a forecast."""
    per_round = 6 * 2 * MOST_BET * (players + 1)
    return 2 * (opening + MOST_ROUNDS * per_round)


# -- actions ------------------------------------------------------------------------


def _ability_plays(players: int) -> list[Ability]:
    """Every play of every ability card, the fields each card names in the order
    ``Ability`` declares them."""
    seats = range(1, players + 1)  # the seats' own boxes
    boxes = range(1, players + 2)  # and the Extra Box
    hand = range(MOST_CARDS)  # a card of a live hand
    reach: dict[str, range | tuple[int, ...]] = {"box": boxes, "index": hand, "mine": hand}
    per_card: dict[str, dict[str, range | tuple[int, ...]]] = {
        "false_cut": {"box": seats},  # a live main box of a seat
        "palm": {"box": seats},
        "the_load": {"index": range(1, DECK_CARDS)},  # a face-up deck card below the top
        "back_the_play": {"amount": BACKING_STEPS},
    }
    plays: list[Ability] = []
    for card in ABILITIES:
        names = CARDS[card].fields
        ranges = [per_card.get(card, {}).get(n, reach.get(n, ())) for n in names]
        for chosen in itertools.product(*ranges):
            plays.append(Ability(card, **dict(zip(names, chosen, strict=True))))
    return plays


def _all_in(box: int) -> Relative:
    """Back the Play for the whole Take on ``box``: an amount of its own only while
    the Take is none of the steps (else that step's number is the play)."""

    def make(view: Mapping[str, Any]) -> Ability | None:
        take = view["take"]
        if take in BACKING_STEPS or take <= 0:
            return None
        return Ability("back_the_play", box=box, amount=take)

    return Relative(f"back the play: all in on box {box}", make)


def action_list(players: int, config: Mapping[str, Any]) -> list[Any]:
    """Every action of The House Job for ``players`` seats, in the order that numbers
    them; going all-in is one number per box, standing for the Take of the moment."""
    out: list[Any] = []
    for kind in ACTIONS:
        if kind is Ability:
            out.extend(_ability_plays(players))
            out.extend(_all_in(box) for box in range(1, players + 2))
            continue
        fields = attrs.fields(kind)
        domains = []
        for field in fields:
            domain = domain_of(field)
            assert domain is not None, f"{kind.__name__}.{field.name} declares no values"
            domains.append(domain.resolve(players, config))
        for chosen in itertools.product(*domains):
            out.append(kind(*chosen))
    return out


# -- the view schema ------------------------------------------------------------------

_WORDS = "words for people; the key beside it encodes what they say"
_TIMING_REASONS = (
    "the job is over",
    "the job has not started",
    "the deal is paused for the caller's Mark",
    "not your turn",
    "before the deal only — your betting turn",
    "needs cards on the table — your playing turn",
)
#: Every reason a crew card can give for not being playable now ("" when it is).
REASONS = tuple(
    dict.fromkeys(("", "spent", *_TIMING_REASONS, *(c.unplayable for c in CARDS.values())))
)


def _results() -> tuple[str, ...]:
    """Every way a settlement line reads: the hand's result, its notes, and whether
    the Take ran out paying it ("" for chips backed on a box)."""
    words = (WALKED, BUST, f"{BUST} · {LOSS}", BLACKJACK, WIN, PUSH, LOSS)
    notes = ((), ("HEAVY",), ("MARK",), ("HEAVY", "MARK"), ("VANISH",), ("SHORT CHANGE",))
    found = [""]
    for word, extra, empty in itertools.product(words, notes, ("", " · TAKE EMPTY")):
        found.append(" · ".join((word, *extra)) + empty)
    return tuple(found)


def _line_names(players: int) -> tuple[str, ...]:
    crews = [f"Crew {s}" for s in range(1, players + 1)]
    return (
        *crews,
        *(f"{c} split" for c in crews),
        "Extra Box",
        *(f"Raise on {c}" for c in [*crews, "Extra Box"]),
    )


@cache
def _schema(players: int, opening: int) -> Record:
    top = most_take(players, opening)
    card = OneOf(FULL_DECK)
    cards = ListOf(card, max_len=MOST_HAND)
    # The last round's hands, kept until the next deal: one number a card.
    past_cards = ListOf(OneOf(FULL_DECK, one_hot=False), max_len=MOST_HAND)
    # A hand takes a card at 20 at most (then 30); the dealer's Nod deals one more
    # card after it stands, at 21 at most (then 31).
    points = IntRange(0, 31)
    seat = IntRange(1, players)
    box_id = IntRange(1, players + 1)
    role = OneOf(tuple(ROLES))
    passive = Record(
        key=OneOf(tuple(r.passive for r in ROLES.values())),
        name=NotEncoded(_WORDS),
        text=NotEncoded(_WORDS),
    )
    ability = OneOf(tuple(ABILITIES))
    timing = OneOf((BEFORE_DEAL, DEALT, ANY))
    hand = Record(
        cards=cards,
        bet=IntRange(0, MOST_BET),
        points=points,
        soft=Bool(),
        status=OneOf(("betting", "blackjack", "walked", "bust", "stood", "playing", "waiting")),
        doubled=Bool(),
        split=Bool(),
        hits=IntRange(0, MOST_HAND),
    )
    box = Record(
        id=box_id,
        seat=seat,
        name=NotEncoded("the box's name for people; 'id' and 'extra' encode it"),
        extra=Bool(),
        table_max=OneOf((TABLE_MAX, 500)),
        backed=Number(0, top),
        marked=Bool(),
        vanish=Bool(),
        short_change=Bool(),
        hands=ListOf(hand, max_len=2),
    )
    crew_card = Record(
        key=ability,
        name=NotEncoded(_WORDS),
        timing=timing,
        when=NotEncoded(_WORDS),
        text=NotEncoded(_WORDS),
        spent=Bool(),
        playable=Bool(),
        reason=OneOf(REASONS),
    )
    crew = Record(
        seat=seat,
        role=OneOf(("", *ROLES)),
        sitting_out=Bool(),
        role_name=NotEncoded(_WORDS),
        passive=Maybe(passive),
        cards=ListOf(crew_card, max_len=3),
    )
    role_card = Record(
        key=ability,
        name=NotEncoded(_WORDS),
        timing=timing,
        when=NotEncoded(_WORDS),
        text=NotEncoded(_WORDS),
    )
    return Record(
        phase=OneOf((DRAFT, BET, CALL, PLAY, SETTLED, OVER)),
        round=IntRange(0, MOST_ROUNDS),
        caller=seat,
        turn=IntRange(0, players),
        take=Number(0, top),
        opening=Const(opening, "the opening Take, an option: the same all through the job"),
        min_bet=Const(MIN_BET, "the table minimum, the same in every job"),
        deck=Record(
            left=IntRange(0, DECK_CARDS),
            # Top first: the order the next draws take them in.
            face_up=ListOf(card, max_len=DECK_CARDS),
            discard=IntRange(0, DECK_CARDS),
        ),
        dealer=Record(cards=cards, hole_down=Bool(), points=points, soft=Bool()),
        levers=Record(mark=IntRange(0, players + 1), heavy=Bool(), heavy_spent=Bool(), call=Bool()),
        boxes=ListOf(box, max_len=players + 1),
        crew=ListOf(crew, length=players),
        pending=ListOf(
            Record(
                key=OneOf(
                    (
                        "mark",
                        "heavy",
                        "the_call",
                        "double_bag",
                        "vanish",
                        "short_change",
                        "slow_hand",
                        "the_nod",
                    )
                ),
                text=NotEncoded("words for people; the key, the levers and the boxes' flags"),
            ),
            # One each, but Vanish and Short Change once per box.
            max_len=6 + 2 * (players + 1),
        ),
        last_round=Bool(),
        count=Maybe(
            Record(
                tens_and_aces=IntRange(0, RICH_CARDS),
                cards=IntRange(0, DECK_CARDS),
                reading=OneOf(("THIN", "EVEN", "RICH", "SPENT")),
            )
        ),
        tell=Maybe(OneOf(("HIGH", "LOW"))),
        playing=Maybe(Record(box=box_id, hand=IntRange(0, 1))),
        settled=Maybe(
            Record(
                round=IntRange(1, MOST_ROUNDS),
                dealer=Record(cards=past_cards, points=points),
                results=ListOf(
                    Record(
                        name=OneOf(_line_names(players)),
                        cards=past_cards,
                        points=points,
                        result=OneOf(_results()),
                        chips=Number(-top, top),
                    ),
                    # Two hands and the chips backed on each box.
                    max_len=3 * (players + 1),
                ),
                take=Number(0, top),
            )
        ),
        # Open roles in the draft's order: a set.
        roles_open=Maybe(Bag(tuple(ROLES), 1)),
        roles=Maybe(
            ListOf(
                Record(
                    key=role,
                    name=NotEncoded(_WORDS),
                    summary=NotEncoded(_WORDS),
                    passive=passive,
                    cards=ListOf(role_card, length=3),
                ),
                max_len=len(ROLES),
            )
        ),
        ended=Maybe(OneOf(("deck", "broke"))),
        took_the_house=Maybe(Bool()),
        you=Maybe(seat),
    )


def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
    """The shape of every view of The House Job (any seat, the spectator, any phase)."""
    return _schema(players, int(config.get("take", 1000)))


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """Chance is the deck: shuffled at setup (the first draw is from 52; none with the
    test option ``deck``) and, if it runs dry, the discard shuffled back in (how often depends on the abilities
    played, so no bound on the draws is claimed). Seats act one at a time. The crew
    wins or loses together: every seat gets 1, or every seat 0."""
    return GameFacts(
        max_chance_outcomes=DECK_CARDS,
        simultaneous=False,
        utility="identical",
        min_utility=0.0,
        max_utility=1.0,
    )


# -- fast copies ------------------------------------------------------------------------


def _hand(hand: Hand, lists: dict[int, list[str]]) -> Hand:
    cards = lists[id(hand.cards)] = list(hand.cards)
    return Hand(
        cards,
        hand.bet,
        hand.hits,
        hand.done,
        hand.bust,
        hand.natural,
        hand.walked,
        hand.doubled,
        hand.from_split,
        hand.saved,
    )


def _again(cards: list[str], lists: dict[int, list[str]]) -> list[str]:
    """The copy of ``cards`` already made, if the state shares that list, else a new one."""
    made = lists.get(id(cards))
    return list(cards) if made is None else made


def copy_state(state: State) -> State:
    """An independent copy of ``state`` for clones and explicit chance, far cheaper
    than the generic copy. The last settlement holds the very lists of the dealer's
    and the hands' cards it settled (until the next deal replaces them), and so does
    the copy (tests/test_algorithms.py checks that nothing is shared with the state
    and that what the state shares within itself, the copy shares alike)."""
    lists: dict[int, list[str]] = {}
    boxes = [
        Box(b.id, b.seat, b.extra, [_hand(h, lists) for h in b.hands], b.backed)
        for b in state.boxes
    ]
    dealer = lists[id(state.dealer)] = list(state.dealer)
    last = state.last
    return State(
        players=state.players,
        take=state.take,
        opening=state.opening,
        deck=list(state.deck),
        shown=state.shown,
        discard=list(state.discard),
        roles=list(state.roles),
        spent=[list(s) for s in state.spent],
        phase=state.phase,
        turn=state.turn,
        caller=state.caller,
        round=state.round,
        heavy_used=state.heavy_used,
        boxes=boxes,
        to_bet=list(state.to_bet),
        sitting_out=list(state.sitting_out),
        dealer=dealer,
        hole_up=state.hole_up,
        mark=state.mark,
        call=state.call,
        heavy=state.heavy,
        double_bag=state.double_bag,
        slow_hand=state.slow_hand,
        nod=state.nod,
        vanish=list(state.vanish),
        short_change=list(state.short_change),
        cur_box=state.cur_box,
        cur_hand=state.cur_hand,
        last_round=state.last_round,
        ended=state.ended,
        shuffles=list(state.shuffles),  # its pairs of tuples never change: shared
        last=None
        if last is None
        else Settled(
            last.round,
            _again(last.dealer, lists),
            [
                Result(r.name, _again(r.cards, lists), r.points, r.result, r.chips)
                for r in last.results
            ],
            last.take,
        ),
    )
