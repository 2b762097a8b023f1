"""Live matches: rebuilt from the store, played by people and bots, one lock each.

The hub runs on the server's event loop, and everything that reads or changes a
match holds the match's lock (an :class:`asyncio.Lock`). A person's action is
checked and applied in memory, committed to the store with the others of the
same turn of the loop (the store's group commit), and only then is the lock
released and the reply built: no one ever sees an action that is not stored.
If the commit fails, the match is put back as the store has it.

Three things leave the event loop, each through :func:`off_loop`, while the
match's lock is held: rebuilding a match from the store (a replay of every
action), bots taking their turns (a bot may think at length), and giving out a
match's log (another replay). A search bot (``ismcts``) does not hold the lock
while it thinks: when the hub has a :class:`~gameweave_http.search.SearchPool`,
its turn becomes a job for the pool, the seat is listed as ``thinking`` in every
payload meanwhile, and the move is applied back on the loop when the search is
done, if the match has not moved in between (else the bot searches again from
where the match is). Reads and other seats' actions go on while it thinks.

A match of bots only (every seat a bot) with a search bot would keep the pool
busy for as long as it plays, with no one waiting for it: its searches queue
behind people's (see :mod:`~gameweave_http.search`), and the hub holds at most
``bot_matches`` of them under way, ``bot_matches_per_client`` of them created by
one client (by address). Those limits also bound the matches in memory that
cannot be dropped (a match is never dropped while its bot thinks).

What the hub refuses it raises as the reasons of :mod:`gameweave_http.refusals`
(and the core's :class:`~gameweave_core.IllegalAction`); their HTTP statuses are
not its business (see :mod:`gameweave_http.errors`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import itertools
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

import attrs

from gameweave_core import (
    ConfigError,
    GameweaveError,
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

from .errors import store_failed
from .refusals import (
    NoSuchMatch,
    NoSuchTitle,
    NotNow,
    NotSearchable,
    NotSeated,
    NotStored,
    Refusal,
    ServerFull,
    StaleVersion,
    TitleFailed,
    TooMany,
    Unavailable,
    Unplayable,
)
from .search import PoolClosed, SearchJob, SearchPool, bot_job, hint_job, is_search_bot
from .store import Damaged, Store, StoredMatch, new_match_id
from .wire import to_json

log = logging.getLogger("gameweave_http")

T = TypeVar("T")


async def off_loop(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in a worker thread, awaited: the one way work leaves the event
    loop (rebuilding a match, bots' turns, replays, files and queries that may take
    long). The caller keeps whatever lock it holds until the call is done."""
    return await asyncio.to_thread(call, *args)


#: Seconds after which a refused bots-only match may be asked for again: a share
#: frees when one of them ends, which takes minutes rather than seconds.
BOT_MATCHES_RETRY = 60


def short_id(match_id: str) -> str:
    return match_id if len(match_id) <= 64 else match_id[:64] + "..."


def unavailable(match_id: str) -> Unavailable:
    """The refusal for a match whose stored rows cannot be read or replayed."""
    return Unavailable(
        f"match {short_id(match_id)} is unavailable: its stored rows are damaged or do not "
        "replay (the server log has the detail); other matches are not affected"
    )


def title_failed(match_id: str, what: str, exc: BaseException) -> TitleFailed:
    """Log, in one line, that ``match_id``'s title raised ``exc`` while the server
    was ``what``; the refusal answering the request (503): the title's words may
    name state the seat must not see, so they go to the server log only."""
    log.error(
        "match %s: the title failed %s: %s",
        short_id(match_id),
        what,
        one_line(f"{type(exc).__name__}: {exc}")[:300],
    )
    return TitleFailed(
        f"match {short_id(match_id)} cannot be served now: its title failed (a bug in the "
        "title, see the server log); nothing changed, and other matches are not affected"
    )


