"""Information-set Monte Carlo tree search: one search bot for every title that can
resample.

The bot follows the single-observer scheme of Cowling, Powley and Whitehouse
(2012): each iteration draws one *determinization*, a full state the bot's seat
cannot tell from the real one, through :meth:`Observation.resample
<gameweave_core.bots.Observation.resample>` (the title's resample hook, bound by the
match to the seat); it walks down the tree choosing by UCB among the actions legal
in that determinization (each action's *availability* counts how often it was
legal when its node was visited, and stands in for the parent's visits), adds one
node, plays on at random (or with one of the title's bots) to the end, and adds
each seat's reward to the actions on the path.

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
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .bots import Bot, BotFactory, Observation
from .errors import ConfigError
from .rng import MAX_SEED, Rng
from .title import Title

#: Iterations per decision unless told otherwise. Measured on the project's 2-core
#: machine (``benchmarks/search.py``, see ``docs/bots.md``): at this budget the
#: median decision takes 20 ms (Sealed Bids) to 550 ms (Museum Heist, whose move
#: generation dominates) of CPU time, and the slowest about a second.
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
    (``None``: uniformly random legal actions). ``rollout_limit`` cuts a rollout
    after that many actions, scoring every seat :data:`UNFINISHED_REWARD`.
    """

    iterations: int = DEFAULT_ITERATIONS
    exploration: float = DEFAULT_EXPLORATION
    budget: float | None = None
    rollout: str | None = None
    rollout_limit: int | None = None

    def __attrs_post_init__(self) -> None:
        if type(self.iterations) is not int or self.iterations < 1:
            raise ConfigError(f"iterations must be a whole number >= 1, not {self.iterations!r}")
        if not self.exploration >= 0:
            raise ConfigError(f"exploration must be >= 0, not {self.exploration!r}")
        if self.budget is not None and not self.budget > 0:
            raise ConfigError(f"budget must be a number of seconds > 0, not {self.budget!r}")
        if self.rollout_limit is not None and self.rollout_limit < 0:
            raise ConfigError(f"rollout_limit must be >= 0, not {self.rollout_limit!r}")


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
        self.options = options or SearchOptions()
        self._rollout_bots: dict[int, Bot] = {}
        self._rollout_factory: BotFactory | None = None
        name = self.options.rollout
        if name is not None and name != "random":
            own = title.bots()
            if name not in own:
                known = ", ".join(sorted({"random", *own})) or "random"
                raise ConfigError(f"{title.name} has no bot {name!r} to roll out with; {known}")
            self._rollout_factory = own[name]

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
        done = 0
        # One legal action needs no search (the seed is drawn all the same).
        while len(legal) > 1 and done < opts.iterations:
            self._iterate(observation, root, table, search_rng)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self._result(legal, root, done)

    # -- one iteration -----------------------------------------------------------

    def _iterate(
        self,
        observation: Observation,
        root: dict[Any, _Edge],
        table: dict[tuple[int, str], dict[Any, _Edge]],
        rng: Rng,
    ) -> None:
        title = self.title
        c = self.options.exploration
        state = observation.resample(rng)
        # The root is the bot's own information set: its seat acts first there,
        # even when other seats are awaited at the same time.
        edge = _select(root, title.legal_actions(state, self.seat), c, rng)
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
        limit = self.options.rollout_limit
        taken = 0
        while True:
            awaiting = title.awaiting(state)
            if not awaiting:
                break
            if limit is not None and taken >= limit:
                return [UNFINISHED_REWARD] * (self.players + 1)
            seat = awaiting[0]
            legal = title.legal_actions(state, seat)
            if self._rollout_factory is None:
                action = rng.choice(legal)
            else:
                action = self._rollout_bot(seat).act(
                    Observation(seat, legal, functools.partial(title.view, state), _no_history),
                    rng,
                )
            title.apply(state, seat, action, rng)
            taken += 1
        outcome = title.outcome(state)
        if outcome is None:
            raise RuntimeError(f"{title.name} awaits nobody but has no outcome")
        return [0.0] + [title.reward(outcome, s) for s in range(1, self.players + 1)]

    def _rollout_bot(self, seat: int) -> Bot:
        bot = self._rollout_bots.get(seat)
        if bot is None:
            assert self._rollout_factory is not None
            bot = self._rollout_bots[seat] = self._rollout_factory(seat, self.players)
        return bot

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
    title: ``factory(seat, players)``. :meth:`with_options` makes a retuned one."""

    title: Title[Any]
    options: SearchOptions = SearchOptions()

    def __call__(self, seat: int, players: int) -> IsmctsBot:
        return IsmctsBot(self.title, seat, players, self.options)

    def with_options(self, **changes: Any) -> IsmctsFactory:
        """The same bot with some :class:`SearchOptions` changed."""
        return IsmctsFactory(self.title, attrs.evolve(self.options, **changes))

    def for_tests(self) -> IsmctsFactory:
        """A cheap variant for conformance checks of behaviour (not strength):
        a few iterations and short rollouts."""
        return self.with_options(iterations=4, rollout_limit=12, budget=None)


def ismcts_bot(title: Title[Any]) -> IsmctsFactory | None:
    """The ISMCTS bot factory for ``title``, or ``None`` when it cannot resample."""
    return IsmctsFactory(title) if title.can_resample else None


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
