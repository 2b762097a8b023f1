"""A newcomer's first hour in the browser (issue 31, points 3, 4 and 7): links
that work where they are pasted, a revoked link said in plain words, confirmations
on touch screens, hints that say how they were found, Museum Heist's challenges,
the replay's seats, Sealed Bids read whole, the lobby on a phone and a lost
server said in words.

Every match is created with a seed through a development-mode server, with the
shared helpers of :mod:`gameweave_http.testing`; the screenshots go to
``test-output/browser/``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from gameweave_core import Match, Registry
from gameweave_http.app import create_app
from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    shifted,
    wait_for_version,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "browser"

#: A phone: 390 CSS px wide, worked by touch (no hover, a coarse pointer).
PHONE: dict[str, Any] = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
#: A laptop with a mouse.
DESKTOP: dict[str, Any] = {"width": 1280, "height": 900}


def registry() -> Registry:
    """Every title a user has: the five heist games and the tutorial's."""
    from gameweave_masterthief import plugin as masterthief
    from gameweave_museumheist import plugin as museumheist
    from gameweave_museumrush import plugin as museumrush

    from gameweave_house import plugin as house
    from gameweave_museum import plugin as museum
    from gameweave_sealedbid import plugin as sealedbid

    reg = Registry()
    for module, name in (
        (museum, "museum"),
        (house, "house"),
        (museumheist, "museumheist"),
        (museumrush, "museumrush"),
        (masterthief, "masterthief"),
        (sealedbid, "sealedbid"),
    ):
        reg.add_plugin(module, name, f"gameweave-{name}", "test")
    return reg


@pytest.fixture
def server(tmp_path: Path, loopback_servers: Callable[..., LoopbackServer]) -> LoopbackServer:
    """Every title, served in development mode (each test chooses its seeds)."""
    return loopback_servers(create_app(tmp_path / "matches.sqlite3", registry(), dev=True))


def seat(made: dict[str, Any], number: int) -> dict[str, Any]:
    return dict(next(s for s in made["seats"] if s["seat"] == number))


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def token_of(url: str) -> str:
    return url.split("#token=")[1]


# -- 3. links that work where they are pasted ----------------------------------------------


