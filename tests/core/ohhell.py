"""Oh Hell, small: a trick-taking test title for the conformance kit.

Twenty cards: ranks 2 to 6 in four suits (``"4H"`` is the four of hearts). Two rounds,
of three cards then two. Each round the cards are shuffled, every player is dealt a
hand in secret, and the next card is turned up: its suit is trumps. Starting left of
the dealer, each player bids how many tricks they will take (0 to the hand size, in
the open). Then the player left of the dealer leads; each player in turn plays a
card and must follow the suit led if they can; the highest trump wins the trick, or
else the highest card of the suit led, and the winner leads the next. A player who
takes exactly the tricks they bid scores 10 plus their bid. After the last round the
highest score wins; the dealer moves one seat to the left between rounds.

What it gives the kit: actions whose field is a card named by a string (a refusal
can name cards the seat holds, or cards it must not know of); a hidden hand that
shrinks as it is played, so the table learns what a seat lacks (a seat that does not
follow suit has shown it holds none of it); cards that leave play for good (played
cards never come back within a round); and a resample hook that must respect both.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from gameweave_core import Bot, BotFactory, Event, Observation, Outcome, Rng, Title, action

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = "23456"
#: The cards in their canonical order (by suit, then rank).
CARDS = tuple(r + s for s in SUITS for r in RANKS)
#: Cards dealt to each player in each round.
HANDS = (3, 2)


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


@action("bid")
@attrs.frozen
class Bid:
    """Bid to take ``tricks`` tricks this round."""

    tricks: int


@action("play")
@attrs.frozen
class Play:
    """Play ``card`` from your hand to the trick."""

    card: str


ACTIONS = (Bid, Play)


@attrs.define
class State:
    players: int
    dealer: int
    round: int = 0
    deck: list[str] = attrs.field(factory=list)  # the undealt cards: secret
    trump: str = ""  # the card turned up: public
    hands: list[list[str]] = attrs.field(factory=list)  # secret, each seat its own
    bids: list[int | None] = attrs.field(factory=list)
    won: list[int] = attrs.field(factory=list)
    trick: list[tuple[int, str]] = attrs.field(factory=list)  # (seat, card), led first
    tricks: list[list[tuple[int, str]]] = attrs.field(factory=list)  # this round's, done
    #: The last trick taken, kept on the table across a new deal.
    last_trick: list[tuple[int, str]] = attrs.field(factory=list)
    turn: int = 1
    scores: list[int] = attrs.field(factory=list)
    over: bool = False


def left_of(state: State, seat: int) -> int:
    return seat % state.players + 1


def setup(players: int, rng: Rng) -> tuple[State, list[Event]]:
    state = State(players, dealer=players, scores=[0] * players)
    return state, deal(state, rng)


def deal(state: State, rng: Rng) -> list[Event]:
    cards = list(CARDS)
    rng.shuffle(cards)
    size = HANDS[state.round]
    state.hands = [
        sorted(cards[s * size : (s + 1) * size], key=CARDS.index) for s in range(state.players)
    ]
    state.trump = cards[state.players * size]
    state.deck = sorted(cards[state.players * size + 1 :], key=CARDS.index)
    state.bids = [None] * state.players
    state.won = [0] * state.players
    state.trick, state.tricks = [], []
    state.turn = left_of(state, state.dealer)
    events = [
        Event.public(
            f"Round {state.round + 1}: {size} cards each; {state.trump} is turned up, "
            f"{SUIT_NAMES[suit(state.trump)]} are trumps",
            "deal",
            trump=state.trump,
        )
    ]
    for s, hand in enumerate(state.hands, start=1):
        events.append(Event.private([s], f"You are dealt {' '.join(hand)}", "hand", cards=hand))
    return events


def bidding(state: State) -> bool:
    return any(b is None for b in state.bids)


def awaiting(state: State) -> tuple[int, ...]:
    return () if state.over else (state.turn,)


def led_suit(state: State) -> str | None:
    return suit(state.trick[0][1]) if state.trick else None


def legal_actions(state: State, seat: int) -> list[Any]:
    if seat not in awaiting(state):
        return []
    hand = state.hands[seat - 1]
    if bidding(state):
        return [Bid(n) for n in range(len(hand) + 1)]
    led = led_suit(state)
    following = [c for c in hand if suit(c) == led]
    return [Play(c) for c in (following or hand)]


def explain_illegal(state: State, seat: int, act: Any) -> str | None:
    """Why ``act`` is refused, worded from what ``seat`` may know: its own hand and
    the table, never another seat's cards."""
    if isinstance(act, Play):
        if bidding(state):
            return "everyone bids before the first card is played"
        if act.card not in state.hands[seat - 1]:
            return f"you do not hold {act.card}"
        led = led_suit(state)
        if led is not None and suit(act.card) != led:
            return f"you must follow {SUIT_NAMES[led]} while you hold any"
    if isinstance(act, Bid) and not bidding(state):
        return "the bids are all in: play a card"
    return None


