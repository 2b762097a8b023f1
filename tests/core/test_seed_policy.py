"""One randomness policy for every test run (gameweave_core.pytest_plugin): a match
created without a seed fails at once under the tests, a server that picks seeds
itself picks them from a fixed sequence, and Hypothesis has one profile for CI
(the same examples every run) and one for development (new ones, seed printed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from gameweave_core import Match
from gameweave_core.pytest_plugin import PROFILE_ENV, chosen_profile
from gameweave_core.rng import (
    FRESH_SEEDS_ENV,
    MAX_SEED,
    REQUIRE_SEED_ENV,
    UnseededMatch,
    fresh_seed,
    reset_fresh_seeds,
)
from gameweave_sealedbid.title import SealedBid


def test_the_plugin_requires_a_seed_for_the_whole_run() -> None:
    # Set once at start-up, so the servers and commands the tests start inherit it.
    assert os.environ.get(REQUIRE_SEED_ENV) == "1"


def test_a_match_without_a_seed_is_refused_under_the_tests() -> None:
    with pytest.raises(UnseededMatch) as caught:
        Match(SealedBid(), 2)
    message = str(caught.value)
    assert "\n" not in message and "seed" in message and REQUIRE_SEED_ENV in message
    assert Match(SealedBid(), 2, 7).seed == 7  # a chosen seed is fine


def test_fresh_seeds_come_from_a_fixed_sequence_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FRESH_SEEDS_ENV, "99")
    reset_fresh_seeds()
    first = [fresh_seed() for _ in range(3)]
    reset_fresh_seeds()
    assert [fresh_seed() for _ in range(3)] == first  # the same on every run
    assert len(set(first)) == 3 and all(0 <= s <= MAX_SEED for s in first)
    monkeypatch.setenv(FRESH_SEEDS_ENV, "100")
    reset_fresh_seeds()
    assert fresh_seed() != first[0]  # another sequence for another number


@pytest.mark.usefixtures("fresh_seeds")
def test_the_fresh_seeds_fixture_seeds_matches_nobody_seeded() -> None:
    a = Match(SealedBid(), 2)
    reset_fresh_seeds()
    assert Match(SealedBid(), 2).seed == a.seed


def test_outside_the_tests_a_fresh_seed_is_random(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_SEED_ENV)
    monkeypatch.delenv(FRESH_SEEDS_ENV, raising=False)
    seeds = {fresh_seed() for _ in range(4)}
    assert len(seeds) == 4 and all(0 <= s <= MAX_SEED for s in seeds)


@pytest.mark.parametrize(
    ("env", "ci", "expected"),
    [("ci", "", "ci"), ("dev", "true", "dev"), ("", "true", "ci"), ("", "", "dev")],
)
def test_the_profile_is_chosen_by_the_environment(
    monkeypatch: pytest.MonkeyPatch, env: str, ci: str, expected: str
) -> None:
    monkeypatch.setenv(PROFILE_ENV, env)
    monkeypatch.setenv("CI", ci)
    assert chosen_profile() == expected


def test_an_unknown_profile_is_a_one_line_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROFILE_ENV, "fast")
    with pytest.raises(pytest.UsageError, match=r"GAMEWEAVE_HYPOTHESIS='fast': expected one of"):
        chosen_profile()


def test_neither_profile_times_a_test_and_ci_draws_the_same_examples() -> None:
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert ci.deadline is None and dev.deadline is None
    assert ci.derandomize and ci.database is None
    assert not dev.derandomize


CHILD_SIGINT = """
import subprocess, sys

def test_a_program_the_test_starts_answers_ctrl_c():
    probe = "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out
"""


@pytest.mark.slow  # a pytest run of its own (make test runs it)
def test_a_run_started_in_the_background_passes_ctrl_c_on(tmp_path: Path) -> None:
    """A shell starts a background job with SIGINT ignored and its programs inherit
    that; the plugin takes SIGINT back, so the terminal tests' Ctrl-C reaches the
    command they drive (without it they wait for their timeout and fail)."""
    (tmp_path / "test_child.py").write_text(CHILD_SIGINT)

    def ignore_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def run(*plugin: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin]
        # No conftest in tmp_path: the plugin runs only where asked for (-p).
        return subprocess.run(
            [*command, str(tmp_path)],
            preexec_fn=ignore_sigint,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, REQUIRE_SEED_ENV: "1"},
        )

    with_plugin = run("-p", "gameweave_core.pytest_plugin")
    assert with_plugin.returncode == 0, with_plugin.stdout
    assert run().returncode == 1  # the inheritance the plugin undoes


OUTSIDE_PROJECT = """
import os

import pytest
from hypothesis import settings

from gameweave_core.rng import REQUIRE_SEED_ENV, fresh_seed


def test_nothing_of_gameweave_runs_unasked(pytestconfig, request):
    manager = pytestconfig.pluginmanager
    assert not manager.has_plugin("gameweave_core.pytest_plugin")
    assert not manager.has_plugin("gameweave_http.testing")
    assert REQUIRE_SEED_ENV not in os.environ
    fresh_seed()  # an unseeded match is this project's own business
    assert settings.get_current_profile_name() == "default"
    for fixture in ("fresh_seeds", "serve_title", "seat_pages"):
        with pytest.raises(pytest.FixtureLookupError):
            request.getfixturevalue(fixture)
"""


@pytest.mark.slow  # a pytest run of its own (make test runs it)
def test_a_project_outside_the_repository_sees_none_of_the_test_hooks(tmp_path: Path) -> None:
    """Installing gameweave changes no one else's test runs: its pytest plugins load
    only where a project asks for them (pytest_plugins in a conftest, or -p). A
    two-test project of its own, run by the same environment's pytest, gets no seed
    policy, no Hypothesis profile of Gameweave's and none of its fixtures."""
    project = tmp_path / "elsewhere"
    (project / "tests").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.pytest.ini_options]\ntestpaths = ['tests']\n")
    (project / "tests" / "test_mine.py").write_text(OUTSIDE_PROJECT)
    env = {k: v for k, v in os.environ.items() if k not in (REQUIRE_SEED_ENV, PROFILE_ENV)}
    env.pop("CI", None)  # Hypothesis's own CI profile would load itself under CI
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    alone = subprocess.run(
        command, cwd=project, capture_output=True, text=True, timeout=120, env=env
    )
    assert alone.returncode == 0, alone.stdout + alone.stderr
    # The same project opting in gets the policy: the check above can fail.
    asked = subprocess.run(
        [*command, "-p", "gameweave_core.pytest_plugin"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert asked.returncode == 1 and "has_plugin" in asked.stdout, asked.stdout
