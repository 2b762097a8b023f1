"""The seat socket: one kept WebSocket per page, on which the server pushes the
seat's payload after every change of its match (as the event stream does) and the
page sends its moves (as ``POST .../actions`` takes them), each answered there.

``GET /api/matches/{match_id}/socket?token=TOKEN`` asking to upgrade. The request
passes every check any request has (the gate's host and head size, the access
log), then the socket's own: the ``Origin`` must be this server's, the token the
seat's (none: a spectator, who may not move), the match's streams must have room
(a socket counts as an event stream, :class:`~gameweave_http.events.Listeners`),
and the title must build the payload. Only then does the connection switch
(:meth:`~gameweave_http.protocol.GuardedProtocol._switch`); a refusal before it is
an ordinary JSON error.

On the socket, every message is JSON text. From the client: a move,
``{"version": N, "action": {...}}``, the body of ``POST .../actions``. From the
server: the seat's payload (the same bytes the event stream and ``GET
/api/matches/{id}`` send), first at once and then after each change, each payload
once; and exactly one answer per move, in the order the moves were sent (they are
carried out one at a time): ``{"ok": true}`` once it is made, right after the
payload it made (or the one a bot's reply made first), or ``{"ok": false, "error":
"...", "status": 409}`` with the status and words ``POST .../actions`` would
answer (nothing changed). A message with ``ok`` is an answer, any other a
payload: a page needs no guess to tell its move's answer from another seat's
move. The server closes with 4001 once the seat's token is reissued (the old link
learns nothing more), 1011 when the title fails, 1001 when it stops; it pings
after 15 quiet seconds.

Why a second way to play beside the event stream and POST: a move over a kept
socket cost the server a quarter to a third less CPU than a POST and its
event-stream frames (0.73x at 32 matches, 0.69x at 256: the versus benchmark,
``benchmarks/results.md``), and it is how boardgame.io's clients play too. The
event stream stays, for clients and proxies without WebSockets.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable

from starlette.types import Receive, Send

from .bodies import Submit, structure
from .errors import error_reply, let_go
from .events import KEEPALIVE
from .frames import REVOKED, SERVER_ERROR
from .hub import Hub, LiveMatch
from .pipeline import SocketConnection
from .refusals import NoToken, TitleFailed
from .wire import parse_json

#: Moves read ahead of the one being carried out; past it the client's further
#: messages wait in its own socket (the server stops reading them).
QUEUED = 8

#: The answer to a move that was made.
ACCEPTED = b'{"ok":true}'

#: The close reason of a seat whose token was reissued.
REVOKED_WHY = "this link no longer opens the seat: the match's host gave the seat a new link"


def _nothing() -> None:
    pass


class SeatSocket:
    """One seat socket (see the module docstring): the :class:`~gameweave_http.pipeline.Stream`
    the route answers, which switches the connection, then the
    :class:`~gameweave_http.pipeline.SocketSession` its messages go to.

    Its place among the :class:`~gameweave_http.events.Listeners` is woken by
    :meth:`changed`, and let go of by ``on_close`` when the socket ends, however it
    ends; with ``still_valid`` (a seat's socket), it closes (4001) before any
    message once that says no."""

    def __init__(
        self,
        hub: Hub,
        live: LiveMatch,
        seat: int | None,
        switch: Callable[[bytes, SeatSocket], None],
        accept: bytes,
        path: str,
        still_valid: Callable[[], bool] | None = None,
    ) -> None:
        self.hub = hub
        self.live = live
        self.seat = seat
        self.switch = switch
        self.accept = accept
        self.path = path
        self.still_valid = still_valid
        self.on_close: Callable[[], None] = _nothing
        self.loop = asyncio.get_running_loop()
        self.conn: SocketConnection | None = None
        #: The last payload sent: the hub encodes a payload once per change, so the
        #: same object is no news.
        self.sent: bytes | None = None
        self.queue: deque[bytes] = deque()
        self.mover: asyncio.Task[None] | None = None
        #: A push is asked for at the loop's next turn; or it waits for the match.
        self.due = False
        self.waiting: asyncio.Task[None] | None = None
        self.over = False
        #: When the socket last sent (the loop's clock), and the keep-alive's timer.
        self.last = 0.0
        self.timer: asyncio.TimerHandle | None = None

    # -- the route's answer -------------------------------------------------------

    async def run(self, receive: Receive, send: Send) -> None:
        """Switch the connection; the socket lives on in its own callbacks."""
        self.switch(self.accept, self)

    # -- the connection's session -------------------------------------------------

    def opened(self, conn: SocketConnection) -> None:
        self.conn = conn
        self.last = self.loop.time()
        self.timer = self.loop.call_at(self.last + KEEPALIVE, self._keepalive)
        self.changed()  # the first payload

    def message(self, data: bytes) -> None:
        self.queue.append(data)
        if len(self.queue) >= QUEUED and self.conn is not None:
            self.conn.hold(True)
        if self.mover is None:
            self.mover = self.loop.create_task(self._moves())

    def closed(self) -> None:
        if self.over:
            return
        self.over = True
        for task in (self.waiting, self.mover):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        # The listeners' place holds ``changed``, so ``on_close`` (which holds the
        # place) ties the socket to itself: let go of, the socket is freed by
        # reference counting (see WebSocket.connection_lost).
        on_close, self.on_close = self.on_close, _nothing
        on_close()

    # -- sending ------------------------------------------------------------------

    def _seated(self) -> bool:
        """Whether the token is still the seat's; if not, the socket closes (4001)."""
        if self.still_valid is None or self.still_valid():
            return True
        if self.conn is not None:
            self.conn.close(REVOKED, REVOKED_WHY)
        return False

    def _send(self, payload: bytes) -> bool:
        """Send ``payload`` unless it was the last sent; whether the socket goes on
        (it closes, 4001, once the token is no longer the seat's)."""
        conn = self.conn
        if conn is None or self.over or not self._seated():
            return False
        if payload is not self.sent:
            self.sent = payload
            conn.send(payload)
            self.last = self.loop.time()
        return True

    def changed(self) -> None:
        """The match changed (or a token was reissued, or the socket opened): push
        the seat's payload at the loop's next turn, once. A callback rather than a
        task waiting for an event, as an event stream has: one wake-up fewer per
        push (the versus benchmark, ``benchmarks/README.md``). By then the change's
        lock is usually let go of, and the payload is read at once; the move that
        made it has been answered with it, if it was this socket's."""
        if not self.due and not self.over:
            self.due = True
            self.loop.call_soon(self._push)

    def _push(self) -> None:
        self.due = False
        if self.over or self.conn is None or self.waiting is not None:
            return
        try:
            payload = self.hub.payload_now(self.live, self.seat)
        except TitleFailed:
            self._failed()
            return
        if payload is None:  # the match is busy (a bot's turn, a slow title): wait
            self.waiting = self.loop.create_task(self._push_later())
        else:
            self._send(payload)

    async def _push_later(self) -> None:
        try:
            payload = await self.hub.payload(self.live, self.seat)
        except TitleFailed:
            self._failed()
            return
        finally:
            self.waiting = None
        self._send(payload)

    def _failed(self) -> None:
        if self.conn is not None:
            self.conn.close(SERVER_ERROR, "the title failed to show this seat the match")

    def _keepalive(self) -> None:
        """A ping after :data:`~gameweave_http.events.KEEPALIVE` quiet seconds."""
        due = self.last + KEEPALIVE
        if self.loop.time() >= due - 0.001 and self.conn is not None:
            self.conn.ping()
            self.last = self.loop.time()
            due = self.last + KEEPALIVE
        self.timer = self.loop.call_at(due, self._keepalive)

    # -- moves ----------------------------------------------------------------------

    async def _moves(self) -> None:
        """Carry out the queued moves one at a time, each answered in turn."""
        try:
            while self.queue and not self.over:
                data = self.queue.popleft()
                if len(self.queue) == QUEUED - 1 and self.conn is not None:
                    self.conn.hold(False)
                if not self._seated():
                    return
                try:
                    payload = await self._move(data)
                except Exception as exc:
                    self._refused(exc)
                    continue
                if not self._answer(payload):
                    return
        finally:
            self.mover = None

    async def _move(self, data: bytes) -> bytes:
        if self.seat is None:
            raise NoToken("a spectator's socket cannot move: open it with the seat's ?token=")
        body = structure(Submit, parse_json(data))
        return await self.hub.submit(self.live, self.seat, body.version, body.action)

    def _answer(self, payload: bytes) -> bool:
        """Answer a move made: its payload, unless sent already, then ``ok``, in one
        write; whether the socket goes on."""
        conn = self.conn
        if conn is None or self.over or not self._seated():
            return False
        if payload is self.sent:
            conn.send(ACCEPTED)
        else:
            self.sent = payload
            conn.send(payload, ACCEPTED)
        self.last = self.loop.time()
        return True

    def _refused(self, exc: Exception) -> None:
        """Answer a refused move with the status and words ``POST .../actions``
        would have; a bug in the server is logged there, and answered 500."""
        status, content, _ = error_reply(exc, "SOCKET", self.path)
        let_go(exc)
        if self.conn is not None and not self.over:
            said = {"ok": False, "error": json.loads(content)["error"], "status": status}
            self.conn.send(json.dumps(said).encode())
