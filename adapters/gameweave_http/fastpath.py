"""The fast path: the routes every turn hits, answered ahead of Starlette.

Reading a match, submitting an action and the event streams that carry each
move to the other seats are most of a server's work, and Starlette's middleware,
router and request/response objects cost more than the routes' own work.
:class:`App` therefore answers them itself, as bare ASGI apps (:class:`JsonRoute`,
:class:`StreamRoute`), and hands every other request to Starlette.

Both roads are declared once: a :class:`HotRoute` is one entry of the route
table (:mod:`gameweave_http.routes`) that gives Starlette its :class:`Route`
and gives the fast path the same compiled path pattern and the same handler.
Both answer errors with :func:`~gameweave_http.errors.error_reply` and add the
same safety headers. Middleware would be skipped by the fast path, so the app
refuses to start with any beyond the two Starlette always has, whose work the
fast path does itself (see :data:`FAST_PATH_COVERS`).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Protocol
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.convertors import Convertor, StringConvertor
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import ClientDisconnect
from starlette.routing import Match, Route, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_reply
from .hub import ApiError
from .wire import read_body, short

access_log = logging.getLogger("gameweave_http.access")

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


#: The middleware Starlette builds around its router whose work the fast path
#: does itself: ServerErrorMiddleware (a crash is a logged 500) and
#: ExceptionMiddleware (a refusal is its status and one line), both by
#: :func:`~gameweave_http.errors.error_reply`. Anything else would be skipped by
#: the routes every turn hits, so the app refuses it.
FAST_PATH_COVERS: tuple[type[Any], ...] = (ServerErrorMiddleware, ExceptionMiddleware)

#: A hot route's handler: the scope and the body (``None`` for a body over the
#: limit, or a route that reads none) to the encoded JSON reply.
Handler = Callable[[Scope, bytes | None], Awaitable[bytes]]


class JsonRoute:
    """A JSON route as a bare ASGI app.

    ``handle(scope, body)`` does all of a request's work and returns the encoded
    JSON reply. Refusals are answered as Starlette's exception handlers answer
    them (by the same function); what Starlette's request and response objects
    would add is left out.
    """

    def __init__(
        self, handle: Handler, reads_body: bool, headers: tuple[tuple[bytes, bytes], ...] = ()
    ) -> None:
        self.handle = handle
        self.reads_body = reads_body
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        status = 200
        extra: list[tuple[bytes, bytes]] = []
        try:
            body = await read_body(scope, receive) if self.reads_body else None
            content = await self.handle(scope, body)
        except ClientDisconnect:
            return  # nobody is left to answer
        except Exception as exc:
            status, content, extra = error_reply(exc, scope["method"], scope["path"])
        await send_json(send, status, content, [*extra, *self.headers])


async def send_json(
    send: Send, status: int, content: bytes, headers: Sequence[tuple[bytes, bytes]]
) -> None:
    """Answer with the JSON ``content`` and ``headers`` (the fast path's two ASGI
    messages, for a reply and for a refusal alike)."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-length", str(len(content)).encode()),
                (b"content-type", b"application/json"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


class Stream(Protocol):
    """A long answer (an event stream) that writes itself with ASGI ``send``."""

    async def run(
        self, receive: Receive, send: Send, headers: Sequence[tuple[bytes, bytes]] = ()
    ) -> None: ...


#: A streaming route's handler: the scope to the opened stream (or a refusal).
Opener = Callable[[Scope], Awaitable[Stream]]


class StreamRoute:
    """A streaming route as a bare ASGI app: ``open(scope)`` checks the request and
    opens the stream, which then answers it; a refusal is answered as
    :class:`JsonRoute` answers one."""

    def __init__(self, open: Opener, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        self.open = open
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            stream = await self.open(scope)
        except Exception as exc:
            status, content, extra = error_reply(exc, scope["method"], scope["path"])
            await send_json(send, status, content, [*extra, *self.headers])
            return
        await stream.run(receive, send, self.headers)


class HotRoute:
    """One route of every turn: ``method`` on ``path`` (Starlette's path syntax),
    answered by ``handle`` (a JSON reply, see :class:`JsonRoute`) or, for an event
    stream, by the stream ``opens`` returns (see :class:`StreamRoute`).
    :attr:`route` is its Starlette route; the fast path matches the same compiled
    pattern and calls the same handler."""

    def __init__(
        self,
        method: str,
        path: str,
        handle: Handler | None = None,
        *,
        reads_body: bool = False,
        opens: Opener | None = None,
    ) -> None:
        self.method = method
        self.path = path
        if opens is not None:
            app: Callable[[tuple[tuple[bytes, bytes], ...]], ASGIApp] = partial(StreamRoute, opens)
        else:
            assert handle is not None, "a hot route answers with handle or opens"
            app = partial(JsonRoute, handle, reads_body)
        self.route = Route(path, app(()), methods=[method])
        # Starlette's own compilation of the path, so both roads match alike.
        regex, _, convertors = compile_path(path)
        self.regex: re.Pattern[str] = regex
        self.convertors: dict[str, Convertor[Any]] = convertors
        # Text parameters are kept as matched: nothing to convert on every request.
        self.converts = any(type(c) is not StringConvertor for c in convertors.values())
        # On the fast path the route adds the safety headers itself (see App).
        self.fast = app(SAFETY_HEADERS)

    def match(self, method: str, path: str) -> dict[str, Any] | None:
        """The path parameters of a request this route answers, else ``None``."""
        if method != self.method:
            return None
        found = self.regex.match(path)
        if found is None:
            return None
        params = found.groupdict()
        if self.converts:
            for key, convertor in self.convertors.items():
                params[key] = convertor.convert(params[key])
        return params


class App(Starlette):
    """The server's Starlette app, in front of which every HTTP request gets the
    safety headers and a token-free access log line, and the hot routes (see the
    module docstring) go straight to their handlers."""

    def __init__(self, *, hot: Sequence[HotRoute], routes: Sequence[Any], **options: Any) -> None:
        # First in Starlette's table too: a request the fast path takes is one
        # Starlette's router would give the same route.
        super().__init__(routes=[*(h.route for h in hot), *routes], **options)
        self.hot = tuple(hot)
        # Built now, so that middleware the fast path would skip stops the app here.
        self.middleware_stack = self.build_middleware_stack()

    def add_middleware(self, middleware_class: Any, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(skipped_message(middleware_class))

    def build_middleware_stack(self) -> ASGIApp:
        stack = super().build_middleware_stack()
        app: Any = stack
        for expected in FAST_PATH_COVERS:
            if type(app) is not expected:
                raise RuntimeError(skipped_message(type(app)))
            app = app.app
        if app is not self.router:
            raise RuntimeError(skipped_message(type(app)))
        return stack

    def takes_post(self, scope: Scope) -> bool:
        """Whether a route of Starlette's table answers this POST."""
        return any(
            route.matches(scope)[0] is Match.FULL
            for route in self.router.routes
            if isinstance(route, Route) and route.methods and "POST" in route.methods
        )

    def hot_route(self, scope: Scope) -> ASGIApp | None:
        """The fast path's app for a request (its path parameters put in the scope,
        as Starlette's router would), or ``None`` for any other request."""
        if scope.get("root_path"):
            return None  # mounted under a prefix: Starlette's router handles that
        method, path = scope["method"], scope["path"]
        for hot in self.hot:
            params = hot.match(method, path)
            if params is not None:
                scope["path_params"] = params
                return hot.fast
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        logged = access_log.isEnabledFor(logging.INFO)
        route = self.hot_route(scope)
        # POST is the one method of the server's that changes state (its routes
        # take no other); a POST no route takes is left to the router (404, 405).
        if scope["method"] == "POST" and (route is not None or self.takes_post(scope)):
            refusal = cross_site_refusal(scope, self.state.settings.public_url)
            if refusal is not None:
                await reply_error(scope, send, refusal, logged)
                return
        if route is not None:
            scope["app"] = self  # as Starlette would: the handlers read app.state
            if not logged:
                await route(scope, receive, send)  # it adds the safety headers itself
                return
        started = time.perf_counter()
        status = 0
        complete = False

        async def send_with_headers(message: Message) -> None:
            nonlocal status, complete
            if message["type"] == "http.response.start":
                status = message["status"]
                if route is None:
                    headers = [*message.get("headers", ()), *SAFETY_HEADERS]
                    message = {**message, "headers": headers}
            elif not message.get("more_body", False):
                complete = True
            await send(message)

        try:
            await (route or super().__call__)(scope, receive, send_with_headers)
        except Exception:
            # Starlette raises a crash again once its 500 is sent (the error mapper
            # logged it): the connection's next requests still deserve answers, so
            # only a reply cut short ends it (the server then closes the connection).
            if not complete:
                raise
        finally:
            if logged:
                # The path only (queries may hold a seat token, the event stream's),
                # with control characters escaped so that no path forges a line.
                access_log.info(
                    "%s %s %d %.1fms",
                    scope["method"],
                    printable(scope["path"]),
                    status,
                    (time.perf_counter() - started) * 1000,
                )


def skipped_message(kind: type[Any]) -> str:
    return (
        f"{kind.__name__} would be skipped by the fast path of gameweave_http (reading a "
        "match, submitting an action): do its work in gameweave_http.fastpath.App too "
        "and list it in FAST_PATH_COVERS"
    )


#: Characters a log line shows escaped: C0 and C1 controls and DEL, and the line
#: and paragraph separators.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` for a log line: control characters as escapes (``\\n``, ``\\x1b``),
    cut to 300 characters, so that what a client sends cannot forge or erase lines."""
    if len(text) > 300:
        text = text[:300] + "..."
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode(), text)


def cross_site_refusal(scope: Scope, public_url: str | None) -> ApiError | None:
    """Why a state-changing request is refused, or ``None``.

    It must declare a JSON body (which a page of another site cannot send without
    the browser asking first), and an ``Origin`` header, when sent, must be this
    server's: its public URL's origin or the address the request was made to."""
    ctype = origin = host = None
    for name, value in scope["headers"]:
        if name == b"content-type":
            ctype = value
        elif name == b"origin":
            origin = value.decode("latin-1")
        elif name == b"host":
            host = value.decode("latin-1")
    if ctype is None or ctype.split(b";", 1)[0].strip().lower() != b"application/json":
        return ApiError(
            415, "send the body as JSON, with the header Content-Type: application/json"
        )
    if origin is not None:
        allowed = {f"{scope.get('scheme', 'http')}://{host}"} if host else set()
        if public_url:
            allowed.add(origin_of(public_url))
        if origin not in allowed:
            return ApiError(
                403,
                f"requests from the page of another site are refused (Origin {short(origin)!r})",
            )
    return None


def origin_of(url: str) -> str:
    """The origin (scheme, host and port) of ``url``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def reply_error(scope: Scope, send: Send, exc: Exception, logged: bool) -> None:
    """Answer ``exc`` as the error mapper does, with the safety headers."""
    status, content, extra = error_reply(exc, scope["method"], scope["path"])
    await send_json(send, status, content, [*extra, *SAFETY_HEADERS])
    if logged:
        access_log.info("%s %s %d", scope["method"], printable(scope["path"]), status)
