"""The Museum Job in the browser: a match created from the lobby, played by the
Thief and by Security in two pages. The Security page never draws the Thief.
Screenshots go to test-output/screenshots/ at the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    shifted,
    wait_for_version,
)
from gameweave_museum import plugin

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture
def server(serve_title: Any) -> LoopbackServer:
    server: LoopbackServer = serve_title(plugin, "museum")
    return server


def new_page(seat_pages: SeatPages, width: int = 1280) -> Any:
    return seat_pages.open(width=width, height=900)


version = page_version


def act_on_map(page: Any, choose: str = "") -> str:
    """Click the first outlined square and pick an option (the first, or the first
    whose label contains ``choose``); return the option's label."""
    before = version(page)
    page.locator(".mj-square.target").first.click()
    page.wait_for_selector(".mj-menu")
    options = page.locator(".mj-option")
    pick = options.filter(has_text=choose).first if choose else options.first
    label = str(pick.inner_text())
    pick.click()
    wait_for_version(page, before + 1)
    return label


#: The legal actions of the page's own seat, fetched as the page itself would.
LEGAL = (
    "fetch(location.pathname.replace('/play/', '/api/matches/'), {headers: {'X-Seat-Token':"
    " new URLSearchParams(location.hash.slice(1)).get('token')}}).then(r => r.json())"
    ".then(p => p.legal)"
)


def assert_no_thief(page: Any) -> None:
    assert page.locator(".mj-thief").count() == 0
    assert page.locator(".mj-route").count() == 0
    assert page.locator(".mj-thief-panel").count() == 0
    assert page.locator("[data-thief]").count() == 0
    assert "You walk" not in page.inner_text(".mj-history")


def test_thief_and_security_play_in_two_pages(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    lobby = new_page(seat_pages)
    lobby.goto(server.url + "/")
    # Development mode: the match's seed is chosen, so the game is the same each run.
    lobby.wait_for_selector("body[data-dev='true']", state="attached")
    lobby.click("#dev-options summary")
    lobby.fill("#seed", str(shifted(31)))
    lobby.select_option("#title-select", "museum")
    lobby.fill("#players", "2")
    lobby.dispatch_event("#players", "input")
    lobby.click("#create-button")
    lobby.wait_for_selector(".seat-link[data-seat='2']")
    thief = new_page(seat_pages)
    security = new_page(seat_pages)
    thief.goto(lobby.input_value(".seat-link[data-seat='1'] .link-url"))
    security.goto(lobby.input_value(".seat-link[data-seat='2'] .link-url"))
    for p in (thief, security):
        p.wait_for_selector(".mj-map")
        assert p.get_attribute("body", "data-renderer") == "museum"
    assert thief.inner_text("#whoami") == "Thief"

    # Hovering a square tells what is there and what Security knows of it.
    security.hover(".mj-square[data-square='I1']")
    assert "Vault case" in security.inner_text(".mj-info")

    # Security posts its three guards on the map.
    for _ in range(3):
        assert act_on_map(security).startswith("Post guard")
    assert security.locator(".mj-guard").count() == 3
    thief.wait_for_selector("body[data-version='3']")
    # The Thief breaks in by the Terrace window, near camera 7 and the South breaker.
    thief.click(".mj-square[data-square='Q14']")
    assert thief.locator(".mj-option").all_inner_texts() == ["Break in at Q14"]
    thief.click(".mj-option")
    thief.wait_for_selector(".mj-thief")
    security.wait_for_selector("body[data-version='4']")
    assert_no_thief(security)

    turns = 0
    while turns < 3 and "Over" not in thief.inner_text("#banner"):
        # The Thief walks (the menu offers plain walks and, where legal, walk + cut).
        menu_labels = []
        thief.wait_for_selector("#banner.yours")
        thief.locator(".mj-square.target").first.click()
        menu_labels = thief.locator(".mj-option").all_inner_texts()
        assert all(label.startswith("Walk to") for label in menu_labels)
        thief.locator(".mj-cancel").click()
        # Where the rules allow walk + cut (or walk + escape), that square's menu says so.
        legal = thief.evaluate(LEGAL)
        if turns == 0:
            assert any(a.get("then") == "cut" for a in legal)  # camera 7 is in reach
        for then in ("cut", "escape"):
            target = next((a["to"] for a in legal if a.get("then") == then), None)
            if target:
                thief.click(f".mj-square[data-square='{target}']")
                labels = thief.locator(".mj-option").all_inner_texts()
                assert f"Walk to {target}" in labels and f"Walk to {target} + {then}" in labels
                thief.locator(".mj-cancel").click()
        label = act_on_map(thief, "Walk to")
        here = thief.get_attribute(".mj-thief", "data-thief")
        assert label.split()[2] == here  # "Walk to K7[ + cut]"
        assert thief.locator(".mj-route").count() == 1
        wait_for_version(security, version(thief))
        assert_no_thief(security)
        assert f'data-square="{here}"' in security.content()  # the map is there...
        assert "The Thief takes a turn" in security.inner_text(".mj-history")
        # ...Security moves its three guards, one by one.
        for _ in range(3):
            if "Over" in security.inner_text("#banner"):
                break
            security.wait_for_selector("#banner.yours")
            assert act_on_map(security).startswith("Guard ")
            assert_no_thief(security)
        turns += 1
        wait_for_version(thief, version(security))
    thief.screenshot(path=str(shots / "museum-thief.png"), full_page=True)
    security.screenshot(path=str(shots / "museum-security.png"), full_page=True)
    assert turns >= 1
    assert seat_pages.errors == []


def test_museum_on_a_phone_width_screen(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    created = create_match(server, "museum", 3, seed=8, bots=[1])
    phone = new_page(seat_pages, width=390)
    phone.goto(created["seats"][1]["url"])
    phone.wait_for_selector(".mj-map")
    assert_no_thief(phone)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways ({width}px)"
    phone.screenshot(path=str(shots / "museum-phone.png"), full_page=True)
    assert seat_pages.errors == []
