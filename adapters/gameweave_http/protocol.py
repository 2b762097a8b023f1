"""What must stay below ASGI: the limits on connections as such, held by the HTTP
protocol ``gameweave serve`` gives uvicorn (:class:`GuardedProtocol`).

An ASGI app is called once a request's head is in, and never sees a connection.
So only the server's side of the connection can hold:

- a cap on open connections (idle keep-alive ones included): one more is
  answered 503 and closed;
- the header timeout: a request head not all in within ``header_timeout`` (a
  client trickling bytes in, or silent) is answered 408 and closed;
- the size of a head still arriving: past ``max_head`` bytes, 431 and closed
  (a head that arrived whole is measured by the app, see
  :meth:`~gameweave_http.pipeline.Gate.admit`);
- a body still arriving once its request was answered, which the app no longer
  reads: closed ``body_timeout`` (plus a second) after its head (the app refuses
  a body it reads too slowly itself, see :class:`~gameweave_http.pipeline.BodyClock`);
- at shutdown, an event stream: its connection is closed at once (the stream sees
  its client gone and ends quietly), where uvicorn would wait for it to end by
  itself, which it never does, then cancel it and log a traceback; a request
  uvicorn still cancels (one running past the grace) is answered by the app (see
  :class:`~gameweave_http.pipeline.Gate`) and leaves no traceback (:class:`Quiet`).

It also makes the seat socket's switch to a WebSocket (:mod:`gameweave_http.sockets`),
which ASGI's own WebSocket messages would cost more than the moves themselves: a
request asking to upgrade is offered the switch in its scope
(:data:`~gameweave_http.pipeline.UPGRADE`), the app decides after its checks, and
the connection's frames are then read and written here (:class:`WebSocket`,
framed by :mod:`gameweave_http.frames`).

Each refusal is a whole JSON response with the safety headers, written by
:func:`raw_refusal` from the same error table as the app's. Request bodies and
heads are parsed by httptools. A reply's head and body go out in one write
(:class:`OneWrite`).

This is the one module that reaches into uvicorn's internals (a subclass of its
``HttpToolsProtocol``), and it does so through one seam: the methods of that
class it overrides or calls, and the attributes of the class and of its request
cycle it reads (:data:`SEAM`). ``pyproject.toml`` accepts a range of uvicorn
releases, tested at both ends (:data:`UVICORN_TESTED`, ``make check-uvicorn``);
:func:`seam_missing` says what of the seam an installed uvicorn lacks, and
``gameweave serve`` then falls back to uvicorn's own protocol with its
``limit_concurrency`` (see :func:`gameweave_http.server.uvicorn_options`),
saying so in one line, rather than fail. Served another way (another ASGI
server, or uvicorn without this protocol), these four limits are that server's
or a reverse proxy's job: the HTTP reference gives an nginx recipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from functools import partial
from typing import Any, ClassVar, cast

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .errors import error_reply
from .frames import (
    BINARY,
    CLOSE,
    GOING_AWAY,
    PING,
    PONG,
    TEXT,
    UNSUPPORTED,
    FrameError,
    FrameReader,
    close_frame,
    frame,
)
from .limits import Limits
from .pipeline import (
    BODY_IN,
    REFUSED,
    SAFETY_HEADERS,
    SWITCHED,
    UPGRADE,
    SocketSession,
    head_too_large,
)
from .refusals import NotHttp, Refusal, ServerFull, TooSlow
from .wire import MAX_BODY

#: The oldest and the newest uvicorn release this module is tested with: the ends
#: of the range ``pyproject.toml`` accepts (``make check-uvicorn`` runs the
#: protocol's tests with each).
UVICORN_TESTED = ("0.30.6", "0.55.0")

#: The seam: what :class:`GuardedProtocol` relies on in uvicorn's httptools
#: protocol, as (class, names of methods, names of attributes its ``__init__`` or
#: ``connection_made`` sets). The protocol's methods it overrides or calls, the
#: request cycle's flags it reads and sets.
SEAM: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "HttpToolsProtocol",
        (
            "connection_made",
            "data_received",
            "on_headers_complete",
            "on_message_complete",
            "connection_lost",
            "shutdown",
            "send_400_response",
            "_unsupported_upgrade_warning",
        ),
        ("connections", "cycle", "transport", "loop", "app", "parser"),
    ),
    (
        "RequestResponseCycle",
        (),
        (
            "scope",
            "transport",
            "disconnected",
            "response_started",
            "response_complete",
            "chunked_encoding",
            "message_event",
        ),
    ),
)


def seam_missing() -> str | None:
    """What of :data:`SEAM` the installed uvicorn lacks, in a few words (``None``:
    nothing). Attributes are looked for among those the class's ``__init__`` and
    ``connection_made`` assign (their code's names), without making one."""
    try:
        from uvicorn.protocols.http import httptools_impl
    except ImportError as exc:
        return f"uvicorn's httptools protocol cannot be imported ({exc})"
    for name, methods, attributes in SEAM:
        cls = getattr(httptools_impl, name, None)
        if cls is None:
            return f"uvicorn has no {name}"
        lacking = [m for m in methods if not callable(getattr(cls, m, None))]
        assigned: set[str] = set()
        for setter in ("__init__", "connection_made"):
            code = getattr(getattr(cls, setter, None), "__code__", None)
            if code is not None:
                assigned.update(code.co_names)
        lacking += [a for a in attributes if a not in assigned]
        if lacking:
            return f"uvicorn's {name} has no {', '.join(lacking)}"
    return None


TOO_MANY_CONNECTIONS = "the server holds as many connections as it may; try again shortly"
TOO_SLOW = "the request was not received in time; the connection is closed"
NOT_HTTP = "the request is not valid HTTP/1.1; the connection is closed"
#: Seconds past ``body_timeout`` after which a body still arriving closes its
#: connection here: the app refuses one it is reading at ``body_timeout``.
BODY_GRACE = 1.0

_REASONS = {400: b"Bad Request", 408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


def raw_refusal(refusal: Refusal) -> bytes:
    """A whole HTTP/1.1 response answering ``refusal`` that closes the connection:
    the status, JSON body and headers the app would answer, with the safety headers."""
    status, body, extra = error_reply(refusal, "-", "-")
    reason = _REASONS.get(status, b"Service Unavailable" if status == 503 else b"Error")
    head = [f"HTTP/1.1 {status} ".encode() + reason]
    for name, value in (
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *extra,
        *SAFETY_HEADERS,
    ):
        head.append(name + b": " + value)
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits of the module docstring, read
    from :attr:`limits` (:func:`guarded_protocol` makes a subclass with them set)."""

    limits: ClassVar[Limits] = Limits()
    #: Whether each connection turns Nagle's algorithm off itself (see :func:`no_delay`):
    #: needed on a socket the server was handed, not on one the event loop bound.
    nagle_off: ClassVar[bool] = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.app = Quiet(self.app)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.nagle_off:
            no_delay(transport)
        self._timer: asyncio.TimerHandle | None = None
        #: Waiting for a head (or reading one), and how many bytes of it came.
        self._in_head = True
        self._head = 0
        #: The request whose head is in is not all in yet.
        self._in_body = False
        if len(self.connections) > self.limits.connections:
            self._refuse(ServerFull(TOO_MANY_CONNECTIONS, retry_after=1))
            return
        self._start(self.limits.header_timeout)  # nothing sent yet: a head not yet sent

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head += len(data)
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self._in_head:
            if self._head > self.limits.max_head:
                self._refuse(head_too_large(self.limits.max_head))
            elif self._head and self._timer is None:
                self._start(self.limits.header_timeout)  # the next request's head began
        elif self._in_body and self._timer is None:
            self._start(self.limits.body_timeout + BODY_GRACE)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._in_body = True
        self._stop()
        before = self.cycle
        super().on_headers_complete()
        if self.cycle is not before:  # a request to answer
            cycle = self.cycle
            cycle.transport = OneWrite(self.transport, self.loop)  # type: ignore[assignment]
            if self.parser.should_upgrade():
                # A request to switch protocols: the app's route may take it up (the
                # seat socket), after the checks every request has.
                cast(dict[str, Any], cycle.scope)[UPGRADE] = partial(self._switch, cycle)

    def on_message_complete(self) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            # The app, if it has not asked for the body yet, finds it all in (the
            # usual small body, in the head's packet): no clock for it (see BODY_IN).
            cast(dict[str, Any], cycle.scope)[BODY_IN] = True
        self._in_body = False
        self._in_head = True
        self._head = 0
        self._stop()
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        """The server is stopping: an answer still being written with no length
        (chunked: an event stream, the one endless answer) ends now, its
        connection closed; anything else finishes first, as uvicorn does it."""
        cycle = self.cycle
        if cycle is not None and cycle.chunked_encoding and not cycle.response_complete:
            self.transport.close()  # the stream sees its client gone and ends
            return
        super().shutdown()

    def _unsupported_upgrade_warning(self) -> None:
        """A request to switch protocols: answered as plain HTTP, as uvicorn does
        (the app's seat socket switches by itself, see :meth:`_switch`), but without
        uvicorn's two warnings per request, with which any client could fill the log."""

    def _switch(self, cycle: Any, accept: bytes, session: SocketSession) -> None:
        """Switch the connection to a WebSocket handled by ``session``: the app took
        the request up (the seat socket; :data:`~gameweave_http.pipeline.UPGRADE`).
        The ``101`` is written here, and uvicorn's cycle marked answered, so that
        it writes nothing more; from now on the connection's bytes are frames."""
        self._stop()
        cycle.response_started = cycle.response_complete = True
        if cycle.disconnected or self.transport.is_closing():
            session.closed()  # the client went away meanwhile: nothing to switch
            return
        scope = cast(dict[str, Any], cycle.scope)
        scope[SWITCHED] = True
        # Let go of what ties this protocol to itself, as uvicorn's connection_lost
        # does (it is never called here once the connection is switched): the offer
        # in the scope, which holds the protocol, and the parser, which holds it
        # back. Reference counting then frees the protocol once the request ends,
        # not the cyclic collector (see WebSocket.connection_lost).
        scope.pop(UPGRADE, None)
        self.parser = None  # type: ignore[assignment]
        self.connections.discard(self)
        self.transport.write(
            b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n"
            b"connection: Upgrade\r\nsec-websocket-accept: " + accept + b"\r\n\r\n"
        )
        conn = WebSocket(session, self.transport, self.connections)
        self.transport.set_protocol(conn)
        conn.start()

    def send_400_response(self, msg: str) -> None:
        """httptools refused what was received: a one-line JSON error instead of
        uvicorn's plain text, also when the head was in and the body is what is
        wrong (``Transfer-Encoding: gzip``, a chunk size past 64 bits, chunk lines
        ended by a bare LF), the app then waiting for that body. The app's request
        is told its client has gone, and the access log's line for it says why
        (:data:`~gameweave_http.pipeline.REFUSED`); one whose answer had begun can
        only be closed, which its line says too."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            # The app's request ends as if its client had hung up: its answer, if
            # it makes one, goes nowhere (uvicorn drops a disconnected cycle's sends).
            cycle.disconnected = True
            cycle.message_event.set()
            scope = cast(dict[str, Any], cycle.scope)
            if cycle.response_started:
                scope[REFUSED] = (0, "closed mid-answer: what followed was not HTTP/1.1")
                self.transport.close()
                return
            scope[REFUSED] = (400, "not valid HTTP/1.1: its body's framing")
        self._refuse(NotHttp(NOT_HTTP))

    def _start(self, seconds: float) -> None:
        self._stop()
        self._timer = self.loop.call_later(seconds, self._too_slow)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if (self._in_head and (cycle is None or cycle.response_complete)) or (
            self._in_body and not cycle.response_started
        ):
            self._refuse(TooSlow(TOO_SLOW, retry_after=1))  # a request nobody answered yet
        else:
            self.transport.close()  # its answer is (being) sent: nothing more can be said

    def _refuse(self, refusal: Refusal) -> None:
        self._stop()
        self.transport.write(raw_refusal(refusal))
        self.transport.close()


class Quiet:
    """The app as uvicorn calls it: a request cancelled by uvicorn (once a shutdown's
    grace is over) ends there, quietly, where uvicorn would log a traceback for
    each. The app's own layers have answered it by then (the pipeline's ``Gate``)."""

    __slots__ = ("app",)

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if scope["type"] != "http":
                raise


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off on a TCP connection, as the event loop does on
    the connections of a socket uvicorn binds itself. uvicorn serving a socket it is
    handed (``serve(fd=...)``: tests, the soak benchmark, service managers) takes it
    for a Unix one, and Nagle stays on: a small write then waits up to 40 ms for
    the client's delayed acknowledgement of the last (an event right after
    another, a reply written in two parts)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and isinstance(transport.get_extra_info("peername"), tuple):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class OneWrite:
    """A response's side of its connection: the head is held until the first part
    of the body, so that a reply goes out in one system call instead of two (or
    until the end of this turn of the event loop, for a head with no body yet).
    On loopback a write delivers the bytes in the writer's time, and writes were
    the largest single cost of a move: server CPU per move 3-5% lower in the
    versus benchmark (interleaved A/B at 32 and 256 matches). Where Nagle's
    algorithm is on, a reply in two writes also waits for the client's delayed
    acknowledgement: the soak benchmark's reads (its server handed its socket)
    took 43 ms at the median before, 2 ms in one write."""

    __slots__ = ("_held", "_loop", "_started", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._held: bytes | None = None
        self._started = False

    def write(self, data: bytes) -> None:
        if not self._started:  # the response's first write: its head
            self._held = data
            self._started = True
            # The handle is not kept: it holds this object, which would then hold
            # it, a cycle left to the cyclic collector for every response.
            self._loop.call_soon(self.flush)
            return
        if self._held is not None:
            data = self._held + data
            self._held = None
        self.transport.write(data)

    def flush(self) -> None:
        """Write a head still held."""
        held, self._held = self._held, None
        if held is not None and not self.transport.is_closing():
            self.transport.write(held)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()


def guarded_protocol(limits: Limits, nagle_off: bool = True) -> type[GuardedProtocol]:
    """:class:`GuardedProtocol` with ``limits``, to give uvicorn as ``http=``.
    ``nagle_off=False`` when uvicorn binds the socket itself: the event loop then
    turns Nagle's algorithm off on each connection, and asking again cost 1.5% of
    the server's CPU per move (versus benchmark, py-spy)."""
    attrs: dict[str, Any] = {"limits": limits, "nagle_off": nagle_off}
    return type("GuardedProtocol", (GuardedProtocol,), attrs)


class _Ended:
    """The session of a WebSocket whose connection is over: nothing reaches it."""

    def opened(self, conn: object) -> None:
        pass

    def message(self, data: bytes) -> None:
        pass

    def closed(self) -> None:
        pass


#: What a WebSocket holds once its connection is lost, in place of its session.
ENDED: SocketSession = _Ended()


#: Bytes a WebSocket may have waiting to be sent before its client is taken to
#: have stopped reading, and the connection is dropped: a client that sends moves
#: but never reads the answers (or a spectator that never reads a busy match)
#: cannot make the server hold its messages without end.
MAX_UNSENT = 1 << 20


class WebSocket(asyncio.Protocol):
    """A connection switched to a WebSocket (the seat socket; see
    :mod:`gameweave_http.sockets`): its frames read (:class:`~gameweave_http.frames.FrameReader`)
    and written here, its text messages handed to its session, which sends through
    it (:class:`~gameweave_http.pipeline.SocketConnection`). A frame that breaks
    the protocol closes it with the code and reason the reader gives; a binary
    message, with 1003. Pings are answered; the server's own keep-alive pings are
    the session's. It counts among the server's open connections, and is closed
    (1001) when the server stops."""

    def __init__(
        self, session: SocketSession, transport: asyncio.Transport, connections: set[Any]
    ) -> None:
        self.session = session
        self.transport = transport
        self.connections = connections
        self.reader = FrameReader(MAX_BODY)
        #: A close was sent (or the connection lost): nothing more is sent or read.
        self.closing = False
        self._held = False
        self._full = False

    def start(self) -> None:
        self.connections.add(self)
        self.session.opened(self)

    # -- the event loop's side ----------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self.closing:
            return
        try:
            messages = self.reader.feed(data)
        except FrameError as exc:
            self.close(exc.code, exc.reason)
            return
        for opcode, payload in messages:
            if self.closing:
                return
            if opcode == TEXT:
                self.session.message(payload)
            elif opcode == BINARY:
                self.close(UNSUPPORTED, "send each move as a text message of JSON")
            elif opcode == PING:
                self.transport.write(frame(payload, PONG))
            elif opcode == CLOSE:
                # The client's close, answered with its own code (RFC 6455 5.5.1).
                self.closing = True
                self.transport.write(frame(payload[:2], CLOSE))
                self.transport.close()

    def pause_writing(self) -> None:
        self._full = True
        self._reading()

    def resume_writing(self) -> None:
        self._full = False
        self._reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        self.connections.discard(self)
        # The session holds this connection: holding it back would make the pair
        # a cycle, which only the cyclic collector frees. Every closed connection's
        # objects left to it made its passes about 6% of the server's CPU per move
        # (the versus benchmark, benchmarks/README.md); freed by reference counting,
        # they cost no pass at all.
        session, self.session = self.session, ENDED
        session.closed()

    def shutdown(self) -> None:
        """The server is stopping (uvicorn asks each open connection)."""
        self.close(GOING_AWAY, "the server is stopping; connect again once it is back")

    # -- the session's side -------------------------------------------------------

    def send(self, *messages: bytes) -> None:
        if self.closing:
            return
        self.transport.write(b"".join([frame(m) for m in messages]))
        if self.transport.get_write_buffer_size() > MAX_UNSENT:
            self.closing = True
            self.transport.abort()  # it does not read: no close frame would get through

    def close(self, code: int, reason: str) -> None:
        if self.closing:
            return
        self.closing = True
        self.transport.write(close_frame(code, reason))
        self.transport.close()

    def ping(self) -> None:
        if not self.closing:
            self.transport.write(frame(b"", PING))

    def hold(self, held: bool) -> None:
        self._held = held
        self._reading()

    def _reading(self) -> None:
        """Read the client's frames unless its session holds them or its answers
        wait to be sent (the client is slow to read)."""
        if self.closing:
            return
        if self._held or self._full:
            self.transport.pause_reading()
        else:
            self.transport.resume_reading()
