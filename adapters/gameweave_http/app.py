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
from .routes import HOT, ROUTES
from .state import AppState, Settings
from .store import Store
from .wire import parse_json, read_token

__all__ = [
    "ApiError",
    "App",
    "AppState",
    "Settings",
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
) -> App:
    """The Gameweave server app storing matches in the SQLite file ``db_path``.

    Every accepted action is committed before the reply, which survives the
    server process being killed; ``fsync=True`` also flushes each commit to disk,
    so that it survives the machine going down too, at several milliseconds an
    action (see :mod:`gameweave_http.store`).

    ``dev=True`` is development mode: a client may choose a new match's seed and
    a title's test-only options, which fix the hidden information (so whoever
    creates the match may know every secret). Without it both are refused (403).
    """
    registry = registry if registry is not None else default_registry()
    store = Store(db_path, fsync=fsync)
    listeners = Listeners()
    hub = Hub(store, registry, notify=listeners.notify)
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
        settings=Settings(dev=dev, fsync=fsync),
    )
    return app
