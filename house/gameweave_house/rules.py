"""The rules of The House Job: setup, whose turn it is, what is legal, and applying it.

Functions here change the :class:`~gameweave_house.state.State` in place and return
history events; the pure parts (card totals, dealer play, settlement arithmetic)
live in ``cards``, ``dealer`` and ``settle``. Every history line is public: the crew
shares everything, and no line names a card that is still face down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from gameweave_core import Event, Rng

from . import actions as A
from .cards import (
    FULL_DECK,
    check_deck,
    hand_points,
    hand_total,
    high_low,
    is_two_card_21,
    label,
    labels,
    rank_name,
)
from .dealer import dealer_needs_card
from .roles import ABILITIES, BEFORE_DEAL, DEALT, ROLES
from .settle import BUST, settle_backed, settle_figures
from .settle import result as hand_result
from .state import (
    BET,
    CALL,
    DEEP_POCKETS_MAX,
    DRAFT,
    MIN_BET,
    OVER,
    PLAY,
    SETTLED,
    TABLE_MAX,
    Box,
    Hand,
    State,
)

CHIP_STEPS: Final = (10, 50, 100)
#: Amounts Back the Play offers (and the whole Take, for going all-in).
BACKING_STEPS: Final = (10, 50, 100, 250, 500, 1000)

# Module-level values the hot path reads are Final: the compiled build keeps them in
# C statics instead of looking each one up by name.
HIT: Final = A.Hit()
STAND: Final = A.Stand()
DOUBLE: Final = A.Double()
SPLIT: Final = A.Split()
COLD_FEET: Final = A.ColdFeet()
DEAL_ME_IN: Final = A.DealMeIn()
NO_MARK: Final = A.NoMark()
HEAVY: Final = A.Heavy()
NEXT_ROUND: Final = A.NextRound()

#: The action classes apply() dispatches on.
HIT_T: Final = A.Hit
STAND_T: Final = A.Stand
CHIPS_T: Final = A.Chips
DEAL_ME_IN_T: Final = A.DealMeIn
DOUBLE_T: Final = A.Double
SPLIT_T: Final = A.Split
COLD_FEET_T: Final = A.ColdFeet
ABILITY_T: Final = A.Ability
DRAFT_T: Final = A.Draft
MARK_T: Final = A.Mark
NO_MARK_T: Final = A.NoMark
HEAVY_T: Final = A.Heavy
NEXT_ROUND_T: Final = A.NextRound

#: The most entries a cache of shared objects keeps before it starts afresh.
_CACHE_MAX: Final = 20_000

# Legal-action lists are rebuilt after every action: hand out shared, immutable
# action objects instead of constructing new ones each time (the hot path).
#: Chips for a seat's own box, one per step of CHIP_STEPS.
OWN_CHIPS: Final = tuple(A.Chips(step) for step in CHIP_STEPS)
DRAFTS: Final = {key: A.Draft(key) for key in ROLES}
_CHIPS: Final[dict[tuple[int, int | None], A.Chips]] = {}
_MARKS: Final[dict[int, A.Mark]] = {}
_ABILITIES: Final[dict[tuple[str, int | None, int | None, int | None, int | None], A.Ability]] = {}


def _chips(amount: int, box: int | None) -> A.Chips:
    key = (amount, box)
    act = _CHIPS.get(key)
    if act is None:
        act = _CHIPS[key] = A.Chips(amount, box)
    return act


def _mark(box: int) -> A.Mark:
    act = _MARKS.get(box)
    if act is None:
        act = _MARKS[box] = A.Mark(box)
    return act


#: Each card played with no target, and played on a box, by card and box.
_PLAIN: Final = {card: A.Ability(card) for card in ABILITIES}
_ON_BOX: Final[dict[str, dict[int, A.Ability]]] = {card: {} for card in ABILITIES}


def _on_box(card: str, box: int) -> A.Ability:
    acts = _ON_BOX[card]
    act = acts.get(box)
    if act is None:
        act = acts[box] = A.Ability(card, box)
    return act


def _ab(
    card: str,
    box: int | None = None,
    index: int | None = None,
    mine: int | None = None,
    amount: int | None = None,
) -> A.Ability:
    key = (card, box, index, mine, amount)
    act = _ABILITIES.get(key)
    if act is None:
        if len(_ABILITIES) >= _CACHE_MAX:  # Back the Play's amounts follow the Take
            _ABILITIES.clear()
        act = _ABILITIES[key] = A.Ability(card, box, index, mine, amount)
    return act


# -- history lines ---------------------------------------------------------------------

# Most lines recur from hand to hand and job to job ("Crew 1 stands on 17"), and an
# Event is immutable, so equal lines share one Event: finding it is much cheaper than
# building it. Every line is public (the crew shares everything). Bounded: a full
# cache starts afresh.
_LINES: Final[dict[str, dict[str, Event]]] = {}


def line(text: str, kind: str = "") -> Event:
    """The public history line ``text`` (of ``kind``), shared with its equals."""
    lines = _LINES.get(kind)
    if lines is None:
        lines = _LINES[kind] = {}
    event = lines.get(text)
    if event is None:
        if len(lines) >= _CACHE_MAX:
            lines.clear()
        event = lines[text] = Event(text, None, True, kind)
    return event


#: "The house shows 7", by up-card (the card itself rides along for renderers).
_UPCARDS: Final = {
    card: Event(f"The house shows {rank_name(card)}", None, True, "upcard", {"card": card})
    for card in FULL_DECK
}
_SETTLED: Final[dict[int, Event]] = {}


def upcard_line(card: str) -> Event:
    """The line showing the dealer's up-card."""
    return _UPCARDS[card]


