"""The heuristic bot: plays whole games, only from its view, and beats the random bot."""

from __future__ import annotations

from gameweave_museumheist import MuseumHeist, rules, views
from gameweave_museumheist.actions import Challenge, Move
from gameweave_museumheist.bots import HeuristicBot, beliefs
from helpers import position

from gameweave_core import Match, Rng, play_out
from gameweave_core.bots import Observation

TITLE = MuseumHeist()


def test_the_heuristic_bot_is_the_default() -> None:
    assert TITLE.default_bot == "heuristic" and "heuristic" in TITLE.bots()


def test_heuristic_beats_random_in_seat_swapped_games() -> None:
    # The figure in the docs comes from `gameweave simulate`; this is a small check.
    wins = games = 0
    for seed in range(15):
        for heuristic in (1, 2):
            match = Match(TITLE, 2, seed)
            play_out(match, {heuristic: "heuristic", 3 - heuristic: "random"})
            result = match.outcome()
            assert result is not None
            wins += result.winners == (heuristic,)
            games += 1
    assert wins >= 0.8 * games


def test_beliefs_follow_the_moves_a_seat_made() -> None:
    view = {
        "players": 2,
        "out": [],
        "known": {},
        "ruled_out": {"2": ["boy"]},
        "moves": [
            {"seat": 2, "piece": "guard", "from": "A1", "to": "B2"},
            {"seat": 2, "piece": "guard", "from": "B2", "to": "C3"},
            {"seat": 1, "piece": "artist", "from": "A3", "to": "B3"},
        ],
    }
    b = beliefs(view, 1)
    assert set(b) == {2} and "boy" not in b[2]
    assert max(b[2], key=b[2].get) == "guard"  # type: ignore[arg-type]
    assert abs(sum(b[2].values()) - 1) < 1e-9


def test_the_bot_lands_its_own_piece_when_it_can() -> None:
    state = position({"artist": "E4"}, "E5", chosen=["artist", "duchess"])
    obs = Observation(1, rules.legal_actions(state, 1), lambda s: views.view(state, s), no_history)
    assert HeuristicBot().act(obs, Rng(1)) == Move("artist", "E5")


def test_the_bot_challenges_a_seat_whose_piece_it_has_watched_and_that_can_land() -> None:
    state = position({"guard": "E4", "artist": "A1"}, "E5", chosen=["artist", "guard"])
    state.moves = [(2, "guard", 0, 0), (2, "guard", 0, 0)]  # seat 2 moved the Guard twice
    obs = Observation(1, rules.legal_actions(state, 1), lambda s: views.view(state, s), no_history)
    assert HeuristicBot().act(obs, Rng(1)) == Challenge(2, "guard")
    state.moves = []  # no evidence: no challenge
    obs = Observation(1, rules.legal_actions(state, 1), lambda s: views.view(state, s), no_history)
    assert not isinstance(HeuristicBot().act(obs, Rng(1)), Challenge)


def no_history(seat: int) -> list[str]:
    """The history an observation built by hand offers: none."""
    return []
