"""What one server holds at most, and how long it waits for a client.

Every limit answers with a status (429: this client asks too much; 503: the
server holds all it may), a one-line JSON error and a ``Retry-After`` header:

- event streams per match and in total (:class:`~gameweave_http.events.Listeners`);
- matches created per client (by address) per minute (:class:`RateLimit`);
- live matches held in memory: past the limit, the least recently used idle ones
  are dropped, to be rebuilt from the store when next asked for (the hub);
- connections open at once, and the time a client may take to send a request's
  headers and then its body (:class:`GuardedH11Protocol`, under the app: both
  the fast path and Starlette's routes are behind it). Between requests,
  uvicorn's ``timeout_keep_alive`` closes an idle connection, and its
  ``h11_max_incomplete_event_size`` bounds a head still arriving;
- what an ASGI app can hold itself, however it is served
  (:class:`~gameweave_http.app.GuardedApp`): the size of a head that arrived
  whole, requests answered at once, and the time to send a body. The header
  timeout and the cap on open connections need the protocol: an app sees no
  connection, and a request only once its head is in.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .wire import to_json


@attrs.frozen
class Limits:
    """The server's limits (see the module docstring). The defaults suit one
    machine serving a club or a classroom; ``gameweave serve`` takes each as an
    option."""

    #: Event streams open on one match (a browser tab each).
    streams_per_match: int = 32
    #: Event streams open on the whole server.
    streams: int = 1000
    #: Matches one client address may create per minute.
    creates_per_minute: int = 30
    #: Live matches held in memory; older idle ones are dropped (and rebuilt from
    #: the store on demand).
    live_matches: int = 1000
    #: Connections open at once; one more is answered 503 and closed. The app
    #: also answers at most this many requests at once (503 past it).
    connections: int = 1200
    #: Seconds a client may take to send a request's headers.
    header_timeout: float = 10.0
    #: Seconds a client may take to send a request's body, once its headers are in.
    body_timeout: float = 20.0
    #: Seconds an idle keep-alive connection stays open (uvicorn's setting).
    keep_alive: int = 5
    #: The largest request head (request line and headers), in bytes: 431 past
    #: it (uvicorn's ``h11_max_incomplete_event_size`` for a head still arriving,
    #: the app for one that arrived whole).
    max_head: int = 16 * 1024

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            value = getattr(self, field.name)
            if value <= 0:
                raise ValueError(f"the limit {field.name} must be positive, got {value}")


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
    each key's last events). Keys idle for a minute are forgotten, so the table
    stays as small as the number of recent clients."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, list[float]] = {}
        self._swept = clock()

    def take(self, key: str) -> float | None:
        """Count one event for ``key`` and return ``None``, or, over the limit,
        count nothing and return the seconds until the next event is allowed."""
        now = self.clock()
        with self._lock:
            if now - self._swept > 60:
                self._seen = {k: v for k, v in self._seen.items() if now - v[-1] < 60}
                self._swept = now
            times = self._seen.setdefault(key, [])
            while times and now - times[0] >= 60:
                times.pop(0)
            if len(times) >= self.per_minute:
                return 60 - (now - times[0])
            times.append(now)
            return None


def raw_refusal(status: int, reason: bytes, message: str, retry_after: int | None) -> bytes:
    """A whole HTTP/1.1 response that closes the connection, for the protocol,
    which answers before any app sees the request."""
    body = to_json({"error": message})
    retry = b"" if retry_after is None else f"retry-after: {retry_after}\r\n".encode()
    head = (
        f"HTTP/1.1 {status} ".encode()
        + reason
        + b"\r\ncontent-type: application/json\r\nconnection: close\r\n"
        + retry
        + f"content-length: {len(body)}\r\n\r\n".encode()
    )
    return head + body


TOO_MANY_CONNECTIONS = "the server holds as many connections as it may; try again shortly"
TOO_SLOW = "the request was not received in time; the connection is closed"
NOT_HTTP = "the request is not valid HTTP/1.1; the connection is closed"


def head_too_large(max_head: int) -> str:
    """The refusal of a request head over ``max_head`` bytes."""
    return (
        f"the request head (request line and headers) is larger than {max_head} bytes, "
        "the most the server reads"
    )


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a cap on open connections and time limits
    on receiving a request (its headers, then its body), which uvicorn lacks: a
    client that trickles bytes in would otherwise hold its connection forever.

    The limits are read from :attr:`limits`; :func:`guarded_protocol` makes a
    subclass with them set."""

    limits: Limits = Limits()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._read_timer: asyncio.TimerHandle | None = None
        self._reading: object = None
        if len(self.connections) > self.limits.connections:
            transport.write(raw_refusal(503, b"Service Unavailable", TOO_MANY_CONNECTIONS, 1))
            transport.close()
            return
        # Nothing sent yet counts as headers not yet sent.
        self._watch(h11.IDLE)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch(self.conn.their_state)

    def _watch(self, state: object) -> None:
        """Keep a timer running while a request is only partly in."""
        if state is h11.IDLE and self.conn.our_state is h11.IDLE:
            seconds = self.limits.header_timeout
        elif state is h11.SEND_BODY:
            seconds = self.limits.body_timeout
        else:
            self._stop_timer()
            self._reading = None
            return
        if self._reading is not state:
            self._stop_timer()
            self._reading = state
            self._read_timer = self.loop.call_later(seconds, self._too_slow)

    def _stop_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _too_slow(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(raw_refusal(408, b"Request Timeout", TOO_SLOW, 1))
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """h11 refused what was received: a one-line JSON error instead of
        uvicorn's plain text, 431 when a head still arriving outgrew
        :attr:`Limits.max_head` (h11 holds no more of an unfinished head; a
        finished one is measured by the app, see :class:`~gameweave_http.app.GuardedApp`)."""
        if self.cycle is not None and not self.cycle.response_complete:
            self.transport.close()  # a response is under way: nothing more can be said
            return
        if len(self.conn.trailing_data[0]) > self.limits.max_head:
            refusal = raw_refusal(
                431,
                b"Request Header Fields Too Large",
                head_too_large(self.limits.max_head),
                None,
            )
        else:
            refusal = raw_refusal(400, b"Bad Request", NOT_HTTP, None)
        self.transport.write(refusal)
        self.transport.close()


def guarded_protocol(limits: Limits) -> type[GuardedH11Protocol]:
    """:class:`GuardedH11Protocol` with ``limits``, to give uvicorn as ``http=``."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits})
