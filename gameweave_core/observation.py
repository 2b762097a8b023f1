"""View schemas and the generic encoder: a seat's view as a flat list of numbers.

A title declares the shape of its views with the optional hook
``view_schema(players, config)``, built from the constructors below::

    def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
        return Record(
            cells=ListOf(OneOf(["", "X", "O"]), length=9),
            turn=IntRange(1, 2),
        )

From it the core derives an :class:`ObservationSpec` (how many numbers, and what
each range of them holds) and encodes any view of the title into that many
floats, computed from the view alone (never from the state). Nothing is dropped
silently: a value the schema does not cover (a key it does not name, a list
longer than its ``max_len``, a value outside an enum or range) raises
:class:`ViewOutsideSchema` naming the place in the view; a part of the view that
is deliberately not encoded (free text) says so with :class:`NotEncoded` and a
reason.

The encodings:

- :class:`Bool`: one number, 1 or 0.
- :class:`IntRange` ``(low, high)``: one number, ``(v - low) / (high - low)``;
  with ``one_hot=True`` one number per value instead.
- :class:`Number` ``(low, high)``: one number, scaled like :class:`IntRange`.
- :class:`OneOf` ``(values)``: one number per value, 1 at the value's place.
- :class:`Bag` ``(values, max_count)``: a list of those values in any order, as
  one number per value: its count divided by ``max_count``.
- :class:`ListOf` ``(item, max_len)``: ``max_len`` slots of one presence number
  then the item's numbers (zeros past the end); ``length=n`` instead of
  ``max_len`` fixes the length (no presence numbers; any other length is an error).
- :class:`MapOf` ``(keys, value)``: per key, in the given order, a presence
  number then the value's numbers (a JSON object whose keys are among ``keys``).
- :class:`Record` ``(**fields)``: a JSON object with those keys, each field's
  numbers in the order given; a field wrapped in :class:`Maybe` may be missing.
- :class:`Maybe` ``(schema)``: a presence number then the schema's numbers
  (zeros when the value is missing or ``None``).
- :class:`NotEncoded` ``(reason)``: no numbers; any value is accepted. The
  reason is listed in the spec's ``not_encoded``.

The core stays free of NumPy: :func:`encode` returns a plain list of floats
(an adapter makes an array of it).
"""

from __future__ import annotations

import abc
import enum
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Protocol, cast

import attrs

from .errors import GameweaveError


class ViewOutsideSchema(GameweaveError):
    """A view holds a value its title's view schema does not cover. The message is
    one line: where in the view (``view["cells"][3]``), the value and what the
    schema allows there."""


class NoViewSchema(GameweaveError):
    """An observation was asked of a title that declares no ``view_schema``."""


def _where(path: str) -> str:
    return f"view{path}" if path else "the view"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _freeze(value: Any) -> Any:
    """A hashable key of a JSON value that keeps kinds apart, all the way down
    (``True`` is not ``1``, ``1.0`` is not ``1``, ``[1]`` is not ``(1,)`` in a view
    read back from JSON, but lists and tuples are both JSON arrays)."""
    kind = type(value)
    if kind is dict or isinstance(value, Mapping):
        return ("{}", tuple(sorted((str(k), _freeze(v)) for k, v in value.items())))
    if kind is list or kind is tuple:
        return ("[]", tuple(_freeze(v) for v in value))
    return (kind, value)


class _Miss(Exception):
    """Raised by a compiled encoder for a value it does not take; the schema's own
    ``write`` then finds the place and says what is wrong."""


_MISS = _Miss()


