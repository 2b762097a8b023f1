"""The play page over the seat socket, in Debian's headless Chromium: its moves go
over the socket (no POST), a refused one shows what the POST path shows, a
reissued link closes it (4001) into the page's revoked state, a dropped socket
reconnects and catches up, and a server (or proxy) without the socket leaves the
page on the event stream with its moves posted.

Every match is Sealed Bids (both seats bid at once), created with a seed through a
development-mode server served as ``gameweave serve`` serves it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.testing import (
    PATIENCE_MS,
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    wait_for_version,
)

pytestmark = pytest.mark.browser

#: What a page without a WebSocket constructor is (an old browser): it keeps live
#: over the event stream and posts its moves.
NO_WEBSOCKET = "delete window.WebSocket"
CONNECTED = "live updates: connected"


@pytest.fixture
def server(
    tmp_path: Path, sealed_registry: Registry, loopback_servers: Callable[..., LoopbackServer]
) -> LoopbackServer:
    return loopback_servers(create_app(tmp_path / "socket.sqlite3", sealed_registry, dev=True))


class Wire:
    """What one page puts on the wire: the frames of its seat sockets (both ways)
    and its HTTP requests, as ``"METHOD path"`` (and `` as a seat`` when they carry
    a seat's token). Playwright reports them as it hears of them, during the test's
    next calls into the page."""

    def __init__(self, page: Any) -> None:
        self.sockets: list[Any] = []
        self.sent: list[Any] = []
        self.received: list[Any] = []
        self.requests: list[str] = []
        page.on("websocket", self._socket)
        page.on("request", self._request)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on("framesent", lambda frame: self.sent.append(json.loads(frame)))
        socket.on("framereceived", lambda frame: self.received.append(json.loads(frame)))

    def _request(self, request: Any) -> None:
        seated = " as a seat" if "x-seat-token" in request.headers else ""
        self.requests.append(f"{request.method} {httpx.URL(request.url).path}{seated}")

    def posted_moves(self) -> list[str]:
        return [r for r in self.requests if "/actions" in r]

    def streams(self) -> list[str]:
        return [r for r in self.requests if "/events" in r]


def seat_url(made: dict[str, Any], seat: int) -> str:
    return str(next(s["url"] for s in made["seats"] if s["seat"] == seat))


def seat_token(made: dict[str, Any], seat: int) -> str:
    return str(next(s["token"] for s in made["seats"] if s["seat"] == seat))


def open_live(
    seat_pages: SeatPages, url: str, *, init_script: str | None = None
) -> tuple[Any, Wire]:
    """A page at ``url`` with its wire watched from the start, once it is live."""
    page = seat_pages.open()
    wire = Wire(page)
    if init_script:
        page.add_init_script(init_script)
    page.goto(url)
    page.wait_for_selector("#live.on")
    page_version(page)
    return page, wire


def post(
    server: LoopbackServer, made: dict[str, Any], seat: int, version: int, action: Any
) -> httpx.Response:
    """``POST .../actions`` for ``seat``, as the page's fallback path makes it."""
    return httpx.post(
        f"{server.url}/api/matches/{made['id']}/actions",
        headers={"X-Seat-Token": seat_token(made, seat)},
        json={"version": version, "action": action},
        timeout=PATIENCE_MS / 1000,
    )


def send_json_action(page: Any, action: Any) -> None:
    """Send ``action`` through the generic renderer's JSON form."""
    if page.locator(".action-json").is_hidden():
        page.click("text=Send an action as JSON")
    page.fill(".action-json", json.dumps(action))
    page.click(".json-form button")


def test_a_move_goes_over_the_socket_and_reaches_the_other_seat(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    made = create_match(server, "sealedbid", 2, seed=21)
    one, wire = open_live(seat_pages, seat_url(made, 1))
    two, _ = open_live(seat_pages, seat_url(made, 2))
    before = page_version(one)
    assert one.get_attribute("#live", "title") == CONNECTED

    one.click("button.action:text-is('bid 5')")
    assert wait_for_version(one, before + 1) == before + 1
    assert wire.sent == [{"version": before, "action": {"type": "bid", "coins": 5}}]
    assert wire.posted_moves() == [] and wire.streams() == []
    assert len(wire.sockets) == 1
    # The page's first frame was the payload it opened on; then the payload the move
    # made, and the move's answer.
    assert wire.received == [wire.received[0], wire.received[1], {"ok": True}]
    assert [f["version"] for f in wire.received[:2]] == [before, before + 1]
    assert one.is_hidden("#error")
    assert "You bid 5" in one.inner_text(".history")

    # Seat 2's page hears of it over its own socket, without a reload, and its
    # move goes the same way; both pages show the bids revealed.
    wait_for_version(two, before + 1)
    assert "Seat 1 seals a bid" in two.inner_text(".history")
    assert "bid 5" not in two.inner_text(".history")
    two.click("button.action:text-is('bid 2')")
    for page in (one, two):
        page.wait_for_selector(".history li:has-text('Bids revealed')")
    assert seat_pages.errors == []


def test_a_refused_move_says_what_the_post_path_says(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """An illegal move and a stale one, each made by a page over the socket and by
    a page without WebSocket (which posts): the same words, nothing moved."""
    made = create_match(server, "sealedbid", 2, seed=22)
    url = seat_url(made, 1)
    over_socket, socket_wire = open_live(seat_pages, url)
    posting, post_wire = open_live(seat_pages, url, init_script=NO_WEBSOCKET)
    before = page_version(over_socket)
    assert post_wire.sockets == [] and post_wire.streams()  # the fallback: the event stream

    illegal = {"type": "bid", "coins": 99}
    for page in (over_socket, posting):
        send_json_action(page, illegal)
        page.wait_for_selector("#error:not([hidden])")
    said = over_socket.inner_text("#error")
    assert "cannot bid 99" in said
    assert said == posting.inner_text("#error")
    assert said == post(server, made, 1, before, illegal).json()["error"]
    assert socket_wire.sent == [{"version": before, "action": illegal}]
    assert socket_wire.posted_moves() == []
    assert len(post_wire.posted_moves()) == 1
    for page in (over_socket, posting):
        assert page_version(page) == before
    assert seat_pages.errors == []


def test_a_stale_move_over_the_socket_says_what_the_post_path_says(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Two tabs of seat 1 that heard nothing since they opened: one's socket passes
    on only its first payload and the answers to its moves, the other has no
    WebSocket and its event stream is cut. The seat bids elsewhere; each then bids
    on the old position, is refused as stale, and reads the match afresh."""
    made = create_match(server, "sealedbid", 2, seed=23)
    url = seat_url(made, 1)

    deaf = seat_pages.open()
    moves: list[Any] = []

    def first_payload_and_errors(page_side: Any) -> None:
        server_side = page_side.connect_to_server()
        heard: list[Any] = []

        def to_page(message: Any) -> None:
            frame = json.loads(message)
            if "ok" in frame or not heard:
                page_side.send(message)
            heard.append(frame)

        def to_server(message: Any) -> None:
            moves.append(json.loads(message))
            server_side.send(message)

        server_side.on_message(to_page)
        page_side.on_message(to_server)

    deaf.route_web_socket("**/socket*", first_payload_and_errors)
    deaf_wire = Wire(deaf)
    deaf.goto(url)
    deaf.wait_for_selector("#live.on")
    cut = seat_pages.open()
    cut.add_init_script(NO_WEBSOCKET)
    cut.route("**/events*", lambda route: route.abort())
    cut.goto(url)
    before = page_version(deaf)
    assert page_version(cut) == before

    assert post(server, made, 1, before, {"type": "bid", "coins": 1}).status_code == 200
    for page in (deaf, cut):
        page.click("button.action:text-is('bid 0')")
        page.wait_for_selector("#error:not([hidden])")
        # It read the match again after the refusal: seat 1 has bid, so no buttons.
        wait_for_version(page, before + 1)
        assert page.locator("button.action").count() == 0
    said = deaf.inner_text("#error")
    assert said.startswith("stale submission")
    assert said == cut.inner_text("#error")
    assert moves == [{"version": before, "action": {"type": "bid", "coins": 0}}]
    assert deaf_wire.posted_moves() == [] and deaf_wire.streams() == []
    assert seat_pages.errors == []


def test_a_reissued_link_closes_the_open_page_s_socket_into_the_revoked_state(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    made = create_match(server, "sealedbid", 2, seed=24)
    page, wire = open_live(seat_pages, seat_url(made, 2))
    page.wait_for_selector("#banner.yours")
    reissued = httpx.post(
        f"{server.url}/api/matches/{made['id']}/seats/2/token",
        headers={"X-Host-Token": made["host_token"]},
        json={},
        timeout=PATIENCE_MS / 1000,
    )
    assert reissued.status_code == 200, reissued.text
    page.wait_for_selector("#banner[data-revoked='replaced']")  # with no action taken
    assert "This link no longer opens Seat 2" in page.inner_text("#banner")
    assert (
        page.get_attribute("#live", "title") == "no live updates: this link no longer opens a seat"
    )
    assert page.locator("button.action:not([disabled])").count() == 0
    # The socket said it (4001): the page neither fell back to the event stream
    # nor asked the server why (its one read as the seat is the first, before the socket).
    (socket,) = wire.sockets
    expect_closed(socket)
    assert wire.streams() == []
    assert [r for r in wire.requests if r.endswith(" as a seat")] == [
        f"GET /api/matches/{made['id']} as a seat"
    ]
    assert seat_pages.errors == []


def expect_closed(socket: Any) -> None:
    if not socket.is_closed():
        socket.wait_for_event("close")


def test_a_dropped_socket_reconnects_and_catches_up(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """The socket closes under the page (1001: the server stopping); the page says
    it lost touch, posts nothing, and opens another 2 s later, whose first payload
    brings it the move seat 2 made meanwhile. Its next move goes over the new one."""
    made = create_match(server, "sealedbid", 2, seed=25)
    page = seat_pages.open()
    wire = Wire(page)
    routes: list[Any] = []
    sent: list[Any] = []

    def through(page_side: Any) -> None:
        routes.append(page_side)
        if len(routes) == 2:
            # While the page was away, seat 2 bid.
            now = httpx.get(f"{server.url}/api/matches/{made['id']}").json()["version"]
            assert post(server, made, 2, now, {"type": "bid", "coins": 3}).status_code == 200
        server_side = page_side.connect_to_server()

        def to_server(message: Any) -> None:
            sent.append(json.loads(message))
            server_side.send(message)

        page_side.on_message(to_server)

    page.route_web_socket("**/socket*", through)
    page.goto(seat_url(made, 1))
    page.wait_for_selector("#live.on")
    before = page_version(page)

    routes[0].close(code=1001, reason="the server is stopping")
    page.wait_for_selector("#connection:not([hidden])")
    assert "reconnecting" in page.inner_text("#live")
    assert wait_for_version(page, before + 1) == before + 1
    page.wait_for_selector("#live.on")
    assert page.is_hidden("#connection")
    assert len(routes) == 2
    assert "Seat 2 seals a bid" in page.inner_text(".history")

    page.click("button.action:text-is('bid 4')")
    page.wait_for_selector(".history li:has-text('Bids revealed')")
    assert sent == [{"version": before + 1, "action": {"type": "bid", "coins": 4}}]
    assert wire.posted_moves() == [] and wire.streams() == []
    assert seat_pages.errors == []


def test_a_move_cut_off_with_its_socket_says_so_and_can_be_made_again(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """The socket closes after the page sent a move and before any answer (the move
    never reached the server): the page says it lost touch before the answer,
    reconnects, and the same move made again is played."""
    made = create_match(server, "sealedbid", 2, seed=27)
    page = seat_pages.open()
    wire = Wire(page)
    routes: list[Any] = []
    lost: list[Any] = []

    def cut_first_move(page_side: Any) -> None:
        routes.append(page_side)
        server_side = page_side.connect_to_server()
        if len(routes) == 1:

            def dropped(message: Any) -> None:
                lost.append(json.loads(message))
                page_side.close(code=1001, reason="the server is stopping")

            page_side.on_message(dropped)
        else:
            page_side.on_message(server_side.send)

    page.route_web_socket("**/socket*", cut_first_move)
    page.goto(seat_url(made, 1))
    page.wait_for_selector("#live.on")
    before = page_version(page)

    page.click("button.action:text-is('bid 5')")
    page.wait_for_selector(
        "#error:has-text('lost touch with the server before it answered the move')"
    )
    page.wait_for_selector("#live.on")  # back, over a new socket
    assert len(routes) == 2
    assert page_version(page) == before  # the move was not made
    page.click("button.action:text-is('bid 5')")
    wait_for_version(page, before + 1)
    assert page.is_hidden("#error")
    assert lost == [{"version": before, "action": {"type": "bid", "coins": 5}}]
    assert wire.posted_moves() == []
    assert seat_pages.errors == []


def without_socket(app: Any) -> Any:
    """``app`` behind something that answers the seat socket's address 404, as a
    server before the socket or a proxy that passes no WebSocket would."""

    async def refusing(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].endswith("/socket"):
            body = b'{"error": "not found"}'
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ]
            await send({"type": "http.response.start", "status": 404, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1000})
            return
        await app(scope, receive, send)

    return refusing


def test_without_the_socket_the_page_keeps_live_over_the_event_stream(
    tmp_path: Path,
    sealed_registry: Registry,
    loopback_servers: Callable[..., LoopbackServer],
    seat_pages: SeatPages,
) -> None:
    server = loopback_servers(
        without_socket(create_app(tmp_path / "nosocket.sqlite3", sealed_registry, dev=True))
    )
    made = create_match(server, "sealedbid", 2, seed=26)
    one, wire = open_live(seat_pages, seat_url(made, 1))
    two, _ = open_live(seat_pages, seat_url(made, 2))
    before = page_version(one)
    assert len(wire.sockets) == 1 and len(wire.streams()) == 1  # tried, then fell back
    one.click("button.action:text-is('bid 5')")
    wait_for_version(one, before + 1)
    wait_for_version(two, before + 1)
    assert len(wire.posted_moves()) == 1 and wire.sent == []
    assert one.get_attribute("#live", "title") == CONNECTED
    assert seat_pages.errors == []
