"""Searches off the event loop: the server's search bots and hints run in a pool
of worker processes, never in the thread that holds a match's lock.

A search (the ``ismcts`` bot, a hint) takes up to about a second of CPU. Run in
the server's process it would hold the GIL, and under the match's lock every
read of that match, for that long. So the hub hands the pool a
:class:`SearchJob`: the match as its log has it (title, seat count, seed,
options, generator and the actions so far) and the seat. A worker rebuilds the
match from that, keeping the last few it rebuilt so that a match's next search
only replays the new actions, and searches from the seat's observation, exactly
as the bot would in the server's process: the same bot from the same registry,
with the same generator, so the same seed gives the same move. The hub then
applies the move as the bot's action, if the match has not moved meanwhile.

At most :attr:`SearchPool.workers` searches run at once (default: the number of
CPUs; ``GAMEWEAVE_SEARCHES`` or ``create_app(searches=...)`` changes it). The
others wait their turn in three queues, one per class of work, and a free worker
takes them in this order:

1. a bot's turn in a match a person plays (the person waits for the reply);
2. a person's hint;
3. a turn of a bots-only match (every seat a bot), which no one waits for, and
   only while no hint waits.

With two workers or more, one of them is kept for bots' turns in people's
matches, a process of its own at the server's CPU priority
(:data:`KEPT_NICENESS`); the others are shared, at a lower priority
(:data:`WORKER_NICENESS`). Bots-only turns run on the shared workers only, and
hints take all the workers but one at most (a shared one first, the kept one only
when it is idle and every shared one busy), so that however many hints or
bots-only turns are asked for, a bot's turn in a person's match finds a worker
at once (a search may take seconds), or, when a hint and a bots-only turn hold
both workers of two, the first to end. On a machine busy with other work, hints
and bots-only matches get what the people's bots and the server leave: hints
cannot delay other people's bots, nor can bots-only matches.
A bot's move is owed and is never refused. A hint is refused (:class:`PoolFull`,
a 503) while people's searches alone take every worker (bots-only ones do not
count: the hint goes ahead of them); a seat gets one hint at a time
(:class:`AlreadySearching`, a 429), and a client (by address)
:data:`HINTS_PER_CLIENT` at a time (:class:`TooManyHints`, a 429; the server
also limits how many it asks for a minute). How many bots-only matches may
search at all is the hub's limit (``bot_matches``, ``bot_matches_per_client``).

Workers are started with ``spawn`` (a fresh interpreter: forking a server's
threads is unsafe) on the first search of their kind, the shared ones at a lower
CPU priority than the server (so that on a busy machine reads and people's bots
come first), and find the titles by loading
the same plugin modules as the server's registry. Each ends as soon as the
server's process is gone, even one killed with SIGKILL. As with any ``spawn``, a
script that builds the app itself must do so under ``if __name__ ==
"__main__":`` (``gameweave serve`` does). A registry that holds a plugin
no worker can import (an object made at run time) makes the pool run searches
in threads of the server's process instead: still off the event loop and out
of the match's lock, but sharing the GIL.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import json
import logging
import multiprocessing
import os
import threading
import types
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, Literal

import attrs

from gameweave_core import Match, Registry, Rng, default_registry, derive_seed
from gameweave_core.ismcts import IsmctsBot, SearchOptions, SearchResult

log = logging.getLogger("gameweave_http")

#: The environment variable setting how many searches run at once (default: CPUs).
SEARCHES_ENV = "GAMEWEAVE_SEARCHES"
#: Matches a worker keeps rebuilt, so that their next search replays only what is new.
WORKER_MATCHES = 32
#: How many runner-up actions a hint lists after the one it recommends (as ``hint``
#: at the terminal does).
RUNNERS_UP = 2
#: Seconds after which a refused hint may be asked for again.
RETRY_AFTER = 2
#: Hints one client (by address) may have searched or waiting at once.
HINTS_PER_CLIENT = 2
#: Hints one client (by address) may ask for in a minute (the handler's limit).
HINTS_PER_MINUTE = 120
#: How much less CPU priority a shared worker process takes (``os.nice``: hints and
#: bots-only matches): on a busy machine the server's own thread, which answers
#: reads, and people's bots come first.
WORKER_NICENESS = 10
#: The same for the worker kept for bots' turns in people's matches: the server's
#: own priority. At the shared workers' (as before), a person's bot under hint spam
#: on a busy machine got a sliver of a core: replies p50/p99 863/4,756 ms against
#: about 500 undisturbed (issue 38's soak).
KEPT_NICENESS = 0


class PoolFull(Exception):
    """Every worker is searching: a hint must wait (the server answers 503)."""


class AlreadySearching(Exception):
    """This seat's previous hint is still being searched (the server answers 429)."""


