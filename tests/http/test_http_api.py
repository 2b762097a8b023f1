"""The JSON API, route by route, and every kind of bad input it must refuse.

Each refusal is checked three ways: a 4xx status, a one-line JSON ``error`` that
says what is wrong, and nothing changed (every seat's payload and the stored
actions are the same before and after).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Match, MatchLog, Registry
from gameweave_http.app import create_app

SEED = 1234
#: The header every POST carries (the server refuses others, 415).
JSON = {"Content-Type": "application/json"}


def create(client: Any, players: int = 2, *, seed: int = SEED, **extra: Any) -> dict[str, Any]:
    request = {"title": "sealedbid", "players": players, "seed": seed, **extra}
    r = client.post("/api/matches", json=request)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def token(created: dict[str, Any], seat: int) -> str:
    return str(created["seats"][seat - 1]["token"])


def read(client: Any, match_id: str, tok: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": tok} if tok else {}
    r = client.get(f"/api/matches/{match_id}", headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def act(client: Any, match_id: str, tok: str | None, version: Any, action: Any) -> Any:
    headers = {"X-Seat-Token": tok} if tok else {}
    return client.post(
        f"/api/matches/{match_id}/actions",
        headers=headers,
        json={"version": version, "action": action},
    )


def snapshot(client: Any, created: dict[str, Any]) -> Any:
    """Every seat's payload, the spectator's, and the stored actions."""
    mid = created["id"]
    seats = [read(client, mid, s.get("token")) for s in created["seats"]]
    stored = client.app.state.store.load(mid).actions
    return seats, read(client, mid), stored


def refused(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    message = body["error"]
    assert isinstance(message, str) and message and "\n" not in message
    for word in words:
        assert word in message, message
    return message


# -- pages and static files -------------------------------------------------------------


def test_pages_and_static_files_are_served(client: Any) -> None:
    for path, marker in [("/", "lobby.js"), ("/play/abc", "play.js"), ("/replay", "replay.js")]:
        r = client.get(path)
        assert r.status_code == 200 and marker in r.text
        assert r.headers["referrer-policy"] == "no-referrer"
    for path in ["/static/js/generic.js", "/static/js/api.js", "/static/css/app.css"]:
        assert client.get(path).status_code == 200
    refused(client.get("/static/nope.js"), 404)


def test_unknown_route_and_method_are_json_errors(client: Any) -> None:
    refused(client.get("/api/nothing"), 404, "/api/nothing")
    refused(client.delete("/api/titles"), 405, "DELETE")
    refused(client.put("/api/matches"), 405, "PUT")


# -- titles and the OpenAPI document -------------------------------------------------------


def test_titles_lists_installed_titles(client: Any) -> None:
    titles = client.get("/api/titles").json()
    assert [t["name"] for t in titles] == ["sealedbid"]
    (sealed,) = titles
    assert sealed["min_players"] == 2 and sealed["max_players"] == 4
    assert sealed["bots"] == ["ismcts", "random", "thrifty"] and sealed["default_bot"] == "thrifty"
    assert "renderer" not in sealed  # Sealed Bids ships none: the generic one draws it


def test_openapi_document_names_every_api_route(client: Any) -> None:
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {
        "/api/titles",
        "/api/titles/{name}/rules",
        "/api/server",
        "/api/matches",
        "/api/matches/{match_id}",
        "/api/matches/{match_id}/actions",
        "/api/matches/{match_id}/events",
        "/api/matches/{match_id}/socket",
        "/api/matches/{match_id}/log",
        "/api/matches/{match_id}/hint",
        "/api/matches/{match_id}/seats/{seat}/token",
        "/api/replay",
        "/api/replay/verify",
        "/api/openapi.json",
    }
    from gameweave_http import routes

    sealed = client.app.state.registry.title("sealedbid")
    assert routes.schema(["sealedbid"], sealed.codec.types) == doc
    # An action is one of the title's, with exactly its fields.
    (bid,) = doc["components"]["schemas"]["Action"]["oneOf"]
    assert bid["required"] == ["type", "coins"] and bid["additionalProperties"] is False
    assert bid["properties"] == {"type": {"const": "bid"}, "coins": {"type": "integer"}}
    title = doc["components"]["schemas"]["CreateMatch"]["properties"]["title"]
    assert title["enum"] == ["sealedbid"]
    assert (
        "enum" not in routes.schema()["components"]["schemas"]["CreateMatch"]["properties"]["title"]
    )


# -- creating ----------------------------------------------------------------------------------


def test_create_gives_one_secret_link_per_human_seat(client: Any) -> None:
    created = create(client, players=3, bots=[3], seed=SEED)
    assert created["players"] == 3 and created["title"] == "sealedbid"
    humans = created["seats"][:2]
    assert [s["seat"] for s in created["seats"]] == [1, 2, 3]
    assert all(len(s["token"]) >= 32 for s in humans)
    assert humans[0]["token"] != humans[1]["token"]
    assert humans[0]["url"].endswith(f"/play/{created['id']}#token={humans[0]['token']}")
    assert created["seats"][2] == {"seat": 3, "label": "Bidder 3", "bot": "thrifty"}
    assert created["spectator_url"].endswith(f"/play/{created['id']}")
    assert "seed" not in created  # the seed would reveal every secret
    # The bot sealed its bid at once, before anyone asked it to.
    assert created["version"] == 1
    assert read(client, created["id"])["view"]["sealed"] == [3]


def test_tokens_are_stored_hashed(client: Any) -> None:
    created = create(client)
    db = client.app.state.store.path
    raw = Path(db).read_bytes() + Path(db + "-wal").read_bytes()
    for s in created["seats"]:
        assert s["token"].encode() not in raw


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"", 400, ["empty"]),
        (b"{not json", 400, ["not valid JSON"]),
        (b"[1, 2]", 400, ["JSON object"]),
        (b'{"title": "sealedbid", "players": NaN}', 400, ["not valid JSON"]),
        (b'{"players": 2}', 400, ['"title"']),
        (b'{"title": 5, "players": 2}', 400, ['"title"']),
        (b'{"title": "chess", "players": 2}', 404, ["chess", "sealedbid"]),
        (b'{"title": "sealedbid"}', 400, ['"players"']),
        (b'{"title": "sealedbid", "players": "2"}', 400, ['"players"']),
        (b'{"title": "sealedbid", "players": true}', 400, ['"players"']),
        (b'{"title": "sealedbid", "players": 2.5}', 400, ['"players"']),
        (b'{"title": "sealedbid", "players": 9}', 422, ["2 to 4"]),
        (b'{"title": "sealedbid", "players": 2, "seed": -1}', 422, ["seed"]),
        (b'{"title": "sealedbid", "players": 2, "seed": 9223372036854775808}', 422, ["seed"]),
        (b'{"title": "sealedbid", "players": 2, "seed": "x"}', 400, ['"seed"']),
        (b'{"title": "sealedbid", "players": 2, "config": []}', 400, ['"config"']),
        (b'{"title": "sealedbid", "players": 2, "config": {"fast": 1}}', 422, ["fast"]),
        (b'{"title": "sealedbid", "players": 2, "bots": "all"}', 400, ['"bots"']),
        (b'{"title": "sealedbid", "players": 2, "bots": ["2"]}', 400, ['"bots"']),
        (b'{"title": "sealedbid", "players": 2, "bots": {"two": null}}', 400, ['"bots"']),
        (b'{"title": "sealedbid", "players": 2, "bots": {"2": 7}}', 400, ['"bots"']),
        # "²".isdigit() is true, yet int("²") fails: a seat number is ASCII digits.
        (b'{"title": "sealedbid", "players": 2, "bots": {"\\u00b2": "random"}}', 400, ['"bots"']),
        (b'{"title": "sealedbid", "players": 2, "bots": {"\\u0662": null}}', 400, ['"bots"']),
        (b'{"title": "sealedbid", "players": 2, "bots": [3]}', 422, ["seat 3"]),
        (b'{"title": "sealedbid", "players": 2, "bots": {"2": "genius"}}', 422, ["genius"]),
        (b'{"title": "sealedbid", "players": 2, "colour": "red"}', 400, ["colour"]),
    ],
)
def test_create_refuses_bad_input(client: Any, body: bytes, status: int, words: list[str]) -> None:
    r = client.post("/api/matches", content=body, headers={"Content-Type": "application/json"})
    refused(r, status, *words)
    assert client.get("/api/matches").json() == []  # nothing was created


def test_create_refuses_a_huge_body(client: Any) -> None:
    big = json.dumps({"title": "sealedbid", "players": 2, "config": {"x": "y" * (2 << 20)}})
    refused(client.post("/api/matches", content=big, headers=JSON), 413, "larger")
    assert client.get("/api/matches").json() == []


def test_list_matches_shows_public_facts_only(client: Any) -> None:
    created = create(client, seed=SEED)
    (summary,) = client.get("/api/matches").json()
    assert summary["id"] == created["id"]
    assert summary["version"] == 0 and summary["over"] is False
    assert set(summary) == {"id", "title", "players", "version", "over", "created"}


# -- reading --------------------------------------------------------------------------------------


def test_each_token_reads_its_own_seat_only(client: Any) -> None:
    created = create(client, seed=SEED)
    mid = created["id"]
    r = act(client, mid, token(created, 1), 0, {"type": "bid", "coins": 7})
    assert r.status_code == 200
    mine = read(client, mid, token(created, 1))
    theirs = read(client, mid, token(created, 2))
    spectator = read(client, mid)
    assert mine["seat"] == 1 and mine["view"]["my_bid"] == 7
    assert theirs["seat"] == 2 and "my_bid" not in theirs["view"]
    assert "seat" not in spectator and spectator["legal"] == [] and spectator["labels"] == []
    assert "You bid 7 on" in " ".join(mine["history"])
    for other in (theirs, spectator):
        assert "bid 7" not in json.dumps(other["history"])
        assert other["view"]["sealed"] == [1]
    assert theirs["legal"][0] == {"type": "bid", "coins": 0}
    assert theirs["labels"][:2] == ["bid 0", "bid 1"]
    # The token may also come as a bearer token or, for event streams, in the query.
    bearer = client.get(
        f"/api/matches/{mid}", headers={"Authorization": f"Bearer {token(created, 1)}"}
    )
    assert bearer.json()["seat"] == 1
    query = client.get(f"/api/matches/{mid}", params={"token": token(created, 2)})
    assert query.json()["seat"] == 2


def test_reading_refuses_unknown_match_and_wrong_token(client: Any) -> None:
    created = create(client)
    other = create(client)
    refused(client.get("/api/matches/nope"), 404, "nope")
    refused(client.get("/api/matches/" + "x" * 500), 404)
    refused(client.get(f"/api/matches/{created['id']}", headers={"X-Seat-Token": "guess"}), 403)
    # A real token of another match opens nothing here.
    wrong = {"X-Seat-Token": token(other, 1)}
    message = refused(client.get(f"/api/matches/{created['id']}", headers=wrong), 403)
    assert token(other, 1) not in message


# -- acting --------------------------------------------------------------------------------------


def test_an_accepted_action_is_stored_before_the_reply(client: Any) -> None:
    created = create(client, seed=SEED)
    mid = created["id"]
    r = act(client, mid, token(created, 1), 0, {"type": "bid", "coins": 3})
    assert r.status_code == 200
    payload = r.json()
    assert payload["version"] == 1 and payload["seat"] == 1 and payload["legal"] == []
    assert client.app.state.store.load(mid).actions == [(1, {"type": "bid", "coins": 3})]


def test_bots_answer_every_action(client: Any) -> None:
    created = create(client, players=3, bots={"2": "random", "3": None}, seed=SEED)
    mid = created["id"]
    assert [s.get("bot") for s in created["seats"]] == [None, "random", "thrifty"]
    version = read(client, mid, token(created, 1))["version"]
    assert version == 2  # both bots bid for the first lot at creation
    for _ in range(5):
        r = act(client, mid, token(created, 1), version, {"type": "bid", "coins": 0})
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    final = r.json()
    assert "outcome" in final and final["version"] == 15
    assert len(client.app.state.store.load(mid).actions) == 15


@pytest.mark.parametrize(
    ("action", "status", "words"),
    [
        ("bid", 400, ["JSON object"]),
        ([1], 400, ["JSON object"]),
        ({}, 400, ['"type"']),
        ({"type": "pass"}, 400, ["unknown action type", "bid"]),
        ({"type": "bid"}, 400, ["coins"]),
        ({"type": "bid", "coins": "3"}, 400, ["coins"]),
        ({"type": "bid", "coins": 3, "extra": 1}, 400, ["extra"]),
        ({"type": "bid", "coins": 99}, 422, ["20 coins"]),
        ({"type": "bid", "coins": -1}, 422, ["negative"]),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(
    client: Any, action: Any, status: int, words: list[str]
) -> None:
    created = create(client, seed=SEED)
    before = snapshot(client, created)
    refused(act(client, created["id"], token(created, 1), 0, action), status, *words)
    assert snapshot(client, created) == before


def test_bad_submissions_are_refused_and_change_nothing(client: Any) -> None:
    created = create(client, seed=SEED)
    other = create(client, seed=SEED)
    mid = created["id"]
    url = f"/api/matches/{mid}/actions"
    good = {"version": 0, "action": {"type": "bid", "coins": 1}}
    t1 = {"X-Seat-Token": token(created, 1), **JSON}
    before = snapshot(client, created)
    refused(client.post(url, json=good), 401, "token")
    refused(client.post(url, json=good, headers={"X-Seat-Token": "guess"}), 403)
    refused(client.post(url, json=good, headers={"X-Seat-Token": token(other, 1)}), 403)
    refused(client.post("/api/matches/nope/actions", json=good, headers=t1), 404)
    refused(client.post(url, content=b"{oops", headers=t1), 400, "not valid JSON")
    refused(client.post(url, content=b"", headers=t1), 400, "empty")
    refused(client.post(url, json=[good], headers=t1), 400, "JSON object")
    refused(client.post(url, json={"action": good["action"]}, headers=t1), 400, '"version"')
    refused(client.post(url, json={**good, "version": "0"}, headers=t1), 400, '"version"')
    refused(client.post(url, json={**good, "version": None}, headers=t1), 400, '"version"')
    refused(client.post(url, json={"version": 0}, headers=t1), 400, '"action"')
    refused(client.post(url, json={**good, "seat": 2}, headers=t1), 400, "seat")
    refused(client.post(url, json={**good, "version": 5}, headers=t1), 409, "stale", "version 0")
    refused(client.post(url, content=b"x" * (2 << 20), headers=t1), 413)
    refused(client.get(url, headers=t1), 405)
    assert snapshot(client, created) == before


def test_duplicate_stale_and_out_of_turn_submissions_get_409(client: Any) -> None:
    created = create(client, seed=SEED)
    mid = created["id"]
    t1, t2 = token(created, 1), token(created, 2)
    assert act(client, mid, t1, 0, {"type": "bid", "coins": 1}).status_code == 200
    after_first = snapshot(client, created)
    # The same submission again (a double click, a retry): stale, refused.
    refused(act(client, mid, t1, 0, {"type": "bid", "coins": 1}), 409, "stale")
    # Seat 1 is up to date but has already bid: not its turn.
    refused(act(client, mid, t1, 1, {"type": "bid", "coins": 2}), 409, "seat 1 is not awaited")
    # Seat 2 may still act on version 0: only seat 1's sealed bid of the same round came
    # in since (test_http_simultaneous.py has the rule); a bid it cannot make is refused.
    refused(act(client, mid, t2, 0, {"type": "bid", "coins": 99}), 422, "cannot bid 99")
    assert snapshot(client, created) == after_first


def test_a_finished_match_refuses_actions(client: Any) -> None:
    created = create(client, bots=[2], seed=SEED)
    mid = created["id"]
    version = 1
    for _ in range(5):
        version = act(client, mid, token(created, 1), version, {"type": "bid", "coins": 0}).json()[
            "version"
        ]
    before = snapshot(client, created)
    assert "outcome" in before[0][0]
    refused(act(client, mid, token(created, 1), version, {"type": "bid", "coins": 0}), 409, "over")
    assert snapshot(client, created) == before


# -- logs and replay ---------------------------------------------------------------------------------


def play_to_end(client: Any, created: dict[str, Any]) -> None:
    mid = created["id"]
    for lot in range(5):
        for seat in (1, 2):
            version = read(client, mid)["version"]
            r = act(
                client, mid, token(created, seat), version, {"type": "bid", "coins": seat + lot}
            )
            assert r.status_code == 200, r.text


def test_log_is_given_only_for_a_finished_match(client: Any, sealed_registry: Registry) -> None:
    created = create(client, seed=SEED)
    mid = created["id"]
    refused(client.get(f"/api/matches/{mid}/log"), 409, "not over")
    refused(client.get("/api/matches/nope/log"), 404)
    play_to_end(client, created)
    r = client.get(f"/api/matches/{mid}/log")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/toml")
    assert "attachment" in r.headers["content-disposition"]
    log = MatchLog.from_toml(r.text)
    assert log.seed == SEED and len(log.actions) == 10
    replayed = Match.from_log(log, verify=True, registry=sealed_registry)
    assert replayed.view(None) == read(client, mid)["view"]


def test_replay_shows_any_step_as_any_seat(client: Any, sealed_registry: Registry) -> None:
    created = create(client, seed=SEED)
    mid = created["id"]
    seen = []
    for lot in range(5):
        for seat in (1, 2):
            seen.append((read(client, mid, token(created, 1)), read(client, mid)))
            version = seen[-1][1]["version"]
            act(client, mid, token(created, seat), version, {"type": "bid", "coins": lot})
    text = client.get(f"/api/matches/{mid}/log").text
    for step in (0, 1, 5):
        r = client.post("/api/replay", json={"log": text, "step": step, "seat": 1})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["steps"] == 10 and body["step"] == step
        assert [a["seat"] for a in body["actions"]] == [1, 2] * 5
        then_seat, then_spectator = seen[step]
        for key in ("view", "history", "legal", "awaiting", "version"):
            assert body["payload"][key] == then_seat[key]
        spectator = client.post("/api/replay", json={"log": text, "step": step}).json()
        assert spectator["payload"]["view"] == then_spectator["view"]
        assert spectator["payload"]["history"] == then_spectator["history"]
    end = client.post("/api/replay", json={"log": text, "seat": None}).json()
    assert end["step"] == 10 and "outcome" in end["payload"]


@pytest.mark.parametrize(
    ("log", "words"),
    [
        ("format = 1\nx = " + "[" * 5000 + "]" * 5000, ["nested"]),
        ("format = 1\nx = " + "{a = " * 3000 + "1" + "}" * 3000, ["nested"]),
        ("format = 1\nseed = " + "9" * 5000, ["digits"]),
        ("format = 1\nseed = 0x" + "f" * 5000, []),
    ],
)
def test_replay_refuses_pathological_toml_in_one_line(
    client: Any, log: str, words: list[str]
) -> None:
    message = refused(client.post("/api/replay", json={"log": log}), 422, *words)
    assert len(message) < 300


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        # 400: the request's JSON is not what the document describes.
        ({}, 400, ['"log"']),
        ({"log": 5}, 400, ['"log"']),
        ({"log": "LOG", "step": "3"}, 400, ['"step"']),
        ({"log": "LOG", "seat": "1"}, 400, ['"seat"']),
        ({"log": "LOG", "colour": 1}, 400, ["colour"]),
        # 422: well formed, but the log or the step or seat asked for is refused.
        ({"log": "not = [toml"}, 422, ["not valid TOML"]),
        ({"log": 'format = 9\ntitle = "sealedbid"'}, 422, ["format"]),
        ({"log": "LOG", "step": 11}, 422, ["step", "0 and 10"]),
        ({"log": "LOG", "step": -1}, 422, ["step"]),
        ({"log": "LOG", "seat": 3}, 422, ["seat 3"]),
        ({"log": "CHESS"}, 422, ["chess"]),
        ({"log": "BROKEN"}, 422, ["action 2", "refused"]),
    ],
)
def test_replay_refuses_bad_input(
    client: Any, body: dict[str, Any], status: int, words: list[str]
) -> None:
    created = create(client, seed=SEED)
    play_to_end(client, created)
    text = client.get(f"/api/matches/{created['id']}/log").text
    swap = {
        "LOG": text,
        "CHESS": text.replace('title = "sealedbid"', 'title = "chess"'),
        # Seat 1 bidding twice for the same lot: the second is refused on replay.
        "BROKEN": text.replace("seat = 2", "seat = 1", 1),
    }
    if body.get("log") in swap:
        body = {**body, "log": swap[body["log"]]}
    refused(client.post("/api/replay", json=body), status, *words)


# -- renderers ----------------------------------------------------------------------------------------


def test_title_renderer_files_are_served_from_the_title_package(tmp_path: Path) -> None:
    import warnings

    from webfixture.title import RenderedBids

    from gameweave_core import Registry

    reg = Registry()
    reg.add_title(RenderedBids(), "test", "1")
    app = create_app(tmp_path / "r.sqlite3", reg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        with TestClient(app) as c:
            (entry,) = c.get("/api/titles").json()
            assert entry["renderer"] == "/titles/renderedbids/renderer.js"
            main = c.get(entry["renderer"])
            assert main.status_code == 200
            assert main.headers["content-type"].startswith("text/javascript")
            assert "export function render" in main.text
            assert c.get("/titles/renderedbids/helper.js").status_code == 200
            refused(c.get("/titles/renderedbids/title.py"), 404)
            refused(c.get("/titles/renderedbids/../title.py"), 404)
            refused(c.get("/titles/renderedbids/%2e%2e/__init__.py"), 404)
            refused(c.get("/titles/chess/renderer.js"), 404, "chess")


def test_titles_without_a_renderer_serve_none(client: Any) -> None:
    refused(client.get("/titles/sealedbid/renderer.js"), 404, "no browser renderer")


# -- the access log ---------------------------------------------------------------------------------------


def test_tokens_never_reach_the_access_log(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gameweave_http")
    created = create(client, seed=SEED)
    mid = created["id"]
    t1 = token(created, 1)
    client.get(f"/api/matches/{mid}", params={"token": t1})
    client.get(f"/api/matches/{mid}", headers={"X-Seat-Token": t1})
    act(client, mid, t1, 0, {"type": "bid", "coins": 1})
    client.get(f"/api/matches/{mid}", params={"token": t1 + "x"})
    access = [r.getMessage() for r in caplog.records if r.name == "gameweave_http.access"]
    assert any(f"/api/matches/{mid}/actions 200" in line for line in access)
    assert any("403" in line for line in access)
    for s in created["seats"]:
        assert all(s["token"] not in r.getMessage() for r in caplog.records)


# -- restarts ------------------------------------------------------------------------------------------------


def test_a_new_app_on_the_same_file_resumes_every_match(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    import warnings

    from starlette.testclient import TestClient

    db = tmp_path / "resume.sqlite3"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db, sealed_registry, dev=True)) as first:
            created = create(first, seed=SEED)
            mid = created["id"]
            act(first, mid, token(created, 1), 0, {"type": "bid", "coins": 4})
            act(first, mid, token(created, 2), 1, {"type": "bid", "coins": 2})
            before = snapshot(first, created)
        first.app.state.store.close()  # type: ignore[attr-defined]
        with TestClient(create_app(db, sealed_registry, dev=True)) as second:
            assert snapshot(second, created) == before
            r = act(second, mid, token(created, 1), 2, {"type": "bid", "coins": 1})
            assert r.status_code == 200 and r.json()["version"] == 3


def test_bots_owed_a_turn_take_it_after_a_restart(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """A server killed after storing a person's action but before its bots replied."""
    import warnings

    from starlette.testclient import TestClient

    from gameweave_http.store import Store

    db = tmp_path / "owed.sqlite3"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(db, sealed_registry, dev=True)) as first:
            created = create(first, players=2, bots=[2], seed=SEED)
            mid = created["id"]
        first.app.state.store.close()  # type: ignore[attr-defined]
        # Lot 1 is complete (bot bid at creation; store seat 1's bid by hand); the bot
        # owes its bid for lot 2.
        store = Store(db)
        store.append(mid, 2, 1, {"type": "bid", "coins": 0}, over=False)
        store.close()
        with TestClient(create_app(db, sealed_registry, dev=True)) as second:
            payload = read(second, mid, token(created, 1))
            assert payload["version"] == 3 and payload["awaiting"] == [1]
            assert payload["view"]["sealed"] == [2]
            assert len(second.app.state.store.load(mid).actions) == 3  # type: ignore[attr-defined]


