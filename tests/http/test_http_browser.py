"""The browser client in Debian's headless Chromium: the lobby, seat pages kept
live by server-sent events, the generic renderer, a title's own renderer, and the
replay page. Screenshots go to test-output/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.testing import LoopbackServer, SeatPages, create_match, shifted

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path, loopback_servers: Any) -> LoopbackServer:
    from webfixture.title import RenderedBids

    from gameweave_sealedbid import plugin

    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    reg.add_title(RenderedBids(), "tests", "1")
    server: LoopbackServer = loopback_servers(
        create_app(tmp_path / "browser.sqlite3", reg, dev=True)
    )
    return server


def page(seat_pages: SeatPages) -> Any:
    return seat_pages.open(width=1100, height=800)


def test_lobby_seat_pages_and_replay_with_sealed_bids(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    lobby = seat_pages.open(
        server.url + "/", width=1280, height=720, permissions=["clipboard-read", "clipboard-write"]
    )
    # The server is in development mode: the lobby takes the match's seed.
    lobby.wait_for_selector("body[data-dev='true']", state="attached")
    lobby.click("#dev-options summary")
    lobby.fill("#seed", str(shifted(4242)))
    lobby.select_option("#title-select", "sealedbid")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    lobby.check(".seat-row[data-seat='3'] .bot-check")
    lobby.select_option(".seat-row[data-seat='3'] .bot-name", "thrifty")
    lobby.click("#create-button")
    lobby.wait_for_selector(".seat-link[data-seat='2']")
    assert "thrifty" in lobby.inner_text(".bot-seat[data-seat='3']")
    lobby.screenshot(path=str(shots / "sealedbid-lobby.png"), full_page=True)
    url1 = lobby.input_value(".seat-link[data-seat='1'] .link-url")
    url2 = lobby.input_value(".seat-link[data-seat='2'] .link-url")
    spectator_url = lobby.input_value(".spectator-link .link-url")
    assert "#token=" in url1 and "#token=" in url2 and "#" not in spectator_url
    lobby.click(".seat-link[data-seat='2'] .copy")
    lobby.wait_for_selector(".seat-link[data-seat='2'] .copied:text('copied')")
    assert lobby.evaluate("navigator.clipboard.readText()") == url2

    one, two, watcher = page(seat_pages), page(seat_pages), page(seat_pages)
    one.goto(url1)
    two.goto(url2)
    watcher.goto(spectator_url)
    for p in (one, two, watcher):
        p.wait_for_selector(".generic .view")
        assert p.get_attribute("body", "data-renderer") == "generic"
    assert one.inner_text("#whoami") == "Bidder 1" and watcher.inner_text("#whoami") == "Spectator"
    assert watcher.locator("button.action").count() == 0
    assert one.inner_text("#banner") == "Your turn"

    # An illegal action typed as JSON: the API's one-line reason is shown, nothing moves.
    one.click("text=Send an action as JSON")
    one.fill(".action-json", '{"type": "bid", "coins": 99}')
    one.click(".json-form button")
    one.wait_for_selector("#error:not([hidden])")
    assert "cannot bid 99" in one.inner_text("#error")
    assert one.get_attribute("body", "data-version") == "1"

    one.click("button.action:text-is('bid 5')")
    one.wait_for_selector("body[data-version='2']")
    assert one.is_hidden("#error")
    # Seat 2's page learns of it through its event stream, without a reload.
    two.wait_for_selector("body[data-version='2']")
    watcher.wait_for_selector("body[data-version='2']")
    assert "Seat 1 seals a bid" in two.inner_text(".history")
    for p in (two, watcher):
        assert "bid 5" not in p.inner_text(".history")
        assert "my bid" not in p.inner_text(".view")
    assert "You bid 5" in one.inner_text(".history")
    two.click("button.action:text-is('bid 2')")
    for p in (one, two, watcher):
        p.wait_for_selector(".history li:has-text('Bids revealed')")
    one.screenshot(path=str(shots / "sealedbid-seat1.png"), full_page=True)
    watcher.screenshot(path=str(shots / "sealedbid-spectator.png"), full_page=True)

    # A stale page: seat 1's second tab acts after the first tab already did.
    stale = page(seat_pages)
    stale.add_init_script("delete window.WebSocket")  # no seat socket: the event stream alone
    stale.route("**/events*", lambda route: route.abort())  # no live updates: it goes stale
    stale.goto(url1)
    stale.wait_for_selector("body[data-version='4']")
    one.click("button.action:text-is('bid 1')")
    one.wait_for_selector("body[data-version='5']")
    stale.click("button.action:text-is('bid 0')")
    stale.wait_for_selector("#error:not([hidden])")
    assert "stale submission" in stale.inner_text("#error")
    stale.wait_for_selector("body[data-version='5']")  # it re-read the match after the 409
    assert stale.locator("button.action").count() == 0

    # Play out the rest through the API, then replay the finished match in the page.
    match_id = url1.split("/play/")[1].split("#")[0]
    tokens = {1: url1.split("#token=")[1], 2: url2.split("#token=")[1]}
    with httpx.Client(base_url=server.url) as http:
        while True:
            p = http.get(f"/api/matches/{match_id}").json()
            if "outcome" in p:
                break
            seat = p["awaiting"][0]
            r = http.post(
                f"/api/matches/{match_id}/actions",
                headers={"X-Seat-Token": tokens[seat]},
                json={"version": p["version"], "action": {"type": "bid", "coins": 0}},
            )
            assert r.status_code == 200
    one.wait_for_selector("#banner.over")
    assert one.locator("a:text('Replay it')").count() == 1
    replay = page(seat_pages)
    replay.goto(f"{server.url}/replay?match={match_id}")
    replay.wait_for_selector("body[data-step='15']")
    assert "Over:" in replay.inner_text("#banner")
    replay.fill("#slider", "2")
    replay.dispatch_event("#slider", "input")
    replay.wait_for_selector("body[data-step='2']")
    assert "You bid" not in replay.inner_text(".history")  # a spectator's view
    replay.select_option("#seat", "1")
    replay.wait_for_selector(".history li:has-text('You bid 5')")
    replay.screenshot(path=str(shots / "sealedbid-replay.png"), full_page=True)
    assert seat_pages.errors == []


def test_a_titles_own_renderer_draws_its_pages(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    created = create_match(server, "renderedbids", 2, seed=5)
    seat = page(seat_pages)
    seat.goto(created["seats"][0]["url"])
    seat.wait_for_selector("h2.custom-renderer")
    assert seat.get_attribute("body", "data-renderer") == "renderedbids"
    assert seat.inner_text("h2.custom-renderer").startswith("Bidder 1 — lot worth")
    seat.click("button.custom-bid:text-is('bid 2')")
    seat.wait_for_selector("body[data-version='1']")
    seat.screenshot(path=str(shots / "renderedbids-seat1.png"), full_page=True)
    assert seat_pages.errors == []


def test_bad_links_show_the_apis_message(server: LoopbackServer, seat_pages: SeatPages) -> None:
    p = page(seat_pages)
    p.goto(server.url + "/play/nope")
    p.wait_for_selector("#error:not([hidden])")
    assert "no match with id 'nope'" in p.inner_text("#error")
    created = create_match(server, "sealedbid", 2, seed=5)
    p.goto(f"{server.url}/play/{created['id']}#token=forged")
    p.wait_for_selector("#error:not([hidden])")
    assert "belongs to no seat" in p.inner_text("#error")
    assert seat_pages.errors == []


@pytest.mark.parametrize("dev", [False, True], ids=["production", "dev"])
@pytest.mark.usefixtures("fresh_seeds")  # without development mode, the server seeds it
def test_the_lobby_offers_a_seed_only_in_development_mode(
    loopback_servers: Any,
    seat_pages: SeatPages,
    tmp_path: Path,
    sealed_registry: Registry,
    dev: bool,
) -> None:
    app: Any = create_app(tmp_path / "lobby.sqlite3", sealed_registry, dev=dev)
    s = loopback_servers(app)
    lobby = page(seat_pages)
    lobby.goto(s.url + "/")
    # The lobby marks the page once it has asked the server its mode.
    lobby.wait_for_selector(f"body[data-dev='{str(dev).lower()}']", state="attached")
    assert lobby.locator("#dev-options").is_visible() is dev
    if dev:
        lobby.click("#dev-options summary")
        lobby.fill("#seed", "4242")
    lobby.click("#create-button")
    lobby.wait_for_selector(".seat-link[data-seat='1']")
    (summary,) = httpx.get(s.url + "/api/matches").json()
    stored = app.state.store.load(summary["id"])
    assert (stored.seed == 4242) is dev
    assert seat_pages.errors == []
