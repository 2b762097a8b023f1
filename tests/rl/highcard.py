"""High Card: a small title with everything the adapters must carry, declared.

Five cards (1 to 5) are shuffled; each seat is dealt one, face down. Then every seat
chooses at once, secretly: keep the card, or swap it for the top of the deck. The
choices are revealed together (swaps served in seat order while the deck lasts)
and the highest card wins (+1 to the winner, -1 to
each other seat: general-sum beyond two seats). Chance (a shuffle), hidden cards,
simultaneous choices and a resample hook, in sixty lines.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from gameweave_core import (
    Bool,
    Event,
    GameFacts,
    IntRange,
    ListOf,
    Maybe,
    Outcome,
    Record,
    Rng,
    Schema,
    Title,
    action,
    values,
)

CARDS = 5


@attrs.define
class State:
    deck: list[int]
    hands: list[int]
    chosen: dict[int, bool] = attrs.field(factory=dict)  # seat -> swapped
    revealed: bool = False


@action("choose")
@attrs.frozen
class Choose:
    """Keep your card (``swap`` false) or swap it for the top of the deck."""

    swap: bool = values((False, True))


class HighCard(Title[State]):
    name = "highcard"
    display_name = "High Card"
    min_players, max_players = 2, 3
    actions = (Choose,)
    max_actions = 3

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        deck = list(range(1, CARDS + 1))
        rng.shuffle(deck)
        return State(deck=deck[players:], hands=deck[:players])

    def awaiting(self, state: State) -> Sequence[int]:
        if state.revealed:
            return ()
        return tuple(s for s in range(1, len(state.hands) + 1) if s not in state.chosen)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        return [Choose(False), Choose(True)] if seat in self.awaiting(state) else ()

    def apply(self, state: State, seat: int, act: Any, rng: Rng) -> Sequence[Event]:
        state.chosen[seat] = act.swap
        if len(state.chosen) < len(state.hands):
            return [Event.public(f"Seat {seat} has chosen")]
        for s in sorted(state.chosen):  # the swaps take the deck's cards in seat order
            if state.chosen[s] and state.deck:  # (none left: the card is kept)
                state.hands[s - 1] = state.deck.pop(0)
        state.revealed = True
        return [Event.public(f"The cards are {state.hands}")]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        players = len(state.hands)
        return {
            "mine": state.hands[seat - 1] if seat is not None else None,
            "chosen": [s in state.chosen for s in range(1, players + 1)],
            "hands": list(state.hands) if state.revealed else None,
        }

    def outcome(self, state: State) -> Outcome | None:
        if not state.revealed:
            return None
        best = max(range(len(state.hands)), key=lambda i: state.hands[i]) + 1
        return Outcome(side=f"Seat {best}", winners=(best,), reason="high", summary="")

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        # Before the reveal a seat knows its own card: the others are redrawn.
        if state.revealed:
            return copy.deepcopy(state)
        known = {seat: state.hands[seat - 1]} if seat is not None else {}
        rest = [c for c in range(1, CARDS + 1) if c not in known.values()]
        rng.shuffle(rest)
        hands = [known[s] if s in known else rest.pop() for s in range(1, len(state.hands) + 1)]
        return State(deck=rest, hands=hands, chosen=dict(state.chosen))

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema:
        card = IntRange(1, CARDS)
        return Record(
            mine=Maybe(card),
            chosen=ListOf(Bool(), length=players),
            hands=Maybe(ListOf(card, length=players)),
        )

    def utilities(self, outcome: Outcome, players: int) -> tuple[float, ...]:
        return tuple(1.0 if s in outcome.winners else -1.0 for s in range(1, players + 1))

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        kind = "zero_sum" if players == 2 else "general_sum"
        return GameFacts(
            max_chance_outcomes=CARDS,
            simultaneous=True,
            utility=kind,
            min_utility=-1.0,
            max_utility=1.0,
            max_chance_nodes=CARDS - 1,
        )
