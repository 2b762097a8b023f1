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

import httpx
import pytest
from http_support import ThreadServer

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.limits import Limits
from gameweave_http.pipeline import access_log
from gameweave_http.server import uvicorn_options
from gameweave_http.testing import LoopbackServer

# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "adapters" / "gameweave_http" / "static"
CREATE = {"title": "sealedbid", "players": 2}
SAFETY = {"content-security-policy", "referrer-policy", "x-content-type-options", "x-frame-options"}


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


# -- proxies trusted only when told (issue 30, point 3) ----------------------------------------


def serve_over_uvicorn(app: Any, forwarded_allow_ips: list[str]) -> LoopbackServer:
    """``app`` served on uvicorn as ``gameweave serve`` sets it up, trusting the
    proxies ``forwarded_allow_ips`` (none: ``gameweave serve`` without the option)."""
    limits = app.state.settings.limits
    return LoopbackServer(app, **uvicorn_options(limits, forwarded_allow_ips))


def test_forwarded_headers_are_ignored_unless_proxies_are_trusted(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """Without ``--forwarded-allow-ips`` no peer (127.0.0.1 included, which uvicorn
    trusts by default) may name another client or scheme: rotating
    ``X-Forwarded-For`` does not escape the creation limit, and
    ``X-Forwarded-Proto``/``Forwarded`` do not turn join links into https."""
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=Limits(creates_per_minute=2))
    with serve_over_uvicorn(app, []) as server, httpx.Client(base_url=server.url) as http:
        statuses = []
        for i in range(4):
            headers = {
                "X-Forwarded-For": f"203.0.113.{i}",
                "X-Forwarded-Proto": "https",
                "Forwarded": f"for=198.51.100.{i};proto=https",
            }
            r = http.post("/api/matches", json=CREATE, headers=headers)
            statuses.append(r.status_code)
            if r.status_code == 201:
                assert r.json()["spectator_url"].startswith(f"{server.url}/play/"), r.json()
        assert statuses == [201, 201, 429, 429]


def test_a_trusted_proxy_names_the_client_and_the_scheme(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """With ``--forwarded-allow-ips`` naming the peer, the client it forwards for is
    the one the limits count, and the scheme it names is the links'; a proxy
    trusted elsewhere (another address) is not believed here."""
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=Limits(creates_per_minute=1))
    with (
        serve_over_uvicorn(app, ["127.0.0.1"]) as server,
        httpx.Client(base_url=server.url) as http,
    ):
        for i in range(3):
            headers = {"X-Forwarded-For": f"203.0.113.{i}", "X-Forwarded-Proto": "https"}
            r = http.post("/api/matches", json=CREATE, headers=headers)
            assert r.status_code == 201, r.text
            assert r.json()["spectator_url"].startswith("https://127.0.0.1:")
        headers = {"X-Forwarded-For": "203.0.113.0"}
        assert http.post("/api/matches", json=CREATE, headers=headers).status_code == 429
    app = create_app(tmp_path / "n.sqlite3", sealed_registry, limits=Limits(creates_per_minute=1))
    with (
        serve_over_uvicorn(app, ["10.0.0.0/8"]) as server,
        httpx.Client(base_url=server.url) as http,
    ):
        statuses = [
            http.post(
                "/api/matches", json=CREATE, headers={"X-Forwarded-For": f"203.0.113.{i}"}
            ).status_code
            for i in range(2)
        ]
        assert statuses == [201, 429]


# -- the hosts the server answers to (issue 30, point 4) ---------------------------------------


def test_the_server_answers_only_to_the_hosts_it_serves(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """A ``Host`` the server does not serve is refused (400, one line, the safety
    headers): the shape of a DNS-rebinding attack on a server bound to 127.0.0.1
    (``Host`` and ``Origin`` both naming the attacker's site) creates nothing and
    reissues no link. Its own address, ``localhost``, the public URL's host and
    the names it was given are served."""
    app = create_app(
        tmp_path / "m.sqlite3",
        sealed_registry,
        public_url="https://games.example.org",
        allowed_hosts=["Games.Local"],
    )
    with ThreadServer(app) as server, httpx.Client(base_url=server.url) as http:
        port = server.port
        created = http.post("/api/matches", json=CREATE).json()
        mid, host_token = created["id"], created["host_token"]
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        for r in (
            http.post("/api/matches", json=CREATE, headers=evil),
            http.post(
                f"/api/matches/{mid}/seats/1/token",
                json={},
                headers={**evil, "X-Host-Token": host_token},
            ),
            http.get("/", headers={"Host": "evil.example"}),
            http.get("/api/titles", headers={"Host": f"127.0.0.1.evil.example:{port}"}),
            http.get("/api/titles", headers={"Host": "a\\b"}),
        ):
            assert r.status_code == 400, r.text
            error = r.json()["error"]
            assert "does not answer to the host" in error and "\n" not in error
            assert set(r.headers) >= SAFETY, r.headers
        assert len(http.get("/api/matches").json()) == 1  # nothing created
        assert http.get(f"/api/matches/{mid}").status_code == 200
        for host in (
            f"127.0.0.1:{port}",
            f"localhost:{port}",
            "games.example.org",
            "games.local:80",
        ):
            assert http.get("/api/titles", headers={"Host": host}).status_code == 200, host


def test_the_origin_check_compares_against_the_served_hosts(client: Any) -> None:
    """The origin of a ``POST`` must be a host the server answers to, on the port
    the request reached: not whatever ``Host`` says."""
    # The test client reaches the server as http://testserver (port 80).
    for origin in ("http://localhost", "http://testserver", "http://localhost:80"):
        r = client.post("/api/matches", json=CREATE, headers={"Origin": origin})
        assert r.status_code == 201, (origin, r.text)
    for origin in (
        "http://localhost:3000",  # another site on the same machine
        "https://localhost",  # another scheme
        "http://evil.example",
        "http://evil.example@localhost",
        "null",
    ):
        r = client.post("/api/matches", json=CREATE, headers={"Origin": origin})
        assert r.status_code == 403, (origin, r.text)
    assert len(client.get("/api/matches").json()) == 3
