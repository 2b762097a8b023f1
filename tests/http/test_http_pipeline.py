"""The one road every request takes: the same pipeline (limits, safety headers,
access log, error mapper) and Starlette's router for every route, the routes of
every turn included; a middleware a user adds sees every request; each route is
declared once. Also the pieces the pipeline reads a request with: the token
reader and the body parser."""

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
from starlette.responses import JSONResponse

from gameweave_core import Registry
from gameweave_http import server
from gameweave_http.app import create_app
from gameweave_http.refusals import BadBody
from gameweave_http.wire import parse_json, read_token

# The servers here are not all in development mode: those pick each match's seed
# themselves, from a fixed sequence (the fresh_seeds fixture), the same on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SAFETY = {"content-security-policy", "referrer-policy", "x-content-type-options", "x-frame-options"}
BID = {"version": 0, "action": {"type": "bid", "coins": 3}}


@pytest.fixture
def app(tmp_path: Path, sealed_registry: Registry) -> Iterator[Any]:
    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry, dev=True)
    yield app
    app.state.store.close()


def client(app: Any) -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(app)


class Seen:
    """A pure ASGI middleware, as a user would add one: it counts the requests it
    sees and marks their responses."""

    def __init__(self, app: Any, seen: list[str]) -> None:
        self.app = app
        self.seen = seen

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.seen.append(f"{scope['method']} {scope['path']}")

        async def marked(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], (b"x-seen", b"1")]}
            await send(message)

        await self.app(scope, receive, marked)


