"""The rules of The House Job: setup, whose turn it is, what is legal, and applying it.

Functions here change the :class:`~gameweave_house.state.State` in place and return
history events. The pieces live in modules named for them: ``cards`` (totals),
``deck`` (drawing), ``dealer`` (how the house plays), ``settle`` (what a hand
pays), ``abilities`` (the fifteen cards), ``history`` (the lines, all public) and
``choices`` (what a seat may do now, and why not); this module stays the way in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameweave_core import ConfigError, Event, Outcome, Rng

from .abilities import add_plays, bust, play_card
from .actions import (
    Ability,
    Chips,
    ColdFeet,
    DealMeIn,
    Double,
    Draft,
    Heavy,
    Hit,
    Mark,
    NextRound,
    NoMark,
    Split,
    Stand,
)
from .cards import FULL_DECK, check_deck, high_low, is_two_card_21, label, labels, points, rank_name
from .choices import (
    DRAFTS,
    MARKS,
    NEXT_ROUND,
    NO_MARK,
    betting_actions,
    explain_ability,
    explain_bet,
    explain_call,
    explain_play,
    mark_targets,
    playing_actions,
)
from .dealer import dealer_play
from .deck import can_deal_round, draw
from .deck import face_up as face_up  # tests/http/test_http_leaks_house.py reads it here
from .history import (
    bet_line,
    box_id_name,
    box_name,
    chips_line,
    crew,
    dealt_line,
    describe,
    hole_line,
    line,
    settle_line,
    settled_line,
    stand_line,
    upcard_line,
)
from .roles import ROLES
from .settle import BUST, result, settle_backed, settle_hand
from .state import (
    BET,
    CALL,
    DRAFT,
    MIN_BET,
    OVER,
    PLAY,
    SETTLED,
    Box,
    Hand,
    Result,
    Settled,
    State,
)

# -- setup ---------------------------------------------------------------------------


def check_config(players: int, config: dict[str, Any]) -> dict[str, Any]:
    """``config`` when its options are usable, else :class:`ConfigError` saying why."""
    deck = config.get("deck", [])
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise ConfigError("deck: give a list of card strings like 'AS', 'TD', '7H'")
    problem = check_deck(deck) if deck else None
    if problem:
        raise ConfigError(problem)
    take = config.get("take", 1000)
    if not isinstance(take, int) or isinstance(take, bool) or take < MIN_BET:
        raise ConfigError(f"take: the opening Take must be a whole number of at least {MIN_BET}")
    return config


def setup(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    """A job before the draft: the deck in draw order, the opening Take."""
    order = list(config.get("deck") or [])
    shuffles: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    if not order:
        order = list(FULL_DECK)
        rng.shuffle(order)
        shuffles.append((tuple(FULL_DECK), tuple(order)))
    take = int(config.get("take", 1000))
    return State(
        players=players,
        take=take,
        opening=take,
        deck=order[::-1],  # the next card is the last item: pop() is cheap
        roles=[""] * players,
        spent=[[] for _ in range(players)],
        shuffles=shuffles,
    )


# -- whose turn, and the end ---------------------------------------------------------------


def awaiting(state: State) -> tuple[int, ...]:
    return () if state.phase == OVER else (state.turn,)


def outcome(state: State) -> Outcome | None:
    """The crew wins by ending above the opening Take."""
    if state.phase != OVER:
        return None
    won = state.take > state.opening
    verdict = "took the house" if won else "the house kept its edge"
    how = "went broke" if state.ended == "broke" else "played the deck through"
    return Outcome(
        side="crew" if won else "house",
        winners=tuple(range(1, state.players + 1)) if won else (),
        reason=state.ended,
        summary=f"The crew {how}: Take {state.take} against the opening {state.opening}; {verdict}",
        figures={"take": state.take, "opening": state.opening, "took_the_house": won},
    )


# -- legal actions -------------------------------------------------------------------------


def legal_actions(state: State, seat: int) -> list[Any]:
    """Every legal action of ``seat`` now (empty when it is not awaited)."""
    phase = state.phase
    if phase == OVER or seat != state.turn:
        return []
    if phase == DRAFT:
        return [DRAFTS[r] for r in ROLES if r not in state.roles]
    if phase == SETTLED:
        return [NEXT_ROUND]
    if phase == CALL:
        out: list[Any] = [MARKS[i] for i in mark_targets(state)]
        out.append(NO_MARK)
        return out
    out = betting_actions(state, seat) if phase == BET else playing_actions(state)
    add_plays(state, seat, out)
    return out


# -- why an action is illegal --------------------------------------------------------------


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why a well-formed action is illegal, in words any crewmate may read."""
    if state.phase == OVER:
        return "the job is over"
    match action:
        case Ability():
            return explain_ability(state, seat, action)
        case Draft(role=role):
            if state.phase != DRAFT:
                return "the draft is over"
            if role not in ROLES:
                return f"there is no role {role!r}; roles: {', '.join(ROLES)}"
            return f"the {ROLES[role].name} is already taken"
        case Chips() | DealMeIn():
            return explain_bet(state, action)
        case Mark() | Heavy() | NoMark() | NextRound():
            return explain_call(state, seat, action)
        case Hit() | Stand() | Double() | Split() | ColdFeet():
            return explain_play(state, action)
    return None


