"""Server-sent events: each open stream gets its seat's payload after every change
of its match, and a keep-alive comment when nothing happens."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from .hub import Busy, Hub, LiveMatch
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

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_match: dict[str, set[Entry]] = {}

    def add(self, match_id: str) -> Entry:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._by_match.setdefault(match_id, set()).add(entry)
        return entry

    def remove(self, match_id: str, entry: Entry) -> None:
        with self._lock:
            found = self._by_match.get(match_id)
            if found is not None:
                found.discard(entry)
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


async def stream(
    hub: Hub, listeners: Listeners, live: LiveMatch, seat: int | None
) -> AsyncIterator[str]:
    """The text of an event stream: a ``payload`` event (the hub's payload for
    ``seat``, exactly as a read would answer it) whenever it changed."""
    entry = listeners.add(live.id)
    _, changed = entry
    try:
        sent: tuple[int, str | None] | None = None
        yield "retry: 2000\n\n"
        while True:
            payload = await promptly(hub.payload, live, seat)
            mark = (payload["version"], payload.get("bot_error"))
            if mark != sent:
                sent = mark
                yield f"event: payload\ndata: {to_json(payload).decode()}\n\n"
            try:
                await asyncio.wait_for(changed.wait(), KEEPALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"
            changed.clear()
    finally:
        listeners.remove(live.id, entry)
