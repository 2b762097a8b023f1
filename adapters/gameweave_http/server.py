"""Running the app on uvicorn: what ``gameweave serve`` calls."""

from __future__ import annotations

import gc
import logging
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .app import access_log as access_logger
from .app import create_app
from .limits import LIMITS_ENV, Limits, parse_limits
from .store import StoreError

#: Set to 1 to write the access log without passing ``access_log=True``.
ACCESS_LOG_ENV = "GAMEWEAVE_ACCESS_LOG"

log = logging.getLogger("gameweave_http")


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "gameweave.sqlite3",
    fsync: bool = False,
    access_log: bool | None = None,
    dev: bool = False,
    public_url: str | None = None,
    limits: Limits | None = None,
    fd: int | None = None,
    allowed_hosts: Sequence[str] = (),
    forwarded_allow_ips: Sequence[str] = (),
) -> None:
    """Serve the browser client and the API on ``host:port``, storing matches in ``db``.

    Binds the loopback interface unless told otherwise. Every action is committed
    before its reply, which survives the process being killed; ``fsync`` also
    flushes each commit to disk, against the machine going down, at several
    milliseconds an action.

    ``access_log`` (default: on when the environment variable
    ``GAMEWEAVE_ACCESS_LOG`` is ``1``) writes a line per request: method, path
    without its query, status and time, never a token. uvicorn's own access log
    stays off, since it would print query strings, which can hold seat tokens.

    ``dev`` is development mode: clients may choose a match's seed and a title's
    test-only options, which fix the hidden information (see
    :func:`gameweave_http.app.create_app`); the server says so when it starts.

    ``public_url`` is the base of the join links the server hands out, as players
    reach it (``https://games.example.org``); by default, the address a request
    reached. The server answers only to the hosts it serves: the address a
    request reached, ``localhost``, the public URL's host and ``allowed_hosts``
    (names players use to reach it, ``games.local``); any other ``Host`` is
    refused (400). ``limits`` are what the server holds at most, and how long it waits
    for a client (see :mod:`gameweave_http.limits`; default: the defaults, changed
    by the environment variable ``GAMEWEAVE_LIMITS``, e.g. ``streams=2000``).

    ``forwarded_allow_ips`` are the addresses (or networks, ``10.0.0.0/8``; ``*``
    for any) of reverse proxies to trust: from them alone, ``X-Forwarded-For``
    names the client (whom the per-client limits count) and
    ``X-Forwarded-Proto`` the scheme. By default no forwarded header is read, from
    any peer.

    ``fd`` is a socket already bound by whoever started the server (a test that
    must own its port, a service manager), served instead of ``host:port``.

    A database that cannot be used raises :class:`~gameweave_http.store.StoreError`
    before the server listens: its message is one line naming the file and what
    to do (``gameweave serve`` prints it and exits with status 1).
    """
    import uvicorn

    if access_log is None:
        access_log = os.environ.get(ACCESS_LOG_ENV, "") == "1"
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # Off, the app formats nothing per request: it checks the level first.
    access_logger.setLevel(logging.INFO if access_log else logging.WARNING)
    if limits is None:
        from_env = os.environ.get(LIMITS_ENV, "")
        limits = parse_limits(p for p in from_env.split(",") if p.strip())
    app = create_app(
        db,
        fsync=fsync,
        dev=dev,
        public_url=public_url,
        limits=limits,
        allowed_hosts=allowed_hosts,
    )
    collect_less()
    if fd is not None:
        with socket.socket(fileno=os.dup(fd)) as bound:
            host, port = bound.getsockname()[:2]
    print(f"Gameweave serving on http://{host}:{port}/ (matches in {Path(db).resolve()})")
    if public_url:
        print(f"Join links start with {public_url.rstrip('/')}/")
    if forwarded_allow_ips:
        print(f"Forwarded headers are trusted from {', '.join(forwarded_allow_ips)} only")
    if dev:
        print(
            "Development mode: clients may choose seeds and test-only options, "
            "so whoever creates a match may know its secrets"
        )
    uvicorn.run(
        app,
        host=host,
        port=port,
        fd=fd,
        access_log=False,
        log_level="info",
        # The protocol ends the event streams at once; a request still running
        # (a hint being searched) is given this long.
        timeout_graceful_shutdown=2,
        **uvicorn_options(limits, forwarded_allow_ips, bound_here=fd is None),
    )


