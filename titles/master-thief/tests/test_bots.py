"""Master Thief's bots: the heuristic bot is the default, plays from its view alone,
and beats the random bot head to head, seats swapped."""

from __future__ import annotations

from helpers import REGISTRY, TITLE

from gameweave_core import Match, play_out


def test_the_heuristic_bot_is_the_default() -> None:
    assert TITLE.default_bot == "heuristic"
    assert "heuristic" in REGISTRY.bots(TITLE)


def test_the_heuristic_bot_beats_the_random_bot_seats_swapped() -> None:
    """A regression guard on 200 games (the docs give the 1,000-game figure)."""
    wins = 0
    for seed in range(100):
        for h in (1, 2):
            match = Match(TITLE, 2, seed)
            play_out(match, {h: "heuristic", 3 - h: "random"}, REGISTRY)
            result = match.outcome()
            assert result is not None
            wins += result.winners == (h,)
    assert wins >= 150, f"the heuristic bot won {wins} of 200"


def test_heuristic_games_end_every_way_the_rules_allow() -> None:
    reasons = set()
    for seed in range(60):
        match = Match(TITLE, 2 + seed % 5, seed)
        play_out(match, None, REGISTRY)
        result = match.outcome()
        assert result is not None
        reasons.add(result.reason)
    assert reasons == {"escapes", "strikes", "time"}
