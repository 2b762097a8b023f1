"""The one road every request takes: a Starlette app whose stack is the
:class:`Gate` around any middleware a user adds, around Starlette's router.

Every HTTP request, whichever route answers it, passes the same layers, each in
one place:

- the hosts the server answers to (:meth:`Gate.admit`, :func:`host_allowed`);
- the limits an app can hold (:meth:`Gate.admit`: the size of a head that
  arrived whole, the requests answered at once; :class:`BodyClock`: the time to
  send a body);
- the safety headers, added to every response (:data:`SAFETY_HEADERS`;
  the protocol adds them to its own refusals too, see :mod:`gameweave_http.protocol`);
- the access log, a line per request without its query (:data:`access_log`);
- the error mapper: whatever a request raises is answered by
  :func:`~gameweave_http.errors.error_reply` (:class:`Errors`, inside the
  middleware a user adds, so that they see refusals as responses; the gate
  answers what they raise themselves the same way);
- the cross-site check of a state-changing request (:func:`refuse_cross_site`,
  made by :class:`Endpoint` for every ``POST`` a route takes).

The API's routes are :class:`Endpoint` apps (routed by Starlette like any other
route): each reads and structures its body into the route's class, calls the
handler with the ASGI scope and that body, and sends the JSON answer itself,
without Starlette's request and response objects. A user's middleware sees
every request, the API's included; its cost is its own (see the HTTP reference).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from itertools import chain
from typing import Any, Protocol, cast
from urllib.parse import urlsplit

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.routing import Route, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .bodies import structure
from .errors import error_reply, let_go
from .refusals import (
    CrossSite,
    HeadTooLarge,
    NotJson,
    ServerFull,
    Stopping,
    TooSlow,
    UnknownHost,
)
from .state import Settings
from .wire import MAX_BODY, parse_json, read_body, short, too_big

access_log = logging.getLogger("gameweave_http.access")
log = logging.getLogger("gameweave_http")

#: The pages' Content-Security-Policy: scripts, styles, images and connections
#: from this server only, no inline script, no plugins, never inside a frame.
CSP = (
    b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    b"frame-ancestors 'none'"
)

#: Safety headers added to every response.
SAFETY_HEADERS = (
    (b"content-security-policy", CSP),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)

#: The key of a request's ASGI scope the protocol sets when the request's body is
#: all in before the app is called (the usual small body, in the head's packet):
#: the gate then needs no :class:`BodyClock` for it.
BODY_IN = "gameweave.body_in"

#: The key of a request's ASGI scope under which the protocol leaves a refusal it
#: answered itself, mid-request (a body that is not HTTP/1.1), as (status, reason):
#: the access log's line for the request says so (see :class:`Gate`).
REFUSED = "gameweave.refused"

#: The key of a request's ASGI scope under which the protocol offers to switch the
#: connection to a WebSocket (a ``GET`` asking to upgrade, served by
#: :class:`~gameweave_http.protocol.GuardedProtocol`): a callable taking the
#: ``Sec-WebSocket-Accept`` value and the :class:`SocketSession` the connection's
#: messages then go to. Absent under any other server: the seat socket is refused.
UPGRADE = "gameweave.upgrade"

#: Set in a request's scope once its connection switched to a WebSocket: the
#: access log's line for it says 101.
SWITCHED = "gameweave.switched"


class SocketConnection(Protocol):
    """The WebSocket side of a connection, as a :class:`SocketSession` sees it."""

    def send(self, *messages: bytes) -> None:
        """Send each of ``messages`` (UTF-8 JSON) as a text message, in one write."""

    def close(self, code: int, reason: str) -> None:
        """Close with ``code`` and a one-line ``reason``; nothing more is sent."""

    def ping(self) -> None:
        """Send a ping (the keep-alive of a quiet connection)."""

    def hold(self, held: bool) -> None:
        """Stop reading the client's messages (``True``) or read them again."""


