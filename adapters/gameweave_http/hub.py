"""Live matches: rebuilt from the store, played by people and bots, one lock each.

The hub is plain synchronous code. Each match has its own lock: everything that
reads or changes a match holds it, and every accepted action is committed to the
store before the lock is released and the caller gets its reply.

The app calls the hub on the event loop itself when the call is short and bounded
(a live match without bots, whose lock is free: a person's action is one rules
step, one small commit and one payload), because handing every request to a
worker thread and back costs more than the work. There a submission is split in
two: :meth:`Hub.begin` applies the action and keeps the lock, the app awaits the
group commit, and :meth:`Hub.finish` releases the lock. Anything that could take long or
wait — rebuilding a match from the store, running bots, a lock another thread
holds — is refused with :class:`Busy` when called with ``wait=False``, before
anything changed, and the app makes the same call again from a worker thread.

A search bot (``ismcts``) does not take its turn under the lock: when a hub has a
:class:`~gameweave_http.search.SearchPool`, the bot's turn becomes a job for the
pool, the seat is listed as ``thinking`` in every payload meanwhile, and the move
is applied when the search is done, if the match has not moved in between (else
the bot searches again from where the match is). Reads and other seats' actions
go on while it thinks. Cheap bots still play in the hub's thread.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from gameweave_core import (
    ConfigError,
    GameweaveError,
    IllegalAction,
    Match,
    Registry,
    Rng,
    TitleError,
    UnknownTitle,
    default_registry,
    derive_seed,
    seat_bots,
)
from gameweave_core.errors import one_line
from gameweave_core.rng import MAX_SEED
from gameweave_core.runner import BotSeat

from .search import PoolClosed, SearchJob, SearchPool, bot_job, hint_job, is_search_bot
from .store import Damaged, Store, StoredMatch

log = logging.getLogger("gameweave_http")


class ApiError(Exception):
    """A refusal the API reports as ``status`` with a one-line ``message``."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(one_line(message))
        self.status = status
        self.message = one_line(message)
        #: Seconds after which the same request may succeed (a ``Retry-After`` header).
        self.retry_after = retry_after


def unavailable(match_id: str) -> ApiError:
    """The refusal for a match whose stored rows cannot be read or replayed."""
    return ApiError(
        503,
        f"match {short_id(match_id)} is unavailable: its stored rows are damaged or do not "
        "replay (the server log has the detail); other matches are not affected",
        retry_after=3600,
    )


def not_stored(what: str) -> ApiError:
    """The refusal when the store failed to write (a full disk, say): nothing changed."""
    return ApiError(
        503, f"{what} could not be stored (see the server log); nothing changed", retry_after=30
    )


def short_id(match_id: str) -> str:
    return match_id if len(match_id) <= 64 else match_id[:64] + "..."


class Busy(Exception):
    """The call, made with ``wait=False``, would have to wait or might take long;
    nothing changed. Make it again with ``wait=True`` from a worker thread."""


#: A count of the uses of live matches, shared by every hub.
_uses: Iterator[int] = itertools.count()


@attrs.define
class LiveMatch:
    """A match in memory, its bots and its lock."""

    id: str
    match: Match
    bots: dict[int, BotSeat]
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    #: Set when a bot failed; the match then waits for that seat forever.
    bot_error: str | None = None
    #: When it was last asked for (a count of uses), to drop the least recent first.
    used: int = attrs.field(factory=lambda: next(_uses))
    #: Seats whose bot is searching in the pool now, with the step it searches from.
    thinking: dict[int, int] = attrs.field(factory=dict)
    #: Bots' actions since a person's last one (bounded by the title's ``max_actions``).
    bot_streak: int = 0


def status_of(exc: IllegalAction) -> int:
    """The HTTP status of a refused action."""
    from gameweave_core import GameOver, MalformedAction, NotAwaited

    if isinstance(exc, MalformedAction):
        return 400
    if isinstance(exc, (NotAwaited, GameOver)):
        return 409
    return 422