class Sink(Protocol):
    """Where an encoder writes: ``out[i] = x`` (a list of zeros, or a dict that
    collects only the numbers written)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


#: A compiled encoder: writes a value's numbers at an offset, or raises.
Encoder = Callable[[Any, Sink, int], None]


_SCALARS = (str, int, float, bool, type(None))
_ABSENT = object()


class _Index:
    """The place of each allowed value, by :func:`_freeze` key: one dict lookup
    per value, kinds kept apart."""

    __slots__ = ("by_key", "by_repr", "hashable", "places")

    def __init__(self, values: Sequence[Any]) -> None:
        self.places: dict[Any, int] = {}
        #: The places of objects and lists by their ``repr`` too: written by C code,
        #: it tells JSON kinds apart, and finds a card built in the usual key order
        #: without freezing it (a miss falls back to the frozen key).
        self.by_repr: dict[str, int] = {}
        for i, v in enumerate(values):
            key = _freeze(v)
            if key in self.places:
                raise ValueError(f"a schema lists the value {v!r} twice")
            self.places[key] = i
            if isinstance(v, dict | list):
                self.by_repr[repr(v)] = i
        #: Whether every value is a plain scalar, looked up as ``(type(v), v)``.
        self.hashable = all(type(v) in _SCALARS for v in values)
        #: Objects of plain scalars (cards: an id, a kind, a name) told apart by one
        #: of their keys: the key, and per ``(type, value)`` under it the place, the
        #: object and its values' types (checked, so that ``1`` is not ``true``).
        self.by_key: tuple[str, dict[Any, tuple[int, Any, tuple[type, ...]]]] | None = None
        flat = [
            v for v in values if type(v) is dict and all(type(x) in _SCALARS for x in v.values())
        ]
        if flat and len(flat) == len(values):
            for key in flat[0]:
                table = {}
                for i, v in enumerate(flat):
                    if key in v:
                        x = v[key]
                        table[(type(x), x)] = (i, v, tuple(map(type, v.values())))
                if len(table) == len(flat):
                    self.by_key = (key, table)
                    break

    def find(self, value: Any) -> int | None:
        try:
            return self.places.get((type(value), value))
        except TypeError:  # a list or an object
            pass
        by_key = self.by_key
        if by_key is not None and type(value) is dict:
            key, table = by_key
            x = value.get(key, _ABSENT)
            try:
                hit = table.get((type(x), x))
            except TypeError:  # an unhashable value under the key: no such object
                hit = None
            if hit is not None and value == hit[1] and tuple(map(type, value.values())) == hit[2]:
                return hit[0]
        found = self.by_repr.get(repr(value))
        return found if found is not None else self.places.get(_freeze(value))


class Schema(abc.ABC):
    """One part of a view's shape. Its :attr:`width` is how many numbers it
    encodes into."""

    @property
    @abc.abstractmethod
    def width(self) -> int:
        """How many numbers a value of this schema encodes into."""

    @abc.abstractmethod
    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        """Write ``value``'s numbers into ``out[at:at + width]`` (``out`` holds
        zeros there); raise :class:`ViewOutsideSchema` for a value it does not cover.
        The reference encoding, which names the place of what it refuses."""

    def compile(self) -> Encoder:
        """A fast encoder of this schema: the same numbers as :meth:`write` for a
        value it takes; for any other it raises (without naming the place). Default:
        :meth:`write` itself."""
        write = self.write

        def encode(value: Any, out: Sink, at: int) -> None:
            # A write reads nothing back: any sink takes what it writes.
            write(value, cast(list[float], out), at, "")

        return encode

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        """The spec's entries for this schema: (path, offset, width, description)."""
        yield (_where(path), at, self.width, self.describe())

    def describe(self) -> str:
        """A few words for the spec: what the numbers mean."""
        return type(self).__name__

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        """The parts left unencoded on purpose: (path, reason)."""
        return ()


@attrs.frozen
class Bool(Schema):
    """``true`` or ``false``: one number, 1 or 0."""

    @property
    def width(self) -> int:
        return 1

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if type(value) is not bool:
            raise ViewOutsideSchema(f"{_where(path)} is {_short(value)}, not true or false")
        out[at] = 1.0 if value else 0.0

    def compile(self) -> Encoder:
        def encode(value: Any, out: Sink, at: int) -> None:
            if value is True:
                out[at] = 1.0
            elif value is not False:
                raise _MISS

        return encode

    def describe(self) -> str:
        return "bool"


@attrs.frozen
class IntRange(Schema):
    """A whole number from ``low`` to ``high`` (both included): one number scaled to
    0..1, or with ``one_hot=True`` one number per value."""

    low: int
    high: int
    one_hot: bool = False

    def __attrs_post_init__(self) -> None:
        if self.high < self.low:
            raise ValueError(f"IntRange({self.low}, {self.high}) is empty")

    @property
    def width(self) -> int:
        return self.high - self.low + 1 if self.one_hot else 1

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if type(value) is not int or not self.low <= value <= self.high:
            raise ViewOutsideSchema(
                f"{_where(path)} is {_short(value)}, not a whole number from "
                f"{self.low} to {self.high}"
            )
        if self.one_hot:
            out[at + value - self.low] = 1.0
        elif self.high > self.low:
            out[at] = (value - self.low) / (self.high - self.low)

    def compile(self) -> Encoder:
        low, high = self.low, self.high
        span = high - low

        if self.one_hot:

            def one_hot(value: Any, out: Sink, at: int) -> None:
                if type(value) is not int or not low <= value <= high:
                    raise _MISS
                out[at + value - low] = 1.0

            return one_hot

        def scaled(value: Any, out: Sink, at: int) -> None:
            if type(value) is not int or not low <= value <= high:
                raise _MISS
            if span:
                out[at] = (value - low) / span

        return scaled

    def describe(self) -> str:
        kind = "one-hot" if self.one_hot else "scaled"
        return f"int {self.low}..{self.high} ({kind})"