class SocketSession(Protocol):
    """What a connection switched to a WebSocket hands its messages to."""

    def opened(self, conn: SocketConnection) -> None:
        """The switch is made: ``conn`` sends from now on."""

    def message(self, data: bytes) -> None:
        """A whole text message from the client (its UTF-8 bytes)."""

    def closed(self) -> None:
        """The connection is over, whoever ended it."""


TOO_MANY_REQUESTS = "the server is answering as many requests as it may at once; try again shortly"
BODY_TOO_SLOW = "the request body was not received in time; the connection is closed"
STOPPING = "the server is stopping; try again once it is back"


def head_too_large(max_head: int) -> HeadTooLarge:
    """The refusal of a request head over ``max_head`` bytes."""
    return HeadTooLarge(
        f"the request head (request line and headers) is larger than {max_head} bytes, "
        "the most the server reads"
    )


class App(Starlette):
    """The server's Starlette app: its stack is the :class:`Gate`, around the
    middleware a user adds (``add_middleware``, ``middleware=``), around
    :class:`Errors`, around the router (:class:`Routes`). They take the place of
    Starlette's own error middleware (exception handlers a user adds are still
    asked first). Without a user's middleware there is no :class:`Errors`: the
    gate answers what the routes raise in the same way, and a layer wrapping
    every message sent cost 1% of the server's CPU per move (versus benchmark)."""

    def build_middleware_stack(self) -> ASGIApp:
        handlers = dict(self.exception_handlers)
        app: ASGIApp = Routes(self.router)
        if self.user_middleware:
            app = Errors(app, handlers)
            for cls, args, kwargs in reversed(self.user_middleware):
                app = cls(app, *args, **kwargs)
        return Gate(app, self.state.settings, handlers)


