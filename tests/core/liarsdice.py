"""Liar's Dice, small: a test-only title for the conformance kit's mutation tests.

Each player hides three dice. In turn, players raise a bid on the dice of the whole
table ("four 5s": at least four dice show 5) or challenge the last bid; once a
round, before that, a player may re-roll their own dice out of sight. A challenge reveals every die: the bid
stands if enough dice show its face, and the bidder wins the round; otherwise the
challenger does. Then everyone re-rolls and the next round starts; after three
rounds the most rounds won wins.

Unlike Sealed Bids, chance is drawn during play (re-rolls), out of other seats'
sight: the kind of secret that only twins with a generator of their own can check.
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
    MapOf,
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

DICE = 3
ROUNDS = 3
FACES = range(1, 7)


@action("bid")
@attrs.frozen
class Bid:
    """At least ``count`` dice on the table show ``face``."""

    count: int = values(lambda players, config: range(1, DICE * players + 1))
    face: int = values(FACES)


@action("reroll")
@attrs.frozen
class Reroll:
    """Roll your own dice again, out of sight (once a round)."""


@action("challenge")
@attrs.frozen
class Challenge:
    """Call the last bid a lie."""


ACTIONS = (Bid, Reroll, Challenge)


@attrs.define
class State:
    players: int
    dice: list[list[int]]  # each seat's dice: secret
    turn: int = 1
    round: int = 1
    bid: tuple[int, int, int] | None = None  # count, face, bidder
    rerolled: list[int] = attrs.field(factory=list)  # seats that re-rolled this round
    wins: list[int] = attrs.field(factory=list)
    last: dict[str, Any] = attrs.field(factory=dict)  # the last challenge, revealed


def roll(rng: Rng) -> list[int]:
    return sorted(rng.randint(1, 6) for _ in range(DICE))


def beats(count: int, face: int, bid: tuple[int, int, int] | None) -> bool:
    return bid is None or (count, face) > bid[:2]


def setup(players: int, rng: Rng) -> State:
    return State(players, [roll(rng) for _ in range(players)], wins=[0] * players)


def legal_actions(state: State, seat: int) -> list[Any]:
    if state.round > ROUNDS or seat != state.turn:
        return []
    total = DICE * state.players
    out: list[Any] = [
        Bid(c, f) for c in range(1, total + 1) for f in FACES if beats(c, f, state.bid)
    ]
    if seat not in state.rerolled:
        out.append(Reroll())
    if state.bid is not None and state.bid[2] != seat:
        out.append(Challenge())
    return out


def apply(state: State, seat: int, act: Any, rng: Rng) -> list[Event]:
    nxt = seat % state.players + 1
    match act:
        case Bid(count=count, face=face):
            state.bid, state.turn = (count, face, seat), nxt
            return [Event.public(f"Seat {seat} bids {count} × {face}s", "bid")]
        case Reroll():
            state.dice[seat - 1] = roll(rng)
            state.rerolled.append(seat)  # and it is still this seat's turn
            mine = " ".join(map(str, state.dice[seat - 1]))
            return [
                Event.private([seat], f"You re-roll: {mine}"),
                Event.others([seat], state.players, f"Seat {seat} re-rolls", "reroll"),
            ]
        case Challenge():
            return challenge(state, seat, rng)
    raise TypeError(f"not a Liar's Dice action: {act!r}")


def challenge(state: State, seat: int, rng: Rng) -> list[Event]:
    assert state.bid is not None
    count, face, bidder = state.bid
    shown = sum(d == face for hand in state.dice for d in hand)
    winner = bidder if shown >= count else seat
    dice = {str(s): list(h) for s, h in enumerate(state.dice, 1)}
    state.last = {"dice": dice, "bid": [count, face], "winner": winner}
    state.wins[winner - 1] += 1
    text = f"Seat {seat} challenges: {shown} dice show {face}; seat {winner} wins the round"
    events = [Event.public(text, "challenge", dice=dice)]
    state.round += 1
    state.bid, state.rerolled, state.turn = None, [], winner
    if state.round <= ROUNDS:
        state.dice = [roll(rng) for _ in range(state.players)]
        for s in range(1, state.players + 1):
            mine = " ".join(map(str, state.dice[s - 1]))
            events.append(Event.private([s], f"Your new dice: {mine}"))
    return events


def explain_illegal(state: State, seat: int, act: Any) -> str | None:
    if isinstance(act, Bid) and state.bid is not None and not beats(act.count, act.face, state.bid):
        return f"a bid must beat {state.bid[0]} × {state.bid[1]}s"
    if isinstance(act, Reroll) and seat in state.rerolled:
        return "you have re-rolled this round already"
    return None


def view(state: State, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": min(state.round, ROUNDS),
        "turn": state.turn,
        "wins": list(state.wins),
        "rerolled": list(state.rerolled),
    }
    if state.bid is not None:
        out["bid"] = list(state.bid)
    if state.last:
        out["last"] = copy.deepcopy(state.last)
    if seat is not None:
        out["my_dice"] = list(state.dice[seat - 1])
    return out


def view_schema(players: int) -> Schema:
    seats = range(1, players + 1)
    die = IntRange(1, 6, one_hot=True)
    number = IntRange(1, max(DICE * players, 6))  # a count, a face or a seat
    return Record(
        round=IntRange(1, ROUNDS),
        turn=IntRange(1, players),
        wins=ListOf(IntRange(0, ROUNDS), length=players),
        rerolled=Bag(seats),
        bid=Maybe(ListOf(number, length=3)),
        last=Maybe(
            Record(
                dice=MapOf([str(s) for s in seats], value=ListOf(die, length=DICE)),
                bid=ListOf(number, length=2),
                winner=IntRange(1, players),
            )
        ),
        my_dice=Maybe(ListOf(die, length=DICE)),
    )


def game_facts(players: int) -> GameFacts:
    # Dice are rolled at the start, after each challenge but the last, and at most
    # once a round by each seat's re-roll.
    return GameFacts(
        max_chance_outcomes=6,
        max_chance_nodes=DICE * players * 2 * ROUNDS,
        simultaneous=False,
    )


def outcome(state: State) -> Outcome | None:
    if state.round <= ROUNDS:
        return None
    best = max(state.wins)
    winners = tuple(s for s in range(1, state.players + 1) if state.wins[s - 1] == best)
    side = f"Seat {winners[0]}" if len(winners) == 1 else "tie"
    return Outcome(side, winners, "rounds", f"{side} with {best} rounds", {"wins": state.wins})


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """Every other seat's dice drawn again, uniformly: bids are cheap talk, so the
    true odds depend on how people bluff, and uniform is the honest choice."""
    drawn = copy.deepcopy(state)
    for s in range(1, state.players + 1):
        if s != seat:
            drawn.dice[s - 1] = roll(rng)
    return drawn


class Bold:
    """Raises on its most common face while the table could hold it, else challenges."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        view, legal = observation.view, observation.legal
        mine = view["my_dice"]
        face = max(FACES, key=lambda f: (mine.count(f), rng.random()))
        bid = view.get("bid")
        count = (bid[0] + (face <= bid[1])) if bid else mine.count(face)
        wanted = Bid(max(count, 1), face)
        return wanted if wanted in legal and count <= 2 * DICE else legal[-1]


def bold(seat: int, players: int) -> Bot:
    return Bold()


class LiarsDice(Title[State]):
    name = "liarsdice"
    display_name = "Liar's Dice"
    min_players = 2
    max_players = 4
    actions = ACTIONS
    default_bot = "bold"
    max_actions = ROUNDS * (DICE * 4 * 6 + 4 + 1)

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return setup(players, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return () if state.round > ROUNDS else (state.turn,)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        return legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        return apply(state, seat, action, rng)

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        return explain_illegal(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def seat_label(self, state: State, seat: int) -> str:
        return f"Player {seat}"

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        return resample(state, seat, rng)

    def bots(self) -> Mapping[str, BotFactory]:
        return {"bold": bold}

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema:
        return view_schema(players)

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        return game_facts(players)
