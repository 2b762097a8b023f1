"""The randomness watch: while the kit runs a title or a bot, any draw from a
generator the core did not hand it, and any read of the clock, is refused and
named (:func:`watching_randomness`, :func:`only_generator`)."""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..match import Match
from ..rng import Rng

# -- randomness the core did not hand out ----------------------------------------------


class UnseededDraw(Exception):
    """Raised into a title (or bot) that draws from a generator the core did not hand
    it, or reads the clock, while the kit watches (see :func:`watching_randomness`).
    Whatever the title does with it, the kit then fails naming the draw."""


#: Modules whose own use of a clock or a random generator is nobody's business here:
#: the test runners (hypothesis times its draws), logging (which stamps each record)
#: and tempfile (which names files).
_BYSTANDERS = ("hypothesis", "_hypothesis", "_pytest", "pytest", "pluggy", "logging", "tempfile")
#: Modules passed over when looking for who drew: the random module's own methods and
#: this module's wrappers.
_PASSED_OVER = frozenset({"random", __name__})
#: The clocks of the time module a title or bot must not read.
_CLOCKS = (
    "time",
    "time_ns",
    "monotonic",
    "monotonic_ns",
    "perf_counter",
    "perf_counter_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
)
#: The draws every Python generator is built on: refusing them refuses ``shuffle``,
#: ``choice``, ``randint``, ``sample``, ``uniform`` and the rest, of the global
#: generator and of any other ``random.Random`` or ``SystemRandom``.
_DRAWS = ("random", "getrandbits", "randbytes")
#: Where a draw from the project's own generator goes in (for :func:`only_generator`).
_RNG_DRAWS = ("word", "randbelow", "randrange", "randint", "random", "choice", "shuffle", "sample")


def _drawer() -> tuple[str, str] | None:
    """Who is drawing: the random module's function it called (empty if none) and
    ``file:line in function`` of the first frame outside the random module and this
    one; ``None`` when that frame is a bystander module's."""
    frame: Any = sys._getframe(2)
    entry = ""
    while frame is not None and frame.f_globals.get("__name__") in _PASSED_OVER:
        if frame.f_globals.get("__name__") == "random":
            entry = frame.f_code.co_name
        frame = frame.f_back
    if frame is None:
        return None
    module = str(frame.f_globals.get("__name__", ""))
    if module.split(".")[0] in _BYSTANDERS:
        return None
    where = f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} in {frame.f_code.co_name}"
    return entry, where


