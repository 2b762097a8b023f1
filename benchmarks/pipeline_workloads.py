"""The server's app in process, no server or socket: what its own stack costs per
request, with and without a middleware a user adds (``run.py server``).

Each factory returns ``step(i) -> units`` for ``worker.py``: a step is a batch of
requests sent straight to the ASGI app in one turn of an event loop, a unit one
request. The requests are those of a turn of the versus benchmark's tic-tac-toe
(an action, a read of the other seat's payload), and a new match now and then.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BATCH = 200


class PassThrough:
    """A pure ASGI middleware that does nothing: the least a middleware costs."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


def _middleware(app: Any, kind: str) -> None:
    if kind == "pure":
        app.add_middleware(PassThrough)
    elif kind == "base":
        from starlette.middleware.base import BaseHTTPMiddleware

        async def dispatch(request: Any, call_next: Any) -> Any:
            return await call_next(request)

        app.add_middleware(BaseHTTPMiddleware, dispatch=dispatch)
    elif kind == "gzip":
        from starlette.middleware.gzip import GZipMiddleware

        app.add_middleware(GZipMiddleware)
    elif kind != "none":
        raise ValueError(f"no middleware {kind!r}")


def turns(middleware: str = "none") -> Callable[[int], int]:
    """Moves of tic-tac-toe through the app (each an action and the other seat's
    read), ``middleware`` added: none, pure (a pure ASGI pass-through), base
    (Starlette's ``BaseHTTPMiddleware`` passing through) or gzip."""
    sys.path.insert(0, str(HERE / "tictactoe"))
    import gameweave_tictactoe as plugin

    from gameweave_core import Registry
    from gameweave_http.app import create_app
    from gameweave_http.limits import Limits

    registry = Registry()
    registry.add_plugin(plugin, "tictactoe", "gameweave-tictactoe", "1")
    db = Path(tempfile.mkdtemp(prefix="gameweave-pipeline-")) / "m.sqlite3"
    app = create_app(db, registry, limits=Limits(creates_per_minute=10**9))
    _middleware(app, middleware)
    loop = asyncio.new_event_loop()
    headers = [(b"host", b"127.0.0.1"), (b"accept-encoding", b"gzip")]

    async def call(method: str, path: str, body: Any = None, token: str = "") -> Any:
        data = b"" if body is None else json.dumps(body).encode()
        head = [*headers, (b"content-length", str(len(data)).encode())]
        if body is not None:
            head.append((b"content-type", b"application/json"))
        if token:
            head.append((b"x-seat-token", token.encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": head,
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 50000),
            "state": {},
        }
        parts: list[bytes] = []
        given = False

        async def receive() -> dict[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": data, "more_body": False}
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        await app(scope, receive, send)
        raw = b"".join(parts)
        if raw[:2] == b"\x1f\x8b":
            import gzip

            raw = gzip.decompress(raw)
        return json.loads(raw)

    state: dict[str, Any] = {"payload": None}

    async def batch() -> int:
        done = 0
        while done < BATCH:
            payload = state["payload"]
            if payload is None or not payload["awaiting"]:
                created = await call("POST", "/api/matches", {"title": "tictactoe", "players": 2})
                state["id"] = created["id"]
                state["tokens"] = {s["seat"]: s["token"] for s in created["seats"]}
                payload = await call("GET", f"/api/matches/{state['id']}", token=state["tokens"][1])
                done += 2
            seat = payload["awaiting"][0]
            moved = await call(
                "POST",
                f"/api/matches/{state['id']}/actions",
                {"version": payload["version"], "action": payload["legal"][0]},
                state["tokens"][seat],
            )
            other = moved["awaiting"][0] if moved["awaiting"] else seat
            state["payload"] = await call(
                "GET", f"/api/matches/{state['id']}", token=state["tokens"][other]
            )
            done += 2
        return done

    def step(i: int) -> int:
        return loop.run_until_complete(batch())

    return step
