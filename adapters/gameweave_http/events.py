"""Server-sent events: each open stream gets its seat's payload after every change
of its match, and a keep-alive comment when nothing happens."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from .hub import ApiError, Busy, Hub, LiveMatch
from .wire import to_json

#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE = 15.0

T = TypeVar("T")

Entry = tuple[asyncio.AbstractEventLoop, asyncio.Event]


async def promptly(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` of the hub, on the event loop when the hub can answer without
    waiting, else in a worker thread (the hub raises :class:`Busy`, having changed
    nothing, when it would have to wait; see its module docstring)."""
    try:
        return call(*args, wait=False)
    except Busy:
        return await run_in_threadpool(call, *args, wait=True)


class Listeners:
    """The open event streams of each match, woken from any thread on a change."""

    def __init__(self, per_match: int = 32, total: int = 1000) -> None:
        self.per_match = per_match
        self.total = total
        self._open = 0
        self._lock = threading.Lock()
        self._by_match: dict[str, set[Entry]] = {}

    def add(self, match_id: str) -> Entry:
        """A new stream of ``match_id``, or a refusal (429: the match has as many as
        it may; 503: the server has) that changes nothing."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            found = self._by_match.get(match_id, ())
            if len(found) >= self.per_match:
                raise ApiError(
                    429,
                    f"match {match_id} has {self.per_match} event streams open, the most it "
                    "may; close one (a browser tab) or try again later",
                    retry_after=10,
                )
            if self._open >= self.total:
                raise ApiError(
                    503,
                    f"the server has {self.total} event streams open, the most it may; "
                    "try again later",
                    retry_after=10,
                )
            self._by_match.setdefault(match_id, set()).add(entry)
            self._open += 1
        return entry

    def remove(self, match_id: str, entry: Entry) -> None:
        with self._lock:
            found = self._by_match.get(match_id)
            if found is not None and entry in found:
                found.discard(entry)
                self._open -= 1
                if not found:
                    del self._by_match[match_id]

    def notify(self, match_id: str) -> None:
        with self._lock:
            entries = list(self._by_match.get(match_id, ()))
        for loop, event in entries:
            with contextlib.suppress(RuntimeError):  # that stream's loop has closed
                loop.call_soon_threadsafe(event.set)

    def count(self, match_id: str) -> int:
        with self._lock:
            return len(self._by_match.get(match_id, ()))

    def open(self) -> int:
        """How many streams are open on the whole server."""
        return self._open


class EventStream(StreamingResponse):
    """An event stream's response: its stream is let go of when the response ends,
    however it ends (even if its text was never asked for)."""

    def __init__(self, content: AsyncIterator[str], on_close: Callable[[], None]) -> None:
        super().__init__(
            content,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self.on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.on_close()


async def stream(hub: Hub, live: LiveMatch, seat: int | None, entry: Entry) -> AsyncIterator[str]:
    """The text of an event stream: a ``payload`` event (the hub's payload for
    ``seat``, exactly as a read would answer it) whenever it changed. ``entry`` is
    the stream's place among the :class:`Listeners` (whoever added it removes it)."""
    _, changed = entry
    sent: tuple[int, str | None, list[int] | None] | None = None
    yield "retry: 2000\n\n"
    while True:
        payload = await promptly(hub.payload, live, seat)
        mark = (payload["version"], payload.get("bot_error"), payload.get("thinking"))
        if mark != sent:
            sent = mark
            yield f"event: payload\ndata: {to_json(payload).decode()}\n\n"
        try:
            await asyncio.wait_for(changed.wait(), KEEPALIVE)
        except TimeoutError:
            yield ": keep-alive\n\n"
        changed.clear()
