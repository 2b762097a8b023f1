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

from pathlib import Path

from starlette.exceptions import HTTPException

from gameweave_core import Registry, default_registry

from .errors import on_error
from .events import Listeners
from .fastpath import App, access_log
from .hub import ApiError, Hub
from .limits import Limits, RateLimit
from .routes import HOT, ROUTES
from .state import AppState, Settings
from .store import Store, StoreError
from .wire import parse_json, read_token

__all__ = [
    "ApiError",
    "App",
    "AppState",
    "Limits",
    "Settings",
    "StoreError",
    "access_log",
    "create_app",
    "parse_json",
    "read_token",
]


def create_app(
    db_path: str | Path,
    registry: Registry | None = None,
    *,
    fsync: bool = False,
    dev: bool = False,
    public_url: str | None = None,
    limits: Limits | None = None,
) -> App:
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
    :mod:`gameweave_http.limits`). A database that cannot be used raises
    :class:`~gameweave_http.store.StoreError`, whose message is one line naming
    the file and what to do.
    """
    registry = registry if registry is not None else default_registry()
    limits = limits if limits is not None else Limits()
    store = Store(db_path, fsync=fsync)
    listeners = Listeners(limits.streams_per_match, limits.streams)
    hub = Hub(
        store,
        registry,
        notify=listeners.notify,
        max_live=limits.live_matches,
        pinned=listeners.count,
    )
    # Refusals (ApiError, Starlette's HTTPException) are answered by Starlette's
    # ExceptionMiddleware, anything else by its ServerErrorMiddleware: all by one mapper.
    handlers = {ApiError: on_error, HTTPException: on_error, Exception: on_error}
    app = App(hot=HOT, routes=list(ROUTES), exception_handlers=handlers)
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
