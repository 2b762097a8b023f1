"""Pickpocket, small: a test-only title for the conformance kit's mutation tests.

Sixteen cards: coins worth 1 to 4 (three of each) and four Guards. Each player is
dealt two, secretly; the rest is the face-down deck. In turn a player draws the top
card, shows a coin from their hand to the table (it stays in the hand, seen by all),
or picks a pocket: takes a card at random from another player's hand. A pick opens
a reaction window: every other player holding cards is asked, at once, whether to
stop it with a Guard (who holds one is secret, so holders and the rest are asked
alike). If anyone does, every Guard raised is discarded face up and the pick fails;
otherwise a random card of the victim's changes hands. After four rounds, or when
the deck is out, the most coins in hand wins.

What it exercises in the kit: a hidden hand with cards the table has seen in it,
so a card taken at random must leave the table unsure which one went (unless it
was the only card); a deck whose order is secret; a simultaneous window over
secret holdings; and chance drawn during play.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from gameweave_core import (
    Bag,
    Bot,
    BotFactory,
    Event,
    GameFacts,
    IntRange,
    ListOf,
    Maybe,
    Observation,
    Outcome,
    Record,
    Rng,
    Schema,
    Title,
    action,
    values,
)
from gameweave_core.reactions import (
    PASS,
    ReactionWindow,
    answer,
    awaited,
    is_closed,
    open_window,
    resolution,
    seats_from,
    who_to_ask,
)

#: Card ids 0-11 are coins (worth ``id // 3 + 1``), 12-15 Guards.
CARDS = 16
GUARDS = range(12, 16)
ROUNDS = 4
PUBLIC = 1


def worth(card: int) -> int:
    return 0 if card in GUARDS else card // 3 + 1


def card_name(card: int) -> str:
    return "a Guard" if card in GUARDS else f"a {worth(card)}-coin"


def bit(seat: int) -> int:
    return 1 << seat


@action("draw")
@attrs.frozen
class Draw:
    """Take the top card of the deck."""


@action("show")
@attrs.frozen
class Show:
    """Show coin ``card`` from your hand to the table (it stays in your hand)."""

    card: int = values(range(GUARDS.start))  # coins only


@action("pick")
@attrs.frozen
class Pick:
    """Try to take a card at random from seat ``target``'s hand."""

    target: int = values(lambda players, config: range(1, players + 1))


@action("guard")
@attrs.frozen
class Guard:
    """Stop the pick with one of your Guards."""


@action("let")
@attrs.frozen
class Let:
    """Let the pick happen."""


ACTIONS = (Draw, Show, Pick, Guard, Let)


@attrs.define
class State:
    players: int
    deck: list[int]  # top first: secret
    hands: list[list[int]]  # secret but for what ``knows`` gives
    #: ``knows[card]``: who knows where the card is, a mask (bit 0: everyone).
    knows: list[int]
    discard: list[int] = attrs.field(factory=list)
    turn: int = 1
    turns: int = 0
    window: ReactionWindow | None = None


def everyone(state: State) -> int:
    return (1 << (state.players + 1)) - 1


def setup(players: int, rng: Rng) -> State:
    deck = list(range(CARDS))
    rng.shuffle(deck)
    hands = [sorted(deck[2 * s : 2 * s + 2]) for s in range(players)]
    knows = [0] * CARDS
    for s, hand in enumerate(hands, start=1):
        for c in hand:
            knows[c] = bit(s)
    return State(players, deck[2 * players :], hands, knows)


def is_over(state: State) -> bool:
    return state.window is None and (state.turns >= ROUNDS * state.players or not state.deck)


def awaiting(state: State) -> tuple[int, ...]:
    if state.window is not None:
        return awaited(state.window)
    return () if is_over(state) else (state.turn,)


def legal_actions(state: State, seat: int) -> list[Any]:
    if seat not in awaiting(state):
        return []
    hand = state.hands[seat - 1]
    if state.window is not None:
        return [Guard(), Let()] if any(c in GUARDS for c in hand) else [Let()]
    out: list[Any] = [Draw()]
    out += [Show(c) for c in hand if c not in GUARDS and not state.knows[c] & PUBLIC]
    out += [Pick(t) for t in range(1, state.players + 1) if t != seat and state.hands[t - 1]]
    return out


def explain_illegal(state: State, seat: int, act: Any) -> str | None:
    if (
        isinstance(act, Pick)
        and 1 <= act.target <= state.players
        and not state.hands[act.target - 1]
    ):
        return f"seat {act.target} has no cards to pick"
    if isinstance(act, Show) and act.card not in state.hands[seat - 1]:
        return "you can show only a card in your hand"
    if isinstance(act, Guard | Let) and state.window is None:
        return "nobody is picking a pocket now"
    return None


