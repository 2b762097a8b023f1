"""Server-sent events: each open stream gets its seat's payload after every change
of its match, and a keep-alive comment when nothing happens."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

import attrs
from starlette.types import Receive, Send

from .hub import Hub, LiveMatch
from .refusals import ServerFull, TitleFailed, TooMany

#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE = 15.0

#: A listener's place: the event loop it runs on, and what wakes it (an event
#: stream's ``asyncio.Event.set``; a seat socket's own push).
Entry = tuple[asyncio.AbstractEventLoop, Callable[[], None]]


@attrs.define
class Held:
    """The event streams open on one match: each seat's count, and the spectators'."""

    seats: dict[int, int] = attrs.field(factory=dict)
    spectators: int = 0

    def shared(self) -> int:
        """The streams in the places every stream may take: the spectators', and
        each seat's beyond its first (whose place is kept)."""
        return self.spectators + sum(n - 1 for n in self.seats.values())


class Listeners:
    """The open event streams of each match, woken from any thread on a change,
    and the limits on them.

    Two kinds of stream are counted apart. A seat's first stream on its match is
    *kept*: it has a place on its match that no one else may take, and it is
    counted only against the seats' own total (``seat_total``) and, per client,
    against the other first streams of the same client (``per_client``). Every
    other stream (a spectator's, a seat's further tab) is *shared*: it takes one
    of the match's places left over once each seat's is kept (``per_match``), and
    counts against the shared total (``total``) and its client's shared streams
    (``per_client``). So spectators, however many and from however many
    addresses, on one match or on all, never shut a seat out of its own match.
    """

    def __init__(
        self,
        per_match: int = 32,
        total: int = 1000,
        per_client: int = 100,
        seat_total: int = 1000,
    ) -> None:
        self.per_match = per_match
        self.total = total
        self.per_client = per_client
        self.seat_total = seat_total
        #: Open streams, shared and kept.
        self._shared = 0
        self._kept = 0
        self._lock = threading.Lock()
        self._by_match: dict[str, set[Entry]] = {}
        self._held: dict[str, Held] = {}
        #: Open streams per (client, kept).
        self._by_client: dict[tuple[str, bool], int] = {}
        #: Whose each open stream is: its seat (``None``: a spectator), its client,
        #: and whether it is kept (a seat's first).
        self._whose: dict[Entry, tuple[int | None, str, bool]] = {}

    def add(
        self,
        match_id: str,
        seat: int | None = None,
        players: int = 0,
        client: str = "",
        wake: Callable[[], None] | None = None,
    ) -> Entry:
        """A new stream of ``match_id`` for ``seat`` (``None``: a spectator) of its
        ``players``, asked for by ``client``, woken by ``wake`` after each change; or
        a refusal that changes nothing (see the class docstring for what is counted
        against what)."""
        entry = (asyncio.get_running_loop(), wake or asyncio.Event().set)
        with self._lock:
            held = self._held.get(match_id) or Held()
            kept = seat is not None and not held.seats.get(seat)
            if not kept and held.shared() >= self.per_match - players:
                raise TooMany(
                    f"match {match_id} has as many event streams open as it may ("
                    f"{self.per_match}, a place kept for each seat's first); close one "
                    "(a browser tab) or try again later",
                    retry_after=10,
                )
            if self._by_client.get((client, kept), 0) >= self.per_client:
                whose = "seats' event streams" if kept else "event streams"
                raise TooMany(
                    f"this client has {self.per_client} {whose} open, the most one "
                    "client may; close one (a browser tab) or try again later",
                    retry_after=10,
                )
            if kept and self._kept >= self.seat_total:
                raise ServerFull(
                    f"the server has {self.seat_total} seats' event streams open, the most "
                    "it may; try again later",
                    retry_after=10,
                )
            if not kept and self._shared >= self.total:
                raise ServerFull(
                    f"the server has {self.total} event streams open, the most it may; "
                    "try again later",
                    retry_after=10,
                )
            self._by_match.setdefault(match_id, set()).add(entry)
            self._held[match_id] = held
            if seat is None:
                held.spectators += 1
            else:
                held.seats[seat] = held.seats.get(seat, 0) + 1
            self._by_client[(client, kept)] = self._by_client.get((client, kept), 0) + 1
            self._whose[entry] = (seat, client, kept)
            if kept:
                self._kept += 1
            else:
                self._shared += 1
        return entry

    def remove(self, match_id: str, entry: Entry) -> None:
        with self._lock:
            found = self._by_match.get(match_id)
            if found is None or entry not in found:
                return
            found.discard(entry)
            seat, client, kept = self._whose.pop(entry)
            if kept:
                self._kept -= 1
            else:
                self._shared -= 1
            held = self._held[match_id]
            if seat is None:
                held.spectators -= 1
            elif held.seats[seat] > 1:
                held.seats[seat] -= 1
            else:
                del held.seats[seat]
            key = (client, kept)
            if self._by_client[key] > 1:
                self._by_client[key] -= 1
            else:
                del self._by_client[key]
            if not found:
                del self._by_match[match_id]
                del self._held[match_id]

    def notify(self, match_id: str) -> None:
        with self._lock:
            entries = list(self._by_match.get(match_id, ()))
        running = asyncio._get_running_loop()
        for loop, wake in entries:
            if loop is running:
                # The usual case, an action answered on the event loop: woken at
                # once, without call_soon_threadsafe's write to wake the loop
                # (versus benchmark, A/B: p50 at M=1 0.76 -> 0.70 ms, p99 at
                # M=256 286 -> 261 ms).
                wake()
                continue
            with contextlib.suppress(RuntimeError):  # that stream's loop has closed
                loop.call_soon_threadsafe(wake)

    def count(self, match_id: str) -> int:
        with self._lock:
            return len(self._by_match.get(match_id, ()))

    def open(self) -> int:
        """How many streams are open on the whole server, shared and kept."""
        return self._shared + self._kept

    def shared_open(self) -> int:
        """How many shared streams (spectators', seats' further tabs) are open."""
        return self._shared


