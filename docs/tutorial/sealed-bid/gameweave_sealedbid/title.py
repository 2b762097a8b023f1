"""Sealed Bids.

Five lots come up for auction one at a time, worth 1 to 9 points each. Every
player starts with 20 coins. For each lot all players bid at once, in secret;
when the last bid is in they are revealed. The single highest bid wins the lot
and is paid; a tie for highest means nobody wins it and nobody pays. After the
fifth lot the most points wins, ties going to the most coins left.

The hidden information: each bid until every bid is in, and the order of the
lots still to come.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from gameweave_core import Event, Outcome, Rng, Title, action
from gameweave_core.bots import Observation

LOTS = 5
START_COINS = 20


@action("bid")
@attrs.frozen
class Bid:
    """Bid ``coins`` (0 or more, at most what you hold) on the lot up for sale."""

    coins: int


@attrs.define
class State:
    players: int
    deck: list[int]  # lots to come, next first: secret
    lot: int  # value of the lot up for sale
    coins: list[int]
    points: list[int]
    bids: dict[int, int] = attrs.field(factory=dict)  # sealed bids this lot: secret
    sold: int = 0


class SealedBid(Title[State]):
    name = "sealedbid"
    display_name = "Sealed Bids"
    summary = "Bid in secret, all at once, for five lots."
    min_players = 2
    max_players = 4
    version = "1"
    actions = (Bid,)
    default_bot = "thrifty"
    max_actions = LOTS * 4

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        deck = list(range(1, 10))
        rng.shuffle(deck)
        deck = deck[:LOTS]
        return State(
            players=players,
            deck=deck[1:],
            lot=deck[0],
            coins=[START_COINS] * players,
            points=[0] * players,
        )

    def awaiting(self, state: State) -> Sequence[int]:
        if state.sold == LOTS:
            return ()
        return tuple(s for s in range(1, state.players + 1) if s not in state.bids)

    def legal_actions(self, state: State, seat: int) -> Sequence[Bid]:
        if seat not in self.awaiting(state):
            return ()
        return [Bid(c) for c in range(state.coins[seat - 1] + 1)]

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        if isinstance(action, Bid) and action.coins > state.coins[seat - 1]:
            return f"you hold {state.coins[seat - 1]} coins and cannot bid {action.coins}"
        if isinstance(action, Bid) and action.coins < 0:
            return "a bid cannot be negative"
        return None

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        state.bids[seat] = action.coins
        events = [
            Event.private([seat], f"You bid {action.coins} on the {state.lot}-point lot"),
            Event.others([seat], state.players, f"Seat {seat} seals a bid"),
        ]
        if len(state.bids) < state.players:
            return events
        bids = state.bids
        shown = ", ".join(f"seat {s} {bids[s]}" for s in sorted(bids))
        # Event data goes out as JSON, whose keys are strings: say so up front.
        revealed = {str(s): b for s, b in sorted(bids.items())}
        events.append(Event.public(f"Bids revealed: {shown}", "reveal", bids=revealed))
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
        state.bids = {}
        if state.deck:
            state.lot = state.deck.pop(0)
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "lot": state.lot,
            "lots_left": LOTS - state.sold,
            "coins": list(state.coins),
            "points": list(state.points),
            "sealed": sorted(state.bids),  # who has bid, never how much
        }
        if seat is not None and seat in state.bids:
            out["my_bid"] = state.bids[seat]
        return out

    def outcome(self, state: State) -> Outcome | None:
        if state.sold < LOTS:
            return None
        ranking = sorted(
            range(1, state.players + 1),
            key=lambda s: (state.points[s - 1], state.coins[s - 1]),
            reverse=True,
        )
        best = (state.points[ranking[0] - 1], state.coins[ranking[0] - 1])
        winners = tuple(s for s in ranking if (state.points[s - 1], state.coins[s - 1]) == best)
        side = f"Seat {winners[0]}" if len(winners) == 1 else "tie"
        return Outcome(
            side=side,
            winners=winners,
            reason="points" if len(winners) == 1 else "tie",
            summary=f"{side} wins with {best[0]} points and {best[1]} coins left",
            figures={"points": list(state.points), "coins": list(state.coins)},
        )

    def seat_label(self, state: State, seat: int) -> str:
        return f"Bidder {seat}"

    def describe_action(self, action: Any) -> str:
        return f"bid {action.coins}"

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        words = text.split()
        if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
            return Bid(int(words[1]))
        return super().parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None) -> str:
        lines = [f"[bold]Lot for sale: {view['lot']} points[/bold] ({view['lots_left']} left)"]
        for s, (coins, points) in enumerate(zip(view["coins"], view["points"], strict=True), 1):
            mark = "  (bid sealed)" if s in view["sealed"] else ""
            you = " (you)" if s == seat else ""
            lines.append(f"Bidder {s}{you}: {coins} coins, {points} points{mark}")
        if "my_bid" in view:
            lines.append(f"Your sealed bid: {view['my_bid']}")
        return "\n".join(lines)

    def bots(self) -> dict[str, Any]:
        return {"thrifty": lambda seat, players: ThriftyBot()}


class ThriftyBot:
    """Bids about a coin per point of the lot, never more than it can spare."""

    def act(self, observation: Observation, rng: Rng) -> Bid:
        view = observation.view
        coins = view["coins"][observation.seat - 1]
        want = view["lot"] + rng.randint(-1, 2)
        return Bid(max(0, min(coins, want)))