class Gate:
    """The outermost layer of every request (see the module docstring)."""

    def __init__(self, app: ASGIApp, settings: Settings, handlers: Mapping[Any, Any]) -> None:
        self.app = app
        self.settings = settings
        self.limits = settings.limits
        #: Exception handlers a user gave Starlette (``add_exception_handler``), asked
        #: before the error mapper.
        self.handlers = handlers
        self.answering = 0
        #: The names the operator gave (the public URL's host, ``--allowed-host``),
        #: which a reverse proxy in front may serve on a port of its own.
        self.named = settings.allowed_hosts - {"localhost"}
        #: What was decided of each (Host, server address) seen: the refusal's
        #: words, or ``None``. A server sees the same few on every request, and
        #: deciding again cost 1% of its CPU per move (versus benchmark).
        self._hosts: dict[tuple[Any, ...], str | None] = {}

    def admit(self, scope: Scope) -> None:
        """Refuse a request before any route sees it: a head over ``max_head``
        bytes (however it arrived: a server may bound only a head still arriving),
        a ``Host`` the server does not serve, or as many requests being answered as
        the limit allows."""
        headers = scope["headers"]
        # The head as sent, but for spaces around header values ("NAME: VALUE\r\n"
        # per header, the request line's method, path, query and version).
        size = sum(map(len, chain.from_iterable(headers))) + 4 * len(headers)
        size += len(scope.get("raw_path") or b"") + len(scope["query_string"]) + 24
        if size > self.limits.max_head:
            raise head_too_large(self.limits.max_head)
        host = None
        for key, value in headers:
            if key == b"host":
                if host is not None:
                    raise UnknownHost(
                        "the request names its host twice (two Host headers); send one"
                    )
                host = value.decode("latin-1")
        if host is None:
            raise UnknownHost("the request names no host: send a Host header")
        server = scope.get("server")
        key = (host, *server) if server else (host,)  # a list in some servers' scopes
        why = self._hosts.get(key, "?")
        if why == "?":
            why = self._host_refusal(host, scope)
            if len(self._hosts) >= 256:  # a client naming ever new hosts: start again
                self._hosts.clear()
            self._hosts[key] = why
        if why is not None:
            raise UnknownHost(why)
        if self.answering >= self.limits.connections:
            raise ServerFull(TOO_MANY_REQUESTS, retry_after=1)

    def _host_refusal(self, host: str, scope: Scope) -> str | None:
        """Why a request naming ``host`` that reached the server's address in
        ``scope`` is refused (``None``: it is not)."""
        if not host_allowed(host, scope, self.settings.allowed_hosts):
            return (
                f"this server does not answer to the host {short(host)!r}; "
                "its operator may add it with gameweave serve --allowed-host"
            )
        if not port_served(host, scope, self.settings.public_port, self.named):
            return f"this server is not served on the port the host {short(host)!r} names"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)  # the lifespan
            return
        logged = access_log.isEnabledFor(logging.INFO)
        started = time.perf_counter() if logged else 0.0
        status = 0
        #: Why the request got no answer of the app's, for the access log.
        gone = ""
        complete = False
        clock: BodyClock | None = None

        async def send_safely(message: Message) -> None:
            nonlocal status, complete
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), *SAFETY_HEADERS]
                if clock is not None and clock.late:
                    # The rest of a body sent too slowly may still be on its way.
                    headers.append((b"connection", b"close"))
                message = {**message, "headers": headers}
            elif not message.get("more_body", False):
                complete = True
            await send(message)

        try:
            self.admit(scope)
            self.answering += 1
            try:
                if scope["method"] == "POST" and BODY_IN not in scope:
                    receive = clock = BodyClock(receive, self.limits.body_timeout)
                await self.app(scope, receive, send_safely)
            finally:
                self.answering -= 1
        except ClientDisconnect:
            gone = "the client went away before the answer"  # nobody is left to answer
        except asyncio.CancelledError:
            # The server cancels the requests still running once its shutdown's
            # grace is over: answer one not answered yet (rather than leave it to
            # the server's plain-text 500), end one under way, and let the
            # cancellation go on (the protocol keeps it out of the log).
            if not status:
                await answer(Stopping(STOPPING), scope, receive, send_safely, self.handlers)
            elif not complete:
                await send_safely({"type": "http.response.body", "body": b""})
            raise
        except Exception as exc:
            # A refusal of the gate's own, or what a user's middleware raised.
            if not status:
                await answer(exc, scope, receive, send_safely, self.handlers)
            elif not complete:
                raise  # a reply cut short: the server closes the connection
            else:
                log.error(
                    "%s %s failed after its answer",
                    scope["method"],
                    short(scope["path"]),
                    exc_info=exc,
                )
        finally:
            if logged:
                # The path only (queries may hold a seat token, the event stream's),
                # with control characters escaped so that no path forges a line.
                why = ""
                refused = scope.get(REFUSED)
                if not status and scope.get(SWITCHED):
                    status = 101
                if refused is not None:
                    status, gone = refused  # answered (or closed) by the protocol
                if not status or refused is not None:
                    why = f" ({gone or 'no answer: the connection closed'})"
                access_log.info(
                    "%s %s %d %.1fms%s",
                    scope["method"],
                    printable(scope["path"]),
                    status,
                    (time.perf_counter() - started) * 1000,
                    why,
                )


