"""The adapters' own promises, beyond the peers' suites: refusals change nothing,
seeds replay, rewards are the title's utilities, and OpenSpiel states round-trip."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest

from gameweave_core.rng import UnseededMatch
from gameweave_rl.openspiel import load_game
from gameweave_rl.pettingzoo import env, raw_env

from .conftest import REGISTRY

TICTACTOE = REGISTRY.title("tictactoe")


def play(environment: Any, cells: list[int]) -> None:
    for cell in cells:
        environment.step(cell)


def test_an_illegal_action_is_refused_in_one_line_and_changes_nothing() -> None:
    game = raw_env(TICTACTOE, 2)
    game.reset(seed=1)
    play(game, [4])
    before = game.observe("seat_2")
    with pytest.raises(ValueError) as refused:
        game.step(4)  # seat 2 on seat 1's cell
    assert "\n" not in str(refused.value) and "cell 4" in str(refused.value)
    assert game.agent_selection == "seat_2"
    after = game.observe("seat_2")
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    assert game.match is not None and game.match.step == 1


def test_rewards_are_the_titles_utilities_at_the_end() -> None:
    game = raw_env(TICTACTOE, 2)
    game.reset(seed=1)
    play(game, [0, 3, 1, 4])
    assert game.rewards == {"seat_1": 0.0, "seat_2": 0.0}
    play(game, [2])  # X: 0, 1, 2, a line
    assert game.terminations == {"seat_1": True, "seat_2": True}
    assert game._cumulative_rewards == {"seat_1": 1.0, "seat_2": -1.0}


def test_the_wrapped_env_ends_the_game_on_an_action_outside_the_mask(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = env(TICTACTOE, 2)
    game.reset(seed=1)
    game.step(4)
    game.step(4)
    assert "Illegal move" in caplog.text  # PettingZoo's own warning, logged
    assert all(game.terminations.values())
    # The seat that played it gets the title's lowest utility, the other nothing.
    assert game.unwrapped._cumulative_rewards == {"seat_1": 0.0, "seat_2": -1.0}


def test_reset_without_a_seed_continues_the_last_seeds_sequence() -> None:
    first, second = raw_env(TICTACTOE, 2), raw_env(TICTACTOE, 2)
    seeds = []
    for game in (first, second):
        played = []
        for seed in (9, None, None):
            game.reset(seed=seed)
            assert game.match is not None
            played.append(game.match.seed)
        seeds.append(played)
    assert seeds[0] == seeds[1]
    assert len(set(seeds[0])) == 3


def test_an_environment_never_seeded_draws_a_fresh_seed_which_tests_refuse() -> None:
    with pytest.raises(UnseededMatch):
        raw_env(TICTACTOE, 2).reset()


def test_openspiel_states_clone_serialize_and_pickle() -> None:
    game = load_game(TICTACTOE, players=2)
    state = game.new_initial_state()
    for cell in (4, 0, 8):
        state.apply_action(cell)
    clone = state.clone()
    clone.apply_action(2)
    assert state.history() == [4, 0, 8] and clone.history() == [4, 0, 8, 2]
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    restored = pickle.loads(pickle.dumps(state))
    assert str(restored) == str(state)
    assert restored.legal_actions() == state.legal_actions() == [1, 2, 3, 5, 6, 7]
    assert state.current_player() == 1
    assert state.observation_string(1) == state.observation_string(0)  # nothing hidden


def test_a_title_registered_with_openspiel_loads_by_name_with_its_parameters() -> None:
    from gameweave_rl.openspiel import register

    name = register(TICTACTOE)
    game = pyspiel.load_game(name, {"players": 2})
    assert game.get_type().short_name == "gameweave_tictactoe"
    assert game.num_distinct_actions() == 9
    assert game.num_players() == 2
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game(name, {"players": 3})


@pytest.mark.parametrize("name", ["tictactoe", "highcard", "sealedbid", "pickpocket"])
def test_the_observation_is_the_cores_encoding_of_the_view(name: str) -> None:
    """The adapter writes observations with the spec's compiled encoder into a NumPy
    array: the same numbers as the core's ``spec.encode(view)``, at every step."""
    title = REGISTRY.title(name)
    game = raw_env(title, 2)
    game.reset(seed=3)
    host, checked = game.host, 0
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        assert game.match is not None
        view = game.match.view(game._seat[agent])
        expected = np.asarray(host.spec.encode(view), dtype=np.float32)
        assert np.array_equal(obs["observation"], expected)
        checked += 1
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert checked > 2


@pytest.mark.parametrize("name", ["house", "museumheist", "masterthief", "tictactoe"])
def test_each_legal_number_is_the_spaces_index_of_its_action(name: str) -> None:
    """The host looks numbers up by an action's fields (attrs actions) and keeps them
    for the step: every number is still the space's own index of that action (from
    the view for an action numbered from it: The House Job's all-in), the mask has
    exactly those ones, and submitting a number plays that very action."""
    from gameweave_core import Match, NotEnumerable, Rng
    from gameweave_rl import host as make_host

    title = REGISTRY.title(name)
    hosted = make_host(title, 2, {})
    checked = 0
    for seed in range(3):
        match = Match(title, 2, seed)
        policy = Rng(seed)
        while match.awaiting:
            seat = match.awaiting[0]
            legal = match.legal_actions(seat)
            expected = []
            for act in legal:
                try:
                    expected.append(hosted.space.index(act))
                except NotEnumerable:
                    expected.append(hosted.space.index(act, match.view(seat)))
            assert hosted.legal_numbers(match, seat) == expected
            assert list(np.flatnonzero(hosted.mask(match, seat))) == sorted(expected)
            pick = policy.randbelow(len(legal))
            hosted.submit(match, seat, expected[pick])
            assert match.actions()[-1] == (seat, title.codec.to_json(legal[pick]))
            checked += len(expected)
    assert checked > 100


@pytest.mark.parametrize("name", ["museumheist", "masterthief", "house"])
def test_a_resampled_state_gives_the_information_states_it_kept_before(name: str) -> None:
    """A state drawn by the resample hook plays on a match that keeps no information
    states, and makes the one that does when asked: both are the same state (one
    world drawn twice from one seed), and the drawn state gives the seat the
    information state of the state it was drawn from."""
    game = load_game(name, players=2)
    rs = np.random.RandomState(5)
    checked = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(outcomes, p=probs)))
                continue
            player = state.current_player()
            if rs.rand() < 0.3:
                drawn = state.resample_from_infostate(player, rs.rand)
                assert drawn.information_state_string(player) == (
                    state.information_state_string(player)
                )
                for _ in range(4):  # on, then a copy of it
                    if drawn.is_terminal():
                        break
                    if drawn.is_chance_node():
                        outcomes, probs = zip(*drawn.chance_outcomes(), strict=True)
                        drawn.apply_action(int(rs.choice(outcomes, p=probs)))
                    else:
                        drawn.apply_action(int(rs.choice(drawn.legal_actions())))
                for each in (drawn, drawn.clone()):
                    assert each.match.digest() == each._ref.recalling().digest()
                    assert each._ref.recalling().information_state(1)
                checked += 1
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert checked > 3