class TooManyHints(AlreadySearching):
    """This client's hints already take as many searches as one client may (429)."""


class PoolClosed(PoolFull):
    """The pool is closed (the server is stopping): nothing starts."""


def default_workers() -> int:
    """Searches at once: ``GAMEWEAVE_SEARCHES`` if set, else the number of CPUs.
    A bad value is logged in one line and the number of CPUs used instead."""
    cpus = os.cpu_count() or 1
    text = os.environ.get(SEARCHES_ENV, "").strip()
    if not text:
        return cpus
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if workers < 1:
        log.error(
            "%s must be a whole number >= 1, got %r; running %d searches at once (the CPUs)",
            SEARCHES_ENV,
            text[:40],
            cpus,
        )
        return cpus
    return workers


@attrs.frozen(eq=False)
class SearchJob:
    """One search: the match as its log has it, the seat, and the seed of the
    search's generator. ``bot`` names the registry's bot whose turn it is;
    ``None`` asks for a hint (the title's ``ismcts`` search for a person)."""

    match_id: str
    title: str
    players: int
    seed: int
    config: dict[str, Any]
    generator: int
    actions: tuple[tuple[int, dict[str, Any]], ...]
    seat: int
    step: int
    rng_seed: int
    bot: str | None = None

    @property
    def head(self) -> tuple[Any, ...]:
        """What fixes the match before its first action."""
        return (self.title, self.players, self.seed, self.generator, self.config)


def bot_job(match_id: str, match: Match, seat: int, bot: str) -> SearchJob:
    """The job of a bot's turn in ``seat``. Its generator is seeded as the hub
    seeds a bot's turn in its own thread (from the match seed, the seat and the
    step), so the move is the same wherever it is searched."""
    return _job(match_id, match, seat, derive_seed(match.seed, f"bot:{seat}:{match.step}"), bot)


def hint_job(match_id: str, match: Match, seat: int) -> SearchJob:
    """The job of a hint for ``seat``. As at the terminal (``hint`` in ``play``),
    its generator is seeded from the step and the seat alone, never from the
    match seed, which fixes the hidden cards: the same position, the same hint."""
    return _job(match_id, match, seat, derive_seed(match.step, f"hint:{seat}"), None)


def _job(match_id: str, match: Match, seat: int, rng_seed: int, bot: str | None) -> SearchJob:
    return SearchJob(
        match_id=match_id,
        title=match.title.name,
        players=match.players,
        seed=match.seed,
        config=dict(match.config),
        generator=match.generator,
        actions=tuple(match.actions()),
        seat=seat,
        step=match.step,
        rng_seed=rng_seed,
        bot=bot,
    )


def is_search_bot(bot: object) -> bool:
    """Whether a seat's bot searches (and so runs in the pool); cheap bots, such as
    random and the titles' heuristics, take their turns in the hub's thread."""
    return isinstance(bot, IsmctsBot)


# -- in the worker ------------------------------------------------------------------------

#: A registry as workers rebuild it: (plugin name, module) pairs; "default" is the
#: registry of installed plugins (``default_registry()``).
Recipe = tuple[tuple[str, str], ...] | Literal["default"]

_registry: Registry | None = None
_matches: OrderedDict[str, tuple[tuple[Any, ...], list[tuple[int, dict[str, Any]]], Match]] = (
    OrderedDict()
)


def recipe_of(registry: Registry) -> Recipe | None:
    """How a worker process rebuilds ``registry``, or ``None`` when it cannot (a
    plugin that is not an importable module)."""
    if registry is default_registry():
        return "default"
    found = []
    for name, plugin in registry.pm.list_name_plugin():
        if not isinstance(plugin, types.ModuleType) or getattr(plugin, "__spec__", None) is None:
            return None
        found.append((name, plugin.__name__))
    return tuple(found)


