"""Museum Rush in Chromium (Debian's, driven by Playwright): a match made through the
HTTP API, played by clicking rooms and buttons; a seat's Buyer and hand stay on its
own page; the page fits a 390 px phone. Screenshots go to test-output/screenshots/
at the repository root."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from gameweave_museumrush import plugin

from gameweave_http.testing import LoopbackServer, chromium

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-output" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoopbackServer]:
    with LoopbackServer.for_plugin(plugin, "museumrush", tmp_path / "rush.sqlite3") as s:
        yield s


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def create(server: LoopbackServer, players: int, bots: list[int]) -> dict[str, Any]:
    reply = httpx.post(
        server.url + "/api/matches",
        json={"title": "museumrush", "players": players, "bots": bots},
    )
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def open_seat(browser: Any, url: str, errors: list[str], width: int = 1280) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)  # the machine may be busy: be patient
    page.goto(url)
    page.wait_for_selector(".mr-grid")
    assert page.get_attribute("body", "data-renderer") == "museumrush"
    return page


def version(page: Any) -> int:
    return int(page.get_attribute("body", "data-version"))


def after(page: Any, before: int) -> None:
    """Wait for the page to draw a later step. Polled from Python: a string given to
    ``wait_for_function`` is evaluated with ``eval`` once it has to poll, which the
    client's Content Security Policy forbids."""
    deadline = time.monotonic() + 30
    while version(page) <= before:
        assert time.monotonic() < deadline, "the page did not move on"
        page.wait_for_timeout(50)


def payload(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            "fetch(location.pathname.replace('/play/', '/api/matches/'), {headers: {'X-Seat-Token':"
            " new URLSearchParams(location.hash.slice(1)).get('token')}}).then(r => r.json())"
        )
    )


def test_breaking_in_and_moving_by_clicking_rooms(
    browser: Any, server: LoopbackServer, shots: Path
) -> None:
    errors: list[str] = []
    made = create(server, 2, [2])
    page = open_seat(browser, made["seats"][0]["url"], errors)
    assert page.locator(".mr-tile").count() == 28
    page.wait_for_selector(".mr-tile.target")
    # The outlined rooms are exactly the legal break-ins: free edge rooms.
    legal = payload(page)["legal"]
    spots = {a["at"] for a in legal if a["type"] == "breakin"}
    outlined = page.locator(".mr-tile.target")
    assert {outlined.nth(i).get_attribute("data-at") for i in range(outlined.count())} == spots
    page.screenshot(path=str(shots / "museumrush-break-in.png"), full_page=True)
    before = version(page)
    outlined.first.click()
    after(page, before)
    page.wait_for_selector(".mr-grid .mr-thief[data-seat='1']")
    assert "breaks in" in page.inner_text(".mr-history")
    assert page.locator(".mr-grid .mr-thief[data-seat='1']").count() == 1
    page.screenshot(path=str(shots / "museumrush-turn.png"), full_page=True)
    assert errors == []


def test_a_seats_secrets_stay_on_its_own_page(
    browser: Any, server: LoopbackServer, shots: Path
) -> None:
    errors: list[str] = []
    made = create(server, 2, [])
    pages = [open_seat(browser, seat["url"], errors) for seat in made["seats"]]
    buyers = [payload(p)["view"]["you"]["buyer"]["name"] for p in pages]
    assert buyers[0] != buyers[1]
    for mine, theirs, page in ((0, 1, pages[0]), (1, 0, pages[1])):
        text = page.inner_text(".mr")
        assert buyers[mine] in text and buyers[theirs] not in text
    assert errors == []


def test_museum_rush_on_a_phone_width_screen(
    browser: Any, server: LoopbackServer, shots: Path
) -> None:
    errors: list[str] = []
    made = create(server, 3, [2, 3])
    phone = open_seat(browser, made["seats"][0]["url"], errors, width=390)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways ({width}px)"
    box = phone.locator(".mr-grid").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    phone.wait_for_selector(".mr-tile.target")
    phone.locator(".mr-tile.target").first.click()
    phone.wait_for_selector(".mr-grid .mr-thief[data-seat='1']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 400
    phone.screenshot(path=str(shots / "museumrush-phone.png"), full_page=True)
    assert errors == []
