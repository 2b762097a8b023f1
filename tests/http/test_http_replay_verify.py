"""The browser replay verifies a log as ``gameweave replay --verify`` does (issue 39.1):
``POST /api/replay/verify`` answers with the core's :meth:`Match.verified`, saying
where and why it stopped (an entry edited, other rules, a log cut short), and the
/replay page shows that verdict and only the steps the rules reproduced.

Screenshots of the page go to ``test-output/browser/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from starlette.testclient import TestClient

from gameweave_core import Match, MatchLog, Registry
from gameweave_http.app import create_app
from gameweave_http.testing import LoopbackServer, SeatPages

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "browser"
PHONE: dict[str, Any] = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
DESKTOP: dict[str, Any] = {"width": 1280, "height": 900}
JSON = {"Content-Type": "application/json"}
STEPS = 8


def registry() -> Registry:
    from gameweave_museum import plugin as museum

    reg = Registry()
    reg.add_plugin(museum, "museum", "gameweave-museum", "test")
    return reg


def good_log(reg: Registry) -> MatchLog:
    """Eight actions of The Museum Job, recorded by the installed distribution."""
    entry = reg.entry("museum")
    match = Match(
        entry.title,
        2,
        5,
        distribution=entry.distribution,
        distribution_version=entry.distribution_version,
    )
    while match.step < STEPS:
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    return match.to_log()


def edited(log: MatchLog, index: int) -> str:
    """The log with the digest of entry ``index`` changed by one character."""
    entries = list(log.actions)
    old = entries[index - 1]
    assert old.digest is not None
    flipped = "0" if old.digest[-1] != "0" else "1"
    entries[index - 1] = attrs.evolve(old, digest=old.digest[:-1] + flipped)
    return attrs.evolve(log, actions=entries).to_toml()


def cut_in_action(text: str) -> str:
    """The log cut inside its last entry's action table (after its first field)."""
    start = text.rindex("[actions.action]")
    first = text.index("\n", text.index("\n", start) + 1)
    return text[: first + 1]


def cut_in_fields(text: str) -> str:
    """The log cut after the last entry's index, before its seat and action."""
    start = text.rindex("[[actions]]")
    return text[: text.index("\n", text.index("\n", start) + 1) + 1]


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(tmp_path / "m.sqlite3", registry(), dev=True)) as c:
        yield c


def verify(client: Any, text: str) -> dict[str, Any]:
    r = client.post("/api/replay/verify", json={"log": text}, headers=JSON)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_log_as_recorded_verifies(client: Any) -> None:
    v = verify(client, good_log(registry()).to_toml())
    assert v["verified"] is True
    assert (v["steps"], v["checked"], v["good"], v["problem"]) == (STEPS, STEPS, STEPS, None)
    assert v["rules"] is None


def test_an_edited_digest_stops_the_verification_at_its_entry(client: Any) -> None:
    v = verify(client, edited(good_log(registry()), 3))
    assert v["verified"] is False
    assert (v["at"], v["good"], v["problem"], v["mismatch"]) == (3, 2, "edited", True)
    assert "this entry was edited" in v["message"]


def test_other_rules_are_named_as_the_reason(client: Any) -> None:
    log = good_log(registry())
    older = attrs.evolve(log, title_version="3")
    v = verify(client, edited(older, 5))
    assert (v["verified"], v["at"], v["problem"]) == (False, 5, "rules")
    assert "museum 3" in v["rules"] and "the rules changed" in v["rules"]
    # Other rules that still reproduce every digest: verified, the difference said.
    same = verify(client, older.to_toml())
    assert same["verified"] is True and "the rules changed" in same["rules"]


