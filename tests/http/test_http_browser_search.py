"""The play page and the server's search in Debian's headless Chromium: a seat
sees that a bot is thinking, and asks for a hint with a button that shows the
move and how sure the search is."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import search_bots
from search_bots import GATE_ENV, started_file

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.testing import LoopbackServer, SeatPages, create_match, wait_for_version

pytestmark = pytest.mark.browser


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(path))  # before the server starts its workers
    return path


@pytest.fixture
def server(tmp_path: Path, gate: Path, loopback_servers: Any) -> LoopbackServer:
    from gameweave_sealedbid import plugin

    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    reg.add_plugin(search_bots, "searchbots", "tests", "1")
    app = create_app(tmp_path / "browser.sqlite3", reg, dev=True, searches=2)
    server: LoopbackServer = loopback_servers(app)
    return server


def seat_url(server: LoopbackServer, created: dict[str, Any], seat: int) -> str:
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    return f"{server.url}/play/{created['id']}#token={token}"


def test_the_page_shows_a_thinking_bot_and_a_hint(
    server: LoopbackServer, seat_pages: SeatPages, gate: Path, shots: Path
) -> None:
    page = seat_pages.open(width=1000, height=800)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created = create_match(server, "sealedbid", 2, seed=3, bots={"2": "held"})
        deadline = time.monotonic() + 60
        while not started_file(gate).exists():
            assert time.monotonic() < deadline, "the held search did not start"
            time.sleep(0.02)

        page.goto(seat_url(server, created, 1))
        page.wait_for_selector("#thinking:not([hidden])")
        assert page.inner_text("#thinking") == "Seat 2 (Bidder 2) is thinking…"
        assert page.inner_text("#banner") == "Your turn"  # both bid at once

        # A hint while the bot thinks (the pool has a second worker).
        page.click("#hint-button")
        shown = page.locator("#hint").filter(has_text="searches of worlds")
        shown.wait_for()
        text = shown.inner_text()
        assert text.startswith("Hint: bid ") and "% of 160 searches" in text, text
        action = json.loads(page.get_attribute("#hint", "data-action") or "null")
        token = created["seats"][0]["token"]
        same = http.post(
            f"/api/matches/{created['id']}/hint", headers={"X-Seat-Token": token}, json={}
        ).json()
        assert action == same["action"]  # the button shows what the API answers
        # The page rounds halves up, as JavaScript's Math.round does (12.5% shows 13%).
        percent = math.floor(same["share"] * 100 + 0.5)
        assert text.startswith(f"Hint: {same['text']}, chosen in {percent}%")
        page.screenshot(path=str(shots / "sealedbid-hint.png"), full_page=True)

        # The bot bids: no one thinks any more, and the old hint goes.
        gate.touch()
        wait_for_version(page, 1)
        page.wait_for_selector("#thinking", state="hidden")
        page.wait_for_selector("#hint", state="hidden")
        page.click("#hint-button")
        page.locator("#hint").filter(has_text="Hint: bid ").wait_for()

        # A title nothing can search offers no hint.
        blind = create_match(server, "blindbids", 2, seed=3)
        page.goto(seat_url(server, blind, 1))
        wait_for_version(page, 0)
        page.wait_for_selector(".generic .view")
        assert page.is_hidden("#hint-button")
    assert not seat_pages.errors, seat_pages.errors
