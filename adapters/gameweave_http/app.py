"""The Starlette app: a JSON API over the hub, server-sent events per seat, and the
static browser client.

Seat tokens travel in the ``X-Seat-Token`` header (or ``Authorization: Bearer``);
the event stream, which browsers cannot give headers, takes ``?token=``. Join links
carry the token in the URL fragment (``/play/ID#token=...``), which browsers never
send to the server. The access log written here (logger ``gameweave_http.access``
at INFO; ``serve`` turns it on only when asked) holds the method, the path without
its query and the status: never a token.

The app is put together here from modules that each do one thing:
:mod:`~gameweave_http.routes` (the route table), :mod:`~gameweave_http.handlers`
(what each route does, reading the server from ``request.app.state``),
:mod:`~gameweave_http.fastpath` (the two routes of every turn, ahead of
Starlette), :mod:`~gameweave_http.errors` (exceptions to one-line JSON),
:mod:`~gameweave_http.wire` (tokens, bodies, JSON) and
:mod:`~gameweave_http.events` (server-sent events).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from itertools import chain
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import Message, Receive, Scope, Send

from gameweave_core import Registry, default_registry

from .errors import on_error
from .events import Listeners
from .fastpath import App, access_log, reply_error
from .hub import ApiError, Hub
from .limits import Limits, RateLimit, head_too_large
from .routes import HOT, ROUTES
from .search import SearchPool
from .state import AppState, Settings
from .store import Store, StoreError
from .wire import parse_json, read_token

__all__ = [
    "ApiError",
    "App",
    "AppState",
    "GuardedApp",
    "Limits",
    "Settings",
    "StoreError",
    "access_log",
    "create_app",
    "parse_json",
    "read_token",
]


#: Refusals of the app's own guard (see :class:`GuardedApp`).
TOO_MANY_REQUESTS = "the server is answering as many requests as it may at once; try again shortly"
BODY_TOO_SLOW = "the request body was not received in time; the connection is closed"


class GuardedApp(App):
    """The server's app, with the limits an ASGI app can hold itself, whatever
    server runs it:

    - a request head (request line and headers) over ``max_head`` bytes gets
      431, however it arrived (uvicorn's h11 bounds only a head still arriving);
    - at most ``connections`` requests are answered at once (event streams
      included); one more gets 503 with ``Retry-After``;
    - a request body must be all in within ``body_timeout`` seconds of the app
      being handed the request, else 408 and the connection is closed.

    What an app cannot see, it cannot limit: a connection that has not yet sent
    a whole head (the header timeout) and connections as such (idle keep-alive
    ones). Those two are held by the protocol ``gameweave serve`` gives uvicorn
    (:class:`~gameweave_http.limits.GuardedH11Protocol`), which also times
    bodies, so that under it (:attr:`server_times_bodies`) the app does not.
    """

    def __init__(self, *, limits: Limits, **options: Any) -> None:
        super().__init__(**options)
        self.limits = limits
        #: Set by :func:`~gameweave_http.server.serve`: its protocol times bodies.
        self.server_times_bodies = False
        self._answering = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        limits = self.limits
        headers = scope["headers"]
        # The head as sent, but for spaces around header values ("NAME: VALUE\r\n"
        # per header, the request line's method, path, query and version).
        size = sum(map(len, chain.from_iterable(headers))) + 4 * len(headers)
        size += len(scope.get("raw_path") or b"") + len(scope["query_string"]) + 24
        if size > limits.max_head or self._answering >= limits.connections:
            if size > limits.max_head:
                refusal = ApiError(431, head_too_large(limits.max_head))
            else:
                refusal = ApiError(503, TOO_MANY_REQUESTS, retry_after=1)
            await reply_error(scope, send, refusal, access_log.isEnabledFor(logging.INFO))
            return
        self._answering += 1
        try:
            if not self.server_times_bodies and has_body(headers):
                receive, send = timed_body(receive, send, limits.body_timeout)
            await super().__call__(scope, receive, send)
        finally:
            self._answering -= 1


def has_body(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether a request with ``headers`` says a body follows."""
    for name, value in headers:
        if name == b"content-length" or name == b"transfer-encoding":
            return value != b"0"
    return False


def timed_body(receive: Receive, send: Send, seconds: float) -> tuple[Receive, Send]:
    """``receive`` that refuses (408) a body not all in within ``seconds``, and
    ``send`` that then closes the connection with the refusal (the rest of the
    body may still be on its way)."""
    deadline = asyncio.get_running_loop().time() + seconds
    complete = late = False

    async def receive_in_time() -> Message:
        nonlocal complete, late
        if complete:
            return await receive()  # the body is in: what follows is a disconnect
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:
            late = True
            raise ApiError(408, BODY_TOO_SLOW) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            complete = True
        return message

    async def send_closing(message: Message) -> None:
        if late and message["type"] == "http.response.start":
            headers = [*message.get("headers", ()), (b"connection", b"close")]
            message = {**message, "headers": headers}
        await send(message)

    return receive_in_time, send_closing


def create_app(
    db_path: str | Path,
    registry: Registry | None = None,
    *,
    fsync: bool = False,
    dev: bool = False,
    public_url: str | None = None,
    limits: Limits | None = None,
    searches: int | None = None,
) -> GuardedApp:
    """The Gameweave server app storing matches in the SQLite file ``db_path``.

    Every accepted action is committed before the reply, which survives the
    server process being killed; ``fsync=True`` also flushes each commit to disk,
    so that it survives the machine going down too, at several milliseconds an
    action (see :mod:`gameweave_http.store`).

    ``dev=True`` is development mode: a client may choose a new match's seed and
    a title's test-only options, which fix the hidden information (so whoever
    creates the match may know every secret). Without it both are refused (403).

    ``public_url`` is the base of the join links handed out (default: the address
    each request reached); ``limits`` what the server holds at most (see
    :mod:`gameweave_http.limits`); ``searches`` how many bot searches and hints
    run at once, in worker processes (default: ``GAMEWEAVE_SEARCHES``, else the
    number of CPUs; see :mod:`gameweave_http.search`), stopped when the app
    shuts down. A database that cannot be used raises
    :class:`~gameweave_http.store.StoreError`, whose message is one line naming
    the file and what to do.
    """
    registry = registry if registry is not None else default_registry()
    limits = limits if limits is not None else Limits()
    store = Store(db_path, fsync=fsync)
    listeners = Listeners(limits.streams_per_match, limits.streams)
    pool = SearchPool(registry, searches)
    hub = Hub(
        store,
        registry,
        notify=listeners.notify,
        max_live=limits.live_matches,
        pinned=listeners.count,
        search=pool,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: object) -> AsyncIterator[None]:
        pool.open()
        try:
            yield
        finally:
            # The workers start with the first search; a search under way is ended.
            await asyncio.to_thread(pool.close)
            await asyncio.to_thread(store.checkpoint)  # the .sqlite3 file alone holds all

    # Refusals (ApiError, Starlette's HTTPException) are answered by Starlette's
    # ExceptionMiddleware, anything else by its ServerErrorMiddleware: all by one mapper.
    handlers = {ApiError: on_error, HTTPException: on_error, Exception: on_error}
    app = GuardedApp(
        limits=limits,
        hot=HOT,
        routes=list(ROUTES),
        exception_handlers=handlers,
        lifespan=lifespan,
    )
    # Starlette's State holds anything; this app's holds exactly these, typed.
    app.state = AppState(  # type: ignore[assignment]
        registry=registry,
        store=store,
        hub=hub,
        listeners=listeners,
        settings=Settings(
            dev=dev,
            fsync=fsync,
            public_url=public_url.rstrip("/") if public_url else None,
            limits=limits,
        ),
        creates=RateLimit(limits.creates_per_minute),
    )
    return app
