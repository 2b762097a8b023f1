"""Information-set Monte Carlo tree search: one search bot for every title that can
resample.

The bot follows the single-observer scheme of Cowling, Powley and Whitehouse
(2012): each iteration draws one *determinization*, a full state the bot's seat
cannot tell from the real one, through :meth:`Observation.resample
<gameweave_core.bots.Observation.resample>` (the title's resample hook, bound by the
match to the seat); it walks down the tree choosing by UCB among the actions legal
in that determinization (each action's *availability* counts how often it was
legal when its node was visited, and stands in for the parent's visits), adds one
node, plays on at random (or with one of the title's bots) to the end, or to a
cut-off scored by the title's evaluation, and adds each seat's reward to the
actions on the path. The root may be pruned to the moves the title's own bot
proposes (``candidates``); each title chooses these settings per seat with
:meth:`Title.search_defaults <gameweave_core.title.Title.search_defaults>`.

A node is an information set of the seat acting there, keyed by that seat's view
(the project's complete allow-list of what a seat knows) in the determinized
state. So determinizations that differ only in what the acting seat cannot see
share a node: a seat bidding after another's sealed bid does not "know" that bid
in the tree, and the root is the bot's own information set in every iteration.

The search runs the title's own functions on the drawn states (a fresh state per
iteration, so nothing needs copying), never a :class:`~gameweave_core.match.Match`
or its log, and draws all its chance from a generator seeded from the bot's own:
same observation, same seed and a fixed iteration count give the same move.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .bots import Bot, BotFactory, Observation
from .errors import ConfigError
from .hooks import hookimpl
from .rng import MAX_SEED, Rng
from .title import Title

if TYPE_CHECKING:
    from .registry import BotRegistrar

#: Iterations per decision unless told otherwise (by the caller or by the title's
#: ``search_defaults``). Measured on the project's 2-core machine
#: (``benchmarks/search.py``, see ``docs/bots.md``): with random rollouts the median
#: decision takes 20 ms (Sealed Bids) to 550 ms (Museum Heist, whose move
#: generation dominates) of CPU time.
DEFAULT_ITERATIONS = 160
#: The UCB exploration constant (rewards are in [0, 1]).
DEFAULT_EXPLORATION = 0.7
#: What every seat scores when a rollout is cut off by ``rollout_limit``.
UNFINISHED_REWARD = 0.5


@attrs.frozen
class SearchOptions:
    """How hard and how the search looks.

    ``iterations`` bounds the determinizations per decision; ``budget`` (seconds of
    wall-clock time, off by default) stops earlier when set, which makes the move
    depend on the machine's speed. ``exploration`` is the UCB constant.
    ``rollout`` names one of the title's own bots to play out each iteration
    (``None``: uniformly random legal actions; a fresh bot plays each rollout, so a
    bot that remembers earlier turns starts with an empty memory). ``rollout_limit``
    cuts a rollout after that many actions; ``evaluate(state, seat)`` then scores
    the unfinished state for each seat from 0 to 1 (``None``: every seat scores
    :data:`UNFINISHED_REWARD`). The state it is handed is a drawn one, never the
    match's. ``candidates`` prunes the root: the search considers only the
    actions one of the title's bots (the rollout bot, else the title's
    ``default_bot``) plays from the seat's view in that many tries (each with its
    own chance), so a budget too small for every legal move goes to the few a good
    player would weigh; a single candidate is played without a search.

    A title chooses its own defaults with :meth:`Title.search_defaults
    <gameweave_core.title.Title.search_defaults>`; :meth:`for_title` applies them.
    """

    iterations: int = DEFAULT_ITERATIONS
    exploration: float = DEFAULT_EXPLORATION
    budget: float | None = None
    rollout: str | None = None
    rollout_limit: int | None = None
    evaluate: Callable[[Any, int], float] | None = None
    candidates: int | None = None

    @classmethod
    def for_title(cls, title: Title[Any], seat: int, players: int, **changes: Any) -> SearchOptions:
        """The options ``title`` asks for ``seat`` of a ``players``-seat match
        (:meth:`Title.search_defaults <gameweave_core.title.Title.search_defaults>`),
        with ``changes`` on top."""
        wanted = {**title.search_defaults(seat, players), **changes}
        unknown = sorted(set(wanted) - {f.name for f in attrs.fields(cls)})
        if unknown:
            known = ", ".join(f.name for f in attrs.fields(cls))
            raise ConfigError(
                f"{title.name}: no search option(s) {', '.join(unknown)}; options: {known}"
            )
        return cls(**wanted)

    def __attrs_post_init__(self) -> None:
        if type(self.iterations) is not int or self.iterations < 1:
            raise ConfigError(f"iterations must be a whole number >= 1, not {self.iterations!r}")
        if not self.exploration >= 0:
            raise ConfigError(f"exploration must be >= 0, not {self.exploration!r}")
        if self.budget is not None and not self.budget > 0:
            raise ConfigError(f"budget must be a number of seconds > 0, not {self.budget!r}")
        if self.rollout_limit is not None and self.rollout_limit < 0:
            raise ConfigError(f"rollout_limit must be >= 0, not {self.rollout_limit!r}")
        if self.candidates is not None and (
            type(self.candidates) is not int or self.candidates < 1
        ):
            raise ConfigError(f"candidates must be a whole number >= 1, not {self.candidates!r}")


@attrs.frozen
class Choice:
    """One root action after a search: how often it was tried and its mean reward."""

    action: Any
    visits: int
    mean: float


@attrs.frozen
class SearchResult:
    """What a search found: the action it plays and every root action's figures.

    ``share`` is the chosen action's part of the root visits (how sure the search
    is); ``choices`` lists the seat's legal actions, most visited first.
    """

    action: Any
    share: float
    iterations: int
    choices: tuple[Choice, ...]


class _Edge:
    """An action out of a node, with its statistics for the seat acting there."""

    __slots__ = ("action", "avail", "reward", "visits")

    def __init__(self, action: Any) -> None:
        self.action = action
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def _key(action: Any) -> Any:
    # Actions are frozen attrs classes, hashable and equal by value; an action with
    # an unhashable field falls back to its repr, equal for equal actions too.
    try:
        hash(action)
    except TypeError:
        return repr(action)
    return action


def _view_key(view: Mapping[str, Any]) -> str:
    """A canonical text of a view: equal views give equal keys, whatever the order
    in which the title built their dicts."""
    try:
        return json.dumps(view, sort_keys=True, separators=(",", ":"), default=repr)
    except TypeError:  # keys of mixed types cannot be sorted
        return repr(view)


def _no_history(seat: int) -> list[str]:
    return []


class IsmctsBot:
    """Information-set MCTS for one seat of one title (see the module docstring)."""

    def __init__(
        self,
        title: Title[Any],
        seat: int,
        players: int,
        options: SearchOptions | None = None,
    ) -> None:
        self.title = title
        self.seat = seat
        self.players = players
        self.options = (
            options if options is not None else SearchOptions.for_title(title, seat, players)
        )
        self._rollout_factory: BotFactory | None = None
        self._proposer: BotFactory | None = None
        own = title.bots()
        name = self.options.rollout
        if name is not None and name != "random":
            if name not in own:
                known = ", ".join(sorted({"random", *own})) or "random"
                raise ConfigError(f"{title.name} has no bot {name!r} to roll out with; {known}")
            self._rollout_factory = own[name]
        if self.options.candidates is not None:
            self._proposer = self._rollout_factory or own.get(title.default_bot)
            if self._proposer is None:
                raise ConfigError(
                    f"{title.name} has no bot of its own to propose candidates (name a rollout bot)"
                )

    def act(self, observation: Observation, rng: Rng) -> Any:
        """The most visited root action of a search from ``observation``."""
        return self.search(observation, rng).action

    def search(self, observation: Observation, rng: Rng) -> SearchResult:
        """Search from the seat's observation; draws one seed from ``rng``."""
        legal = list(observation.legal)
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action to search")
        opts = self.options
        search_rng = Rng(rng.randbelow(MAX_SEED + 1), rng.generator)
        root: dict[Any, _Edge] = {}
        table: dict[tuple[int, str], dict[Any, _Edge]] = {}
        deadline = None if opts.budget is None else time.perf_counter() + opts.budget
        allowed = None
        if opts.candidates is not None and len(legal) > 1:
            allowed = self._candidates(observation, opts.candidates, search_rng)
        done = 0
        # One legal action needs no search (the seed is drawn all the same).
        while len(legal) > 1 and done < opts.iterations and (allowed is None or len(allowed) > 1):
            self._iterate(observation, root, table, search_rng, allowed)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if allowed is not None and len(allowed) == 1:
            (only,) = allowed
            legal = sorted(legal, key=lambda a: _key(a) != only)
        return self._result(legal, root, done)

    def _candidates(self, observation: Observation, tries: int, rng: Rng) -> set[Any]:
        """The root actions the proposing bot plays from the seat's view in
        ``tries`` tries (a drawn state has the seat's view and legal actions)."""
        title = self.title
        state = observation.resample(rng)
        legal = title.legal_actions(state, self.seat)
        view = functools.partial(title.view, state)
        assert self._proposer is not None
        found = set()
        for _ in range(tries):
            bot = self._proposer(self.seat, self.players)
            found.add(_key(bot.act(Observation(self.seat, legal, view, _no_history), rng)))
        return found

    # -- one iteration -----------------------------------------------------------

    def _iterate(
        self,
        observation: Observation,
        root: dict[Any, _Edge],
        table: dict[tuple[int, str], dict[Any, _Edge]],
        rng: Rng,
        allowed: set[Any] | None = None,
    ) -> None:
        title = self.title
        c = self.options.exploration
        state = observation.resample(rng)
        # The root is the bot's own information set: its seat acts first there,
        # even when other seats are awaited at the same time.
        here = title.legal_actions(state, self.seat)
        if allowed is not None:
            here = [a for a in here if _key(a) in allowed]
        edge = _select(root, here, c, rng)
        path: list[tuple[_Edge, int]] = [(edge, self.seat)]
        title.apply(state, self.seat, edge.action, rng)
        expanded = False
        while not expanded:
            awaiting = title.awaiting(state)
            if not awaiting:
                break
            seat = awaiting[0]
            key = (seat, _view_key(title.view(state, seat)))
            node = table.get(key)
            if node is None:
                node = table[key] = {}
                expanded = True  # one new node per iteration, then a rollout
            edge = _select(node, title.legal_actions(state, seat), c, rng)
            path.append((edge, seat))
            title.apply(state, seat, edge.action, rng)
        rewards = self._rollout(state, rng)
        for edge, seat in path:
            edge.visits += 1
            edge.reward += rewards[seat]

    def _rollout(self, state: Any, rng: Rng) -> list[float]:
        """Play to the end; each seat's reward (index 0 unused)."""
        title = self.title
        opts = self.options
        limit = opts.rollout_limit
        factory = self._rollout_factory
        # Fresh bots for each rollout: a bot that keeps notes between its turns
        # must not carry them from one drawn world into another.
        bots: dict[int, Bot] = {}
        seats = range(1, self.players + 1)
        taken = 0
        while True:
            awaiting = title.awaiting(state)
            if not awaiting:
                break
            if limit is not None and taken >= limit:
                if opts.evaluate is None:
                    return [UNFINISHED_REWARD] * (self.players + 1)
                return [0.0] + [opts.evaluate(state, s) for s in seats]
            seat = awaiting[0]
            legal = title.legal_actions(state, seat)
            if factory is None:
                action = rng.choice(legal)
            else:
                bot = bots.get(seat)
                if bot is None:
                    bot = bots[seat] = factory(seat, self.players)
                action = bot.act(
                    Observation(seat, legal, functools.partial(title.view, state), _no_history),
                    rng,
                )
            title.apply(state, seat, action, rng)
            taken += 1
        outcome = title.outcome(state)
        if outcome is None:
            raise RuntimeError(f"{title.name} awaits nobody but has no outcome")
        return [0.0] + [title.reward(outcome, s) for s in seats]

    def _result(self, legal: Sequence[Any], root: dict[Any, _Edge], done: int) -> SearchResult:
        choices = []
        for action in legal:
            edge = root.get(_key(action))
            visits = edge.visits if edge is not None else 0
            mean = edge.reward / visits if edge is not None and visits else 0.0
            choices.append(Choice(action, visits, mean))
        # Most visits, then the best mean; a stable sort keeps the legal order after.
        ranked = sorted(choices, key=lambda ch: (-ch.visits, -ch.mean))
        best = ranked[0]
        share = best.visits / done if done else 1.0
        return SearchResult(best.action, share, done, tuple(ranked))