def requests_of_a_turn(c: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Every kind of request a match's turn makes, and some it refuses."""
    created = c.post("/api/matches", json={"title": "sealedbid", "players": 2, "seed": 4}).json()
    mid, t1 = created["id"], created["seats"][0]["token"]
    seat = {"X-Seat-Token": t1}
    return [
        ("GET", f"/api/matches/{mid}", {}),
        ("GET", f"/api/matches/{mid}", {"headers": seat}),
        ("POST", f"/api/matches/{mid}/actions", {"json": BID, "headers": seat}),
        ("POST", f"/api/matches/{mid}/actions", {"json": BID, "headers": seat}),  # stale
        ("POST", f"/api/matches/{mid}/actions", {"content": b"{oops", "headers": seat}),
        ("POST", f"/api/matches/{mid}/actions", {"json": BID}),  # no token
        ("GET", "/api/matches/nope", {}),
        ("DELETE", f"/api/matches/{mid}/actions", {}),
        ("GET", "/api/titles", {}),
        ("GET", "/nothing/here", {}),
        ("GET", "/", {}),
    ]


def test_a_middleware_a_user_adds_sees_every_request_the_routes_of_every_turn_too(
    app: Any,
) -> None:
    seen: list[str] = []
    app.add_middleware(Seen, seen=seen)
    with client(app) as c:
        for method, path, options in requests_of_a_turn(c):
            r = c.request(method, path, **options)
            assert r.headers["x-seen"] == "1", (method, path, r.status_code)
            assert set(r.headers) >= SAFETY, (method, path)
            assert f"{method} {path}" == seen[-1]
            assert r.status_code < 500
            if path.startswith("/api/"):
                assert r.status_code == 200 or set(r.json()) == {"error"}
        # The event stream too: it opens, and a refusal of one is marked.
        r = c.get("/api/matches/nope/events")
        assert r.status_code == 404 and r.headers["x-seen"] == "1"


def test_starlettes_own_middleware_works_on_every_route(app: Any) -> None:
    from starlette.middleware.gzip import GZipMiddleware

    app.add_middleware(GZipMiddleware, minimum_size=100)
    with client(app) as c:
        created = c.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        for path in (f"/api/matches/{created['id']}", "/api/openapi.json"):
            r = c.get(path, headers={"Accept-Encoding": "gzip"})
            assert r.status_code == 200
            assert r.headers["content-encoding"] == "gzip", path
            assert set(r.headers) >= SAFETY
            # The client undid the compression: what is left is the same JSON.
            assert r.json() == c.get(path, headers={"Accept-Encoding": "identity"}).json()


def test_an_exception_handler_a_user_adds_is_asked_first(app: Any) -> None:
    class Teapot(Exception):
        pass

    async def brew(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": "short and stout"}, status_code=418)

    async def boil(request: Request) -> JSONResponse:
        raise Teapot

    app.add_exception_handler(Teapot, brew)
    app.router.add_route("/teapot", boil)
    with client(app) as c:
        r = c.get("/teapot")
        assert r.status_code == 418 and r.json() == {"error": "short and stout"}
        assert set(r.headers) >= SAFETY
        assert c.get("/api/matches/nope").status_code == 404  # the rest: the error mapper


def test_each_api_route_is_declared_once_and_documented_from_the_same_table(app: Any) -> None:
    from starlette.routing import Route

    from gameweave_http.routes import API, PAGES, schema

    paths = [api.path for api in API]
    assert len(paths) == len(set(paths))
    assert app.routes == [*app.routes[: len(API)], *PAGES]
    for route, api in zip(app.routes, API, strict=False):
        assert isinstance(route, Route) and route.path == api.path
        assert route.methods == set(api.ops) | ({"HEAD"} if "GET" in api.ops else set())
    doc = schema()
    assert list(doc["paths"]) == paths
    for api in API:
        assert set(doc["paths"][api.path]) == {m.lower() for m in api.ops}


def test_head_and_other_methods_get_the_safety_headers_once(app: Any) -> None:
    with client(app) as c:
        created = c.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        head = c.head(f"/api/matches/{created['id']}")
        assert head.status_code == 200 and head.content == b""
        for r in (head, c.get("/api/matches/nope"), c.get(f"/api/matches/{created['id']}")):
            raw = [k.decode().lower() for k, _ in r.headers.raw]
            for name in SAFETY:
                assert raw.count(name) == 1, (r.request.url, raw)
        r = c.delete(f"/api/matches/{created['id']}/actions")
        assert r.status_code == 405 and r.headers["allow"] == "POST"
        r = c.put("/api/matches")
        assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {
            "GET",
            "HEAD",
            "POST",
        }


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
    except BadBody as exc:
        assert "\n" not in exc.message
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
    except BadBody:
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
    tuned: list[bool] = []
    monkeypatch.setattr(server, "collect_less", lambda: tuned.append(True))
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
    assert len(tuned) == len(served) == 5  # each serve() set its collector up


def test_a_server_process_collects_garbage_less_often() -> None:
    """What serve() does to the process's collector: what is alive then is frozen
    out of its scans, and it runs after many more new objects."""
    import gc

    before = gc.get_threshold()
    try:
        server.collect_less()
        assert gc.get_threshold() == server.GC_THRESHOLDS
        assert server.GC_THRESHOLDS[0] > before[0]
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_access_log_names_each_request_without_its_token(
    app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with client(app) as c:
        created = c.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        mid, t1 = created["id"], created["seats"][0]["token"]
        caplog.set_level(logging.INFO, logger="gameweave_http.access")
        c.get(f"/api/matches/{mid}", params={"token": t1})
        c.post(
            f"/api/matches/{mid}/actions",
            json={"version": 0, "action": {"type": "bid", "coins": 1}},
            headers={"X-Seat-Token": t1},
        )
        c.get("/api/matches/nope")
        c.get("/api/titles", headers={"X-Big": "a" * 20_000})  # refused before any route
        lines = [r.getMessage() for r in caplog.records if r.name == "gameweave_http.access"]
        assert [line.rsplit(" ", 1)[0] for line in lines] == [
            f"GET /api/matches/{mid} 200",
            f"POST /api/matches/{mid}/actions 200",
            "GET /api/matches/nope 404",
            "GET /api/titles 431",
        ]
        assert all(t1 not in line for line in lines)
        caplog.clear()
        caplog.set_level(logging.WARNING, logger="gameweave_http.access")
        c.get(f"/api/matches/{mid}")
        assert not [r for r in caplog.records if r.name == "gameweave_http.access"]


def test_the_app_is_a_starlette_app(app: Any) -> None:
    assert isinstance(app, Starlette) and app.state.hub is not None


def test_the_api_routes_are_found_as_starlettes_router_finds_them(app: Any) -> None:
    """The pipeline's router (:class:`~gameweave_http.pipeline.Routes`) takes the
    API's requests straight to their endpoints, with the scope Starlette's router
    would give them; anything else is the router's (another method, a path of no
    API route, a mounted app, a page, a route added in front of the API's)."""
    from starlette.routing import Route

    from gameweave_http.pipeline import Endpoint, Routes
    from gameweave_http.routes import API

    reached: list[dict[str, Any]] = []
    asked: list[str] = []

    class Spy(Endpoint):
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            reached.append(dict(scope))

    class Router:
        """Starlette's router as the pipeline sees it: the API's routes (each
        endpoint a spy), then the pages; it counts what it is asked."""

        routes = [Route(api.path, Spy(api.ops), methods=list(api.ops)) for api in API] + [
            r for r in app.router.routes if not isinstance(getattr(r, "app", None), Endpoint)
        ]

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            asked.append(scope["path"])

    routes = Routes(Router())  # type: ignore[arg-type]

    def ask(method: str, path: str, root_path: str = "") -> None:
        scope = {"type": "http", "method": method, "path": path, "root_path": root_path}
        # Driven by hand, not asyncio.run: the full run has Playwright's loop running in
        # this thread, and nothing here awaits anything that suspends.
        step = routes(scope, None, None)  # type: ignore[arg-type]
        try:
            step.send(None)
        except StopIteration:
            return
        raise AssertionError("the router suspended on a spy that never does")

    ask("POST", "/api/matches/abc_-1/actions")
    ask("HEAD", "/api/matches/xyz")
    ask("POST", "/api/matches")
    ask("GET", "/api/matches/abc/actions")  # another method: the router's 405
    ask("POST", "/api/matches/abc/actions/")  # not the route's path
    ask("POST", "/api/matches//actions")  # an empty id: no route of the API's
    ask("POST", "/api/matches/abc/actions", root_path="/games")  # mounted: the router's
    ask("GET", "/play/abc")  # a page
    assert [(r["path"], r["path_params"]) for r in reached] == [
        ("/api/matches/abc_-1/actions", {"match_id": "abc_-1"}),
        ("/api/matches/xyz", {"match_id": "xyz"}),
        ("/api/matches", {}),
    ]
    first = Router.routes[0]
    assert reached[0]["route"] is first and reached[0]["endpoint"] is first.endpoint
    assert asked == [
        "/api/matches/abc/actions",
        "/api/matches/abc/actions/",
        "/api/matches//actions",
        "/api/matches/abc/actions",
        "/play/abc",
    ]

    # A route added in front of the API's is the router's to answer, as before.
    async def mine(request: Request) -> JSONResponse:
        return JSONResponse({"mine": request.path_params["match_id"]})

    app.router.routes.insert(0, Route("/api/matches/{match_id}", mine))
    with client(app) as c:
        assert c.get("/api/matches/xyz").json() == {"mine": "xyz"}
        r = c.get("/api/matches/xyz/actions")
        assert r.status_code == 405 and r.headers["allow"] == "POST"
