"""PettingZoo's own test suites on every title: ``api_test`` and ``seed_test`` on the
AEC environment, and ``parallel_api_test`` and ``parallel_seed_test`` where the title
has simultaneous choices (so a parallel environment)."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from gameweave_rl import NotHostable
from gameweave_rl.pettingzoo import env, parallel_env, raw_env

from .conftest import CASE_IDS, CASES, REGISTRY, numbered


def hosted_or_skip(name: str, players: int) -> None:
    """Skip, saying why, a title that does not yet declare what the adapter needs
    (its refusal itself is tested in test_refusals.py)."""
    try:
        raw_env(REGISTRY.title(name), players)
    except NotHostable as error:
        pytest.skip(f"{name} is not yet enumerable: {error}")


@pytest.mark.parametrize(("name", "players"), CASES, ids=CASE_IDS)
def test_api_test(name: str, players: int) -> None:
    hosted_or_skip(name, players)
    environment = env(REGISTRY.title(name), players)
    # api_test's first reset is seeded; its later ones continue that seed's sequence.
    with numbered(name):
        api_test(environment, num_cycles=200)


@pytest.mark.parametrize(("name", "players"), CASES, ids=CASE_IDS)
def test_seed_test(name: str, players: int) -> None:
    hosted_or_skip(name, players)
    title = REGISTRY.title(name)
    with numbered(name):
        seed_test(lambda: env(title, players), num_cycles=200)


@pytest.mark.parametrize(("name", "players"), CASES, ids=CASE_IDS)
def test_parallel_suites(name: str, players: int) -> None:
    hosted_or_skip(name, players)
    title = REGISTRY.title(name)
    if not raw_env(title, players).host.simultaneous:
        with pytest.raises(ValueError, match="one at a time"):
            parallel_env(title, players)
        pytest.skip(f"{name}: its seats act one at a time, so it has no parallel environment")
    with numbered(name):
        parallel_api_test(parallel_env(title, players), num_cycles=200)
        parallel_seed_test(lambda: parallel_env(title, players), num_cycles=200)
