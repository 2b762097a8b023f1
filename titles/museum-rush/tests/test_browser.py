"""Museum Rush in Chromium (Debian's, driven by Playwright): a match made through the
HTTP API, played by clicking rooms and buttons; a seat's Buyer and hand stay on its
own page; the page fits a 390 px phone. Screenshots go to test-output/screenshots/
at the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from gameweave_museumrush import plugin

from gameweave_http.testing import (
    LoopbackServer,
    SeatPages,
    create_match,
    page_version,
    shifted,
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


# -- issue 39.2: the board speaks its coordinates ------------------------------------------

#: The action types whose buttons name a Guard.
GUARD_ACTIONS = ("security", "lure", "route")


def to_a_guard_choice(seed: int) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """Actions (seat, JSON) that bring a 2-seat match of ``seed`` to a turn where a seat
    may move a Guard, and that seat: random legal play, trying a few draws."""
    from gameweave_core import Match, Registry, Rng

    reg = Registry()
    reg.add_plugin(plugin, "museumrush", "gameweave-museumrush", "test")
    title = reg.title("museumrush")
    for draw in range(1, 60):
        match = Match(title, 2, seed)
        rng = Rng(draw)
        done: list[tuple[int, dict[str, Any]]] = []
        while match.awaiting and match.step < 300:
            seat = match.awaiting[0]
            legal = [title.codec.to_json(a) for a in match.legal_actions(seat)]
            if any(a["type"] in GUARD_ACTIONS and a.get("guard", -1) >= 0 for a in legal):
                return done, seat
            chosen = rng.choice(legal)
            match.submit(seat, title.codec.from_json(chosen))
            done.append((seat, chosen))
    raise AssertionError(f"no Guard could be moved in 60 random games of seed {seed}")


def test_rooms_are_buttons_named_by_their_coordinates(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path
) -> None:
    """Tiles showed room names only ("Gifts") while the hint, thieves' table and
    history say D4; they were clickable divs a keyboard could not reach."""
    made = create_match(server, "museumrush", 2, seed=4, bots=[2])
    page = open_seat(seat_pages, made["seats"][0]["url"])
    page.wait_for_selector(".mr-tile.target")
    view = payload(page)["view"]
    tiles = page.locator(".mr-tile")
    for i in range(tiles.count()):
        tile = tiles.nth(i)
        at = tile.get_attribute("data-at")
        assert tile.evaluate("t => t.tagName") == "BUTTON"
        assert tile.locator(".mr-at").inner_text() == at
        assert str(tile.get_attribute("aria-label")).startswith(f"{at} ")
    assert {t["at"] for t in view["grid"]} == set(
        tiles.evaluate_all("ts => ts.map(t => t.dataset.at)")
    )
    # Only the legal rooms take a click or a key press.
    legal = {a["at"] for a in payload(page)["legal"] if a["type"] == "breakin"}
    enabled = set(page.locator(".mr-tile:enabled").evaluate_all("ts => ts.map(t => t.dataset.at)"))
    assert enabled == legal
    # Tab from the page's start reaches a room to break in at; Enter breaks in there.
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement && document.activeElement.dataset.at")
        if focused:
            break
    assert focused in legal, focused
    page.screenshot(path=str(shots / "museumrush-keyboard-focus.png"), full_page=True)
    before = page_version(page)
    page.keyboard.press("Enter")
    wait_for_new_version(page, before)
    page.wait_for_selector(f".mr-tile[data-at='{focused}'] .mr-thief[data-seat='1']")
    assert f"{focused}" in page.inner_text(".mr-history")
    assert seat_pages.errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_guards_are_numbered_as_the_board_shows_them(
    server: LoopbackServer, seat_pages: SeatPages, shots: Path, width: int
) -> None:
    """Security's buttons said "Guard 0 to E2" (numbered from 0) while the board showed
    each Guard as a bare "G"; the board now marks G1, G2… and the buttons match."""
    made = create_match(server, "museumrush", 2, seed=1)
    actions, mover = to_a_guard_choice(shifted(1))
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    base = f"{server.url}/api/matches/{made['id']}"
    for seat, action in actions:
        now = httpx.get(base).json()
        posted = httpx.post(
            f"{base}/actions",
            headers={"X-Seat-Token": tokens[seat]},
            json={"version": now["version"], "action": action},
        )
        assert posted.status_code == 200, posted.text
    url = next(s["url"] for s in made["seats"] if s["seat"] == mover)
    page = open_seat(seat_pages, url, width=width)
    page.wait_for_selector(".mr-action")
    view = payload(page)["view"]
    for guard in view["guards"]:
        mark = page.locator(
            f".mr-tile[data-at='{guard['at']}'] .mr-guard[data-guard='{guard['id']}']"
        )
        assert mark.inner_text() == f"G{guard['id'] + 1}"
    buttons = page.locator(".mr-action").all_inner_texts()
    named = [b for b in buttons if "Guard" in b]
    assert named, buttons
    on_board = {f"Guard {g['id'] + 1}" for g in view["guards"]}
    for text in named:
        assert any(name in text for name in on_board), (text, on_board)
        assert "Guard 0" not in text
    page.screenshot(path=str(shots / f"museumrush-guards-{width}.png"), full_page=True)
    assert seat_pages.errors == []
