"""A title the adapters cannot host is refused in one line saying why, at once
(never numbered wrongly), and the installed titles' state is reported."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import pytest

from gameweave_core import (
    Event,
    GameFacts,
    IntRange,
    Outcome,
    Record,
    Rng,
    Schema,
    Title,
    action,
    values,
)
from gameweave_rl import NotHostable, host
from gameweave_rl.openspiel import load_game, register
from gameweave_rl.pettingzoo import env, parallel_env, raw_env


@action("count")
@attrs.frozen
class Count:
    """Say a number (its field declares no values)."""

    number: int


@action("say")
@attrs.frozen
class Say:
    """Say a number from 1 to 3."""

    number: int = values(range(1, 4))


class Counting(Title[list[int]]):
    """Two seats say numbers in turn; the first to make the total reach 5 wins."""

    name = "counting"
    display_name = "Counting"
    min_players = max_players = 2
    actions: ClassVar[tuple[type, ...]] = (Count,)
    schema: Schema | None = Record(total=IntRange(0, 7), turn=IntRange(1, 2))
    facts: GameFacts | None = GameFacts(utility="zero_sum", min_utility=-1, max_utility=1)

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> list[int]:
        return [0, 1]

    def awaiting(self, state: list[int]) -> Sequence[int]:
        return () if state[0] >= 5 else (state[1],)

    def legal_actions(self, state: list[int], seat: int) -> Sequence[Any]:
        cls = self.actions[0]
        return [cls(n) for n in (1, 2, 3)] if seat in self.awaiting(state) else ()

    def apply(self, state: list[int], seat: int, act: Any, rng: Rng) -> Sequence[Event]:
        state[0] += act.number
        state[1] = 3 - seat
        return [Event.public(f"Seat {seat} says {act.number}")]

    def view(self, state: list[int], seat: int | None) -> dict[str, Any]:
        return {"total": state[0], "turn": state[1]}

    def outcome(self, state: list[int]) -> Outcome | None:
        if state[0] < 5:
            return None
        return Outcome(side=f"Seat {3 - state[1]}", winners=(3 - state[1],), reason="5", summary="")

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema | None:
        return self.schema

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts | None:
        return self.facts


class Declared(Counting):
    name = "declared"
    actions = (Say,)


class NoSchema(Declared):
    name = "noschema"
    schema = None


class NoFacts(Declared):
    name = "nofacts"
    facts = None


def makers() -> list[Any]:
    return [
        lambda t: env(t, 2),
        lambda t: raw_env(t, 2),
        lambda t: parallel_env(t, 2),
        lambda t: load_game(t, players=2),
        register,
    ]


@pytest.mark.parametrize(
    "make", makers(), ids=["env", "raw_env", "parallel_env", "load_game", "register"]
)
@pytest.mark.parametrize(
    ("title", "reason"),
    [
        (Counting(), "field 'number' of action 'count'"),
        (NoSchema(), "declares no view schema"),
        (NoFacts(), "states no game facts"),
    ],
    ids=["no-domain", "no-schema", "no-facts"],
)
def test_a_title_that_cannot_be_hosted_is_refused_in_one_line(
    make: Any, title: Title[Any], reason: str
) -> None:
    with pytest.raises(NotHostable) as refused:
        make(title)
    message = str(refused.value)
    assert reason in message
    assert title.name in message
    assert "\n" not in message


def test_a_declared_title_is_hosted() -> None:
    # The refusals above are for what is missing: the same title with every
    # declaration is hosted (3 actions; total and turn scaled, 2 numbers).
    hosted = host(Declared(), 2, {})
    assert (hosted.size, hosted.obs_size) == (3, 2)


class Broken(Declared):
    name = "broken"

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts | None:
        raise RuntimeError("the facts could not be computed")


def test_registering_installed_titles_leaves_out_the_unhostable_and_the_broken() -> None:
    from gameweave_core import Registry
    from gameweave_rl import openspiel

    registry = Registry(bundled=False)
    for title in (Counting(), Broken(), Declared()):
        registry.add_title(title, "tests", "0")
    assert openspiel.register_installed(registry) == ["gameweave_declared"]
    assert "field 'number'" in openspiel.not_registered["counting"]
    assert openspiel.not_registered["broken"] == (
        "broken: RuntimeError: the facts could not be computed"
    )