def apply(state: State, seat: int, act: Any, rng: Rng) -> list[Event]:
    match act:
        case Draw():
            card = state.deck.pop(0)
            state.hands[seat - 1] = sorted([*state.hands[seat - 1], card])
            state.knows[card] = bit(seat)
            events = [
                Event.private([seat], f"You draw {card_name(card)}", "draw", card=card),
                Event.others([seat], state.players, f"Seat {seat} draws a card"),
            ]
            return events + end_turn(state)
        case Show(card=card):
            state.knows[card] = everyone(state)
            return [
                Event.public(f"Seat {seat} shows {card_name(card)}", "show", card=card),
                *end_turn(state),
            ]
        case Pick(target=target):
            return do_pick(state, seat, target, rng)
        case Guard():
            assert state.window is not None
            answer(state.window, seat, "guard")
            return close(state, rng)
        case Let():
            assert state.window is not None
            answer(state.window, seat, PASS)
            return close(state, rng)
    raise TypeError(f"not a Pickpocket action: {act!r}")


def do_pick(state: State, seat: int, target: int, rng: Rng) -> list[Event]:
    others = seats_from(seat, state.players)[1:]
    asked = who_to_ask(
        others,
        lambda s: bool(state.hands[s - 1]),  # hand sizes are public
        lambda s: any(c in GUARDS for c in state.hands[s - 1]),  # holding a Guard is not
        secret=True,
    )
    state.window = open_window("pick", seat, asked, context={"target": target})
    events = [Event.public(f"Seat {seat} reaches into seat {target}'s pocket", "pick")]
    return events + close(state, rng)


def close(state: State, rng: Rng) -> list[Event]:
    window = state.window
    if window is None or not is_closed(window):
        return []
    state.window = None
    thief, victim = window.actor, int(window.context["target"])
    guards = [s for s, _ in resolution(window)]
    if guards:
        spent = []
        for s in guards:
            card = min(c for c in state.hands[s - 1] if c in GUARDS)
            state.hands[s - 1].remove(card)
            state.discard = sorted([*state.discard, card])  # a face-up pile: no order kept
            state.knows[card] = everyone(state)
            spent.append(card)
        who = ", ".join(f"seat {s}" for s in guards)
        stopped = Event.public(
            f"Stopped by a Guard ({who})", "guarded", seats=guards, cards=sorted(spent)
        )
        return [stopped, *end_turn(state)]
    hand = state.hands[victim - 1]
    card = hand[rng.randrange(len(hand))]
    took(state, hand, card, bit(thief) | bit(victim))
    hand.remove(card)
    state.hands[thief - 1] = sorted([*state.hands[thief - 1], card])
    return [
        Event.private([thief, victim], f"Seat {thief} takes {card_name(card)}", "took", card=card),
        Event.others([thief, victim], state.players, f"Seat {thief} takes a card of seat {victim}"),
        *end_turn(state),
    ]


def took(state: State, hand: list[int], card: int, told: int) -> None:
    """``card`` leaves ``hand`` seen only by ``told``: if the hand held more than that
    card, nobody else can tell which card went, so they forget every card in it."""
    if len(hand) > 1:
        for c in hand:
            state.knows[c] &= told
    state.knows[card] |= told


def end_turn(state: State) -> list[Event]:
    state.turns += 1
    state.turn = state.turn % state.players + 1
    if is_over(state):
        return [Event.public("The night is over", "over", hands=hands_of(state))]
    return []


def hands_of(state: State) -> dict[str, list[int]]:
    return {str(s): sorted(h) for s, h in enumerate(state.hands, start=1)}


def view(state: State, seat: int | None) -> dict[str, Any]:
    mine = PUBLIC | (bit(seat) if seat is not None else 0)
    over = is_over(state)
    out: dict[str, Any] = {
        "turn": state.turn,
        "turns": state.turns,
        "deck": len(state.deck),
        "discard": sorted(state.discard),
        "hands": [
            {
                "size": len(hand),
                # Cards this seat knows are there, and those the whole table does.
                "known": sorted(c for c in hand if over or state.knows[c] & mine),
                "shown": sorted(c for c in hand if state.knows[c] & PUBLIC),
            }
            for hand in state.hands
        ],
    }
    if state.window is not None:
        out["window"] = {
            "thief": state.window.actor,
            "target": state.window.context["target"],
            "answered": sorted(state.window.answers),
        }
    if seat is not None:
        out["hand"] = sorted(state.hands[seat - 1])
    return out