#: Seconds one call of a title's rules (an action applied, a payload built) may
#: take on the event loop. A title that takes longer once has its rules run off
#: the loop from then on (see :attr:`Hub.slow_titles`), so that it cannot stall
#: the other matches again. Wall time, computing or waiting alike; far above a
#: title's usual call (microseconds) and any preemption of a live machine, which
#: is no fault of the title's. Only the wall clock is read, twice a call: the
#: thread's CPU clock too cost 2% of the server's CPU per request.
TITLE_BUDGET = 0.5


def _submitted(match: Match, seat: int, action: Any) -> bool:
    """Submit ``action`` and say whether it ended the match (the title's calls of
    an action, together, so that they are timed and moved off the loop together)."""
    match.submit(seat, action)
    return match.is_over


def _over(match: Match) -> bool:
    """Whether ``match`` is over; a title that cannot say counts as over (for the
    bookkeeping of bots-only matches, which must not fail for another match)."""
    try:
        return match.is_over
    except Exception:
        return True


def not_stored(what: str) -> NotStored:
    """The refusal when the store failed to write (a full disk, say): nothing changed."""
    return NotStored(f"{what} could not be stored (see the server log); nothing changed")


#: A count of the uses of live matches, shared by every hub.
_uses: Iterator[int] = itertools.count()