class Routes:
    """The router as the API's requests take it: the API's routes found by one
    regular expression, the rest left to Starlette's router.

    Starlette's router tries its routes in turn, each with its own expression,
    and builds a scope for each candidate; on the road of every move that was 4%
    of the server's CPU (versus benchmark, py-spy). Here the leading run of the
    router's routes that are API :class:`Endpoint` routes with plain ``{name}``
    parameters is one alternation, matched once; a request it matches, by a
    method the route takes, goes straight to the endpoint with the scope
    Starlette would give it (``router``, ``route``, ``endpoint``,
    ``path_params``). Anything else (another method: a 405 with ``Allow``; a
    page; a root path; a route added in front of the API's) is Starlette's, so
    every answer is the one its router gives."""

    __slots__ = ("_built", "_found", "_regex", "router")

    def __init__(self, router: Router) -> None:
        self.router = router
        self._regex: re.Pattern[str] | None = None
        self._built = False
        #: Group name -> (route, (group name, parameter name) of each parameter).
        self._found: dict[str, tuple[Route, tuple[tuple[str, str], ...]]] = {}

    def _build(self) -> re.Pattern[str] | None:
        """The alternation of the leading API routes (made on the first request,
        when Starlette builds its stack: routes added before serving count)."""
        pieces: list[str] = []
        for i, route in enumerate(self.router.routes):
            if not (isinstance(route, Route) and isinstance(route.app, Endpoint)):
                break
            parts, names = [], []
            for part in route.path.split("/"):
                if part.startswith("{") and part.endswith("}"):
                    name = part[1:-1]
                    if not name.isidentifier():  # a typed parameter ({seat:int}): Starlette's
                        return self._done(pieces)
                    names.append((f"r{i}_{name}", name))
                    parts.append(f"(?P<r{i}_{name}>[^/]+)")
                else:
                    parts.append(re.escape(part))
            pieces.append(f"(?P<r{i}>{'/'.join(parts)})")
            self._found[f"r{i}"] = (route, tuple(names))
        return self._done(pieces)

    def _done(self, pieces: list[str]) -> re.Pattern[str] | None:
        self._regex = re.compile("|".join(pieces)) if pieces else None
        self._built = True
        return self._regex

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        regex = self._regex if self._built else self._build()
        if regex is not None and scope["type"] == "http" and not scope.get("root_path"):
            found = regex.fullmatch(scope["path"])
            if found is not None:
                route, names = self._found[cast(str, found.lastgroup)]
                endpoint = cast(Endpoint, route.app)
                if scope["method"] in endpoint.ops:
                    if "router" not in scope:
                        scope["router"] = self.router
                    scope["route"] = route
                    scope["endpoint"] = route.endpoint
                    scope["path_params"] = {name: found.group(group) for group, name in names}
                    await endpoint(scope, receive, send)
                    return
        await self.router(scope, receive, send)


class Errors:
    """The error mapper as a layer: whatever the routes raise before answering is
    answered (:func:`answer`), inside any middleware a user adds."""

    def __init__(self, app: ASGIApp, handlers: Mapping[Any, Any]) -> None:
        self.app = app
        self.handlers = handlers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sender(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, receive, sender)
        except ClientDisconnect:
            pass  # nobody is left to answer
        except Exception as exc:
            if started:
                raise  # answered in part: the gate lets the server close the connection
            await answer(exc, scope, receive, send, self.handlers)


async def answer(
    exc: Exception, scope: Scope, receive: Receive, send: Send, handlers: Mapping[Any, Any]
) -> None:
    """Answer ``exc``: by a handler a user gave Starlette for it, if there is one,
    else by the error mapper (:func:`~gameweave_http.errors.error_reply`)."""
    handler = handlers.get(exc.status_code) if isinstance(exc, HTTPException) else None
    for cls in type(exc).__mro__:
        if handler is None:
            handler = handlers.get(cls)
    if handler is not None:
        response = await handler(Request(scope, receive), exc)
        await response(scope, receive, send)
        return
    status, content, headers = error_reply(exc, scope["method"], scope["path"])
    await send_json(send, status, content, headers)
    let_go(exc)  # it is answered (and a crash logged): nothing needs its traceback


class BodyClock:
    """``receive`` that refuses (:class:`TooSlow`) a body not all in within
    ``seconds``: the request is cancelled at the deadline while it waits for the
    body. One timer per wait, and none once the body is in; :attr:`late` once it
    refused."""

    def __init__(self, receive: Receive, seconds: float) -> None:
        self.receive = receive
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.deadline = self.loop.time() + seconds
        self.complete = self.late = False

    def _too_late(self) -> None:
        self.late = True
        if self.task is not None:
            self.task.cancel()

    async def __call__(self) -> Message:
        if self.complete:
            return await self.receive()  # the body is in: what follows is a disconnect
        if self.loop.time() >= self.deadline:
            self.late = True
            raise TooSlow(BODY_TOO_SLOW)
        timer = self.loop.call_at(self.deadline, self._too_late)
        try:
            message = await self.receive()
        except asyncio.CancelledError:
            if self.late and self.task is not None and self.task.uncancel() == 0:
                raise TooSlow(BODY_TOO_SLOW) from None
            raise
        finally:
            timer.cancel()
        if message["type"] != "http.request" or not message.get("more_body", False):
            self.complete = True
        return message


