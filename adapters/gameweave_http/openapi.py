"""The OpenAPI 3.1 document of the JSON API, served at ``/api/openapi.json``."""

from __future__ import annotations

import copy
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "string", "description": "What is wrong, in one line."}},
}

PAYLOAD = {
    "type": "object",
    "description": (
        "Everything one seat's screen needs, built only from that seat's view "
        "(a spectator's when no token is given)."
    ),
    "required": [
        "title",
        "display_name",
        "version",
        "players",
        "seats",
        "awaiting",
        "view",
        "history",
        "legal",
        "labels",
    ],
    "properties": {
        "match": {"type": "string"},
        "title": {"type": "string"},
        "display_name": {"type": "string"},
        "version": {"type": "integer", "description": "Actions applied so far."},
        "players": {"type": "integer"},
        "seat": {"type": "integer", "description": "Absent for a spectator."},
        "seats": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "label"],
                "properties": {"seat": {"type": "integer"}, "label": {"type": "string"}},
            },
        },
        "awaiting": {"type": "array", "items": {"type": "integer"}},
        "bots": {"type": "array", "items": {"type": "integer"}},
        "view": {"type": "object", "description": "The title's view of this seat."},
        "history": {"type": "array", "items": {"type": "string"}},
        "legal": {"type": "array", "items": {"$ref": "#/components/schemas/Action"}},
        "labels": {
            "type": "array",
            "items": {"type": "string"},
            "description": "A short label for each legal action, in the same order.",
        },
        "outcome": {
            "type": "object",
            "required": ["side", "winners", "reason", "summary", "figures"],
            "properties": {
                "side": {"type": "string"},
                "winners": {"type": "array", "items": {"type": "integer"}},
                "reason": {"type": "string"},
                "summary": {"type": "string"},
                "figures": {"type": "object"},
            },
        },
        "bot_error": {"type": "string"},
        "thinking": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "Bot seats whose search is running now (their move comes next).",
        },
    },
}

ACTION = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"type": "string"}},
    "additionalProperties": True,
    "description": 'An action in its canonical JSON form, e.g. {"type": "bid", "coins": 3}.',
}

TITLE = {
    "type": "object",
    "required": [
        "name",
        "display_name",
        "summary",
        "min_players",
        "max_players",
        "version",
        "bots",
        "default_bot",
        "config",
        "distribution",
    ],
    "properties": {
        "name": {"type": "string"},
        "display_name": {"type": "string"},
        "summary": {"type": "string"},
        "min_players": {"type": "integer"},
        "max_players": {"type": "integer"},
        "version": {"type": "string"},
        "bots": {"type": "array", "items": {"type": "string"}},
        "default_bot": {"type": "string"},
        "config": {
            "type": "object",
            "description": "The options players may choose, with their defaults "
            "(test-only options are left out).",
        },
        "distribution": {"type": "string"},
        "renderer": {"type": "string", "description": "URL of the title's browser renderer."},
        "seat_labels": {
            "type": "object",
            "description": (
                "How a new match names its seats, by player count (e.g. "
                '{"2": ["Thief", "Security 2"]}): the lobby names the roles before the '
                "match exists. Counts whose labels depend on the seed are left out."
            ),
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
}

CREATE = {
    "type": "object",
    "required": ["title", "players"],
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string", "description": "A title's name, e.g. museum."},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**63 - 1,
            "description": (
                "The match's seed. Refused (403) unless the server runs in development "
                "mode (`gameweave serve --dev`): whoever chose the seed could know every "
                "secret. By default the server draws it and never tells it."
            ),
        },
        "config": {
            "type": "object",
            "description": (
                "The title's options, among those `/api/titles` offers. A title's "
                "test-only options (which fix hidden information, e.g. a stacked deck) "
                "are refused (403) unless the server runs in development mode."
            ),
        },
        "bots": {
            "description": (
                "Seats played by the server's bots: a list of seats (default bots) or "
                'an object {"2": "random", "3": null} naming each seat\'s bot.'
            ),
            "oneOf": [
                {"type": "array", "items": {"type": "integer"}},
                {
                    "type": "object",
                    "propertyNames": {"pattern": "^[0-9]{1,6}$"},
                    "additionalProperties": {"type": ["string", "null"]},
                },
            ],
        },
    },
}

