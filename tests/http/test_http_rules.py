"""A title's rules in the browser: ``GET /api/titles/{name}/rules``, the rules
panel opened by a tap on a phone, the Museum's legend (the symbols table the
server hands out), and the generic renderer explaining each choice it offers."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.testing import LoopbackServer, SeatPages, create_match, wait_for_version
from gameweave_museum import plugin as museum_plugin
from gameweave_museum import symbols
from gameweave_museum.rules_text import TOPICS
from gameweave_sealedbid import plugin as sealed_plugin
from gameweave_sealedbid.title import SealedBid

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

#: A phone: 390 CSS px wide, touch, no hover.
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

BID_HELP = "seal a bid of that many coins for this lot"


class RuledBid(SealedBid):
    """Sealed Bids with rules text (it has no renderer: the generic one draws it)."""

    name = "ruledbid"
    display_name = "Ruled Bids"

    def rules_text(self) -> Mapping[str, str]:
        return {
            "overview": "Five lots, bid for in **secret**.",
            "actions": f"What each choice means:\n\n- `bid 3`: {BID_HELP}.",
        }


class PlainBids(SealedBid):
    """Sealed Bids without rules text (its own has some)."""

    name = "plainbids"
    display_name = "Plain Bids"

    def rules_text(self) -> Mapping[str, str]:
        return {}  # no rules text


@pytest.fixture
def registry() -> Registry:
    reg = Registry()
    reg.add_plugin(museum_plugin, "museum", "gameweave", "test")
    reg.add_plugin(sealed_plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    reg.add_title(RuledBid(), "gameweave-tests", "0")
    reg.add_title(PlainBids(), "gameweave-tests", "0")
    return reg


@pytest.fixture
def client(tmp_path: Path, registry: Registry) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(tmp_path / "rules.sqlite3", registry)) as c:
            yield c


@pytest.fixture
def server(tmp_path: Path, registry: Registry, loopback_servers: Any) -> LoopbackServer:
    # Development mode: the tests choose each match's seed.
    server: LoopbackServer = loopback_servers(
        create_app(tmp_path / "rules.sqlite3", registry, dev=True)
    )
    return server


# -- the route ------------------------------------------------------------------------------


def test_the_rules_route_serves_the_titles_topics_in_order(client: TestClient) -> None:
    got = client.get("/api/titles/museum/rules")
    assert got.status_code == 200
    assert got.json() == {
        "title": "museum",
        "topics": [{"name": name, "text": text} for name, text in TOPICS.items()],
    }


@pytest.mark.parametrize(
    ("name", "words"),
    [("nothing", "no title named 'nothing' is installed"), ("plainbids", "no rules text")],
)
def test_no_rules_is_a_one_line_404(client: TestClient, name: str, words: str) -> None:
    got = client.get(f"/api/titles/{name}/rules")
    assert got.status_code == 404
    error = got.json()["error"]
    assert words in error and "\n" not in error


def test_titles_name_their_seats_by_player_count(client: TestClient) -> None:
    titles = {t["name"]: t for t in client.get("/api/titles").json()}
    museum = titles["museum"]["seat_labels"]
    assert museum["2"] == ["Thief", "Security 2"]
    assert set(museum) == {"2", "3", "4"} and len(museum["4"]) == 4
    assert titles["sealedbid"]["seat_labels"]["3"] == ["Bidder 1", "Bidder 2", "Bidder 3"]


def test_the_browser_is_served_the_symbols_table(client: TestClient) -> None:
    got = client.get("/titles/museum/symbols.js")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/javascript")
    assert got.text == symbols.web_module()


# -- on a phone ------------------------------------------------------------------------------


def phone(seat_pages: SeatPages) -> Any:
    return seat_pages.page(seat_pages.new_context(**PHONE))


def thief_page(seat_pages: SeatPages, server: LoopbackServer) -> Any:
    """The Thief's page of a new match against a Security bot, on a phone."""
    created = create_match(server, "museum", 2, seed=21, bots=[2])
    page = phone(seat_pages)
    page.goto(created["seats"][0]["url"])
    page.wait_for_selector(".mj-map")
    page.wait_for_selector("#banner.yours")
    return page


@pytest.mark.browser
def test_the_rules_panel_opens_by_tap_on_a_phone(
    seat_pages: SeatPages, server: LoopbackServer
) -> None:
    page = thief_page(seat_pages, server)
    page.wait_for_selector("body[data-rules='ready']", state="attached")
    assert page.locator("#rules").is_hidden()
    page.tap("#rules-button")
    page.wait_for_selector(".rules-topic")
    assert page.locator(".rules-topic").all_inner_texts() == list(TOPICS)
    assert page.get_attribute(".rules-body", "data-topic") == "overview"
    assert "One Thief against the night watch" in page.inner_text(".rules-body")
    page.tap(".rules-topic[data-topic='crown']")
    page.wait_for_selector(".rules-body[data-topic='crown']")
    body = page.inner_text(".rules-body")
    assert "North wing's breaker" in body and "**" not in body  # Markdown drawn, not shown
    # The overview's `rules cuts` (what a terminal types) is a button here.
    page.tap(".rules-topic[data-topic='overview']")
    page.tap(".rules-body .rules-link[data-topic='cuts']")
    page.wait_for_selector(".rules-body[data-topic='cuts']")
    assert page.get_attribute(".rules-topic.on", "data-topic") == "cuts"
    page.tap(".rules-topic[data-topic='actions']")
    assert "walk SQUARE cut" in page.locator(".rules-body code").all_inner_texts()
    page.tap(".rules-close")
    assert page.locator("#rules").is_hidden()
    assert seat_pages.errors == []


