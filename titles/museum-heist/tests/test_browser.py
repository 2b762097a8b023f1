"""Museum Heist in Chromium (Debian's, driven by Playwright): a match made through
the HTTP API, played by clicking cards, pieces and squares; a wrong challenge's card
reaches the challenger's page only; the page fits a 390 px phone. Screenshots go to
test-output/screenshots/ at the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gameweave_museumheist import plugin

from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    wait_for_new_version,
    wait_for_version,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-output" / "screenshots"


@pytest.fixture
def server(serve_title: Any) -> LoopbackServer:
    server: LoopbackServer = serve_title(plugin, "museumheist")
    return server


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def open_seat(seat_pages: SeatPages, url: str, width: int = 1280) -> Any:
    page = seat_pages.open(url, width=width, height=900, ready=".mh-board")
    assert page.get_attribute("body", "data-renderer") == "museumheist"
    return page


def test_a_round_played_by_clicking_cards_pieces_and_squares(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "museumheist", 2, seed=5, bots=[2])
    page = open_seat(seat_pages, made["seats"][0]["url"])
    # Seven pieces and the Artwork on the board, seven cards to choose from.
    assert page.locator(".mh-piece").count() == 7
    assert page.locator(".mh-artwork").count() == 1
    assert page.locator(".mh-choose .mh-card").count() == 7
    page.screenshot(path=str(shots / "museumheist-choose.png"), full_page=True)
    before = page_version(page)
    page.click(".mh-choose .mh-card[data-character='artist']")
    wait_for_new_version(page, before)
    page.wait_for_selector(".mh-piece.movable")  # the bot chose too; seat 1 starts
    assert "The Artist" in page.inner_text(".mh-you")
    assert page.locator(".mh-known").count() == 0  # nobody's card is shown to seat 1
    # Click a piece: its legal ends are outlined; click one to move there.
    piece = page.locator(".mh-piece.movable").first
    name = piece.get_attribute("data-piece")
    piece.click()
    page.wait_for_selector(".mh-piece.selected")
    targets = page.locator(".mh-square.target")
    assert targets.count() >= 1
    legal = page.evaluate(
        "fetch(location.pathname.replace('/play/', '/api/matches/'), {headers: {'X-Seat-Token':"
        " new URLSearchParams(location.hash.slice(1)).get('token')}}).then(r => r.json())"
        ".then(p => p.legal)"
    )
    ends = {a["to"] for a in legal if a["type"] == "move" and a["piece"] == name}
    outlined = {targets.nth(i).get_attribute("data-square") for i in range(targets.count())}
    assert outlined == ends
    page.screenshot(path=str(shots / "museumheist-move.png"), full_page=True)
    square = targets.first.get_attribute("data-square")
    before = page_version(page)
    targets.first.click()
    wait_for_new_version(page, before)
    assert f"moves {name_of(name)}" in page.inner_text(".mh-history")
    assert square in page.inner_text(".mh-history")
    assert seat_pages.errors == []


def name_of(character: str | None) -> str:
    return {
        "artist": "The Artist",
        "duchess": "The Duchess",
        "tourist": "The Tourist",
        "schoolgirl": "The School Girl",
        "guard": "The Guard",
        "granny": "The Granny",
        "boy": "The Little Boy",
    }[character or ""]


def test_a_wrong_challenge_shows_the_card_to_the_challenger_only(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "museumheist", 3, seed=2)
    pages = [open_seat(seat_pages, seat["url"]) for seat in made["seats"]]
    for step, (page, character) in enumerate(
        zip(pages, ("artist", "duchess", "guard"), strict=True)
    ):
        # A page posts with the step it has drawn; the server refuses a stale one (409),
        # so each page waits until it has seen the choices made before its own.
        wait_for_version(page, step)
        page.click(f".mh-choose .mh-card[data-character='{character}']")
    pages[0].wait_for_selector(".mh-challenges")
    before = page_version(pages[0])
    pages[0].click(".mh-challenge[data-seat='2'][data-character='boy']")  # seat 2 is the Duchess
    wait_for_new_version(pages[0], before)
    pages[0].wait_for_selector(".mh-known[data-seat='2']")
    assert "The Duchess" in pages[0].inner_text(".mh-known[data-seat='2']")
    assert "Seat 2 shows you The Duchess" in pages[0].inner_text(".mh-history")
    for page in pages[1:]:
        wait_for_version(page, before + 1)
        assert page.locator(".mh-known").count() == 0
        assert "shows you" not in page.inner_text(".mh-history")
        assert "not B" in page.inner_text(".mh-seat[data-seat='2']")  # the public deduction
    # Seat 3 learns only the public deduction: its view of seat 2 names no card.
    assert "Duchess" not in pages[2].inner_text(".mh-seat[data-seat='2']")
    pages[0].screenshot(path=str(shots / "museumheist-private-reveal.png"), full_page=True)
    assert seat_pages.errors == []


def test_museum_heist_on_a_phone_width_screen(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "museumheist", 3, seed=9, bots=[2, 3])
    phone = open_seat(seat_pages, made["seats"][0]["url"], width=390)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways ({width}px)"
    box = phone.locator(".mh-board").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    phone.click(".mh-choose .mh-card[data-character='granny']")
    phone.wait_for_selector(".mh-piece.movable")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 400
    phone.screenshot(path=str(shots / "museumheist-phone.png"), full_page=True)
    assert seat_pages.errors == []
