"""Gameweave's pytest plugin: one randomness policy for every test run.

A test suite asks for it, in its top ``conftest.py``::

    pytest_plugins = ["gameweave_core.pytest_plugin"]

(or ``pytest -p gameweave_core.pytest_plugin``); installing ``gameweave`` alone
loads nothing into anyone's test run. It does three things, so that a test passes
or fails the same way on every run and machine:

- **Every match is seeded.** It sets ``GAMEWEAVE_REQUIRE_SEED=1`` for the whole
  run, and for the servers and commands the tests start: a match created without
  a seed then fails at once (:func:`gameweave_core.rng.fresh_seed` refuses) instead
  of playing a different game each run. A test of a server that picks seeds
  itself (one not in development mode) takes the ``fresh_seeds`` fixture: the
  seeds it picks then come from a fixed sequence, the same on every run.
- **One Hypothesis policy**, chosen by the environment variable
  ``GAMEWEAVE_HYPOTHESIS``: ``ci`` (``make test`` sets it; also the default when
  ``CI`` is set) draws the same examples on every run, with no example database;
  ``dev`` (the default otherwise) draws new ones each run from one seed, printed in
  the header, so a failure found by chance is replayed with
  ``--hypothesis-seed=N``. Neither sets a deadline: a test never asserts a time.
  ``--hypothesis-profile`` and ``--hypothesis-seed`` still win.
- **Ctrl-C reaches the programs a test drives.** A shell starts a background job
  (``make test &``, ``nohup``) with SIGINT ignored, and every program started
  from it would inherit that, so a test that presses Ctrl-C in a terminal would
  wait in vain. The run takes SIGINT back; the programs it starts then answer
  Ctrl-C as they do for a user.

The conformance kit (:mod:`gameweave_core.testing`) is derandomized under either
profile: a title's CI must not depend on luck.
"""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from .rng import FRESH_SEEDS_ENV, REQUIRE_SEED_ENV, reset_fresh_seeds

#: The environment variable naming the Hypothesis profile (``ci`` or ``dev``).
PROFILE_ENV = "GAMEWEAVE_HYPOTHESIS"
PROFILES = ("ci", "dev")


def chosen_profile() -> str:
    """The profile the environment asks for: ``GAMEWEAVE_HYPOTHESIS``, else ``ci``
    under CI, else ``dev``. An unknown name is a usage error, in one line."""
    name = os.environ.get(PROFILE_ENV) or ("ci" if os.environ.get("CI") else "dev")
    if name not in PROFILES:
        raise pytest.UsageError(f"{PROFILE_ENV}={name!r}: expected one of {', '.join(PROFILES)}")
    return name


def register_profiles() -> None:
    """Register the ``ci`` and ``dev`` Hypothesis profiles (idempotent)."""
    from hypothesis import HealthCheck, settings

    # too_slow is a wall-clock health check: on a busy machine it fails a good test.
    common: dict[str, Any] = {
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow],
        "print_blob": True,
    }
    # Each says what it draws outright: a profile registered while Hypothesis's own
    # "ci" profile is loaded (it loads itself when CI is set) would inherit from it.
    settings.register_profile("ci", derandomize=True, database=None, **common)
    settings.register_profile("dev", derandomize=False, **common)


@pytest.hookimpl(trylast=True)  # after Hypothesis's own plugin read its options
def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault(REQUIRE_SEED_ENV, "1")
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # A handler, unlike "ignored", is not inherited across exec.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        from hypothesis import core, settings
    except ImportError:  # a run without Hypothesis: nothing more to choose
        return
    register_profiles()
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile(chosen_profile())
    if settings.get_current_profile_name() == "dev" and core.global_force_seed is None:
        core.global_force_seed = random.SystemRandom().randrange(2**32)  # type: ignore[assignment]


def pytest_report_header(config: pytest.Config) -> str | None:
    try:
        from hypothesis import core, settings
    except ImportError:
        return None
    profile = settings.get_current_profile_name()
    seed = core.global_force_seed
    if seed is None:
        return f"gameweave: every match seeded; hypothesis profile {profile!r} (derandomized)"
    return (
        f"gameweave: every match seeded; hypothesis profile {profile!r}, seed {seed} "
        f"(replay with --hypothesis-seed={seed})"
    )


@pytest.fixture
def fresh_seeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Seeds a match's creator did not choose come from a fixed sequence for this
    test (and the servers it starts): the same games on every run, even where the
    test cannot choose (a server not in development mode)."""
    monkeypatch.setenv(FRESH_SEEDS_ENV, "20261201")
    reset_fresh_seeds()
    yield
    reset_fresh_seeds()
