"""Seats never lost, on a phone: the lobby keeps the matches created in this
browser (localStorage) and shows their links again after a reload, a seat's page
shows its own link, and "New link" reissues a seat's link (the old token is
refused at once, the new one plays). Also the lobby's seat names, and the
before/after screenshots of the Museum Thief's page on a phone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    shifted,
    wait_for_version,
)
from gameweave_museum import plugin as museum_plugin

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def server(serve_title: Any) -> LoopbackServer:
    server: LoopbackServer = serve_title(museum_plugin, "museum")
    return server


def create_in_lobby(lobby: Any, players: int) -> None:
    # Development mode: the match's seed is chosen, the same game on every run.
    lobby.wait_for_selector("body[data-dev='true']", state="attached")
    lobby.tap("#dev-options summary")
    lobby.fill("#seed", str(shifted(12)))
    lobby.select_option("#title-select", "museum")
    lobby.fill("#players", str(players))
    lobby.dispatch_event("#players", "input")
    lobby.tap("#create-button")
    lobby.wait_for_selector(".seat-link[data-seat='2']")


def test_the_lobby_names_seats_by_role_not_as_a_second_player(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    lobby = seat_pages.page(seat_pages.new_context(**PHONE), server.url + "/")
    lobby.select_option("#title-select", "museum")
    lobby.fill("#players", "2")
    lobby.dispatch_event("#players", "input")
    # Before the match exists: the roles, not "Seat 1", "Seat 2".
    names = lobby.locator("#seats .seat-name").all_inner_texts()
    assert names == ["Thief seat 1", "Security seat 2"], names
    assert lobby.inner_text(".seat-row[data-seat='2'] .seat-role") == "Security"
    create_in_lobby(lobby, 2)
    # After: the seat's side and its number, never "Security 2" as if a second player.
    assert lobby.inner_text(".seat-link[data-seat='2'] .link-label") == "Security seat 2"
    assert "Security 2" not in lobby.inner_text("#links")
    assert seat_pages.errors == []


def test_links_survive_a_reload_and_a_lost_link_is_reissued(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    context = seat_pages.new_context(**PHONE)
    lobby = seat_pages.page(context, server.url + "/")
    create_in_lobby(lobby, 2)
    thief_url = lobby.input_value(".seat-link[data-seat='1'] .link-url")
    security_url = lobby.input_value(".seat-link[data-seat='2'] .link-url")
    match_id = thief_url.split("/play/")[1].split("#")[0]

    # Kept in this browser, in the agreed shape.
    stored = json.loads(lobby.evaluate("localStorage.getItem('gameweave.matches')"))
    (entry,) = stored
    assert set(entry) == {"id", "title", "created", "host_token", "seats"}
    assert entry["id"] == match_id and entry["title"] == "museum" and entry["host_token"]
    assert entry["seats"] == [
        {"seat": 1, "label": "Thief", "url": thief_url},
        {"seat": 2, "label": "Security 2", "url": security_url},
    ]

    # A reload shows them again (the Links card of the new match is gone).
    lobby.reload()
    kept = f"#mine .kept-match[data-match='{match_id}']"
    lobby.wait_for_selector(kept)
    assert lobby.locator("#links").is_hidden()
    assert lobby.input_value(f"{kept} .kept-seat[data-seat='1'] .link-url") == thief_url
    assert lobby.input_value(f"{kept} .kept-seat[data-seat='2'] .link-url") == security_url
    lobby.wait_for_selector(f"{kept} .kept-status:has-text('step 0')")

    # Each seat's page shows its own link, to copy.
    old_page = seat_pages.page(context)
    old_page.goto(security_url)
    old_page.wait_for_selector(".mj-map")
    old_page.tap("#seat-link summary")
    assert old_page.input_value("#seat-link .link-url") == security_url
    spectator = seat_pages.page(context)
    spectator.goto(f"{server.url}/play/{match_id}")
    spectator.wait_for_selector(".mj-map")
    assert spectator.locator("#seat-link").is_hidden()  # a spectator has no seat to keep

    # Security's link was lost: the lobby gives the seat a new one (on a phone, a
    # second tap confirms it).
    lobby.tap(f"{kept} .kept-seat[data-seat='2'] .new-link")
    lobby.tap(f"{kept} .kept-seat[data-seat='2'] .new-link")
    lobby.wait_for_selector(f"{kept} .kept-seat[data-seat='2'] .copied:has-text('new link made')")
    new_url = lobby.input_value(f"{kept} .kept-seat[data-seat='2'] .link-url")
    assert new_url != security_url and new_url.startswith(f"{server.url}/play/{match_id}#token=")
    old_token = security_url.split("#token=")[1]
    new_token = new_url.split("#token=")[1]
    api = f"{server.url}/api/matches/{match_id}"
    assert httpx.get(api, headers={"X-Seat-Token": old_token}).status_code == 403
    assert httpx.get(api, headers={"X-Seat-Token": new_token}).json()["seat"] == 2
    # The old page can no longer open the seat, and says so; the new link plays it.
    old_page.reload()
    old_page.wait_for_selector("#banner[data-revoked]")
    assert "Cannot open this match" in old_page.inner_text("#title")
    new_page = seat_pages.page(context)
    new_page.goto(new_url)
    new_page.wait_for_selector("#banner.yours")
    new_page.locator(".mj-square.target").first.tap()
    new_page.wait_for_selector(".mj-option")
    assert new_page.locator(".mj-option").first.inner_text().startswith("Post guard")
    new_page.locator(".mj-option").first.tap()
    wait_for_version(new_page, 1)
    # The kept link is the new one, after a reload too.
    lobby.reload()
    lobby.wait_for_selector(kept)
    assert lobby.input_value(f"{kept} .kept-seat[data-seat='2'] .link-url") == new_url
    assert lobby.input_value(f"{kept} .kept-seat[data-seat='1'] .link-url") == thief_url
    # Forget lets the match go from this browser.
    lobby.tap(f"{kept} .forget")
    assert lobby.locator(kept).count() == 0
    assert json.loads(lobby.evaluate("localStorage.getItem('gameweave.matches')")) == []
    assert seat_pages.errors == []


def test_screenshot_of_the_museum_thief_on_a_phone(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    """The Thief's page on a phone (as the "before" picture was taken), then with the
    legend and the rules open: test-output/screenshots/museum-thief-browser-phone-*."""
    created = create_match(server, "museum", 2, seed=12, bots=[2])
    page = seat_pages.page(seat_pages.new_context(**PHONE, device_scale_factor=2))
    page.goto(created["seats"][0]["url"])
    page.wait_for_selector("#banner.yours")
    page.wait_for_selector("body[data-rules='ready']", state="attached")
    page.screenshot(path=str(shots / "museum-thief-browser-phone-after.png"), full_page=True)
    page.tap(".mj-legend summary")
    page.wait_for_selector(".mj-legend-squares")
    page.screenshot(path=str(shots / "museum-thief-browser-phone-after-legend.png"))
    page.tap("#rules-button")
    page.wait_for_selector(".rules-body")
    page.screenshot(path=str(shots / "museum-thief-browser-phone-after-rules.png"))
    assert seat_pages.errors == []
