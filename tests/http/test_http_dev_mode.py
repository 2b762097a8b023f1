"""Who may fix the hidden information: outside development mode the server alone
draws a match's seed and no client may set a title's test-only options (both
would let the match's creator know every secret); ``serve(dev=True)`` /
``gameweave serve --dev`` allows both, for tests and debugging."""

from __future__ import annotations

import sys
import types
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_sealedbid.title import SealedBid

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LOTS = [9, 1, 8, 2, 7]


class Paced(SealedBid):
    """Sealed Bids with one option players may choose beside the test-only lots."""

    name = "paced"
    default_config: ClassVar[Mapping[str, Any]] = {"lots": [], "pace": 1}


def registry() -> Registry:
    reg = Registry()
    reg.add_title(SealedBid(), "test", "1")
    reg.add_title(Paced(), "test", "1")
    return reg


# Without a chosen seed the server draws one: from a fixed sequence here (the
# fresh_seeds fixture), so these tests play the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")


@pytest.fixture(params=[False, True], ids=["production", "dev"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    built = create_app(tmp_path / "m.sqlite3", registry(), dev=request.param)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(built) as client:
            yield client
    built.state.store.close()


def refused(response: Any, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error"}
    message = response.json()["error"]
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_a_chosen_seed_needs_development_mode(app: Any) -> None:
    dev = app.app.state.settings.dev
    r = app.post("/api/matches", json={"title": "sealedbid", "players": 2, "seed": 5})
    if dev:
        assert r.status_code == 201, r.text
        assert app.app.state.store.load(r.json()["id"]).seed == 5
    else:
        refused(r, 403, '"seed"', "--dev")
        assert app.get("/api/matches").json() == []  # nothing was created
    # No seed (or null): the server draws one, in either mode, and never tells it.
    for body in ({}, {"seed": None}):
        r = app.post("/api/matches", json={"title": "sealedbid", "players": 2, **body})
        assert r.status_code == 201 and "seed" not in r.json()


@pytest.mark.parametrize("title", ["sealedbid", "paced"])
def test_test_only_options_need_development_mode(app: Any, title: str) -> None:
    dev = app.app.state.settings.dev
    r = app.post("/api/matches", json={"title": title, "players": 2, "config": {"lots": LOTS}})
    if dev:
        for lots in (LOTS, LOTS[::-1]):
            r = app.post(
                "/api/matches", json={"title": title, "players": 2, "config": {"lots": lots}}
            )
            assert r.status_code == 201, r.text
            stored = app.app.state.store.load(r.json()["id"])
            assert stored.config["lots"] == lots
            # The stacked lots really are the ones auctioned.
            assert app.get(f"/api/matches/{stored.id}").json()["view"]["lot"] == lots[0]
    else:
        refused(r, 403, "'lots'", "tests only", "--dev")
        assert app.get("/api/matches").json() == []


def test_offered_options_are_taken_in_either_mode(app: Any) -> None:
    r = app.post("/api/matches", json={"title": "paced", "players": 2, "config": {"pace": 3}})
    assert r.status_code == 201, r.text
    assert app.app.state.store.load(r.json()["id"]).config == {"lots": [], "pace": 3}
    # Unknown options are the title's to refuse, as before.
    refused(
        app.post("/api/matches", json={"title": "paced", "players": 2, "config": {"x": 1}}),
        422,
        "x",
    )


def test_titles_offer_only_the_options_players_may_choose(app: Any) -> None:
    offered = {t["name"]: t["config"] for t in app.get("/api/titles").json()}
    assert offered == {"sealedbid": {}, "paced": {"pace": 1}}
    assert app.get("/api/server").json() == {"dev": app.app.state.settings.dev}


def test_the_openapi_document_says_what_development_mode_allows(app: Any) -> None:
    doc = app.get("/api/openapi.json").json()
    create = doc["paths"]["/api/matches"]["post"]
    assert "403" in create["responses"]
    props = doc["components"]["schemas"]["CreateMatch"]["properties"]
    assert "--dev" in props["seed"]["description"]
    assert "test-only" in props["config"]["description"]
    assert "/api/server" in doc["paths"]


def test_serve_passes_dev_to_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from gameweave_http import server

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    monkeypatch.setattr(server, "create_app", lambda db, **kw: create_app(db, registry(), **kw))
    # serve() sets the collector up for a server process: the tests' keeps its own.
    monkeypatch.setattr(server, "collect_less", lambda: None)
    for dev in (False, True):
        server.serve(port=0, db=tmp_path / f"{dev}.sqlite3", dev=dev)
        assert served[-1].state.settings.dev is dev
        served[-1].state.store.close()


def test_gameweave_serve_dev_reaches_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gameweave_cli.app import app

    calls: list[dict[str, Any]] = []
    fake = types.ModuleType("gameweave_http.server")
    fake.serve = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gameweave_http.server", fake)
    # Whether port 8000 is free on this machine is not what is tested here.
    monkeypatch.setattr("gameweave_http.commands.listen_refusal", lambda host, port: None)
    runner = CliRunner()
    assert runner.invoke(app, ["serve", "--dev"]).exit_code == 0
    assert runner.invoke(app, ["serve"]).exit_code == 0
    assert calls[0]["dev"] is True
    assert "dev" not in calls[1]  # the server's own default: off
