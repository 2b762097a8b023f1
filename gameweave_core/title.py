"""The title protocol: what a game plugin implements.

A title is a stateless object whose methods are the rules. State is whatever the
title likes (ideally a small attrs class); the core only passes it back to the
title, snapshots it for digests, and never shows it to anyone.

``apply`` may change the state in place: that keeps the hot path fast. The core
keeps matches atomic anyway: it checks the seat and the action against
``awaiting`` and ``legal_actions`` before calling ``apply``, and if a title raises
on a legal action the match rebuilds its state from the log.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from .actions import ActionCodec
from .bots import BotFactory
from .errors import ConfigError
from .events import Event
from .outcome import Outcome
from .rng import Rng

S = TypeVar("S")


def _kind(value: Any) -> str:
    """How a kind of option value is named in a refusal."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    return "nothing" if value is None else type(value).__name__


def _same_kind(value: Any, default: Any) -> bool:
    """Whether ``value`` is the kind of value ``default`` is (a whole number where a
    number is expected will do; ``True`` is never a number)."""
    if default is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, int | float)
    if isinstance(default, list | tuple):
        return isinstance(value, list | tuple)
    if isinstance(default, Mapping):
        return isinstance(value, Mapping)
    return isinstance(value, type(default))


class Title(abc.ABC, Generic[S]):
    """Base class of every game. Subclass it and fill in the rules.

    Class attributes give the metadata; ``actions`` lists the @action classes.
    """

    #: Slug used in logs, URLs and on the command line, e.g. ``"museum"``.
    name: ClassVar[str]
    #: Name shown to people, e.g. ``"The Museum Job"``.
    display_name: ClassVar[str]
    #: One line saying what the game is.
    summary: ClassVar[str] = ""
    #: The fewest seats a match may have (``check_config`` refuses fewer).
    min_players: ClassVar[int]
    #: The most seats a match may have (``check_config`` refuses more).
    max_players: ClassVar[int]
    #: The rules' version, recorded in logs. Change it when behaviour changes.
    version: ClassVar[str] = "1"
    #: The @action classes this title accepts.
    actions: ClassVar[tuple[type, ...]]
    #: Options a match may set, with their defaults.
    default_config: ClassVar[Mapping[str, Any]] = {}
    #: Names of options in ``default_config`` that fix hidden information (a stacked
    #: deck, chosen dice): for tests and development only. Listings and the HTTP API
    #: do not offer them (see :meth:`offered_options`).
    test_only_options: ClassVar[frozenset[str]] = frozenset()
    #: The bot the adapters use for a seat when none is named.
    default_bot: ClassVar[str] = "random"
    #: A JavaScript module (path relative to the title's package) that draws a view
    #: in the browser; ``None`` uses the generic renderer.
    web_renderer: ClassVar[str | None] = None
    #: A bound on the actions of one match, checked by the testing kit.
    max_actions: ClassVar[int] = 10_000

    @cached_property
    def codec(self) -> ActionCodec:
        """Converts this title's actions to and from their JSON form."""
        return ActionCodec(self.actions)

    def offered_options(self) -> dict[str, Any]:
        """The options players may choose, with their defaults: ``default_config``
        without the :attr:`test_only_options`."""
        return {k: v for k, v in self.default_config.items() if k not in self.test_only_options}

    # -- the rules -------------------------------------------------------------

    @abc.abstractmethod
    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> S:
        """The state at the start of a match."""

    @abc.abstractmethod
    def awaiting(self, state: S) -> Sequence[int]:
        """Seats whose action is needed now (several for simultaneous choices;
        empty once the match is over)."""

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[Any]:
        """Every action ``seat`` may submit now (empty when it is not awaited)."""

    @abc.abstractmethod
    def apply(self, state: S, seat: int, action: Any, rng: Rng) -> Sequence[Event]:
        """Carry out a legal action (may change ``state`` in place); return events."""

    @abc.abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """All that ``seat`` (``None``: a spectator) may know, as JSON-ready data.

        This is an allow-list: build it from what the seat may see, never by
        deleting secrets from the whole state. Leave out ``None`` values (TOML).
        """

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the match ended, or ``None`` while it goes on."""

    # -- optional refinements --------------------------------------------------

    def check_config(self, players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the player count and options; return the full config.

        Refuses, with one line, a player count outside ``min_players`` to
        ``max_players``, an option not in ``default_config``, and an option whose
        value is not the kind of value its default is (a list for a list, a whole
        number for a whole number, ``true``/``false`` for a flag). A title that
        takes options overrides this to check what is inside them (the items of a
        list, the range of a number), calling ``super().check_config`` first."""
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.display_name} takes {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        unknown = sorted(set(config) - set(self.default_config))
        if unknown:
            known = ", ".join(sorted(self.default_config)) or "none"
            raise ConfigError(f"unknown option(s) {', '.join(unknown)}; {self.name} takes: {known}")
        # The kind of value each option takes is its default's; what is inside a
        # list or table, and which values make sense, a title checks in its own
        # check_config (calling this one first).
        for key, value in config.items():
            default = self.default_config[key]
            if not _same_kind(value, default):
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                raise ConfigError(
                    f"option {key!r} must be {_kind(default)}, not {_kind(value)} ({shown})"
                )
        return {**self.default_config, **config}

    def seat_label(self, state: S, seat: int) -> str:
        """How people call a seat, e.g. ``"Thief"`` or ``"Crew 2 (Lookout)"``."""
        return f"Seat {seat}"

    def has_secrets(self, state: S, seat: int) -> bool:
        """Whether ``seat`` knows something another seat must not see (hot-seat
        play hides the screen between such seats)."""
        return True

    def explain_illegal(self, state: S, seat: int, action: Any) -> str | None:
        """Why a well-formed action is not legal, in words ``seat`` may read."""
        return None

    def resample(self, state: S, seat: int | None, rng: Rng) -> S:
        """A state drawn from those ``seat`` (None: a spectator) cannot tell apart from
        ``state``, given all it has observed so far; ``state`` is left untouched.

        This is the seat's *information set*. The returned state is a fresh object:
        in it the seat's view, legal actions, seat labels and everything else the
        seat receives are what they are in ``state``, while everything the seat has
        not observed (the order of undealt cards, other seats' hands, moves made out
        of its sight) is redrawn from ``rng``, as close to the true odds as is
        practical (uniform over consistent possibilities is acceptable; say so in
        the docstring where it is not exact). Same ``state``, ``seat`` and ``rng``:
        same result.

        The conformance kit builds its own twins from it (see
        :mod:`gameweave_core.testing`); a title without it raises
        :class:`NotImplementedError` here and :attr:`can_resample` is false.
        """
        raise NotImplementedError(f"{self.name} does not implement resample")

    @property
    def can_resample(self) -> bool:
        """Whether this title implements :meth:`resample`."""
        return type(self).resample is not Title.resample

    def reward(self, outcome: Outcome, seat: int) -> float:
        """How well ``seat`` did, from 0 to 1, for search bots (see
        :mod:`gameweave_core.ismcts`): 1 for a winner, else 0. A title whose seats
        care about more than winning (a crew's Take) may grade it from ``figures``."""
        return 1.0 if seat in outcome.winners else 0.0

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        """How the ``ismcts`` bot of ``seat`` (in a match of ``players``) searches
        this title unless told otherwise: fields of
        :class:`~gameweave_core.ismcts.SearchOptions` by name, e.g. a rollout bot,
        an iteration count that keeps one decision within a second, root
        ``candidates`` proposed by the title's bot, a rollout limit and an
        ``evaluate(state, seat)`` for the states it cuts off. The default, ``{}``,
        searches with the core's defaults (random rollouts)."""
        return {}

    def snapshot(self, state: S) -> Any:
        """The whole state as JSON-ready data, for digests. Never sent to a seat."""
        return self.codec.converter.unstructure(state)

    def bots(self) -> Mapping[str, BotFactory]:
        """This title's own bots by name (the core adds ``"random"``)."""
        return {}

    # -- presentation (adapters fall back to generic forms) ---------------------

    def describe_action(self, action: Any) -> str:
        """A short label for a legal action, for menus and buttons."""
        data = self.codec.to_json(action)
        kind = data.pop("type")
        rest = " ".join(f"{k}={v}" for k, v in data.items())
        return f"{kind} {rest}".strip()

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        """An action typed by a person. Raise ``ValueError`` with a helpful message."""
        text = text.strip()
        if text.startswith("{"):
            try:
                return self.codec.from_json(json.loads(text))
            except json.JSONDecodeError as exc:
                raise ValueError(f"not valid JSON: {exc.msg}") from None
        for act in legal:
            if self.describe_action(act) == text:
                return act
        raise ValueError(f"cannot read {text!r}: type a menu number or an action as JSON")

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        """The view drawn for a terminal (may use rich markup), or ``None`` for
        the adapters' generic rendering.

        ``width`` is the terminal's width in columns, as the adapter knows it (80
        when it does not): no line of the drawing may be longer once its markup is
        taken out, and a title may use a wider terminal for more detail. The
        command line lays the menu and the prompt out below the drawing, so a
        drawing that fits in 80 columns and about 17 rows leaves room for them in
        an 80 x 24 terminal."""
        return None

    def rules_text(self) -> Mapping[str, str] | None:
        """The rules for players, as topics: a mapping of topic name (a word or
        two, e.g. ``"guards"``) to its text in light Markdown (paragraphs, ``-``
        lists, ``**bold**``, backticks round what is typed); the first topic is
        the overview. ``None`` (the default): the title ships no rules text, and
        the adapters point to its documentation instead.

        Adapters show it on request (``rules`` and ``rules TOPIC`` in
        ``gameweave play``). A topic named ``actions`` whose list items open with
        an action's typed form in backticks (``- `walk K7`: ...``) also explains
        the choices at a newcomer's first prompts."""
        return None