def test_a_seat_link_pasted_into_an_open_tab_opens_that_seat(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.3: the page read its link once; a seat link pasted into a tab open
    on the match (a seat's or a spectator's) did nothing until a reload."""
    made = create_match(server, "sealedbid", 3, seed=31)
    one, two = seat(made, 1)["url"], seat(made, 2)["url"]
    page = seat_pages.open(one, **PHONE)
    page.wait_for_selector("#whoami:text('Bidder 1')")
    page.goto(two)  # only the fragment changes: the document stays, hashchange fires
    page.wait_for_selector("#whoami:text('Bidder 2')")
    shot(page, "link-pasted-over-a-seat")

    watcher = seat_pages.open(made["spectator_url"], **PHONE)
    watcher.wait_for_selector("#whoami:text('Spectator')")
    watcher.goto(one)
    watcher.wait_for_selector("#whoami:text('Bidder 1')")
    watcher.wait_for_selector(".action-buttons button")
    assert seat_pages.errors == []


def test_a_revoked_link_says_so_at_once_with_a_way_back(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.3: a page whose link was replaced kept saying "Your turn" until
    its player acted, then showed "that token belongs to no seat of match ..."
    with no way back. It now says so at once, in plain words, with the way to the
    spectators' view and to the lobby."""
    made = create_match(server, "museum", 2, seed=7)
    security = seat(made, 2)["url"]
    page = seat_pages.open(security, **PHONE)
    page.wait_for_selector("#banner.yours")
    reissued = httpx.post(
        f"{server.url}/api/matches/{made['id']}/seats/2/token",
        headers={"X-Host-Token": made["host_token"]},
        json={},
        timeout=60,
    )
    assert reissued.status_code == 200, reissued.text
    page.wait_for_selector("#banner[data-revoked]")  # with no action taken
    words = page.inner_text("#banner")
    assert "This link no longer opens Seat 2" in words and "gave that seat a new link" in words
    assert "token" not in words and made["id"] not in words
    assert page.get_attribute("#banner a.watch", "href") == f"/play/{made['id']}"
    assert page.get_attribute("#banner a.lobby", "href") == "/"
    assert page.locator("#live").get_attribute("title") == (
        "no live updates: this link no longer opens a seat"
    )
    shot(page, "link-revoked-phone")

    # The old link opened afresh says the same, not the server's words.
    again = seat_pages.open(security, **PHONE)
    again.wait_for_selector("#banner[data-revoked]")
    assert "This link no longer opens" in again.inner_text("#banner")
    # The server's words only as a detail, under the plain ones.
    assert again.inner_text("#error").startswith("Details: that token belongs to no seat")
    again.tap("#banner a.watch")
    again.wait_for_selector("#whoami:text('Spectator')")
    errors = [e for e in seat_pages.errors if "403" not in e]  # the refused reads, by design
    assert errors == []


def test_new_link_asks_for_a_second_tap_on_a_touch_screen(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.3: "New link" in the lobby revoked a seat on one tap. On a touch
    screen the first tap now asks; the second makes the new link. A mouse click
    still acts at once."""
    lobby = seat_pages.open(f"{server.url}/", **PHONE)
    lobby.wait_for_selector("body[data-dev='true']")
    lobby.select_option("#title-select", "sealedbid")
    lobby.tap("#dev-options summary")
    lobby.fill("#seed", str(shifted(5)))
    lobby.tap("#create-button")
    lobby.wait_for_selector("#mine .kept-seat[data-seat='2'] .new-link")
    row = "#mine .kept-seat[data-seat='2']"
    old = lobby.input_value(f"{row} .link-url")
    match_id = old.split("/play/")[1].split("#")[0]
    api = f"{server.url}/api/matches/{match_id}"
    lobby.tap(f"{row} .new-link")
    assert lobby.inner_text(f"{row} .new-link") == "Tap again: the old link stops working"
    assert lobby.locator(f"{row} .confirm-cancel").is_visible()
    assert httpx.get(api, headers={"X-Seat-Token": token_of(old)}).status_code == 200
    shot(lobby, "new-link-asks-phone")
    lobby.tap(f"{row} .confirm-cancel")  # changed one's mind: nothing happens
    assert lobby.inner_text(f"{row} .new-link") == "New link"
    assert httpx.get(api, headers={"X-Seat-Token": token_of(old)}).status_code == 200
    lobby.tap(f"{row} .new-link")
    lobby.tap(f"{row} .new-link")
    lobby.wait_for_selector(f"{row} .copied:has-text('new link made')")
    assert httpx.get(api, headers={"X-Seat-Token": token_of(old)}).status_code == 403

    desk = seat_pages.open(f"{server.url}/", **DESKTOP)
    desk.wait_for_selector("body[data-dev='true']")
    desk.select_option("#title-select", "sealedbid")
    desk.click("#dev-options summary")
    desk.fill("#seed", str(shifted(6)))
    desk.click("#create-button")
    desk.wait_for_selector("#mine .kept-seat[data-seat='1'] .new-link")
    first = "#mine .kept-match:first-child .kept-seat[data-seat='1']"
    desk.click(f"{first} .new-link")
    desk.wait_for_selector(f"{first} .copied:has-text('new link made')")
    assert seat_pages.errors == []


# -- 4. every title teaches its rules in the browser -------------------------------------


@pytest.mark.parametrize("title", ["museumheist", "sealedbid"])
def test_museum_heist_and_sealed_bids_teach_their_rules(
    server: LoopbackServer, seat_pages: SeatPages, title: str
) -> None:
    """Issue 31.4: Museum Heist and Sealed Bids had no rules in the game."""
    made = create_match(server, title, 2, seed=12)
    page = seat_pages.open(seat(made, 1)["url"], **PHONE)
    page.wait_for_selector("body[data-rules='ready']")
    page.tap("#rules-button")
    page.wait_for_selector("#rules .rules-topic")
    topics = page.locator("#rules .rules-topic").all_inner_texts()
    assert topics[0] == "overview" and "actions" in topics
    page.locator("#rules .rules-topic", has_text="actions").tap()
    assert page.get_attribute("#rules .rules-body", "data-topic") == "actions"
    shot(page, f"rules-{title}-phone")
    assert seat_pages.errors == []


# -- 7. the play page, the replay, the lobby ---------------------------------------------


def test_a_hint_says_how_it_was_found(server: LoopbackServer, seat_pages: SeatPages) -> None:
    """Issue 31.7: the hint said "the only legal action" whenever no search ran,
    with 17 choices on offer (Museum Rush's bots search only what its heuristic
    proposes). A hint now weighs every choice, and says how many searches."""
    made = create_match(server, "museumrush", 2, seed=2)
    # The first thief is drawn at random: ask for the hint on the seat that moves.
    turn = httpx.get(f"{server.url}/api/matches/{made['id']}").json()["awaiting"][0]
    page = seat_pages.open(seat(made, turn)["url"], **DESKTOP)
    page.wait_for_selector("#hint-button:not([hidden]):not([disabled])")
    page.click("#hint-button")
    page.wait_for_selector("#hint:has-text('Hint: ')")
    page.wait_for_function(
        "() => !document.getElementById('hint').textContent.startsWith('Searching')"
    )
    said = page.inner_text("#hint")
    assert "searches of worlds your seat cannot tell apart" in said, said
    assert "the only legal action" not in said
    assert seat_pages.errors == []


def test_museum_heist_challenges_are_named_finger_sized_and_confirmed_on_touch(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.7: Museum Heist's challenge buttons were 25 x 26 px letters that
    acted on one tap (a mistap puts you out of the round), and its coloured
    character dots were refused by the page's own Content-Security-Policy."""
    made = create_match(server, "museumheist", 3, seed=3)
    for number, character in ((1, "artist"), (2, "duchess"), (3, "guard")):
        token = token_of(seat(made, number)["url"])
        now = httpx.get(
            f"{server.url}/api/matches/{made['id']}", headers={"X-Seat-Token": token}
        ).json()
        posted = httpx.post(
            f"{server.url}/api/matches/{made['id']}/actions",
            headers={"X-Seat-Token": token},
            json={"version": now["version"], "action": {"type": "choose", "character": character}},
        )
        assert posted.status_code == 200, posted.text
    turn = httpx.get(f"{server.url}/api/matches/{made['id']}").json()["awaiting"][0]
    page = seat_pages.open(seat(made, turn)["url"], **PHONE)
    page.wait_for_selector(".mh-challenge")
    before = page_version(page)
    button = page.locator(".mh-challenge").first
    # The title's stylesheet arrives after the page's: measure once it applies.
    expect(button).to_have_css("min-height", "44px")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    name = button.inner_text()
    assert any(
        word in name for word in ("Artist", "Duchess", "Tourist", "Girl", "Guard", "Granny", "Boy")
    )
    colour = page.evaluate(
        "() => getComputedStyle(document.querySelector('.mh-challenge .mh-dot')).backgroundColor"
    )
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent"), colour
    button.tap()
    assert button.get_attribute("data-armed") == "true"
    assert button.inner_text().startswith("Tap again: Seat ")
    shot(page, "museumheist-challenge-asks-phone")
    assert page_version(page) == before  # nothing was played
    button.tap()
    wait_for_version(page, before + 1)
    assert not [e for e in seat_pages.errors if "Content Security Policy" in e or "style" in e]
    assert seat_pages.errors == []


def test_the_replay_s_view_as_follows_the_log_opened(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.7: after a second log was opened, "View as" kept the first log's
    seat names (as long as both had as many seats)."""
    reg = registry()
    house = Match(reg.title("house"), 2, 4)
    bids = Match(reg.title("sealedbid"), 2, 4)
    for game in (house, bids):
        for _ in range(3):
            s = game.awaiting[0]
            game.submit(s, game.legal_actions(s)[0])
    page = seat_pages.open(f"{server.url}/replay", **DESKTOP)
    files = (
        ("house.toml", house.to_log().to_toml()),
        ("bids.toml", bids.to_log().to_toml()),
    )
    labels = []
    for name, text in files:
        page.set_input_files(
            "#file", files=[{"name": name, "mimeType": "text/plain", "buffer": text.encode()}]
        )
        page.wait_for_function(
            f"() => document.getElementById('title').textContent.includes("
            f"{json.dumps('Sealed Bids' if name == 'bids.toml' else 'The House Job')})",
        )
        labels.append(page.locator("#seat option").all_inner_texts())
    assert labels[1] == ["Spectator", "Bidder 1", "Bidder 2"], labels
    assert labels[0][0] == "Spectator" and labels[0][1].startswith("Crew 1")
    assert seat_pages.errors == []


def test_sealed_bids_says_whose_coins_and_points(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.7: Sealed Bids, drawn by the generic renderer, read "coins 20, 20"
    without whose. A list with one value per seat now names each seat."""
    made = create_match(server, "sealedbid", 2, seed=9)
    page = seat_pages.open(seat(made, 1)["url"], **PHONE)
    page.wait_for_selector(".generic .view")
    coins = page.locator(".value-seats").first.locator("li").all_inner_texts()
    assert coins == ["Bidder 1: 20", "Bidder 2: 20"]
    shot(page, "sealedbid-phone")
    assert seat_pages.errors == []


def test_the_lobby_fits_a_phone_for_every_title(
    server: LoopbackServer, seat_pages: SeatPages
) -> None:
    """Issue 31.7: the lobby scrolled sideways on a phone for The House Job (a bot
    menu's long name widened its seat rows)."""
    lobby = seat_pages.open(f"{server.url}/", **PHONE)
    lobby.wait_for_selector(".seat-row")
    for title in ("house", "museum", "museumheist", "museumrush", "masterthief", "sealedbid"):
        lobby.select_option("#title-select", title)
        lobby.fill("#players", lobby.get_attribute("#players", "max") or "4")
        lobby.dispatch_event("#players", "input")
        width = lobby.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{title}: the lobby is {width}px wide on a 390px phone"
        if title == "house":
            shot(lobby, "lobby-house-phone")
    assert seat_pages.errors == []


def test_a_lost_server_is_said_in_words(seat_pages: SeatPages, tmp_path: Path) -> None:
    """Issue 31.7: the only sign of a lost server was a grey dot whose tooltip
    still said "live updates"."""
    with LoopbackServer(create_app(tmp_path / "lost.sqlite3", registry(), dev=True)) as own:
        made = create_match(own, "sealedbid", 2, seed=4)
        page = seat_pages.open(seat(made, 1)["url"], **PHONE)
        page.wait_for_selector("#live.on")
        assert page.get_attribute("#live", "title") == "live updates: connected"
    page.wait_for_selector("#connection:not([hidden])")
    assert "Lost touch with the server" in page.inner_text("#connection")
    assert "reconnecting" in page.inner_text("#live")
    assert page.get_attribute("#live", "title").startswith("not connected")
    shot(page, "server-lost-phone")