def settled_line(take: int) -> Event:
    """The line closing a round's settlement, with the Take as data."""
    event = _SETTLED.get(take)
    if event is None:
        if len(_SETTLED) >= _CACHE_MAX:
            _SETTLED.clear()
        event = _SETTLED[take] = Event(
            f"Round settled — Take {take}", None, True, "settled", {"take": take}
        )
    return event


# -- setup ---------------------------------------------------------------------------


def check_options(config: Mapping[str, Any]) -> str | None:
    """Why the options are unusable, or ``None``."""
    deck = config.get("deck", [])
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        return "deck: give a list of card strings like 'AS', 'TD', '7H'"
    if deck:
        problem = check_deck(deck)
        if problem:
            return problem
    take = config.get("take", 1000)
    if not isinstance(take, int) or isinstance(take, bool) or take < MIN_BET:
        return f"take: the opening Take must be a whole number of at least {MIN_BET}"
    return None


def new_state(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    """A job before the draft: the deck in draw order, the opening Take."""
    order = list(config.get("deck") or [])
    if not order:
        order = list(FULL_DECK)
        rng.shuffle(order)
    take = int(config.get("take", 1000))
    return State(
        players=players,
        take=take,
        opening=take,
        deck=order[::-1],  # the next card is the last item: pop() is cheap
        roles=[""] * players,
        spent=[[] for _ in range(players)],
    )


# -- names -----------------------------------------------------------------------------


#: "Crew 1" to "Crew 4", named once: nearly every history line names a seat.
_CREW: Final = tuple(f"Crew {seat}" for seat in range(5))


def crew(seat: int) -> str:
    return _CREW[seat] if 0 < seat < len(_CREW) else f"Crew {seat}"


def box_name(state: State, box: Box, hand: int = 0) -> str:
    """``"Crew 2"``, ``"Crew 2 split"`` or ``"Extra Box"``."""
    if box.extra:
        return "Extra Box"
    return crew(box.seat) + (" split" if hand else "")


def box_id_name(state: State, box_id: int) -> str:
    return "the Extra Box" if box_id == state.extra_id else f"{crew(box_id)}'s box"


def describe(h: Hand) -> str:
    p, soft = hand_total(h.cards)
    return f"{'soft ' if soft and p < 21 else ''}{p}"


# -- the deck ----------------------------------------------------------------------


def draw(state: State, rng: Rng, events: list[Event]) -> str:
    """The next card of the deck. A dry deck takes the discard back, shuffled, and
    makes this round the job's last."""
    if not state.deck:
        if not state.discard:  # pragma: no cover - 52 cards cannot all be on the table
            raise RuntimeError("the deck and the discard are both empty")
        state.deck = state.discard
        state.discard = []
        rng.shuffle(state.deck)
        state.shown = 0
        state.last_round = True
        events.append(
            line(
                f"The deck runs dry — the discard ({len(state.deck)} cards) is shuffled back "
                "in; this round is the job's last",
                "reshuffle",
            )
        )
    if state.shown:
        state.shown -= 1
    return state.deck.pop()


def turn_up(state: State, n: int) -> list[str]:
    """Turn up to ``n`` more deck cards face up; returns the cards turned."""
    before = state.shown
    state.shown = min(len(state.deck), state.shown + n)
    # face-up cards are the top of the deck: deck[-1] is the top
    return [state.deck[-1 - i] for i in range(before, state.shown)]


def face_up(state: State) -> list[str]:
    """The face-up deck cards, top first."""
    return [state.deck[-1 - i] for i in range(state.shown)]


# -- whose turn ----------------------------------------------------------------------


def awaiting(state: State) -> tuple[int, ...]:
    return () if state.phase == OVER else (state.turn,)


def current(state: State) -> tuple[Box, Hand]:
    box = state.boxes[state.cur_box]
    return box, box.hands[state.cur_hand]


def role_of(state: State, seat: int) -> str:
    return state.roles[seat - 1]


def table_max(state: State, box: Box) -> int:
    if not box.extra and role_of(state, box.seat) == "bagman":
        return DEEP_POCKETS_MAX
    return TABLE_MAX


def own_boxes(state: State, seat: int) -> list[Box]:
    return [b for b in state.boxes if b.seat == seat]


# -- the round ------------------------------------------------------------------------


def start_round(state: State, events: list[Event], rng: Rng) -> None:
    state.round += 1
    state.boxes = []
    state.sitting_out = []
    state.dealer = []
    state.hole_up = False
    state.mark = 0
    state.call = state.heavy = state.double_bag = state.slow_hand = state.nod = False
    state.vanish = []
    state.short_change = []
    state.cur_box = state.cur_hand = 0
    n = state.players
    state.to_bet = [(state.caller - 1 + i) % n + 1 for i in range(n)]
    events.append(line(f"Round {state.round} — {crew(state.caller)} calls", "round"))
    next_bettor(state, events, rng)


def next_bettor(state: State, events: list[Event], rng: Rng) -> None:
    while state.to_bet:
        seat = state.to_bet.pop(0)
        if state.take < MIN_BET:
            state.sitting_out.append(seat)
            events.append(line(f"{crew(seat)} sits the round out — the Take can't cover {MIN_BET}"))
            continue
        state.phase = BET
        state.turn = seat
        state.boxes.append(Box(id=seat, seat=seat))
        return
    deal(state, events, rng)


def deal(state: State, events: list[Event], rng: Rng) -> None:
    state.boxes.sort(key=lambda b: (b.seat, b.extra))
    for b in state.boxes:
        if not b.extra:
            b.main.cards.append(draw(state, rng, events))
    if state.call and not state.mark:
        state.phase = CALL
        state.turn = state.caller
        firsts = ", ".join(
            f"{box_name(state, b)} {label(b.main.cards[0])}" for b in state.boxes if not b.extra
        )
        events.append(line(f"The Call — first cards {firsts}; {crew(state.caller)} may Mark a box"))
        return
    finish_deal(state, events, rng)


def finish_deal(state: State, events: list[Event], rng: Rng) -> None:
    up = draw(state, rng, events)
    state.dealer = [up]
    events.append(upcard_line(up))
    for b in state.boxes:
        if not b.extra:
            b.main.cards.append(draw(state, rng, events))
    for b in state.boxes:
        if b.extra:
            b.main.cards.append(draw(state, rng, events))
            b.main.cards.append(draw(state, rng, events))
    state.dealer.append(draw(state, rng, events))
    for b in state.boxes:
        h = b.main
        name = box_name(state, b)
        if is_two_card_21(h.cards):
            h.natural = h.done = True
            events.append(line(f"{name} is dealt a blackjack ({labels(h.cards)})"))
        else:
            events.append(line(f"{name} is dealt {labels(h.cards)} — {describe(h)}"))
    events.append(line("The house takes its hole card face down"))
    if state.has_role("inside_man"):
        events.append(line(f"The Tell — the hole card is {tell(state)}", "tell"))
    if is_two_card_21(state.dealer):
        state.hole_up = True
        events.append(line(f"The house peeks — blackjack ({labels(state.dealer)}); the round ends"))
        settle(state, events)
        return
    events.append(line("The house peeks — no blackjack"))
    state.phase = PLAY
    state.cur_box = state.cur_hand = 0
    advance(state, events, rng)


def tell(state: State) -> str:
    return high_low(state.dealer[1])


def advance(state: State, events: list[Event], rng: Rng) -> None:
    """Move to the next hand with a decision to make, or let the dealer play."""
    bi, hi = state.cur_box, state.cur_hand
    boxes = state.boxes
    while bi < len(boxes):
        hands = boxes[bi].hands
        while hi < len(hands):
            if not hands[hi].done:
                state.cur_box, state.cur_hand = bi, hi
                state.turn = boxes[bi].seat
                state.phase = PLAY
                return
            hi += 1
        bi += 1
        hi = 0
    dealer_turn(state, events, rng)


def standing(state: State) -> bool:
    return any(h.live for b in state.boxes for h in b.hands)


def dealer_turn(state: State, events: list[Event], rng: Rng) -> None:
    if state.hole_up:
        events.append(line(f"The house has {hand_points(state.dealer)}"))
    else:
        state.hole_up = True
        events.append(line(f"Hole card up — house has {hand_points(state.dealer)}", "hole"))
    if not standing(state):
        events.append(line("No hand stands against the house; it draws nothing"))
        settle(state, events)
        return
    stand_on = 16 if state.slow_hand else 17
    drew = False
    while dealer_needs_card(state.dealer, stand_on):
        state.dealer.append(draw(state, rng, events))
        drew = True
    p = hand_points(state.dealer)
    if drew:
        events.append(line(f"The house draws to {p}{' — bust' if p > 21 else ''}"))
    else:
        events.append(line(f"The house stands on {p}"))
    if state.nod:
        if p <= 21:
            card = draw(state, rng, events)
            state.dealer.append(card)
            p = hand_points(state.dealer)
            events.append(
                line(
                    f"The Nod — the house takes one more, {label(card)}, to {p}"
                    f"{' — bust' if p > 21 else ''}"
                )
            )
        else:
            events.append(line("The Nod goes unused — the house has already bust"))
        state.nod = False
    settle(state, events)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def settle(state: State, events: list[Event]) -> None:
    """Settle every hand: all credits first, then the debits, capped at the Take."""
    dealer_pts = hand_points(state.dealer)
    dealer_bj = is_two_card_21(state.dealer)
    lines: list[tuple[str, int, int, int]] = []  # (text head, bet, credit, debit)
    debts: list[tuple[int, int]] = []  # (line index, debit wanted)
    for b in state.boxes:
        marked = state.mark == b.id
        short = b.id in state.short_change
        words = []
        for i, h in enumerate(b.hands):
            pts = h.points
            word = hand_result(pts, h.bust, h.natural, h.walked, dealer_pts, dealer_bj)
            words.append(word)
            credit, debit, notes = settle_figures(
                word, h.bet, state.heavy, marked, state.double_bag, h.saved, short and i == 0
            )
            state.take += credit
            head = f"{box_name(state, b, i)} {pts} "
            rescued = "VANISH" in notes or "SHORT CHANGE" in notes
            head += "BUST · LOSS" if word == BUST and not rescued else word
            if notes:
                head += "".join(f" · {n}" for n in notes)
            if debit:
                debts.append((len(lines), debit))
            lines.append((head, h.bet, credit, 0))
        if b.backed:
            back = settle_backed(words[0], b.backed, saved=b.main.saved, short_change=short)
            state.take += back
            lines.append((f"Raise on {box_name(state, b)}", b.backed, back, 0))
    for index, wanted in debts:
        taken = min(wanted, state.take)
        state.take -= taken
        head, bet, credit, _ = lines[index]
        if taken < wanted:
            head += " · TAKE EMPTY"
        lines[index] = (head, bet, credit, taken)
    for head, bet, credit, debit in lines:
        events.append(line(f"{head} {signed(credit - bet - debit)}", "settle"))
    events.append(settled_line(state.take))
    state.phase = SETTLED
    if state.take < MIN_BET:
        state.phase = OVER
        state.ended = "broke"
        events.append(
            line(
                f"The crew is broke — the job is over with the Take at {state.take} "
                f"(opened at {state.opening}); the house kept its edge",
                "end",
            )
        )
        return
    state.turn = state.caller % state.players + 1


def deck_can_deal_round(state: State) -> bool:
    """A full round needs two cards for every seat's box and two for the dealer."""
    return len(state.deck) >= 2 * state.players + 2


def end_by_deck(state: State, events: list[Event]) -> None:
    state.phase = OVER
    state.ended = "deck"
    verdict = "the crew took the house" if state.take > state.opening else "the house kept its edge"
    why = "the last round is played" if state.last_round else "the deck can't deal another round"
    events.append(
        line(
            f"The job is over — {why}: Take {state.take} (opened at {state.opening}); {verdict}",
            "end",
        )
    )


# -- playing a hand ---------------------------------------------------------------------


def bust(state: State, box: Box, hand: Hand, events: list[Event]) -> None:
    hand.bust = hand.done = True
    if box.id in state.vanish:
        hand.saved = True
    if not box.extra and role_of(state, box.seat) == "sleight" and len(state.deck) > state.shown:
        card = turn_up(state, 1)
        events.append(line(f"Palmed — the next deck card turns face up: {labels(card)}"))


def after_change(state: State, box: Box, hand: Hand, events: list[Event], name: str) -> None:
    """A hand's cards changed by an ability: bust over 21, stand on 21."""
    p = hand.points
    if p > 21:
        events.append(line(f"{name} is over 21 at {p} — bust"))
        bust(state, box, hand, events)
    elif p == 21 and not hand.done:
        hand.done = True
        events.append(line(f"{name} reaches 21 and stands"))


def do_hit(state: State, rng: Rng, events: list[Event]) -> None:
    box, h = current(state)
    card = draw(state, rng, events)
    h.cards.append(card)
    h.hits += 1
    p = h.points
    name = box_name(state, box, state.cur_hand)
    if p > 21:
        events.append(line(f"{name} hits to {p} — bust", "bust"))
        bust(state, box, h, events)
    elif p == 21:
        h.done = True
        events.append(line(f"{name} hits to 21 and stands"))
    else:
        events.append(line(f"{name} hits {label(card)} to {describe(h)}"))


def do_double(state: State, rng: Rng, events: list[Event]) -> None:
    box, h = current(state)
    state.take -= h.bet
    h.bet *= 2
    h.doubled = True
    card = draw(state, rng, events)
    h.cards.append(card)
    h.hits += 1
    h.done = True
    p = h.points
    name = box_name(state, box, state.cur_hand)
    events.append(
        line(
            f"{name} doubles to {h.bet} and draws {label(card)} to {p}{' — bust' if p > 21 else ''}"
        )
    )
    if p > 21:
        bust(state, box, h, events)


def do_split(state: State, rng: Rng, events: list[Event]) -> None:
    box, h = current(state)
    state.take -= h.bet
    other = Hand(cards=[h.cards.pop()], bet=h.bet, from_split=True)
    h.from_split = True
    box.hands.append(other)
    aces = h.cards[0][0] == "A"
    for hand in (h, other):
        hand.cards.append(draw(state, rng, events))
        if aces or hand.points == 21:
            hand.done = True
    name = box_name(state, box)
    events.append(
        line(
            f"{name} splits {rank_name(h.cards[0])}s — {labels(h.cards)} ({h.points}) and "
            f"{labels(other.cards)} ({other.points}){' — split aces stand' if aces else ''}"
        )
    )


def pays_cold_feet(hand: Hand) -> bool:
    return hand.hits == 0 and not hand.from_split and not hand.done


# -- legality ---------------------------------------------------------------------------


def betting_actions(state: State, seat: int) -> list[Any]:
    out: list[Any] = []
    mine = [b for b in state.boxes if b.seat == seat]
    take = state.take
    missing = 0
    for b in mine:
        if b.main.bet < MIN_BET:
            missing += MIN_BET - b.main.bet
    for b in mine:
        bet = b.main.bet
        gap = MIN_BET - bet if bet < MIN_BET else 0
        # chips may not eat what the seat's other boxes still need to reach 10
        room = min(take - (missing - gap), table_max(state, b) - bet)
        for i in range(len(CHIP_STEPS)):
            if CHIP_STEPS[i] > room:
                break
            out.append(_chips(CHIP_STEPS[i], b.id) if b.extra else OWN_CHIPS[i])
    if not missing:
        out.append(DEAL_ME_IN)
    if seat == state.caller:
        if not state.mark:
            for i in mark_targets(state):
                out.append(_mark(i))
        if not state.heavy_used:
            out.append(HEAVY)
    return out


def mark_targets(state: State) -> list[int]:
    if state.phase == CALL:
        return [b.id for b in state.boxes]
    ids = [s for s in range(1, state.players + 1) if s not in state.sitting_out]
    if state.box(state.extra_id):
        ids.append(state.extra_id)
    return ids


def playing_actions(state: State, seat: int) -> list[Any]:
    box, h = current(state)
    out: list[Any] = [HIT, STAND]
    if len(h.cards) == 2 and h.hits == 0 and state.take >= h.bet:
        out.append(DOUBLE)
        if not box.extra and len(box.hands) == 1 and h.cards[0][0] == h.cards[1][0]:
            out.append(SPLIT)
    if state.has_role("ghost") and pays_cold_feet(h):
        out.append(COLD_FEET)
    return out


def legal(state: State, seat: int) -> list[Any]:
    """Every legal action of ``seat`` now (empty when it is not awaited)."""
    phase = state.phase
    if phase == OVER or seat != state.turn:
        return []
    if phase == DRAFT:
        return [DRAFTS[r] for r in ROLES if r not in state.roles]
    if phase == SETTLED:
        return [NEXT_ROUND]
    if phase == CALL:
        marks: list[Any] = [_mark(i) for i in mark_targets(state)]
        marks.append(NO_MARK)
        return marks
    if phase == BET:
        out = betting_actions(state, seat)
        barred = DEALT
    else:
        out = playing_actions(state, seat)
        barred = BEFORE_DEAL
    spent = state.spent[seat - 1]
    for key, timing in ROLE_TIMINGS[state.roles[seat - 1]]:
        if timing != barred and key not in spent:
            add_targets(state, seat, key, out)
    return out


#: Each role's cards with their timing, for the legal-action loop.
ROLE_TIMINGS: Final = {
    key: tuple((card, ABILITIES[card].timing) for card in role.cards) for key, role in ROLES.items()
}


def live_main(b: Box) -> bool:
    h = b.main
    return bool(h.cards) and h.live


def candidate_boxes(state: State) -> list[int]:
    """Boxes an ability may name while betting: every seat not sitting out, and the
    Extra Box once it is open."""
    ids = [s for s in range(1, state.players + 1) if s not in state.sitting_out]
    if state.box(state.extra_id):
        ids.append(state.extra_id)
    return ids


def timing_reason(state: State, seat: int, timing: str) -> str:
    """Why the timing forbids a card now, or ``""`` when it allows it."""
    if state.phase == OVER:
        return "the job is over"
    if state.phase == DRAFT:
        return "the job has not started"
    if state.phase == CALL:
        return "the deal is paused for the caller's Mark"
    if state.turn != seat or state.phase not in (BET, PLAY):
        return "not your turn"
    if timing == BEFORE_DEAL and state.phase != BET:
        return "before the deal only — your betting turn"
    if timing == DEALT and state.phase != PLAY:
        return "needs cards on the table — your playing turn"
    return ""


def _targets(state: State, seat: int, key: str) -> list[A.Ability]:
    """Every way ``seat`` may play card ``key`` now, timing and spending aside."""
    out: list[Any] = []
    add_targets(state, seat, key, out)
    return out


def add_targets(state: State, seat: int, key: str, out: list[Any]) -> None:
    """:func:`_targets`, appended to ``out`` (legal() builds one list, not one per card)."""
    if key == "long_glass":
        if len(state.deck) > state.shown:
            out.append(_PLAIN[key])
    elif key == "rooftop":
        if len(state.dealer) == 2 and not state.hole_up:
            out.append(_PLAIN[key])
    elif key == "the_call":
        if not state.mark and not state.call:
            out.append(_PLAIN[key])
    elif key == "false_cut":
        for b in state.boxes:
            if not b.extra and live_main(b):
                for i in range(len(b.main.cards)):
                    out.append(_ab(key, b.id, i, None, None))
    elif key == "palm":
        own = state.seat_box(seat)
        if own is None or not live_main(own):
            return
        for b in state.boxes:
            if b.seat != seat and not b.extra and live_main(b):
                for i in range(len(own.main.cards)):
                    for j in range(len(b.main.cards)):
                        out.append(_ab(key, b.id, j, i, None))
    elif key == "the_load":
        if state.shown >= 2:
            for i in range(1, state.shown):
                out.append(_ab(key, None, i, None, None))
    elif key == "vanish":
        if state.phase == BET:
            for i in candidate_boxes(state):
                if i not in state.vanish:
                    out.append(_on_box(key, i))
        else:
            for b in state.boxes:
                if b.id not in state.vanish and any(h.live for h in b.hands):
                    out.append(_on_box(key, b.id))
    elif key == "short_change":
        if state.phase == BET:
            for i in candidate_boxes(state):
                if i not in state.short_change:
                    out.append(_on_box(key, i))
        else:
            for b in state.boxes:
                if b.id not in state.short_change and live_main(b):
                    out.append(_on_box(key, b.id))
    elif key == "the_drop":
        _, h = current(state)
        if len(h.cards) >= 2:
            for i in range(len(h.cards)):
                out.append(_ab(key, None, i, None, None))
    elif key == "alibi":
        out.append(_PLAIN[key])
    elif key == "double_bag":
        if not state.double_bag:
            out.append(_PLAIN[key])
    elif key == "back_the_play":
        own = state.seat_box(seat)
        if own is None or own.main.hits or not state.take:
            return
        amounts = [a for a in BACKING_STEPS if a <= state.take]
        if state.take not in amounts:
            amounts.append(state.take)
        for b in state.boxes:
            if live_main(b):
                for a in amounts:
                    out.append(_ab(key, b.id, None, None, a))
    elif key == "slow_hand":
        if not state.slow_hand:
            out.append(_PLAIN[key])
    elif key == "the_nod":
        if not state.nod:
            out.append(_PLAIN[key])
    elif key == "extra_box":
        own = state.seat_box(seat)
        shortfall = max(0, MIN_BET - own.main.bet) if own else MIN_BET
        if state.take >= MIN_BET + shortfall:
            out.append(_PLAIN[key])
    else:
        raise KeyError(key)


#: Why a card with no target is not playable, by card.
NO_TARGET: Final = {
    "long_glass": "no face-down cards left on the deck",
    "rooftop": "the hole card is already face up",
    "the_call": "a box is already Marked, or The Call is already in play",
    "false_cut": "no main box it can work on",
    "palm": "needs your live main box and a crewmate's",
    "the_load": "needs at least two face-up deck cards",
    "vanish": "no box left for it to cover",
    "short_change": "no box left for it to cover",
    "the_drop": "the hand has only one card",
    "alibi": "nothing to discard",
    "double_bag": "already in play",
    "back_the_play": "only before your first hit, with chips in the Take",
    "slow_hand": "already in play",
    "the_nod": "already set",
    "extra_box": "the Take can't cover a second box",
}


def ability_reason(state: State, seat: int, key: str) -> str:
    """``""`` when ``seat`` may play ``key`` now, else why not (crew-safe words)."""
    if key in state.spent[seat - 1]:
        return "spent"
    why = timing_reason(state, seat, ABILITIES[key].timing)
    if why:
        return why
    return "" if _targets(state, seat, key) else NO_TARGET[key]


def explain(state: State, seat: int, act: Any) -> str | None:
    """Why a well-formed action is illegal, in words any crewmate may read."""
    if state.phase == OVER:
        return "the job is over"
    if isinstance(act, A.Ability):
        info = ABILITIES.get(act.card)
        if info is None:
            return f"there is no ability card {act.card!r}; cards: {', '.join(ABILITIES)}"
        role = role_of(state, seat)
        if info.role != role:
            who = ROLES[info.role].name
            return f"{info.name} is the {who}'s card, not yours"
        why = ability_reason(state, seat, act.card)
        if why:
            return f"{info.name} can't be played now: {why}"
        return f"{info.name} can't be played that way now; check the box, card and amount"
    if isinstance(act, A.Draft):
        if state.phase != DRAFT:
            return "the draft is over"
        if act.role not in ROLES:
            return f"there is no role {act.role!r}; roles: {', '.join(ROLES)}"
        return f"the {ROLES[act.role].name} is already taken"
    if isinstance(act, A.Chips):
        if state.phase != BET:
            return "chips go on a box only on your betting turn"
        if act.amount not in CHIP_STEPS:
            return "push chips in steps of 10, 50 or 100"
        return (
            f"{act.amount} more would pass the table maximum or what the Take can cover "
            f"(Take {state.take})"
        )
    if isinstance(act, A.DealMeIn):
        if state.phase != BET:
            return "Deal me in ends a betting turn; it is not your betting turn"
        return f"push at least {MIN_BET} chips onto each of your boxes first"
    if isinstance(act, (A.Mark, A.Heavy)):
        if seat != state.caller:
            return f"only the caller ({crew(state.caller)}) calls the Mark and the Heavy"
        if isinstance(act, A.Heavy):
            if state.heavy_used:
                return "the Heavy has been spent; there is one per job"
            return "the Heavy is called on the caller's betting turn"
        if state.mark:
            return "a box is already Marked this round"
        return f"there is no box {act.box} to Mark now"
    if isinstance(act, A.NoMark):
        return "No Mark is chosen only at The Call's pause in the deal"
    if isinstance(act, A.NextRound):
        return "Next round comes once the round has settled"
    if isinstance(act, (A.Hit, A.Stand, A.Double, A.Split, A.ColdFeet)):
        if state.phase != PLAY:
            return "that is a playing-turn action; it is not your playing turn"
        box, h = current(state)
        if isinstance(act, A.Double):
            if len(h.cards) != 2 or h.hits:
                return "double only on a two-card hand before any hit"
            return f"the Take ({state.take}) can't cover a second bet of {h.bet}"
        if isinstance(act, A.Split):
            if box.extra:
                return "the Extra Box never splits"
            if len(box.hands) > 1:
                return "this box has already split"
            if len(h.cards) != 2 or h.cards[0][0] != h.cards[1][0]:
                return "split needs two cards of the same rank"
            return f"the Take ({state.take}) can't cover a second bet of {h.bet}"
        if isinstance(act, A.ColdFeet):
            if not state.has_role("ghost"):
                return "Cold Feet needs a Ghost at the table"
            return "Cold Feet only before the hand's first hit, and never after a split"
    return None


# -- applying ------------------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a legal action; the dealer's turn and settlement follow by themselves."""
    act = action
    events: list[Event] = []
    kind = type(act)
    if kind is HIT_T:
        do_hit(state, rng, events)
        advance(state, events, rng)
    elif kind is STAND_T:
        box, h = current(state)
        h.done = True
        events.append(line(f"{box_name(state, box, state.cur_hand)} stands on {h.points}"))
        advance(state, events, rng)
    elif kind is CHIPS_T:
        target = state.box(act.box) if act.box is not None else state.seat_box(seat)
        assert target is not None
        target.main.bet += act.amount
        state.take -= act.amount
    elif kind is DEAL_ME_IN_T:
        mine = own_boxes(state, seat)
        bets = " and ".join([f"{b.main.bet}{' on the Extra Box' if b.extra else ''}" for b in mine])
        events.append(line(f"{crew(seat)} is in for {bets} — Take {state.take}", "bet"))
        next_bettor(state, events, rng)
    elif kind is DOUBLE_T:
        do_double(state, rng, events)
        advance(state, events, rng)
    elif kind is SPLIT_T:
        do_split(state, rng, events)
        advance(state, events, rng)
    elif kind is COLD_FEET_T:
        box, h = current(state)
        h.walked = h.done = True
        events.append(
            line(
                f"{box_name(state, box, state.cur_hand)} walks out on {h.points} (Cold Feet) — "
                f"{h.bet // 2} of {h.bet} comes back"
            )
        )
        advance(state, events, rng)
    elif kind is ABILITY_T:
        play_ability(state, seat, act, rng, events)
        if state.phase == PLAY:
            advance(state, events, rng)
    elif kind is DRAFT_T:
        state.roles[seat - 1] = act.role
        role = ROLES[act.role]
        events.append(line(f"{crew(seat)} drafts the {role.name}", "draft"))
        if "" in state.roles:
            state.turn = seat + 1
        else:
            state.caller = 1
            start_round(state, events, rng)
    elif kind is MARK_T:
        state.mark = act.box
        events.append(line(f"{crew(seat)} Marks {box_id_name(state, act.box)}", "mark"))
        if state.phase == CALL:
            finish_deal(state, events, rng)
    elif kind is NO_MARK_T:
        events.append(line(f"{crew(seat)} calls No Mark"))
        finish_deal(state, events, rng)
    elif kind is HEAVY_T:
        state.heavy = state.heavy_used = True
        events.append(line(f"{crew(seat)} calls the Heavy — every bet counts double this round"))
    elif kind is NEXT_ROUND_T:
        if state.last_round or not deck_can_deal_round(state):
            end_by_deck(state, events)
        else:
            for b in state.boxes:
                for h in b.hands:
                    state.discard.extend(h.cards)
            state.discard.extend(state.dealer)
            state.caller = seat
            start_round(state, events, rng)
    else:  # pragma: no cover - Match only passes legal actions
        raise TypeError(f"unknown action {act!r}")
    return events


def play_ability(state: State, seat: int, act: A.Ability, rng: Rng, events: list[Event]) -> None:
    key = act.card
    state.spent[seat - 1].append(key)
    name = ABILITIES[key].name
    who = crew(seat)
    if key == "long_glass":
        cards = turn_up(state, 3)
        events.append(line(f"{who} plays Long Glass — face up on the deck: {labels(cards)}"))
    elif key == "rooftop":
        state.hole_up = True
        events.append(
            line(
                f"{who} plays Rooftop — the hole card is {label(state.dealer[1])}; "
                f"the house has {hand_points(state.dealer)}"
            )
        )
    elif key == "the_call":
        state.call = True
        events.append(line(f"{who} plays The Call — the deal will stop for the Mark"))
    elif key == "false_cut":
        box = state.box(act.box or 0)
        assert box is not None and act.index is not None
        h = box.main
        old = h.cards[act.index]
        state.discard.append(old)
        new = draw(state, rng, events)
        h.cards[act.index] = new
        target = box_name(state, box)
        events.append(
            line(
                f"{who} plays False Cut on {target} — {label(old)} out, {label(new)} in: "
                f"{describe(h)}"
            )
        )
        after_change(state, box, h, events, target)
    elif key == "palm":
        own = state.seat_box(seat)
        other = state.box(act.box or 0)
        assert own is not None and other is not None and act.index is not None
        assert act.mine is not None
        mine, theirs = own.main.cards[act.mine], other.main.cards[act.index]
        own.main.cards[act.mine], other.main.cards[act.index] = theirs, mine
        events.append(
            line(
                f"{who} plays Palm — swaps {label(mine)} for {box_name(state, other)}'s "
                f"{label(theirs)}: {describe(own.main)} and {describe(other.main)}"
            )
        )
        after_change(state, own, own.main, events, box_name(state, own))
        after_change(state, other, other.main, events, box_name(state, other))
    elif key == "the_load":
        assert act.index is not None
        pos = len(state.deck) - 1 - act.index
        card = state.deck.pop(pos)
        state.deck.append(card)
        events.append(line(f"{who} plays The Load — {label(card)} moves to the top"))
    elif key == "vanish":
        state.vanish.append(act.box or 0)
        events.append(line(f"{who} plays Vanish on {box_id_name(state, act.box or 0)}"))
    elif key == "short_change":
        state.short_change.append(act.box or 0)
        events.append(line(f"{who} plays Short Change on {box_id_name(state, act.box or 0)}"))
    elif key == "the_drop":
        box, h = current(state)
        assert act.index is not None
        card = h.cards.pop(act.index)
        state.discard.append(card)
        target = box_name(state, box, state.cur_hand)
        events.append(line(f"{who} plays The Drop — {label(card)} off, {target} on {describe(h)}"))
        after_change(state, box, h, events, target)
    elif key == "alibi":
        box, h = current(state)
        state.discard.extend(h.cards)
        old = labels(h.cards)
        h.cards = [draw(state, rng, events), draw(state, rng, events)]
        target = box_name(state, box, state.cur_hand)
        events.append(line(f"{who} plays Alibi — {old} out, {labels(h.cards)} in: {describe(h)}"))
        after_change(state, box, h, events, target)
    elif key == "double_bag":
        state.double_bag = True
        events.append(line(f"{who} plays Double Bag — the Mark pays 3:1 this round"))
    elif key == "back_the_play":
        box = state.box(act.box or 0)
        assert box is not None and act.amount is not None
        box.backed += act.amount
        state.take -= act.amount
        events.append(
            line(
                f"{who} plays Back the Play — {act.amount} backed on {box_name(state, box)}; "
                f"Take {state.take}"
            )
        )
    elif key == "slow_hand":
        state.slow_hand = True
        events.append(line(f"{who} plays Slow Hand — the house stands on 16 this round"))
    elif key == "the_nod":
        state.nod = True
        events.append(line(f"{who} plays The Nod — the house takes one more when it stands"))
    elif key == "extra_box":
        box = Box(id=state.extra_id, seat=seat, extra=True)
        box.main.bet = MIN_BET
        state.take -= MIN_BET
        state.boxes.append(box)
        events.append(line(f"{who} plays Extra Box — a second box opens with {MIN_BET}"))
    else:  # pragma: no cover
        raise KeyError(name)
