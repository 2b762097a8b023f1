"""A newcomer's first hour, round 3 (issue 39), in the server and the browser: a
mistyped seat link told apart from a replaced one, Museum Rush's lobby seat labels,
and the browser's edges (step numbers, the ⏳ fallback, The Museum Job's map on a
phone, the Rules' actions topics, tap wording, the lobby's default title).

Matches are created with seeds through a development-mode server; screenshots (at
390×844 and at a desktop size) go to ``test-output/browser/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_http_newcomer_browser import DESKTOP, PHONE, registry, seat, shot

from gameweave_http.app import create_app
from gameweave_http.testing import LoopbackServer, SeatPages, create_match, shifted

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture
def server(tmp_path: Path, loopback_servers: Callable[..., LoopbackServer]) -> LoopbackServer:
    """Every title, served in development mode (each test chooses its seeds)."""
    return loopback_servers(create_app(tmp_path / "matches.sqlite3", registry(), dev=True))


def mistyped(token: str) -> str:
    """``token`` with its last character changed, as a hand-copied link may be."""
    return token[:-1] + ("A" if token[-1] != "A" else "B")


# -- 39.3: a mistyped link is not a replaced one ---------------------------------------------


def test_the_server_tells_a_mistyped_token_from_a_replaced_one(server: LoopbackServer) -> None:
    made = create_match(server, "museum", 2, seed=7)
    path = f"{server.url}/api/matches/{made['id']}"
    old = seat(made, 2)["token"]
    typo = httpx.get(path, headers={"X-Seat-Token": mistyped(old)})
    assert typo.status_code == 403
    assert "never opened one" in typo.json()["error"]
    assert "new link" not in typo.json()["error"]
    reissued = httpx.post(
        f"{path}/seats/2/token", headers={"X-Host-Token": made["host_token"]}, json={}
    )
    assert reissued.status_code == 200, reissued.text
    stale = httpx.get(path, headers={"X-Seat-Token": old})
    assert stale.status_code == 403
    assert stale.json()["error"].endswith(
        "any more: whoever created the match gave seat 2 a new link"
    )
    # A mistyped copy of the replaced token is still just mistyped.
    again = httpx.get(path, headers={"X-Seat-Token": mistyped(old)})
    assert "never opened one" in again.json()["error"]


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_a_mistyped_seat_link_is_told_so(
    server: LoopbackServer, seat_pages: SeatPages, size: str
) -> None:
    """Issue 39.3: a link whose token belongs to no seat was told "whoever created the
    match gave that seat a new link"; it now says the link looks mistyped."""
    made = create_match(server, "museum", 2, seed=7)
    url = seat(made, 1)["url"]
    page = seat_pages.open(mistyped(url), **SIZES[size])
    page.wait_for_selector("#banner[data-revoked='mistyped']")
    words = page.inner_text("#banner")
    assert "This link opens no seat of this match" in words and "mistyped" in words
    assert "new link" not in words
    assert page.get_attribute("#banner a.watch", "href") == f"/play/{made['id']}"
    shot(page, f"link-mistyped-{size}")
    # A replaced link still says it was replaced.
    httpx.post(
        f"{server.url}/api/matches/{made['id']}/seats/1/token",
        headers={"X-Host-Token": made["host_token"]},
        json={},
    ).raise_for_status()
    old = seat_pages.open(url, **SIZES[size])
    old.wait_for_selector("#banner[data-revoked='replaced']")
    assert "gave that seat a new link" in old.inner_text("#banner")
    shot(old, f"link-replaced-{size}")
    errors = [e for e in seat_pages.errors if "403" not in e]  # the refused reads, by design
    assert errors == []


# -- 39.4: Museum Rush's seats in the lobby ----------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_museum_rush_seats_read_whole_in_the_lobby(
    server: LoopbackServer, seat_pages: SeatPages, size: str
) -> None:
    """Issue 39.4: Museum Rush names its seats "Seat 1 (The Cat)"; the lobby cut the
    number out of the middle and showed "Seat (The Cat) seat 1"."""
    lobby = seat_pages.open(f"{server.url}/", **SIZES[size])
    lobby.wait_for_selector("body[data-dev='true']")
    lobby.select_option("#title-select", "museumrush")
    lobby.click("#dev-options summary")
    lobby.fill("#seed", str(shifted(4)))
    lobby.click("#create-button")
    lobby.wait_for_selector("#mine .kept-seat[data-seat='2'] .link-label")
    made = httpx.get(f"{server.url}/api/matches").json()
    assert made, made
    read = httpx.get(f"{server.url}/api/matches/{made[0]['id']}").json()
    for entry in read["seats"]:
        number = entry["seat"]
        shown = lobby.inner_text(f"#mine .kept-seat[data-seat='{number}'] .link-label")
        assert "Seat (" not in shown, shown
        thief = entry["label"].removeprefix(f"Seat {number}").strip(" ()")
        assert thief, entry["label"]  # every seat has its thief by now
        assert shown == f"{thief} seat {number}", shown
    shot(lobby, f"lobby-museumrush-{size}")
    assert seat_pages.errors == []


# -- 39.9: the browser's edges -----------------------------------------------------------------


def play_on(server: LoopbackServer, made: dict[str, Any], moves: int) -> None:
    """``moves`` actions through the API, each seat's first legal one in turn."""
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    base = f"{server.url}/api/matches/{made['id']}"
    for _ in range(moves):
        now = httpx.get(base).json()
        if now.get("outcome") or not now["awaiting"]:
            return
        mover = now["awaiting"][0]
        mine = httpx.get(base, headers={"X-Seat-Token": tokens[mover]}).json()
        posted = httpx.post(
            f"{base}/actions",
            headers={"X-Seat-Token": tokens[mover]},
            json={"version": mine["version"], "action": mine["legal"][0]},
        )
        assert posted.status_code == 200, posted.text