class Hub:
    """Every live match of one server, backed by one :class:`Store`."""

    def __init__(
        self,
        store: Store,
        registry: Registry | None = None,
        notify: Callable[[str], None] | None = None,
        max_live: int = 1000,
        pinned: Callable[[str], int] | None = None,
        search: SearchPool | None = None,
    ) -> None:
        self.store = store
        self.registry = registry if registry is not None else default_registry()
        self.notify: Callable[[str], None] = notify or (lambda match_id: None)
        #: Live matches kept in memory; past it the least recently used idle ones
        #: are dropped (see :meth:`_evict`).
        self.max_live = max_live
        #: How many event streams hold a match (those are never dropped).
        self.pinned: Callable[[str], int] = pinned or (lambda match_id: 0)
        self._live: dict[str, LiveMatch] = {}
        self._labels: dict[tuple[Any, Any], str] = {}
        self._loading = threading.Lock()
        #: Where search bots take their turns and hints are searched (``None``: search
        #: bots play in the hub's thread, under the match's lock, as cheap bots do).
        self.search = search

    # -- creating -----------------------------------------------------------------

    def create(
        self,
        title_name: str,
        players: int,
        seed: int | None = None,
        config: Mapping[str, Any] | None = None,
        bots: Mapping[int, str | None] | None = None,
        wait: bool = True,
        host_token: str | None = None,
    ) -> tuple[LiveMatch, dict[int, str]]:
        """A new stored match and the token of each human seat. Bots play at once.
        ``host_token`` (stored hashed) may later reissue the seats' tokens."""
        if bots and not wait:
            raise Busy
        try:
            entry = self.registry.entry(title_name)
        except UnknownTitle as exc:
            raise ApiError(404, str(exc)) from None
        title = entry.title
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ApiError(422, f"seed must be between 0 and {MAX_SEED}, got {seed}")
        bots = dict(bots or {})
        bad = sorted(s for s in bots if not 1 <= s <= players)
        if bad:
            raise ApiError(422, f"there is no seat {bad[0]} for a bot: seats are 1 to {players}")
        try:
            for name in bots.values():  # an unknown bot is refused before any setup
                self.registry.bot(title, name)
            match = Match(
                title,
                players,
                seed,  # None: Match draws a fresh one, once the options are checked
                config,
                distribution=entry.distribution,
                distribution_version=entry.distribution_version,
            )
            seated = seat_bots(match, bots, self.registry)
        except ConfigError as exc:
            raise ApiError(422, str(exc)) from None
        tokens = {s: secrets.token_urlsafe(24) for s in range(1, players + 1) if s not in bots}
        match_id = secrets.token_urlsafe(9)
        try:
            self._store_new(match_id, title, players, match, entry, seated, tokens, host_token)
        except Exception as exc:
            log.error("could not store a new match", exc_info=exc)
            raise not_stored("the new match") from None
        live = LiveMatch(match_id, match, seated)
        with self._loading:
            self._live[match_id] = live
            self._evict()
        with live.lock:
            self._run_bots(live)
        return live, tokens

    def _store_new(
        self,
        match_id: str,
        title: Any,
        players: int,
        match: Match,
        entry: Any,
        seated: Mapping[int, BotSeat],
        tokens: dict[int, str],
        host_token: str | None = None,
    ) -> None:
        self.store.create(
            match_id,
            title=title.name,
            title_version=title.version,
            players=players,
            seed=match.seed,
            config=match.config,
            distribution=entry.distribution,
            distribution_version=entry.distribution_version,
            bots={s: b.name for s, b in seated.items()},
            tokens=tokens,
            generator=match.generator,
            host_token=host_token,
        )

    # -- finding --------------------------------------------------------------------

    def get(self, match_id: str, wait: bool = True) -> LiveMatch:
        """The live match ``match_id``, rebuilt from the store on first use."""
        live = self._live.get(match_id)
        if live is not None and not live.bots:
            live.used = next(_uses)
            return live  # no bots, so no turn of theirs can be owed
        if not wait:
            raise Busy
        if live is not None:
            with live.lock:
                self._run_bots(live)
            return live
        with self._loading:
            live = self._live.get(match_id)
            if live is None:
                try:
                    stored = self.store.load(match_id) if _plausible_id(match_id) else None
                except Damaged:
                    raise unavailable(match_id) from None
                if stored is None:
                    raise ApiError(404, f"no match with id {short_id(match_id)!r}")
                live = self._rebuild(stored)
                self._live[match_id] = live
                self._evict()
        live.used = next(_uses)
        with live.lock:
            # A server killed between a person's action and its bots' replies
            # resumes here: the bots take their turns now.
            self._run_bots(live)
        return live

    def live_count(self) -> int:
        """How many matches are held in memory."""
        return len(self._live)

    def _evict(self) -> None:
        """Past :attr:`max_live`, drop the least recently used matches (a tenth of
        the limit at once, so that the sort is rare) that no one holds: no event
        stream, lock free. Dropped matches are rebuilt from the store when next
        asked for. Called with ``_loading`` held."""
        if len(self._live) <= self.max_live:
            return
        goal = self.max_live - max(1, self.max_live // 10)
        by_use = sorted(self._live.values(), key=lambda live: live.used)
        for live in by_use:
            if len(self._live) <= goal:
                break
            if live.lock.locked() or live.thinking or self.pinned(live.id):
                continue
            del self._live[live.id]
            self.store.forget(live.id)

    def _rebuild(self, stored: StoredMatch) -> LiveMatch:
        try:
            entry = self.registry.entry(stored.title)
            match = Match(
                entry.title,
                stored.players,
                stored.seed,
                stored.config,
                distribution=stored.distribution,
                distribution_version=stored.distribution_version,
                generator=stored.generator,
            )
            for seat, act in stored.actions:
                match.submit(seat, act)
            bots = seat_bots(match, stored.bots, self.registry)
        except GameweaveError as exc:
            log.error("match %s cannot be rebuilt: %s", stored.id, exc)
            if isinstance(exc, UnknownTitle):
                raise ApiError(
                    503,
                    f"match {stored.id} is unavailable: its title {stored.title!r} is not "
                    "installed on this server",
                    retry_after=3600,
                ) from None
            raise unavailable(stored.id) from None
        except Exception as exc:  # values of the rows the title cannot take
            log.error("match %s cannot be rebuilt", stored.id, exc_info=exc)
            raise unavailable(stored.id) from None
        return LiveMatch(stored.id, match, bots)

    def seat(self, match_id: str, token: str | None, wait: bool = True) -> int | None:
        """The seat of ``token`` in ``match_id`` (``None`` without a token: a spectator)."""
        if token is None:
            return None
        if not wait and not self.store.tokens_cached(match_id):
            raise Busy
        seat = self.store.seat_for(match_id, token) if len(token) <= 200 else None
        if seat is None:
            raise ApiError(403, f"that token belongs to no seat of match {match_id}")
        return seat

    # -- reading ------------------------------------------------------------------------

    def payload(self, live: LiveMatch, seat: int | None, wait: bool = True) -> dict[str, Any]:
        """Everything ``seat`` may see of ``live``, for the API."""
        if not live.lock.acquire(wait):
            raise Busy
        try:
            return self._payload(live, seat)
        finally:
            live.lock.release()

    def _payload(self, live: LiveMatch, seat: int | None) -> dict[str, Any]:
        """``Match.payload(seat)`` (what the conformance kit checks for leaks) plus
        fields that hold no state of the match: its id, the bot seats (fixed at
        creation), a label per legal action (``describe_action`` of that action
        alone) and a failed bot's notice. Every read, reply and event is this."""
        match = live.match
        out = match.payload(seat)
        out["match"] = live.id
        out["bots"] = sorted(live.bots)
        out["labels"] = labels(match, seat, self._labels)
        out["thinking"] = sorted(live.thinking)
        if live.bot_error is not None:
            out["bot_error"] = live.bot_error
        return out

    def version(self, live: LiveMatch) -> int:
        with live.lock:
            return live.match.step

    # -- acting -------------------------------------------------------------------------

    def submit(
        self, live: LiveMatch, seat: int, version: int, action: Any, wait: bool = True
    ) -> dict[str, Any]:
        """Apply ``action`` for ``seat`` if the client saw ``version``; commit it; let
        the bots answer; return the seat's new payload."""
        if not wait and live.bots:
            raise Busy  # the bots may answer at length
        if not live.lock.acquire(wait):
            raise Busy
        try:
            _check_version(live.match, seat, version)
            if seat in live.bots:
                raise ApiError(409, f"seat {seat} is played by a bot")
            self._submit(live, seat, action)
            live.bot_streak = 0
            self._run_bots(live)
            return self._payload(live, seat)
        finally:
            live.lock.release()

    def begin(self, live: LiveMatch, seat: int, version: int, action: Any) -> tuple[int, Any, bool]:
        """The first half of :meth:`submit`, for the event loop: check ``action`` and
        apply it in memory, keeping the match's lock. Returns what to commit (the
        action's index, its JSON form, whether it ended the match); once the commit
        is done, :meth:`finish` must follow, whether or not it succeeded.

        Raises :class:`Busy` (nothing changed, no lock kept) for a match with bots
        or one whose lock another request holds, and :class:`ApiError` (likewise)
        for a refused action."""
        if live.bots or not live.lock.acquire(False):
            raise Busy
        try:
            match = live.match
            if version != match.step:
                raise Busy  # whether a stale version may pass takes a replay
            action = self._apply(live, seat, action)
            return match.step, match.title.codec.to_json(action), match.is_over
        except BaseException:
            live.lock.release()
            raise

    def finish(
        self, live: LiveMatch, seat: int, error: BaseException | None, reply: bool = True
    ) -> dict[str, Any] | None:
        """The second half: ``error`` is what the commit raised (``None``: it is
        stored). Tells the event streams, or puts the match back as the store has
        it and raises a 503 :class:`ApiError`; releases the lock. Returns the
        seat's new payload (``reply=False``: nothing)."""
        try:
            if error is not None:
                self._not_stored(live, error)
            self.notify(live.id)
            return self._payload(live, seat) if reply else None
        finally:
            live.lock.release()

    def _apply(self, live: LiveMatch, seat: int, action: Any) -> Any:
        """Submit ``action`` to the match in memory; the action object it was."""
        match = live.match
        codec = match.title.codec
        try:
            # Decoded here, once, so that the stored JSON is the canonical form of
            # exactly this action (rather than re-encoding the whole log each time).
            if type(action) not in codec.classes:
                action = codec.from_json(action)
            match.submit(seat, action)
        except IllegalAction as exc:
            raise ApiError(status_of(exc), str(exc)) from None
        except TitleError as exc:
            # A bug in the title: the match rolled back. The detail may name state the
            # seat must not see, so it goes to the server log only.
            log.error("match %s: %s", live.id, exc)
            match.failed = None
            raise ApiError(
                503, "the title failed on this action (a bug in the title); nothing changed"
            ) from None
        return action

    def _not_stored(self, live: LiveMatch, error: BaseException) -> None:
        """Not stored means not accepted: put the match back as the store has it."""
        log.error("match %s: could not store action %d", live.id, live.match.step, exc_info=error)
        try:
            stored = self.store.load(live.id)
        except Damaged:
            # What is stored cannot be read back: forget the match in memory too,
            # so that it is answered as unavailable rather than served unstored.
            self._live.pop(live.id, None)
            raise unavailable(live.id) from None
        if stored is not None:
            live.match = self._rebuild(stored).match
        raise not_stored("the action") from None

    def _submit(self, live: LiveMatch, seat: int, action: Any) -> None:
        action = self._apply(live, seat, action)
        match = live.match
        try:
            self.store.append(
                live.id, match.step, seat, match.title.codec.to_json(action), match.is_over
            )
        except Exception as exc:
            self._not_stored(live, exc)
        self.notify(live.id)

    def _run_bots(self, live: LiveMatch) -> None:
        match = live.match
        while live.bot_error is None:
            seat = next((s for s in match.awaiting if s in live.bots), None)
            if seat is None or seat in live.thinking:
                # A bot searching now answers first: the bots keep their seat order.
                return
            if live.bot_streak >= match.title.max_actions:
                live.bot_error = "the bots did not finish within the title's action bound"
                return
            seat_bot = live.bots[seat]
            if self.search is not None and is_search_bot(seat_bot.bot):
                self._think(live, seat, bot_job(live.id, match, seat, seat_bot.name))
                return
            # Seeded by step, so a bot plays the same whether or not the server restarted.
            seat_bot.rng = Rng(derive_seed(match.seed, f"bot:{seat}:{match.step}"))
            try:
                chosen = seat_bot.bot.act(match.observe(seat), seat_bot.rng)
                self._submit(live, seat, chosen)
            except Exception as exc:
                log.error("match %s: bot in seat %d failed: %s", live.id, seat, exc)
                live.bot_error = f"the bot in seat {seat} failed; the match cannot go on"
                self.notify(live.id)
                return
            live.bot_streak += 1

    def _think(self, live: LiveMatch, seat: int, job: SearchJob) -> None:
        """Hand a search bot's turn to the pool (called with the lock held); the
        seat is ``thinking`` until :meth:`_thought` applies the move."""
        pool = self.search
        assert pool is not None
        generation = pool.generation
        try:
            future = pool.submit(job)
        except PoolClosed:
            return  # the server is stopping: the turn is owed, and taken after a restart
        except Exception as exc:
            log.error(
                "match %s: could not start the search of seat %d", live.id, seat, exc_info=exc
            )
            live.bot_error = f"the bot in seat {seat} could not start its search"
            self.notify(live.id)
            return
        live.thinking[seat] = job.step
        future.add_done_callback(
            lambda done: pool.later(self._thought, live, seat, job.step, generation, done)
        )
        self.notify(live.id)  # event streams show the seat thinking

    def _thought(
        self, live: LiveMatch, seat: int, step: int, generation: int, future: cf.Future[Any]
    ) -> None:
        """A bot's search is done (in the pool's thread): apply its move if the match
        is where the search started, else search again from where it is now."""
        pool = self.search
        with live.lock:
            if live.thinking.get(seat) != step:
                return
            del live.thinking[seat]
            if future.cancelled() or pool is None or pool.generation != generation:
                # The pool was closed (the server stops): the turn is still owed,
                # and is searched again when the match is next asked for.
                self.notify(live.id)
                return
            match = live.match
            error = future.exception()
            if error is not None:
                log.error("match %s: bot in seat %d failed: %s", live.id, seat, error)
                live.bot_error = f"the bot in seat {seat} failed; the match cannot go on"
                self.notify(live.id)
                return
            if live.bot_error is None and match.step == step and seat in match.awaiting:
                try:
                    self._submit(live, seat, future.result())
                    live.bot_streak += 1
                except Exception as exc:
                    log.error("match %s: bot in seat %d failed: %s", live.id, seat, exc)
                    live.bot_error = f"the bot in seat {seat} failed; the match cannot go on"
                    self.notify(live.id)
                    return
            else:
                self.notify(live.id)  # no longer thinking (it may think again below)
            self._run_bots(live)

    # -- hints ----------------------------------------------------------------------------

    def hint_job(self, live: LiveMatch, seat: int, wait: bool = True) -> SearchJob:
        """The search of a hint for ``seat`` now, from its observation only; a
        refusal (422: the title cannot be searched; 409: not the seat's turn)."""
        if not live.lock.acquire(wait):
            raise Busy
        try:
            match = live.match
            if not match.title.can_resample:
                raise ApiError(
                    422,
                    f"{match.title.display_name} cannot be searched (it has no resample "
                    "hook), so it gives no hints",
                )
            if match.is_over:
                raise ApiError(409, "the match is over: there is nothing left to hint")
            if seat not in match.awaiting:
                raise ApiError(
                    409, f"it is not seat {seat}'s turn: a hint is for the seat's own turn"
                )
            return hint_job(live.id, match, seat)
        finally:
            live.lock.release()


#: Labels remembered per hub before its cache is emptied and started again.
LABEL_CACHE = 4096


def labels(
    match: Match, seat: int | None, cache: dict[tuple[Any, Any], str] | None = None
) -> list[str]:
    """A button label for each legal action of ``seat``, in the order of ``legal``.

    A title whose ``describe_action`` fails still gets usable buttons: the
    action's JSON form. With ``cache``, labels are remembered by (title, action):
    ``describe_action`` is given the action alone, so its label never changes,
    and titles hand out the same few actions turn after turn.
    """
    if seat is None:
        return []
    title = match.title
    out = []
    for act in match.legal_actions(seat):
        key = (title, act)
        try:
            text = cache[key] if cache is not None else None
        except (KeyError, TypeError):  # not seen yet, or an unhashable action
            text = None
        if text is None:
            try:
                text = title.describe_action(act)
            except Exception:
                text = json.dumps(title.codec.to_json(act), sort_keys=True)
            if cache is not None:
                if len(cache) >= LABEL_CACHE:
                    cache.clear()
                with contextlib.suppress(TypeError):
                    cache[key] = text
        out.append(text)
    return out


def _plausible_id(match_id: str) -> bool:
    return 0 < len(match_id) <= 64 and all(c.isalnum() or c in "-_" for c in match_id)


def _check_version(match: Match, seat: int, version: int) -> None:
    """Refuse a submission made on a version of the match the client no longer sees,
    unless only other seats' simultaneous choices came in since (see :func:`_stale_ok`)."""
    if version != match.step and not _stale_ok(match, seat, version):
        raise ApiError(
            409,
            f"stale submission: you saw version {version} but the match is at "
            f"version {match.step}; reload and try again",
        )


def _stale_ok(match: Match, seat: int, version: int) -> bool:
    """Whether ``seat`` may act on ``version``, older than the match, because
    nothing it can do has changed since: it was awaited then and is now, it has
    not acted since, every action since was another seat's choice of the same
    round (a seat awaited at ``version`` too, once each), and its legal actions
    are the same. Several seats choosing at once (sealed bids) then need not
    reload after each other's choice, while a page that missed a turn, or a
    round, is still refused."""
    step = match.step
    if not 0 <= version < step or step - version >= match.players:
        return False
    if seat not in match.awaiting:
        return False
    since = [s for s, _ in match.actions()[version:]]
    if seat in since or len(set(since)) != len(since):
        return False
    then = match.at(version)
    if seat not in then.awaiting or not set(since) <= set(then.awaiting):
        return False
    return then.legal_json(seat) == match.legal_json(seat)