@attrs.frozen
class Number(Schema):
    """A number (whole or not) from ``low`` to ``high``: one number scaled to 0..1."""

    low: float
    high: float

    @property
    def width(self) -> int:
        return 1

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not self.low <= value <= self.high:
            raise ViewOutsideSchema(
                f"{_where(path)} is {_short(value)}, not a number from {self.low} to {self.high}"
            )
        if self.high > self.low:
            out[at] = (value - self.low) / (self.high - self.low)

    def describe(self) -> str:
        return f"number {self.low}..{self.high} (scaled)"


def _listed(values: Iterable[Any] | type[enum.Enum]) -> tuple[Any, ...]:
    if isinstance(values, type) and issubclass(values, enum.Enum):
        return tuple(m.value for m in values)
    found = tuple(values)
    if not found:
        raise ValueError("a schema's list of values is empty")
    return found


@attrs.frozen
class OneOf(Schema):
    """One of a few JSON values (text, whole numbers, flags, or whole objects and
    lists; an Enum class gives its members' values): one number per value, 1 at the
    value's place; with ``one_hot=False`` one number, the value's place scaled to
    0..1 (for long lists of values such as squares, where one-hot would be big)."""

    values: tuple[Any, ...] = attrs.field(converter=_listed)
    one_hot: bool = True

    @cached_property
    def _index(self) -> _Index:
        return _Index(self.values)

    def __attrs_post_init__(self) -> None:
        self._index  # noqa: B018 - refuses a value listed twice now, not at first use

    @property
    def width(self) -> int:
        return len(self.values) if self.one_hot else 1

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        i = self._index.find(value)
        if i is None:
            shown = ", ".join(_short(v) for v in self.values[:8])
            more = ", ..." if len(self.values) > 8 else ""
            raise ViewOutsideSchema(f"{_where(path)} is {_short(value)}, not one of {shown}{more}")
        if self.one_hot:
            out[at + i] = 1.0
        elif len(self.values) > 1:
            out[at] = i / (len(self.values) - 1)

    def compile(self) -> Encoder:
        index = self._index
        places = index.places
        find = index.find
        last = len(self.values) - 1

        if self.one_hot and index.hashable:

            def plain(value: Any, out: Sink, at: int) -> None:
                try:
                    out[at + places[(type(value), value)]] = 1.0
                except (KeyError, TypeError):
                    raise _MISS from None

            return plain

        def general(value: Any, out: Sink, at: int) -> None:
            i = find(value)
            if i is None:
                raise _MISS
            if self.one_hot:
                out[at + i] = 1.0
            elif last:
                out[at] = i / last

        return general

    def describe(self) -> str:
        if not self.one_hot:
            return f"index of {len(self.values)} values (scaled)"
        return f"one-hot of {len(self.values)} values"


@attrs.frozen
class Bag(Schema):
    """A list of values from ``values`` in no particular order (a hand of cards):
    one number per value, its count divided by ``max_count``."""

    values: tuple[Any, ...] = attrs.field(converter=_listed)
    max_count: int = 1

    @cached_property
    def _index(self) -> _Index:
        return _Index(self.values)

    def __attrs_post_init__(self) -> None:
        self._index  # noqa: B018 - refuses a value listed twice now, not at first use

    @property
    def width(self) -> int:
        return len(self.values)

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if not isinstance(value, list | tuple):
            raise ViewOutsideSchema(f"{_where(path)} is {_short(value)}, not a list")
        counts = [0] * len(self.values)
        for n, item in enumerate(value):
            i = self._index.find(item)
            if i is None:
                raise ViewOutsideSchema(
                    f"{_where(f'{path}[{n}]')} is {_short(item)}, not one of the bag's values"
                )
            counts[i] += 1
        for i, c in enumerate(counts):
            if c > self.max_count:
                raise ViewOutsideSchema(
                    f"{_where(path)} holds {_short(self.values[i])} {c} times, "
                    f"more than the schema's {self.max_count}"
                )
            out[at + i] = c / self.max_count

    def compile(self) -> Encoder:
        find = self._index.find
        most = self.max_count

        def encode(value: Any, out: Sink, at: int) -> None:
            if not isinstance(value, list | tuple):
                raise _MISS
            counts: dict[int, int] = {}
            for item in value:
                i = find(item)
                if i is None:
                    raise _MISS
                counts[i] = counts.get(i, 0) + 1
            for i, c in counts.items():
                if c > most:
                    raise _MISS
                out[at + i] = c / most

        return encode

    def describe(self) -> str:
        return f"counts of {len(self.values)} values (/ {self.max_count})"


