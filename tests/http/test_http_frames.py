"""The seat socket's framing (gameweave_http.frames): a client's masked frames read
back into its messages however they are split, and every frame breaking a rule
refused with its close code before its payload is waited for."""

from __future__ import annotations

import base64
import hashlib
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameweave_http.frames import (
    BINARY,
    CLOSE,
    CONTINUATION,
    PING,
    PONG,
    PROTOCOL_ERROR,
    TEXT,
    TOO_BIG,
    FrameError,
    FrameReader,
    accept_key,
    close_frame,
    frame,
    unmask,
    valid_key,
)


def client_frame(
    payload: bytes, opcode: int, fin: bool = True, mask: bytes = b"\x01\x02\x03\x04"
) -> bytes:
    """A frame as a client sends it (masked), built the long way: byte by byte."""
    n = len(payload)
    head = bytes((0x80 * fin | opcode,))
    if n < 126:
        head += bytes((0x80 | n,))
    elif n < 65536:
        head += bytes((0x80 | 126,)) + n.to_bytes(2, "big")
    else:
        head += bytes((0x80 | 127,)) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_the_accept_key_is_rfc_6455s_example() -> None:
    # RFC 6455 section 1.3: this key is answered with this accept value.
    assert accept_key(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert accept_key(b"x") == base64.b64encode(
        hashlib.sha1(b"x258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
    )
    assert valid_key(base64.b64encode(os.urandom(16)))
    assert not valid_key(base64.b64encode(os.urandom(15)))
    assert not valid_key(b"not base64!")
    assert not valid_key(b"")


@given(st.binary(max_size=70_000))
def test_a_servers_frame_has_the_length_in_the_shortest_form(payload: bytes) -> None:
    out = frame(payload)
    assert out[0] == 0x80 | TEXT
    n = len(payload)
    head = 2 if n < 126 else 4 if n < 65536 else 10
    assert out[head:] == payload and len(out) == head + n
    assert out[1] & 0x80 == 0  # a server never masks


@given(st.binary(max_size=300), st.binary(min_size=4, max_size=4))
def test_unmask_is_the_xor_of_the_repeated_mask(data: bytes, mask: bytes) -> None:
    assert unmask(data, mask) == bytes(b ^ mask[i % 4] for i, b in enumerate(data))


messages = st.lists(
    st.tuples(st.sampled_from([TEXT, BINARY]), st.binary(max_size=400), st.integers(1, 4)),
    max_size=6,
)


@given(messages, st.lists(st.integers(1, 50), min_size=1), st.binary(min_size=4, max_size=4))
def test_messages_read_back_however_framed_and_split(
    sent: list[tuple[int, bytes, int]], cuts: list[int], mask: bytes
) -> None:
    """Each message split into ``parts`` frames, with a ping between its frames,
    the whole stream fed in chunks of the sizes ``cuts`` cycles through."""
    wire = b""
    expected: list[tuple[int, bytes]] = []
    for opcode, payload, parts in sent:
        size = -(-len(payload) // parts) or 1
        pieces = [payload[i : i + size] for i in range(0, len(payload), size)] or [b""]
        for i, piece in enumerate(pieces):
            wire += client_frame(
                piece, opcode if i == 0 else CONTINUATION, i == len(pieces) - 1, mask
            )
            if i == 0 and len(pieces) > 1:
                wire += client_frame(b"hi", PING, True, mask)
                expected.append((PING, b"hi"))
        expected.append((opcode, payload))
    reader = FrameReader(max_size=1000)
    got: list[tuple[int, bytes]] = []
    at, k = 0, 0
    while at < len(wire):
        step = cuts[k % len(cuts)]
        got += reader.feed(wire[at : at + step])
        at, k = at + step, k + 1
    assert got == expected


def refused(data: bytes, max_size: int = 100) -> FrameError:
    with pytest.raises(FrameError) as caught:
        FrameReader(max_size).feed(data)
    return caught.value


def test_frames_breaking_the_rules_are_refused_with_their_code() -> None:
    unmasked = bytes((0x81, 2)) + b"hi"
    assert refused(unmasked).code == PROTOCOL_ERROR
    rsv = bytearray(client_frame(b"hi", TEXT))
    rsv[0] |= 0x40  # a compressed frame: no extension was agreed
    assert "reserved" in refused(bytes(rsv)).reason
    assert refused(client_frame(b"x" * 126, PING)).code == PROTOCOL_ERROR  # control too long
    assert refused(client_frame(b"hi", PONG, fin=False)).code == PROTOCOL_ERROR
    assert refused(client_frame(b"hi", CONTINUATION)).code == PROTOCOL_ERROR  # nothing begun
    begun = client_frame(b"a", TEXT, fin=False)
    assert "before the last ended" in refused(begun + client_frame(b"b", TEXT)).reason
    assert refused(client_frame(b"hi", 0x3)).code == PROTOCOL_ERROR  # reserved data opcode
    assert refused(client_frame(b"hi", 0xB)).code == PROTOCOL_ERROR  # reserved control opcode


def test_an_oversized_message_is_refused_from_its_head_alone() -> None:
    # A head announcing 2**40 bytes, none of them sent: refused at once.
    head = bytes((0x81, 0x80 | 127)) + (1 << 40).to_bytes(8, "big") + b"mask"
    error = refused(head, max_size=1 << 20)
    assert error.code == TOO_BIG and str(1 << 20) in error.reason
    # The limit holds across a message's frames too.
    first = client_frame(b"x" * 60, TEXT, fin=False)
    assert refused(first + client_frame(b"x" * 60, CONTINUATION)).code == TOO_BIG
    assert FrameReader(120).feed(first + client_frame(b"x" * 60, CONTINUATION)) == [
        (TEXT, b"x" * 120)
    ]


def test_a_close_frame_carries_its_code_and_a_short_reason() -> None:
    out = close_frame(4001, "é" * 100)  # 200 bytes of reason: cut whole characters
    assert out[0] == 0x80 | CLOSE and out[1] <= 125
    body = out[2:]
    assert int.from_bytes(body[:2], "big") == 4001
    assert body[2:].decode() == "é" * 61
