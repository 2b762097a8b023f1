"""The OpenAPI 3.1 document of the JSON API, served at ``/api/openapi.json``.

Written from the server's own sources, so that it cannot drift from them: the
paths and operations from the route table (:data:`gameweave_http.routes.API`),
each operation's refusals and their statuses from the error table
(:data:`gameweave_http.errors.STATUS`), the request bodies from their classes
(:mod:`gameweave_http.bodies`) and a title's actions from its action classes.
The answers' shapes (below) are built by the handlers from the core's payloads.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from . import bodies
from .errors import described, has_retry_after
from .pipeline import Op
from .refusals import (
    BadBody,
    BodyTooLarge,
    CrossSite,
    HeadTooLarge,
    NotJson,
    ServerFull,
    Stopping,
    TooSlow,
    UnknownHost,
)

# -- the answers ----------------------------------------------------------------------------

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


REISSUED = {
    "type": "object",
    "required": ["seat", "token", "url"],
    "properties": {
        "seat": {"type": "integer"},
        "token": {"type": "string", "description": "The seat's new secret token."},
        "url": {"type": "string", "description": "The seat's new join link."},
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

#: What ``POST /api/replay/verify`` finds (see :func:`gameweave_http.handlers.verification`).
VERIFIED = {
    "type": "object",
    "required": ["verified", "steps", "checked", "good", "at", "problem", "message", "rules"],
    "properties": {
        "verified": {"type": "boolean"},
        "steps": {"type": ["integer", "null"]},
        "checked": {"type": "integer"},
        "good": {"type": "integer"},
        "at": {"type": ["integer", "null"]},
        "problem": {"enum": ["edited", "rules", "cut", "unverifiable", None]},
        "mismatch": {"type": "boolean"},
        "message": {"type": ["string", "null"]},
        "rules": {"type": ["string", "null"]},
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


# -- the document ---------------------------------------------------------------------------

INFO = {
    "title": "Gameweave local server",
    "version": "1",
    "description": (
        "Create a match of any installed title, hand each seat its secret link, "
        "and play: every response is built from the asking seat's view only."
    ),
}

#: The answers' schemas, as components.
ANSWERS: dict[str, dict[str, Any]] = {
    "Error": ERROR,
    "Action": ACTION,
    "Payload": PAYLOAD,
    "Title": TITLE,
    "Created": CREATED,
    "Reissued": REISSUED,
    "Replayed": REPLAYED,
    "Verified": VERIFIED,
    "Summary": SUMMARY,
    "Server": SERVER,
    "Rules": RULES,
    "Hint": HINT,
    "HintChoice": HINT_CHOICE,
}

#: Refusals the pipeline may answer any request with before its route sees it (or,
#: for a stop, instead of it); a ``POST`` may also be refused as not JSON or from
#: another site, or its body as too slow; a body as malformed or too large.
EVERY = (UnknownHost, HeadTooLarge, ServerFull, Stopping)
POSTED = (NotJson, CrossSite, TooSlow)
WITH_BODY = (BadBody, BodyTooLarge)

RETRY_AFTER = {
    "description": "Seconds after which the request may succeed.",
    "required": True,
    "schema": {"type": "string", "pattern": "^[0-9]+$"},
}


class ApiPath(Protocol):
    """One path of a route table and its operations by method
    (:class:`gameweave_http.routes.Api`)."""

    @property
    def path(self) -> str: ...

    @property
    def ops(self) -> Mapping[str, Op]: ...


def schema(
    api: Sequence[ApiPath],
    path_params: Mapping[str, Mapping[str, Any]],
    titles: Sequence[str] | None = None,
    actions: Mapping[str, type] | None = None,
) -> dict[str, Any]:
    """The OpenAPI document of the route table ``api`` (a fresh copy the caller may
    change): a pure function of the table, the bodies' classes and the statuses of
    the refusals. ``path_params`` is the schema of each parameter the paths take;
    :func:`gameweave_http.routes.schema` passes the server's own table.

    Given the names of the installed titles, the document lists them as the only
    values a new match's ``title`` may take; given their action classes by type
    (each title's ``codec.types``), an ``Action`` is one of those, with exactly
    its fields. The server serves it that way.
    """
    components: dict[str, Any] = {name: _copy(value) for name, value in ANSWERS.items()}
    paths: dict[str, Any] = {}
    for entry in api:
        item = paths.setdefault(entry.path, {})
        names = [part[1:-1] for part in entry.path.split("/") if part.startswith("{")]
        params = [
            {"name": n, "in": "path", "required": True, "schema": dict(path_params[n])}
            for n in names
        ]
        for method, op in entry.ops.items():
            if op.body is not None:
                components[op.body.__name__] = body_schema(op.body)
            item[method.lower()] = operation(method, op, params)
    if titles:
        prop = components["CreateMatch"]["properties"]["title"]
        prop["enum"] = list(titles)
    if actions:
        components["Action"] = {
            "description": ACTION["description"],
            "oneOf": [action_schema(tag, cls) for tag, cls in sorted(actions.items())],
        }
    return {
        "openapi": "3.1.0",
        "info": dict(INFO),
        "paths": paths,
        "components": {"schemas": components},
    }


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def operation(method: str, op: Op, path_params: list[dict[str, Any]]) -> dict[str, Any]:
    """One operation of the document, from its entry in the route table."""
    answer = _ref(op.answer) if isinstance(op.answer, str) else _copy(op.answer)
    out: dict[str, Any] = {"summary": op.summary, "operationId": op.name}
    params = [*path_params, *(dict(p) for p in op.params)]
    if params:
        out["parameters"] = params
    refusals = (*op.refusals, *EVERY)
    if method == "POST":
        refusals += POSTED
    if op.body is not None:
        out["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(op.body.__name__)}},
        }
        refusals += WITH_BODY
    responses: dict[str, Any] = {
        str(op.status): {"description": op.answer_doc, "content": {op.media: {"schema": answer}}}
    }
    for status, words in described(refusals).items():
        response: dict[str, Any] = {
            "description": words,
            "content": {"application/json": {"schema": _ref("Error")}},
        }
        if has_retry_after(refusals, status):
            response["headers"] = {"Retry-After": dict(RETRY_AFTER)}
        responses[str(status)] = response
    out["responses"] = dict(sorted(responses.items()))  # by status, as the reference lists them
    return out


def body_schema(cls: type) -> dict[str, Any]:
    """The JSON schema of a request body class: its fields, those without a default
    required, nothing else."""
    props: dict[str, Any] = {}
    required = []
    for name, kind, needed, meta in bodies.fields_of(cls):
        extra = meta.get("schema", {})
        if "$ref" in extra or "oneOf" in extra:
            prop = _copy(extra)
        else:
            prop = {**type_schema(kind), **extra}
        if meta.get("doc"):
            prop["description"] = meta["doc"]
        props[name] = prop
        if needed:
            required.append(name)
    out: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": props}
    if required:
        out["required"] = required
    if not props:
        out["maxProperties"] = 0
    if cls.__doc__:
        out["description"] = " ".join(cls.__doc__.split())
    return out


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
    if typing.get_origin(kind) is dict:
        return {"type": "object"}
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        if len(args) == 2 and type(None) in args:  # an optional field: its type or null
            inner = type_schema(next(a for a in args if a is not type(None)))
            if isinstance(inner.get("type"), str):
                return {**inner, "type": [inner["type"], "null"]}
        return {"anyOf": [{"type": "null"} if a is type(None) else type_schema(a) for a in args]}
    if origin in (list, tuple, set, frozenset, Sequence):
        item = args[0] if (args and args[-1] is not Ellipsis) or len(args) == 2 else Any
        return {"type": "array", "items": type_schema(item) if item is not Any else {}}
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return {"enum": [m.value for m in kind]}
    return {}
