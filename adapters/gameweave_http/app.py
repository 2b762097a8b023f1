"""The Starlette app: a JSON API over the hub, server-sent events per seat, and the
static browser client.

Seat tokens travel in the ``X-Seat-Token`` header (or ``Authorization: Bearer``);
the event stream, which browsers cannot give headers, takes ``?token=``. Join links
carry the token in the URL fragment (``/play/ID#token=...``), which browsers never
send to the server. The access log written here (logger ``gameweave_http.access``
at INFO; ``serve`` turns it on only when asked) holds the method, the path without
its query and the status: never a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeGuard, TypeVar
from urllib.parse import parse_qsl

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gameweave_core import LogError, Match, MatchLog, Registry, Title, default_registry
from gameweave_core.errors import one_line

from . import openapi
from .hub import ApiError, Busy, Hub, LiveMatch, labels
from .store import Store

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body read, and the largest log the replay page accepts.
MAX_BODY = 1 << 20
MAX_LOG = 4 << 20
#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE = 15.0
#: File types a title's web folder may serve.
WEB_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}

access_log = logging.getLogger("gameweave_http.access")

T = TypeVar("T")


async def promptly(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` of the hub, on the event loop when the hub can answer without
    waiting, else in a worker thread (the hub raises :class:`Busy`, having changed
    nothing, when it would have to wait; see its module docstring)."""
    try:
        return call(*args, wait=False)
    except Busy:
        return await run_in_threadpool(call, *args, wait=True)


class Listeners:
    """The open event streams of each match, woken from any thread on a change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_match: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}

    def add(self, match_id: str) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._by_match.setdefault(match_id, set()).add(entry)
        return entry

    def remove(self, match_id: str, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self._lock:
            found = self._by_match.get(match_id)
            if found is not None:
                found.discard(entry)
                if not found:
                    del self._by_match[match_id]

    def notify(self, match_id: str) -> None:
        with self._lock:
            entries = list(self._by_match.get(match_id, ()))
        for loop, event in entries:
            with contextlib.suppress(RuntimeError):  # that stream's loop has closed
                loop.call_soon_threadsafe(event.set)

    def count(self, match_id: str) -> int:
        with self._lock:
            return len(self._by_match.get(match_id, ()))


class JsonRoute:
    """A JSON route as a bare ASGI app, for the routes every turn hits.

    ``handle(scope, body)`` does all of a request's work and returns the encoded
    JSON reply (``body`` is ``None`` for a body over the limit). Refusals are
    answered as Starlette's handlers would answer them; what Starlette's request
    and response objects would add is left out.
    """

    def __init__(
        self,
        handle: Callable[[Scope, bytes | None], Awaitable[bytes]],
        reads_body: bool,
        headers: tuple[tuple[bytes, bytes], ...] = (),
    ) -> None:
        self.handle = handle
        self.reads_body = reads_body
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        status = 200
        try:
            body = await read_body(scope, receive) if self.reads_body else None
            content = await self.handle(scope, body)
        except ApiError as exc:
            status, content = exc.status, to_json({"error": exc.message})
        except ClientDisconnect:
            return  # nobody is left to answer
        except Exception as exc:
            logging.getLogger("gameweave_http").error(
                "%s %s failed", scope["method"], scope["path"], exc_info=exc
            )
            status, content = 500, to_json({"error": "internal server error (see the server log)"})
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-length", str(len(content)).encode()),
                    (b"content-type", b"application/json"),
                    *self.headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})


# -- helpers --------------------------------------------------------------------------


def to_json(content: Any) -> bytes:
    """Compact UTF-8 JSON, by orjson: a payload (several kilobytes of view and
    history) is encoded an order of magnitude faster than by the standard
    library, and encoding was the largest single cost of answering an action.
    Keys that are not strings (which orjson takes only with an option that halves
    its speed) and integers beyond 64 bits take the slower roads."""
    try:
        return orjson.dumps(content)
    except TypeError:
        pass
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode()


class Json(JSONResponse):
    """A JSON response rendered by :func:`to_json`."""

    def render(self, content: Any) -> bytes:
        return to_json(content)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Json:
    return Json({"error": one_line(message)}, status_code=status, headers=headers)


async def _read_json(request: Request, limit: int = MAX_BODY) -> Any:
    body = await read_body(request.scope, request.receive, limit)
    if body is None:
        raise too_big(limit)
    return parse_json(body)


def too_big(limit: int = MAX_BODY) -> ApiError:
    return ApiError(413, f"the body is larger than {limit} bytes")


async def read_body(scope: Scope, receive: Receive, limit: int = MAX_BODY) -> bytes | None:
    """The request body, or ``None`` when it is larger than ``limit`` (reading stops
    there; the caller reports it where it checks the body, after an unknown match or
    a missing token). Raises ``ClientDisconnect`` if the client went away."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            if value.isdigit() and int(value) > limit:
                return None
            break
    message = await receive()
    if message["type"] != "http.request":
        raise ClientDisconnect
    body: bytes = message.get("body", b"")
    if not message.get("more_body", False):  # the usual case: the whole body at once
        return body if len(body) <= limit else None
    parts = bytearray(body)
    while True:
        if len(parts) > limit:
            return None
        message = await receive()
        if message["type"] != "http.request":
            raise ClientDisconnect
        parts += message.get("body", b"")
        if not message.get("more_body", False):
            return bytes(parts) if len(parts) <= limit else None