def registry_from(recipe: Recipe) -> Registry:
    """The registry ``recipe`` describes (see :func:`recipe_of`)."""
    if recipe == "default":
        return default_registry()
    registry = Registry(bundled=False)  # the recipe lists the bundled plugins too
    for name, module in recipe:
        registry.add_plugin(importlib.import_module(module), name, "gameweave-search-worker")
    return registry


def _start_worker(recipe: Recipe, niceness: int = WORKER_NICENESS) -> None:
    global _registry
    _exit_with_parent()
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    _registry = registry_from(recipe)


def _exit_with_parent() -> None:
    """End this worker process as soon as the server's process is gone, however it
    went: a server killed with SIGKILL (or by the out-of-memory killer) runs no
    clean-up, and its workers would otherwise wait for work forever, reparented,
    each holding a title's matches in memory.

    A spawned process holds a sentinel of its parent (on POSIX the read end of a
    pipe only the parent can write to, on Windows the parent's process handle)
    that becomes ready when the parent exits, for any reason. A daemon thread
    waits on it and ends the process at once, a search under way included. (Linux's
    parent-death signal, ``PR_SET_PDEATHSIG``, was not chosen: it fires when the
    *thread* that started the worker ends, and the pool starts its workers from
    whichever thread asks for the first search, which may end long before the server;
    and it exists on Linux only.)
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not a spawned worker (a test calling the initializer)
        return

    def watch() -> None:
        parent.join()  # returns once the parent has exited
        os._exit(1)

    threading.Thread(target=watch, name="gameweave-search-parent", daemon=True).start()


def _in_worker(job: SearchJob) -> Any:
    assert _registry is not None, "the worker was started without its registry"
    return run_search(job, _registry, _matches)


def run_search(
    job: SearchJob,
    registry: Registry,
    cache: OrderedDict[str, tuple[tuple[Any, ...], list[tuple[int, dict[str, Any]]], Match]]
    | None = None,
) -> Any:
    """Do ``job``: a bot's turn answers the action's JSON form, a hint the
    :func:`hint_json` of the search."""
    match = _rebuilt(job, registry, cache)
    title = match.title
    observation = match.observe(job.seat)
    rng = Rng(job.rng_seed)
    if job.bot is not None:
        bot = registry.bot(title, job.bot)(job.seat, job.players)
        action = bot.act(observation, rng)
        return title.codec.to_json(action) if type(action) in title.codec.classes else action
    # A hint weighs every legal action, as at the terminal (gameweave_cli.hint).
    options = SearchOptions.for_title(title, job.seat, job.players, candidates=None)
    result = IsmctsBot(title, job.seat, job.players, options).search(observation, rng)
    return hint_json(match, result)


def _rebuilt(
    job: SearchJob,
    registry: Registry,
    cache: OrderedDict[str, tuple[tuple[Any, ...], list[tuple[int, dict[str, Any]]], Match]] | None,
) -> Match:
    """The job's match at its step: the cached one moved on by the new actions
    when its log so far is a prefix of the job's, else a fresh replay."""
    found = cache.pop(job.match_id, None) if cache is not None else None
    if found is not None:
        head, done, match = found
        if (
            head != job.head
            or len(done) > len(job.actions)
            or job.actions[: len(done)] != tuple(done)
        ):
            found = None
    if found is None:
        entry = registry.entry(job.title)
        match = Match(entry.title, job.players, job.seed, job.config, generator=job.generator)
        done = []
    for seat, action in job.actions[len(done) :]:
        match.submit(seat, action)
        done.append((seat, action))
    if cache is not None:
        cache[job.match_id] = (job.head, done, match)
        while len(cache) > WORKER_MATCHES:
            cache.popitem(last=False)
    return match


def label(match: Match, action: Any) -> str:
    """An action as its button says it (``describe_action``, else its JSON form)."""
    try:
        return match.title.describe_action(action)
    except Exception:
        return json.dumps(match.title.codec.to_json(action), sort_keys=True)


def hint_json(match: Match, result: SearchResult) -> dict[str, Any]:
    """A hint as the API answers it: the action, its label, its share of the
    searches (how sure the search is; 1 for the only legal action), the number of
    searches and the runners-up that got any."""
    to_json = match.title.codec.to_json
    total = result.iterations
    others = [c for c in result.choices[1 : 1 + RUNNERS_UP] if c.visits] if total else []
    return {
        "action": to_json(result.action),
        "text": label(match, result.action),
        "share": float(result.share),
        "iterations": total,
        "others": [
            {"action": to_json(c.action), "text": label(match, c.action), "share": c.visits / total}
            for c in others
        ],
    }