#: Whether an ordered list leaves room for its widest number ("123. "): its left
#: padding against the width of that number in the list's own font.
ROOM_FOR_NUMBERS = """(ol) => {
  const probe = document.createElement("span");
  // The marker is the number, a full stop and a space, drawn in the padding.
  const top = ol.hasAttribute("start") ? ol.start : ol.children.length;  // a reversed list's first
  probe.textContent = `${top}. `;
  probe.style.font = getComputedStyle(ol).font;
  probe.style.whiteSpace = "pre";
  probe.style.position = "absolute";
  ol.parentElement.append(probe);
  const wide = probe.getBoundingClientRect().width;
  probe.remove();
  return { padding: parseFloat(getComputedStyle(ol).paddingLeft), number: wide, start: ol.start };
}"""


@pytest.mark.browser
@pytest.mark.parametrize(
    ("title", "players", "history"),
    [("museumheist", 2, ".mh-history ol"), ("masterthief", 3, ".mt-history ol")],
)
def test_history_numbers_keep_their_tens_digit(
    server: LoopbackServer, seat_pages: SeatPages, title: str, players: int, history: str
) -> None:
    """Issue 39.9: the history's step numbers lost their tens digit (a list's padding
    narrower than "10.")."""
    made = create_match(server, title, players, seed=6)
    play_on(server, made, 40)
    for size in SIZES:
        page = seat_pages.open(seat(made, 1)["url"], **SIZES[size])
        page.wait_for_selector(f"{history} li")
        lines = page.locator(f"{history} li").count()
        assert lines >= 10, lines
        room = page.locator(history).evaluate(ROOM_FOR_NUMBERS)
        assert room["number"] <= room["padding"], room
        shot(page, f"history-numbers-{title}-{size}")
    assert seat_pages.errors == []


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_the_house_hourglass_needs_no_emoji_font(
    server: LoopbackServer, seat_pages: SeatPages, size: str
) -> None:
    """Issue 39.9: ⏳ showed as a box where no emoji font is installed; it is drawn."""
    made = create_match(server, "house", 2, seed=3)
    page = seat_pages.open(seat(made, 1)["url"], **SIZES[size])
    page.wait_for_selector(".hj-pending h3")
    heading = page.locator(".hj-pending h3")
    assert "⏳" not in heading.inner_text()
    glass = heading.locator("svg.hj-hourglass")
    assert glass.get_attribute("aria-label") == "hourglass"
    box = glass.bounding_box()
    assert box is not None and box["width"] > 4 and box["height"] > 8
    shot(page, f"house-hourglass-{size}")
    assert seat_pages.errors == []


@pytest.mark.browser
def test_the_museum_map_on_a_phone(server: LoopbackServer, seat_pages: SeatPages) -> None:
    """Issue 39.9: The Museum Job on a phone showed ~19 px squares."""
    made = create_match(server, "museum", 2, seed=7)
    page = seat_pages.open(seat(made, 1)["url"], **PHONE)
    page.wait_for_selector(".mj-map .mj-floor")
    square = page.locator(".mj-map .mj-floor").first.bounding_box()
    scroller = page.locator(".mj-map-scroll")
    shot(page, "museum-map-phone")
    assert square is not None and square["width"] >= 24, square
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_the_rules_actions_topic_speaks_of_the_page(
    server: LoopbackServer, seat_pages: SeatPages, size: str
) -> None:
    """Issue 39.9: the in-game Rules' actions topic told of typed commands only."""
    made = create_match(server, "museum", 2, seed=7)
    page = seat_pages.open(seat(made, 1)["url"], **SIZES[size])
    page.wait_for_selector("#rules-button")
    page.click("#rules-button")
    page.click(".rules-topic[data-topic='actions']")
    note = page.locator(".rules-body .rules-on-page")
    words = note.inner_text()
    assert "buttons" in words and "type to play in a terminal" in words
    assert ("tapping" if size == "phone" else "clicking") in words
    shot(page, f"rules-actions-{size}")
    assert seat_pages.errors == []


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_opens_on_the_museum_job(
    server: LoopbackServer, seat_pages: SeatPages, size: str
) -> None:
    """Issue 39.9: the lobby chose The House Job (first by name); the README starts
    with The Museum Job."""
    lobby = seat_pages.open(f"{server.url}/", **SIZES[size])
    lobby.wait_for_selector("body[data-dev]")
    assert lobby.input_value("#title-select") == "museum"
    shot(lobby, f"lobby-default-{size}")
    other = seat_pages.open(f"{server.url}/?title=house", **SIZES[size])
    other.wait_for_selector("body[data-dev]")
    assert other.input_value("#title-select") == "house"
    assert seat_pages.errors == []


@pytest.mark.browser
def test_master_thief_says_tap_on_a_phone(server: LoopbackServer, seat_pages: SeatPages) -> None:
    made = create_match(server, "masterthief", 3, seed=6)
    play_on(server, made, 3)
    now = httpx.get(f"{server.url}/api/matches/{made['id']}").json()
    mover = now["awaiting"][0]
    phone = seat_pages.open(seat(made, mover)["url"], **PHONE)
    desk = seat_pages.open(seat(made, mover)["url"], **DESKTOP)
    for page in (phone, desk):
        page.wait_for_selector(".mt-hint, .mt")
    hint = phone.inner_text(".mt")
    assert "Click" not in hint and "click" not in hint, hint
    shot(phone, "masterthief-tap-phone")