#: A run of 19 digits: a number orjson would not read exactly as Python does.
_LONG_NUMBER = re.compile(rb"[0-9]{19}")


def parse_json(body: bytes) -> Any:
    """A request body's JSON, or a 400 :class:`ApiError` saying what is wrong with it.

    orjson reads the usual body several times faster than the standard library.
    The standard parser still decides every document orjson refuses (so the error
    messages stay the same) and every one holding a long number (orjson reads an
    integer beyond 64 bits as a float, where Python keeps it exact).
    """
    if not body.strip():
        raise ApiError(400, "the body is empty: send a JSON object")
    if _LONG_NUMBER.search(body) is None:
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc) or "too deep"
        raise ApiError(400, f"the body is not valid JSON: {reason}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ApiError(400, f"{what} must be a JSON object, got {_kind(data)}")
    return data


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(data: dict[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ApiError(
            400, f"{what} has unknown field {unknown[0]!r}; fields: {', '.join(sorted(allowed))}"
        )


def _token(request: Request, query: bool = False) -> str | None:
    token = request.headers.get("x-seat-token")
    if not token:
        auth = request.headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            token = auth[7:].strip()
    if not token and query:
        token = request.query_params.get("token")
    return token or None


def scope_token(scope: Scope, query: bool = False) -> str | None:
    """:func:`_token` read straight from an ASGI scope (the same headers and query)."""
    token = auth = None
    for name, value in scope["headers"]:
        if name == b"x-seat-token":
            if token is None:
                token = value.decode("latin-1")
        elif name == b"authorization" and auth is None:
            auth = value.decode("latin-1")
    if not token and auth is not None and auth[:7].lower() == "bearer ":
        token = auth[7:].strip()
    if not token and query and scope["query_string"]:
        raw: bytes = scope["query_string"]
        if raw.startswith(b"token=") and not _QUERY_SPECIAL.search(raw, 6):
            token = raw[6:].decode("latin-1")  # the usual ?token=...: nothing to decode
        else:
            found = [v for k, v in parse_qsl(raw.decode("latin-1"), True) if k == "token"]
            token = found[-1] if found else None
    return token or None


#: What makes a query more than ``token=`` and a plain value.
_QUERY_SPECIAL = re.compile(rb"[&%+;]")


def renderer_file(title: Title[Any]) -> Path | None:
    """The browser renderer a title ships, as a file in its package, or ``None``."""
    if not title.web_renderer:
        return None
    module = sys.modules.get(type(title).__module__)
    source = getattr(module, "__file__", None)
    if not source:
        return None
    base = Path(source).resolve().parent
    path = (base / title.web_renderer).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        return None
    return path


def renderer_url(title: Title[Any]) -> str | None:
    return f"/titles/{title.name}/renderer.js" if renderer_file(title) else None


# -- the app ----------------------------------------------------------------------------


def create_app(
    db_path: str | Path, registry: Registry | None = None, *, fsync: bool = False
) -> Starlette:
    """The Gameweave server app storing matches in the SQLite file ``db_path``.

    Every accepted action is committed before the reply, which survives the
    server process being killed; ``fsync=True`` also flushes each commit to disk,
    so that it survives the machine going down too, at several milliseconds an
    action (see :mod:`gameweave_http.store`).
    """
    registry = registry if registry is not None else default_registry()
    store = Store(db_path, fsync=fsync)
    listeners = Listeners()
    hub = Hub(store, registry, notify=listeners.notify)

    async def titles(request: Request) -> Response:
        out = []
        for entry in registry.entries():
            t = entry.title
            item: dict[str, Any] = {
                "name": t.name,
                "display_name": t.display_name,
                "summary": t.summary,
                "min_players": t.min_players,
                "max_players": t.max_players,
                "version": t.version,
                "bots": sorted(registry.bots(t)),
                "default_bot": t.default_bot,
                "config": dict(t.default_config),
                "distribution": entry.distribution,
            }
            url = renderer_url(t)
            if url:
                item["renderer"] = url
            out.append(item)
        return Json(out)

    async def list_matches(request: Request) -> Response:
        found = await run_in_threadpool(store.summaries)
        return Json(found)

    async def create_match(request: Request) -> Response:
        data = _object(await _read_json(request), "the body")
        _check_keys(data, {"title", "players", "seed", "config", "bots"}, "the body")
        name = data.get("title")
        if not isinstance(name, str):
            raise ApiError(400, f'"title" must be a string naming a title, got {_kind(name)}')
        players = data.get("players")
        if not _is_int(players):
            raise ApiError(400, f'"players" must be a whole number, got {_kind(players)}')
        seed = data.get("seed")
        if seed is not None and not _is_int(seed):
            raise ApiError(400, f'"seed" must be a whole number, got {_kind(seed)}')
        config = data.get("config", {})
        if not isinstance(config, dict):
            raise ApiError(400, f'"config" must be an object, got {_kind(config)}')
        bots = _bot_seats(data.get("bots", {}))
        live, tokens = await promptly(hub.create, name, players, seed, config, bots)
        base = str(request.base_url).rstrip("/")
        seats = []
        with live.lock:
            labels = {s: live.match.seat_label(s) for s in range(1, live.match.players + 1)}
            version = live.match.step
        for s in range(1, live.match.players + 1):
            item: dict[str, Any] = {"seat": s, "label": labels[s]}
            if s in live.bots:
                item["bot"] = live.bots[s].name
            else:
                item["token"] = tokens[s]
                item["url"] = f"{base}/play/{live.id}#token={tokens[s]}"
            seats.append(item)
        body = {
            "id": live.id,
            "title": live.match.title.name,
            "players": live.match.players,
            "version": version,
            "seats": seats,
            "spectator_url": f"{base}/play/{live.id}",
        }
        return Json(body, status_code=201)

    # The two routes every turn hits are bare ASGI apps (see JsonRoute). Their work
    # runs on the event loop when the hub can do it without waiting, else (the hub
    # raised Busy, having changed nothing) all over again in a worker thread.
    def read_sync(scope: Scope, wait: bool) -> bytes:
        match_id = scope["path_params"]["match_id"]
        live = hub.get(match_id, wait)
        seat = hub.seat(match_id, scope_token(scope, query=True), wait)
        return to_json(hub.payload(live, seat, wait))

    async def read_now(scope: Scope, body: bytes | None) -> bytes:
        try:
            return read_sync(scope, False)
        except Busy:
            return await run_in_threadpool(read_sync, scope, True)

    def submission(scope: Scope, body: bytes | None, wait: bool) -> tuple[LiveMatch, int, int, Any]:
        """The match, seat, version and action of a submission, or why it is refused."""
        match_id = scope["path_params"]["match_id"]
        live = hub.get(match_id, wait)
        token = scope_token(scope)
        if token is None:
            raise ApiError(401, "acting needs the seat's token in the X-Seat-Token header")
        seat = hub.seat(match_id, token, wait)
        assert seat is not None
        if body is None:
            raise too_big()
        data = _object(parse_json(body), "the body")
        if len(data) != 2 or "version" not in data or "action" not in data:
            _check_keys(data, {"version", "action"}, "the body")
        version = data.get("version")
        if not _is_int(version):
            raise ApiError(
                400, f'"version" must be the match version you last saw, got {_kind(version)}'
            )
        if "action" not in data:
            raise ApiError(400, 'the body needs an "action" object, e.g. {"type": ...}')
        return live, seat, version, data["action"]

    def submit_sync(scope: Scope, body: bytes | None) -> bytes:
        live, seat, version, action = submission(scope, body, True)
        return to_json(hub.submit(live, seat, version, action))

    async def submit_now(scope: Scope, body: bytes | None) -> bytes:
        try:
            live, seat, version, action = submission(scope, body, False)
            index, as_json, over = hub.begin(live, seat, version, action)
        except Busy:
            return await run_in_threadpool(submit_sync, scope, body)
        # The match is changed in memory and locked: no one reads it until the
        # action is committed (or put back, if the commit fails).
        try:
            committed = store.commit_soon(live.id, index, seat, as_json, over)
        except Exception as exc:
            hub.finish(live, seat, exc)  # puts the match back; raises a 503
            raise
        try:
            await committed
        except asyncio.CancelledError:
            # Raised only once the commit is decided (see Commit): settle, then go.
            with contextlib.suppress(ApiError):
                hub.finish(live, seat, committed.exception(), reply=False)
            raise
        except Exception as exc:
            hub.finish(live, seat, exc)
            raise
        payload = hub.finish(live, seat, None)
        assert payload is not None
        return to_json(payload)

    read_match = JsonRoute(read_now, reads_body=False)
    submit = JsonRoute(submit_now, reads_body=True)
    # Taken ahead of Starlette (see App), where they add the safety headers themselves.
    hot_read = JsonRoute(read_now, reads_body=False, headers=SAFETY_HEADERS)
    hot_submit = JsonRoute(submit_now, reads_body=True, headers=SAFETY_HEADERS)

    async def events(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        live = await promptly(hub.get, match_id)
        seat = await promptly(hub.seat, match_id, _token(request, query=True))
        return StreamingResponse(
            _stream(hub, listeners, live, seat),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def match_log(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        live = await run_in_threadpool(hub.get, match_id)

        def build() -> str:
            with live.lock:
                if not live.match.is_over:
                    raise ApiError(
                        409,
                        "the match is not over: its log reveals every seat's secrets, "
                        "so it is given out only at the end",
                    )
                return live.match.to_log().to_toml()

        text = await run_in_threadpool(build)
        filename = f"gameweave-{live.match.title.name}-{live.id}.toml"
        return Response(
            text,
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def replay(request: Request) -> Response:
        data = _object(await _read_json(request, MAX_LOG), "the body")
        _check_keys(data, {"log", "step", "seat"}, "the body")
        text = data.get("log")
        if not isinstance(text, str):
            raise ApiError(400, f'"log" must be the text of a TOML log, got {_kind(text)}')
        step = data.get("step")
        if step is not None and not _is_int(step):
            raise ApiError(400, f'"step" must be a whole number, got {_kind(step)}')
        seat = data.get("seat")
        if seat is not None and not _is_int(seat):
            raise ApiError(400, f'"seat" must be a seat number or null, got {_kind(seat)}')

        def run() -> dict[str, Any]:
            try:
                log = MatchLog.from_toml(text, source="the log")
                total = len(log.actions)
                upto = total if step is None else step
                if not 0 <= upto <= total:
                    raise ApiError(400, f"step must be between 0 and {total}, got {upto}")
                match = Match.from_log(log, upto=upto, registry=registry, source="the log")
            except LogError as exc:
                raise ApiError(400, str(exc)) from None
            if seat is not None and not 1 <= seat <= match.players:
                raise ApiError(400, f"there is no seat {seat}: seats are 1 to {match.players}")
            payload = match.payload(seat)
            payload["labels"] = labels(match, seat)
            return {
                "steps": total,
                "step": upto,
                "actions": [{"index": e.index, "seat": e.seat} for e in log.actions],
                "payload": payload,
            }

        return Json(await run_in_threadpool(run))

    async def schema(request: Request) -> Response:
        return Json(openapi.schema(registry.names()))

    async def title_file(request: Request) -> Response:
        name = request.path_params["name"]
        wanted = request.path_params["file"]
        try:
            title = registry.title(name)
        except Exception:
            raise ApiError(404, f"no title named {name!r} is installed") from None
        main = renderer_file(title)
        if main is None:
            raise ApiError(404, f"{name} ships no browser renderer")
        path = main if wanted == "renderer.js" else (main.parent / wanted).resolve()
        kind = WEB_TYPES.get(path.suffix)
        if not path.is_relative_to(main.parent) or kind is None or not path.is_file():
            raise ApiError(404, f"{name} has no web file {wanted!r}")
        return FileResponse(path, media_type=kind, headers={"Cache-Control": "no-cache"})

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def serve_page(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return serve_page

    routes = [
        # The routes a game hits on every turn first: each request tries them in order.
        Route("/api/matches/{match_id}/actions", submit, methods=["POST"]),
        Route("/api/matches/{match_id}", read_match, methods=["GET"]),
        Route("/", page("index.html")),
        Route("/play/{match_id}", page("play.html")),
        Route("/replay", page("replay.html")),
        Route("/api/titles", titles),
        Route("/api/matches", list_matches, methods=["GET"]),
        Route("/api/matches", create_match, methods=["POST"]),
        Route("/api/matches/{match_id}/events", events),
        Route("/api/matches/{match_id}/log", match_log),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/openapi.json", schema),
        Route("/titles/{name}/{file:path}", title_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def on_api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.message)

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            message = f"nothing at {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(exc.detail)
        return _error(exc.status_code, message, dict(exc.headers or {}))

    async def on_crash(request: Request, exc: Exception) -> Response:
        logging.getLogger("gameweave_http").error(
            "%s %s failed", request.method, request.url.path, exc_info=exc
        )
        return _error(500, "internal server error (see the server log)")

    app = App(
        read=hot_read,
        submit=hot_submit,
        routes=routes,
        exception_handlers={
            ApiError: on_api_error,
            HTTPException: on_http_error,
            Exception: on_crash,
        },
    )
    app.state.store = store
    app.state.hub = hub
    app.state.listeners = listeners
    return app


def _bot_seats(raw: Any) -> dict[int, str | None]:
    """``"bots"`` of a create request: ``[2, 3]`` or ``{"2": "random", "3": null}``."""
    if isinstance(raw, list):
        if not all(_is_int(s) for s in raw):
            raise ApiError(400, '"bots" must list seat numbers, e.g. [2, 3]')
        return dict.fromkeys(raw)
    if isinstance(raw, dict):
        out: dict[int, str | None] = {}
        for key, name in raw.items():
            if not key.isdigit() or len(key) > 6:
                raise ApiError(400, f'"bots" keys must be seat numbers, got {key!r}')
            if name is not None and not isinstance(name, str):
                raise ApiError(400, f'"bots" values must be bot names or null, got {_kind(name)}')
            out[int(key)] = name or None
        return out
    raise ApiError(400, f'"bots" must be an array of seats or an object, got {_kind(raw)}')


async def _stream(
    hub: Hub, listeners: Listeners, live: LiveMatch, seat: int | None
) -> AsyncIterator[str]:
    entry = listeners.add(live.id)
    _, changed = entry
    try:
        sent: tuple[int, str | None] | None = None
        yield "retry: 2000\n\n"
        while True:
            payload = await promptly(hub.payload, live, seat)
            mark = (payload["version"], payload.get("bot_error"))
            if mark != sent:
                sent = mark
                yield f"event: payload\ndata: {to_json(payload).decode()}\n\n"
            try:
                await asyncio.wait_for(changed.wait(), KEEPALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"
            changed.clear()
    finally:
        listeners.remove(live.id, entry)


#: Safety headers added to every response.
SAFETY_HEADERS = (
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)


class App(Starlette):
    """The server's Starlette app, in front of which every HTTP request gets the
    safety headers and a token-free access log line, and the two routes every turn
    hits (reading a match, submitting an action) go straight to their
    :class:`JsonRoute`: the same code Starlette's router would reach, minus the
    middleware and routing layers, which cost more than the route's own work."""

    def __init__(self, *, read: ASGIApp, submit: ASGIApp, **options: Any) -> None:
        super().__init__(**options)
        self.read_route = read
        self.submit_route = submit

    def hot_route(self, scope: Scope) -> ASGIApp | None:
        """The route of a match read or an action submitted, its ``match_id`` put in the
        scope as Starlette's router would; ``None`` for any other request."""
        path: str = scope["path"]
        if not path.startswith("/api/matches/") or scope.get("root_path"):
            return None
        rest = path[13:]
        method = scope["method"]
        if method == "POST" and rest.endswith("/actions"):
            match_id, route = rest[:-8], self.submit_route
        elif method == "GET":
            match_id, route = rest, self.read_route
        else:
            return None
        if not match_id or "/" in match_id:
            return None
        scope["path_params"] = {"match_id": match_id}
        return route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        logged = access_log.isEnabledFor(logging.INFO)
        route = self.hot_route(scope)
        if route is not None and not logged:
            await route(scope, receive, send)  # it adds the safety headers itself
            return
        started = time.perf_counter()
        status = 0

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if route is None:
                    headers = [*message.get("headers", ()), *SAFETY_HEADERS]
                    message = {**message, "headers": headers}
            await send(message)

        try:
            await (route or super().__call__)(scope, receive, send_with_headers)
        finally:
            if logged:
                # The path only: queries may hold a seat token (the event stream's).
                access_log.info(
                    "%s %s %d %.1fms",
                    scope["method"],
                    scope["path"],
                    status,
                    (time.perf_counter() - started) * 1000,
                )
