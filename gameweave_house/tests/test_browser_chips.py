"""The House Job in the browser: a round played through the chip buttons and an
ability card, on a phone-width screen. Screenshots go to test-output/screenshots/
at the repository root.

The compiled build's environment (``make test-compiled``) has no browser tools: the
module is skipped there, and nowhere else."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("GAMEWEAVE_EXPECT_COMPILED") == "1":
    pytest.importorskip("playwright", reason="the compiled build's environment has no browser")

from gameweave_house import plugin
from gameweave_http.testing import LoopbackServer, SeatPages, create_match, wait_for_version

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture
def server(serve_title: Any) -> LoopbackServer:
    server: LoopbackServer = serve_title(plugin, "house")
    return server


def click_and_wait(page: Any, selector: str) -> None:
    before = int(page.get_attribute("body", "data-version"))
    page.locator(selector).first.click()
    wait_for_version(page, before + 1)


def test_a_house_round_through_chips_and_an_ability(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    created = create_match(server, "house", 2, seed=7, bots=[2])
    page = seat_pages.open(
        created["seats"][0]["url"], width=390, height=860, has_touch=True, ready=".hj"
    )
    assert page.get_attribute("body", "data-renderer") == "house"

    # Draft the first open role (the Lookout); the bot drafts next, then betting opens.
    # The page's banner says whose turn it is, once; the table's says where the job is.
    assert page.inner_text("#banner") == "Your turn"
    assert page.get_by_text("Your turn").count() == 1
    assert page.inner_text(".hj-banner") == "Drafting roles"
    assert "mine" in page.get_attribute(".hj-banner", "class")
    click_and_wait(page, ".hj-draft")
    page.wait_for_selector(".hj-chip[data-amount='10']")
    take = int(page.inner_text(".hj-take-figure strong"))
    click_and_wait(page, ".hj-chip[data-amount='10']")
    click_and_wait(page, ".hj-chip[data-amount='50']")
    assert "bet 60" in page.inner_text(".hj-box[data-box='1']")
    assert int(page.inner_text(".hj-take-figure strong")) == take - 60

    # An ability card: lit and ringed while playable, faded once spent.
    card = page.locator(".hj-me .hj-ability.playable").first
    key = card.get_attribute("data-card")
    assert "PLAY NOW" in card.inner_text()
    idle = page.locator(".hj-me .hj-ability.idle")
    if idle.count():
        assert idle.first.locator(".hj-ability-reason").inner_text()  # says why not now
    click_and_wait(page, f".hj-me .hj-ability[data-card='{key}'] .hj-ability-option")
    page.wait_for_selector(f".hj-me .hj-ability.spent[data-card='{key}']")
    # The Lookout's first card is the Long Glass: three deck cards turn face up for all.
    assert key == "long_glass"
    assert page.locator(".hj-faceup .hj-card").count() == 3
    page.screenshot(path=str(shots / "house-betting-phone.png"), full_page=True)

    # A crewmate's cards open on a tap.
    mate = page.locator(".hj-mate[data-seat='2']")
    assert not mate.locator(".hj-mate-cards").is_visible()
    mate.locator(".hj-mate-name").tap()
    assert mate.locator(".hj-mate-cards .hj-ability").first.is_visible()

    click_and_wait(page, ".hj-deal-in")
    # Play the hand out: stand whenever asked, until the round is settled.
    for _ in range(20):
        # Whatever comes once the bot has played: a stand to take, or the round's end.
        page.wait_for_selector(
            ".hj-play.stand, .hj-log li:has-text('Round settled'), .hj-banner.over",
            state="attached",
        )
        if page.locator(".hj-play.stand").count():
            click_and_wait(page, ".hj-play.stand")
        else:
            break
    log = page.inner_text(".hj-log")
    assert "Round settled" in log or "over" in page.get_attribute(".hj-banner", "class")
    first_line = page.locator(".hj-log li").first.inner_text()
    assert first_line == page.evaluate(
        "fetch(location.pathname.replace('/play/', '/api/matches/'), {headers: {'X-Seat-Token':"
        " new URLSearchParams(location.hash.slice(1)).get('token')}}).then(r => r.json())"
        ".then(p => p.history[p.history.length - 1])"
    )  # the log runs newest first
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways ({width}px)"
    page.screenshot(path=str(shots / "house-settled-phone.png"), full_page=True)
    assert seat_pages.errors == []