CREATED = {
    "type": "object",
    "required": ["id", "title", "players", "version", "seats", "spectator_url", "host_token"],
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "players": {"type": "integer"},
        "version": {"type": "integer"},
        "spectator_url": {"type": "string"},
        "host_token": {
            "type": "string",
            "description": (
                "The match's host token, given only here: with it (X-Host-Token), "
                "a seat's link may be reissued."
            ),
        },
        "seats": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "label"],
                "properties": {
                    "seat": {"type": "integer"},
                    "label": {"type": "string"},
                    "bot": {"type": "string", "description": "The bot playing the seat."},
                    "token": {"type": "string", "description": "The seat's secret token."},
                    "url": {"type": "string", "description": "The seat's join link."},
                },
            },
        },
    },
}

REISSUE = {
    "type": "object",
    "additionalProperties": False,
    "maxProperties": 0,
    "description": "Nothing: an empty object.",
}

REISSUED = {
    "type": "object",
    "required": ["seat", "token", "url"],
    "properties": {
        "seat": {"type": "integer"},
        "token": {"type": "string", "description": "The seat's new secret token."},
        "url": {"type": "string", "description": "The seat's new join link."},
    },
}

SUBMIT = {
    "type": "object",
    "required": ["version", "action"],
    "additionalProperties": False,
    "properties": {
        "version": {
            "type": "integer",
            "description": (
                "The match version the client last saw; any other gets 409, unless "
                "only other seats' choices of the same round came in since and the "
                "seat's legal actions are unchanged."
            ),
        },
        "action": {"$ref": "#/components/schemas/Action"},
    },
}

REPLAY = {
    "type": "object",
    "required": ["log"],
    "additionalProperties": False,
    "properties": {
        "log": {"type": "string", "minLength": 1, "description": "The text of a TOML match log."},
        "step": {"type": "integer", "description": "Actions to replay (default: all)."},
        "seat": {"type": ["integer", "null"], "description": "The seat to view; null: spectator."},
    },
}

REPLAYED = {
    "type": "object",
    "required": ["steps", "step", "actions", "payload"],
    "properties": {
        "steps": {"type": "integer"},
        "step": {"type": "integer"},
        "actions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["index", "seat"],
                "properties": {"index": {"type": "integer"}, "seat": {"type": "integer"}},
            },
        },
        "payload": {"$ref": "#/components/schemas/Payload"},
    },
}

SUMMARY = {
    "type": "object",
    "required": ["id", "title", "players", "version", "over", "created"],
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "players": {"type": "integer"},
        "version": {"type": "integer"},
        "over": {"type": "boolean"},
        "created": {"type": "number"},
    },
}


RULES = {
    "type": "object",
    "required": ["title", "topics"],
    "properties": {
        "title": {"type": "string"},
        "topics": {
            "type": "array",
            "description": (
                "The topics in the title's order, the overview first; each text is light "
                "Markdown (paragraphs, `-` lists, **bold**, backticks round what is typed)."
            ),
            "items": {
                "type": "object",
                "required": ["name", "text"],
                "properties": {"name": {"type": "string"}, "text": {"type": "string"}},
            },
        },
    },
}


HINT_CHOICE = {
    "type": "object",
    "required": ["action", "text", "share"],
    "properties": {
        "action": {"$ref": "#/components/schemas/Action"},
        "text": {"type": "string", "description": "The action as its button says it."},
        "share": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Its part of the searches: how sure the search is of it.",
        },
    },
}