@attrs.define
class LiveMatch:
    """A match in memory, its bots and its lock."""

    id: str
    match: Match
    bots: dict[int, BotSeat]
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    #: Set when a bot failed; the match then waits for that seat forever.
    bot_error: str | None = None
    #: When it was last asked for (a count of uses), to drop the least recent first.
    used: int = attrs.field(factory=lambda: next(_uses))
    #: Seats whose bot is searching in the pool now, with the step it searches from.
    thinking: dict[int, int] = attrs.field(factory=dict)
    #: Bots' actions since a person's last one (bounded by the title's ``max_actions``).
    bot_streak: int = 0
    #: Each seat's payload (``None``: a spectator's) as last encoded, with the
    #: match's mark then (see :meth:`Hub.payload`).
    payloads: dict[int | None, tuple[Any, bytes]] = attrs.field(factory=dict)


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
        bot_matches: int = 8,
        bot_matches_per_client: int = 2,
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
        self._loading = asyncio.Lock()
        #: Where search bots take their turns and hints are searched (``None``: search
        #: bots play off the loop as cheap bots do, holding the match's lock).
        self.search = search
        self._tasks: set[asyncio.Task[None]] = set()
        #: Bots-only matches with a search bot under way, at most, on the server
        #: and created by one client (see the module docstring).
        self.bot_matches = bot_matches
        self.bot_matches_per_client = bot_matches_per_client
        #: Those under way: match id -> (the client that created it, or ``None``
        #: for one resumed from the store; the live match).
        self._bot_play: dict[str, tuple[str | None, LiveMatch]] = {}
        #: Seconds a title's call may take on the event loop (see :data:`TITLE_BUDGET`).
        self.title_budget = TITLE_BUDGET
        #: Titles (by name) that overran :attr:`title_budget` once: their actions
        #: are applied, and their payloads built, in a worker thread from then on
        #: (the match's lock held), at the cost of a thread's round trip each
        #: (about 0.1 ms of CPU), which the titles that keep to the budget never pay.
        self.slow_titles: set[str] = set()

    # -- creating -----------------------------------------------------------------

    async def create(
        self,
        title_name: str,
        players: int,
        seed: int | None = None,
        config: Mapping[str, Any] | None = None,
        bots: Mapping[int, str | None] | None = None,
        host_token: str | None = None,
        client: str = "",
    ) -> tuple[LiveMatch, dict[int, str]]:
        """A new stored match and the token of each human seat; its bots play at once.
        ``host_token`` (stored hashed) may later reissue the seats' tokens.
        ``client`` (its address) is who asks, for the limits of bots-only matches."""
        try:
            entry = self.registry.entry(title_name)
        except UnknownTitle as exc:
            raise NoSuchTitle(str(exc)) from None
        title = entry.title
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise Unplayable(f"seed must be between 0 and {MAX_SEED}, got {seed}")
        bots = dict(bots or {})
        bad = sorted(s for s in bots if not 1 <= s <= players)
        if bad:
            raise Unplayable(f"there is no seat {bad[0]} for a bot: seats are 1 to {players}")
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
            seated = seat_bots(match, bots, self.registry) if bots else {}
        except ConfigError as exc:
            raise Unplayable(str(exc)) from None
        except GameweaveError:
            raise
        except Exception as exc:
            raise title_failed(f"(new, {title.name})", "setting the match up", exc) from None
        bot_play = _bots_only_search(match, seated)
        if bot_play:
            self._bot_play_share(client)  # or the refusal, before anything is stored
        tokens = {s: secrets.token_urlsafe(24) for s in range(1, players + 1) if s not in bots}
        match_id = new_match_id()
        try:
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
        except Exception as exc:
            store_failed("a new match", exc)
            raise not_stored("the new match") from None
        live = LiveMatch(match_id, match, seated)
        self._live[match_id] = live
        if bot_play:
            self._bot_play[match_id] = (client, live)
        self._evict(keep=live)
        if seated:
            async with live.lock:
                await self._run_bots(live)
        return live, tokens

    async def seats(self, live: LiveMatch) -> tuple[dict[int, str], int]:
        """Each seat's label, as a spectator's payload names them, and the version."""
        async with live.lock:
            match = live.match
            with self._rules(live, "naming the seats"):
                return {s: match.seat_label(s) for s in range(1, match.players + 1)}, match.step

    # -- finding --------------------------------------------------------------------

    async def get(self, match_id: str) -> LiveMatch:
        """The live match ``match_id``, rebuilt from the store (off the loop) on first
        use. A turn its bots owe (the server stopped between a person's action and
        their answer) is taken now."""
        live = self._live.get(match_id)
        if live is None:
            live = await self._load(match_id)
        live.used = next(_uses)
        if live.bots:
            with self._rules(live, "finding whose turn it is"):
                owed = self._owes_bots(live)
            if owed and self._may_play(live):
                async with live.lock:
                    await self._run_bots(live)
        return live

    # -- bots-only matches ------------------------------------------------------------

    def _bot_play_now(self) -> dict[str, tuple[str | None, LiveMatch]]:
        """The bots-only search matches under way, those that ended (or were
        dropped from memory, their turn owed) forgotten."""
        self._bot_play = {
            match_id: (client, live)
            for match_id, (client, live) in self._bot_play.items()
            if not _over(live.match) and live.bot_error is None and self._live.get(match_id) is live
        }
        return self._bot_play

    def _bot_play_share(self, client: str | None) -> None:
        """Refuse another bots-only search match for ``client`` past its limit
        (:class:`TooMany`, 429) or past the server's (:class:`ServerFull`, 503)."""
        under_way = self._bot_play_now()
        mine = sum(1 for owner, _ in under_way.values() if owner == client)
        if client is not None and mine >= self.bot_matches_per_client:
            raise TooMany(
                f"this client already has {mine} matches of bots only with a search bot "
                "under way, the most it may; try again once one is over",
                retry_after=BOT_MATCHES_RETRY,
            )
        if len(under_way) >= self.bot_matches:
            raise ServerFull(
                f"the server already has {len(under_way)} matches of bots only with a "
                "search bot under way, the most it may; try again once one is over",
                retry_after=BOT_MATCHES_RETRY,
            )

    def _may_play(self, live: LiveMatch) -> bool:
        """Whether ``live``'s owed bot turn may be taken now. A bots-only search
        match rebuilt from the store (the server stopped while it played) takes
        a share of the server's limit to go on; with none free it waits, its
        turn owed, until it is asked for again."""
        known = self._bot_play.get(live.id)
        if known is not None and known[1] is live:
            return True  # under way, counted
        if not _bots_only_search(live.match, live.bots):
            return True
        try:
            self._bot_play_share(None)
        except ServerFull:
            return False
        self._bot_play[live.id] = (None, live)
        return True

    async def _load(self, match_id: str) -> LiveMatch:
        if not _plausible_id(match_id):
            raise NoSuchMatch(f"no match with id {short_id(match_id)!r}")
        async with self._loading:
            live = self._live.get(match_id)
            if live is None:
                live = await off_loop(self._rebuilt, match_id)
                self._live[match_id] = live
                self._evict(keep=live)
        return live

    def _rebuilt(self, match_id: str) -> LiveMatch:
        """The match as the store has it (in a worker thread)."""
        try:
            stored = self.store.load(match_id)
        except Damaged:
            raise unavailable(match_id) from None
        if stored is None:
            raise NoSuchMatch(f"no match with id {short_id(match_id)!r}")
        return self._replay(stored)

    def live_count(self) -> int:
        """How many matches are held in memory."""
        return len(self._live)

    def _evict(self, keep: LiveMatch) -> None:
        """Past :attr:`max_live`, drop the least recently used matches (a tenth of
        the limit at once, so that the sort is rare) that no one holds: no event
        stream, lock free, no search. Dropped matches are rebuilt from the store
        when next asked for. ``keep``, the match just put in, is never dropped: its
        caller is about to use it (its bots to play), and a search started for a
        match no longer held would go on beside its rebuilt twin's."""
        if len(self._live) <= self.max_live:
            return
        goal = self.max_live - max(1, self.max_live // 10)
        by_use = sorted(self._live.values(), key=lambda live: live.used)
        for live in by_use:
            if len(self._live) <= goal:
                break
            if live is keep or live.lock.locked() or live.thinking or self.pinned(live.id):
                continue
            del self._live[live.id]
            self.store.forget(live.id)

    def _replay(self, stored: StoredMatch) -> LiveMatch:
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
                raise Unavailable(
                    f"match {stored.id} is unavailable: its title {stored.title!r} is not "
                    "installed on this server"
                ) from None
            raise unavailable(stored.id) from None
        except Exception as exc:  # values of the rows the title cannot take
            log.error("match %s cannot be rebuilt", stored.id, exc_info=exc)
            raise unavailable(stored.id) from None
        return LiveMatch(stored.id, match, bots)

    def seat(self, match_id: str, token: str | None) -> int | None:
        """The seat of ``token`` in ``match_id`` (``None`` without a token: a
        spectator). The tokens of a live match are in memory; others are read from
        the store (one short query)."""
        if token is None:
            return None
        try:
            seat = self.store.seat_for(match_id, token) if len(token) <= 200 else None
        except Damaged:
            raise unavailable(match_id) from None
        if seat is None:
            try:
                replaced = self.store.retired_seat(match_id, token) if len(token) <= 200 else None
            except sqlite3.DatabaseError:
                replaced = None  # damage says no more than "no seat" would
            where = f"that token belongs to no seat of match {short_id(match_id)}"
            if replaced is not None:
                raise NotSeated(
                    f"{where} any more: whoever created the match gave seat {replaced} a new link"
                )
            raise NotSeated(f"{where}: it never opened one (is the link mistyped or cut short?)")
        return seat

    # -- reading ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _rules(self, live: LiveMatch, what: str) -> Iterator[None]:
        """Answer an exception of ``live``'s title, raised while the server was
        ``what``, with :class:`TitleFailed` (503) and one line in the log, rather
        than a 500: the title's bug is that match's alone. The core's and the
        server's own refusals pass."""
        try:
            yield
        except (GameweaveError, Refusal):
            raise
        except Exception as exc:
            raise title_failed(live.id, what, exc) from None

    def _is_slow(self, match: Match) -> bool:
        return bool(self.slow_titles) and match.title.name in self.slow_titles

    def _overran(self, match: Match, seconds: float) -> None:
        """One call of ``match``'s title took ``seconds`` on the loop, past
        :attr:`title_budget`: its rules run off the loop from now on."""
        if match.title.name not in self.slow_titles:
            self.slow_titles.add(match.title.name)
            log.warning(
                "the title %s took %.2f s on the event loop, over the server's budget of "
                "%.2f s: its rules run in a worker thread from now on, so that they do "
                "not stall other matches",
                match.title.name,
                seconds,
                self.title_budget,
            )

    async def payload(self, live: LiveMatch, seat: int | None) -> bytes:
        """Everything ``seat`` may see of ``live``, encoded for the API."""
        found = self.payload_now(live, seat)
        if found is not None:
            return found
        async with live.lock:
            return await self._payload_held(live, seat)

    def payload_now(self, live: LiveMatch, seat: int | None) -> bytes | None:
        """:meth:`payload` without waiting, when it needs no wait (``None``: it
        does, the match's lock being held, or its title slow). Every event of
        every stream reads here, without a coroutine of its own."""
        if not live.lock.locked() and not self._is_slow(live.match):
            # No await between this check and the answer, and nothing changes a
            # match without its lock: the same as taking the lock, without its cost.
            return self._payload(live, seat)
        return None

    async def _payload_held(self, live: LiveMatch, seat: int | None) -> bytes:
        """:meth:`_payload`, the lock held: off the loop for a slow title (unless
        it is the one already encoded)."""
        if self._is_slow(live.match) and self._kept(live, seat) is None:
            return await off_loop(self._payload, live, seat)
        return self._payload(live, seat)

    def _kept(self, live: LiveMatch, seat: int | None) -> bytes | None:
        """The payload of ``seat`` as last encoded, if the match has not changed since."""
        mark = (live.match.step, live.bot_error, tuple(live.thinking) if live.thinking else ())
        found = live.payloads.get(seat)
        if found is not None and found[0] == mark:
            return found[1]
        return None

    def _payload(self, live: LiveMatch, seat: int | None) -> bytes:
        """``Match.payload(seat)`` (what the conformance kit checks for leaks) plus
        fields that hold no state of the match: its id, the bot seats (fixed at
        creation), a label per legal action (``describe_action`` of that action
        alone), the seats thinking and a failed bot's notice. Every read, reply and
        event is this, encoded once per change of the match: the reply to an action
        is the same bytes as the mover's next event."""
        mark = (live.match.step, live.bot_error, tuple(live.thinking) if live.thinking else ())
        found = live.payloads.get(seat)
        if found is not None and found[0] == mark:
            return found[1]
        match = live.match
        started = time.perf_counter()
        # try/except rather than _rules: this is every read's road.
        try:
            out = match.payload(seat)
            out["labels"] = labels(match, seat, self._labels)
        except (GameweaveError, Refusal):
            raise
        except Exception as exc:
            whose = "a spectator" if seat is None else f"seat {seat}"
            raise title_failed(live.id, f"building the payload of {whose}", exc) from None
        took = time.perf_counter() - started
        if took > self.title_budget:
            self._overran(match, took)
        out["match"] = live.id
        out["bots"] = sorted(live.bots)
        out["thinking"] = sorted(live.thinking)
        if live.bot_error is not None:
            out["bot_error"] = live.bot_error
        # Kept as a copy of its own size: orjson hands back its whole working buffer
        # (16 KiB for a payload of one), which a kept payload would hold on to
        # (versus benchmark, 1,000 live matches: 58 -> 43 KiB per match).
        body = bytes(memoryview(to_json(out)))
        live.payloads[seat] = (mark, body)
        return body

    # -- acting -------------------------------------------------------------------------

    async def submit(self, live: LiveMatch, seat: int, version: int, action: Any) -> bytes:
        """Apply ``action`` for ``seat`` if the client saw ``version``; commit it; let
        the bots answer; return the seat's new payload."""
        async with live.lock:
            match = live.match
            # Whether a stale version may pass takes a replay to it: off the loop.
            if version != match.step:
                with self._rules(live, f"checking version {version} of seat {seat}"):
                    stale = not (
                        _may_be_stale_ok(match, seat, version)
                        and await off_loop(_stale_ok, match, seat, version)
                    )
                if stale:
                    raise StaleVersion(
                        f"stale submission: you saw version {version} but the match is at "
                        f"version {match.step}; reload and try again"
                    )
            if seat in live.bots:
                raise NotNow(f"seat {seat} is played by a bot")
            action, over = await self._apply(live, seat, action)
            await self._commit(live, seat, action, over)
            live.bot_streak = 0
            if live.bots:
                with self._rules(live, "finding whose turn it is"):
                    owed = self._owes_bots(live)
                if owed:
                    await self._run_bots(live)
            try:
                return await self._payload_held(live, seat)
            except TitleFailed:
                raise TitleFailed(
                    f"the action was stored, but match {short_id(live.id)} cannot be shown "
                    "now: its title failed (a bug in the title, see the server log)"
                ) from None

    async def _apply(self, live: LiveMatch, seat: int, action: Any) -> tuple[Any, bool]:
        """Submit ``action`` to the match in memory; the action object it was, and
        whether it ended the match. A refused action (the core's
        :class:`~gameweave_core.IllegalAction`) changes nothing, nor does a title
        that fails on it (:class:`TitleFailed`). Timed on the loop against the
        title's budget; off the loop for a title that overran it."""
        match = live.match
        codec = match.title.codec
        step = match.step
        try:
            # Decoded here, once, so that the stored JSON is the canonical form of
            # exactly this action (rather than re-encoding the whole log each time).
            if type(action) not in codec.classes:
                action = codec.from_json(action)
            if self._is_slow(match):
                over = await off_loop(_submitted, match, seat, action)
            else:
                started = time.perf_counter()
                over = _submitted(match, seat, action)
                took = time.perf_counter() - started
                if took > self.title_budget:
                    self._overran(match, took)
        except TitleError as exc:
            # A bug in the title: the match rolled back. The detail may name state the
            # seat must not see, so it goes to the server log only.
            log.error("match %s: %s", live.id, exc)
            match.failed = None
            raise TitleFailed(
                "the title failed on this action (a bug in the title); nothing changed"
            ) from None
        except (GameweaveError, Refusal):
            raise
        except Exception as exc:
            failed = title_failed(live.id, f"on action {step + 1} (seat {seat})", exc)
            if match.step != step:
                # Applied, but the title could not say whether it ended the match:
                # nothing was stored, so the match is put back as stored.
                await self._reload(live)
            raise failed from None
        return action, over

    async def _commit(self, live: LiveMatch, seat: int, action: Any, over: bool) -> None:
        """Commit the action just applied (with the others of this turn of the loop),
        then tell the event streams; a failed commit puts the match back as the store
        has it and raises :class:`~gameweave_http.refusals.NotStored`."""
        match = live.match
        committed = self.store.commit_soon(
            live.id, match.step, seat, match.title.codec.to_json(action), over
        )
        try:
            await committed
        except asyncio.CancelledError:
            # Raised only once the commit is decided (a Commit cannot be cancelled):
            # settle the match before the lock is let go of.
            error = committed.exception()
            if error is None:
                self.notify(live.id)
            else:
                with contextlib.suppress(Refusal):
                    await self._put_back(live, error)
            raise
        except Exception as exc:
            await self._put_back(live, exc)
        self.notify(live.id)

    async def _put_back(self, live: LiveMatch, error: BaseException) -> None:
        """Not stored means not accepted: put the match back as the store has it,
        then raise the refusal."""
        store_failed(f"match {live.id}: action {live.match.step}", error)
        await self._reload(live)
        raise not_stored("the action")

    async def _reload(self, live: LiveMatch) -> None:
        """Put ``live``'s match back as the store has it (a replay, off the loop)."""
        try:
            again = await off_loop(self._rebuilt, live.id)
        except Unavailable:
            # What is stored cannot be read back: forget the match in memory too,
            # so that it is answered as unavailable rather than served unstored.
            self._live.pop(live.id, None)
            raise
        live.match = again.match
        live.payloads.clear()

    # -- bots -----------------------------------------------------------------------------

    def _owes_bots(self, live: LiveMatch) -> bool:
        """Whether a bot seat is next to act (and is not searching already)."""
        if live.bot_error is not None:
            return False
        seat = next((s for s in live.match.awaiting if s in live.bots), None)
        return seat is not None and seat not in live.thinking

    async def _run_bots(self, live: LiveMatch) -> None:
        """The bots' turns until a person is awaited (called with the lock held).
        Each bot chooses off the loop; its action is applied and committed as a
        person's is. A search bot's turn is handed to the pool instead."""
        while live.bot_error is None:
            match = live.match
            with self._rules(live, "finding whose turn it is"):
                seat = next((s for s in match.awaiting if s in live.bots), None)
            if seat is None or seat in live.thinking:
                # A bot searching now answers first: the bots keep their seat order.
                return
            if live.bot_streak >= match.title.max_actions:
                live.bot_error = "the bots did not finish within the title's action bound"
                self.notify(live.id)
                return
            seat_bot = live.bots[seat]
            if self.search is not None and is_search_bot(seat_bot.bot):
                self._think(live, bot_job(live.id, match, seat, seat_bot.name))
                return
            # Seeded by step, so a bot plays the same whether or not the server restarted.
            seat_bot.rng = Rng(derive_seed(match.seed, f"bot:{seat}:{match.step}"))
            try:
                chosen = await off_loop(seat_bot.bot.act, match.observe(seat), seat_bot.rng)
                action, over = await self._apply(live, seat, chosen)
                await self._commit(live, seat, action, over)
            except Exception as exc:
                self._bot_failed(live, seat, exc)
                return
            live.bot_streak += 1

    def _bot_failed(self, live: LiveMatch, seat: int, exc: BaseException) -> None:
        log.error("match %s: bot in seat %d failed: %s", live.id, seat, exc)
        live.bot_error = f"the bot in seat {seat} failed; the match cannot go on"
        self.notify(live.id)

    def _think(self, live: LiveMatch, job: SearchJob) -> None:
        """Hand a search bot's turn to the pool (on the loop, the lock held); the seat
        is ``thinking`` until :meth:`_thought` applies the move."""
        pool = self.search
        assert pool is not None
        loop = asyncio.get_running_loop()
        generation = pool.generation
        try:
            # A turn no person waits for yields the workers to those a person does.
            future = pool.submit(job, bots_only=len(live.bots) == live.match.players)
        except PoolClosed:
            return  # the server is stopping: the turn is owed, and taken after a restart
        except Exception as exc:
            log.error(
                "match %s: could not start the search of seat %d", live.id, job.seat, exc_info=exc
            )
            live.bot_error = f"the bot in seat {job.seat} could not start its search"
            self.notify(live.id)
            return
        live.thinking[job.seat] = job.step

        def done(found: cf.Future[Any]) -> None:  # in the pool's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server stopped
                loop.call_soon_threadsafe(self._searched, live, job, generation, found)

        future.add_done_callback(done)
        self.notify(live.id)  # event streams show the seat thinking

    def _searched(self, live: LiveMatch, job: SearchJob, generation: int, found: Any) -> None:
        """On the loop: apply the finished search (:meth:`_thought`) as a task."""
        task = asyncio.ensure_future(self._thought(live, job, generation, found))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _thought(
        self, live: LiveMatch, job: SearchJob, generation: int, future: cf.Future[Any]
    ) -> None:
        """A bot's search is done: apply its move if the match is where the search
        started, else search again from where it is now."""
        seat, step = job.seat, job.step
        async with live.lock:
            if live.thinking.get(seat) != step:
                return
            del live.thinking[seat]
            pool = self.search
            if future.cancelled() or pool is None or pool.generation != generation:
                # The pool was closed (the server stops): the turn is still owed,
                # and is searched again when the match is next asked for.
                self.notify(live.id)
                return
            error = future.exception()
            if error is not None:
                self._bot_failed(live, seat, error)
                return
            match = live.match
            if live.bot_error is None and match.step == step and seat in match.awaiting:
                try:
                    action, over = await self._apply(live, seat, future.result())
                    await self._commit(live, seat, action, over)
                except Exception as exc:
                    self._bot_failed(live, seat, exc)
                    return
                live.bot_streak += 1
            else:
                self.notify(live.id)  # no longer thinking (it may think again below)
            # A task of its own: a title failing here is logged (by _rules) and
            # the match's next request is answered as that one is.
            with contextlib.suppress(TitleFailed):
                with self._rules(live, "finding whose turn it is"):
                    owed = self._owes_bots(live)
                if owed:
                    await self._run_bots(live)

    def searches_ended(self) -> None:
        """The pool was closed (the server stops): no seat is thinking any more, and
        each turn is owed, to be searched again when its match is next asked for."""
        for live in self._live.values():
            if live.thinking:
                live.thinking.clear()
                self.notify(live.id)

    # -- hints and logs -------------------------------------------------------------------

    async def hint_job(self, live: LiveMatch, seat: int) -> SearchJob:
        """The search of a hint for ``seat`` now, from its observation only."""
        async with live.lock:
            with self._rules(live, f"checking seat {seat}'s turn for a hint"):
                match = live.match
                if not match.title.can_resample:
                    raise NotSearchable(
                        f"{match.title.display_name} cannot be searched (it has no resample "
                        "hook), so it gives no hints"
                    )
                if match.is_over:
                    raise NotNow("the match is over: there is nothing left to hint")
                if seat not in match.awaiting:
                    raise NotNow(f"it is not seat {seat}'s turn: a hint is for the seat's own turn")
                return hint_job(live.id, match, seat)

    async def log_text(self, live: LiveMatch) -> str:
        """The TOML log of a finished match (a replay, off the loop)."""
        async with live.lock:
            with self._rules(live, "checking that the match is over"):
                over = live.match.is_over
            if not over:
                raise NotNow(
                    "the match is not over: its log reveals every seat's secrets, "
                    "so it is given out only at the end"
                )
            try:
                return await off_loop(lambda: live.match.to_log().to_toml())
            except TitleError as exc:
                # The title replays this match differently: a log of it would not
                # replay, so none is given out (the detail goes to the server log).
                log.error("match %s: no log given out: %s", live.id, exc)
                raise TitleFailed(
                    f"the log of match {live.id} does not replay with the installed "
                    f"{live.match.title.name} (a bug in the title), so it is not given out"
                ) from None


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


def _bots_only_search(match: Match, bots: Mapping[int, BotSeat]) -> bool:
    """Whether every seat of ``match`` is a bot and one of them searches."""
    return len(bots) == match.players and any(is_search_bot(b.bot) for b in bots.values())


def _plausible_id(match_id: str) -> bool:
    return 0 < len(match_id) <= 64 and all(c.isalnum() or c in "-_" for c in match_id)


def _may_be_stale_ok(match: Match, seat: int, version: int) -> bool:
    """The checks of :func:`_stale_ok` that take no replay."""
    step = match.step
    return 0 <= version < step and step - version < match.players and seat in match.awaiting


def _stale_ok(match: Match, seat: int, version: int) -> bool:
    """Whether ``seat`` may act on ``version``, older than the match, because
    nothing it can do has changed since: it was awaited then and is now, it has
    not acted since, every action since was another seat's choice of the same
    round (a seat awaited at ``version`` too, once each), and its legal actions
    are the same. Several seats choosing at once (sealed bids) then need not
    reload after each other's choice, while a page that missed a turn, or a
    round, is still refused."""
    if not _may_be_stale_ok(match, seat, version):
        return False
    since = [s for s, _ in match.actions()[version:]]
    if seat in since or len(set(since)) != len(since):
        return False
    then = match.at(version)
    if seat not in then.awaiting or not set(since) <= set(then.awaiting):
        return False
    return then.legal_json(seat) == match.legal_json(seat)
