"""The routes every turn hits (reading a match, submitting an action) are answered
ahead of Starlette's middleware and router. These tests hold the fast path to
what Starlette's own routing of the same request answers, and check the pieces
it is built from: the token reader, the body parser and the access log."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request

from gameweave_core import Registry
from gameweave_http import server
from gameweave_http.app import App, create_app
from gameweave_http.hub import ApiError
from gameweave_http.routes import HOT
from gameweave_http.wire import parse_json, read_token

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SAFETY = {"referrer-policy", "x-content-type-options", "x-frame-options"}


class SlowPath:
    """The same app with every request routed by Starlette (the fast path skipped)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # the lifespan, which lasts as long as the client
            await self.app(scope, receive, send)
            return
        # App.__call__ finding no hot route: Starlette's stack and router.
        self.app.hot_route = lambda scope: None  # type: ignore[method-assign]
        try:
            await self.app(scope, receive, send)
        finally:
            del self.app.hot_route


@pytest.fixture
def clients(tmp_path: Path, sealed_registry: Registry) -> Iterator[tuple[Any, Any, Any]]:
    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry, dev=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as fast, TestClient(SlowPath(app)) as slow:
            yield app, fast, slow
    app.state.store.close()


def answer(r: Any) -> tuple[int, Any, dict[str, str]]:
    headers = {k: v for k, v in r.headers.items() if k not in ("date", "server")}
    return r.status_code, r.json() if r.content else None, headers


def test_fast_and_starlette_routing_give_the_same_answers(clients: tuple[Any, Any, Any]) -> None:
    app, fast, slow = clients
    created = fast.post("/api/matches", json={"title": "sealedbid", "players": 2, "seed": 4}).json()
    mid = created["id"]
    t1, t2 = (s["token"] for s in created["seats"])
    other = fast.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
    url = f"/api/matches/{mid}/actions"
    good = {"version": 0, "action": {"type": "bid", "coins": 3}}
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", f"/api/matches/{mid}", {}),
        ("GET", f"/api/matches/{mid}", {"headers": {"X-Seat-Token": t1}}),
        ("GET", f"/api/matches/{mid}", {"headers": {"Authorization": f"bearer {t2}"}}),
        ("GET", f"/api/matches/{mid}", {"params": {"token": t2}}),
        ("GET", f"/api/matches/{mid}", {"params": [("token", "x"), ("token", t1)]}),
        ("GET", f"/api/matches/{mid}", {"headers": {"X-Seat-Token": "guess"}}),
        ("GET", "/api/matches/nope", {}),
        ("GET", f"/api/matches/{mid}/", {}),
        ("POST", f"/api/matches/{mid}", {"json": good}),
        ("POST", url, {"json": good}),
        ("POST", url, {"json": good, "headers": {"X-Seat-Token": other["seats"][0]["token"]}}),
        ("POST", "/api/matches/nope/actions", {"json": good, "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"content": b"{oops", "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"content": b"", "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"content": b"x" * (2 << 20), "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"json": [good], "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"json": {**good, "seat": 1}, "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"json": {**good, "version": "0"}, "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"json": {"version": 0}, "headers": {"X-Seat-Token": t1}}),
        ("POST", url, {"json": {**good, "version": 7}, "headers": {"X-Seat-Token": t1}}),
        (
            "POST",
            url,
            {
                "json": {**good, "action": {"type": "bid", "coins": 99}},
                "headers": {"X-Seat-Token": t1},
            },
        ),
        (
            "POST",
            url,
            {"json": {**good, "action": {"type": "pass"}}, "headers": {"X-Seat-Token": t1}},
        ),
        ("POST", url, {"json": {**good, "version": 10**30}, "headers": {"X-Seat-Token": t1}}),
    ]
    for method, path, options in requests:
        a, b = (
            answer(fast.request(method, path, **options)),
            answer(slow.request(method, path, **options)),
        )
        assert a == b, (method, path, options)
        assert set(a[2]) >= SAFETY, (method, path)
        assert a[0] == 200 or set(a[1]) == {"error"}
    assert app.state.store.load(mid).actions == []  # every one of those changed nothing
    # Accepted actions: one by each road; each answer is what a read then shows.
    first = fast.post(url, json=good, headers={"X-Seat-Token": t1})
    second = slow.post(
        url,
        json={"version": 1, "action": {"type": "bid", "coins": 2}},
        headers={"X-Seat-Token": t2},
    )
    assert first.status_code == second.status_code == 200
    assert answer(second) == answer(fast.get(f"/api/matches/{mid}", headers={"X-Seat-Token": t2}))
    assert first.json()["version"] == 1 and second.json()["version"] == 2
    assert app.state.store.load(mid).actions == [
        (1, {"type": "bid", "coins": 3}),
        (2, {"type": "bid", "coins": 2}),
    ]


def test_head_and_other_methods_go_to_starlette_with_the_safety_headers_once(
    clients: tuple[Any, Any, Any],
) -> None:
    _, fast, _ = clients
    created = fast.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
    head = fast.head(f"/api/matches/{created['id']}")
    assert head.status_code == 200 and head.content == b""
    for r in (head, fast.get("/api/matches/nope"), fast.get(f"/api/matches/{created['id']}")):
        raw = [k.decode().lower() for k, _ in r.headers.raw]
        for name in SAFETY:
            assert raw.count(name) == 1, (r.request.url, raw)
    assert fast.delete(f"/api/matches/{created['id']}/actions").status_code == 405


def request_token(request: Request, query: bool = False) -> str | None:
    """The reference: the seat token as Starlette's request reads the same headers."""
    token = request.headers.get("x-seat-token")
    if not token:
        auth = request.headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            token = auth[7:].strip()
    if not token and query:
        token = request.query_params.get("token")
    return token or None


def scope_of(headers: list[tuple[bytes, bytes]], query: bytes = b"") -> dict[str, Any]:
    return {"type": "http", "headers": headers, "query_string": query, "method": "GET", "path": "/"}


header_values = st.sampled_from(
    ["", "tok", " tok ", "Bearer tok", "bearer  tok2 ", "BEARER", "Basic x"]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([b"x-seat-token", b"authorization", b"host"]), header_values),
        max_size=4,
    ),
    st.lists(
        st.tuples(
            st.sampled_from(["token", "tok", "x"]),
            st.sampled_from(["", "a", "b+c", "d%20e", "%ff", "a=b", "x;y", "\u00e9"]),
        ),
        max_size=3,
    ),
    st.booleans(),
)
def test_the_token_reader_agrees_with_starlettes_request(
    headers: list[tuple[bytes, str]], query: list[tuple[str, str]], from_query: bool
) -> None:
    raw = [(name, value.encode("latin-1")) for name, value in headers]
    qs = "&".join(f"{k}={v}" for k, v in query).encode()
    scope = scope_of(raw, qs)
    assert read_token(scope, from_query) == request_token(Request(scope), from_query)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**25), max_value=10**25)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