def apply(state: State, seat: int, act: Any, rng: Rng) -> list[Event]:
    match act:
        case Bid(tricks=tricks):
            state.bids[seat - 1] = tricks
            state.turn = left_of(state, seat)
            events = [Event.public(f"Seat {seat} bids {tricks}", "bid", seat=seat, tricks=tricks)]
            if not bidding(state):
                state.turn = left_of(state, state.dealer)
            return events
        case Play(card=card):
            return do_play(state, seat, card, rng)
    raise TypeError(f"not an Oh Hell action: {act!r}")


def do_play(state: State, seat: int, card: str, rng: Rng) -> list[Event]:
    state.hands[seat - 1].remove(card)
    state.trick.append((seat, card))
    events = [Event.public(f"Seat {seat} plays {card}", "play", seat=seat, card=card)]
    if len(state.trick) < state.players:
        state.turn = left_of(state, seat)
        return events
    winner = trick_winner(state.trick, suit(state.trump))
    state.won[winner - 1] += 1
    state.tricks.append(state.trick)
    state.last_trick = state.trick
    state.trick = []
    state.turn = winner
    events.append(Event.public(f"Seat {winner} takes the trick", "trick", seat=winner))
    if not state.hands[winner - 1]:
        events += end_round(state, rng)
    return events


def trick_winner(trick: Sequence[tuple[int, str]], trumps: str) -> int:
    led = suit(trick[0][1])

    def strength(played: tuple[int, str]) -> tuple[int, int]:
        c = played[1]
        return (2 if suit(c) == trumps else 1 if suit(c) == led else 0, rank(c))

    return max(trick, key=strength)[0]


def end_round(state: State, rng: Rng) -> list[Event]:
    made = []
    for s in range(1, state.players + 1):
        if state.won[s - 1] == state.bids[s - 1]:
            state.scores[s - 1] += 10 + state.won[s - 1]
            made.append(s)
    who = ", ".join(f"seat {s}" for s in made) or "nobody"
    events = [Event.public(f"Round {state.round + 1} ends: {who} made their bid", "round")]
    state.round += 1
    if state.round == len(HANDS):
        state.over = True
        return [*events, Event.public("The game is over", "over", scores=list(state.scores))]
    state.dealer = left_of(state, state.dealer)
    return events + deal(state, rng)


def view(state: State, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": state.round + 1,
        "dealer": state.dealer,
        "turn": state.turn,
        "trump": state.trump,
        # Bids made so far, by seat (TOML has no null for the rest).
        "bids": {str(s): b for s, b in enumerate(state.bids, start=1) if b is not None},
        "won": list(state.won),
        "scores": list(state.scores),
        "trick": [[s, c] for s, c in state.trick],
        "tricks": [[[s, c] for s, c in t] for t in state.tricks],
        "last_trick": [[s, c] for s, c in state.last_trick],
        "hand_sizes": [len(h) for h in state.hands],
        "deck": len(state.deck),
        "over": state.over,
    }
    if seat is not None:
        out["hand"] = list(state.hands[seat - 1])
    return out


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    best = max(state.scores)
    winners = tuple(s for s in range(1, state.players + 1) if state.scores[s - 1] == best)
    return Outcome("points", winners, "points", f"{best} points", {"points": list(state.scores)})


