"""The Match: the one object adapters, bots and tests use to run a game."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .bots import Bot, Observation, RandomBot, SightedObservation
from .errors import (
    ConfigError,
    CutLog,
    DigestMismatch,
    GameOver,
    GameweaveError,
    IllegalAction,
    LogError,
    MalformedAction,
    NeedsChance,
    NotAwaited,
    TitleError,
)
from .events import Event
from .facts import GameInfo, game_info
from .log import LogEntry, MatchLog, cut_short, digest
from .observation import NoViewSchema, ObservationSpec
from .outcome import Outcome
from .registry import Registry, default_registry
from .rng import MAX_SEED, Rng, ScriptedRng, fresh_seed
from .space import ActionSpace, action_space
from .title import Title

if TYPE_CHECKING:
    from .runner import BotSeat

#: How a match's methods take a seat number (``None``, where allowed, for a
#: spectator): as any object, checked at run time so that a wrong one gets the
#: one-line refusal. An ``int`` annotation would let the compiled build (see
#: ``setup.py``) reject junk with a bare TypeError first, and let True pass as 1.
SeatArg = Any
#: A chance outcome, taken as any object for the same reason (the compiled build
#: would turn True into 1 before the check could refuse it).
OutcomeArg = Any

E = TypeVar("E", bound=BaseException)


class Match:
    """One game of one title: its state, its log and its history.

    Everything that leaves a match toward a seat (views, legal actions, history,
    error messages) is built for that seat by the title. The state itself is
    private to the match and the title.
    """

    # The title's awaiting, legal_actions and apply (see _bind_rules).
    _rules_awaiting: Callable[[Any], Sequence[int]]
    _rules_legal: Callable[[Any, int], Sequence[Any]]
    _rules_apply: Callable[[Any, int, Any, Rng], Sequence[Event]]

    def __init__(
        self,
        title: Title[Any],
        players: int,
        seed: int | None = None,
        config: Mapping[str, Any] | None = None,
        *,
        distribution: str = "unknown",
        distribution_version: str = "",
        generator: int | None = None,
        explicit_chance: bool = False,
        recall: bool = False,
        _copy_of: Match | None = None,
    ) -> None:
        if _copy_of is not None:
            self._copy_from(_copy_of)
            return
        if not isinstance(title, Title):
            # A newcomer's first guess is Match("museum", 2): name the way that works.
            hint = (
                f"Match.create({title!r}, ..., registry=default_registry())"
                if isinstance(title, str)
                else "Match.create"
            )
            raise TypeError(
                f"Match() takes a Title object, not {type(title).__name__} {title!r}; "
                f"to start an installed title by name use {hint}"
            )
        self.title = title
        self._bind_rules(title)
        self.players = players
        if config is not None and not isinstance(config, Mapping):
            raise ConfigError(f"options must map names to values, not be a {type(config).__name__}")
        self.config: dict[str, Any] = title.check_config(players, dict(config or {}))
        self.seed = fresh_seed() if seed is None else seed
        self.distribution = distribution
        self.distribution_version = distribution_version
        self._rng = Rng(self.seed, generator)
        #: The random generator's number (see :mod:`gameweave_core.rng`), kept in logs.
        self.generator = self._rng.generator
        #: Whether the match's draws are chance nodes (see :meth:`explicit`).
        self.explicit_chance = explicit_chance
        #: At a chance node: what waits for the next outcome (else ``None``).
        self._pending: _Pending | None = None
        #: With explicit chance: (step, outcomes drawn by that step; 0 is setup).
        self._chance_log: list[tuple[int, list[int]]] = []
        #: With explicit chance: a copy of the state after the last step that drew,
        #: and that step, from which a step interrupted by a draw is rebuilt.
        self._checkpoint: tuple[Any, int] = (None, 0)
        self._space: ActionSpace | None = None
        self._spec: tuple[ObservationSpec | None] | None = None
        self._info: GameInfo | None = None
        #: Per seat (index seat - 1), the lines of its information state, and the
        #: last view recorded in them; ``None`` unless kept (``recall=True``).
        self._recall: list[list[str]] | None = None
        self._recall_views: list[str] = []
        self._state: Any = None
        if explicit_chance:
            self._pending = _Pending(0, None, [], 0, None)
        else:
            self._state = title.setup(players, self.config, self._rng)
        self._log: list[tuple[int, Any]] = []
        #: (step, the events that step produced), for the steps that produced any.
        self._events: list[tuple[int, Sequence[Event]]] = []
        self._awaiting: tuple[int, ...] | None = None
        self._legal: dict[int, Sequence[Any]] = {}
        #: Per seat: how many entries of ``_events`` its history lines cover.
        self._lines: dict[int | None, tuple[int, list[str]]] = {}
        #: The title's action classes: anything else is JSON to decode (or junk).
        self._classes = title.codec.classes
        #: Set when the title raised on a legal action: (seat, action JSON, message).
        self.failed: tuple[int, dict[str, Any], str] | None = None
        if recall:
            self._recall = [[] for _ in range(players)]
            self._recall_views = [""] * players
        if self._pending is not None:
            self._awaiting = ()
            self._resume()
        elif recall:
            self._remember(0, 0, None, ())

    def _copy_from(self, other: Match) -> None:
        """Become a copy of ``other`` (see :meth:`clone`)."""
        title = other.title
        self.title = title
        self._bind_rules(title)
        self.players = other.players
        self.config = other.config
        self.seed = other.seed
        self.distribution = other.distribution
        self.distribution_version = other.distribution_version
        self._rng = other._rng.copy()
        self.generator = other.generator
        self.explicit_chance = other.explicit_chance
        pending = other._pending
        self._pending = None if pending is None else pending.copy()
        self._chance_log = [(step, list(draws)) for step, draws in other._chance_log]
        # The checkpoint is only ever copied from, never changed: it may be shared.
        self._checkpoint = other._checkpoint
        self._space = other._space
        self._spec = other._spec
        self._info = other._info
        self._recall = None if other._recall is None else [list(r) for r in other._recall]
        self._recall_views = list(other._recall_views)
        self._state = None if other._state is None else title.copy_state(other._state)
        self._log = list(other._log)
        self._events = list(other._events)
        # Asked again of the copy: a title may list legal actions it keeps in the
        # state, which the original may change.
        self._awaiting = () if pending is not None else None
        self._legal = {}
        self._lines = {seat: (done, list(lines)) for seat, (done, lines) in other._lines.items()}
        self._classes = other._classes
        self.failed = other.failed

    def _bind_rules(self, title: Title[Any]) -> None:
        """Look up once the title's three methods every action calls. In the compiled
        build each lookup on the (interpreted) title cost about 150 instructions, 2%
        of a compiled House hand through Match (cachegrind, blackjack_match)."""
        self._rules_awaiting = title.awaiting
        self._rules_legal = title.legal_actions
        self._rules_apply = title.apply

    @classmethod
    def explicit(
        cls,
        title: Title[Any],
        players: int,
        config: Mapping[str, Any] | None = None,
        *,
        recall: bool = False,
    ) -> Match:
        """A match of ``title`` whose chance is explicit: every random draw of the
        title's ``setup`` and ``apply`` (each ``randbelow(n)`` that ``choice``,
        ``shuffle``, ``sample``, ``randint`` ... make) is a chance node, at which
        :attr:`is_chance_node` is true, :attr:`awaiting` is empty,
        :meth:`chance_outcomes` lists the ``n`` equally likely outcomes and
        :meth:`apply_chance` chooses one. The match may start at one (a shuffle in
        ``setup``).

        Choosing at each node the outcome ``Rng(seed).randbelow(n)`` draws, in
        order, plays the match a seed plays, state for state. A step that draws is
        run again from the state before it for each outcome chosen (the rules are
        not suspended mid-step), so a step with ``k`` draws runs ``k + 1`` times.
        ``recall=True`` keeps the information states (see :meth:`information_state`).
        """
        return cls(title, players, 0, config, explicit_chance=True, recall=recall)

    def clone(self) -> Match:
        """An independent copy of this match as it stands: its state (copied by the
        title's ``copy_state``), random generator, log, history and any chance node
        it is at. Nothing is replayed."""
        return Match(self.title, self.players, _copy_of=self)

    # -- explicit chance ---------------------------------------------------------

    @property
    def is_chance_node(self) -> bool:
        """Whether the match waits for a chance outcome (only with explicit chance)."""
        return self._pending is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each outcome with its probability (``n`` outcomes
        ``0`` to ``n - 1``, each ``1 / n``: the draw is ``randbelow(n)``); else
        empty."""
        pending = self._pending
        if pending is None:
            return []
        n = pending.n
        return [(i, 1.0 / n) for i in range(n)]

    def apply_chance(self, outcome: OutcomeArg) -> None:
        """Choose ``outcome`` at a chance node: the interrupted step runs again with
        it, to its end or to its next draw. Raises :class:`IllegalAction` (and
        changes nothing) when the match is not at a chance node or ``outcome`` is
        not one of :meth:`chance_outcomes`."""
        pending = self._pending
        if pending is None:
            raise IllegalAction("the match is not at a chance node: there is no outcome to choose")
        if type(outcome) is not int or not 0 <= outcome < pending.n:
            raise IllegalAction(
                f"chance outcome {outcome!r} is out of range: this draw has outcomes "
                f"0 to {pending.n - 1}"
            )
        pending.draws.append(outcome)
        try:
            self._resume()
        except Exception as exc:
            pending.draws.pop()
            self._pending = pending
            message = f"{type(exc).__name__}: {exc}".splitlines()[0]
            raise _caused(
                TitleError(f"{self.title.name} raised on chance outcome {outcome}: {message}"),
                exc,
            ) from exc

    @property
    def chance_draws(self) -> list[int]:
        """Every chance outcome chosen so far, in order (only with explicit chance)."""
        return [d for _, draws in self._chance_log for d in draws]

    def _resume(self) -> None:
        """Run the step waiting at a chance node with the outcomes chosen so far:
        to its end (the node is resolved) or to the next draw (a new node)."""
        pending = self._pending
        assert pending is not None
        title = self.title
        rng = ScriptedRng(pending.draws)
        if pending.action is None:
            try:
                state = title.setup(self.players, self.config, rng)
            except NeedsChance as need:
                pending.n = need.n
                return
            self._state = state
            self._pending = None
            self._awaiting = None
            if pending.draws:
                self._chance_log.append((0, list(pending.draws)))
            self._checkpoint = (title.copy_state(state), 0)
            if self._recall is not None:
                self._remember(0, 0, None, ())
            return
        state = title.copy_state(pending.base)
        try:
            new_events = title.apply(state, pending.seat, pending.action, rng)
        except NeedsChance as need:
            pending.n = need.n
            return
        self._state = state
        self._pending = None
        self._chance_log.append((len(self._log) + 1, list(pending.draws)))
        self._checkpoint = (title.copy_state(state), len(self._log) + 1)
        self._record(pending.seat, pending.action, new_events)

    def _before_step(self) -> Any:
        """With explicit chance: the state before the step being applied, rebuilt
        from the checkpoint (the steps since it drew nothing)."""
        title = self.title
        base, at = self._checkpoint
        state = title.copy_state(base)
        rng = ScriptedRng(())
        for seat, act in self._log[at:]:
            title.apply(state, seat, act, rng)
        return state

    def _apply_explicit(self, seat: int, action: Any) -> tuple[Event, ...]:
        title = self.title
        try:
            new_events = title.apply(self._state, seat, action, ScriptedRng(()))
        except NeedsChance as need:
            self._state = self._before_step()
            self._pending = _Pending(seat, action, [], need.n, self._state)
            self._awaiting = ()
            self._legal.clear()
            return ()
        except Exception as exc:
            self._state = self._before_step()
            self._awaiting = None
            self._legal.clear()
            as_json = title.codec.to_json(action)
            message = f"{type(exc).__name__}: {exc}".splitlines()[0]
            raise _caused(
                TitleError(
                    f"{title.name} raised on action {len(self._log) + 1} "
                    f"(seat {seat}, {as_json}): {message}"
                ),
                exc,
            ) from exc
        return self._record(seat, action, new_events)

    # -- numbered actions, observations, utilities -------------------------------

    @property
    def action_space(self) -> ActionSpace:
        """The title's actions numbered for this match's player count and options
        (see :mod:`gameweave_core.space`); raises
        :class:`~gameweave_core.NotEnumerable` for a title that declares none."""
        space = self._space
        if space is None:
            space = self._space = action_space(self.title, self.players, self.config)
        return space

    def legal_indices(self, seat: SeatArg) -> list[int]:
        """The numbers of ``seat``'s legal actions, in the order of :meth:`legal_actions`."""
        space = self.action_space
        view = self.view(seat) if space.relative else None
        return [space.index(a, view) for a in self.legal_actions(seat)]

    def legal_mask(self, seat: SeatArg) -> list[int]:
        """A list as long as the action space: 1 at the number of each legal action
        of ``seat``, 0 elsewhere."""
        space = self.action_space
        view = self.view(seat) if space.relative else None
        return space.mask(self.legal_actions(seat), view)

    def submit_index(self, seat: SeatArg, number: Any) -> list[str]:
        """Submit the action numbered ``number`` in :attr:`action_space` for
        ``seat`` (see :meth:`submit`, whose refusals it shares)."""
        space = self.action_space
        try:
            act = space.action(number, self.view(seat) if space.relative else None)
        except ValueError as exc:
            raise MalformedAction(str(exc)) from None
        return self.submit(seat, act)

    @property
    def observation_spec(self) -> ObservationSpec | None:
        """The observation the title's ``view_schema`` declares (``None`` without one)."""
        cached = self._spec
        if cached is None:
            cached = self._spec = (self.title.observation_spec(self.players, self.config),)
        return cached[0]

    def observation(self, seat: SeatArg) -> list[float]:
        """``seat``'s view (``None``: a spectator's) encoded by the view schema: built
        from :meth:`view` alone. Raises :class:`~gameweave_core.ViewOutsideSchema`
        for a view the schema does not cover, :class:`NoViewSchema` for a title
        without one."""
        spec = self.observation_spec
        if spec is None:
            raise NoViewSchema(
                f"{self.title.name} declares no view_schema, so it has no observation"
            )
        return spec.encode(self.view(seat))

    @property
    def game_info(self) -> GameInfo:
        """What the title declares and the core derives for this player count and
        options (see :class:`~gameweave_core.GameInfo`)."""
        info = self._info
        if info is None:
            info = self._info = game_info(self.title, self.players, self.config)
        return info

    def utilities(self) -> tuple[float, ...] | None:
        """Each seat's utility (seat 1 first) once the match is over, from the
        title's ``utilities``; ``None`` while it goes on."""
        result = self.outcome()
        if result is None:
            return None
        found = tuple(float(u) for u in self.title.utilities(result, self.players))
        if len(found) != self.players:
            raise TitleError(
                f"{self.title.name}.utilities gave {len(found)} values for {self.players} seats"
            )
        return found

    # -- information states ---------------------------------------------------------

    def information_state(self, seat: SeatArg) -> str:
        """All that ``seat`` has known, with perfect recall, as canonical text: one
        JSON line per fact, in order: ``["did", step, action]`` for its own
        actions, ``["saw", step, text]`` for each event it was shown, and
        ``["view", step, view]`` whenever its view changed (step 0: the first
        view). Two matches give a seat the same text exactly when its views, its
        own actions and the events it read were the same all along (and, by the
        kit's contract, its views decide everything else it is sent).

        Kept step by step by a match made with ``recall=True``; otherwise built by
        replaying this match once."""
        self._check_seat(seat)
        recall = self._recall
        if recall is None:
            return self._replayed(recall=True).information_state(seat)
        return "\n".join(recall[seat - 1])

    def _remember(self, step: int, seat: int, action: Any, batch: Sequence[Event]) -> None:
        """Add step ``step`` (the action of ``seat``, or setup) to the information states."""
        recall = self._recall
        assert recall is not None
        acted = None if action is None else self.title.codec.to_json(action)
        for s in range(1, self.players + 1):
            lines = recall[s - 1]
            if s == seat:
                lines.append(_canonical(["did", step, acted]))
            for e in batch:
                if e.visible_to(s):
                    lines.append(_canonical(["saw", step, e.text]))
            seen = _canonical(self.title.view(self._state, s))
            if seen != self._recall_views[s - 1]:
                self._recall_views[s - 1] = seen
                lines.append(f'["view",{step},{seen}]')

    def _replayed(self, recall: bool = False) -> Match:
        """This match replayed from its start (with explicit chance: its chance
        outcomes chosen again), as a new match."""
        if not self.explicit_chance:
            other = Match(
                self.title,
                self.players,
                self.seed,
                self.config,
                distribution=self.distribution,
                distribution_version=self.distribution_version,
                generator=self.generator,
                recall=recall,
            )
            for seat, act in self._log:
                other._submit(seat, act)
            return other
        other = Match.explicit(self.title, self.players, self.config, recall=recall)
        draws = dict(self._chance_log)
        for outcome in draws.get(0, ()):
            other.apply_chance(outcome)
        for step, (seat, act) in enumerate(self._log, start=1):
            other._submit(seat, act)
            for outcome in draws.get(step, ()):
                other.apply_chance(outcome)
        pending = self._pending
        if pending is not None:
            if pending.action is not None:
                other._submit(pending.seat, pending.action)
            for outcome in pending.draws:
                other.apply_chance(outcome)
        return other

    @classmethod
    def create(
        cls,
        title: str | Title[Any],
        players: int,
        seed: int | None = None,
        config: Mapping[str, Any] | None = None,
        *,
        registry: Registry | None = None,
        generator: int | None = None,
    ) -> Match:
        """A new match of a title named in ``registry``, or of a title object.

        A name is looked up in ``registry``, by default the installed titles
        (:func:`~gameweave_core.registry.default_registry`, loaded once per process),
        and the distribution that supplied the title is recorded for the log. An
        adapter or a test passes its own registry, which always wins. A title object
        needs no registry; given one, its distribution is recorded too.
        ``generator`` picks the random generator (default: the current one); only
        replays of old logs need another."""
        if registry is None:
            if not isinstance(title, str):
                return cls(title, players, seed, config, generator=generator)
            registry = default_registry()
        entry = registry.entry(title) if isinstance(title, str) else registry.entry_for(title)
        return cls(
            entry.title,
            players,
            seed,
            config,
            distribution=entry.distribution,
            distribution_version=entry.distribution_version,
            generator=generator,
        )

    # -- reading ---------------------------------------------------------------

    @property
    def step(self) -> int:
        """How many actions have been applied (the step number)."""
        return len(self._log)

    @property
    def version(self) -> int:
        """Deprecated alias of :attr:`step` (``Title.version`` is the rules' version)."""
        warnings.warn(
            "Match.version is deprecated; use Match.step", DeprecationWarning, stacklevel=2
        )
        return len(self._log)

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Seats whose action is needed now; empty when the match is over."""
        awaiting = self._awaiting
        if awaiting is None:
            if self._pending is not None:  # a chance node: the draw comes first
                return ()
            awaiting = self._awaiting = tuple(self._rules_awaiting(self._state))
        return awaiting

    @property
    def state(self) -> Any:
        """The title's state itself, for tests and maintainers' tools only.

        It holds every secret of every seat, so nothing built from it may reach a
        seat: adapters and bots use :meth:`view`, :meth:`legal_actions` and
        :meth:`history`. It is the live object, not a copy: change it only in a test
        that means to (and expect the match's cached awaited seats and legal actions
        to be stale until the next action). The property itself cannot be set.
        """
        return self._state

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """How the match ended, or ``None``."""
        if self._pending is not None:
            return None
        return self.title.outcome(self._state)

    def seat_label(self, seat: SeatArg) -> str:
        self._check_seat(seat)
        return self.title.seat_label(self._state, seat)

    def has_secrets(self, seat: SeatArg) -> bool:
        """Whether ``seat`` now knows something another seat must not see (hot-seat
        adapters hide the screen before handing over to or from such a seat)."""
        self._check_seat(seat)
        return self.title.has_secrets(self._state, seat)

    def legal_actions(self, seat: SeatArg) -> Sequence[Any]:
        """The legal actions of ``seat`` as action objects (empty when not awaited)."""
        # Hot path: bots ask once per action. ``type(...) is int`` keeps True from
        # passing for seat 1 (and keeps unhashable junk away from the dict).
        if type(seat) is not int or not 1 <= seat <= self.players:
            self._check_seat(seat)
        cached = self._legal.get(seat)
        if cached is None:
            awaiting = self._awaiting
            if awaiting is None:
                awaiting = self.awaiting
            cached = self._rules_legal(self._state, seat) if seat in awaiting else ()
            self._legal[seat] = cached
        return cached

    def legal_json(self, seat: SeatArg) -> list[dict[str, Any]]:
        """The legal actions of ``seat`` in canonical JSON form (what a seat is sent)."""
        to_json = self.title.codec.to_json
        return [to_json(a) for a in self.legal_actions(seat)]

    def legal(self, seat: SeatArg) -> Sequence[Any]:
        """Deprecated alias of :meth:`legal_actions`."""
        warnings.warn(
            "Match.legal is deprecated; use Match.legal_actions (objects) or "
            "Match.legal_json (JSON)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.legal_actions(seat)

    def view(self, seat: SeatArg) -> dict[str, Any]:
        """All that ``seat`` (``None``: a spectator) may know."""
        if seat is not None:
            self._check_seat(seat)
        if self._state is None:
            raise GameweaveError(
                "the match is at a chance node of its setup: there is nothing to see yet"
            )
        return self.title.view(self._state, seat)

    def history(self, seat: SeatArg) -> list[str]:
        """The history lines ``seat`` may read, oldest first."""
        # Every payload carries the seat's history: keep each seat's lines and
        # read only the events that arrived since it last asked.
        done, lines = self._lines.get(seat, (0, []))
        if done < len(self._events):
            for _, batch in self._events[done:]:
                lines.extend(e.text for e in batch if e.visible_to(seat))
            self._lines[seat] = (len(self._events), lines)
        return list(lines)

    def events(self, seat: SeatArg, since: int = 0) -> list[dict[str, Any]]:
        """The events ``seat`` may read, with the step that produced each."""
        return [
            {"step": step, **e.to_json()}
            for step, batch in self._events
            if step > since
            for e in batch
            if e.visible_to(seat)
        ]

    def observe(self, seat: SeatArg) -> Observation:
        """What a bot in ``seat`` is given: exactly a human's view of the seat."""
        # The match is the observation's sight: it builds the view, the history and
        # the determinizations for the observation's seat, on demand.
        return SightedObservation(seat, self.legal_actions(seat), self)

    def resample(self, seat: int, rng: Rng) -> Any:
        """A state drawn from ``seat``'s information set by the title's resample hook
        (what a search bot's observation draws; the real state stays private).
        Raises :class:`NotImplementedError` when the title cannot resample."""
        return self.title.resample(self._state, seat, rng)

    def resampled(self, seat: int, rng: Rng) -> Match:
        """A clone of this match (see :meth:`clone`) whose state is one the title's
        resample hook draws from ``seat``'s information set with ``rng``: what an
        information-set search (OpenSpiel's IS-MCTS) plays on. With explicit chance
        it stays explicit, at the same chance node if any; the clone's own chance
        comes from a generator seeded from ``rng``, never from this match's stream.
        Only ``seat``'s view, history and information state are meaningful in it.
        Raises :class:`NotImplementedError` when the title cannot resample."""
        self._check_seat(seat)
        if self._state is None:
            raise GameweaveError(
                "the match is at a chance node of its setup: there is nothing to resample"
            )
        title = self.title
        drawn = title.resample(self._state, seat, rng)
        other = self.clone()
        other._state = drawn
        other._rng = Rng(rng.randbelow(MAX_SEED + 1), self.generator)
        # Rebuilding a step interrupted by a draw must start from the drawn state.
        other._checkpoint = (title.copy_state(drawn), len(self._log))
        pending = other._pending
        if pending is not None:
            pending.base = drawn
        other._awaiting = () if pending is not None else None
        other._legal = {}
        return other

    def payload(self, seat: SeatArg) -> dict[str, Any]:
        """Everything one seat's screen needs, built only from that seat's view."""
        out: dict[str, Any] = {
            "title": self.title.name,
            "display_name": self.title.display_name,
            # The JSON field keeps its name: clients send it back with each action.
            "version": len(self._log),
            "players": self.players,
            "seats": [
                {"seat": s, "label": self.title.seat_label(self._state, s)}
                for s in range(1, self.players + 1)
            ],
            "awaiting": list(self.awaiting),
            "view": self.view(seat),
            "history": self.history(seat),
            "legal": self.legal_json(seat) if seat is not None else [],
        }
        if seat is not None:
            out["seat"] = seat
        result = self.outcome()
        if result is not None:
            out["outcome"] = result.to_json()
        return out

    def digest(self) -> str:
        """A fingerprint of the whole state, for replays and logs.

        It is never sent to a seat: with the seed and a guess at the secrets, a
        digest could confirm the guess.
        """
        return digest(self.title.snapshot(self._state))

    def snapshot(self) -> Any:
        """The title's snapshot of the whole state, as JSON-ready data.

        For maintainers only (``gameweave replay --state``): it holds every secret,
        so it is never sent to a seat or over HTTP.
        """
        return self.title.snapshot(self._state)

    def readable_snapshot(self) -> Any:
        """The whole state as a maintainer reads it (:meth:`Title.readable_snapshot
        <gameweave_core.title.Title.readable_snapshot>`): the snapshot with squares,
        cards and the like by name. Maintainers only, as :meth:`snapshot`."""
        return self.title.readable_snapshot(self._state)

    # -- acting ----------------------------------------------------------------

    def submit(self, seat: SeatArg, action: Any) -> list[str]:
        """Apply ``action`` (an action object or its JSON form) for ``seat``.

        Returns the history lines the action produced for that seat. Raises
        :class:`IllegalAction` (or a subclass) with a one-line reason and leaves
        the match untouched when the action is malformed, out of turn or illegal.
        """
        batch = self._submit(seat, action)
        if not batch:
            return []
        # Event.visible_to(seat), inlined: seat is a checked int here. Most actions
        # make one event: skip building a comprehension for it.
        if len(batch) == 1:
            e = batch[0]
            return [e.text] if e.seats is None or seat in e.seats else []
        return [e.text for e in batch if e.seats is None or seat in e.seats]

    def _submit(self, seat: SeatArg, action: Any) -> tuple[Event, ...]:
        """:meth:`submit` without the history lines: the events the action made.
        The bot runner calls this, as nobody reads a bot's lines as it plays."""
        title = self.title
        if type(action) not in self._classes:  # JSON from outside, or junk
            action = title.codec.from_json(action)
        if type(seat) is not int or not 1 <= seat <= self.players:
            self._check_seat(seat, error=IllegalAction)
        # The checks below read the caches directly: this is the hot path of every
        # simulation, and the properties would only add calls.
        awaiting = self._awaiting
        if awaiting is None:
            awaiting = self.awaiting
        if seat not in awaiting:
            if self._pending is not None:
                raise NotAwaited("the match is at a chance node: choose its outcome first")
            if not awaiting:
                raise GameOver("the match is over; no more actions are taken")
            raise NotAwaited(f"seat {seat} is not awaited: waiting for {self._describe(awaiting)}")
        legal = self._legal.get(seat)
        if legal is None:
            legal = self.legal_actions(seat)
        return self._apply(seat, action, legal)

    def _apply(self, seat: int, action: Any, legal: Sequence[Any]) -> tuple[Event, ...]:
        """Check ``action`` against ``legal``, the legal actions of ``seat``, an
        awaited seat; apply it, log it and file its events."""
        # Bots submit one of the very objects in ``legal``: look for it by identity
        # first; comparing fields costs a Python call per action compared.
        for candidate in legal:
            if candidate is action:
                break
        else:
            if action not in legal:
                raise self._illegal(seat, action)
        if self.explicit_chance:
            return self._apply_explicit(seat, action)
        try:
            new_events = self._rules_apply(self._state, seat, action, self._rng)
        except Exception as exc:
            raise self._title_raised(seat, action, exc) from exc
        return self._record(seat, action, new_events)

    def _title_raised(self, seat: int, action: Any, exc: Exception) -> TitleError:
        """The error for a title that raised on a legal action, after the match is
        rebuilt from its log (the state may be half-changed); remembered in
        :attr:`failed`."""
        title = self.title
        as_json = title.codec.to_json(action)
        message = f"{type(exc).__name__}: {exc}".splitlines()[0]
        step = len(self._log) + 1
        self._rebuild()
        self.failed = (seat, as_json, message)
        return _caused(
            TitleError(f"{title.name} raised on action {step} (seat {seat}, {as_json}): {message}"),
            exc,
        )

    def _record(self, seat: int, action: Any, new_events: Sequence[Event]) -> tuple[Event, ...]:
        """Log an applied action and file its events."""
        log = self._log
        log.append((seat, action))
        self._awaiting = None
        self._legal.clear()
        batch: tuple[Event, ...] = ()
        if new_events:
            # One entry per step, not per event: the hot path stays one append. A
            # tuple, so that a title reusing its list cannot rewrite history.
            batch = tuple(new_events)
            self._events.append((len(log), batch))
        if self._recall is not None:
            self._remember(len(log), seat, action, batch)
        return batch

    def take_bot_turn(self, seat: int, bot: Bot, rng: Rng) -> None:
        """One turn of a bot in ``seat``, an awaited seat (one of :attr:`awaiting`).

        The bot is handed the seat's observation and ``rng``; its answer (an action
        object or JSON) is checked and applied like any submission, raising
        :class:`IllegalAction` if refused. It skips the lookups :meth:`observe` and
        :meth:`legal_actions` repeat for outside callers, so ``seat`` must really be
        awaited. (:func:`~gameweave_core.runner.run_bots` plays many turns in one
        loop of its own: see :meth:`_run_bots`.)
        """
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self._rules_legal(self._state, seat)
        action = bot.act(SightedObservation(seat, legal, self), rng)
        if type(action) not in self._classes:  # a bot may answer in JSON
            action = self.title.codec.from_json(action)
        self._apply(seat, action, legal)

    def _run_bots(self, bots: Mapping[int, BotSeat], limit: int | None) -> int:
        """The loop of :func:`~gameweave_core.runner.run_bots` (see there).

        Every random game of a simulation, a benchmark or the kit runs here, so the
        loop holds the title's functions and the match's lists in locals and writes
        out :meth:`take_bot_turn`, :meth:`_apply` and :meth:`_record` (the checks and
        the bookkeeping are theirs, line for line). That is a trick, and it pays:
        with :class:`~gameweave_core.bots.SightedObservation`, The House Job's random
        games went from 69,400 to 64,500 machine instructions an action (its bare
        rules: 57,900; ``benchmarks/instructions.py``), and ``Match`` over the bare
        rules from 1.24x to 1.17x their time (``benchmarks/sidebyside.py``, 9
        interleaved rounds). Later (stop 50), the seat kept a Python int and a
        :class:`~gameweave_core.bots.RandomBot` asked for its choice without an
        observation: 19,600 to 18,500 instructions compiled (bare: 17,200), and
        ``Match`` over the bare rules from 1.18x to 1.11x, compiled and pure alike.
        Explicit chance and recall take the plain path, one :meth:`take_bot_turn` a
        turn.
        """
        taken = 0
        # The seat stays a Python int (SeatArg): typed int, the compiled build would
        # unbox it and box it again at each of its six uses in the loop below.
        seat: SeatArg
        if self.explicit_chance or self._recall is not None:
            while True:
                seat = _bot_seat(self.awaiting, bots)
                if seat is None:
                    return taken
                if limit is not None and taken >= limit:
                    raise RuntimeError(f"{self.title.name} did not end within {limit} actions")
                seat_bot = bots[seat]
                self.take_bot_turn(seat, seat_bot.bot, seat_bot.rng)
                taken += 1
        state, rng = self._state, self._rng
        rules_awaiting, rules_legal, rules_apply = (
            self._rules_awaiting,
            self._rules_legal,
            self._rules_apply,
        )
        log, events, legal_cache, classes = self._log, self._events, self._legal, self._classes
        while True:
            awaiting = self._awaiting
            if awaiting is None:
                awaiting = self._awaiting = tuple(rules_awaiting(state))
            # Usually the first awaited seat is a bot: skip the search then.
            seat = awaiting[0] if awaiting else None
            if seat not in bots:
                seat = _bot_seat(awaiting, bots)
            if seat is None:
                return taken
            if limit is not None and taken >= limit:
                raise RuntimeError(f"{self.title.name} did not end within {limit} actions")
            seat_bot = bots[seat]
            # take_bot_turn, without storing the legal actions: nobody else asks
            # for them before the action is applied and they go stale. The cache is
            # empty after the first action; asking an empty dict costs a lookup.
            legal = legal_cache.get(seat) if legal_cache else None
            if legal is None:
                legal = rules_legal(state, seat)
            bot = seat_bot.bot
            if type(bot) is RandomBot:
                # RandomBot.act, without the observation it would only read the
                # legal actions from: 690 of the 2,460 instructions Match added to
                # a compiled House Job action (benchmarks/README.md).
                action = seat_bot.rng.choice(legal)
            else:
                action = bot.act(SightedObservation(seat, legal, self), seat_bot.rng)
            if type(action) not in classes:  # a bot may answer in JSON
                action = self.title.codec.from_json(action)
            # _apply
            for candidate in legal:
                if candidate is action:
                    break
            else:
                if action not in legal:
                    raise self._illegal(seat, action)
            try:
                new_events = rules_apply(state, seat, action, rng)
            except Exception as exc:
                raise self._title_raised(seat, action, exc) from exc
            # _record
            log.append((seat, action))
            self._awaiting = None
            if legal_cache:
                legal_cache.clear()
            if new_events:
                events.append((len(log), tuple(new_events)))
            taken += 1

    def _illegal(self, seat: SeatArg, action: Any) -> IllegalAction:
        title = self.title
        reason = title.explain_illegal(self._state, seat, action)
        if not reason:
            reason = (
                f"{title.describe_action(action)!r} is not a legal action for "
                f"seat {seat} ({title.seat_label(self._state, seat)}) now"
            )
        return IllegalAction(reason)

    def _describe(self, seats: Sequence[int]) -> str:
        return ", ".join(f"seat {s} ({self.title.seat_label(self._state, s)})" for s in seats)

    def _seeded_only(self, what: str) -> None:
        if self.explicit_chance:
            raise GameweaveError(
                f"Match.{what} needs a seeded match: this one has explicit chance (its "
                "outcomes are in chance_draws, its actions in actions())"
            )

    def _check_seat(self, seat: Any, error: type[Exception] = ValueError) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= self.players:
            raise error(f"there is no seat {seat!r}: seats are 1 to {self.players}")

    def _rebuild(self) -> None:
        # A title raised mid-apply and may have left its state half-changed;
        # the log is the truth, so replay it.
        actions = list(self._log)
        self._rng = Rng(self.seed, self.generator)
        self._state = self.title.setup(self.players, self.config, self._rng)
        self._log, self._events = [], []
        self._lines = {}
        self._awaiting = None
        self._legal.clear()
        if self._recall is not None:
            self._recall = [[] for _ in range(self.players)]
            self._recall_views = [""] * self.players
            self._remember(0, 0, None, ())
        for seat, act in actions:
            self._submit(seat, act)

    # -- logs and replay --------------------------------------------------------

    def actions(self) -> list[tuple[int, dict[str, Any]]]:
        """The applied actions as (seat, JSON form), in order."""
        to_json = self.title.codec.to_json
        return [(seat, to_json(a)) for seat, a in self._log]

    def fresh(self) -> Match:
        """A new match with the same title, players, seed and options, at step 0
        (with explicit chance: a new such match, at its first chance node)."""
        if self.explicit_chance:
            return Match.explicit(self.title, self.players, self.config)
        other = Match(
            self.title,
            self.players,
            self.seed,
            self.config,
            distribution=self.distribution,
            distribution_version=self.distribution_version,
            generator=self.generator,
        )
        # Derived from the title, players and options alone, which are the same:
        # built once per match rather than once per replay (the kit replays often).
        other._space, other._spec, other._info = self._space, self._spec, self._info
        return other

    def at(self, step: int) -> Match:
        """A new match as this one stood after ``step`` actions (0: the start)."""
        if not 0 <= step <= len(self._log):
            raise ValueError(f"step must be between 0 and {len(self._log)}, got {step}")
        self._seeded_only("at")
        other = self.fresh()
        for seat, act in self._log[:step]:
            other._submit(seat, act)
        return other

    def steps(self) -> Iterator[Match]:
        """This match replayed: one new match per step, from step 0 to the end.

        The same object is yielded each time, advanced by one action; copy what
        you need before advancing.
        """
        self._seeded_only("steps")
        other = self.fresh()
        yield other
        for seat, act in self._log:
            other._submit(seat, act)
            yield other

    def to_log(self) -> MatchLog:
        """The log of this match, with the state digest after every action.

        Digests come from a fresh replay, which also proves the title deterministic.
        """
        self._seeded_only("to_log")
        entries = []
        replay = self.fresh()
        to_json = self.title.codec.to_json
        for index, (seat, act) in enumerate(self._log, start=1):
            replay._submit(seat, act)
            entries.append(LogEntry(index, seat, to_json(act), replay.digest()))
        if replay.digest() != self.digest():
            raise TitleError(
                f"{self.title.name} is not deterministic: a replay of this match ends in a "
                "different state (does it use the global random module or the clock?)"
            )
        if self.failed is not None:
            seat, as_json, message = self.failed
            entries.append(LogEntry(len(entries) + 1, seat, as_json, None, message))
        return MatchLog(
            title=self.title.name,
            title_version=self.title.version,
            players=self.players,
            seed=self.seed,
            generator=self.generator,
            distribution=self.distribution,
            distribution_version=self.distribution_version,
            config=dict(self.config),
            actions=entries,
        )

    def save(self, path: str | Path) -> None:
        """Write the log to ``path`` as TOML."""
        self.to_log().save(path)

    @classmethod
    def from_log(
        cls,
        log: MatchLog,
        *,
        registry: Registry | None = None,
        upto: int | None = None,
        verify: bool = False,
        source: str = "<log>",
    ) -> Match:
        """Rebuild a match from a log, after ``upto`` actions (default: all), with the
        title the log names found in ``registry`` (default: the installed titles).

        With ``verify`` every recorded digest is compared and the first step where
        the rules now reach a different state raises :class:`DigestMismatch`.
        Anything wrong raises :class:`LogError` naming ``source`` and the action.
        """
        reg = default_registry() if registry is None else registry
        try:
            entry = reg.entry(log.title)
        except Exception as exc:
            raise LogError(source, str(exc)) from None
        try:
            match = cls(
                entry.title,
                log.players,
                log.seed,
                log.config,
                distribution=log.distribution,
                distribution_version=log.distribution_version,
                generator=log.generator,
            )
        except Exception as exc:
            # The title's own exception stays the cause: `replay --traceback` prints it.
            raise _caused(LogError(source, f"cannot start the match: {exc}"), exc) from exc
        entries = log.actions if upto is None else log.actions[:upto]
        for e in entries:
            try:
                match._submit(e.seat, e.action)
            except TitleError as exc:
                cause = exc.__cause__ or exc
                raise _caused(LogError(source, str(exc), e.index), cause) from cause
            except MalformedAction as exc:
                if e is log.actions[-1] and e.error is None:
                    # The last action cut short: a truncated file, not a refused move.
                    raise _caused(CutLog(source, cut_short(exc), e.index), exc) from exc
                raise _caused(LogError(source, f"refused: {exc}", e.index), exc) from exc
            except IllegalAction as exc:
                raise _caused(LogError(source, f"refused: {exc}", e.index), exc) from exc
            if verify and e.digest is not None and e.digest != match.digest():
                raise DigestMismatch(
                    source,
                    f"the state now differs from the one recorded (digest {match.digest()}, "
                    f"log says {e.digest}): this entry was edited, or the rules changed since "
                    "the log was written",
                    e.index,
                )
        return match

    @classmethod
    def verified(
        cls, log: MatchLog, *, registry: Registry | None = None, source: str = "<log>"
    ) -> Match:
        """The match ``log`` records, once the installed rules have reproduced all
        of it: the one definition of a valid log, which ``gameweave replay
        --verify`` and ``gameweave play --resume`` share.

        Every action is applied and every digest compared (see :meth:`from_log`),
        each failure raising :class:`LogError` (one line naming ``source`` and the
        action; :class:`DigestMismatch` for a state that differs). Beyond
        :meth:`from_log`:

        - A last entry recording a failure (``error``) makes a record of a bug,
          never a valid log. Its action is applied again: when the title raises
          again, that is the error raised, with the title's own exception as its
          cause (the reproduction a maintainer wants); when it no longer raises,
          the rules changed since the log was saved, which is an error too.
        - An entry without a digest (deleted by hand, or a log of a title that
          could not replay itself) cannot be verified: :class:`LogError` without
          an index, once every action has been applied.
        """
        match = cls.from_log(log, verify=True, registry=registry, source=source)
        last = log.actions[-1] if log.actions else None
        if last is not None and last.error is not None:
            raise LogError(
                source,
                f"recorded as making the title raise ({last.error}), but the installed "
                "rules apply it: they changed since the log was saved",
                last.index,
            )
        missing = next((e.index for e in log.actions if e.digest is None), None)
        if missing is not None:
            raise LogError(source, f"action {missing} has no digest, so the log cannot be verified")
        return match

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        registry: Registry | None = None,
        upto: int | None = None,
        verify: bool = False,
    ) -> Match:
        """Read a log file and rebuild its match, with the title found in ``registry``
        (default: the installed titles; see :meth:`from_log`)."""
        log = MatchLog.load(path)
        return cls.from_log(log, upto=upto, verify=verify, registry=registry, source=str(path))