def view_schema(players: int) -> Schema:
    cards = Bag(range(CARDS))  # a set of card ids
    seat = IntRange(1, players)
    return Record(
        turn=seat,
        turns=IntRange(0, ROUNDS * players),
        deck=IntRange(0, CARDS),
        discard=cards,
        hands=ListOf(Record(size=IntRange(0, CARDS), known=cards, shown=cards), length=players),
        window=Maybe(Record(thief=seat, target=seat, answered=Bag(range(1, players + 1)))),
        hand=Maybe(cards),
    )


def game_facts(players: int) -> GameFacts:
    # The deck is shuffled at the start (16 cards: 15 draws, from 16 first); each
    # pick that succeeds takes a card at random, one per turn at most.
    return GameFacts(
        max_chance_outcomes=CARDS,
        max_chance_nodes=CARDS - 1 + ROUNDS * players,
        simultaneous=True,
    )


def outcome(state: State) -> Outcome | None:
    if not is_over(state):
        return None
    score = [sum(worth(c) for c in hand) for hand in state.hands]
    best = max(score)
    winners = tuple(s for s in range(1, state.players + 1) if score[s - 1] == best)
    return Outcome("coins", winners, "coins", f"{best} coins", {"coins": score})


def resample(state: State, seat: int | None, rng: Rng, *, canonical: bool = True) -> State:
    """Every card ``seat`` does not know the place of is dealt again over the places
    that hold such cards (the deck, the unknown part of other hands), uniformly;
    the answers others gave in an open window are drawn again (a Guard raised with
    even odds when the drawn hand holds one). The cards go in sorted, so the draw
    reads only what the seat knows; who else knows a card is forgotten (the owner
    and the table aside), which is not exact."""
    drawn = copy.deepcopy(state)
    # Every hand is shown at the end; the deck never is.
    over = is_over(state)
    mine = everyone(state) if over else PUBLIC | (bit(seat) if seat is not None else 0)
    owners = [0] * len(state.deck)  # where each unknown card goes: 0 is the deck
    unknown = list(state.deck)
    for s, hand in enumerate(state.hands, start=1):
        hidden = [c for c in hand if not state.knows[c] & mine]
        owners += [s] * len(hidden)
        unknown += hidden
        drawn.hands[s - 1] = [c for c in hand if c not in hidden]
    # ``canonical=False`` (for the kit's mutation tests only) shuffles the cards in
    # the order they truly lie, which the draw then gives away.
    cards = sorted(unknown) if canonical else unknown
    rng.shuffle(cards)
    drawn.deck = []
    for owner, card in zip(owners, cards, strict=True):
        if owner:
            drawn.hands[owner - 1].append(card)
            drawn.knows[card] = bit(owner)
        else:
            drawn.deck.append(card)
            drawn.knows[card] = 0
    for owner, hand in enumerate(drawn.hands, start=1):
        hand.sort()
        # Who else knows a card the seat knows is not the seat's to know: only its
        # own sight, the table's and the owner's are kept.
        for c in hand:
            seen = everyone(state) & ~PUBLIC if over else bit(owner)
            drawn.knows[c] = (drawn.knows[c] & mine & ~seen) | seen
    window = drawn.window
    if window is not None:
        for s in sorted(window.answers):
            coin = rng.random() < 0.5
            if s != seat:
                holds = any(c in GUARDS for c in drawn.hands[s - 1])
                window.answers[s] = "guard" if holds and coin else PASS
    return drawn


class Greedy:
    """Picks the fullest other pocket, draws when none is worth it, shows its best
    coin now and then, and raises a Guard when its own pocket is picked."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = observation.legal
        view = observation.view
        if Guard() in legal:
            return Guard() if view["window"]["target"] == self.seat else Let()
        if Let() in legal:
            return Let()
        picks = [a for a in legal if isinstance(a, Pick)]
        if picks and rng.random() < 0.7:
            return max(picks, key=lambda a: (view["hands"][a.target - 1]["size"], rng.random()))
        shows = [a for a in legal if isinstance(a, Show)]
        if shows and rng.random() < 0.2:
            return max(shows, key=lambda a: a.card)
        return Draw()


def greedy(seat: int, players: int) -> Bot:
    return Greedy(seat)


class Pickpocket(Title[State]):
    name = "pickpocket"
    display_name = "Pickpocket"
    min_players = 2
    max_players = 4
    actions = ACTIONS
    default_bot = "greedy"
    max_actions = ROUNDS * 4 * 4

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return setup(players, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return awaiting(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        return legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        return apply(state, seat, action, rng)

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        return explain_illegal(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        return resample(state, seat, rng)

    def bots(self) -> Mapping[str, BotFactory]:
        return {"greedy": greedy}

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema:
        return view_schema(players)

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        return game_facts(players)
