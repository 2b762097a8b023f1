"""Bots: players that see exactly what a human in their seat would.

A bot is handed an :class:`Observation` (its seat, its legal actions, and lazily its
view and history, all built for that seat by the match) and its own seeded
:class:`~gameweave_core.rng.Rng`; it never receives the match or its state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .rng import Rng


class Sight(Protocol):
    """Where an :class:`Observation` builds its lazy parts, for any seat. A
    :class:`~gameweave_core.match.Match` is one; :class:`FunctionSight` makes one of
    plain functions."""

    def view(self, seat: int) -> dict[str, Any]: ...

    def history(self, seat: int) -> list[str]: ...

    def resample(self, seat: int, rng: Rng) -> Any: ...


class FunctionSight:
    """A :class:`Sight` of three functions of the seat (``resample_fn`` may be
    ``None``: then the observation cannot draw states)."""

    __slots__ = ("_history_fn", "_resample_fn", "_view_fn")

    def __init__(
        self,
        view_fn: Callable[[int], dict[str, Any]],
        history_fn: Callable[[int], list[str]],
        resample_fn: Callable[[int, Rng], Any] | None = None,
    ) -> None:
        self._view_fn = view_fn
        self._history_fn = history_fn
        self._resample_fn = resample_fn

    def view(self, seat: int) -> dict[str, Any]:
        return self._view_fn(seat)

    def history(self, seat: int) -> list[str]:
        return self._history_fn(seat)

    def resample(self, seat: int, rng: Rng) -> Any:
        if self._resample_fn is None:
            raise NotImplementedError("this observation cannot draw states (no resample hook)")
        return self._resample_fn(seat, rng)


class Observation:
    """What one seat may know when it must act.

    ``view`` and ``history`` are built on first use, by ``view_fn(seat)`` and
    ``history_fn(seat)``, so a bot that only needs the legal actions (like the
    random bot) costs the match nothing more. ``resample_fn(seat, rng)``, when
    given, draws a state from the seat's information set (see :meth:`resample`).

    A match passes itself as ``sight`` instead of the three functions: one object
    rather than three bound methods per bot turn, which took the compiled build's
    Match overhead from 1.29x to 1.25x the bare rules (``make bench``, overhead).
    """

    __slots__ = ("_history", "_sight", "_view", "legal", "seat")

    def __init__(
        self,
        seat: int,
        legal: Sequence[Any],
        view_fn: Callable[[int], dict[str, Any]] | None = None,
        history_fn: Callable[[int], list[str]] | None = None,
        resample_fn: Callable[[int, Rng], Any] | None = None,
        *,
        sight: Sight | None = None,
    ) -> None:
        self.seat = seat
        self.legal = legal
        if sight is None:
            if view_fn is None or history_fn is None:
                raise TypeError("an Observation needs view_fn and history_fn, or a sight")
            sight = FunctionSight(view_fn, history_fn, resample_fn)
        self._sight = sight
        self._view: dict[str, Any] | None = None
        self._history: list[str] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view, exactly as a human in the seat receives it."""
        if self._view is None:
            self._view = self._sight.view(self.seat)
        return self._view

    @property
    def history(self) -> list[str]:
        """The seat's history lines, oldest first."""
        if self._history is None:
            self._history = self._sight.history(self.seat)
        return self._history

    def resample(self, rng: Rng) -> Any:
        """A whole state the seat cannot tell from the real one, drawn from ``rng``
        by the title's resample hook (a *determinization*, for search bots).

        The draw depends only on what the seat knows and on ``rng``: the same draw
        from any state the seat cannot tell apart. The state is the bot's to change.
        Raises :class:`NotImplementedError` when the title cannot resample.
        """
        return self._sight.resample(self.seat, rng)


class SightedObservation(Observation):
    """An :class:`Observation` built by position from a sight: what a match hands
    its bot each turn (:meth:`Match.take_bot_turn`).

    The same object to the bot; it exists because ``Observation``'s keyword
    ``sight=`` costs CPython about 140 ns a call: 1,300 machine instructions of the
    11,500 ``Match`` added to a House Job action (``benchmarks/instructions.py``).
    """

    __slots__ = ()

    def __init__(self, seat: int, legal: Sequence[Any], sight: Sight) -> None:
        self.seat = seat
        self.legal = legal
        self._sight = sight
        self._view = None
        self._history = None


class Bot(Protocol):
    """Chooses one of ``observation.legal`` for its seat."""

    def act(self, observation: Observation, rng: Rng) -> Any: ...


#: Makes the bot for one seat of one match: ``factory(seat, players)``.
BotFactory = Callable[[int, int], Bot]


class RandomBot:
    """Plays a uniformly random legal action. Plays any title."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        # The bot runner (Match._run_bots) makes this same choice without calling
        # act, to spare building the observation: change the two together.
        return rng.choice(observation.legal)


def random_bot(seat: int, players: int) -> Bot:
    """The :data:`BotFactory` of :class:`RandomBot`."""
    return RandomBot()