# -- what a seat knows, and the worlds it cannot tell apart ---------------------------


def played(state: State) -> set[str]:
    """The cards played this round: face up, out of play until the next deal."""
    return {c for t in [*state.tricks, state.trick] for _, c in t}


def voids(state: State) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks this round: it did not follow them."""
    lacks: dict[int, set[str]] = {s: set() for s in range(1, state.players + 1)}
    for t in [*state.tricks, state.trick]:
        if not t:
            continue
        led = suit(t[0][1])
        for s, c in t[1:]:
            if suit(c) != led:
                lacks[s].add(led)
    return lacks


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A world ``seat`` cannot tell from the real one: every card it cannot see (the
    other hands and the undealt cards) dealt again, hand sizes kept, no card played
    this round dealt back, and no seat given a suit it has shown it lacks."""
    drawn = copy.deepcopy(state)
    if state.over:
        return drawn
    lacks = voids(state)
    mine = set(state.hands[seat - 1]) if seat is not None else set()
    gone = played(state) | {state.trump} | mine
    unseen = [c for c in CARDS if c not in gone]  # canonical order: reads nothing hidden
    rng.shuffle(unseen)
    others = [s for s in range(1, state.players + 1) if s != seat]
    places = [(s, len(state.hands[s - 1])) for s in others]
    dealt = place(unseen, places, lacks)
    assert dealt is not None, "the real world always fits"
    for s, cards in dealt.items():
        drawn.hands[s - 1] = sorted(cards, key=CARDS.index)
    drawn.deck = sorted(
        (c for c in unseen if not any(c in h for h in dealt.values())), key=CARDS.index
    )
    return drawn


def place(
    cards: list[str], places: list[tuple[int, int]], lacks: Mapping[int, set[str]]
) -> dict[int, list[str]] | None:
    """Fill each seat's ``size`` places from ``cards`` (taken in their order), never
    with a suit the seat lacks; the cards left over stay undealt. A small search that
    goes back on a dead end, so it finds a deal whenever one exists."""
    if not places:
        return {}
    (seat, size), rest = places[0], places[1:]
    fits = [c for c in cards if suit(c) not in lacks[seat]]
    return _choose(fits, size, cards, seat, rest, lacks, [])


def _choose(
    fits: list[str],
    size: int,
    cards: list[str],
    seat: int,
    rest: list[tuple[int, int]],
    lacks: Mapping[int, set[str]],
    chosen: list[str],
) -> dict[int, list[str]] | None:
    if len(chosen) == size:
        left = [c for c in cards if c not in chosen]
        after = place(left, rest, lacks)
        return None if after is None else {seat: list(chosen), **after}
    start = fits.index(chosen[-1]) + 1 if chosen else 0
    for i in range(start, len(fits)):
        found = _choose(fits, size, cards, seat, rest, lacks, [*chosen, fits[i]])
        if found is not None:
            return found
    return None


class Cautious:
    """Bids its trumps and sixes, then plays its lowest legal card unless it still
    needs tricks, when it plays its highest."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = observation.legal
        view = observation.view
        trumps = suit(view["trump"])
        if isinstance(legal[0], Bid):
            strong = sum(1 for c in view["hand"] if suit(c) == trumps or c[0] == "6")
            return Bid(min(strong, len(legal) - 1))
        need = view["bids"][str(self.seat)] - view["won"][self.seat - 1]
        order = sorted(legal, key=lambda a: (suit(a.card) == trumps, rank(a.card), rng.random()))
        return order[-1] if need > 0 else order[0]


def cautious(seat: int, players: int) -> Bot:
    return Cautious(seat)


class OhHell(Title[State]):
    name = "ohhell"
    display_name = "Oh Hell"
    min_players = 2
    max_players = 4
    actions = ACTIONS
    default_bot = "cautious"
    max_actions = sum(4 + 4 * size for size in HANDS)

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        state, _ = setup(players, rng)
        return state

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
        return {"cautious": cautious}
