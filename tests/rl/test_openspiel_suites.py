"""OpenSpiel's own checks on every title: ``pyspiel.random_sim_test`` with
serialization (each state's history deserialized through OpenSpiel's game registry
and replayed, chance outcomes included), and, for tic-tac-toe, ``get_all_states``
counting as many states as OpenSpiel's own tic-tac-toe."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python.algorithms.get_all_states import get_all_states

from gameweave_rl import NotHostable
from gameweave_rl.openspiel import load_game, register

from .conftest import CASE_IDS, CASES, REGISTRY, numbered


@pytest.mark.parametrize(("name", "players"), CASES, ids=CASE_IDS)
def test_random_sim_test(name: str, players: int) -> None:
    title = REGISTRY.title(name)
    try:
        # Registered so that deserialization finds the game by its name.
        short_name = register(title)
    except NotHostable as error:
        pytest.skip(f"{name} is not yet enumerable: {error}")
    game = pyspiel.load_game(short_name, {"players": players})
    assert game.num_players() == players
    # random_sim_test draws its own actions from a fixed default seed.
    with numbered(name):
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_tictactoe_has_as_many_states_as_openspiels() -> None:
    ours = load_game(REGISTRY.title("tictactoe"), players=2)
    theirs = pyspiel.load_game("tic_tac_toe")
    # Keyed by the state's string (the board), as OpenSpiel's tests of tic-tac-toe
    # do; a state reached again by another order of moves is counted once.
    ours_count, theirs_count = (
        len(get_all_states(game, to_string=str, stop_if_encountered=True))
        for game in (ours, theirs)
    )
    assert ours_count == theirs_count == 5478