# -- applying ------------------------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a legal action; the dealer's turn and settlement follow by themselves."""
    # The commonest first: each case is an isinstance check (3.6% of the compiled
    # rules' instructions), and every seat bets twice a round (chips, Deal me in).
    match action:
        case Chips(amount=amount, box=box_id):
            return do_chips(state, seat, amount, box_id)  # the betting turn goes on
        case DealMeIn():
            return do_deal_me_in(state, seat, rng)
        case Hit():
            events = do_hit(state, rng)
        case Stand():
            events = do_stand(state)
        case NextRound():
            return do_next_round(state, seat, rng)
        case Double():
            events = do_double(state, rng)
        case Split():
            events = do_split(state, rng)
        case ColdFeet():
            events = do_cold_feet(state)
        case Ability():
            events = play_card(state, seat, action, rng)
            if state.phase != PLAY:
                return events
        case Draft(role=role):
            return do_draft(state, seat, role, rng)
        case Mark(box=box_id):
            return do_mark(state, seat, box_id, rng)
        case NoMark():
            return [line(f"{crew(seat)} calls No Mark"), *finish_deal(state, rng)]
        case Heavy():
            state.heavy = state.heavy_used = True
            return [line(f"{crew(seat)} calls the Heavy — every bet counts double this round")]
        case _:  # pragma: no cover - Match only passes legal actions
            raise TypeError(f"unknown action {action!r}")
    events += advance(state, rng)  # a hand was played: on to the next decision
    return events


# -- betting and the deal ------------------------------------------------------------------


def do_draft(state: State, seat: int, role: str, rng: Rng) -> list[Event]:
    state.roles[seat - 1] = role
    events = [line(f"{crew(seat)} drafts the {ROLES[role].name}", "draft")]
    if "" in state.roles:
        state.turn = seat + 1
        return events
    state.caller = 1
    return events + start_round(state, rng)


def do_chips(state: State, seat: int, amount: int, box_id: int | None) -> list[Event]:
    target = state.box(box_id) if box_id is not None else state.seat_box(seat)
    assert target is not None
    target.main.bet += amount
    state.take -= amount
    # The table sees the chips go on: a seat learns only through the lines it reads.
    return [chips_line(seat, amount, target.extra)]


def do_deal_me_in(state: State, seat: int, rng: Rng) -> list[Event]:
    events = [bet_line(seat, [b for b in state.boxes if b.seat == seat], state.take)]
    return events + next_bettor(state, rng)


def do_mark(state: State, seat: int, box_id: int, rng: Rng) -> list[Event]:
    state.mark = box_id
    events = [line(f"{crew(seat)} Marks {box_id_name(state, box_id)}", "mark")]
    if state.phase == CALL:
        events += finish_deal(state, rng)
    return events


def do_next_round(state: State, seat: int, rng: Rng) -> list[Event]:
    if state.last_round or not can_deal_round(state):
        return end_by_deck(state)
    for b in state.boxes:
        for h in b.hands:
            state.discard.extend(h.cards)
    state.discard.extend(state.dealer)
    state.caller = seat
    return start_round(state, rng)


def start_round(state: State, rng: Rng) -> list[Event]:
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
    events = [line(f"Round {state.round} — {crew(state.caller)} calls", "round")]
    return events + next_bettor(state, rng)


def next_bettor(state: State, rng: Rng) -> list[Event]:
    events: list[Event] = []
    while state.to_bet:
        seat = state.to_bet.pop(0)
        if state.take < MIN_BET:
            state.sitting_out.append(seat)
            events.append(line(f"{crew(seat)} sits the round out — the Take can't cover {MIN_BET}"))
            continue
        state.phase = BET
        state.turn = seat
        state.boxes.append(Box(id=seat, seat=seat))
        return events
    return events + deal(state, rng)