def reference(body: bytes) -> Any:
    """What the standard library makes of a body: its value, or the error text."""
    try:
        return (
            "ok",
            json.loads(body, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name))),
        )
    except (ValueError, RecursionError):
        return ("error",)


@settings(max_examples=400, deadline=None)
@given(st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=40)))
def test_the_body_parser_reads_what_the_standard_library_reads(body: bytes) -> None:
    expected: tuple[Any, ...] = reference(body) if body.strip() else ("error",)
    try:
        got: Any = ("ok", parse_json(body))
    except ApiError as exc:
        assert exc.status == 400 and "\n" not in exc.message
        got = ("error",)
    assert got == expected
    if got[0] == "ok":
        # The same types too: a long integer stays an integer, never a float.
        assert json.dumps(got[1]) == json.dumps(expected[1])


@pytest.mark.parametrize(
    "body",
    [
        b"123456789012345678901234567890",
        b'{"a": -9223372036854775809}',
        b"1e400",
        b"NaN",
        b'"\\ud800"',
        b"\xef\xbb\xbf{}",
        b'{"a": 1, "a": 2}',
        b"[" * 5000 + b"]" * 5000,
    ],
)
def test_the_body_parser_on_documents_orjson_reads_otherwise(body: bytes) -> None:
    expected = reference(body)
    try:
        got: Any = ("ok", parse_json(body))
    except ApiError:
        got = ("error",)
    assert got == expected
    if got[0] == "ok":
        assert json.dumps(got[1]) == json.dumps(expected[1])


def test_the_access_log_is_off_unless_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    access = logging.getLogger("gameweave_http.access")
    level = access.level
    try:
        for env, option, expected in (
            (None, None, False),
            ("1", None, True),
            ("0", None, False),
            (None, True, True),
            ("1", False, False),
        ):
            if env is None:
                monkeypatch.delenv(server.ACCESS_LOG_ENV, raising=False)
            else:
                monkeypatch.setenv(server.ACCESS_LOG_ENV, env)
            server.serve(port=0, db=tmp_path / "m.sqlite3", access_log=option)
            served[-1].state.store.close()
            assert access.isEnabledFor(logging.INFO) is expected, (env, option)
    finally:
        access.setLevel(level)


