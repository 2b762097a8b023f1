"""The one error mapper: any exception a route raises becomes a status and a
one-line JSON ``{"error": ...}``, the same whichever road (Starlette or the fast
path) the request took."""

from __future__ import annotations

import logging
import sqlite3

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from gameweave_core.errors import one_line

from .hub import ApiError, unavailable
from .store import Damaged
from .wire import short, to_json

log = logging.getLogger("gameweave_http")

#: A header list of an ASGI response.
Headers = list[tuple[bytes, bytes]]

INTERNAL = "internal server error (see the server log)"
STORE_FAILED = "the match store failed on this request (see the server log); try again later"


def error_reply(exc: Exception, method: str, path: str) -> tuple[int, bytes, Headers]:
    """The status, encoded JSON body and extra headers answering ``exc``.

    :class:`ApiError` is a refusal with its own status and message; Starlette's
    :class:`HTTPException` (no such route, method not allowed) gets words of ours;
    anything else is a bug, logged with its traceback and answered 500 without
    detail (the detail could name state the asking seat must not see)."""
    headers: Headers = []
    if isinstance(exc, ApiError):
        status, message = exc.status, exc.message
        if exc.retry_after is not None:
            headers = [(b"retry-after", str(exc.retry_after).encode())]
    elif isinstance(exc, Damaged):  # one match's rows are on damaged pages
        refusal = unavailable(str(exc.args[0]) if exc.args else "")
        status, message = refusal.status, refusal.message
        headers = [(b"retry-after", str(refusal.retry_after).encode())]
    elif isinstance(exc, sqlite3.Error):
        # The store failed under a request (a full disk, a damaged page): the
        # server is not wrong, it cannot serve this now.
        log.error("%s %s: the store failed", method, short(path), exc_info=exc)
        status, message = 503, STORE_FAILED
        headers = [(b"retry-after", b"30")]
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


#: The longest refusal message sent: messages quote what they were sent (an
#: action's fields, a title's words about them), which may be of any length.
MAX_MESSAGE = 400


def capped(message: str) -> str:
    """``message`` cut to :data:`MAX_MESSAGE` characters."""
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 30] + f"... ({len(message)} characters)"


async def on_error(request: Request, exc: Exception) -> Response:
    """:func:`error_reply` as Starlette's exception handler (for every exception)."""
    status, body, headers = error_reply(exc, request.method, request.url.path)
    response = Response(body, status_code=status, media_type="application/json")
    response.raw_headers.extend(headers)
    return response