@attrs.frozen
class Maybe(Schema):
    """``schema``, or missing / ``None``: a presence number, then its numbers."""

    schema: Schema

    @property
    def width(self) -> int:
        return 1 + self.schema.width

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if value is None:
            return
        out[at] = 1.0
        self.schema.write(value, out, at + 1, path)

    def compile(self) -> Encoder:
        inner = self.schema.compile()

        def encode(value: Any, out: Sink, at: int) -> None:
            if value is not None:
                out[at] = 1.0
                inner(value, out, at + 1)

        return encode

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        yield (_where(path), at, 1, "present")
        yield from self.schema.parts(path, at + 1)

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        return self.schema.skipped(path)


@attrs.frozen
class NotEncoded(Schema):
    """A part of the view left out of the numbers on purpose (free text, a label
    for people): no numbers; ``reason`` says why, and is listed in the spec."""

    reason: str

    @property
    def width(self) -> int:
        return 0

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        return

    def compile(self) -> Encoder:
        def encode(value: Any, out: Sink, at: int) -> None:
            return

        return encode

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        return ()

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        yield (_where(path), self.reason)


@attrs.frozen(eq=False)
class Const(Schema):
    """A part of the view that is the same in every view of every match of the
    title for a player count and options (a floor plan): no numbers, and the value
    is checked to be ``value`` (equal as JSON), so a board that changes is caught.
    ``reason`` says why it is left out, and is listed in the spec."""

    value: Any
    reason: str = "the same in every view"

    @property
    def width(self) -> int:
        return 0

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if value is not self.value and value != self.value:
            raise ViewOutsideSchema(
                f"{_where(path)} is {_short(value)}, not the constant the schema declares"
            )

    def compile(self) -> Encoder:
        fixed = self.value

        def encode(value: Any, out: Sink, at: int) -> None:
            if value is not fixed and value != fixed:
                raise _MISS

        return encode

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        return ()

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        yield (_where(path), f"constant: {self.reason}")


@attrs.frozen
class ListOf(Schema):
    """A list of ``item`` values, at most ``max_len`` long: per slot a presence
    number and the item's numbers. ``length=n`` (instead of ``max_len``) fixes the
    length: no presence numbers, and any other length is an error."""

    item: Schema
    max_len: int | None = None
    length: int | None = None

    def __attrs_post_init__(self) -> None:
        if (self.max_len is None) == (self.length is None):
            raise ValueError("ListOf needs exactly one of max_len= or length=")

    @property
    def _slots(self) -> int:
        return self.length if self.length is not None else self.max_len or 0

    @property
    def _slot_width(self) -> int:
        return self.item.width + (0 if self.length is not None else 1)

    @property
    def width(self) -> int:
        return self._slots * self._slot_width

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if not isinstance(value, list | tuple):
            raise ViewOutsideSchema(f"{_where(path)} is {_short(value)}, not a list")
        if self.length is not None and len(value) != self.length:
            raise ViewOutsideSchema(
                f"{_where(path)} has {len(value)} items, not the schema's {self.length}"
            )
        if len(value) > self._slots:
            raise ViewOutsideSchema(
                f"{_where(path)} has {len(value)} items, more than the schema's {self._slots}"
            )
        fixed = self.length is not None
        step = self._slot_width
        item = self.item
        for n, v in enumerate(value):
            start = at + n * step
            if not fixed:
                out[start] = 1.0
                start += 1
            item.write(v, out, start, f"{path}[{n}]")

    def compile(self) -> Encoder:
        item = self.item
        slots = self._slots
        step = self._slot_width
        if self.length is not None:
            if isinstance(item, OneOf) and item.one_hot and item._index.hashable:
                places = item._index.places

                def fixed_choices(value: Any, out: Sink, at: int) -> None:
                    if (type(value) is not list and not isinstance(value, tuple)) or len(
                        value
                    ) != slots:
                        raise _MISS
                    try:
                        for v in value:
                            out[at + places[(type(v), v)]] = 1.0
                            at += step
                    except (KeyError, TypeError):
                        raise _MISS from None

                return fixed_choices
            each = item.compile()

            def fixed(value: Any, out: Sink, at: int) -> None:
                if (type(value) is not list and not isinstance(value, tuple)) or len(
                    value
                ) != slots:
                    raise _MISS
                for v in value:
                    each(v, out, at)
                    at += step

            return fixed
        each = item.compile()

        def bounded(value: Any, out: Sink, at: int) -> None:
            if (type(value) is not list and not isinstance(value, tuple)) or len(value) > slots:
                raise _MISS
            for v in value:
                out[at] = 1.0
                each(v, out, at + 1)
                at += step

        return bounded

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        step = self._slot_width
        for n in range(self._slots):
            start = at + n * step
            if self.length is None:
                yield (_where(f"{path}[{n}]"), start, 1, "present")
                start += 1
            yield from self.item.parts(f"{path}[{n}]", start)

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        return self.item.skipped(f"{path}[*]")


