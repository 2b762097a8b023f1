"""The bare Starlette JSON endpoint the server benchmark compares against.

It does what any JSON API must (route, read and parse a JSON body, answer JSON)
and nothing else: no matches, no rules, no storage. It is served through
``gameweave_http.server.serve`` itself, with only the app swapped, so uvicorn runs
it with exactly the flags ``gameweave serve`` uses.

    python benchmarks/bare_server.py PORT
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def act(request: Request) -> JSONResponse:
    data = await request.json()
    return JSONResponse({"version": int(data.get("version", 0)) + 1, "echo": data})


async def state(request: Request) -> JSONResponse:
    return JSONResponse({"version": 0, "awaiting": [1], "legal": [{"type": "hit"}]})


async def create(request: Request) -> JSONResponse:
    data = await request.json()
    return JSONResponse({"id": "bare", "seats": [], "echo": data}, status_code=201)


def bare_app(db: Any = None, **options: Any) -> Starlette:
    return Starlette(
        routes=[
            Route("/act", act, methods=["POST"]),
            Route("/state", state, methods=["GET"]),
            Route("/create", create, methods=["POST"]),
        ]
    )


def main() -> None:
    from gameweave_http import server

    port = int(sys.argv[1])
    server.create_app = bare_app  # type: ignore[assignment]  # same serve(), bare app
    server.serve(host="127.0.0.1", port=port, db=Path("/dev/null"))


if __name__ == "__main__":
    main()
