"""The route table: every path the server answers, declared once.

:data:`API` is the JSON API: each path with its operations (:class:`Op`: the
handler, the class of the body, and what the OpenAPI document says of it,
including the refusals the handler may raise). The server routes by it
(:func:`routes`), and :func:`schema` writes the OpenAPI document from it
(:func:`gameweave_http.openapi.schema`, a pure function of the table).
:data:`PAGES` are the browser client's pages and files. The routes every turn
hits come first: Starlette's router tries the routes in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import attrs
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from gameweave_core.errors import (
    ConfigError,
    GameOver,
    IllegalAction,
    LogError,
    MalformedAction,
    NotAwaited,
)

from . import handlers as h
from . import openapi
from .bodies import CreateMatch, Empty, ReplayLog, Submit
from .pipeline import Endpoint, Op
from .refusals import (
    MATCH_LOOKUP,
    BadLog,
    CrossSite,
    DevOnly,
    NoSuchMatch,
    NoSuchTitle,
    NotHost,
    NotNow,
    NoToken,
    NotSearchable,
    NotSeated,
    NotStored,
    NotUpgraded,
    SearchFailed,
    ServerFull,
    StaleVersion,
    TitleFailed,
    TooMany,
    Unplayable,
)
from .wire import MAX_LOG

#: The schema of each path parameter the API's paths take.
PATH_PARAMS: dict[str, dict[str, Any]] = {
    "match_id": {"type": "string"},
    "name": {"type": "string"},
    "seat": {"type": "integer", "minimum": 1, "maximum": 999999},
}

TOKEN_HEADER = {
    "name": "X-Seat-Token",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "The seat's secret token; without it you are a spectator.",
}
SEAT_TOKEN = {**TOKEN_HEADER, "required": True, "description": "The seat's secret token."}
TOKEN_QUERY = {
    "name": "token",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": (
        "The seat's token (for the seat socket and EventSource, which cannot send headers)."
    ),
}
HOST_TOKEN = {
    "name": "X-Host-Token",
    "in": "header",
    "required": True,
    "schema": {"type": "string"},
    "description": "The host token the match's creation returned.",
}

#: What an action may be refused for, by the core.
ACTION_REFUSED = (MalformedAction, NotAwaited, GameOver, IllegalAction)


@attrs.frozen
class Api:
    """One path of the API and its operations, by method."""

    path: str
    ops: dict[str, Op]

    def route(self) -> Route:
        """The Starlette route: one for every method, so that any other is told
        them all (405, ``Allow``)."""
        return Route(self.path, Endpoint(self.ops), methods=list(self.ops))


def listed(name: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": f"#/components/schemas/{name}"}}


API: tuple[Api, ...] = (
    Api(
        "/api/matches/{match_id}/actions",
        {
            "POST": Op(
                h.submit_action,
                "submitAction",
                "Submit an action for the token's seat",
                "Payload",
                "Accepted; the seat's payload after the bots replied",
                body=Submit,
                params=(SEAT_TOKEN,),
                refusals=(
                    NoToken,
                    NotSeated,
                    *MATCH_LOOKUP,
                    StaleVersion,
                    NotNow,
                    *ACTION_REFUSED,
                    NotStored,
                    TitleFailed,
                ),
            )
        },
    ),
    Api(
        "/api/matches/{match_id}",
        {
            "GET": Op(
                h.read_match,
                "readMatch",
                "What the token's seat (or a spectator) may see",
                "Payload",
                "The seat's payload",
                params=(TOKEN_HEADER, TOKEN_QUERY),
                refusals=(NotSeated, *MATCH_LOOKUP),
            )
        },
    ),
    Api(
        "/api/matches/{match_id}/events",
        {
            "GET": Op(
                h.events,
                "matchEvents",
                "Server-sent events: the seat's payload after every change",
                {"type": "string"},
                "An endless text/event-stream of `payload` events, each a Payload as JSON",
                media="text/event-stream",
                params=(TOKEN_QUERY, TOKEN_HEADER),
                refusals=(NotSeated, *MATCH_LOOKUP, TooMany, ServerFull),
            )
        },
    ),
    Api(
        "/api/matches/{match_id}/socket",
        {
            "GET": Op(
                h.seat_socket,
                "seatSocket",
                "The seat socket: a WebSocket carrying the seat's payloads and its moves",
                "Payload",
                "Switching to the seat socket (a WebSocket request). Its messages are JSON "
                "text: from the client a Submit body per move; from the server each Payload "
                'after every change, and one answer per move in order, `{"ok": true}` or '
                '`{"ok": false, "error": ..., "status": ...}`. Closed with 4001 once the '
                "seat's token is reissued",
                status=101,
                params=(TOKEN_QUERY, TOKEN_HEADER),
                refusals=(NotUpgraded, CrossSite, NotSeated, *MATCH_LOOKUP, TooMany, ServerFull),
            )
        },
    ),
    Api(
        "/api/titles",
        {"GET": Op(h.titles, "listTitles", "The installed titles", listed("Title"), "Titles")},
    ),
    Api(
        "/api/titles/{name}/rules",
        {
            "GET": Op(
                h.title_rules,
                "titleRules",
                "A title's rules for players, by topic",
                "Rules",
                "The rules",
                refusals=(NoSuchTitle,),
            )
        },
    ),
    Api(
        "/api/server",
        {"GET": Op(h.server_info, "serverInfo", "How this server runs", "Server", "Its mode")},
    ),
    Api(
        "/api/matches",
        {
            "GET": Op(
                h.list_matches,
                "listMatches",
                "The newest matches (public facts only)",
                listed("Summary"),
                "Matches",
            ),
            "POST": Op(
                h.create_match,
                "createMatch",
                "Create a match; bots take their turns at once",
                "Created",
                "Created",
                status=201,
                body=CreateMatch,
                refusals=(
                    NoSuchTitle,
                    Unplayable,
                    ConfigError,
                    DevOnly,
                    TooMany,
                    ServerFull,
                    NotStored,
                ),
            ),
        },
    ),
    Api(
        "/api/matches/{match_id}/log",
        {
            "GET": Op(
                h.match_log,
                "matchLog",
                "The TOML log of a finished match",
                {"type": "string"},
                "The log",
                media="application/toml",
                refusals=(*MATCH_LOOKUP, NotNow, TitleFailed),
            )
        },
    ),
    Api(
        "/api/matches/{match_id}/hint",
        {
            "POST": Op(
                h.hint,
                "hint",
                "What the search would play for the token's seat now",
                "Hint",
                "The hint",
                body=Empty,
                params=(SEAT_TOKEN,),
                refusals=(
                    NoToken,
                    NotSeated,
                    *MATCH_LOOKUP,
                    NotNow,
                    NotSearchable,
                    TooMany,
                    ServerFull,
                    SearchFailed,
                ),
            )
        },
    ),
    Api(
        "/api/matches/{match_id}/seats/{seat}/token",
        {
            "POST": Op(
                h.reissue_token,
                "reissueSeatToken",
                "A new secret link for a seat; its old token stops working",
                "Reissued",
                "The new token and link",
                body=Empty,
                params=(HOST_TOKEN,),
                refusals=(NoToken, NotHost, NoSuchMatch, NotNow, Unplayable),
            )
        },
    ),
    Api(
        "/api/replay",
        {
            "POST": Op(
                h.replay,
                "replay",
                "Replay a log to a step and view it as a seat or a spectator",
                "Replayed",
                "The replayed payload",
                body=ReplayLog,
                limit=MAX_LOG,
                refusals=(BadLog, LogError, TooMany),
            )
        },
    ),
    Api(
        "/api/replay/verify",
        {
            "POST": Op(
                h.verify,
                "verifyLog",
                "Verify a log as `gameweave replay --verify` does: where and why it stops",
                "Verified",
                "Whether every digest matched, and if not the step and the reason",
                body=h.VerifyLog,
                limit=MAX_LOG,
                refusals=(BadLog, LogError, TooMany),
            )
        },
    ),
    Api(
        "/api/openapi.json",
        {
            "GET": Op(
                h.schema,
                "openapi",
                "This document: the API of this server, its titles' actions included",
                {"type": "object"},
                "The OpenAPI document",
            )
        },
    ),
)

#: The browser client: its pages, the titles' renderers and the static files.
PAGES: list[BaseRoute] = [
    Route("/", partial(h.page, name="index.html")),
    Route("/play/{match_id}", partial(h.page, name="play.html")),
    Route("/replay", partial(h.page, name="replay.html")),
    Route("/titles/{name}/{file:path}", h.title_file),
    Mount("/static", StaticFiles(directory=h.STATIC), name="static"),
]


def routes() -> list[BaseRoute]:
    """Starlette's routes: the API's, then the pages'."""
    return [*(api.route() for api in API), *PAGES]


def schema(
    titles: Sequence[str] | None = None, actions: Mapping[str, type] | None = None
) -> dict[str, Any]:
    """The server's OpenAPI document, written from :data:`API` (a fresh copy).

    Given the names of the installed titles, the document lists them as the only
    values a new match's ``title`` may take; given their action classes by type
    (each title's ``codec.types``), an ``Action`` is one of those, with exactly
    its fields. The app builds it once, with its registry's titles, and serves it.
    """
    return openapi.schema(API, PATH_PARAMS, titles, actions)