def deal(state: State, rng: Rng) -> list[Event]:
    """Every seat's box its first card; The Call pauses here for the caller's Mark."""
    state.last = None  # the last round's results leave the table with the new deal
    state.boxes.sort(key=lambda b: (b.seat, b.extra))
    events: list[Event] = []
    for b in state.boxes:
        if not b.extra:
            events += deal_card(state, rng, b.main.cards)
    if state.call and not state.mark:
        state.phase = CALL
        state.turn = state.caller
        firsts = ", ".join(
            f"{box_name(b)} {label(b.main.cards[0])}" for b in state.boxes if not b.extra
        )
        events.append(line(f"The Call — first cards {firsts}; {crew(state.caller)} may Mark a box"))
        return events
    return events + finish_deal(state, rng)


def deal_card(state: State, rng: Rng, cards: list[str]) -> list[Event]:
    """Deal the deck's next card onto ``cards`` (a hand, the dealer's); returns what
    drawing it said."""
    card, events = draw(state, rng)
    cards.append(card)
    return events


def finish_deal(state: State, rng: Rng) -> list[Event]:
    """The up-card, the second cards, the Extra Box's two, the hole card and the peek."""
    up, events = draw(state, rng)
    state.dealer = [up]
    events.append(upcard_line(up))
    for b in state.boxes:
        if not b.extra:
            events += deal_card(state, rng, b.main.cards)
    for b in state.boxes:
        if b.extra:
            events += deal_card(state, rng, b.main.cards)
            events += deal_card(state, rng, b.main.cards)
    events += deal_card(state, rng, state.dealer)
    for b in state.boxes:
        h = b.main
        if is_two_card_21(h.cards):
            h.natural = h.done = True
        events.append(dealt_line(b))
    events.append(line("The house takes its hole card face down"))
    if state.has_role("inside_man"):
        events.append(line(f"The Tell — the hole card is {high_low(state.dealer[1])}", "tell"))
    if is_two_card_21(state.dealer):
        state.hole_up = True
        events.append(line(f"The house peeks — blackjack ({labels(state.dealer)}); the round ends"))
        return events + settle(state)
    events.append(line("The house peeks — no blackjack"))
    state.phase = PLAY
    state.cur_box = state.cur_hand = 0
    return events + advance(state, rng)


# -- playing a hand ------------------------------------------------------------------------


def do_hit(state: State, rng: Rng) -> list[Event]:
    box, h = state.current()
    card, events = draw(state, rng)
    h.cards.append(card)
    h.hits += 1
    p = h.points
    name = box_name(box, state.cur_hand)
    # Every line names the card drawn: a seat learns only through the lines it reads.
    if p > 21:
        events.append(line(f"{name} hits {label(card)} to {p} — bust", "bust"))
        events += bust(state, box, h)
    elif p == 21:
        h.done = True
        events.append(line(f"{name} hits {label(card)} to 21 and stands"))
    else:
        events.append(line(f"{name} hits {label(card)} to {describe(h)}"))
    return events


def do_stand(state: State) -> list[Event]:
    box, h = state.current()
    h.done = True
    return [stand_line(box, state.cur_hand, h.points)]


def do_double(state: State, rng: Rng) -> list[Event]:
    box, h = state.current()
    state.take -= h.bet
    h.bet *= 2
    h.doubled = True
    card, events = draw(state, rng)
    h.cards.append(card)
    h.hits += 1
    h.done = True
    p = h.points
    name = box_name(box, state.cur_hand)
    events.append(
        line(
            f"{name} doubles to {h.bet} and draws {label(card)} to {p}{' — bust' if p > 21 else ''}"
        )
    )
    if p > 21:
        events += bust(state, box, h)
    return events


def do_split(state: State, rng: Rng) -> list[Event]:
    box, h = state.current()
    state.take -= h.bet
    other = Hand(cards=[h.cards.pop()], bet=h.bet, from_split=True)
    h.from_split = True
    box.hands.append(other)
    aces = h.cards[0][0] == "A"
    events: list[Event] = []
    for hand in (h, other):
        events += deal_card(state, rng, hand.cards)
        if aces or hand.points == 21:
            hand.done = True
    events.append(
        line(
            f"{box_name(box)} splits {rank_name(h.cards[0])}s — {labels(h.cards)} ({h.points}) "
            f"and {labels(other.cards)} ({other.points}){' — split aces stand' if aces else ''}"
        )
    )
    return events


