"""The Starlette app: a JSON API over the hub, server-sent events per seat, and the
static browser client.

Seat tokens travel in the ``X-Seat-Token`` header (or ``Authorization: Bearer``);
the event stream, which browsers cannot give headers, takes ``?token=``. Join links
carry the token in the URL fragment (``/play/ID#token=...``), which browsers never
send to the server. The access log (logger ``gameweave_http.access`` at INFO;
``serve`` turns it on only when asked) holds the method, the path without its
query and the status: never a token.

The app is put together here from modules that each do one thing:
:mod:`~gameweave_http.pipeline` (the one road every request takes: limits,
safety headers, access log, errors, the cross-site check),
:mod:`~gameweave_http.routes` (the route table), :mod:`~gameweave_http.handlers`
(what each route does), :mod:`~gameweave_http.bodies` (the request bodies as
classes), :mod:`~gameweave_http.hub` (live matches),
:mod:`~gameweave_http.errors` (the statuses of refusals),
:mod:`~gameweave_http.wire` (tokens, bodies, JSON) and
:mod:`~gameweave_http.events` (server-sent events).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from gameweave_core import Registry, default_registry

from .events import Listeners
from .hub import Hub, off_loop
from .limits import Limits, RateLimit
from .pipeline import App, access_log
from .routes import routes, schema
from .search import SearchPool
from .state import AppState, Settings, served_hosts
from .store import Store, StoreError
from .wire import to_json

__all__ = ["App", "AppState", "Limits", "Settings", "StoreError", "access_log", "create_app"]


def create_app(
    db_path: str | Path,
    registry: Registry | None = None,
    *,
    fsync: bool = False,
    dev: bool = False,
    public_url: str | None = None,
    limits: Limits | None = None,
    searches: int | None = None,
    allowed_hosts: Iterable[str] = (),
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
    each request reached). The app answers only to the hosts it serves: the
    address a request reached, ``localhost``, the public URL's host and
    ``allowed_hosts``; a request naming another ``Host`` is refused (400), which
    keeps pages of other sites out even when their names lead here (DNS
    rebinding). ``limits`` what the server holds at most (see
    :mod:`gameweave_http.limits`); ``searches`` how many bot searches and hints
    run at once, in worker processes (default: ``GAMEWEAVE_SEARCHES``, else the
    number of CPUs; see :mod:`gameweave_http.search`), stopped when the app
    shuts down. A database that cannot be used raises
    :class:`~gameweave_http.store.StoreError`, whose message is one line naming
    the file and what to do.

    The app is a Starlette app: middleware may be added to it
    (``app.add_middleware``) before it serves, and sees every request.
    """
    registry = registry if registry is not None else default_registry()
    limits = limits if limits is not None else Limits()
    store = Store(db_path, fsync=fsync)
    listeners = Listeners(
        limits.streams_per_match, limits.streams, limits.streams_per_client, limits.streams
    )
    pool = SearchPool(registry, searches)
    hub = Hub(
        store,
        registry,
        notify=listeners.notify,
        max_live=limits.live_matches,
        pinned=listeners.count,
        search=pool,
        bot_matches=limits.bot_matches,
        bot_matches_per_client=limits.bot_matches_per_client,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: object) -> AsyncIterator[None]:
        pool.open()
        try:
            yield
        finally:
            # The workers start with the first search; a search under way is ended,
            # and its turn is owed (searched again when its match is next asked for).
            await off_loop(pool.close)
            hub.searches_ended()
            await off_loop(store.checkpoint)  # the .sqlite3 file alone holds all

    actions: dict[str, type] = {}
    for name in registry.names():
        actions.update(registry.title(name).codec.types)
    app = App(routes=routes(), lifespan=lifespan)
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
            allowed_hosts=served_hosts(public_url, allowed_hosts),
        ),
        creates=RateLimit(limits.creates_per_minute),
        replays=RateLimit(limits.replays_per_minute),
        openapi=to_json(schema(registry.names(), actions)),
    )
    return app
