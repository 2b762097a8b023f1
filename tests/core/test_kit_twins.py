"""The kit's automatic twins hold the resample hook to its contract, and say how."""

from __future__ import annotations

import copy
import types
from typing import Any

import pytest

from gameweave_core import Match, Rng, Title
from gameweave_core.testing import (
    SURFACES,
    TitleConformance,
    check_resampled_twins,
    difference,
    random_match,
    surfaces,
)
from gameweave_core.testing.moved import check_moved_twins
from gameweave_core.testing.twinrun import _around
from gameweave_core.testing.twins import CHANCE, CHOICE
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.state import State

from .pickpocket import Pickpocket
from .test_kit_mutations import ForgetsOnlyTheTakenCard


def test_a_twin_around_an_equal_state_receives_exactly_what_the_match_does() -> None:
    real = random_match(SealedBid(), 3, seed=4, steps=7)
    twin = _around(real, copy.deepcopy(real.state))
    pool = [{"type": "bid", "coins": c} for c in (-1, 0, 5, 99)]
    for seat in (1, 2, 3, None):
        mine = surfaces(real, seat, 0, pool)
        assert mine == surfaces(twin, seat, 0, pool)
        assert set(mine) <= set(SURFACES)
    assert twin.step == real.step and twin.actions() == real.actions()
    # A probe is never applied: refusing changes nothing.
    assert real.step == 7 and twin.step == 7


def test_surfaces_hold_every_refusal_and_mark_legal_probes() -> None:
    match = Match(SealedBid(), 2, seed=1)
    got = surfaces(match, 1, 0, [{"type": "bid", "coins": 21}, {"type": "bid", "coins": 3}])
    assert got["refusals"] == ["you hold 20 coins and cannot bid 21", "(legal)"]
    assert match.step == 0
    assert "refusals" not in surfaces(match, None)  # a spectator submits nothing


def test_difference_names_the_first_differing_place() -> None:
    assert difference({"a": [1, 2]}, {"a": [1, 3]}) == "['a'][1]: 2 vs 3"
    assert difference({"a": 1}, {}) == "['a']: 1 vs absent"
    assert difference([1], [1, 2]) == "the list: 1 items vs 2"


def kit_message(title: Title[Any]) -> str:
    kit = type("Kit", (TitleConformance,), {"title": title})()
    with pytest.raises(AssertionError) as caught:
        kit.test_secrets_are_kept()
    return str(caught.value)


class Meddling(SealedBid):
    """resample changes the state it was given."""

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        state.deck.reverse()
        return copy.deepcopy(state)


class Moody(SealedBid):
    """resample ignores its generator."""

    _calls = 0

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        Moody._calls += 1
        return super().resample(state, seat, Rng(Moody._calls))


class Forgetful(SealedBid):
    """resample redraws the seat's own bid too: something the seat knows."""

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        drawn = super().resample(state, None, rng)
        drawn.bids = {s: b + 1 if b < drawn.coins[s - 1] else b - 1 for s, b in drawn.bids.items()}
        return drawn


class Lazy(SealedBid):
    """resample draws nothing: the real state, copied."""

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        return copy.deepcopy(state)


@pytest.mark.parametrize(
    ("title", "words"),
    [
        (Meddling(), "changed the state it was given"),
        (Moody(), "is not deterministic: one state and one generator gave different states"),
        (Forgetful(), "'s view differs between the match and the state resample drew"),
        (Lazy(), "depends on more than"),
    ],
    ids=["meddling", "moody", "forgetful", "lazy"],
)
def test_a_resample_hook_breaking_its_contract_fails_the_kit(title: Title[Any], words: str) -> None:
    assert words in kit_message(title)


def test_the_twins_compare_many_steps_and_tell_how_many() -> None:
    stats = check_resampled_twins(SealedBid(), 4, seed=11, forks=4, moved_spines=0)
    # One twin per fork step (steps drawn may coincide) for each of 4 seats and the
    # spectator; each is compared at least where it was drawn. The twins of the steps
    # where hidden state moved are made only for the observers told the same there.
    moved = stats.made.get(CHANCE, 0) + stats.made.get(CHOICE, 0)
    forked = stats.twins - moved
    assert moved > 0 and forked >= 5 and forked % 5 == 0
    assert stats.redrawn and stats.comparisons >= stats.twins


def draws_can_be_changed() -> bool:
    """Whether the kit can make one of a step's draws come out otherwise: only in a
    plain-Python match (a compiled match takes no generator but the core's own, as
    docs/reference/testing.md says)."""
    return isinstance(Rng.__dict__.get("randbelow"), types.FunctionType)


def test_twins_are_made_at_the_steps_where_hidden_state_moved() -> None:
    """Every step is tried with one chance draw or the actor's choice changed; where
    the state differs and an observer is told the same, a twin is played: chance in
    Pickpocket (a card taken at random), choices in Sealed Bids (another sealed bid)."""
    chosen = check_moved_twins(SealedBid(), 3, 0)
    assert chosen.made.get(CHOICE, 0) > 0 and chosen.comparisons > 0
    if not draws_can_be_changed():
        pytest.skip("a compiled match's draws cannot be changed (the docs say so)")
    drawn = check_moved_twins(Pickpocket(), 3, 0)
    assert drawn.made.get(CHANCE, 0) > 0 and drawn.comparisons > 0


@pytest.mark.parametrize("seed", range(3))
def test_a_leak_of_a_card_taken_at_random_fails_the_moved_twins_alone(seed: int) -> None:
    if not draws_can_be_changed():
        pytest.skip("a compiled match's draws cannot be changed (the docs say so)")
    with pytest.raises(AssertionError, match=r"view differs from a twin's at step \d+"):
        check_moved_twins(ForgetsOnlyTheTakenCard(), 3, seed)
