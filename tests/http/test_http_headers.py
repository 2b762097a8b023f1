"""Headers and origins: a strict Content-Security-Policy on every page, state
changes only as same-origin JSON, join links from the configured public URL
(never from ``Host``); an access log that no path can forge a line in, and
refusals that never repeat a long input in full."""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.pipeline import access_log

# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "adapters" / "gameweave_http" / "static"
CREATE = {"title": "sealedbid", "players": 2}


@pytest.fixture
def app(tmp_path: Path, sealed_registry: Registry) -> Any:
    return create_app(tmp_path / "m.sqlite3", sealed_registry)


@pytest.fixture
def client(app: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            yield c


def csp_of(response: Any) -> dict[str, str]:
    policy = response.headers["content-security-policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:]) for part in policy.split(";") if part.strip()
    }


@pytest.mark.parametrize("path", ["/", "/play/abc", "/replay", "/api/titles", "/nothing"])
def test_every_response_carries_a_strict_csp(client: Any, path: str) -> None:
    csp = csp_of(client.get(path))
    assert csp["frame-ancestors"] == "'none'"
    assert csp["script-src"] == "'self'"  # no inline script, no eval
    assert csp["object-src"] == "'none'" and csp["base-uri"] == "'none'"
    assert "unsafe" not in " ".join(csp.values())


def test_the_hot_routes_carry_the_csp_too(client: Any) -> None:
    created = client.post("/api/matches", json=CREATE).json()
    r = client.get(f"/api/matches/{created['id']}")
    assert r.status_code == 200 and csp_of(r)["frame-ancestors"] == "'none'"


def test_the_pages_have_no_inline_script() -> None:
    for page in STATIC.glob("*.html"):
        text = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"{page.name} has an inline script: {tag}"
        assert not re.search(r"<script\b[^>]*>(?!\s*</script>)", text), page.name
        assert not re.search(r"\son[a-z]+\s*=", text), f"{page.name}: an inline event handler"
        assert "javascript:" not in text


def test_a_cross_site_form_post_creates_nothing(client: Any) -> None:
    # What a page of another site can send without asking the browser first.
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        r = client.post(
            "/api/matches",
            content=b'{"title": "sealedbid", "players": 2}',
            headers={"Content-Type": ctype, "Origin": "https://evil.example"},
        )
        assert r.status_code == 415, r.text
        assert "Content-Type: application/json" in r.json()["error"]
    r = client.post("/api/matches", content=b'{"title": "sealedbid", "players": 2}')
    assert r.status_code == 415
    assert client.get("/api/matches").json() == []


def test_a_json_post_from_another_origin_is_refused(client: Any) -> None:
    r = client.post("/api/matches", json=CREATE, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    created = client.post(
        "/api/matches", json=CREATE, headers={"Origin": "http://testserver"}
    ).json()
    # The hot route is guarded as well.
    t = created["seats"][0]["token"]
    body = {"version": 0, "action": {"type": "bid", "coins": 1}}
    url = f"/api/matches/{created['id']}/actions"
    r = client.post(url, json=body, headers={"X-Seat-Token": t, "Origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post(url, content=b'{"version": 0}', headers={"X-Seat-Token": t})
    assert r.status_code == 415
    assert client.get(f"/api/matches/{created['id']}").json()["version"] == 0
    r = client.post(url, json=body, headers={"X-Seat-Token": t, "Origin": "http://testserver"})
    assert r.status_code == 200
    assert len(client.get("/api/matches").json()) == 1


def test_the_json_content_type_may_carry_a_charset(client: Any) -> None:
    r = client.post(
        "/api/matches",
        content=b'{"title": "sealedbid", "players": 2}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 201


def test_join_links_ignore_the_host_header(client: Any) -> None:
    # A name the server answers to, but not the address the request reached.
    created = client.post("/api/matches", json=CREATE, headers={"Host": "localhost"}).json()
    for url in [created["spectator_url"], *(s["url"] for s in created["seats"])]:
        assert "localhost" not in url
        # The address the request reached, as the socket has it (the test client's).
        assert url.startswith("http://testserver/play/")


def test_join_links_use_the_public_url(tmp_path: Path, sealed_registry: Registry) -> None:
    app = create_app(
        tmp_path / "m.sqlite3", sealed_registry, public_url="https://games.example.org/"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            created = c.post("/api/matches", json=CREATE, headers={"Host": "localhost"}).json()
            # The public URL's origin is this server's too.
            r = c.post("/api/matches", json=CREATE, headers={"Origin": "https://games.example.org"})
            assert r.status_code == 201
    mid = created["id"]
    assert created["spectator_url"] == f"https://games.example.org/play/{mid}"
    seat = created["seats"][0]
    assert seat["url"] == f"https://games.example.org/play/{mid}#token={seat['token']}"


def test_the_access_log_escapes_control_characters(client: Any, caplog: Any) -> None:
    before = access_log.level  # put back as found: other tests log through its parent
    access_log.setLevel(logging.INFO)
    try:
        with caplog.at_level(logging.INFO, logger="gameweave_http.access"):
            client.get("/y%0AINFO%20forged%20line%0D%1B[31m")
            created = client.post("/api/matches", json=CREATE).json()
            client.get(f"/api/matches/{created['id']}%0Aforged")
    finally:
        access_log.setLevel(before)
    lines = [r.getMessage() for r in caplog.records if r.name == "gameweave_http.access"]
    assert len(lines) == 3
    for line in lines:
        assert not re.search(r"[\x00-\x1f\x7f]", line), repr(line)
    assert "/y\\nINFO forged line\\r\\x1b[31m" in lines[0]
    assert "\\nforged" in lines[2]


def test_refusals_do_not_repeat_a_huge_input(client: Any) -> None:
    created = client.post("/api/matches", json=CREATE).json()
    t = created["seats"][0]["token"]
    url = f"/api/matches/{created['id']}/actions"
    huge = "x" * 900_000
    for action in (
        {"type": huge},
        {"type": "bid", "coins": 1, huge: 1},
        {"type": "bid", "at": huge},
    ):
        r = client.post(url, json={"version": 0, "action": action}, headers={"X-Seat-Token": t})
        assert 400 <= r.status_code < 500
        assert len(r.content) < 1000, len(r.content)
    for body in ({"title": huge, "players": 2}, {**CREATE, "config": {huge: 1}}, {huge: 1}):
        r = client.post("/api/matches", json=body)
        assert 400 <= r.status_code < 500 and len(r.content) < 1000