def _match_step() -> str:
    """`` at step N`` when a :class:`Match` applying an action is on the stack (the
    plain-Python build; a compiled match shows no frames)."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        me = frame.f_locals.get("self")
        if isinstance(me, Match) and frame.f_code.co_name in (
            "_apply",
            "_submit",
            "take_bot_turn",
            "_run_bots",
        ):
            return f" at step {me.step + 1}"
        frame = frame.f_back
    return ""


class _Watch:
    """The patches behind :func:`watching_randomness`, applied once however deeply
    the kit nests its watches, and what they caught."""

    def __init__(self) -> None:
        self.depth = 0
        self.doing = ""
        self.caught: list[str] = []
        self._undo: list[tuple[Any, str, Any]] = []
        #: The thread the kit runs the title in: the patches are process-wide, and
        #: another thread (an event loop left by an earlier test, a server's) may read
        #: the clock meanwhile without being the title's doing.
        self.thread: int | None = None

    def watching(self) -> bool:
        """Whether the caller runs in the thread being watched."""
        return threading.get_ident() == self.thread

    def refuse(self, what: str, drawer: tuple[str, str]) -> None:
        entry, caller = drawer
        doing = self.doing if " step " in self.doing else self.doing + _match_step()
        self.caught.append(f"{doing}: {what.format(entry=entry)} (called from {caller})")
        raise UnseededDraw(f"the conformance kit refuses {what.format(entry=entry)} here")

    def _patch(self, owner: Any, name: str, wrapper: Any) -> None:
        self._undo.append((owner, name, owner.__dict__.get(name, _ABSENT)))
        setattr(owner, name, wrapper)

    def _refusing(self, what: str, original: Any, method: bool) -> Any:
        watch = self
        name = getattr(original, "__name__", "draw")

        if method:

            def refused_method(obj: Any, *args: Any, **kwargs: Any) -> Any:
                if not watch.watching():
                    return original(obj, *args, **kwargs)
                drawer = _drawer()
                if drawer is not None:
                    drawer = (drawer[0] or name, drawer[1])
                    shared = obj is getattr(random, "_inst", None)
                    watch.refuse(
                        "the global random module (random.{entry})" if shared else what, drawer
                    )
                return original(obj, *args, **kwargs)

            return refused_method

        def refused(*args: Any, **kwargs: Any) -> Any:
            if not watch.watching():
                return original(*args, **kwargs)
            drawer = _drawer()
            if drawer is not None:
                watch.refuse(what, drawer)
            return original(*args, **kwargs)

        return refused

    def start(self) -> None:
        self.thread = threading.get_ident()
        for name in _DRAWS:
            # The module's functions are bound to the global generator; the classes'
            # methods cover every other generator and the module's Python methods.
            if hasattr(random, name):
                what = f"the global random module (random.{name})"
                self._patch(random, name, self._refusing(what, getattr(random, name), False))
            for cls in (random.Random, random.SystemRandom):
                if hasattr(cls, name):
                    what = f"a generator the core did not hand out ({cls.__name__}.{{entry}})"
                    self._patch(cls, name, self._refusing(what, getattr(cls, name), True))
        self._patch(os, "urandom", self._refusing("os.urandom", os.urandom, False))
        for name in _CLOCKS:
            if hasattr(time, name):
                what = f"the clock (time.{name})"
                self._patch(time, name, self._refusing(what, getattr(time, name), False))

    def stop(self) -> None:
        self.thread = None
        while self._undo:
            owner, name, before = self._undo.pop()
            if before is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, before)


_ABSENT = object()
_WATCH = _Watch()


@contextmanager
def watching_randomness(doing: str) -> Iterator[None]:
    """While the block runs, any draw from Python's global ``random`` module, from any
    other ``random.Random`` or ``SystemRandom``, ``os.urandom`` or a clock of the
    ``time`` module (``time.time``, ``perf_counter``, ...) is refused: the title gets
    :class:`UnseededDraw` and, when the block ends, the kit fails naming ``doing``,
    the step when a match is applying an action, the draw and the line that made it.
    So a draw is caught the first time it happens, however rarely, even when it
    would not have changed the result. Calls from pytest, hypothesis, logging and
    tempfile pass, and so do calls from other threads (the patches are process-wide;
    the title runs in the thread that opened the watch). Draws the watch cannot see: a name imported from ``random`` or
    ``time`` before the block (``from random import random``), ``datetime.now``."""
    watch = _WATCH
    if watch.depth == 0:
        watch.start()
    watch.depth += 1
    outer, watch.doing = watch.doing, doing
    mark = len(watch.caught)
    try:
        yield
    finally:
        watch.depth -= 1
        watch.doing = outer
        caught = watch.caught[mark:]
        if watch.depth == 0:
            watch.stop()
            watch.caught.clear()
        if caught:
            # Raised here, it replaces whatever the title made of the refusal.
            raise AssertionError(
                f"{caught[0]}: titles and bots draw only from the Rng the core hands them "
                "and never read the clock"
            )


def _doing(what: str) -> None:
    """Say what the kit is doing now, for a refusal's message (inside a watch)."""
    if _WATCH.depth:
        _WATCH.doing = what


def _guarded(name: str, original: Any, allowed: list[Rng]) -> Any:
    """``Rng``'s method ``name`` watched by :func:`only_generator`."""
    if name == "__init__":

        def made(obj: Rng, *args: Any, **kwargs: Any) -> None:
            original(obj, *args, **kwargs)
            allowed.append(obj)

        return made

    def drawn(obj: Rng, *args: Any, **kwargs: Any) -> Any:
        if _WATCH.watching() and not any(obj is r for r in allowed):
            drawer = _drawer()
            if drawer is not None:
                what = f"a generator other than the Rng it was handed (Rng.{name}, seed {obj.seed})"
                _WATCH.refuse(what, drawer)
        return original(obj, *args, **kwargs)

    return drawn


@contextmanager
def only_generator(rng: Rng) -> Iterator[None]:
    """While a bot chooses (inside a :func:`watching_randomness` block): it may draw
    only from ``rng``, the generator it was handed, and from generators it makes
    while choosing (a search seeds its own from ``rng``). A draw from any other
    :class:`~gameweave_core.rng.Rng` (one made at import, or kept from an earlier
    call) is refused like a draw from the global ``random`` module. Checked where
    the core runs as plain Python; the compiled build's ``Rng`` cannot be watched,
    and there only the determinism check itself catches such a draw."""
    allowed = [rng]
    undo: list[tuple[str, Any]] = []
    try:
        try:
            for name in ("__init__", *_RNG_DRAWS):
                original = Rng.__dict__[name]
                setattr(Rng, name, _guarded(name, original, allowed))
                undo.append((name, original))
        except (TypeError, AttributeError):  # a compiled Rng: nothing to watch
            pass
        yield
    finally:
        for name, original in reversed(undo):
            setattr(Rng, name, original)