# -- in the server ------------------------------------------------------------------------


#: The two kinds of worker: the one kept for bots' turns in people's matches, and
#: those shared by every search.
Where = Literal["kept", "shared"]


@attrs.define(eq=False)
class _Search:
    """A search in the pool, waiting for a worker or running: its job, the future
    its caller holds, what it counts toward, the pool's generation then, and
    the kind of worker running it (once it runs)."""

    job: SearchJob
    future: cf.Future[Any]
    bots_only: bool
    hint: tuple[str, int] | None
    generation: int
    #: Who asked for a hint (its client's address), counted against
    #: :data:`HINTS_PER_CLIENT`; ``None`` for a bot's turn.
    client: str | None = None
    where: Where = "shared"


class SearchPool:
    """At most ``workers`` searches at once, in worker processes, people's first
    (see the module docstring). The workers start with the first search;
    :meth:`close` stops them and refuses new searches (the app's shutdown) until
    :meth:`open` (its startup).

    The executor is handed a search only when a worker is free for it, so that
    the order in which searches start is the pool's, not the executor's queue's.
    """

    def __init__(self, registry: Registry, workers: int | None = None) -> None:
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError(f"a search pool needs at least one worker, got {self.workers}")
        self.registry = registry
        recipe = recipe_of(registry)
        self._recipe = recipe
        if recipe is None:
            log.warning(
                "the titles' registry holds a plugin worker processes cannot import: "
                "searches run in threads of the server's process"
            )
        self._lock = threading.Lock()
        #: The executors, by kind of worker, started with their first search.
        self._executors: dict[Where, cf.Executor | None] = {"kept": None, "shared": None}
        self._done: cf.ThreadPoolExecutor | None = None
        #: One worker is kept for bots' turns in people's matches whenever there are
        #: two or more: hints, bots-only turns and people's bots share the others.
        self._slots: dict[Where, int] = {
            "kept": 1 if self.workers >= 2 else 0,
            "shared": self.workers - 1 if self.workers >= 2 else 1,
        }
        #: Searches running on each kind of worker (at most its slots).
        self._busy: dict[Where, int] = {"kept": 0, "shared": 0}
        #: Hints running, at most ``_hint_cap``: all the workers but the kept one, so
        #: that however many hints are asked for, a person's bot finds a worker.
        self._running_hints = 0
        self._hint_cap = max(1, self.workers - 1)
        #: Searches waiting for a worker, by class, in the order they are taken:
        #: bots' turns in a match a person plays, hints, bots-only matches' turns.
        self._people: deque[_Search] = deque()
        self._hint_queue: deque[_Search] = deque()
        self._bots_only: deque[_Search] = deque()
        #: People's searches running or waiting (what a hint is refused by).
        self._people_searches = 0
        self._hints: set[tuple[str, int]] = set()
        #: Hints running or waiting, per client.
        self._hint_clients: dict[str, int] = {}
        #: Every search handed to the executor, in order: (match id, seat, class),
        #: the class "bot", "hint" or "bots-only" (a bounded record, for tests and
        #: the soak benchmark to check the order by).
        self.started: deque[tuple[str, int, str]] = deque(maxlen=1000)
        #: How many times the pool was closed; a search of an earlier one is abandoned.
        self.generation = 0
        #: Searches started so far (bots' turns and hints).
        self.searches = 0
        self._closed = False

    def open(self) -> None:
        """Take searches again after :meth:`close` (a pool is open when made)."""
        with self._lock:
            self._closed = False

    @property
    def uses_processes(self) -> bool:
        """Whether searches run in worker processes (else in threads)."""
        return self._recipe is not None

    def in_flight(self) -> int:
        """Searches running or waiting for a worker."""
        with self._lock:
            running = self._busy["kept"] + self._busy["shared"]
            return running + len(self._people) + len(self._hint_queue) + len(self._bots_only)

    def waiting(self) -> tuple[int, int]:
        """Searches waiting for a worker: people's (bots' turns and hints), and
        bots-only matches'."""
        with self._lock:
            return len(self._people) + len(self._hint_queue), len(self._bots_only)

    def submit(
        self,
        job: SearchJob,
        *,
        hint: bool = False,
        bots_only: bool = False,
        client: str | None = None,
    ) -> cf.Future[Any]:
        """Start ``job``, or queue it until a worker is free, in its class (see the
        module docstring): a bot's turn in a person's match, a hint (``hint``), or
        a bots-only match's turn (``bots_only``). A hint is refused instead:
        :class:`PoolFull` when people's searches take every worker,
        :class:`AlreadySearching` while the seat's previous hint runs,
        :class:`TooManyHints` while ``client``'s hints take
        :data:`HINTS_PER_CLIENT`. Nothing starts once the pool is closed
        (:class:`PoolClosed`)."""
        key = (job.match_id, job.seat)
        with self._lock:
            if self._closed:
                raise PoolClosed("the server is stopping; try again once it is back")
            if hint:
                self._refuse_hint(key, client)
                self._hints.add(key)
                if client is not None:
                    self._hint_clients[client] = self._hint_clients.get(client, 0) + 1
            search = _Search(
                job,
                cf.Future(),
                bots_only,
                key if hint else None,
                self.generation,
                client if hint else None,
            )
            if bots_only:
                self._bots_only.append(search)
            elif hint:
                self._hint_queue.append(search)
                self._people_searches += 1
            else:
                self._people.append(search)
                self._people_searches += 1
            self.searches += 1
            ready = self._take()
        self._send(ready)
        return search.future

    def admit_hint(self, match_id: str, seat: int, client: str | None) -> None:
        """Raise what :meth:`submit` would refuse a hint for ``seat`` of
        ``match_id``, asked by ``client``, with now (nothing is reserved): the
        server asks before it builds the hint's job, so that a client asking
        without pause is refused at the least cost."""
        with self._lock:
            if self._closed:
                raise PoolClosed("the server is stopping; try again once it is back")
            self._refuse_hint((match_id, seat), client)

    def _refuse_hint(self, key: tuple[str, int], client: str | None) -> None:
        """The refusal of a hint for ``key`` (match, seat) asked by ``client``, if
        any (called with the lock held)."""
        if key in self._hints:
            raise AlreadySearching(
                f"seat {key[1]} already asked for a hint; it is still being searched"
            )
        if client is not None and self._hint_clients.get(client, 0) >= HINTS_PER_CLIENT:
            raise TooManyHints(
                f"this client has {HINTS_PER_CLIENT} hints being searched, the most "
                "one client may at once; try again once one is answered"
            )
        if self._people_searches >= self.workers:
            raise PoolFull(
                f"the server is running as many searches as it may ({self.workers} "
                "at once); try again shortly"
            )

    def _take(self) -> list[_Search]:
        """The waiting searches that free workers take now, class by class (called
        with the lock held): bots' turns in people's matches, on the kept worker
        or else a shared one; then hints while they hold fewer than ``_hint_cap``
        workers, on a shared one or else the kept one; then bots-only turns while
        no hint waits, on the shared workers only."""
        ready = []
        slots, busy = self._slots, self._busy
        while True:
            kept = busy["kept"] < slots["kept"]
            shared = busy["shared"] < slots["shared"]
            where: Where
            if self._people and (kept or shared):
                search, kind, where = self._people.popleft(), "bot", "kept" if kept else "shared"
            elif self._hint_queue and (kept or shared) and self._running_hints < self._hint_cap:
                search, kind, where = (
                    self._hint_queue.popleft(),
                    "hint",
                    "shared" if shared else "kept",
                )
                self._running_hints += 1
            elif self._bots_only and not self._hint_queue and shared:
                search, kind, where = self._bots_only.popleft(), "bots-only", "shared"
            else:
                break
            search.where = where
            busy[where] += 1
            ready.append(search)
            self.started.append((search.job.match_id, search.job.seat, kind))
        return ready

    def _send(self, ready: list[_Search]) -> None:
        """Hand each search to its kind of worker's executor; its end settles the
        caller's future."""
        for search in ready:
            where = search.where
            with self._lock:
                if search.generation != self.generation:  # the pool closed meanwhile
                    search.future.cancel()
                    continue
                executor = self._executors[where] or self._start(where)
            try:
                try:
                    running = self._execute(executor, search.job)
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): start a new pool, once.
                    log.error("a search worker died; starting the search pool again")
                    with self._lock:
                        if self._executors[where] is executor:
                            self._executors[where] = None
                        executor = self._executors[where] or self._start(where)
                    running = self._execute(executor, search.job)
            except Exception as exc:
                self._settle(search, None, exc)
                continue
            running.add_done_callback(partial(self._settle, search))

    def _execute(self, executor: cf.Executor, job: SearchJob) -> cf.Future[Any]:
        if self._recipe is None:
            return executor.submit(run_search, job, self.registry)
        return executor.submit(_in_worker, job)

    def _settle(
        self, search: _Search, ended: cf.Future[Any] | None, error: BaseException | None = None
    ) -> None:
        """A search ended (or could not start): free its worker for the next one and
        hand its outcome to its caller."""
        with self._lock:
            ready = []
            if search.generation == self.generation:  # else close() reset the counts
                self._busy[search.where] -= 1
                if not search.bots_only:
                    self._people_searches -= 1
                if search.hint is not None:
                    self._running_hints -= 1
                    self._hints.discard(search.hint)
                    self._release_client(search.client)
                ready = self._take()
        if ready:
            # The executor calls this from its own thread, which must not be handed
            # more work (a process pool's manager thread would wait on itself): the
            # next searches leave from the pool's own thread.
            self.later(self._send, ready)
        outcome = search.future
        with contextlib.suppress(cf.InvalidStateError):  # cancelled by close() meanwhile
            if ended is None:
                outcome.set_exception(error or RuntimeError("the search did not start"))
            elif ended.cancelled():
                outcome.cancel()
            elif ended.exception() is not None:
                outcome.set_exception(ended.exception())
            else:
                outcome.set_result(ended.result())

    def _release_client(self, client: str | None) -> None:
        """One hint of ``client`` is over (called with the lock held)."""
        if client is None:
            return
        left = self._hint_clients.get(client, 0) - 1
        if left > 0:
            self._hint_clients[client] = left
        else:
            self._hint_clients.pop(client, None)

    def _start(self, where: Where) -> cf.Executor:
        """The executor of the ``where`` workers, started now (called with the lock
        held): worker processes at that kind's priority, or threads (see the
        module docstring)."""
        executor: cf.Executor
        workers = self._slots[where]
        if self._recipe is None:
            executor = cf.ThreadPoolExecutor(workers, thread_name_prefix="gameweave-search")
        else:
            niceness = KEPT_NICENESS if where == "kept" else WORKER_NICENESS
            executor = cf.ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self._recipe, niceness),
            )
        self._executors[where] = executor
        return executor

    def later(self, call: Callable[..., None], *args: Any) -> None:
        """Run ``call(*args)`` in the pool's own thread (the next searches are sent
        from there, out of the executor's way). An exception is logged. Once the
        pool is closed, ``call`` runs at once in the caller's thread instead: it can
        then only cancel what it was given, and no thread is started for it."""
        with self._lock:
            if not self._closed and self._done is None:
                self._done = cf.ThreadPoolExecutor(1, thread_name_prefix="gameweave-search-done")
            done = None if self._closed else self._done

        def run() -> None:
            try:
                call(*args)
            except Exception as exc:
                log.error("sending a search to the workers failed", exc_info=exc)

        if done is None:
            run()
        else:
            done.submit(run)

    def close(self) -> None:
        """Stop every search now: queued ones are cancelled and the workers ended
        (a search under way is not waited for); new ones are refused until
        :meth:`open`."""
        with self._lock:
            self._closed = True
            executors = [e for e in self._executors.values() if e is not None]
            self._executors = {"kept": None, "shared": None}
            done, self._done = self._done, None
            self.generation += 1
            waiting = [*self._people, *self._hint_queue, *self._bots_only]
            self._people.clear()
            self._hint_queue.clear()
            self._bots_only.clear()
            self._busy = {"kept": 0, "shared": 0}
            self._running_hints = 0
            self._people_searches = 0
            self._hints.clear()
            self._hint_clients.clear()
        for search in waiting:
            search.future.cancel()
        processes = []
        for executor in executors:
            processes += list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        if done is not None:
            done.shutdown(wait=True)


__all__ = [
    "SEARCHES_ENV",
    "AlreadySearching",
    "PoolClosed",
    "PoolFull",
    "SearchJob",
    "SearchPool",
    "TooManyHints",
    "bot_job",
    "default_workers",
    "hint_job",
    "hint_json",
    "is_search_bot",
    "run_search",
]