HINT = {
    "type": "object",
    "required": ["action", "text", "share", "iterations", "others"],
    "description": (
        "What the search would play for the seat, searched from the seat's own "
        "observation only (worlds the seat cannot tell apart)."
    ),
    "properties": {
        **HINT_CHOICE["properties"],  # type: ignore[dict-item]
        "iterations": {
            "type": "integer",
            "minimum": 0,
            "description": "Searches run (0: the seat had a single legal action).",
        },
        "others": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/HintChoice"},
            "description": "The runners-up that got any searches, best first.",
        },
    },
}

SERVER = {
    "type": "object",
    "required": ["dev"],
    "properties": {
        "dev": {
            "type": "boolean",
            "description": (
                "Development mode (`gameweave serve --dev`): new matches may be given a "
                "seed and test-only options."
            ),
        },
    },
}


def _json(ref: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "Malformed request or action",
        401: "No seat token",
        403: "The token belongs to no seat of this match, or an Origin not the server's",
        404: "No such match or title",
        409: "Stale version, not this seat's turn, or the match is over",
        413: "Body too large",
        415: "The body is not declared as JSON (Content-Type: application/json)",
        422: "Illegal action or options the title refuses",
        429: "Too many requests from this client (see Retry-After)",
        503: (
            "The server cannot serve this now: a limit is reached, the store failed "
            "(nothing changed), or the match's stored rows are damaged (see Retry-After)"
        ),
    }
    out: dict[str, Any] = {}
    for c in codes:
        out[str(c)] = {"description": words[c], "content": _json("Error")}
        if c in (429, 503):
            out[str(c)]["headers"] = {"Retry-After": RETRY_AFTER}
    return out


