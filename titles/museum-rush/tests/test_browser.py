"""Museum Rush in Chromium (Debian's, driven by Playwright): a match made through the
HTTP API, played by clicking rooms and buttons; a seat's Buyer and hand stay on its
own page; the page fits a 390 px phone. Screenshots go to test-output/screenshots/
at the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gameweave_museumrush import plugin

from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    wait_for_new_version,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-output" / "screenshots"


@pytest.fixture
def server(serve_title: Any) -> LoopbackServer:
    server: LoopbackServer = serve_title(plugin, "museumrush")
    return server


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def open_seat(seat_pages: SeatPages, url: str, width: int = 1280) -> Any:
    page = seat_pages.open(url, width=width, height=900, ready=".mr-grid")
    assert page.get_attribute("body", "data-renderer") == "museumrush"
    return page


def payload(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            "fetch(location.pathname.replace('/play/', '/api/matches/'), {headers: {'X-Seat-Token':"
            " new URLSearchParams(location.hash.slice(1)).get('token')}}).then(r => r.json())"
        )
    )


def test_breaking_in_and_moving_by_clicking_rooms(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "museumrush", 2, seed=4, bots=[2])
    page = open_seat(seat_pages, made["seats"][0]["url"])
    assert page.locator(".mr-tile").count() == 28
    page.wait_for_selector(".mr-tile.target")
    # The outlined rooms are exactly the legal break-ins: free edge rooms.
    legal = payload(page)["legal"]
    spots = {a["at"] for a in legal if a["type"] == "breakin"}
    outlined = page.locator(".mr-tile.target")
    assert {outlined.nth(i).get_attribute("data-at") for i in range(outlined.count())} == spots
    page.screenshot(path=str(shots / "museumrush-break-in.png"), full_page=True)
    before = page_version(page)
    outlined.first.click()
    wait_for_new_version(page, before)
    page.wait_for_selector(".mr-grid .mr-thief[data-seat='1']")
    assert "breaks in" in page.inner_text(".mr-history")
    assert page.locator(".mr-grid .mr-thief[data-seat='1']").count() == 1
    page.screenshot(path=str(shots / "museumrush-turn.png"), full_page=True)
    assert seat_pages.errors == []


def test_a_seats_secrets_stay_on_its_own_page(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "museumrush", 2, seed=4)
    pages = [open_seat(seat_pages, seat["url"]) for seat in made["seats"]]
    buyers = [payload(p)["view"]["you"]["buyer"]["name"] for p in pages]
    assert buyers[0] != buyers[1]
    for mine, theirs, page in ((0, 1, pages[0]), (1, 0, pages[1])):
        text = page.inner_text(".mr")
        assert buyers[mine] in text and buyers[theirs] not in text
    assert seat_pages.errors == []


def test_museum_rush_on_a_phone_width_screen(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "museumrush", 3, seed=4, bots=[2, 3])
    phone = open_seat(seat_pages, made["seats"][0]["url"], width=390)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways ({width}px)"
    box = phone.locator(".mr-grid").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    phone.wait_for_selector(".mr-tile.target")
    phone.locator(".mr-tile.target").first.click()
    phone.wait_for_selector(".mr-grid .mr-thief[data-seat='1']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 400
    phone.screenshot(path=str(shots / "museumrush-phone.png"), full_page=True)
    assert seat_pages.errors == []