def do_cold_feet(state: State) -> list[Event]:
    box, h = state.current()
    h.walked = h.done = True
    return [
        line(
            f"{box_name(box, state.cur_hand)} walks out on {h.points} (Cold Feet) — "
            f"{h.bet // 2} of {h.bet} comes back"
        )
    ]


def advance(state: State, rng: Rng) -> list[Event]:
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
                return []
            hi += 1
        bi += 1
        hi = 0
    return dealer_turn(state, rng)


# -- the house plays, and the round settles ------------------------------------------------


def dealer_turn(state: State, rng: Rng) -> list[Event]:
    """The hole card goes up; the house draws (if a hand stands against it) and The Nod
    may give it one more; then the round settles."""
    if state.hole_up:
        events = [line(f"The house has {points(state.dealer)}")]
    else:
        state.hole_up = True
        events = [hole_line(state.dealer[1], points(state.dealer))]
    if not any(h.live for b in state.boxes for h in b.hands):
        events.append(line("No hand stands against the house; it draws nothing"))
        return events + settle(state)

    def next_card() -> str:
        # A dry deck's line goes where the card is drawn, before the house's total.
        card, said = draw(state, rng)
        events.extend(said)
        return card

    drawn = dealer_play(state.dealer, next_card, 16 if state.slow_hand else 17)
    p = points(state.dealer)
    if drawn:
        events.append(line(f"The house draws {labels(drawn)} to {p}{' — bust' if p > 21 else ''}"))
    else:
        events.append(line(f"The house stands on {p}"))
    if state.nod:
        events += the_nod(state, rng)
    return events + settle(state)


def the_nod(state: State, rng: Rng) -> list[Event]:
    """The Nod: the house, standing, takes one more card."""
    state.nod = False
    p = points(state.dealer)
    if p > 21:
        return [line("The Nod goes unused — the house has already bust")]
    events = deal_card(state, rng, state.dealer)
    p = points(state.dealer)
    events.append(
        line(
            f"The Nod — the house takes one more, {label(state.dealer[-1])}, to {p}"
            f"{' — bust' if p > 21 else ''}"
        )
    )
    return events


def settle(state: State) -> list[Event]:
    """Settle every hand: all credits first, then the debits, capped at the Take."""
    dealer_pts = points(state.dealer)
    dealer_bj = is_two_card_21(state.dealer)
    # Each line's result, with the bet, the credit and the debit wanted behind it:
    # its chips are known once every credit is in and the debits before it are taken.
    lines: list[tuple[Result, int, int, int]] = []
    for b in state.boxes:
        marked = state.mark == b.id
        short = b.id in state.short_change
        words = []
        for i, h in enumerate(b.hands):
            pts = h.points
            word = result(pts, h.bust, h.natural, h.walked, dealer_pts, dealer_bj)
            words.append(word)
            credit, debit, notes = settle_hand(
                word,
                h.bet,
                heavy=state.heavy,
                marked=marked,
                double_bag=state.double_bag,
                saved=h.saved,
                short_change=short and i == 0,
            )
            state.take += credit
            rescued = "VANISH" in notes or "SHORT CHANGE" in notes
            said = "BUST · LOSS" if word == BUST and not rescued else word
            if notes:
                said += "".join([f" · {n}" for n in notes])
            lines.append((Result(box_name(b, i), h.cards, pts, said, 0), h.bet, credit, debit))
        if b.backed:
            back = settle_backed(words[0], b.backed, saved=b.main.saved, short_change=short)
            state.take += back
            lines.append((Result(f"Raise on {box_name(b)}", [], 0, "", 0), b.backed, back, 0))
    results = []
    events: list[Event] = []
    for r, bet, credit, wanted in lines:
        debit = min(wanted, state.take)
        state.take -= debit
        if debit < wanted:
            r.result += " · TAKE EMPTY"
        r.chips = credit - bet - debit
        events.append(settle_line(r.name, r.points, r.result, r.chips))
        results.append(r)
    # No copies: the next deal gives the dealer and every box new lists.
    state.last = Settled(state.round, state.dealer, results, state.take)
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
        return events
    state.turn = state.caller % state.players + 1
    return events


def end_by_deck(state: State) -> list[Event]:
    state.phase = OVER
    state.ended = "deck"
    verdict = "the crew took the house" if state.take > state.opening else "the house kept its edge"
    why = "the last round is played" if state.last_round else "the deck can't deal another round"
    return [
        line(
            f"The job is over — {why}: Take {state.take} (opened at {state.opening}); {verdict}",
            "end",
        )
    ]
