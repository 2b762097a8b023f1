"""The title protocol: what a game plugin implements.

A title is a stateless object whose methods are the rules. State is whatever the
title likes (ideally a small attrs class); the core only passes it back to the
title, snapshots it for digests, and never shows it to anyone.

``apply`` may change the state in place: that keeps the hot path fast. The core
keeps matches atomic anyway: it checks the seat and the action against
``awaiting`` and ``legal_actions`` before calling ``apply``, and if a title raises
on a legal action the match rebuilds its state from the log.

Two ways to write one:

- a :class:`Title` subclass whose methods are the rules (a small game in one file);
- a :class:`ModuleTitle` subclass that names the modules holding the rules as plain
  functions (``rules``, ``views``, ...): every method the class does not write is
  the module function of the same name, bound once when the class is made.
"""

from __future__ import annotations

import abc
import copy
import importlib
import inspect
import json
import pickle
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .actions import ActionCodec
from .bots import BotFactory
from .errors import ConfigError
from .events import Event
from .facts import GameFacts
from .observation import ObservationSpec, Schema
from .outcome import Outcome
from .protocols import (
    ActionsModule,
    BotsModule,
    GameModule,
    ResampleModule,
    RulesModule,
    TerminalModule,
    TopicsModule,
    ViewsModule,
)
from .rng import Rng

S = TypeVar("S")
T = TypeVar("T")


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


