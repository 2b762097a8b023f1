"""The one error mapper: any exception a request raises becomes a status and a
one-line JSON ``{"error": ...}``.

What each refusal is answered with is decided here, in :data:`STATUS`, and only
here: the hub, the request reader and the limits raise the reasons of
:mod:`gameweave_http.refusals` (and the core its own), the pipeline
(:class:`~gameweave_http.pipeline.Gate`) and the protocol
(:mod:`gameweave_http.protocol`) answer every one through :func:`error_reply`,
and the OpenAPI document lists each route's refusals by this table.
"""

from __future__ import annotations

import logging
import sqlite3

from starlette.exceptions import HTTPException

from gameweave_core.errors import (
    ConfigError,
    GameOver,
    IllegalAction,
    LogError,
    MalformedAction,
    NotAwaited,
    one_line,
)

from . import refusals as r
from .wire import short, to_json

log = logging.getLogger("gameweave_http")

#: A header list of an ASGI response.
Headers = list[tuple[bytes, bytes]]

#: The status of every refusal: an exception's first class (along its MRO) found
#: here decides. Anything else is a bug in the server: 500, without detail.
STATUS: dict[type[BaseException], int] = {
    r.BadBody: 400,
    MalformedAction: 400,
    r.NotHttp: 400,
    r.UnknownHost: 400,
    r.NoToken: 401,
    r.NotSeated: 403,
    r.NotHost: 403,
    r.DevOnly: 403,
    r.CrossSite: 403,
    r.NoSuchMatch: 404,
    r.NoSuchTitle: 404,
    r.TooSlow: 408,
    r.StaleVersion: 409,
    r.NotNow: 409,
    NotAwaited: 409,
    GameOver: 409,
    r.BodyTooLarge: 413,
    r.NotUpgraded: 426,
    r.NotJson: 415,
    IllegalAction: 422,
    ConfigError: 422,
    r.Unplayable: 422,
    r.NotSearchable: 422,
    r.BadLog: 422,
    LogError: 422,
    r.TooMany: 429,
    r.HeadTooLarge: 431,
    r.ServerFull: 503,
    r.Stopping: 503,
    r.Unavailable: 503,
    r.NotStored: 503,
    r.TitleFailed: 503,
    r.SearchFailed: 503,
    # The store failed under a request (a full disk, a damaged page): the server
    # is not wrong, it cannot serve this now.
    sqlite3.Error: 503,
}

#: Retry-After for the refusals of :data:`STATUS` that carry none of their own.
RETRY_AFTER: dict[type[BaseException], int] = {
    r.TitleFailed: 60,
    r.SearchFailed: 2,
    sqlite3.Error: 30,
}

INTERNAL = "internal server error (see the server log)"
STORE_FAILED = "the match store failed on this request (see the server log); try again later"


def status_of(exc: BaseException) -> int | None:
    """The status :data:`STATUS` gives ``exc`` (``None``: not a refusal)."""
    for cls in type(exc).__mro__:
        found = STATUS.get(cls)
        if found is not None:
            return found
    return None


def retry_after_of(exc: BaseException) -> int | None:
    """The ``Retry-After`` seconds of a refusal, if it has any."""
    seconds = getattr(exc, "retry_after", None)
    if seconds is not None:
        return int(seconds)
    for cls in type(exc).__mro__:
        if cls in RETRY_AFTER:
            return RETRY_AFTER[cls]
    return None


def error_reply(exc: BaseException, method: str, path: str) -> tuple[int, bytes, Headers]:
    """The status, encoded JSON body and extra headers answering ``exc``.

    A refusal of :data:`STATUS` is its status with its own message; Starlette's
    :class:`HTTPException` (no such route, method not allowed) gets words of
    ours; anything else is a bug, logged with its traceback and answered 500
    without detail (the detail could name state the asking seat must not see)."""
    headers: Headers = []
    status = status_of(exc)
    if status is not None:
        if isinstance(exc, sqlite3.Error):
            store_failed(f"{method} {short(path)}", exc)
            message = STORE_FAILED
        else:
            message = exc.message if isinstance(exc, r.Refusal) else str(exc)
        retry = retry_after_of(exc)
        if retry is not None:
            headers.append((b"retry-after", str(retry).encode()))
    elif isinstance(exc, HTTPException):
        status = exc.status_code
        if status == 404:
            message = f"nothing at {short(path)}"
        elif status == 405:
            message = f"{method} is not allowed on {short(path)}"
        else:
            message = str(exc.detail)
        headers = [
            (k.lower().encode("latin-1"), v.encode("latin-1"))
            for k, v in (exc.headers or {}).items()
        ]
    else:
        log.error("%s %s failed", method, short(path), exc_info=exc)
        status, message = 500, INTERNAL
    return status, to_json({"error": capped(one_line(message))}), headers


def store_failed(what: str, exc: BaseException) -> None:
    """Log that the store failed under ``what``: SQLite's own errors (a full disk,
    a damaged page: the machine's state, which a traceback does not explain) as one
    line in SQLite's words; anything else with its traceback, as the bug it is."""
    if isinstance(exc, sqlite3.Error):
        log.error("%s: the store failed: %s", what, one_line(str(exc) or type(exc).__name__))
    else:
        log.error("%s: the store failed", what, exc_info=exc)


#: The longest refusal message sent: messages quote what they were sent (an
#: action's fields, a title's words about them), which may be of any length.
MAX_MESSAGE = 400


def capped(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters."""
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 30] + f"... ({len(message)} characters)"


def let_go(exc: BaseException) -> None:
    """Drop the tracebacks of an answered error and of every error behind it (its
    context, its cause, those it groups). An error caught in a frame and another
    raised there leave a cycle: the first is a local of the frame its own traceback
    holds (cattrs keeps each field's error so, too), and the frames of the whole
    request stay alive with it, the body among their locals, until the collector
    runs; a server's runs seldom (see :func:`gameweave_http.server.collect_less`).
    Without the tracebacks, everything is freed once the refusal is answered (the
    soak test's bad clients: RSS at the end 68 -> 46 MB)."""
    todo, seen = [exc], set()
    while todo:
        error = todo.pop()
        if id(error) in seen:
            continue
        seen.add(id(error))
        error.__traceback__ = None
        todo += [e for e in (error.__context__, error.__cause__) if e is not None]
        todo += getattr(error, "exceptions", ())


def described(refusals: tuple[type[BaseException], ...]) -> dict[int, str]:
    """What the OpenAPI document says of each status ``refusals`` are answered with:
    the first lines of their docstrings, joined."""
    out: dict[int, list[str]] = {}
    for cls in refusals:
        status = next((STATUS[c] for c in cls.__mro__ if c in STATUS), None)
        if status is None:
            raise ValueError(f"{cls.__name__} has no status in gameweave_http.errors.STATUS")
        words = (cls.__doc__ or cls.__name__).strip().split("\n\n")[0]
        words = " ".join(words.split()).rstrip(".")
        if words not in out.setdefault(status, []):
            out[status].append(words)
    return {status: "; ".join(parts) for status, parts in sorted(out.items())}


def has_retry_after(refusals: tuple[type[BaseException], ...], status: int) -> bool:
    """Whether every refusal among ``refusals`` answered with ``status`` carries a
    ``Retry-After`` (the document then says it is always there)."""
    found = [
        cls
        for cls in refusals
        if next((STATUS[c] for c in cls.__mro__ if c in STATUS), None) == status
    ]
    return bool(found) and all(
        getattr(cls, "retry_after", None) is not None or any(c in RETRY_AFTER for c in cls.__mro__)
        for cls in found
    )
