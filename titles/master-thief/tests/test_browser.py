"""Master Thief in Chromium (Debian's, driven by Playwright): matches made through the
HTTP API and played by clicking the Museum, hand cards and items; a Grip prompt
reaches the thief a Swipe is aimed at, and nobody else; the page fits a 390 px
phone. Screenshots go to test-output/screenshots/ at the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gameweave_masterthief import plugin

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
    server: LoopbackServer = serve_title(plugin, "masterthief")
    return server


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def open_seat(seat_pages: SeatPages, url: str, width: int = 1280) -> Any:
    page = seat_pages.open(url, width=width, height=900, ready=".mt-table")
    assert page.get_attribute("body", "data-renderer") == "masterthief"
    return page


def click(page: Any, selector: str) -> None:
    """Click and wait for the page to redraw with the next version."""
    before = page_version(page)
    page.click(selector)
    wait_for_new_version(page, before)


def history_says(page: Any, words: str) -> None:
    """Wait until the page's history shows ``words``."""
    from playwright.sync_api import expect

    expect(page.locator(".mt-history")).to_contain_text(words)


def test_a_heist_and_a_turn_against_a_bot_by_clicking(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = create_match(server, "masterthief", 2, seed=6, bots=[2])
    page = open_seat(seat_pages, made["seats"][0]["url"])
    # Four cards in hand, face up for this seat; the bot's hand is four backs.
    assert page.locator(".mt-hand .mt-thief").count() == 4
    assert page.locator(".mt-seat[data-seat='2'] .mt-back").count() == 4
    assert page.locator(".mt-seat[data-seat='2'] .mt-calling.hidden").count() == 1
    page.screenshot(path=str(shots / "masterthief-heist.png"), full_page=True)
    click(page, ".mt-museum.target")  # the Heist
    # Everyone has a card face up (or Security was dealt with); wait for a choice.
    page.wait_for_selector(
        ".mt-museum.target, .mt-act, .mt-thief.playable, .mt[data-phase='over']", state="attached"
    )
    carried = page.locator(".mt-seat .mt-item").count()
    assert carried >= 1
    page.screenshot(path=str(shots / "masterthief-table.png"), full_page=True)
    assert seat_pages.errors == []


def stacked_match(server: LoopbackServer) -> dict[str, Any]:
    return create_match(
        server,
        "masterthief",
        2,
        seed=6,
        config=dict(
            museum=["Astrolabe", "Ruby Sceptre", "T-Rex Skull"],
            deck=["Swipe", "Stash", "Lift", "Raid", "Grip", "Trip", "Deep Pockets", "Latch"],
            calling=["The Looter", "The Cat Burglar"],
        ),
    )


def test_a_swipe_prompts_the_target_alone_and_a_grip_stops_it(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    made = stacked_match(server)
    one = open_seat(seat_pages, made["seats"][0]["url"])
    two = open_seat(seat_pages, made["seats"][1]["url"], width=390)
    assert "The Looter" in one.inner_text(".mt-hand") and "The Looter" not in two.inner_text(".mt")
    click(one, ".mt-museum.target")
    click(two, ".mt-museum.target")
    one.wait_for_selector(".mt-museum.target")  # seat 1 (the poorer Heist) steals first
    click(one, ".mt-museum.target")
    # Swipe: click the card, then the outlined item on seat 2's side.
    one.click(".mt-hand .mt-thief[data-card='Swipe']")
    one.wait_for_selector(".mt-thief.selected")
    targets = one.locator(".mt-seat[data-seat='2'] .mt-item.target")
    assert targets.count() == 1 and targets.first.get_attribute("data-item") == "Ruby Sceptre"
    click(one, ".mt-seat[data-seat='2'] .mt-item.target")
    # Seat 2 is asked (Grip or pass); seat 1 only sees that seat 2 is asked.
    two.wait_for_selector(".mt-prompt .mt-grip")
    assert "Seat 1 plays Swipe on you: Ruby Sceptre" in two.inner_text(".mt-prompt")
    assert two.locator(".mt-prompt .mt-pass").count() == 1
    one.wait_for_selector(".mt-seat[data-seat='2'].asked")
    assert one.locator(".mt-prompt .mt-grip").count() == 0
    width = two.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    two.screenshot(path=str(shots / "masterthief-grip-phone.png"), full_page=True)
    click(two, ".mt-prompt .mt-grip")
    history_says(one, "the Swipe is stopped")
    assert "Ruby Sceptre" in two.inner_text(".mt-seat[data-seat='2'] .mt-carried")
    # Back to seat 1: end the turn and escape, seat 2 is asked about Latch.
    one.wait_for_selector(".mt-act.mt-end")
    click(one, ".mt-act.mt-end")
    click(one, ".mt-act.mt-escape")
    two.wait_for_selector(".mt-prompt .mt-latch")
    click(two, ".mt-prompt .mt-latch")
    history_says(one, "stops Seat 1's escape")
    one.screenshot(path=str(shots / "masterthief-latched.png"), full_page=True)
    assert seat_pages.errors == []
