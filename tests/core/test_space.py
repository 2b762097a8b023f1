"""Numbered actions (issue 35): field domains, the action space, masks and submitting
by number."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import pytest

from gameweave_core import (
    ActionSpace,
    Event,
    IllegalAction,
    MalformedAction,
    Match,
    NotEnumerable,
    Outcome,
    Relative,
    Rng,
    Title,
    action,
    action_space,
    values,
)
from gameweave_core.space import enumerable
from gameweave_core.testing import check_action_space, random_match
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.actions import Bid

from .liarsdice import Bid as DiceBid
from .liarsdice import Challenge, LiarsDice, Reroll


class Suit(enum.Enum):
    CLUBS = "clubs"
    HEARTS = "hearts"


@action("play")
@attrs.frozen
class Play:
    suit: Suit = values(Suit)
    rank: int = values(range(1, 4))
    to: int | None = values(lambda players, config: range(1, players + 1), none=True, default=None)


@action("pass")
@attrs.frozen
class Pass:
    pass


@action("flag")
@attrs.frozen
class Flag:
    on: bool = values((False, True))


@action("free")
@attrs.frozen
class Free:
    text: str


class Cards(Title[dict[str, Any]]):
    """A title that only declares actions: the space is all this test needs."""

    name = "cards"
    display_name = "Cards"
    min_players, max_players = 2, 4
    actions: ClassVar[tuple[type, ...]] = (Pass, Play, Flag)

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        return {"over": False}

    def awaiting(self, state: dict[str, Any]) -> Sequence[int]:
        return () if state["over"] else (1,)

    def legal_actions(self, state: dict[str, Any], seat: int) -> Sequence[Any]:
        return [Pass(), Play(Suit.HEARTS, 2, 3), Flag(True)] if seat == 1 else []

    def apply(self, state: dict[str, Any], seat: int, action: Any, rng: Rng) -> list[Event]:
        state["over"] = True
        return []

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"over": state["over"]}

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome("table", (1,), "end", "done") if state["over"] else None


class FreeText(Cards):
    name = "freetext"
    actions = (Pass, Free)


def test_the_numbering_follows_actions_then_fields_in_order() -> None:
    space = action_space(Cards(), 3, {})
    # pass: 1; play: 2 suits x 3 ranks x (None + 3 seats) = 24; flag: 2.
    assert space.size == 1 + 24 + 2
    assert space.action(0) == Pass()
    # The first declared field varies slowest, None first among the values of `to`.
    assert space.action(1) == Play(Suit.CLUBS, 1, None)
    assert space.action(2) == Play(Suit.CLUBS, 1, 1)
    assert space.action(5) == Play(Suit.CLUBS, 2, None)
    assert space.action(1 + 12) == Play(Suit.HEARTS, 1, None)
    assert space.action(25) == Flag(False)
    assert space.action(26) == Flag(True)
    for i in range(space.size):
        assert space.index(space.action(i)) == i
    assert len(set(space.actions())) == space.size


def test_a_domain_may_depend_on_the_player_count() -> None:
    assert action_space(Cards(), 2, {}).size == 1 + 2 * 3 * 3 + 2
    assert action_space(Cards(), 4, {}).size == 1 + 2 * 3 * 5 + 2
    dice = action_space(LiarsDice(), 3, {})
    assert dice.size == 9 * 6 + 2
    assert dice.index(DiceBid(9, 6)) == 53
    assert dice.action(54) == Reroll()
    assert dice.action(55) == Challenge()


def test_the_space_is_stable_for_players_and_options() -> None:
    a, b = action_space(Cards(), 3, {}), action_space(Cards(), 3, {})
    assert a.actions() == b.actions()


def test_values_are_matched_by_kind_too() -> None:
    space = action_space(Cards(), 2, {})
    with pytest.raises(NotEnumerable, match=r"flag\.on = 1 is not in the field's declared values"):
        space.index(Flag(1))  # type: ignore[arg-type]


def test_a_value_outside_the_domain_is_refused_naming_the_field() -> None:
    space = action_space(Cards(), 2, {})
    with pytest.raises(NotEnumerable) as caught:
        space.index(Play(Suit.CLUBS, 7))
    assert "cards: play.rank = 7" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_number_outside_the_space_is_refused() -> None:
    space = action_space(Cards(), 2, {})
    for bad in (-1, space.size, "3", 2.0, True):
        with pytest.raises(ValueError, match="out of range"):
            space.action(bad)  # type: ignore[arg-type]


def test_a_field_without_a_domain_makes_the_title_not_enumerable() -> None:
    reason = enumerable(FreeText())
    assert reason is not None
    assert "field 'text' of action 'free' (Free) declares no values" in reason
    with pytest.raises(NotEnumerable, match="field 'text' of action 'free'"):
        action_space(FreeText(), 2, {})
    match = Match(FreeText(), 2, seed=1)
    with pytest.raises(NotEnumerable, match="freetext cannot number its actions"):
        match.legal_mask(1)


def test_a_domain_listing_a_value_twice_is_refused() -> None:
    @action("twice")
    @attrs.frozen
    class Twice:
        n: int = values([1, 2, 1])

    class Bad(Cards):
        actions = (Twice,)

    with pytest.raises(NotEnumerable, match=r"twice\.n lists 1 twice"):
        action_space(Bad(), 2, {})


def test_a_title_may_list_its_actions_itself() -> None:
    class Listed(FreeText):
        def action_list(self, players: int, config: Mapping[str, Any]) -> Sequence[Any]:
            return [Pass(), *(Free(w) for w in ("a", "b"))]

    assert enumerable(Listed()) is None
    space = action_space(Listed(), 2, {})
    assert space.size == 3
    assert space.index(Free("b")) == 2
    assert space.action(1) == Free("a")
    with pytest.raises(NotEnumerable, match="not in the title's action_list"):
        space.index(Free("c"))


def test_the_mask_and_the_numbers_of_the_legal_actions() -> None:
    match = Match(Cards(), 3, seed=4)
    space = match.action_space
    assert isinstance(space, ActionSpace)
    legal = match.legal_actions(1)
    numbers = match.legal_indices(1)
    assert [space.action(i) for i in numbers] == list(legal)
    mask = match.legal_mask(1)
    assert len(mask) == space.size
    assert [i for i, bit in enumerate(mask) if bit] == sorted(numbers)
    assert match.legal_mask(2) == [0] * space.size


def test_submitting_by_number() -> None:
    match = Match(SealedBid(), 2, seed=3)
    space = match.action_space
    assert space.size == 21
    match.submit_index(1, space.index(Bid(7)))
    assert match.actions() == [(1, {"type": "bid", "coins": 7})]


def test_a_bad_number_is_refused_and_changes_nothing() -> None:
    match = Match(SealedBid(), 2, seed=3)
    before = match.digest()
    with pytest.raises(
        MalformedAction, match="out of range: sealedbid numbers its actions 0 to 20"
    ):
        match.submit_index(1, 21)
    with pytest.raises(MalformedAction):
        match.submit_index(1, "3")
    assert match.digest() == before
    # A number in the space whose action is not legal now gets the usual refusal.
    match.submit_index(1, 20)
    match.submit_index(2, 0)  # seat 1 wins the lot and pays all its 20 coins
    assert match.view(1)["coins"] == [0, 20]
    after = match.digest()
    with pytest.raises(IllegalAction, match="you hold 0 coins and cannot bid 20"):
        match.submit_index(1, 20)
    assert match.digest() == after


@action("bet")
@attrs.frozen
class Bet:
    amount: int


class AllIn(Title[dict[str, Any]]):
    """Bets of 10 or 50, or the whole stake (any amount): an action made from the view."""

    name = "allin"
    display_name = "All in"
    min_players = max_players = 2
    actions: ClassVar[tuple[type, ...]] = (Bet,)
    default_config: ClassVar[Mapping[str, Any]] = {"stake": 73}

    def action_list(self, players: int, config: Mapping[str, Any]) -> Sequence[Any]:
        def whole(view: Mapping[str, Any]) -> Any:
            return None if view["stake"] in (10, 50) else Bet(view["stake"])

        return [Bet(10), Bet(50), Relative("all in", whole)]

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        return {"stake": config["stake"], "done": False}

    def awaiting(self, state: dict[str, Any]) -> Sequence[int]:
        return () if state["done"] else (1,)

    def legal_actions(self, state: dict[str, Any], seat: int) -> Sequence[Any]:
        if seat != 1 or state["done"]:
            return []
        amounts = sorted({a for a in (10, 50, state["stake"]) if a <= state["stake"]})
        return [Bet(a) for a in amounts]

    def apply(self, state: dict[str, Any], seat: int, action: Any, rng: Rng) -> list[Event]:
        state["done"] = True
        return [Event.public(f"bets {action.amount}")]

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"stake": state["stake"]}

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome("table", (1,), "end", "done") if state["done"] else None


def test_a_number_may_stand_for_an_action_made_from_the_view() -> None:
    match = Match(AllIn(), 2, seed=1)
    space = match.action_space
    assert space.relative and space.size == 3
    assert match.legal_indices(1) == [0, 1, 2]
    assert match.legal_mask(1) == [1, 1, 1]
    assert space.action(2, {"stake": 73}) == Bet(73)
    with pytest.raises(ValueError, match=r"action number 2 of allin \(all in\) needs the seat"):
        space.action(2)
    with pytest.raises(NotEnumerable, match="given no view"):
        space.index(Bet(73))
    match.submit_index(1, 2)
    assert match.actions() == [(1, {"type": "bet", "amount": 73})]
    # When the whole stake is one of the listed amounts, the list's own number wins.
    even = Match(AllIn(), 2, seed=1, config={"stake": 50})
    assert even.legal_indices(1) == [0, 1]
    with pytest.raises(MalformedAction, match="stands for no action now"):
        even.submit_index(1, 2)
    check_action_space(random_match(AllIn(), 2, 3))