#: Characters a log line shows escaped: C0 and C1 controls and DEL, and the line
#: and paragraph separators.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` for a log line: control characters as escapes (``\\n``, ``\\x1b``),
    cut to 300 characters, so that what a client sends cannot forge or erase lines."""
    if len(text) > 300:
        text = text[:300] + "..."
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode(), text)


# -- hosts and origins -------------------------------------------------------------------------


def header(scope: Scope, name: bytes) -> str | None:
    """The first header ``name`` of a request (``None``: not sent)."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


#: A ``Host`` header: a name or an address (IPv6 in brackets), and maybe a port.
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?")


@functools.lru_cache(maxsize=256)
def split_host(value: str) -> tuple[str, int | None] | None:
    """The host name (lower case; an IPv6 address without brackets) and port of a
    ``Host`` header, or ``None`` when it is not one. Remembered: a server sees the
    same few values on every request, and parsing one took 2 us of the 11 us of a
    read in the app."""
    found = _HOST.fullmatch(value.strip())
    if found is None:
        return None
    name, port = found.groups()
    return name.strip("[]").lower(), int(port) if port else None


def port_served(
    value: str, scope: Scope, public_port: int | None, named: frozenset[str] = frozenset()
) -> bool:
    """Whether the port a ``Host`` header names, if it names one, is one this
    server is served on: the port the request reached (as its socket has it) or
    the public URL's; any port for a name the operator gave (``named``: the public
    URL's host, ``--allowed-host``), which a reverse proxy may serve on its own
    port. A ``Host`` without a port passes: a reverse proxy passing on the public
    host's name (``proxy_set_header Host $host``) sends none."""
    found = split_host(value)
    if found is None or found[1] is None or found[0] in named:
        return True
    server = scope.get("server")
    return found[1] == public_port or (server is not None and found[1] == server[1])


def host_allowed(value: str, scope: Scope, allowed: frozenset[str]) -> bool:
    """Whether the ``Host`` header ``value`` names this server: the address the
    request reached (as its socket has it) or one of the ``allowed`` names
    (``localhost``, the public URL's host, those the operator added). A page
    whose own name was made to point at this server (DNS rebinding) sends its
    own name, refused here."""
    found = split_host(value)
    if found is None:
        return False
    server = scope.get("server")
    return found[0] in allowed or (server is not None and found[0] == str(server[0]).lower())


# -- the API's routes --------------------------------------------------------------------------


def refuse_cross_site(scope: Scope, settings: Settings) -> None:
    """Refuse a state-changing request a page of another site may have sent.

    It must declare a JSON body (which a page of another site cannot send without
    the browser asking first), and an ``Origin`` header, when sent, must be this
    server's: its public URL's origin, or a host it answers to (see
    :func:`host_allowed`) on the scheme and port the request was made to."""
    ctype = header(scope, b"content-type")
    if ctype is None or ctype.split(";", 1)[0].strip().lower() != "application/json":
        raise NotJson("send the body as JSON, with the header Content-Type: application/json")
    refuse_foreign_origin(scope, settings)


def refuse_foreign_origin(scope: Scope, settings: Settings) -> None:
    """Refuse a request whose ``Origin``, when sent, is not this server's (see
    :func:`refuse_cross_site`): also the seat socket's handshake, for which every
    browser sends one (a page of another site could otherwise play a seat whose
    link it learned)."""
    origin = header(scope, b"origin")
    if origin is None or origin == settings.public_origin:
        return
    host = header(scope, b"host")
    if host is not None and origin == f"{scope.get('scheme', 'http')}://{host}":
        return  # the address the page used, which the gate found this server's
    if not same_server(origin, scope, settings.allowed_hosts):
        raise CrossSite(
            f"requests from the page of another site are refused (Origin {short(origin)!r})"
        )


#: The port a URL without one has, by scheme.
DEFAULT_PORT = {"http": 80, "https": 443}