#: The last event of a seat's stream whose token was reissued.
REVOKED = b"event: revoked\ndata: {}\n\n"

#: An event stream's own headers (the pipeline adds the safety headers).
STREAM_HEADERS = (
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
    (b"content-type", b"text/event-stream; charset=utf-8"),
)


class EventStream:
    """One open event stream: a ``payload`` event (the hub's payload for ``seat``,
    exactly as a read would answer it, the same bytes) whenever it changed, a
    keep-alive comment after :data:`KEEPALIVE` quiet seconds.

    Written with ASGI ``send`` directly rather than by Starlette's
    ``StreamingResponse``, whose anyio task group (one per stream, and the server
    opens two streams per match) showed in the versus benchmark's profile at 256
    matches: p99 move latency 419 -> 294 ms at 256 matches and 57 -> 47 ms at 32
    (A/B in one run, load average 4). ``entry`` is the stream's place among the
    :class:`Listeners`, woken by setting ``changed``; ``on_close`` lets go of it
    when the stream ends, however it ends. With ``still_valid`` (a seat's stream), the stream ends before any chunk
    once that says no: a reissued token's old link learns nothing new."""

    def __init__(
        self,
        hub: Hub,
        live: LiveMatch,
        seat: int | None,
        entry: Entry,
        changed: asyncio.Event,
        on_close: Callable[[], None],
        still_valid: Callable[[], bool] | None = None,
    ) -> None:
        self.hub = hub
        self.live = live
        self.seat = seat
        self.entry = entry
        self.changed = changed
        self.on_close = on_close
        self.still_valid = still_valid
        #: Set once the client went away, or the keep-alive is due.
        self.gone = False
        self.idle = False
        #: When the stream last sent or woke (the loop's clock), and the keep-alive's
        #: timer, armed while the stream waits.
        self.last = 0.0
        self.timer: asyncio.TimerHandle | None = None

    async def run(self, receive: Receive, send: Send) -> None:
        """Answer the request with the stream, until the client goes away or the
        token stops being the seat's."""
        loop = asyncio.get_running_loop()
        changed = self.changed
        hub, live, seat = self.hub, self.live, self.seat
        watcher = loop.create_task(self._watch(receive))
        try:
            # A list of its own: middleware may change a response's headers in place.
            headers = list(STREAM_HEADERS)
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            # How soon to reconnect, said with the first event (one chunk, one write).
            first = b"retry: 2000\n\n"
            sent = b""
            while True:
                try:
                    payload = hub.payload_now(live, seat)
                    if payload is None:
                        payload = await hub.payload(live, seat)
                except TitleFailed:
                    # The title failed (logged in one line): the stream ends, and the
                    # page's reconnection is answered 503 until the title is fixed.
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
                # The hub encodes a payload once per change: the same bytes, no news.
                if payload is not sent:
                    sent = payload
                    frame = first + b"event: payload\ndata: " + payload + b"\n\n"
                    first = b""
                    if not await self._send(send, frame):
                        return
                elif not await self._send(send, b""):
                    return  # woken by a reissued token (see reissue_token): it is over
                # The keep-alive's timer is armed once and moved on by what was sent
                # meanwhile (see _keepalive), not armed and cancelled around every
                # wait: 2% of the server's CPU per move (versus benchmark, py-spy).
                # A timer rather than asyncio.wait_for, which (Python 3.11) wraps the
                # wait in a task of its own: three turns of the loop per wake-up
                # instead of one (versus benchmark, A/B: p99 at M=32 48.6 -> 39.8
                # ms, at M=256 306 -> 261 ms).
                self.last = loop.time()
                if self.timer is None:
                    self.timer = loop.call_at(self.last + KEEPALIVE, self._keepalive)
                await changed.wait()
                changed.clear()
                if self.gone:
                    return
                if self.idle:
                    self.idle = False
                    if not await self._send(send, b": keep-alive\n\n"):
                        return
        finally:
            watcher.cancel()
            if self.timer is not None:
                self.timer.cancel()
            self.on_close()

    async def _send(self, send: Send, chunk: bytes) -> bool:
        """Send ``chunk`` if the token is still the seat's (else end the response
        there); whether the stream goes on."""
        if self.still_valid is not None and not self.still_valid():
            # The page learns at once that its link no longer opens the seat (an
            # event with no data: nothing of the match), then the stream ends.
            await send({"type": "http.response.body", "body": REVOKED, "more_body": False})
            return False
        if not chunk:
            return True
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
        return True

    def _keepalive(self) -> None:
        """The keep-alive is due if nothing was sent for :data:`KEEPALIVE` seconds;
        else the timer moves to that long after the last send."""
        loop = self.entry[0]
        due = self.last + KEEPALIVE
        if loop.time() >= due - 0.001:
            self.timer = None
            self.idle = True
            self.changed.set()
        else:
            self.timer = loop.call_at(due, self._keepalive)

    async def _watch(self, receive: Receive) -> None:
        """Wake the stream once the client has gone (an ASGI server says so to
        ``receive``), so that its place is let go of at once."""
        while (await receive())["type"] != "http.disconnect":
            pass
        self.gone = True
        self.changed.set()
