"""``gameweave serve``: the HTTP adapter's command, added through ``register_commands``.

The ``gameweave.commands`` entry point ``http`` names this module. The command exists
exactly where the ``http`` extra's packages are installed: without them the hook adds
nothing, and the command line has no ``serve``. Every option is checked before the
port, so a bad option is what a mistyped command line reports, even on a busy port.
"""

from __future__ import annotations

import errno
import importlib.util
import ipaddress
import re
import socket
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from gameweave_core.hooks import hookimpl

from .limits import parse_limits

#: The packages of the ``http`` extra the server imports (httpx is for clients).
SERVER_PACKAGES = ("starlette", "uvicorn", "httptools", "orjson")

#: A host name, or an address (IPv6 in brackets or bare), as --allowed-host takes it.
HOST_NAME = re.compile(r"\[?[0-9A-Fa-f:.]+\]?|[A-Za-z0-9._-]+")


def missing_packages() -> list[str]:
    """The server's packages that are not installed (none when the extra is)."""
    return [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]


@hookimpl
def register_commands(cli: Any) -> None:
    """Add ``serve`` when the ``http`` extra is installed."""
    if not missing_packages():
        cli.command("serve")(serve)


def fail(message: str, code: int) -> NoReturn:
    """One error line on stderr, then exit with ``code`` (as the CLI's own errors)."""
    text = " ".join(message.split("\n"))
    print(f"error: {text}", file=sys.stderr)
    raise typer.Exit(code)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file of the matches [default: the server's]")
    ] = None,
    access_log: Annotated[
        bool | None,
        typer.Option(
            "--access-log/--no-access-log",
            help="A line per request (never a token) [default: GAMEWEAVE_ACCESS_LOG=1 turns it on]",
        ),
    ] = None,
    fsync: Annotated[
        bool,
        typer.Option(
            help="Flush every commit to disk: survives the machine going down, not only "
            "the server, at several milliseconds an action"
        ),
    ] = False,
    dev: Annotated[
        bool,
        typer.Option(
            help="Development mode: clients may choose a match's seed and test-only "
            "options, so whoever creates a match may know its secrets"
        ),
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="Base URL of the join links, as players reach the server "
            "(e.g. https://games.example.org) [default: the address a request reached]"
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A host name players reach the server by, repeatable (e.g. "
            "--allowed-host games.local); besides it the server answers only to its "
            "own address, localhost and the --public-url host, refusing others (400)"
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Addresses of reverse proxies to trust, comma-separated (e.g. "
            "127.0.0.1 or 10.0.0.0/8; * for any): only from them are X-Forwarded-For "
            "and X-Forwarded-Proto read [default: none, from anyone]"
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="A limit as NAME=VALUE, repeatable (e.g. --limit streams=2000): "
            "streams, streams_per_match, streams_per_client, creates_per_minute, "
            "replays_per_minute, bot_matches, bot_matches_per_client, live_matches, "
            "connections, header_timeout, body_timeout, keep_alive, max_head "
            "(see the HTTP reference)"
        ),
    ] = None,
) -> None:
    """Host matches for browsers on this machine (the HTTP adapter)."""
    if not 0 < port < 65536:
        fail(f"--port must be between 1 and 65535, got {port}", 2)
    # Options left out keep the server's own defaults.
    options: dict[str, Any] = {} if db is None else {"db": db}
    if access_log is not None:
        options["access_log"] = access_log
    if fsync:
        options["fsync"] = True
    if dev:
        options["dev"] = True
    if public_url is not None:
        if not public_url.startswith(("http://", "https://")):
            fail(f"--public-url must start with http:// or https://, got {public_url[:60]!r}", 2)
        options["public_url"] = public_url
    if allowed_host:
        for name in allowed_host:
            if not HOST_NAME.fullmatch(name):
                fail(f"--allowed-host takes a host name or address, got {name[:60]!r}", 2)
        options["allowed_hosts"] = allowed_host
    if forwarded_allow_ips is not None:
        trusted = [ip.strip() for ip in forwarded_allow_ips.split(",") if ip.strip()]
        wrong = next((ip for ip in trusted if not is_network(ip)), None)
        if wrong is not None or not trusted:
            fail(
                "--forwarded-allow-ips takes addresses or networks separated by commas "
                f"(or *), got {(wrong or forwarded_allow_ips)[:60]!r}",
                2,
            )
        options["forwarded_allow_ips"] = trusted
    if limit:
        try:
            options["limits"] = parse_limits(limit)
        except ValueError as exc:
            fail(f"--limit: {exc}", 2)
    # Only now, with every option known good, whether the address is free.
    refusal = listen_refusal(host, port)
    if refusal is not None:
        fail(refusal, 1)
    # The server (Starlette, uvicorn) is imported only for a command that runs it.
    from .server import serve as run_server
    from .store import StoreError

    try:
        run_server(host=host, port=port, **options)
    except StoreError as exc:
        # A database that cannot be used: one line naming the file and what to do.
        fail(exc.message, 1)


def is_network(text: str) -> bool:
    """Whether ``text`` is ``*``, an IP address or a network (``10.0.0.0/8``)."""
    if text == "*":
        return True
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def listen_refusal(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (one line), or ``None``.

    Checked by binding the address the way the server will (with SO_REUSEADDR,
    so a port in TIME_WAIT is free) before anything says the server is up; an
    address that cannot be looked up is left for the server to report."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError):
        return None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} is in use on {host}; choose another with --port"
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None