def pickled_copy(value: T) -> T:
    """An independent copy of ``value``: through :mod:`pickle` and back, or by
    :func:`copy.deepcopy` for what pickle cannot take (a class defined inside a
    function). The default :meth:`Title.copy_state`, and a title's own ``resample``
    may call it for the state it draws from (2.5 to 4 times faster than
    :func:`copy.deepcopy` on the shipped titles' states)."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))  # type: ignore[no-any-return]
    except Exception:  # pickle raises several kinds for what it cannot take
        return copy.deepcopy(value)


class Title(abc.ABC, Generic[S]):
    """Base class of every game. Subclass it and fill in the rules.

    Class attributes give the metadata; ``actions`` lists the @action classes. Six
    methods are the rules and must be written: :meth:`setup`, :meth:`awaiting`,
    :meth:`legal_actions`, :meth:`apply`, :meth:`view` and :meth:`outcome`. Every
    other method has a default, stated in its docstring, which a title overrides
    only where the default does not fit.
    """

    #: Slug used in logs, URLs and on the command line, e.g. ``"museum"``. Required.
    name: ClassVar[str]
    #: Name shown to people, e.g. ``"The Museum Job"``. Required.
    display_name: ClassVar[str]
    #: One line saying what the game is. Default: empty.
    summary: ClassVar[str] = ""
    #: The fewest seats a match may have (``check_config`` refuses fewer). Required.
    min_players: ClassVar[int]
    #: The most seats a match may have (``check_config`` refuses more). Required.
    max_players: ClassVar[int]
    #: The rules' version, recorded in logs. Change it when behaviour changes.
    #: Default: ``"1"``.
    version: ClassVar[str] = "1"
    #: The @action classes this title accepts. Required (a :class:`ModuleTitle`
    #: takes it from a module's ``ACTIONS``).
    actions: ClassVar[tuple[type, ...]]
    #: Options a match may set, with their defaults. Default: none.
    default_config: ClassVar[Mapping[str, Any]] = {}
    #: Names of options in ``default_config`` that fix hidden information (a stacked
    #: deck, chosen dice): for tests and development only. Listings and the HTTP API
    #: do not offer them (see :meth:`offered_options`). Default: none.
    test_only_options: ClassVar[frozenset[str]] = frozenset()
    #: The bot the adapters use for a seat when none is named. Default: ``"random"``.
    default_bot: ClassVar[str] = "random"
    #: A JavaScript module (path relative to the title's package) that draws a view
    #: in the browser. Default: ``None``, the generic renderer.
    web_renderer: ClassVar[str | None] = None
    #: A bound on the actions of one match, checked by the testing kit. Default: 10,000.
    max_actions: ClassVar[int] = 10_000

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "read_action" in cls.__dict__:
            # The JSON route is the core's, so that no title can drop it.
            raise TypeError(
                f"{cls.__name__} overrides read_action, which the core owns; "
                "override parse_action to read the title's own notation"
            )

    @cached_property
    def codec(self) -> ActionCodec:
        """Converts this title's actions to and from their JSON form."""
        return ActionCodec(self.actions)

    def offered_options(self) -> dict[str, Any]:
        """The options players may choose, with their defaults: ``default_config``
        without the :attr:`test_only_options`."""
        return {k: v for k, v in self.default_config.items() if k not in self.test_only_options}

    # -- the rules (required) --------------------------------------------------

    @abc.abstractmethod
    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> S:
        """The state at the start of a match. All chance comes from ``rng``."""

    @abc.abstractmethod
    def awaiting(self, state: S) -> Sequence[int]:
        """Seats whose action is needed now (several for simultaneous choices;
        empty once the match is over)."""

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[Any]:
        """Every action ``seat`` may submit now (empty when it is not awaited)."""

    @abc.abstractmethod
    def apply(self, state: S, seat: int, action: Any, rng: Rng) -> Sequence[Event]:
        """Carry out a legal action (may change ``state`` in place); return events.

        Each event carries its audience (see :class:`~gameweave_core.events.Event`);
        the convention for a title's own rule functions is in the architecture page,
        "How rule functions report events"."""

    @abc.abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """All that ``seat`` (``None``: a spectator) may know, as JSON-ready data.

        This is an allow-list: build it from what the seat may see, never by
        deleting secrets from the whole state. Leave out ``None`` values (TOML).
        """

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the match ended, or ``None`` while it goes on."""

    # -- optional refinements (each has a default) ------------------------------

    def check_config(self, players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the player count and options; return the full config.

        Default: refuses, with one line, a player count outside ``min_players`` to
        ``max_players``, an option not in ``default_config``, and an option whose
        value is not the kind of value its default is (a list for a list, a whole
        number for a whole number, ``true``/``false`` for a flag); returns the
        defaults updated with ``config``. A title that takes options overrides this
        to check what is inside them (the items of a list, the range of a number),
        calling ``super().check_config`` first (a :class:`ModuleTitle` does that
        for a module's ``check_config(players, config)``)."""
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
        """How people call a seat, e.g. ``"Thief"`` or ``"Crew 2 (Lookout)"``. Every
        seat and spectator reads every label, so it must not depend on a secret.
        Default: ``"Seat 1"``, ``"Seat 2"``, ..."""
        return f"Seat {seat}"

    def has_secrets(self, state: S, seat: int) -> bool:
        """Whether ``seat`` knows something another seat must not see (hot-seat
        play hides the screen between such seats). Default: ``True`` (the safe
        answer); a game with nothing hidden returns ``False``."""
        return True

    def explain_illegal(self, state: S, seat: int, action: Any) -> str | None:
        """Why a well-formed action is not legal, in words ``seat`` may read.
        Default: ``None``, and the core says the action "is not a legal action
        for seat N now"."""
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
        :mod:`gameweave_core.testing`) and the ``ismcts`` bot searches with it.
        Default: none; this raises :class:`NotImplementedError` and
        :attr:`can_resample` is false (the kit then fails a title with secrets).
        """
        raise NotImplementedError(f"{self.name} does not implement resample")

    @property
    def can_resample(self) -> bool:
        """Whether this title implements :meth:`resample`."""
        return type(self).resample is not Title.resample

    def reward(self, outcome: Outcome, seat: int) -> float:
        """How well ``seat`` did, from 0 to 1, for search bots (see
        :mod:`gameweave_core.ismcts`). Default: 1 for a winner, else 0. A title whose
        seats care about more than winning (a crew's Take) may grade it from
        ``figures``."""
        return 1.0 if seat in outcome.winners else 0.0

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        """How the ``ismcts`` bot of ``seat`` (in a match of ``players``) searches
        this title unless told otherwise: fields of
        :class:`~gameweave_core.ismcts.SearchOptions` by name, e.g. a rollout bot,
        an iteration count that keeps one decision within a second, root
        ``candidates`` proposed by the title's bot, a rollout limit and an
        ``evaluate(state, seat)`` for the states it cuts off. Default: ``{}``, the
        core's defaults (random rollouts)."""
        return {}

    def snapshot(self, state: S) -> Any:
        """The whole state as JSON-ready data, for digests. Never sent to a seat.
        Default: the state unstructured by the codec's converter (attrs classes,
        lists, dicts and primitives come out as they are)."""
        return self.codec.converter.unstructure(state)

    def readable_snapshot(self, state: S) -> Any:
        """The whole state as a maintainer reads it (``gameweave replay --state`` and
        ``--diff``): :meth:`snapshot`'s data with what it numbers for compactness
        named as the players name it (a square ``"K7"`` rather than ``98``).
        Never used for digests, so a title may change it freely. Default: the
        snapshot itself."""
        return self.snapshot(state)

    def bots(self) -> Mapping[str, BotFactory]:
        """This title's own bots by name. Default: none (the registry adds
        ``random`` for every title, and the bots plugins register)."""
        return {}

    # -- declarations for algorithms (see gameweave_core.space, .observation, .facts)

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema | None:
        """The shape of this title's views for ``players`` seats and ``config``,
        built from the constructors of :mod:`gameweave_core.observation`
        (``Record``, ``ListOf``, ``OneOf``, ``IntRange``, ...). The core encodes
        every view with it (see :meth:`observation_spec`). Default: ``None``, no
        declared schema (the title has no observation tensor)."""
        return None

    def action_list(self, players: int, config: Mapping[str, Any]) -> Sequence[Any]:
        """Every action of this title for ``players`` and ``config``, in the order
        that numbers them: for a title whose fields' domains (see
        :func:`gameweave_core.values`) would give a product mostly of actions that
        can never be legal. Default: not written; the action space is the product
        of the declared field domains (see :mod:`gameweave_core.space`)."""
        raise NotImplementedError(f"{self.name} does not list its actions")

    def utilities(self, outcome: Outcome, players: int) -> Sequence[float]:
        """The utility of each seat (seat 1 first) at the end, for game-playing
        algorithms; their kind of sum and bounds are in :meth:`game_facts`.
        Default: 1 for each winner and 0 for every other seat (general-sum, 0 to 1)."""
        winners = outcome.winners
        return tuple(1.0 if s in winners else 0.0 for s in range(1, players + 1))

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts | None:
        """What this title states about itself for ``players`` and ``config``: the
        most outcomes of one random draw, whether seats may choose at once, the
        kind of sum and bounds of :meth:`utilities` (see
        :class:`~gameweave_core.GameFacts`). Default: ``None``, undeclared."""
        return None

    def copy_state(self, state: S) -> S:
        """An independent copy of ``state``: changing one never changes the other
        (for :meth:`gameweave_core.Match.clone` and explicit chance). Default:
        :func:`pickled_copy`; a title may write a faster one."""
        return pickled_copy(state)

    def observation_spec(self, players: int, config: Mapping[str, Any]) -> ObservationSpec | None:
        """The observation derived from :meth:`view_schema` (``None`` without one).
        The core's, not a hook: encoded from a view with ``spec.encode(view)``."""
        schema = self.view_schema(players, config)
        return None if schema is None else ObservationSpec.of(schema)

    # -- presentation (adapters fall back to generic forms) ---------------------

    def describe_action(self, action: Any) -> str:
        """A short label for a legal action, for menus and buttons. Default: the
        JSON form's type and fields, e.g. ``"bid coins=7"``."""
        data = self.codec.to_json(action)
        kind = data.pop("type")
        rest = " ".join(f"{k}={v}" for k, v in data.items())
        return f"{kind} {rest}".strip()

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        """An action typed by a person in the title's own notation; raise
        ``ValueError`` with a helpful one-line message when ``text`` is not one.

        The adapters call :meth:`read_action`, which has already read the
        canonical JSON form (text opening with ``{``) before this is called, so a
        title never handles JSON here. ``legal`` is the seat's legal actions now.
        Default: the legal action whose :meth:`describe_action` label is ``text``."""
        text = text.strip()
        for act in legal:
            if self.describe_action(act) == text:
                return act
        raise ValueError(f"cannot read {text!r}: type a menu number or an action as JSON")

    def read_action(self, text: str, legal: Sequence[Any]) -> Any:
        """The action a person typed, as the adapters read it: the canonical JSON
        form (``{"type": "bid", "coins": 7}``) for every title, else the title's
        own notation through :meth:`parse_action`.

        The core owns this route (a subclass may not override it), so every
        title accepts the JSON form everywhere. Raises ``ValueError`` for text
        that is not valid JSON, :class:`~gameweave_core.errors.MalformedAction`
        for JSON that is no action of this title."""
        stripped = text.strip()
        if stripped.startswith("{"):
            try:
                data = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise ValueError(f"not valid JSON: {exc.msg}") from None
            return self.codec.from_json(data)
        return self.parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        """The view drawn for a terminal (may use rich markup), built from the view
        alone. Default: ``None``, and the adapters draw the view generically.

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
        the overview. Default: ``None``, the title ships no rules text, and the
        adapters point to its documentation instead.

        Adapters show it on request (``rules`` and ``rules TOPIC`` in
        ``gameweave play``). A topic named ``actions`` whose list items open with
        an action's typed form in backticks (``- `walk K7`: ...``) also explains
        the choices at a newcomer's first prompts."""
        return None


#: The methods a :class:`ModuleTitle` takes from its modules: each is the module
#: function of the same name, bound as it is (no forwarding call in between).
MODULE_FUNCTIONS: tuple[str, ...] = (
    "setup",
    "awaiting",
    "legal_actions",
    "apply",
    "explain_illegal",
    "outcome",
    "view",
    "seat_label",
    "has_secrets",
    "resample",
    "reward",
    "search_defaults",
    "snapshot",
    "readable_snapshot",
    "describe_action",
    "parse_action",
    "render_text",
    "view_schema",
    "action_list",
    "utilities",
    "game_facts",
    "copy_state",
)

#: The constants a :class:`ModuleTitle` takes from its modules, and what each becomes:
#: ``ACTIONS`` the :attr:`Title.actions` attribute, ``BOTS`` what :meth:`Title.bots`
#: returns, ``TOPICS`` what :meth:`Title.rules_text` returns.
MODULE_CONSTANTS: Mapping[str, str] = {"ACTIONS": "actions", "BOTS": "bots", "TOPICS": "rules_text"}

#: Where a module's ``check_config`` goes: after :meth:`Title.check_config`.
_CHECK_CONFIG = "check_config"


def _returns(value: Any, doc: str) -> Callable[[Any], Any]:
    def method(self: Any) -> Any:
        return value

    method.__doc__ = doc
    return method


def _after_base_check(check: Callable[[int, dict[str, Any]], dict[str, Any]]) -> Any:
    def check_config(self: Title[Any], players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        return check(players, Title.check_config(self, players, config))

    check_config.__doc__ = (
        "The options checked by :meth:`Title.check_config`, then by the module's "
        f"``{check.__module__}.check_config``."
    )
    return check_config


def _protocol(name: str) -> tuple[list[str], list[str]]:
    """The parameters ``Title.<name>`` is called with (without ``self``): those the
    adapters always pass, by position, and those with a default, by keyword."""
    params = list(inspect.signature(getattr(Title, name)).parameters.values())[1:]
    return (
        [p.name for p in params if p.default is p.empty],
        [p.name for p in params if p.default is not p.empty],
    )


def _check_callable(owner: str, name: str, where: str, fn: Any) -> None:
    """Refuse, when the class is made, a module function that cannot take the
    arguments the core and the adapters call ``name`` with."""
    if not callable(fn):
        raise TypeError(f"{owner}: {where}.{name} is not a function, so it cannot be {name}")
    positional, keywords = _protocol(name)
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # some compiled functions have no signature
        return
    try:
        signature.bind(*positional, **dict.fromkeys(keywords))
    except TypeError as exc:
        shown = ", ".join([*positional, *(f"{k}=..." for k in keywords)])
        raise TypeError(
            f"{owner}: {where}.{name}{signature} cannot be called as {name}({shown}): {exc}"
        ) from None


class ModuleTitle(Title[S]):
    """A title whose rules live in modules as plain functions, named once.

    The subclass names its modules as class keywords; each method it does not
    write itself is the module function of the same name::

        class SealedBid(
            ModuleTitle[State],
            actions=actions,
            rules=rules,
            views=views,
            resample=resample,
            bots=bots,
            terminal=terminal,
        ):
            name = "sealedbid"
            ...

    - Every name of :data:`MODULE_FUNCTIONS` (``setup``, ``awaiting``,
      ``legal_actions``, ``apply``, ``view``, ``outcome``, ``seat_label``,
      ``resample``, ``describe_action``, ...) found in a module becomes that
      method, bound as a ``staticmethod``: ``title.apply(...)`` calls
      ``rules.apply(...)`` itself, with no forwarding call in between.
    - A module's ``check_config(players, config)`` runs after the base
      :meth:`Title.check_config` (the player count and the kinds of options).
    - ``ACTIONS`` becomes :attr:`Title.actions`, ``BOTS`` what :meth:`Title.bots`
      returns, and ``TOPICS`` what :meth:`Title.rules_text` returns.

    A title in one file names itself: ``game=`` the module, imported in itself
    (``import gameweave_heist`` at its top: the module running the class statement is
    already importable by its name, its functions above the class already in it). A
    keyword's value may also be a module's name (``rules=__name__``), which mypy
    cannot check. The standard keywords (``actions``, ``rules``, ``game``, ``views``,
    ``resample``, ``bots``, ``terminal``, ``rules_text``) are typed with the
    protocols of :mod:`gameweave_core.protocols`, so ``mypy --strict`` reports a
    module whose function does not fit the call the core makes; any other keyword
    names a module of the title's own (its name is for people), searched after them.
    A name two modules define
    differently is an error (write the method in the class to choose), and so
    is a module that supplies nothing or a function that cannot take the
    arguments the core passes, all raised when the class is made, not at the
    first call. A method written in the class, or in a base class between it
    and :class:`ModuleTitle`, wins over the modules. :attr:`module_bindings`
    says where each bound method came from.

    mypy checks the modules of the standard keywords against their protocols (the
    functions every title of that kind has); every bound function, optional ones
    included, is also checked at run time (the count of arguments, when the class
    is made) and by the conformance kit.
    """

    #: For each method or attribute taken from a module: ``"module.name"``.
    module_bindings: ClassVar[Mapping[str, str]] = {}
    #: The names this very class bound from its modules (not its bases).
    _bound_here: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(
        cls,
        *,
        actions: ActionsModule | None = None,
        rules: RulesModule[Any] | None = None,
        game: GameModule[Any] | None = None,
        views: ViewsModule[Any] | None = None,
        resample: ResampleModule[Any] | None = None,
        bots: BotsModule | None = None,
        terminal: TerminalModule | None = None,
        rules_text: TopicsModule | None = None,
        **modules: ModuleType | str,
    ) -> None:
        super().__init_subclass__()
        # The standard keywords are typed (gameweave_core.protocols), so mypy checks
        # their modules; any other keyword names a module of the title's own.
        typed = {
            "actions": actions,
            "rules": rules,
            "game": game,
            "views": views,
            "resample": resample,
            "bots": bots,
            "terminal": terminal,
            "rules_text": rules_text,
        }
        given: dict[str, object] = {k: v for k, v in typed.items() if v is not None}
        given.update(modules)
        found: dict[str, tuple[str, Any]] = {}
        for keyword, named in given.items():
            # A name: the module's own __name__, for a title in one file.
            module = importlib.import_module(named) if isinstance(named, str) else named
            if not isinstance(module, ModuleType):
                raise TypeError(
                    f"{cls.__name__}: {keyword}= must be a module, not {type(module).__name__}"
                )
            supplied = [
                n
                for n in (*MODULE_FUNCTIONS, _CHECK_CONFIG, *MODULE_CONSTANTS)
                if hasattr(module, n)
            ]
            if not supplied:
                wanted = ", ".join((*MODULE_FUNCTIONS, _CHECK_CONFIG, *MODULE_CONSTANTS))
                raise TypeError(
                    f"{cls.__name__}: module {module.__name__} ({keyword}=) defines none of {wanted}"
                )
            for n in supplied:
                value = getattr(module, n)
                if n in found and found[n][1] is not value:
                    raise TypeError(
                        f"{cls.__name__}: {found[n][0]}.{n} and {module.__name__}.{n} differ; "
                        f"write {n} in the class to choose"
                    )
                found.setdefault(n, (module.__name__, value))
        # What the bases bound and this class writes itself is this class's own.
        bindings = {n: w for n, w in cls.module_bindings.items() if n not in cls.__dict__}
        bound_here: set[str] = set()
        for n, (where, value) in found.items():
            target = MODULE_CONSTANTS.get(n, n)
            if cls._written(target):
                continue
            bound: Any
            if n == "ACTIONS":
                bound = tuple(value)
            elif n in MODULE_CONSTANTS:
                bound = _returns(value, f"``{where}.{n}``, as it is.")
            else:
                _check_callable(cls.__name__, n, where, value)
                bound = _after_base_check(value) if n == _CHECK_CONFIG else staticmethod(value)
            setattr(cls, target, bound)
            bindings[target] = f"{where}.{n}"
            bound_here.add(target)
        cls.module_bindings = bindings
        cls._bound_here = frozenset(bound_here)

    @classmethod
    def _written(cls, name: str) -> bool:
        """Whether ``name`` is written in the class or a base below ModuleTitle
        (rather than bound there from a module, or left to the base Title)."""
        for klass in cls.__mro__:
            if klass is ModuleTitle:
                return False
            if name in klass.__dict__:
                return name not in klass.__dict__.get("_bound_here", ())
        return False

    if TYPE_CHECKING:
        # Bound from the modules when a subclass is made (so never abstract there);
        # declared here only so that type checkers know a subclass is complete.
        def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> S: ...

        def awaiting(self, state: S) -> Sequence[int]: ...

        def legal_actions(self, state: S, seat: int) -> Sequence[Any]: ...

        def apply(self, state: S, seat: int, action: Any, rng: Rng) -> Sequence[Event]: ...

        def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

        def outcome(self, state: S) -> Outcome | None: ...
