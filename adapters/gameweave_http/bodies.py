"""The request bodies the API takes, as typed classes: one source for the server,
which structures every body into its class, and for the OpenAPI document, which
describes each body from its class (:func:`gameweave_http.openapi.body_schema`).

Bodies are structured by the project's strict cattrs converter
(:func:`gameweave_core.make_converter`: unknown keys refused, no coercion of
primitives), with one change for JSON: a whole number may be written ``2.0``
(JSON, and the document's ``integer``, do not tell them apart), except in a new
match's body, whose numbers are counts and seats: there ``players``, ``seed``
and each seat of ``bots`` must be written as integers (``2``, not ``2.0``), and a
seat key plainly (``"2"``, not ``"02"``, so that no seat is named twice), or the
body is refused as unplayable (422, :class:`~gameweave_http.refusals.Unplayable`).
Whatever is
wrong is refused with one line naming the field and the kind of value sent, never
the value (:func:`structure`); a number out of a field's range (a seed, a seat)
is refused by the route, which knows the range.

A field's ``metadata`` holds what the document says of it (``doc``), the words
of its refusal (``must``: ``"seed" must be a whole number, got a string``), and
JSON-schema keywords to add to its schema (``schema``).
"""

from __future__ import annotations

import functools
import re
import typing
from typing import Any, TypeVar, cast

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError

from gameweave_core import make_converter

from .refusals import BadBody, Refusal, Unplayable
from .wire import kind, short

T = TypeVar("T")

#: A whole number written as a float must be within this (of 64 bits).
INT64 = 2**63


def meta(
    doc: str, must: str = "", schema: dict[str, Any] | None = None, integer: bool = False
) -> dict[str, Any]:
    """A field's metadata as this module and the document read it. ``integer``: a
    number must be written as one (``2``, not ``2.0``; see :func:`structure`)."""
    return {"doc": doc, "must": must, "schema": schema or {}, "integer": integer}


class BotSeats(dict[int, str | None]):
    """``"bots"`` of a new match: ``[2, 3]`` (each seat its title's default bot) or
    ``{"2": "random", "3": null}`` (each seat's bot by name), as seat -> bot name."""


@attrs.frozen
class Submit:
    """An action for the token's seat, on the version of the match its page shows."""

    version: int = attrs.field(
        metadata=meta(
            "The match version the client last saw; any other gets 409, unless only other "
            "seats' choices of the same round came in since and the seat's legal actions "
            "are unchanged.",
            must="must be the match version you last saw",
        )
    )
    action: Any = attrs.field(
        metadata=meta(
            "The action in its canonical JSON form, e.g. "
            '{"type": "bid", "coins": 3}; read by the title (400 if it cannot be).',
            must='needs an "action" object, e.g. {"type": ...}',
            schema={"$ref": "#/components/schemas/Action"},
        )
    )


@attrs.frozen
class CreateMatch:
    """A new match: its title, number of players and options."""

    title: str = attrs.field(
        metadata=meta("A title's name, e.g. museum.", must="must be a string naming a title")
    )
    players: int = attrs.field(
        metadata=meta(
            "The number of players.",
            must="must be a whole number",
            schema={"minimum": 1, "maximum": 64},
            integer=True,
        )
    )
    seed: int | None = attrs.field(
        metadata=meta(
            "The match's seed. Refused (403) unless the server runs in development mode "
            "(`gameweave serve --dev`): whoever chose the seed could know every secret. By "
            "default the server draws it and never tells it.",
            must="must be a whole number",
            schema={"minimum": 0, "maximum": INT64 - 1},
            integer=True,
        ),
        default=None,
    )
    config: dict[str, Any] = attrs.field(
        metadata=meta(
            "The title's options, among those `/api/titles` offers. A title's test-only "
            "options (which fix hidden information, e.g. a stacked deck) are refused (403) "
            "unless the server runs in development mode.",
            must="must be an object",
        ),
        factory=dict,
    )
    bots: BotSeats = attrs.field(
        metadata=meta(
            "Seats played by the server's bots: a list of seats (default bots) or an "
            'object {"2": "random", "3": null} naming each seat\'s bot.',
            must="must be an array of seats or an object",
            schema={
                "oneOf": [
                    {"type": "array", "items": {"type": "integer"}},
                    {
                        "type": "object",
                        "propertyNames": {"pattern": "^[0-9]{1,6}$"},
                        "additionalProperties": {"type": ["string", "null"]},
                    },
                ]
            },
        ),
        factory=BotSeats,
    )


@attrs.frozen
class ReplayLog:
    """A log to replay to a step, seen as a seat or a spectator."""

    log: str = attrs.field(
        metadata=meta(
            "The text of a TOML match log.",
            must="must be the text of a TOML log",
            schema={"minLength": 1},
        )
    )
    step: int | None = attrs.field(
        metadata=meta("Actions to replay (default: all).", must="must be a whole number"),
        default=None,
    )
    seat: int | None = attrs.field(
        metadata=meta("The seat to view; null: spectator.", must="must be a seat number or null"),
        default=None,
    )


@attrs.frozen
class Empty:
    """Nothing: an empty object."""


# -- structuring ------------------------------------------------------------------------------