def _select(edges: dict[Any, _Edge], legal: Sequence[Any], c: float, rng: Rng) -> _Edge:
    """UCB over the actions legal here; an action never tried is tried first (a
    random one of them). Every legal action's availability goes up by one."""
    unvisited: list[_Edge] = []
    best: _Edge | None = None
    best_score = -math.inf
    log = math.log
    sqrt = math.sqrt
    for action in legal:
        key = _key(action)
        edge = edges.get(key)
        if edge is None:
            edge = edges[key] = _Edge(action)
        edge.avail += 1
        visits = edge.visits
        if not visits:
            unvisited.append(edge)
        elif not unvisited:
            score = edge.reward / visits + c * sqrt(log(edge.avail) / visits)
            if score > best_score:
                best, best_score = edge, score
    if unvisited:
        return unvisited[0] if len(unvisited) == 1 else rng.choice(unvisited)
    if best is None:
        raise ValueError("a seat awaited in a determinization has no legal action")
    return best


@attrs.frozen
class IsmctsFactory:
    """The :data:`~gameweave_core.bots.BotFactory` of :class:`IsmctsBot` for one
    title: ``factory(seat, players)``. :meth:`with_options` makes a retuned one.

    Without ``options`` each seat searches as the title asks for it
    (:meth:`SearchOptions.for_title`); ``changes`` (from :meth:`with_options`)
    apply on top either way."""

    title: Title[Any]
    options: SearchOptions | None = None
    changes: tuple[tuple[str, Any], ...] = ()

    def options_for(self, seat: int, players: int) -> SearchOptions:
        """The options the bot of ``seat`` searches with."""
        if self.options is None:
            return SearchOptions.for_title(self.title, seat, players, **dict(self.changes))
        return attrs.evolve(self.options, **dict(self.changes))

    def __call__(self, seat: int, players: int) -> IsmctsBot:
        return IsmctsBot(self.title, seat, players, self.options_for(seat, players))

    def with_options(self, **changes: Any) -> IsmctsFactory:
        """The same bot with some :class:`SearchOptions` changed."""
        return attrs.evolve(self, changes=(*self.changes, *sorted(changes.items())))

    def for_tests(self) -> IsmctsFactory:
        """A cheap variant for conformance checks of behaviour (not strength):
        a few iterations and short rollouts."""
        return self.with_options(iterations=4, rollout_limit=12, budget=None)


def ismcts_bot(title: Title[Any]) -> IsmctsFactory | None:
    """The ISMCTS bot factory for ``title``, or ``None`` when it cannot resample."""
    return IsmctsFactory(title) if title.can_resample else None


@hookimpl
def register_bots(register: BotRegistrar) -> None:
    """Offer ``ismcts`` for every title that can resample, through the same hook as
    any plugin's bots (the core's plugin is registered in every registry)."""
    register.every_title("ismcts", ismcts_bot)


__all__ = [
    "DEFAULT_EXPLORATION",
    "DEFAULT_ITERATIONS",
    "Choice",
    "IsmctsBot",
    "IsmctsFactory",
    "SearchOptions",
    "SearchResult",
    "ismcts_bot",
]
