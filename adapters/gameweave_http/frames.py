"""WebSocket framing (RFC 6455) for the seat socket: the handshake's accept key, the
frames the server sends, and a reader of the frames a client sends.

Only what the seat socket needs, and every rule a client must keep is held: its
frames are masked, their reserved bits clear (no extension is ever agreed), a
control frame is whole and at most 125 bytes, a message is at most ``max_size``
bytes however it is split into frames, and its frames are not interleaved with
another message's. A frame that breaks a rule is refused with the close code and
one-line reason the socket closes with (:class:`FrameError`), before any of an
oversized message is buffered.

The sans-I/O shape (bytes in, messages out) is the ``websockets`` and ``wsproto``
libraries' too; the seat socket frames by hand because it handles a handful of
small JSON messages per move, where a general library's per-message work was most
of the cost (see the HTTP reference and ``benchmarks/README.md``).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Final

#: The GUID RFC 6455 appends to a client's key to make the accept key.
GUID: Final = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

CONTINUATION: Final = 0x0
TEXT: Final = 0x1
BINARY: Final = 0x2
CLOSE: Final = 0x8
PING: Final = 0x9
PONG: Final = 0xA

#: Close codes the seat socket uses (RFC 6455 section 7.4, and 4000-4999 for the
#: application's own).
GOING_AWAY: Final = 1001
PROTOCOL_ERROR: Final = 1002
UNSUPPORTED: Final = 1003
NOT_UTF8: Final = 1007
POLICY: Final = 1008
TOO_BIG: Final = 1009
SERVER_ERROR: Final = 1011
#: The seat's token was reissued: the link no longer opens the seat.
REVOKED: Final = 4001


class FrameError(Exception):
    """A client's frame broke the protocol: close with ``code`` and ``reason``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def accept_key(key: bytes) -> bytes:
    """The ``Sec-WebSocket-Accept`` value answering a client's ``Sec-WebSocket-Key``."""
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


def valid_key(key: bytes) -> bool:
    """Whether ``key`` is a ``Sec-WebSocket-Key`` as RFC 6455 makes them: 16 bytes,
    base64-encoded."""
    try:
        return len(base64.b64decode(key, validate=True)) == 16
    except ValueError:
        return False


def frame(payload: bytes, opcode: int = TEXT) -> bytes:
    """One whole, unmasked frame (a server's frames are never masked)."""
    n = len(payload)
    if n < 126:
        return bytes((0x80 | opcode, n)) + payload
    if n < 65536:
        return bytes((0x80 | opcode, 126)) + n.to_bytes(2, "big") + payload
    return bytes((0x80 | opcode, 127)) + n.to_bytes(8, "big") + payload


def close_frame(code: int, reason: str) -> bytes:
    """A close frame with ``code`` and ``reason`` (cut to fit a control frame)."""
    said = reason.encode()[:123]
    return frame(code.to_bytes(2, "big") + said.decode(errors="ignore").encode(), CLOSE)


def unmask(data: bytes, mask: bytes) -> bytes:
    """``data`` XORed with the repeated 4-byte ``mask``, as one big-integer XOR
    (a loop over the bytes in Python costs about a microsecond per 10 bytes)."""
    n = len(data)
    if not n:
        return data
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(n, "little")


class FrameReader:
    """The frames a client sends, read into whole messages.

    :meth:`feed` takes the bytes as they arrive and returns each message now
    complete, as ``(opcode, payload)``: a data message (``TEXT`` or ``BINARY``,
    its frames joined), or a control frame (``CLOSE``, ``PING``, ``PONG``),
    which may come between a message's frames. It raises :class:`FrameError` at
    the first frame that breaks a rule (see the module docstring); nothing after
    it is read."""

    __slots__ = ("_buffer", "_kind", "_parts", "_size", "max_size")

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._buffer = b""
        #: The opcode and parts of a message whose last frame has not come yet.
        self._kind = 0
        self._parts: list[bytes] = []
        self._size = 0

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        buf = self._buffer + data if self._buffer else data
        out: list[tuple[int, bytes]] = []
        at = 0
        end = len(buf)
        while end - at >= 2:
            b0, b1 = buf[at], buf[at + 1]
            if b0 & 0x70:
                raise FrameError(PROTOCOL_ERROR, "reserved bits set: no extension was agreed")
            if not b1 & 0x80:
                raise FrameError(PROTOCOL_ERROR, "a client's frames must be masked")
            fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            head = 6
            if n == 126:
                if end - at < 4:
                    break
                n = int.from_bytes(buf[at + 2 : at + 4], "big")
                head = 8
            elif n == 127:
                if end - at < 10:
                    break
                n = int.from_bytes(buf[at + 2 : at + 10], "big")
                head = 14
            self._check(fin, opcode, n)
            if end - at < head + n:
                break
            payload = unmask(buf[at + head : at + head + n], buf[at + head - 4 : at + head])
            at += head + n
            if opcode >= CLOSE:
                out.append((opcode, payload))
                continue
            if opcode != CONTINUATION:
                self._kind = opcode
            self._parts.append(payload)
            self._size += n
            if fin:
                message = self._parts[0] if len(self._parts) == 1 else b"".join(self._parts)
                out.append((self._kind, message))
                self._kind, self._parts, self._size = 0, [], 0
        self._buffer = buf[at:] if at < end else b""
        return out

    def _check(self, fin: int, opcode: int, n: int) -> None:
        """Refuse a frame by its head alone: before its payload is waited for."""
        if opcode >= CLOSE:
            if opcode not in (CLOSE, PING, PONG):
                raise FrameError(PROTOCOL_ERROR, f"unknown control frame (opcode {opcode})")
            if not fin or n > 125:
                raise FrameError(PROTOCOL_ERROR, "a control frame must be whole and short")
            return
        if opcode == CONTINUATION:
            if not self._parts:
                raise FrameError(PROTOCOL_ERROR, "a continuation frame with no message begun")
        elif opcode in (TEXT, BINARY):
            if self._parts:
                raise FrameError(PROTOCOL_ERROR, "a new message began before the last ended")
        else:
            raise FrameError(PROTOCOL_ERROR, f"unknown data frame (opcode {opcode})")
        if self._size + n > self.max_size:
            raise FrameError(TOO_BIG, f"a message is larger than {self.max_size} bytes")