def _keys(keys: Iterable[str]) -> tuple[str, ...]:
    return tuple(keys)


@attrs.frozen
class MapOf(Schema):
    """A JSON object whose keys are among ``keys`` (in that order in the numbers),
    each holding a ``value``: per key a presence number and the value's numbers."""

    keys: tuple[str, ...] = attrs.field(converter=_keys)
    value: Schema = attrs.field(kw_only=True)

    @property
    def width(self) -> int:
        return len(self.keys) * (1 + self.value.width)

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if not isinstance(value, Mapping):
            raise ViewOutsideSchema(f"{_where(path)} is {_short(value)}, not an object")
        step = 1 + self.value.width
        places = {k: i for i, k in enumerate(self.keys)}
        for k, v in value.items():
            i = places.get(k)
            if i is None:
                raise ViewOutsideSchema(
                    f"{_where(path)} has the key {k!r}, which the schema does not list"
                )
            if v is None:
                continue
            start = at + i * step
            out[start] = 1.0
            self.value.write(v, out, start + 1, f"{path}[{k!r}]")

    def compile(self) -> Encoder:
        step = 1 + self.value.width
        places = {k: i * step for i, k in enumerate(self.keys)}
        each = self.value.compile()

        def encode(value: Any, out: Sink, at: int) -> None:
            if type(value) is not dict and not isinstance(value, Mapping):
                raise _MISS
            for k, v in value.items():
                start = places.get(k)
                if start is None:
                    raise _MISS
                if v is not None:
                    out[at + start] = 1.0
                    each(v, out, at + start + 1)

        return encode

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        step = 1 + self.value.width
        for i, k in enumerate(self.keys):
            yield (_where(f"{path}[{k!r}]"), at + i * step, 1, "present")
            yield from self.value.parts(f"{path}[{k!r}]", at + i * step + 1)

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        return self.value.skipped(f"{path}[*]")


#: Record fields that may be missing (or ``None``).
_OPTIONAL = (Maybe, NotEncoded, Const)