def same_server(origin: str, scope: Scope, allowed: frozenset[str]) -> bool:
    """Whether ``origin`` is this server as the request reached it: a host it
    answers to, on the request's scheme and port (a page on another port of the
    same machine is another site)."""
    scheme = scope.get("scheme", "http")
    parts = urlsplit(origin)
    try:
        port = parts.port or DEFAULT_PORT.get(parts.scheme)
    except ValueError:
        return False
    if parts.scheme != scheme or not parts.hostname or parts.path or parts.username:
        return False
    if not host_allowed(parts.netloc, scope, allowed):
        return False
    host = header(scope, b"host")
    found = split_host(host) if host is not None else None
    if found is not None:
        wanted = found[1] or DEFAULT_PORT.get(scheme)
    else:
        server = scope.get("server")
        wanted = server[1] if server else None
    return port == wanted


@attrs.frozen
class Reply:
    """An answer other than a plain JSON 200: its status, body, headers and type."""

    content: bytes
    status: int = 200
    headers: Sequence[tuple[bytes, bytes]] = ()
    media: bytes = b"application/json"


class Stream(Protocol):
    """A long answer (an event stream) that writes itself with ASGI ``send``."""

    async def run(self, receive: Receive, send: Send) -> None: ...


#: What a handler answers: JSON (200), a :class:`Reply`, or a :class:`Stream`.
Answer = bytes | Reply | Stream
#: A handler: the request's scope and its structured body (``None`` for a route
#: that takes none) to its answer.
Handler = Callable[[Scope, Any], Awaitable[Answer]]


@attrs.frozen
class Op:
    """One method of an API path: its handler, the class of its body, and what
    the OpenAPI document says of it (see :mod:`gameweave_http.openapi`)."""

    handler: Handler
    #: ``operationId`` and summary in the document.
    name: str
    summary: str
    #: The answer's schema (a component's name, or a schema) and its description.
    answer: str | dict[str, Any]
    answer_doc: str
    status: int = 200
    media: str = "application/json"
    #: The body's class (:mod:`gameweave_http.bodies`); ``None``: no body.
    body: type | None = None
    #: The largest body read.
    limit: int = MAX_BODY
    #: Parameters besides the path's: OpenAPI parameter objects.
    params: tuple[dict[str, Any], ...] = ()
    #: What the handler may refuse (:mod:`gameweave_http.refusals`, the core's).
    refusals: tuple[type[BaseException], ...] = ()


class Endpoint:
    """The ASGI app of one API path: for the request's method (Starlette's router
    refused any other), the cross-site check of a ``POST``, the body read and
    structured into the operation's class, the handler, the answer sent."""

    def __init__(self, ops: Mapping[str, Op]) -> None:
        self.ops = dict(ops)
        if "GET" in self.ops:
            self.ops["HEAD"] = self.ops["GET"]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        op = self.ops[scope["method"]]
        if scope["method"] == "POST":  # the one method of the API's that changes state
            refuse_cross_site(scope, scope["app"].state.settings)
        body: Any = None
        if op.body is not None:
            raw = await read_body(scope, receive, op.limit)
            if raw is None:
                raise too_big(op.limit)
            body = structure(op.body, parse_json(raw))
        answer = await op.handler(scope, body)
        if isinstance(answer, bytes):
            await send_json(send, 200, answer)
        elif isinstance(answer, Reply):
            headers = [(b"content-type", answer.media), *answer.headers]
            await send_json(send, answer.status, answer.content, headers, typed=True)
        else:
            await answer.run(receive, send)


async def send_json(
    send: Send,
    status: int,
    content: bytes,
    headers: Sequence[tuple[bytes, bytes]] = (),
    typed: bool = False,
) -> None:
    """Answer with ``content`` (JSON, unless ``headers`` give the type: ``typed``)
    in the two ASGI messages of a reply."""
    head = [(b"content-length", str(len(content)).encode())]
    if not typed:
        head.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": [*head, *headers]})
    await send({"type": "http.response.body", "body": content})
