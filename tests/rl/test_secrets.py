"""Secrets by construction: the adapters build what a seat gets from the match's
public API (views, legal actions, information states), never from its state. Here
``Match.state`` is made to fail, and the peers' suites still pass on every title the
adapters host: nothing in the adapters reads the state."""

from __future__ import annotations

from typing import Any

import pyspiel
import pytest
from pettingzoo.test import api_test

from gameweave_core import Match
from gameweave_rl import NotHostable
from gameweave_rl.openspiel import load_game
from gameweave_rl.pettingzoo import env

from .conftest import CASE_IDS, CASES, REGISTRY, numbered


@pytest.fixture
def state_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(self: Any) -> Any:
        raise AssertionError("an adapter read Match.state")

    monkeypatch.setattr(Match, "state", property(forbidden))


@pytest.mark.parametrize(("name", "players"), CASES, ids=CASE_IDS)
def test_the_adapters_never_read_the_state(name: str, players: int, state_forbidden: None) -> None:
    title = REGISTRY.title(name)
    try:
        environment = env(title, players)
    except NotHostable as error:
        pytest.skip(f"{name} is not yet enumerable: {error}")
    with numbered(name):
        api_test(environment, num_cycles=50)
        game = load_game(title, players=players)
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_states_a_seat_cannot_tell_apart_give_it_the_same_observations() -> None:
    """Every deal of High Card (its explicit chance enumerated): deals that give seat 1
    the same view give it the same observation and information state, strings and
    tensors, though seat 2's card differs between them."""
    game = load_game(REGISTRY.title("highcard"), players=2)
    deals = []

    def deal(state: Any) -> None:
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                deal(state.child(outcome))
        else:
            deals.append(state)

    deal(game.new_initial_state())
    assert len(deals) == 120  # 5 x 4 x 3 x 2 shuffles

    def seen_by(state: Any, player: int) -> tuple[Any, ...]:
        return (
            state.observation_string(player),
            tuple(state.observation_tensor(player)),
            state.information_state_string(player),
            tuple(state.information_state_tensor(player)),
        )

    groups: dict[str, list[Any]] = {}
    for state in deals:
        groups.setdefault(state.observation_string(0), []).append(state)
    assert len(groups) == 5  # seat 1 sees its own card, one of five
    for states in groups.values():
        assert len({seen_by(s, 0) for s in states}) == 1
        assert len({seen_by(s, 1) for s in states}) == 4  # seat 2's card differs