RETRY_AFTER = {
    "description": "Seconds after which the request may succeed.",
    "required": True,
    "schema": {"type": "string", "pattern": "^[0-9]+$"},
}


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}
TOKEN_HEADER = {
    "name": "X-Seat-Token",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "The seat's secret token; without it you are a spectator.",
}
TOKEN_QUERY = {
    "name": "token",
    "in": "query",
    "required": False,
    "schema": {"type": "string"},
    "description": "The seat's token (for EventSource, which cannot send headers).",
}

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Gameweave local server",
        "version": "1",
        "description": (
            "Create a match of any installed title, hand each seat its secret link, "
            "and play: every response is built from the asking seat's view only."
        ),
    },
    "paths": {
        "/api/titles": {
            "get": {
                "summary": "The installed titles",
                "operationId": "listTitles",
                "responses": {
                    "200": {
                        "description": "Titles",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Title"},
                                }
                            }
                        },
                    }
                },
            }
        },
        "/api/titles/{name}/rules": {
            "get": {
                "summary": "A title's rules for players, by topic",
                "operationId": "titleRules",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": {"description": "The rules", "content": _json("Rules")},
                    "404": {
                        "description": "No such title, or a title without rules text",
                        "content": _json("Error"),
                    },
                },
            }
        },
        "/api/server": {
            "get": {
                "summary": "How this server runs",
                "operationId": "serverInfo",
                "responses": {
                    "200": {"description": "The server's mode", "content": _json("Server")}
                },
            }
        },
        "/api/matches": {
            "get": {
                "summary": "The newest matches (public facts only)",
                "operationId": "listMatches",
                "responses": {
                    "200": {
                        "description": "Matches",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Summary"},
                                }
                            }
                        },
                    },
                    **_errors(503),
                },
            },
            "post": {
                "summary": "Create a match; bots take their turns at once",
                "operationId": "createMatch",
                "requestBody": {"required": True, "content": _json("CreateMatch")},
                "responses": {
                    "201": {"description": "Created", "content": _json("Created")},
                    **_errors(400, 404, 413, 415, 422, 429, 503),
                    "403": {
                        "description": (
                            "A chosen seed or a test-only option, on a server not in "
                            "development mode; or an Origin that is not the server's"
                        ),
                        "content": _json("Error"),
                    },
                },
            },
        },
        "/api/matches/{match_id}": {
            "get": {
                "summary": "What the token's seat (or a spectator) may see",
                "operationId": "readMatch",
                "parameters": [MATCH_ID, TOKEN_HEADER, TOKEN_QUERY],
                "responses": {
                    "200": {"description": "The seat's payload", "content": _json("Payload")},
                    **_errors(403, 404, 503),
                },
            }
        },
        "/api/matches/{match_id}/actions": {
            "post": {
                "summary": "Submit an action for the token's seat",
                "operationId": "submitAction",
                "parameters": [MATCH_ID, {**TOKEN_HEADER, "required": True}],
                "requestBody": {"required": True, "content": _json("Submit")},
                "responses": {
                    "200": {
                        "description": "Accepted; the seat's payload after the bots replied",
                        "content": _json("Payload"),
                    },
                    **_errors(400, 401, 403, 404, 409, 413, 415, 422, 503),
                },
            }
        },
        "/api/matches/{match_id}/seats/{seat}/token": {
            "post": {
                "summary": "A new secret link for a seat; its old token stops working",
                "operationId": "reissueSeatToken",
                "parameters": [
                    MATCH_ID,
                    {
                        "name": "seat",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1, "maximum": 999999},
                    },
                    {
                        "name": "X-Host-Token",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string"},
                        "description": "The host token the match's creation returned.",
                    },
                ],
                "requestBody": {"required": True, "content": _json("Reissue")},
                "responses": {
                    "200": {"description": "The new token and link", "content": _json("Reissued")},
                    **_errors(400, 413, 415, 503),
                    "401": {"description": "No host token", "content": _json("Error")},
                    "403": {
                        "description": "Not the match's host token, or an Origin not the server's",
                        "content": _json("Error"),
                    },
                    "404": {"description": "No such match", "content": _json("Error")},
                    "409": {
                        "description": "The match was created before host tokens",
                        "content": _json("Error"),
                    },
                    "422": {
                        "description": "No such seat, or a bot's seat",
                        "content": _json("Error"),
                    },
                },
            }
        },
        "/api/matches/{match_id}/hint": {
            "post": {
                "summary": "What the search would play for the token's seat now",
                "operationId": "hint",
                "parameters": [MATCH_ID, {**TOKEN_HEADER, "required": True}],
                "requestBody": {"required": True, "content": _json("Reissue")},
                "responses": {
                    "200": {"description": "The hint", "content": _json("Hint")},
                    **_errors(400, 401, 403, 404, 413, 415),
                    "409": {
                        "description": "Not the seat's turn, or the match is over",
                        "content": _json("Error"),
                    },
                    "422": {
                        "description": "The title cannot be searched (no resample hook)",
                        "content": _json("Error"),
                    },
                    "429": {
                        "description": "The seat's previous hint is still being searched",
                        "content": _json("Error"),
                        "headers": {"Retry-After": RETRY_AFTER},
                    },
                    "503": {
                        "description": (
                            "Every search worker is busy, the search failed, or the "
                            "match is unavailable (see Retry-After)"
                        ),
                        "content": _json("Error"),
                        "headers": {"Retry-After": RETRY_AFTER},
                    },
                },
            }
        },
        "/api/matches/{match_id}/events": {
            "get": {
                "summary": "Server-sent events: the seat's payload after every change",
                "operationId": "matchEvents",
                "parameters": [MATCH_ID, TOKEN_QUERY, TOKEN_HEADER],
                "responses": {
                    "200": {
                        "description": (
                            "An endless text/event-stream of `payload` events, each a "
                            "Payload as JSON"
                        ),
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **_errors(403, 404, 429, 503),
                },
            }
        },
        "/api/matches/{match_id}/log": {
            "get": {
                "summary": "The TOML log of a finished match",
                "operationId": "matchLog",
                "parameters": [MATCH_ID],
                "responses": {
                    "200": {
                        "description": "The log",
                        "content": {"application/toml": {"schema": {"type": "string"}}},
                    },
                    **_errors(404, 409, 503),
                },
            }
        },
        "/api/replay": {
            "post": {
                "summary": "Replay a log to a step and view it as a seat or a spectator",
                "operationId": "replay",
                "requestBody": {"required": True, "content": _json("Replay")},
                "responses": {
                    "200": {"description": "The replayed payload", "content": _json("Replayed")},
                    **_errors(400, 403, 413, 415, 422),
                },
            }
        },
    },
    "components": {
        "schemas": {
            "Error": ERROR,
            "Action": ACTION,
            "Payload": PAYLOAD,
            "Title": TITLE,
            "CreateMatch": CREATE,
            "Created": CREATED,
            "Submit": SUBMIT,
            "Reissue": REISSUE,
            "Reissued": REISSUED,
            "Replay": REPLAY,
            "Replayed": REPLAYED,
            "Summary": SUMMARY,
            "Server": SERVER,
            "Rules": RULES,
            "Hint": HINT,
            "HintChoice": HINT_CHOICE,
        }
    },
}