@pytest.mark.browser
def test_the_legend_opens_by_tap_and_is_the_symbols_table(
    seat_pages: SeatPages, server: LoopbackServer
) -> None:
    page = thief_page(seat_pages, server)
    assert page.locator(".mj-legend-squares").is_hidden()
    page.tap(".mj-legend summary")
    page.wait_for_selector(".mj-legend-squares")
    rows = page.locator(".mj-legend-squares li")
    assert [rows.nth(i).get_attribute("data-kind") for i in range(rows.count())] == [
        s.kind for s in symbols.SQUARES
    ]
    assert page.locator(".mj-legend-squares .mj-glyph").all_inner_texts() == [
        s.glyph for s in symbols.SQUARES
    ]
    assert page.locator(".mj-legend-squares .mj-legend-name").all_inner_texts() == [
        s.name for s in symbols.SQUARES
    ]
    drawn_colours = page.eval_on_selector_all(
        ".mj-legend-squares .mj-glyph", "nodes => nodes.map(n => getComputedStyle(n).color)"
    )
    assert drawn_colours == [rgb(s.colour) for s in symbols.SQUARES]
    assert page.locator(".mj-legend-evidence .mj-glyph").all_inner_texts() == [
        s.glyph for s in symbols.EVIDENCE
    ]
    # The map draws the same letters in the same colours.
    for kind in ("door", "window", "skylight"):
        texts = page.locator(f".mj-exit[data-kind='{kind}'] text")
        assert texts.count() >= 1
        assert set(texts.all_text_contents()) == {symbols.glyph(kind)}  # SVG: no innerText
        assert texts.first.get_attribute("fill") == symbols.colour(kind)
    cam = page.locator(".mj-camera[data-camera='7']")
    assert cam.locator("text").text_content() == "c7"
    assert cam.locator("circle").get_attribute("fill") == symbols.colour("camera")
    # Squares a finger can tap: more than the 17.5 CSS px of the whole map at 390 px.
    size = page.eval_on_selector(".mj-square", "n => n.getBoundingClientRect().width")
    assert size >= 22, size
    assert "Swipe the map sideways" in page.inner_text(".mj-swipe")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
    # The legend stays open when the page redraws after a move.
    before = int(page.get_attribute("body", "data-version"))
    door = page.get_attribute(".mj-exit[data-kind='door']", "data-exit")
    page.tap(f".mj-square[data-square='{door}']")
    page.wait_for_selector(".mj-option")
    # The menu says what its choice does, from the rules' actions topic.
    assert page.inner_text(".mj-option-row .mj-help").startswith("your first move: break in")
    page.tap(".mj-option")
    wait_for_version(page, before + 1)
    assert "hold" in page.get_attribute(".mj-simple-row", "data-label")
    page.wait_for_selector(".mj-simple-row .mj-help")
    assert page.inner_text(".mj-simple-row .mj-help") == "stay where you are and do nothing."
    assert page.locator(".mj-legend-squares").is_visible()
    assert seat_pages.errors == []


def rgb(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.browser
def test_the_lobby_shows_a_titles_rules_by_tap(
    seat_pages: SeatPages, server: LoopbackServer
) -> None:
    page = phone(seat_pages)
    page.goto(server.url + "/")
    page.select_option("#title-select", "museum")
    page.tap("#rules-button")
    page.wait_for_selector(".rules-body[data-topic='overview']")
    assert "How to play The Museum Job" in page.inner_text("#rules")
    page.tap("#rules-button")  # the same button closes it
    assert page.locator("#rules").is_hidden()
    page.select_option("#title-select", "plainbids")
    page.tap("#rules-button")
    page.wait_for_selector("#rules :text('ships no rules text')")
    assert seat_pages.errors == []


@pytest.mark.browser
def test_the_generic_renderer_explains_each_choice(
    seat_pages: SeatPages, server: LoopbackServer
) -> None:
    created = create_match(server, "ruledbid", 2, seed=21, bots=[2])
    page = phone(seat_pages)
    page.goto(created["seats"][0]["url"])
    page.wait_for_selector("button.action .action-help")
    assert page.get_attribute("body", "data-renderer") == "generic"
    buttons = page.locator("button.action")
    assert buttons.count() > 1
    for i in range(buttons.count()):
        button = buttons.nth(i)
        assert button.inner_text().startswith("bid ")
        assert button.locator(".action-help").inner_text() == f"{BID_HELP}."
    assert seat_pages.errors == []