def test_a_log_that_would_not_replay_is_not_given_out(tmp_path: Path) -> None:
    """A title that is not deterministic (here its state's fingerprint changes each
    time it is taken) cannot give a log that replays: the server says so instead."""
    import random
    import warnings

    from gameweave_core import Registry
    from gameweave_sealedbid.title import SealedBid

    class Flaky(SealedBid):
        name = "flaky"

        def snapshot(self, state: Any) -> Any:
            return {"state": super().snapshot(state), "noise": random.random()}

    reg = Registry()
    reg.add_title(Flaky(), "test", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        with TestClient(create_app(tmp_path / "f.sqlite3", reg, dev=True)) as c:
            created = c.post(
                "/api/matches", json={"title": "flaky", "players": 2, "bots": [2], "seed": SEED}
            )
            mid, tok = created.json()["id"], token(created.json(), 1)
            while "outcome" not in (now := read(c, mid)):
                assert (
                    act(c, mid, tok, now["version"], {"type": "bid", "coins": 0}).status_code == 200
                )
            message = refused(c.get(f"/api/matches/{mid}/log"), 503, "does not replay", "flaky")
            assert mid in message


def test_a_failing_describe_action_still_gives_buttons(tmp_path: Path) -> None:
    import warnings

    from gameweave_core import Registry
    from gameweave_sealedbid.title import SealedBid

    class Mute(SealedBid):
        name = "mute"

        def describe_action(self, action: Any) -> str:
            raise RuntimeError("no words")

    reg = Registry()
    reg.add_title(Mute(), "test", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        with TestClient(create_app(tmp_path / "m.sqlite3", reg, dev=True)) as c:
            created = c.post(
                "/api/matches", json={"title": "mute", "players": 2, "seed": SEED}
            ).json()
            payload = read(c, created["id"], token(created, 1))
            assert payload["labels"][:2] == [
                '{"coins": 0, "type": "bid"}',
                '{"coins": 1, "type": "bid"}',
            ]