def schema(
    titles: Sequence[str] | None = None, actions: Mapping[str, type] | None = None
) -> dict[str, Any]:
    """The OpenAPI document (a fresh copy the caller may change).

    Given the names of the installed titles, the document lists them as the only
    values a new match's ``title`` may take; given their action classes by type
    (each title's ``codec.types``), an ``Action`` is one of those, with exactly
    its fields. The server serves it that way.
    """
    doc = copy.deepcopy(DOCUMENT)
    for item in doc["paths"].values():
        for method, operation in item.items():
            add_guard_responses(method, operation["responses"])
    if titles:
        prop = doc["components"]["schemas"]["CreateMatch"]["properties"]["title"]
        prop["enum"] = list(titles)
    if actions:
        described = doc["components"]["schemas"]["Action"]["description"]
        doc["components"]["schemas"]["Action"] = {
            "description": described,
            "oneOf": [action_schema(tag, cls) for tag, cls in sorted(actions.items())],
        }
    return doc


def add_guard_responses(method: str, responses: dict[str, Any]) -> None:
    """The refusals of the app's guard (``gameweave_http.app.GuardedApp``), which
    any request may get before its route sees it: a head too large (431), too
    many requests at once (503) and, on a POST, a body sent too slowly (408)."""
    responses.setdefault(
        "431",
        {
            "description": "The request head is larger than the server reads",
            "content": _json("Error"),
        },
    )
    if "503" not in responses:
        responses.update(_errors(503))
    if method == "post":
        responses.setdefault(
            "408",
            {"description": "The request body was not received in time", "content": _json("Error")},
        )
    ordered = sorted(responses.items())  # by status, as the reference lists them
    responses.clear()
    responses.update(ordered)


def action_schema(tag: str, cls: type) -> dict[str, Any]:
    """The JSON schema of one action class's canonical form: its ``type`` and its
    fields (those without a default required), nothing else."""
    hints = typing.get_type_hints(cls) if attrs.has(cls) else {}
    props: dict[str, Any] = {"type": {"const": tag}}
    required = ["type"]
    for field in attrs.fields(cls) if attrs.has(cls) else ():
        props[field.name] = type_schema(hints.get(field.name, Any))
        if field.default is attrs.NOTHING:
            required.append(field.name)
    return {
        "type": "object",
        "required": required,
        "properties": props,
        "additionalProperties": False,
    }


_SIMPLE = {int: "integer", str: "string", bool: "boolean", float: "number"}


def type_schema(kind: Any) -> dict[str, Any]:
    """A JSON schema of the values of a field annotated ``kind`` (as loose as
    needed where the annotation says little)."""
    if kind in _SIMPLE:
        return {"type": _SIMPLE[kind]}
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [{"type": "null"} if a is type(None) else type_schema(a) for a in args]}
    if origin in (list, tuple, set, frozenset, Sequence):
        inner = args[0] if (args and args[-1] is not Ellipsis) or len(args) == 2 else Any
        return {"type": "array", "items": type_schema(inner) if inner is not Any else {}}
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return {"enum": [m.value for m in kind]}
    return {}
