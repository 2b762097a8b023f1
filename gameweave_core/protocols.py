"""The modules a title is made of, as protocols that mypy checks.

A :class:`~gameweave_core.title.ModuleTitle` names its modules as class keywords
(``rules=rules, views=views, ...``). The keywords of the standard layout are typed
with the protocols below, so ``mypy --strict`` checks each module against the calls
the core and the adapters make: a module's ``apply`` that takes an extra required
argument, or returns something else than events, is an error in the class statement
that names the module, before anything runs. A title in one file names itself with
``game=`` (:class:`GameModule`: its rules and its view).

A protocol holds the functions every title of that kind of module must have. The
optional ones (``explain_illegal``, ``seat_label``, ``has_secrets``, ``check_config``
and the like) are checked when the class is made, against the same signatures as the
methods of :class:`~gameweave_core.title.Title` they become. The state is ``Any`` in
the class statement; each module's own annotations say what it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .bots import BotFactory
from .events import Event
from .outcome import Outcome
from .rng import Rng

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


class RulesModule(Protocol[S]):
    """``rules=``: the rules as plain functions of the state."""

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> S: ...

    def awaiting(self, state: S) -> Sequence[int]: ...

    def legal_actions(self, state: S, seat: int) -> Sequence[Any]: ...

    def apply(self, state: S, seat: int, action: Any, rng: Rng) -> Sequence[Event]: ...

    def outcome(self, state: S) -> Outcome | None: ...


class ViewsModule(Protocol[S_contra]):
    """``views=``: what a seat (``None``: a spectator) may know."""

    def view(self, state: S_contra, seat: int | None) -> dict[str, Any]: ...


class GameModule(RulesModule[S], ViewsModule[S], Protocol[S]):
    """``game=``: a title in one file, its rules and its view in one module."""


class ResampleModule(Protocol[S]):
    """``resample=``: the states a seat cannot tell from the real one."""

    def resample(self, state: S, seat: int | None, rng: Rng) -> S: ...


class TerminalModule(Protocol):
    """``terminal=``: actions as words, and a view as text, for the command line
    (``parse_action`` is optional: a title may read actions in its class)."""

    def describe_action(self, action: Any) -> str: ...

    def render_text(
        self, view: Mapping[str, Any], seat: int | None, width: int = 80
    ) -> str | None: ...


class BotsModule(Protocol):
    """``bots=``: the title's bots by name."""

    @property
    def BOTS(self) -> Mapping[str, BotFactory]: ...


class ActionsModule(Protocol):
    """``actions=``: the title's action classes."""

    @property
    def ACTIONS(self) -> Sequence[type]: ...


class TopicsModule(Protocol):
    """``rules_text=``: the rules as text, by topic."""

    @property
    def TOPICS(self) -> Mapping[str, str]: ...
