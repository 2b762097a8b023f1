"""The House Job in Chromium (Debian's, driven by Playwright) on a phone-width screen:
the draft says what each role does, the legend opens by a tap, a play's targets are
named by their cards, and the settled round stays on the table while a bot has
already started the next one. Screenshots go to test-output/screenshots/ at the
repository root.

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
from gameweave_house.cards import stacked
from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    wait_for_new_version,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "screenshots"

# Draw order: first cards (Crew 1, Crew 2), the house's up-card, second cards, the
# hole card, then the draws.
DECK = stacked("TS", "TH", "6D", "6S", "9H", "TD", "5C", "4C", "3C", "2C")


@pytest.fixture
def server(serve_title: Any) -> LoopbackServer:
    server: LoopbackServer = serve_title(plugin, "house")
    return server


def click(page: Any, selector: str) -> None:
    before = page_version(page)
    page.locator(selector).first.click()
    wait_for_new_version(page, before)


def test_the_draft_legend_targets_and_the_kept_round_on_a_phone(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    created = create_match(server, "house", 2, seed=3, bots=[2], config={"deck": DECK})
    page = seat_pages.open(
        created["seats"][0]["url"], width=390, height=844, has_touch=True, ready=".hj"
    )

    # The draft: every open role says what it does, beside its button.
    lookout = page.locator(".hj-role[data-role='lookout']")
    assert "Sees cards early" in lookout.inner_text()
    assert "The Count (always on)" in lookout.inner_text()
    assert "Long Glass" in lookout.inner_text() and "Rooftop" in lookout.inner_text()
    assert page.locator(".hj-role").count() == 5
    page.screenshot(path=str(SHOTS / "house-draft-phone.png"), full_page=True)
    click(page, ".hj-role[data-role='sleight'] .hj-draft")

    # The legend opens by a tap and stays open when the table is drawn again.
    page.wait_for_selector(".hj-chip[data-amount='10']")
    legend = page.locator(".hj-legend")
    assert not legend.locator("dl").is_visible()
    legend.locator("summary").tap()
    assert legend.locator("dl").is_visible()
    assert "hole card" in legend.inner_text()
    click(page, ".hj-chip[data-amount='10']")
    assert page.locator(".hj-legend dl").is_visible()
    click(page, ".hj-deal-in")

    # Playing: False Cut and Palm name the cards they would move.
    page.wait_for_selector(".hj-play.stand")
    cut = page.locator(".hj-me .hj-ability[data-card='false_cut'] .hj-ability-option")
    names = cut.all_inner_texts()
    assert "the 10♠ in your box" in names and "the 9♥ in Crew 2's box" in names
    palm = page.locator(".hj-me .hj-ability[data-card='palm'] .hj-ability-option")
    assert "your 6♠ for the 10♥ in Crew 2's box" in palm.all_inner_texts()
    page.screenshot(path=str(SHOTS / "house-targets-phone.png"), full_page=True)
    click(page, ".hj-play.stand")

    # The bot plays, the round settles, the bot presses Next round and bets at once:
    # when it is Crew 1's turn to bet again, round 1 is still on the table.
    page.wait_for_selector(".hj-settled[data-round='1'] .hj-result")
    page.wait_for_selector(".hj-chip[data-amount='10']")
    kept = page.locator(".hj-settled")
    assert "Last round (1)" in kept.inner_text()
    assert kept.locator(".hj-settled-house .hj-card").count() >= 2  # the house's final hand
    assert "Crew 1" in kept.inner_text() and "16" in kept.inner_text()
    assert "betting" in page.inner_text(".hj-banner")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways ({width}px)"
    page.screenshot(path=str(SHOTS / "house-settled-kept-phone.png"), full_page=True)
    assert seat_pages.errors == []