#: The cyclic collector's thresholds while serving (Python's default: 700, 10, 10).
GC_THRESHOLDS = (50_000, 10, 10)


def collect_less() -> None:
    """Set the cyclic garbage collector up for a long-running server: what is alive
    once the app is built (modules, classes, titles) is frozen out of its scans,
    and it runs after 50,000 new objects rather than 700. A server holds a great
    many live objects (its matches) and frees nearly all of its garbage by
    reference counting, so with Python's defaults its collector kept scanning the
    live matches: in the versus benchmark at 256 matches it took 0.19 of the
    server's 0.49 ms of CPU per move, and 0.04 of 0.37 ms after this (interleaved,
    RSS unchanged at 60 MiB). The garbage that only the collector frees waits
    longer, so the server makes little of it: an answered refusal's tracebacks are
    dropped (:func:`~gameweave_http.errors.let_go`), and a closed connection's
    objects, a seat socket's included, hold no reference cycle (``tests/http/
    test_http_socket.py`` checks it): in the versus benchmark the collector's passes
    had come back to 6% of the server's CPU through them."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def uvicorn_options(
    limits: Limits, forwarded_allow_ips: Sequence[str] = (), *, bound_here: bool = False
) -> dict[str, Any]:
    """uvicorn's settings for ``limits``: the guarded protocol (open connections,
    the time to send a request, a head still arriving, event streams ended at
    shutdown; see :mod:`gameweave_http.protocol`) and uvicorn's own idle
    keep-alive. uvicorn's ``limit_concurrency`` is left off: it counts open event
    streams as requests and answers plain text without ``Retry-After``; the
    protocol's cap on connections does that work.

    Forwarded headers are read only from ``forwarded_allow_ips``: uvicorn would
    otherwise trust them from 127.0.0.1 (or its ``FORWARDED_ALLOW_IPS``), so any
    program on the machine, or a proxy passing on what clients send, could pose
    as any number of clients and escape the per-client limits.

    ``bound_here``: uvicorn binds the socket itself (not handed one, ``fd``), so
    the event loop turns Nagle's algorithm off on each connection and the
    protocol need not (see :func:`gameweave_http.protocol.no_delay`)."""
    trusted = [ip.strip() for ip in forwarded_allow_ips if ip.strip()]
    options: dict[str, Any] = {
        # No "server: uvicorn" header: it names the software to anyone who asks,
        # and is one more header checked and written on every response.
        "server_header": False,
        # WebSockets are the app's own (the seat socket, switched by the guarded
        # protocol): uvicorn's, which a websockets install would turn on, stay off.
        "ws": "none",
        "timeout_keep_alive": limits.keep_alive,
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or None,
    }
    return {**options, **connection_limits(limits, bound_here=bound_here)}


def connection_limits(limits: Limits, *, bound_here: bool = False) -> dict[str, Any]:
    """uvicorn's protocol setting: the guarded protocol (:mod:`gameweave_http.protocol`)
    when the installed uvicorn has everything it relies on (its seam,
    :func:`~gameweave_http.protocol.seam_missing`); else, said in one line, uvicorn's
    own httptools protocol with ``limit_concurrency`` at ``connections``, which caps
    connections and requests together (plain-text 503s), and no header timeout or
    head size of the protocol's: the app still holds its own limits, and a
    reverse proxy can hold the rest (see the HTTP reference)."""
    missing = seam_missing()
    if missing is None:
        from .protocol import guarded_protocol

        return {"http": guarded_protocol(limits, nagle_off=not bound_here)}
    log.warning(
        "%s: serving with uvicorn's own HTTP protocol, without the server's limits on "
        "connections (see the HTTP reference, Limits); a uvicorn release within "
        "Gameweave's tested range restores them",
        missing,
    )
    return {"http": "httptools", "limit_concurrency": limits.connections}


def seam_missing() -> str | None:
    """:func:`gameweave_http.protocol.seam_missing`, or why that module cannot even
    be imported (uvicorn without the class it subclasses)."""
    try:
        from . import protocol
    except ImportError as exc:
        return f"uvicorn's httptools protocol cannot be used ({exc})"
    return protocol.seam_missing()


if __name__ == "__main__":  # python -m gameweave_http.server [port] [db]
    import sys

    args = sys.argv[1:]
    try:
        serve(
            port=int(args[0]) if args else 8000,
            db=args[1] if len(args) > 1 else "gameweave.sqlite3",
        )
    except StoreError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        sys.exit(1)
