"""The example of the page "Your title in OpenSpiel and PettingZoo" runs as the page
says: OpenSpiel's IS-MCTS, resampling with the title's hook, against random play."""

from __future__ import annotations

import sys
from pathlib import Path

import pyspiel

from gameweave_rl.openspiel import load_game

from .conftest import REGISTRY

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "reference" / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import openspiel_eval  # noqa: E402  (the example script, put on the path above)


def test_the_example_evaluates_ismcts_on_a_title() -> None:
    means = openspiel_eval.evaluate(REGISTRY.title("highcard"), games=4)
    assert len(means) == 2
    assert all(-1.0 <= m <= 1.0 for m in means)
    assert abs(sum(means)) < 1e-9  # High Card is zero-sum for two seats


def test_a_resampled_state_looks_the_same_to_its_seat() -> None:
    game = load_game(REGISTRY.title("highcard"), players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(12):
        drawn = state.resample_from_infostate(0, sampler)
        assert drawn.observation_string(0) == state.observation_string(0)
        assert drawn.information_state_string(0) == state.information_state_string(0)
        assert drawn.legal_actions() == state.legal_actions()
        others.add(drawn.observation_string(1))
    assert len(others) > 1  # seat 2's card is drawn again