def _whole(value: Any, _: Any) -> int:
    """A whole number of a body: an int (of any size: what it may be is the route's
    business, e.g. a seed's range), or a float with nothing after the point within
    64 bits; booleans are not numbers."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer() and -INT64 <= value < INT64:
        return int(value)
    raise TypeError("not a whole number")


def _object(value: Any, _: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("not an object")
    return value


#: A seat number as a key of ``"bots"``: ASCII digits only (``str.isdigit`` also
#: takes "²", which ``int`` refuses).
_SEAT_KEY = re.compile(r"[0-9]{1,6}")


def not_integer(name: str) -> Unplayable:
    """The refusal of a count or a seat written with a decimal point."""
    return Unplayable(f'"{name}" must be an integer, written without a decimal point (2, not 2.0)')


def _bot_seats(raw: Any, _: Any) -> BotSeats:
    # Refused here with words of their own: the field's general words would not
    # say which part of the list or object is wrong.
    if isinstance(raw, list):
        seats = BotSeats()
        for item in raw:
            if isinstance(item, float) and item.is_integer():
                raise not_integer("bots") from None
            try:
                seats[_whole(item, int)] = None
            except TypeError:
                raise BadBody('"bots" must list seat numbers, e.g. [2, 3]') from None
        return seats
    if isinstance(raw, dict):
        seats = BotSeats()
        for key, name in raw.items():
            if not _SEAT_KEY.fullmatch(key):
                raise BadBody(f'"bots" keys must be seat numbers, got {short(key)!r}')
            if key != str(int(key)):
                # "02" and "2" would be the same seat, named twice.
                raise Unplayable(
                    f'"bots" keys must be seat numbers written plainly ("2", not "02"), '
                    f"got {short(key)!r}"
                )
            if name is not None and not isinstance(name, str):
                raise BadBody(f'"bots" values must be bot names or null, got {kind(name)}')
            seats[int(key)] = name or None
        return seats
    raise TypeError("not an array or an object")


def _converter() -> cattrs.Converter:
    conv = make_converter()
    conv.register_structure_hook(int, _whole)
    conv.register_structure_hook_func(lambda kind: kind == dict[str, Any], _object)
    conv.register_structure_hook(BotSeats, _bot_seats)
    return conv


CONVERTER = _converter()


def structure(cls: type[T], data: Any) -> T:
    """``data`` (a parsed JSON body) as ``cls``, or :class:`BadBody` saying in one
    line what is wrong: not an object, an unknown field (the first, by name), or
    the first field (in the class's order) that is missing or of the wrong kind."""
    if not isinstance(data, dict):
        raise BadBody(f"the body must be a JSON object, got {kind(data)}")
    plain = _plain_fields(cast(type, cls))
    if plain is not None and len(data) == len(plain):
        # The usual body of a move (an int and an action) needs none of cattrs'
        # work: exactly the class's fields, each an int or a field of any value.
        # Anything else (a missing or unknown field, a float, a boolean) takes
        # cattrs' road below, and its refusal. 2.8% of the server's CPU per move.
        try:
            if all(anything or type(data[name]) is int for name, anything in plain):
                return cls(**data)
        except KeyError:
            pass
    for name in _integer_fields(cast(type, cls)):
        value = data.get(name)
        # 2.0 is refused as not an integer; 2.5, as not a whole number at all.
        if isinstance(value, float) and value.is_integer():
            raise not_integer(name)
    try:
        return CONVERTER.structure(data, cls)
    except ClassValidationError as exc:
        raise _refusal(cls, data, exc) from None
    except ForbiddenExtraKeysError as exc:  # a class without fields says so at once
        raise _unknown(cls, exc.extra_fields) from None


@functools.cache
def _plain_fields(cls: type) -> tuple[tuple[str, bool], ...] | None:
    """Each field of ``cls`` and whether it takes any value (typed ``Any``), when
    every field is typed ``int`` or ``Any`` and has no converter, validator or
    default: a body of exactly those fields, each ``int`` one an int, is the class
    as cattrs would make it. ``None`` for any other class."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in attrs.fields(cls):
        kind_ = hints[f.name]
        if kind_ not in (int, Any) or f.converter or f.validator or f.default is not attrs.NOTHING:
            return None
        out.append((f.name, kind_ is Any))
    return tuple(out)


@functools.cache
def _integer_fields(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` whose numbers must be written as integers."""
    return tuple(f.name for f in attrs.fields(cls) if f.metadata.get("integer"))


def _unknown(cls: type, extra: set[str]) -> BadBody:
    names = ", ".join(sorted(f.name for f in attrs.fields(cls)))
    takes = f"fields: {names}" if names else "it takes none: send {}"
    return BadBody(f"the body has unknown field {short(sorted(extra)[0])!r}; {takes}")


def _refusal(cls: type, data: dict[str, Any], exc: ClassValidationError) -> Refusal:
    """The one refusal of a body cattrs could not structure."""
    failed: dict[str, BaseException] = {}
    for error in exc.exceptions:
        if isinstance(error, ForbiddenExtraKeysError):
            return _unknown(cls, error.extra_fields)
        for note in getattr(error, "__notes__", ()):
            name = getattr(note, "name", None)
            if name is not None:
                failed.setdefault(name, error)
    for f in attrs.fields(cls):
        found = failed.get(f.name)
        if found is None:
            continue
        if isinstance(found, Refusal):
            return found
        must = f.metadata.get("must", "is not valid")
        if must.startswith("needs") and not isinstance(found, TypeError):
            return BadBody(f"the body {must}")
        return BadBody(f'"{f.name}" {must}, got {kind(data.get(f.name))}')
    return BadBody(f"the body is not a valid {cls.__name__}")


def fields_of(cls: type) -> list[tuple[str, Any, bool, dict[str, Any]]]:
    """Each field of a body class: its name, type, whether it is required, and its
    metadata (for the document)."""
    hints = typing.get_type_hints(cls)
    return [
        (f.name, hints[f.name], f.default is attrs.NOTHING, dict(f.metadata))
        for f in attrs.fields(cls)
    ]
