"""The route table: every path the server answers, and which handler answers it.

The routes every turn hits are :class:`~gameweave_http.fastpath.HotRoute`
entries: declared here once, they are both Starlette routes and the fast path's
patterns.
"""

from __future__ import annotations

from functools import partial

from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from . import handlers as h
from .fastpath import HotRoute

#: Reading a match, submitting an action and the event stream that carries each
#: move to the other seats, in the order both roads try them.
HOT = (
    HotRoute("POST", "/api/matches/{match_id}/actions", h.submit_action, reads_body=True),
    HotRoute("GET", "/api/matches/{match_id}", h.read_match, reads_body=False),
    HotRoute("GET", "/api/matches/{match_id}/events", opens=h.events),
)

#: Every other route, tried by Starlette after the hot ones.
ROUTES: list[BaseRoute] = [
    Route("/", partial(h.page, name="index.html")),
    Route("/play/{match_id}", partial(h.page, name="play.html")),
    Route("/replay", partial(h.page, name="replay.html")),
    Route("/api/titles", h.titles),
    Route("/api/titles/{name}/rules", h.title_rules),
    Route("/api/server", h.server_info),
    # One route for both methods, so that any other is told both (Allow: GET, HEAD, POST).
    Route("/api/matches", h.matches, methods=["GET", "POST"]),
    Route("/api/matches/{match_id}/log", h.match_log),
    Route("/api/matches/{match_id}/hint", h.hint, methods=["POST"]),
    Route("/api/matches/{match_id}/seats/{seat}/token", h.reissue_token, methods=["POST"]),
    Route("/api/replay", h.replay, methods=["POST"]),
    Route("/api/openapi.json", h.schema),
    Route("/titles/{name}/{file:path}", h.title_file),
    Mount("/static", StaticFiles(directory=h.STATIC), name="static"),
]
