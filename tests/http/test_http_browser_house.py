"""The House Job in the browser: a round played through the chip buttons and an
ability card, on a phone-width screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ThreadServer, csp_refusals, wait_for_version

from gameweave_core import Registry
from gameweave_http.app import create_app

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    from gameweave_house import plugin

    reg = Registry()
    reg.add_plugin(plugin, "house", "gameweave", "test")
    with ThreadServer(create_app(tmp_path / "house.sqlite3", reg, dev=True)) as s:
        yield s


def click_and_wait(page: Any, selector: str) -> None:
    before = int(page.get_attribute("body", "data-version"))
    page.locator(selector).first.click()
    wait_for_version(page, before + 1)


def test_a_house_round_through_chips_and_an_ability(
    browser: Any, server: ThreadServer, shots: Path
) -> None:
    errors: list[str] = []
    created = httpx.post(
        server.url + "/api/matches",
        json={"title": "house", "players": 2, "seed": 7, "bots": [2]},
    ).json()
    page = browser.new_context(viewport={"width": 390, "height": 860}, has_touch=True).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A refusal by the pages' Content-Security-Policy is an error too.
    page.on("console", lambda msg: errors.extend(csp_refusals(msg)))
    page.set_default_timeout(10_000)
    page.goto(created["seats"][0]["url"])
    page.wait_for_selector(".hj")
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
        page.wait_for_timeout(50)
        banner = page.inner_text(".hj-banner")
        if "settled" in banner or "over" in page.get_attribute(".hj-banner", "class"):
            break
        if page.locator(".hj-play.stand").count():
            click_and_wait(page, ".hj-play.stand")
        elif page.locator(".hj-play.next_round").count():
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
    assert errors == []