class Record(Schema):
    """A JSON object with named fields, given as keywords in the order of their
    numbers: ``Record(cells=..., turn=...)``. A field whose schema is a
    :class:`Maybe` may be missing; any other must be there, and a key the record
    does not name is an error. ``Record.of(mapping)`` takes the fields as a
    mapping (for keys that are not Python names)."""

    def __init__(self, **fields: Schema) -> None:
        self.fields: dict[str, Schema] = dict(fields)
        for name, schema in self.fields.items():
            if not isinstance(schema, Schema):
                raise TypeError(f"Record field {name!r} is {schema!r}, not a schema")
        self._width = sum(s.width for s in self.fields.values())

    @classmethod
    def of(cls, fields: Mapping[str, Schema]) -> Record:
        """A record of ``fields``, in the mapping's order."""
        return cls(**dict(fields))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"Record({inner})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(tuple(self.fields.items()))

    @property
    def width(self) -> int:
        return self._width

    def write(self, value: Any, out: list[float], at: int, path: str) -> None:
        if not isinstance(value, Mapping):
            raise ViewOutsideSchema(f"{_where(path)} is {_short(value)}, not an object")
        for k in value:
            if k not in self.fields:
                raise ViewOutsideSchema(
                    f"{_where(path)} has the key {k!r}, which the schema does not name "
                    f"(it names {', '.join(self.fields) or 'nothing'})"
                )
        for name, schema in self.fields.items():
            v = value.get(name)
            if v is None and name not in value and not isinstance(schema, _OPTIONAL):
                raise ViewOutsideSchema(f"{_where(path)} lacks the key {name!r}")
            schema.write(v, out, at, f"{path}[{name!r}]")
            at += schema.width

    def compile(self) -> Encoder:
        fields = []
        offset = 0
        for name, schema in self.fields.items():
            optional = isinstance(schema, _OPTIONAL)
            fields.append((name, schema.compile(), offset, optional))
            offset += schema.width
        absent = _ABSENT

        def encode(value: Any, out: Sink, at: int) -> None:
            if type(value) is not dict and not isinstance(value, Mapping):
                raise _MISS
            present = 0
            for name, each, offset, optional in fields:
                v = value.get(name, absent)
                if v is absent:
                    if not optional:
                        raise _MISS
                    continue
                present += 1
                if v is None and not optional:
                    raise _MISS
                each(v, out, at + offset)
            if present != len(value):  # a key the record does not name
                raise _MISS

        return encode

    def parts(self, path: str, at: int) -> Iterable[tuple[str, int, int, str]]:
        for name, schema in self.fields.items():
            yield from schema.parts(f"{path}[{name!r}]", at)
            at += schema.width

    def skipped(self, path: str) -> Iterable[tuple[str, str]]:
        for name, schema in self.fields.items():
            yield from schema.skipped(f"{path}[{name!r}]")


#: The schemas whose check takes ``None`` exactly when their reference ``write``
#: does (a required field holding ``None`` is handed to them as it is).
_REFUSE_NONE = (Bool, IntRange, Number, OneOf, Bag, Record, ListOf, MapOf)