def test_a_log_cut_mid_entry_is_told_as_cut(client: Any) -> None:
    text = good_log(registry()).to_toml()
    in_action = verify(client, cut_in_action(text))
    assert (in_action["verified"], in_action["problem"]) == (False, "cut")
    assert (in_action["at"], in_action["good"], in_action["steps"]) == (STEPS, STEPS - 1, STEPS)
    assert "ends mid-entry" in in_action["message"]
    in_fields = verify(client, cut_in_fields(text))
    assert (in_fields["problem"], in_fields["at"], in_fields["steps"]) == ("cut", STEPS, None)


def test_a_log_missing_a_digest_cannot_be_verified(client: Any) -> None:
    log = good_log(registry())
    entries = list(log.actions)
    entries[1] = attrs.evolve(entries[1], digest=None)
    v = verify(client, attrs.evolve(log, actions=entries).to_toml())
    assert (v["verified"], v["problem"], v["at"]) == (False, "unverifiable", None)
    assert "has no digest" in v["message"]


def test_what_is_not_a_log_is_refused_in_one_line(client: Any) -> None:
    r = client.post("/api/replay/verify", json={"log": "title = 'x"}, headers=JSON)
    assert r.status_code == 422  # as the replay route refuses it
    assert "not valid TOML" in r.json()["error"]


# -- the page ----------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path, loopback_servers: Callable[..., LoopbackServer]) -> LoopbackServer:
    return loopback_servers(create_app(tmp_path / "matches.sqlite3", registry(), dev=True))


def open_log(page: Any, name: str, text: str) -> str:
    page.set_input_files(
        "#file", files=[{"name": name, "mimeType": "text/plain", "buffer": text.encode()}]
    )
    page.wait_for_selector("body[data-verified]")
    return str(page.inner_text("#verify"))


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_replay_page_says_where_and_why_a_log_stops(
    server: LoopbackServer, seat_pages: SeatPages, size: str
) -> None:
    """Issue 39.1: the page played every step of a tampered or truncated log with no
    warning; it now shows what ``replay --verify`` finds and only the steps before."""
    log = good_log(registry())
    page = seat_pages.open(f"{server.url}/replay", **(PHONE if size == "phone" else DESKTOP))
    SHOTS.mkdir(parents=True, exist_ok=True)

    said = open_log(page, "good.toml", log.to_toml())
    assert said.startswith(f"Verified: all {STEPS} steps"), said
    page.wait_for_selector("body[data-step='0']")
    assert page.get_attribute("#slider", "max") == str(STEPS)
    page.screenshot(path=str(SHOTS / f"replay-verified-{size}.png"), full_page=True)

    page.evaluate("delete document.body.dataset.verified")
    said = open_log(page, "edited.toml", edited(log, 3))
    assert "stopped at step 3 of 8" in said and "This entry was edited" in said, said
    assert "Only steps 0 to 2 are shown" in said
    assert page.get_attribute("#verify", "class") == "verify bad"
    page.wait_for_selector("#slider:not([disabled])")
    assert page.get_attribute("#slider", "max") == "2"
    page.click("#next")
    page.click("#next")
    page.click("#next")
    page.wait_for_selector("body[data-step='2']")
    page.screenshot(path=str(SHOTS / f"replay-edited-{size}.png"), full_page=True)

    page.evaluate("delete document.body.dataset.verified")
    said = open_log(page, "cut.toml", cut_in_action(log.to_toml()))
    assert "stopped at step 8 of 8" in said and "The log ends mid-entry" in said, said
    page.wait_for_selector("#slider:not([disabled])")
    assert page.get_attribute("#slider", "max") == "7"
    page.screenshot(path=str(SHOTS / f"replay-cut-{size}.png"), full_page=True)

    page.evaluate("delete document.body.dataset.verified")
    said = open_log(page, "older.toml", edited(attrs.evolve(log, title_version="3"), 5))
    assert "made with other rules" in said and "museum 3" in said and "stopped at step 5" in said, (
        said
    )
    page.screenshot(path=str(SHOTS / f"replay-rules-{size}.png"), full_page=True)
    assert seat_pages.errors == []
