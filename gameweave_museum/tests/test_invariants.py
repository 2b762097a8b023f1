"""Whole-game invariants, checked after every step of random and heuristic play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gameweave_core import Match
from gameweave_core.runner import play_out
from gameweave_core.testing import random_match, seeds
from gameweave_museum import MuseumJob, rules
from gameweave_museum.floorplan import quayside_palace
from gameweave_museum.state import DAWN, OVER

TITLE = MuseumJob()
PLAN = quayside_palace()


def check_invariants(match: Match) -> None:
    previous = None
    for step in match.steps():
        state = step.state
        if state.thief >= 0 and state.ended != "catch":
            assert state.thief not in state.guards, "the Thief shares a square with a guard"
        posted = [g for g in state.guards if g >= 0]
        assert len(posted) == len(set(posted)), "two guards on one square"
        if state.phase != OVER:
            assert state.round + state.dawn == DAWN + 1
        assert set(state.revealed) <= set(state.taken)
        assert all(state.revealed[c] == state.taken[c] for c in state.revealed)
        assert set(state.dead_cameras) <= set(state.cut_cameras)
        assert set(state.dark_wings) <= set(state.cut_breakers)
        assert all(sq in {e.square for e in PLAN.exits} for sq in state.open_exits)
        if previous is not None:
            value, evidence = previous
            assert rules.satchel_value(PLAN, state) >= value, "the satchel lost value"
            assert state.evidence[: len(evidence)] == evidence, "evidence was taken back"
        previous = (rules.satchel_value(PLAN, state), list(state.evidence))
    assert match.outcome() is not None


@settings(max_examples=15, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=seeds)
def test_invariants_hold_in_random_play(players: int, seed: int) -> None:
    check_invariants(random_match(TITLE, players, seed))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=seeds)
def test_invariants_hold_in_heuristic_play(players: int, seed: int) -> None:
    match = Match(TITLE, players, seed)
    play_out(match)
    check_invariants(match)