def test_the_access_log_names_each_request_without_its_token(
    clients: tuple[Any, Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    _, fast, slow = clients
    created = fast.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
    mid, t1 = created["id"], created["seats"][0]["token"]
    caplog.set_level(logging.INFO, logger="gameweave_http.access")
    fast.get(f"/api/matches/{mid}", params={"token": t1})
    slow.get(f"/api/matches/{mid}", params={"token": t1})
    fast.post(
        f"/api/matches/{mid}/actions",
        json={"version": 0, "action": {"type": "bid", "coins": 1}},
        headers={"X-Seat-Token": t1},
    )
    fast.get("/api/matches/nope")
    lines = [r.getMessage() for r in caplog.records if r.name == "gameweave_http.access"]
    assert [line.rsplit(" ", 1)[0] for line in lines] == [
        f"GET /api/matches/{mid} 200",
        f"GET /api/matches/{mid} 200",
        f"POST /api/matches/{mid}/actions 200",
        "GET /api/matches/nope 404",
    ]
    assert all(t1 not in line for line in lines)
    caplog.clear()
    caplog.set_level(logging.WARNING, logger="gameweave_http.access")
    fast.get(f"/api/matches/{mid}")
    slow.get(f"/api/matches/{mid}")
    assert not [r for r in caplog.records if r.name == "gameweave_http.access"]


def test_the_app_is_a_starlette_app(clients: tuple[Any, Any, Any]) -> None:
    app, _, _ = clients
    assert isinstance(app, Starlette) and app.state.hub is not None


def test_reads_and_submissions_skip_starlettes_stack(
    clients: tuple[Any, Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, fast, _ = clients
    created = fast.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
    mid, t1 = created["id"], created["seats"][0]["token"]
    reached: list[str] = []
    original = Starlette.__call__

    async def spy(self: Any, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            reached.append(f"{scope['method']} {scope['path']}")
        await original(self, scope, receive, send)

    monkeypatch.setattr(Starlette, "__call__", spy)
    for level in (logging.WARNING, logging.INFO):  # with the access log off, then on
        logging.getLogger("gameweave_http.access").setLevel(level)
        try:
            assert fast.get(f"/api/matches/{mid}").status_code == 200
            assert fast.get("/api/matches/nope").status_code == 404
            r = fast.post(f"/api/matches/{mid}/actions", json={}, headers={"X-Seat-Token": t1})
            assert r.status_code == 400
            assert fast.get("/api/titles").status_code == 200
        finally:
            logging.getLogger("gameweave_http.access").setLevel(logging.NOTSET)
    assert reached == ["GET /api/titles", "GET /api/titles"]


# -- one route table, no middleware the fast path would skip ------------------------------


def test_both_roads_route_by_one_table(clients: tuple[Any, Any, Any]) -> None:
    """The fast path takes a request exactly when Starlette's router would give it
    a hot route, with the same path parameters."""
    from starlette.routing import Match as Found

    app = clients[0]
    assert app.routes[: len(HOT)] == [h.route for h in HOT]
    paths = [
        "/api/matches/abc",
        "/api/matches/abc/actions",
        "/api/matches/a%20b",
        "/api/matches/é",
        "/api/matches/",
        "/api/matches/abc/",
        "/api/matches/a/b",
        "/api/matches/a/b/actions",
        "/api/matches//actions",
        "/api/matches/abc/events",
        "/api/matches/abc/log",
        "/api/matches",
        "/api/titles",
        "/",
    ]
    for method in ("GET", "POST", "HEAD", "PUT"):
        for path in paths:
            scope = {"type": "http", "method": method, "path": path, "root_path": ""}
            # Starlette's router: the first route matching path and method.
            first = next((m for r in app.routes if (m := r.matches(scope))[0] == Found.FULL), None)
            endpoint = first[1]["endpoint"] if first else None
            hot = next((h for h in HOT if h.route.endpoint is endpoint), None)
            probe = dict(scope)
            taken = app.hot_route(probe)
            if hot is not None and method == hot.method:
                assert first is not None and taken is hot.fast, (method, path)
                assert probe["path_params"] == first[1]["path_params"], (method, path)
            else:
                assert taken is None, (method, path)


def test_middleware_the_fast_path_would_skip_stops_the_app(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware

    from gameweave_http.errors import on_error
    from gameweave_http.fastpath import FAST_PATH_COVERS
    from gameweave_http.routes import ROUTES

    app = create_app(tmp_path / "m.sqlite3", sealed_registry)
    try:
        # What Starlette runs around its router is exactly what the fast path covers.
        layer: Any = app.middleware_stack
        found = []
        while layer is not app.router:
            found.append(type(layer))
            layer = layer.app
        assert tuple(found) == FAST_PATH_COVERS
        with pytest.raises(RuntimeError, match="GZipMiddleware would be skipped by the fast path"):
            app.add_middleware(GZipMiddleware)
    finally:
        app.state.store.close()
    handlers = {Exception: on_error}
    with pytest.raises(RuntimeError, match="GZipMiddleware would be skipped"):
        App(hot=HOT, routes=ROUTES, middleware=[Middleware(GZipMiddleware)])
    # Added behind the app's back, it stops the app when Starlette builds its stack.
    bare = App(hot=HOT, routes=ROUTES, exception_handlers=handlers)
    bare.user_middleware.append(Middleware(GZipMiddleware))
    with pytest.raises(RuntimeError, match="skipped by the fast path"):
        bare.build_middleware_stack()
