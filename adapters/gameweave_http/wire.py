"""What crosses the wire: the one token reader, the one body reader, and the JSON
parser and encoder. Every route reads its request through these."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

import orjson
from starlette.requests import ClientDisconnect
from starlette.types import Receive, Scope

from .refusals import BadBody, BodyTooLarge

#: The largest request body read, and the largest log the replay page accepts.
MAX_BODY = 1 << 20
MAX_LOG = 4 << 20


# -- writing ------------------------------------------------------------------------------


def to_json(content: Any) -> bytes:
    """Compact UTF-8 JSON, by orjson: a payload (several kilobytes of view and
    history) is encoded an order of magnitude faster than by the standard
    library, and encoding was the largest single cost of answering an action.
    Keys that are not strings (which orjson takes only with an option that halves
    its speed) and integers beyond 64 bits take the slower roads."""
    try:
        return orjson.dumps(content)
    except TypeError:
        pass
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode()


# -- the seat token -------------------------------------------------------------------------


#: What makes a query more than ``token=`` and a plain value.
_QUERY_SPECIAL = re.compile(rb"[&%+;]")


def read_token(scope: Scope, query: bool = False) -> str | None:
    """The seat token of a request: the ``X-Seat-Token`` header, else an
    ``Authorization: Bearer`` one, else (with ``query``, for event streams, which
    browsers cannot give headers) the last ``token`` of the query string.
    ``None``: no token, a spectator. Read straight from the ASGI scope, as
    Starlette's request would read the same headers and query."""
    token = auth = None
    for name, value in scope["headers"]:
        if name == b"x-seat-token":
            if token is None:
                token = value.decode("latin-1")
        elif name == b"authorization" and auth is None:
            auth = value.decode("latin-1")
    if not token and auth is not None and auth[:7].lower() == "bearer ":
        token = auth[7:].strip()
    if not token and query and scope["query_string"]:
        raw: bytes = scope["query_string"]
        if raw.startswith(b"token=") and not _QUERY_SPECIAL.search(raw, 6):
            token = raw[6:].decode("latin-1")  # the usual ?token=...: nothing to decode
        else:
            found = [v for k, v in parse_qsl(raw.decode("latin-1"), True) if k == "token"]
            token = found[-1] if found else None
    return token or None


def client_address(scope: Scope) -> str:
    """The address of the client a request came from: the key of the limits per
    client. It is the connection's peer, unless ``gameweave serve`` was told to
    trust that peer as a proxy (``--forwarded-allow-ips``): then the client the
    proxy names. Never a forwarded header from any other peer."""
    client = scope.get("client")
    return str(client[0]) if client else ""


# -- the body -------------------------------------------------------------------------------


def too_big(limit: int = MAX_BODY) -> BodyTooLarge:
    return BodyTooLarge(f"the body is larger than {limit} bytes")


async def read_body(scope: Scope, receive: Receive, limit: int = MAX_BODY) -> bytes | None:
    """The request body, or ``None`` when it is larger than ``limit`` (reading stops
    there; the caller reports it where it checks the body, after an unknown match or
    a missing token). Raises ``ClientDisconnect`` if the client went away."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            if value.isdigit() and int(value) > limit:
                return None
            break
    message = await receive()
    if message["type"] != "http.request":
        raise ClientDisconnect
    body: bytes = message.get("body", b"")
    if not message.get("more_body", False):  # the usual case: the whole body at once
        return body if len(body) <= limit else None
    parts = bytearray(body)
    while True:
        if len(parts) > limit:
            return None
        message = await receive()
        if message["type"] != "http.request":
            raise ClientDisconnect
        parts += message.get("body", b"")
        if not message.get("more_body", False):
            return bytes(parts) if len(parts) <= limit else None


#: A run of 19 digits: a number orjson would not read exactly as Python does.
_LONG_NUMBER = re.compile(rb"[0-9]{19}")


def parse_json(body: bytes) -> Any:
    """A request body's JSON, or :class:`~gameweave_http.refusals.BadBody` saying what
    is wrong with it.

    orjson reads the usual body several times faster than the standard library.
    The standard parser still decides every document orjson refuses (so the error
    messages stay the same) and every one holding a long number (orjson reads an
    integer beyond 64 bits as a float, where Python keeps it exact).
    """
    if not body.strip():
        raise BadBody("the body is empty: send a JSON object")
    if _LONG_NUMBER.search(body) is None:
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc) or "too deep"
        raise BadBody(f"the body is not valid JSON: {reason}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# -- words ----------------------------------------------------------------------------------


def kind(value: Any) -> str:
    """The JSON type of ``value``, in words, for error messages (never the value:
    refusals do not echo what they were sent)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


#: The most of a client's own text a refusal repeats.
ECHO = 60


def short(text: str) -> str:
    """``text`` cut to :data:`ECHO` characters, for a refusal that names it."""
    return text if len(text) <= ECHO else text[:ECHO] + "..."