class _Pending:
    """A step stopped at a chance node: the seat and action (``None``: setup), the
    outcomes chosen so far, how many the next draw has, and the state before it."""

    __slots__ = ("action", "base", "draws", "n", "seat")

    def __init__(self, seat: int, action: Any, draws: list[int], n: int, base: Any) -> None:
        self.seat = seat
        self.action = action
        self.draws = draws
        self.n = n
        #: Never changed: each run of the step works on a copy of it.
        self.base = base

    def copy(self) -> _Pending:
        return _Pending(self.seat, self.action, list(self.draws), self.n, self.base)


def _bot_seat(awaiting: Sequence[int], bots: Mapping[int, BotSeat]) -> int | None:
    """The first awaited seat that a bot plays, if any."""
    return next((s for s in awaiting if s in bots), None)


def _canonical(value: Any) -> str:
    """One canonical JSON text of ``value`` (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _caused(error: E, cause: BaseException) -> E:
    """``error`` with ``cause`` as its ``__cause__``: ``raise _caused(e, c) from c``.

    The ``from`` alone would do in Python, but the compiled build (mypyc, see
    ``setup.py``) drops it, and maintainers' tools (``replay --traceback``) need the
    title's own exception behind a failure in either build.
    """
    error.__cause__ = cause
    return error