class _Plan:
    """The source of one flat encoder for a whole schema (see :func:`plan`): each
    record's fields, each scalar's check and write inlined at its offset, lists as
    loops, so that a view costs one Python call instead of one per field. A schema
    kind it does not inline is called through its own :meth:`Schema.compile`."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, Any] = {"MISS": _MISS, "ABSENT": _ABSENT, "Mapping": Mapping}
        self.count = 0

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def const(self, value: Any, stem: str = "k") -> str:
        name = self.fresh(stem)
        self.names[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    @staticmethod
    def at(base: str, offset: int) -> str:
        return f"{base} + {offset}" if offset else base

    def value(self, schema: Schema, v: str, base: str, offset: int, depth: int) -> None:
        """Code that encodes the value in variable ``v`` at ``base + offset``, or
        raises ``MISS`` for a value the schema does not take."""
        at = self.at(base, offset)
        kind = type(schema)
        if kind is Bool:
            self.emit(depth, f"if {v} is True:")
            self.emit(depth + 1, f"out[{at}] = 1.0")
            self.emit(depth, f"elif {v} is not False:")
            self.emit(depth + 1, "raise MISS")
        elif kind is IntRange:
            assert isinstance(schema, IntRange)
            low, high = schema.low, schema.high
            self.emit(depth, f"if type({v}) is not int or not {low} <= {v} <= {high}:")
            self.emit(depth + 1, "raise MISS")
            if schema.one_hot:
                self.emit(depth, f"out[{at} + {v} - {low}] = 1.0")
            elif high > low:
                # Zeros are there already: the lowest value writes nothing.
                self.emit(depth, f"if {v} != {low}:")
                self.emit(depth + 1, f"out[{at}] = ({v} - {low}) / {high - low}")
        elif kind is OneOf and schema.one_hot and schema._index.hashable:  # type: ignore[attr-defined]
            places = self.const(schema._index.places, "p")  # type: ignore[attr-defined]
            self.emit(depth, "try:")
            self.emit(depth + 1, f"out[{at} + {places}[(type({v}), {v})]] = 1.0")
            self.emit(depth, "except (KeyError, TypeError):")
            self.emit(depth + 1, "raise MISS from None")
        elif kind is OneOf:
            assert isinstance(schema, OneOf)
            last = len(schema.values) - 1
            i = self.fresh("i")
            if schema._index.hashable:
                places = self.const(schema._index.places, "p")
                self.emit(depth, "try:")
                self.emit(depth + 1, f"{i} = {places}.get((type({v}), {v}))")
                self.emit(depth, "except TypeError:")
                self.emit(depth + 1, "raise MISS from None")
            else:
                find = self.const(schema._index.find, "find")
                self.emit(depth, f"{i} = {find}({v})")
            self.emit(depth, f"if {i} is None:")
            self.emit(depth + 1, "raise MISS")
            if schema.one_hot:
                self.emit(depth, f"out[{at} + {i}] = 1.0")
            elif last:
                self.emit(depth, f"if {i}:")
                self.emit(depth + 1, f"out[{at}] = {i} / {last}")
        elif kind is Number:
            assert isinstance(schema, Number)
            lo, hi = self.const(schema.low, "lo"), self.const(schema.high, "hi")
            self.emit(
                depth,
                f"if type({v}) is bool or not isinstance({v}, int | float) "
                f"or not {lo} <= {v} <= {hi}:",
            )
            self.emit(depth + 1, "raise MISS")
            if schema.high > schema.low:
                span = self.const(schema.high - schema.low, "span")
                self.emit(depth, f"out[{at}] = ({v} - {lo}) / {span}")
        elif kind is Maybe:
            assert isinstance(schema, Maybe)
            self.emit(depth, f"if {v} is not None:")
            self.emit(depth + 1, f"out[{at}] = 1.0")
            self.value(schema.schema, v, base, offset + 1, depth + 1)
        elif kind is NotEncoded:
            pass
        elif kind is Const:
            assert isinstance(schema, Const)
            fixed = self.const(schema.value, "c")
            self.emit(depth, f"if {v} is not {fixed} and {v} != {fixed}:")
            self.emit(depth + 1, "raise MISS")
        elif kind is Record:
            assert isinstance(schema, Record)
            self.record(schema, v, base, offset, depth)
        elif kind is ListOf:
            assert isinstance(schema, ListOf)
            self.list_of(schema, v, at, depth)
        elif kind is MapOf:
            assert isinstance(schema, MapOf)
            self.map_of(schema, v, at, depth)
        else:
            each = self.const(schema.compile(), "f")
            self.emit(depth, f"{each}({v}, out, {at})")

    def record(self, schema: Record, v: str, base: str, offset: int, depth: int) -> None:
        self.emit(depth, f"if type({v}) is not dict and not isinstance({v}, Mapping):")
        self.emit(depth + 1, "raise MISS")
        # The required fields in one C call: a missing key is a KeyError.
        placed: list[tuple[str, Schema, int]] = []
        required = []
        for name, field in schema.fields.items():
            placed.append((name, field, offset))
            offset += field.width
            if not isinstance(field, _OPTIONAL):
                required.append(name)
        names = {name: self.fresh("x") for name in schema.fields}
        if required:
            targets = ", ".join(names[n] for n in required)
            getter = self.const(operator.itemgetter(*required), "g")
            self.emit(depth, "try:")
            if len(required) == 1:
                self.emit(depth + 1, f"{targets} = {v}[{required[0]!r}]")
            else:
                self.emit(depth + 1, f"{targets} = {getter}({v})")
            self.emit(depth, "except KeyError:")
            self.emit(depth + 1, "raise MISS from None")
        for name, field, at in placed:
            x = names[name]
            kind = type(field)
            if kind is NotEncoded:
                continue  # any value; only its key is checked, below
            if isinstance(field, _OPTIONAL):
                # Missing is as None, as for the reference (a constant must be there,
                # unless it is None).
                self.emit(depth, f"{x} = {v}.get({name!r})")
                self.value(field, x, base, at, depth)
            else:
                if kind not in _REFUSE_NONE:
                    self.emit(depth, f"if {x} is None:")
                    self.emit(depth + 1, "raise MISS")
                self.value(field, x, base, at, depth)
        # A key the record does not name: with every required key there, any other
        # key must be an optional field's.
        known = self.const(frozenset(schema.fields), "names")
        self.emit(depth, f"if len({v}) != {len(required)} and not {v}.keys() <= {known}:")
        self.emit(depth + 1, "raise MISS")

    def list_of(self, schema: ListOf, v: str, at: str, depth: int) -> None:
        slots, step = schema._slots, schema._slot_width
        fixed = schema.length is not None
        test = f"len({v}) != {slots}" if fixed else f"len({v}) > {slots}"
        self.emit(depth, f"if (type({v}) is not list and not isinstance({v}, tuple)) or {test}:")
        self.emit(depth + 1, "raise MISS")
        if schema.item.width == 0 and type(schema.item) is NotEncoded and fixed:
            return
        base, y = self.fresh("a"), self.fresh("y")
        self.emit(depth, f"{base} = {at}")
        self.emit(depth, f"for {y} in {v}:")
        if not fixed:
            self.emit(depth + 1, f"out[{base}] = 1.0")
        self.value(schema.item, y, base, 0 if fixed else 1, depth + 1)
        self.emit(depth + 1, f"{base} += {step}")

    def map_of(self, schema: MapOf, v: str, at: str, depth: int) -> None:
        step = 1 + schema.value.width
        places = self.const({k: i * step for i, k in enumerate(schema.keys)}, "m")
        key, y, start = self.fresh("q"), self.fresh("y"), self.fresh("s")
        self.emit(depth, f"if type({v}) is not dict and not isinstance({v}, Mapping):")
        self.emit(depth + 1, "raise MISS")
        self.emit(depth, f"for {key}, {y} in {v}.items():")
        self.emit(depth + 1, f"{start} = {places}.get({key})")
        self.emit(depth + 1, f"if {start} is None:")
        self.emit(depth + 2, "raise MISS")
        self.emit(depth + 1, f"if {y} is not None:")
        self.emit(depth + 2, f"{start} += {at}")
        self.emit(depth + 2, f"out[{start}] = 1.0")
        self.value(schema.value, y, start, 1, depth + 2)


def plan(schema: Schema) -> Encoder:
    """``schema`` compiled once into one flat function (Python source built from the
    schema and compiled): the same numbers as :meth:`Schema.write` for a value it
    takes, and for any other it raises, as :meth:`Schema.compile`'s encoders do.
    ``out`` may be anything that takes ``out[i] = x`` (a list of zeros, or a dict
    collecting the numbers that are not zero)."""
    built = _Plan()
    built.emit(1, "v0 = view")
    built.value(schema, "v0", "at", 0, 1)
    source = "def encode(view, out, at):\n" + "\n".join(built.lines) + "\n    return None\n"
    namespace = dict(built.names)
    try:
        exec(compile(source, f"<view schema plan {type(schema).__name__}>", "exec"), namespace)
    except (SyntaxError, RecursionError, MemoryError):  # nested past what CPython compiles
        return schema.compile()
    encoder: Encoder = namespace["encode"]
    encoder.source = source  # type: ignore[attr-defined]  # for reading when debugging
    return encoder


@attrs.frozen
class ObservationSpec:
    """What a title's observations are: ``size`` numbers (``shape`` is
    ``(size,)``), each from :attr:`low` to :attr:`high` (0 to 1); ``parts`` says
    what each range holds (path in the view, offset, width, description),
    ``not_encoded`` the parts of the view left out on purpose, with the schema's
    reason."""

    schema: Schema
    size: int
    parts: tuple[tuple[str, int, int, str], ...]
    not_encoded: tuple[tuple[str, str], ...]
    #: The schema compiled once (see :meth:`Schema.compile`).
    encoder: Encoder = attrs.field(eq=False, repr=False)

    #: Every number of an observation is at least this...
    low: ClassVar[float] = 0.0
    #: ...and at most this (flags, one-hots, counts and scaled numbers alike).
    high: ClassVar[float] = 1.0

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    @classmethod
    def of(cls, schema: Schema) -> ObservationSpec:
        """The spec of ``schema``."""
        return cls(
            schema=schema,
            size=schema.width,
            parts=tuple(schema.parts("", 0)),
            not_encoded=tuple(schema.skipped("")),
            encoder=plan(schema),
        )

    def encode(self, view: Any) -> list[float]:
        """``view`` as ``size`` floats; :class:`ViewOutsideSchema` for a value the
        schema does not cover, naming its place."""
        out = [0.0] * self.size
        try:
            self.encoder(view, out, 0)
        except Exception:
            # The reference encoding names what is wrong; should it take the view
            # after all, its numbers stand.
            out = [0.0] * self.size
            self.schema.write(view, out, 0, "")
        return out

    def reference(self, view: Any) -> list[float]:
        """``view`` encoded by the schema's reference ``write`` alone (slower; the
        kit checks that :meth:`encode` agrees with it)."""
        out = [0.0] * self.size
        self.schema.write(view, out, 0, "")
        return out


def encode(schema: Schema, view: Any) -> list[float]:
    """``view`` encoded by ``schema`` (see the module docstring)."""
    return ObservationSpec.of(schema).encode(view)


__all__ = [
    "Bag",
    "Bool",
    "Const",
    "IntRange",
    "ListOf",
    "MapOf",
    "Maybe",
    "NoViewSchema",
    "NotEncoded",
    "Number",
    "ObservationSpec",
    "OneOf",
    "Record",
    "Schema",
    "ViewOutsideSchema",
    "encode",
]
