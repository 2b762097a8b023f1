"""The rules of Sealed Bids, as pure functions of the state.

Five lots come up for auction one at a time, worth 1 to 9 points each. Every
player starts with 20 coins. For each lot all players bid at once, in secret;
when the last bid is in they are revealed. The single highest bid wins the lot
and is paid; a tie for highest means nobody wins it and nobody pays. After the
fifth lot the most points wins, ties going to the most coins left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import ConfigError, Event, GameFacts, Outcome, Rng

from .actions import Bid
from .state import LOTS, START_COINS, VALUES, State


def check_config(players: int, config: Mapping[str, Any]) -> dict[str, Any]:
    """The options, checked: ``lots`` is empty (shuffle) or the lots in order."""
    lots = config["lots"]
    ok = isinstance(lots, list) and all(type(v) is int and v in VALUES for v in lots)
    if not ok or (lots and (len(lots) != LOTS or len(set(lots)) != LOTS)):
        raise ConfigError(f"lots must be {LOTS} different values from 1 to 9, or empty")
    return dict(config)


def setup(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    """The lot deck and everyone's purse. All chance comes from ``rng``."""
    deck = list(config["lots"])  # a stacked deck, for tests
    if not deck:
        deck = list(VALUES)
        rng.shuffle(deck)
        deck = deck[:LOTS]
    return State(
        players=players,
        deck=deck[1:],
        lot=deck[0],
        coins=[START_COINS] * players,
        points=[0] * players,
    )


def awaiting(state: State) -> Sequence[int]:
    """Everyone who has not bid on the lot up for sale (nobody once all are sold)."""
    if state.sold == LOTS:
        return ()
    return tuple(s for s in range(1, state.players + 1) if s not in state.bids)


def legal_actions(state: State, seat: int) -> Sequence[Bid]:
    """Any bid from nothing to every coin the seat holds, if it has not bid yet."""
    if seat not in awaiting(state):
        return ()
    return [Bid(c) for c in range(state.coins[seat - 1] + 1)]


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why a well-formed bid is refused, in words the seat may read."""
    if isinstance(action, Bid) and action.coins > state.coins[seat - 1]:
        return f"you hold {state.coins[seat - 1]} coins and cannot bid {action.coins}"
    if isinstance(action, Bid) and action.coins < 0:
        return "a bid cannot be negative"
    return None


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out one legal action; return what happened, each line for its audience."""
    match action:
        case Bid(coins=coins):
            return do_bid(state, seat, coins)
    raise TypeError(f"not a Sealed Bids action: {action!r}")


def do_bid(state: State, seat: int, coins: int) -> list[Event]:
    """Seal a bid; the last one in sells the lot."""
    state.bids[seat] = coins
    events = [
        Event.private([seat], f"You bid {coins} on the {state.lot}-point lot"),
        Event.others([seat], state.players, f"Seat {seat} seals a bid"),
    ]
    if len(state.bids) == state.players:
        events.extend(sell(state))
    return events


def sell(state: State) -> list[Event]:
    """Reveal the bids, sell the lot to the single highest bid, bring up the next."""
    bids = state.bids
    shown = ", ".join(f"seat {s} {bids[s]}" for s in sorted(bids))
    # Event data goes out as JSON, whose keys are strings: say so up front.
    revealed = {str(s): b for s, b in sorted(bids.items())}
    events = [Event.public(f"Bids revealed: {shown}", "reveal", bids=revealed)]
    top = max(bids.values())
    winners = [s for s, b in bids.items() if b == top]
    if len(winners) == 1:
        w = winners[0]
        state.coins[w - 1] -= top
        state.points[w - 1] += state.lot
        events.append(Event.public(f"Seat {w} wins the {state.lot}-point lot for {top}"))
    else:
        events.append(Event.public(f"A tie at {top}: the {state.lot}-point lot goes unsold"))
    state.sold += 1
    state.past.append(state.lot)
    state.revealed, state.bids = bids, {}
    if state.deck:
        # What comes up is news to everyone: a seat learns only through events.
        state.lot = state.deck.pop(0)
        events.append(Event.public(f"The {state.lot}-point lot comes up", "lot", lot=state.lot))
    return events


def outcome(state: State) -> Outcome | None:
    """After the last lot: the most points win, then the most coins left."""
    if state.sold < LOTS:
        return None

    def standing(seat: int) -> tuple[int, int]:
        return state.points[seat - 1], state.coins[seat - 1]

    best = max(standing(s) for s in range(1, state.players + 1))
    winners = tuple(s for s in range(1, state.players + 1) if standing(s) == best)
    side = f"Seat {winners[0]}" if len(winners) == 1 else "tie"
    return Outcome(
        side=side,
        winners=winners,
        reason="points" if len(winners) == 1 else "tie",
        summary=f"{side} wins with {best[0]} points and {best[1]} coins left",
        figures={"points": list(state.points), "coins": list(state.coins)},
    )


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """What algorithms are told before a match: the shuffle of the nine lot values
    draws from 9 first (8 draws in all; none with a stacked deck), every seat bids at
    once, and the utilities are the default ones (1 to each winner, 0 to the others)."""
    stacked = bool(config["lots"])
    return GameFacts(
        max_chance_outcomes=0 if stacked else len(VALUES),
        max_chance_nodes=0 if stacked else len(VALUES) - 1,
        simultaneous=True,
    )
