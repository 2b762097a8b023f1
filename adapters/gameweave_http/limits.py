"""What one server holds at most, and how long it waits for a client.

Every limit answers with a status (429: this client asks too much; 503: the
server holds all it may; 408, 431), a one-line JSON error and, for 429 and 503,
a ``Retry-After`` header. Where each is held:

- event streams per match, per client and in total, seats' first streams in a
  place of their own (:class:`~gameweave_http.events.Listeners`);
- matches created, and logs replayed, per client (by address) per minute
  (:class:`RateLimit`);
- matches of bots only with a search bot under way, per client (by address) and
  in total (the hub; the search pool also serves people's searches first);
- live matches held in memory: past the limit, the least recently used idle ones
  are dropped, to be rebuilt from the store when next asked for (the hub);
- what an ASGI app can hold itself, however it is served, in the pipeline
  (:class:`~gameweave_http.pipeline.Gate`): the size of a head that arrived
  whole, requests answered at once, and the time to send a body;
- what needs the connection itself, in the protocol ``gameweave serve`` gives
  uvicorn (:mod:`gameweave_http.protocol`): connections open at once, the time to
  send a head, a head still arriving past its size, a body still arriving after
  its request was answered. Between requests, uvicorn's ``timeout_keep_alive``
  closes an idle connection.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import attrs


@attrs.frozen
class Limits:
    """The server's limits (see the module docstring). The defaults suit one
    machine serving a club or a classroom; ``gameweave serve`` takes each as an
    option."""

    #: Event streams open on one match (a browser tab each). One place is kept for
    #: each seat's first stream, so that no spectator can take it; spectators and
    #: a seat's further tabs share the rest.
    streams_per_match: int = 32
    #: Shared event streams (spectators' and seats' further tabs) one client
    #: address may hold open, on all matches together: no client can take the
    #: whole server's streams. A client's seats' first streams are counted apart,
    #: against the same number.
    streams_per_client: int = 100
    #: Shared event streams (spectators' and seats' further tabs) open on the
    #: whole server; seats' first streams are counted apart, against the same
    #: number: no crowd of spectators, on one match or on all, can shut a seat out
    #: of its own match.
    streams: int = 1000
    #: Matches one client address may create per minute.
    creates_per_minute: int = 30
    #: Logs one client address may replay per minute, a log counting once per
    #: started :data:`REPLAY_UNIT` bytes: stepping through a replay asks once a
    #: step, while the largest log (4 MiB) costs its replay the most.
    replays_per_minute: int = 300
    #: Matches of bots only (every seat a bot) with a search bot, under way at once
    #: on the whole server: another is refused (503) until one is over.
    bot_matches: int = 8
    #: The same, created by one client address: another is refused (429).
    bot_matches_per_client: int = 2
    #: Live matches held in memory; older idle ones are dropped (and rebuilt from
    #: the store on demand).
    live_matches: int = 1000
    #: Connections open at once; one more is answered 503 and closed. The app
    #: also answers at most this many requests at once (503 past it). Above
    #: twice :attr:`streams`, so that spectators' streams and seats' streams, all
    #: taken, still leave room for reads and actions.
    connections: int = 2400
    #: Seconds a client may take to send a request's headers.
    header_timeout: float = 10.0
    #: Seconds a client may take to send a request's body, once its headers are in.
    body_timeout: float = 20.0
    #: Seconds an idle keep-alive connection stays open (uvicorn's setting).
    keep_alive: int = 5
    #: The largest request head (request line and headers), in bytes: 431 past
    #: it (the protocol for a head still arriving, the app for one that arrived whole).
    max_head: int = 16 * 1024

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            value = getattr(self, field.name)
            if value <= 0:
                raise ValueError(f"the limit {field.name} must be positive, got {value}")


#: A replayed log counts once against ``replays_per_minute`` per started this many
#: bytes of it: a replay's work grows with its log.
REPLAY_UNIT = 64 * 1024

#: The environment variable holding limits for a server started without them, as
#: ``name=value`` pairs separated by commas (``streams=2000,creates_per_minute=600``).
LIMITS_ENV = "GAMEWEAVE_LIMITS"


def parse_limits(pairs: Iterable[str], base: Limits | None = None) -> Limits:
    """``base`` (default: the defaults) with each ``name=value`` of ``pairs`` set;
    a ``ValueError`` says in one line what is wrong with a pair."""
    fields = {f.name: f for f in attrs.fields(Limits)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in fields:
            raise ValueError(
                f"a limit is NAME=VALUE with NAME one of {', '.join(fields)}; got {pair[:60]!r}"
            )
        number = float if fields[name].type in (float, "float") else int
        try:
            changes[name] = number(text.strip())
        except ValueError:
            raise ValueError(f"the limit {name} must be a number, got {text[:60]!r}") from None
    return attrs.evolve(base or Limits(), **changes)


class RateLimit:
    """At most ``per_minute`` events per key in any 60 seconds (a sliding log of
    each key's last events, each of a cost, 1 unless said). Keys idle for a minute
    are forgotten, so the table stays as small as the number of recent clients.

    Each key keeps its events in order and their total cost, so that taking one
    costs the same however many the limit allows: with a sum over the log, a
    generous limit (the benchmarks' ten million matches a minute) cost every
    creation a walk over the last minute's (0.4 ms at 1,000 creations a minute)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._lock = threading.Lock()
        #: Key -> [the total cost of its events, its events (time, cost) oldest first].
        self._seen: dict[str, _Log] = {}
        self._swept = clock()

    def take(self, key: str, cost: int = 1) -> float | None:
        """Count an event of ``cost`` (at most ``per_minute``) for ``key`` and return
        ``None``, or, over the limit, count nothing and return the seconds until
        the event would be allowed."""
        cost = min(cost, self.per_minute)  # else an event dearer than the limit never passes
        now = self.clock()
        with self._lock:
            if now - self._swept > 60:
                self._seen = {k: v for k, v in self._seen.items() if now - v.events[-1][0] < 60}
                self._swept = now
            found = self._seen.get(key)
            if found is None:
                found = self._seen[key] = _Log()
            events = found.events
            while events and now - events[0][0] >= 60:
                found.spent -= events.popleft()[1]
            spent = found.spent
            if spent + cost > self.per_minute:
                # Wait until enough of the oldest events have slid out of the window.
                for at, c in events:
                    spent -= c
                    if spent + cost <= self.per_minute:
                        return 60 - (now - at)
            events.append((now, cost))
            found.spent += cost
            return None


class _Log:
    """One key's events of the last minute and their total cost."""

    __slots__ = ("events", "spent")

    def __init__(self) -> None:
        self.events: deque[tuple[float, int]] = deque()
        self.spent = 0
