"""Reaction windows (gameweave_core.reactions): the pure functions on their own, then
a tiny title built on them (Snatch) under the conformance kit, with automatic twins
from its resample hook, so a window that leaked who holds an answer would fail."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

from gameweave_core import (
    Bag,
    Bool,
    Event,
    GameFacts,
    IntRange,
    ListOf,
    Match,
    Maybe,
    OneOf,
    Outcome,
    Record,
    Rng,
    Schema,
    Title,
    action,
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
from gameweave_core.testing import TitleConformance, check_refused

# -- the functions -------------------------------------------------------------------


def test_seats_go_round_the_table_from_the_first() -> None:
    assert seats_from(3, 4) == [3, 4, 1, 2]
    assert seats_from(3, 4, step=-1) == [3, 2, 1, 4]
    with pytest.raises(ValueError, match="seat 5 is not a seat of a 4-seat table"):
        seats_from(5, 4)


def test_a_simultaneous_window_awaits_everyone_asked_and_resolves_in_its_order() -> None:
    window = open_window("grab", 1, [3, 2, 4], context={"coin": 1})
    assert awaited(window) == (3, 2, 4)
    answer(window, 4, "block")
    answer(window, 2, PASS)
    assert awaited(window) == (3,) and not is_closed(window)
    with pytest.raises(ValueError, match="still awaits seats \\[3\\]"):
        resolution(window)
    answer(window, 3, "block")
    assert is_closed(window) and awaited(window) == ()
    # Seat 3 is first in the window's order, whoever answered first.
    assert resolution(window) == [(3, "block"), (4, "block")]


def test_a_sequential_window_asks_one_seat_at_a_time_and_the_first_taker_closes_it() -> None:
    window = open_window("alarm", 2, [2, 1, 3], sequential=True)
    assert awaited(window) == (2,)
    with pytest.raises(ValueError, match="seat 1 is not asked"):
        answer(window, 1, "avert")
    answer(window, 2, PASS)
    assert awaited(window) == (1,)
    answer(window, 1, "avert")
    assert is_closed(window) and awaited(window) == ()
    assert resolution(window) == [(1, "avert")]


def test_a_window_where_everyone_passes_closes_with_nothing_to_resolve() -> None:
    window = open_window("alarm", 1, [1, 2], sequential=True)
    answer(window, 1, PASS)
    answer(window, 2, PASS)
    assert is_closed(window) and resolution(window) == []
    assert is_closed(open_window("nobody", 1, []))


def test_a_seat_may_answer_once() -> None:
    window = open_window("grab", 1, [2, 3])
    answer(window, 2, PASS)
    with pytest.raises(ValueError, match="seat 2 is not asked"):
        answer(window, 2, "block")
    with pytest.raises(ValueError, match="asked twice"):
        open_window("grab", 1, [2, 2])


def test_secret_holdings_ask_every_seat_that_might_answer_public_ones_only_holders() -> None:
    hands = {2: ["block"], 3: [], 4: ["other"]}
    empty = {3}  # hand sizes are public: seat 3 visibly cannot answer

    def might(s: int) -> bool:
        return s not in empty

    def holds(s: int) -> bool:
        return "block" in hands[s]

    assert who_to_ask([2, 3, 4], might, holds, secret=True) == [2, 4]
    assert who_to_ask([2, 3, 4], might, holds, secret=False) == [2]


# -- a tiny title using them: Snatch ------------------------------------------------------

#: Coins in the pot at the start.
POT = 5


@action("grab")
@attrs.frozen
class Grab:
    """Take a coin from the pot (the others may block it)."""


@action("block")
@attrs.frozen
class Block:
    """Spend your secret Block to stop a grab."""


@action("let")
@attrs.frozen
class Let:
    """Let the grab happen (a pass)."""


@attrs.define
class SnatchState:
    players: int
    blocks: list[bool]  # secret: whether each seat still holds its Block card
    spent: list[bool]  # public: whether each seat has played its Block
    coins: list[int]
    pot: int = POT
    turn: int = 1
    turns: int = 0
    window: ReactionWindow | None = None


class Snatch(Title[SnatchState]):
    """Take turns grabbing coins; a secret Block held by another seat stops a grab."""

    name = "snatch"
    display_name = "Snatch"
    min_players = 2
    max_players = 4
    actions = (Grab, Block, Let)
    max_actions = 200

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> SnatchState:
        # Even odds, drawn as whole numbers: a float draw could not be a chance node.
        blocks = [rng.randbelow(2) == 1 for _ in range(players)]
        return SnatchState(players, blocks, [False] * players, [0] * players)

    def awaiting(self, state: SnatchState) -> Sequence[int]:
        if state.window is not None:
            return awaited(state.window)
        if state.pot == 0 or state.turns >= 3 * POT:
            return ()
        return (state.turn,)

    def legal_actions(self, state: SnatchState, seat: int) -> Sequence[Any]:
        if seat not in self.awaiting(state):
            return ()
        if state.window is None:
            return [Grab()]
        return [Block(), Let()] if state.blocks[seat - 1] else [Let()]

    def apply(self, state: SnatchState, seat: int, act: Any, rng: Rng) -> list[Event]:
        match act:
            case Grab():
                # Whether a seat still holds its Block is secret (spent ones are not):
                # ask every seat that has not visibly spent it, holder or not.
                others = seats_from(seat, state.players)[1:]
                asked = who_to_ask(
                    others,
                    lambda s: not state.spent[s - 1],
                    lambda s: state.blocks[s - 1],
                    secret=True,
                )
                state.window = open_window("grab", seat, asked)
                events = [Event.public(f"Seat {seat} reaches for a coin")]
            case Block():
                answer(state.window, seat, "block")  # type: ignore[arg-type]
                events = [Event.private([seat], "You raise your Block")]
            case Let():
                answer(state.window, seat, PASS)  # type: ignore[arg-type]
                events = []
        window = state.window
        if window is not None and is_closed(window):
            events += self._resolve(state, window)
        return events

    def _resolve(self, state: SnatchState, window: ReactionWindow) -> list[Event]:
        state.window = None
        blockers = [s for s, _ in resolution(window)]
        for s in blockers:
            state.blocks[s - 1], state.spent[s - 1] = False, True
        if blockers:
            events = [Event.public(f"Seat {blockers[0]} blocks the grab")]
            # Every Block raised is spent, and the table sees it: say so.
            events += [
                Event.public(f"Seat {s} raised a Block too and loses it") for s in blockers[1:]
            ]
        else:
            state.pot -= 1
            state.coins[window.actor - 1] += 1
            events = [Event.public(f"Seat {window.actor} takes a coin")]
        state.turn = window.actor % state.players + 1
        state.turns += 1
        return events

    def view(self, state: SnatchState, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pot": state.pot,
            "coins": list(state.coins),
            "spent": list(state.spent),
            "turn": state.turn,
        }
        if state.window is not None:
            out["answered"] = sorted(state.window.answers)
        if seat is not None:
            out["my_block"] = state.blocks[seat - 1]
            if state.window is not None and seat in state.window.answers:
                out["my_answer"] = state.window.answers[seat]
        return out

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema:
        return Record(
            pot=IntRange(0, POT),
            coins=ListOf(IntRange(0, POT), length=players),
            spent=ListOf(Bool(), length=players),
            turn=IntRange(1, players),
            answered=Maybe(Bag(range(1, players + 1))),
            my_block=Maybe(Bool()),
            my_answer=Maybe(OneOf((PASS, "block"))),
        )

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        # A coin toss per seat for its Block; the window asks the others at once.
        return GameFacts(max_chance_outcomes=2, max_chance_nodes=players, simultaneous=True)

    def outcome(self, state: SnatchState) -> Outcome | None:
        if self.awaiting(state):
            return None
        top = max(state.coins)
        winners = tuple(s for s in range(1, state.players + 1) if state.coins[s - 1] == top)
        return Outcome("coins", winners, "coins", f"{top} coins", {"coins": list(state.coins)})

    def resample(self, state: SnatchState, seat: int | None, rng: Rng) -> SnatchState:
        """Other seats' unspent Blocks are redrawn (each held with even odds, the deal's
        odds), and so are their answers in an open window, which nobody sees before
        it closes (a seat drawn holding a Block raises it with even odds): uniform,
        not exact, as how people answer is theirs to choose."""
        drawn = copy.deepcopy(state)
        window = drawn.window
        for s in range(1, state.players + 1):
            # Drawn for every seat, whoever it is: the draw depends on what the seat
            # knows only, never on which seats the truth makes redraw.
            holds, raises = rng.random() < 0.5, rng.random() < 0.5
            if s == seat or state.spent[s - 1]:
                continue
            drawn.blocks[s - 1] = holds
            if window is not None and s in window.answers:
                window.answers[s] = "block" if holds and raises else PASS
        return drawn


class TestSnatchConformance(TitleConformance):
    title = Snatch()


def test_every_seat_that_might_block_is_asked_holder_or_not() -> None:
    match = Match(Snatch(), 3, seed=4)
    state = match.state
    state.blocks = [False, True, False]  # only seat 2 holds a Block
    match._awaiting = None
    match.submit(1, Grab())
    assert match.awaiting == (2, 3)  # seat 3 is asked too: asking 2 alone would tell
    assert match.legal_actions(3) == [Let()]
    assert match.legal_actions(2) == [Block(), Let()]
    assert "not asked" not in check_refused(match, 3, Block())
    match.submit(3, Let())
    match.submit(2, Block())
    assert "Seat 2 blocks the grab" in match.history(1)
    assert match.view(None)["coins"] == [0, 0, 0] and match.view(None)["spent"][1]
    # Spent Blocks are public: seat 2 is not asked again.
    match.submit(2, Grab())
    assert match.awaiting == (3, 1)


def test_the_first_blocker_in_the_window_order_is_credited() -> None:
    match = Match(Snatch(), 3, seed=4)
    match.state.blocks = [False, True, True]
    match._awaiting = None
    match.submit(1, Grab())
    match.submit(3, Block())  # seat 3 answers first...
    match.submit(2, Block())
    assert "Seat 2 blocks the grab" in match.history(None)  # ...but 2 comes first in order
    assert match.view(None)["spent"] == [False, True, True]


class LeakySnatch(Snatch):
    """Snatch asking only the seats that really hold a Block: the awaited seats then
    tell everyone who holds one."""

    def apply(self, state: SnatchState, seat: int, act: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, act, rng)
        if isinstance(act, Grab) and state.window is not None:
            state.window.order = [s for s in state.window.order if state.blocks[s - 1]]
            if is_closed(state.window):
                events += self._resolve(state, state.window)
        return events


def test_the_kit_catches_a_window_that_asks_only_the_holders() -> None:
    from gameweave_core.testing import check_resampled_twins

    with pytest.raises(
        AssertionError, match="can tell a twin from the real match .* by its awaiting"
    ):
        for seed in range(40):
            check_resampled_twins(LeakySnatch(), 3, seed)
