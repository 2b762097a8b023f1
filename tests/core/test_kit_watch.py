"""The kit's watch on unseeded randomness (``watching_randomness``, ``only_generator``):
every draw the core did not hand out is refused the first time it happens, whatever
the title does with the refusal; and the watch leaves nothing behind."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import time
import types
from collections.abc import Callable
from typing import Any

import pytest

from gameweave_core import Rng
from gameweave_core.testing import only_generator, watching_randomness

#: Each draw through its module at call time (a name imported before the watch, like
#: ``from random import random``, is out of its sight, as the docs say).
DRAWS: list[tuple[str, Callable[[], Any]]] = [
    ("the global random module (random.random)", lambda: random.random()),
    ("the global random module (random.shuffle)", lambda: random.shuffle([1, 2, 3])),
    ("the global random module (random.randint)", lambda: random.randint(1, 6)),
    ("(Random.random)", lambda: random.Random(3).random()),
    ("(SystemRandom.", lambda: random.SystemRandom().randrange(9)),
    ("os.urandom", lambda: os.urandom(4)),
    ("the clock (time.time)", lambda: time.time()),
    ("the clock (time.perf_counter)", lambda: time.perf_counter()),
    ("the clock (time.monotonic_ns)", lambda: time.monotonic_ns()),
]


@pytest.mark.parametrize(("named", "draw"), DRAWS, ids=[d[0] for d in DRAWS])
def test_each_unseeded_draw_is_refused_and_named(named: str, draw: Callable[[], Any]) -> None:
    with pytest.raises(AssertionError) as caught, watching_randomness("a title: setup at step 0"):
        draw()
    message = str(caught.value)
    assert message.startswith("a title: setup at step 0: ") and named in message
    assert "test_kit_watch.py" in message  # the line that drew


def test_a_title_that_swallows_the_refusal_fails_all_the_same() -> None:
    with (
        pytest.raises(AssertionError, match=r"random\.random"),
        watching_randomness("apply"),
        contextlib.suppress(Exception),  # a careless title
    ):
        random.random()


def test_logging_and_seeded_project_generators_pass_and_nothing_is_left_behind() -> None:
    before = (random.random, random.Random.__dict__.get("random"), time.time, os.urandom)
    with watching_randomness("bots playing"):
        logging.getLogger("gameweave.test").warning("a record stamps the time")
        Rng(5).random()
    assert (random.random, random.Random.__dict__.get("random"), time.time, os.urandom) == before
    random.random()  # and the global generator works again


#: A generator made when the module is imported (a bot keeping one is the bug).
KEPT = Rng(11)


@pytest.mark.skipif(
    not isinstance(Rng.__dict__.get("word"), types.FunctionType),
    reason="the compiled build's Rng cannot be watched (the docs say so)",
)
def test_a_bot_may_draw_only_from_the_generator_it_is_handed_or_ones_it_makes() -> None:
    handed = Rng(1)
    with watching_randomness("bot 'b' for seat 1 at step 0"), only_generator(handed):
        handed.random()
        Rng(handed.randbelow(1000)).choice([1, 2])  # made while choosing: its own
    with (
        pytest.raises(
            AssertionError, match=r"other than the Rng it was handed \(Rng\.random, seed 11\)"
        ),
        watching_randomness("bot 'b' for seat 1 at step 0"),
        only_generator(handed),
    ):
        KEPT.random()
    assert "word" in Rng.__dict__ and not hasattr(Rng.word, "__wrapped__")


def test_another_threads_clock_and_draws_pass_while_the_titles_thread_is_watched() -> None:
    """The patches are process-wide: an event loop another test left running (it
    reads the clock) must not fail the title, nor be refused mid-loop."""
    import threading

    seen: list[Any] = []

    def bystander() -> None:
        seen.extend([time.monotonic(), random.random(), os.urandom(2)])

    with watching_randomness("a title: apply at step 1"):
        other = threading.Thread(target=bystander)
        other.start()
        other.join()
    assert len(seen) == 3  # nothing was refused, nothing caught
    # The watched thread's own clock is refused all the same.
    with (
        pytest.raises(AssertionError, match=r"time\.monotonic"),
        watching_randomness("a title: apply at step 2"),
    ):
        time.monotonic()
