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

from .conftest import CASE_IDS, CASES, REGISTRY


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
    api_test(environment, num_cycles=50)
    game = load_game(title, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
