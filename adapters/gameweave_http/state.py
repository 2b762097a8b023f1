"""What one server holds, as ``app.state``: every handler reads it from its request."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast
from urllib.parse import urlsplit

import attrs
from starlette.types import Scope

from gameweave_core import Registry

from .events import Listeners
from .hub import Hub
from .limits import Limits, RateLimit
from .search import HINTS_PER_MINUTE
from .store import Store


@attrs.frozen
class Settings:
    """How the server was started."""

    #: Development mode (``gameweave serve --dev``): a match may be created with a
    #: chosen seed and with a title's test-only options, which fix hidden
    #: information, so its creator may know every secret. Off, both are refused.
    dev: bool = False
    #: Every commit flushed to disk (see :mod:`gameweave_http.store`).
    fsync: bool = False
    #: The base URL of the join links the server hands out (``None``: the address
    #: the request reached, as the server's socket has it; never the ``Host``
    #: header, which the client writes).
    public_url: str | None = None
    #: What the server holds at most (see :mod:`gameweave_http.limits`).
    limits: Limits = attrs.field(factory=Limits)
    #: The host names the server answers to besides the address a request
    #: reached (:func:`served_hosts`): any other ``Host`` is refused (400).
    allowed_hosts: frozenset[str] = frozenset({"localhost"})

    @property
    def public_port(self) -> int | None:
        """The port of :attr:`public_url` (its scheme's when it names none)."""
        if self.public_url is None:
            return None
        parts = urlsplit(self.public_url)
        try:
            return parts.port or {"http": 80, "https": 443}.get(parts.scheme)
        except ValueError:
            return None

    @property
    def public_origin(self) -> str | None:
        """The origin (scheme, host and port) of :attr:`public_url`."""
        if self.public_url is None:
            return None
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}"


def served_hosts(public_url: str | None, allowed: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server answers to besides its own address: ``localhost``,
    the host of ``public_url``, and ``allowed`` (the operator's ``--allowed-host``)."""
    names = {"localhost", *(name.strip().strip("[]").lower() for name in allowed)}
    if public_url:
        host = urlsplit(public_url).hostname
        if host:
            names.add(host)
    return frozenset(names)


@attrs.frozen
class AppState:
    """The server's titles, store, live matches, open event streams and settings."""

    registry: Registry
    store: Store
    hub: Hub
    listeners: Listeners
    settings: Settings
    #: Matches created per client address per minute.
    creates: RateLimit
    #: Logs replayed per client address per minute (weighed by their size).
    replays: RateLimit
    #: The OpenAPI document of this server and its titles, as JSON.
    openapi: bytes
    #: Hints asked for per client address per minute.
    hints: RateLimit = attrs.field(factory=lambda: RateLimit(HINTS_PER_MINUTE))


def state_of(scope: Scope) -> AppState:
    """The :class:`AppState` of the app serving ``scope`` (a request's scope)."""
    return cast(AppState, scope["app"].state)
