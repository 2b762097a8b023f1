"""Refusal probes: the illegal actions the kit submits in twins while a seat cannot
tell them apart, so that a refusal worded from a secret shows. Sampled kinds, the
near misses of the seat's own legal actions, and actions built from the values its
view shows (:func:`from_view`)."""

from __future__ import annotations

import enum
import functools
import itertools
import typing
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import attrs

from ..match import Match
from ..rng import Rng
from ..title import Title


def _perturbed(action: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Near misses of a legal action: each whole-number field one more, one less, -1."""
    out: list[dict[str, Any]] = []
    for key, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out.extend({**action, key: v} for v in (value + 1, value - 1, -1))
    return out


def _key(action: Mapping[str, Any]) -> str:
    return repr(sorted(action.items()))


@attrs.define
class _Probes:
    """Illegal and out-of-turn actions to submit in twins, by kind of action, so that
    every kind's refusals are tried while twins are alike, however rare the kind."""

    kinds: dict[str, list[dict[str, Any]]] = attrs.field(factory=dict)
    #: The seat's legal actions (JSON), their keys and the actions built from its view
    #: that are illegal, by step and seat: ``draw`` is given the real match, which
    #: plays the spine's own actions beside every twin, so each is worked out once.
    real: dict[tuple[int, int], tuple[list[Any], set[str], list[Any]]] = attrs.field(factory=dict)

    #: The keys of each kind's probes, beside them (so a new one is keyed once).
    keys: dict[str, list[str]] = attrs.field(factory=dict)

    def add(self, action: dict[str, Any]) -> None:
        kind = str(action.get("type"))
        found = self.kinds.setdefault(kind, [])
        keys = self.keys.setdefault(kind, [])
        key = _key(action)
        if key not in keys[-50:]:
            found.append(action)
            keys.append(key)

    def draw(self, match: Match, seat: int | None, count: int, rng: Rng) -> list[Any]:
        """``count`` kinds, one probe each (the kinds taken in turn from a random
        start, so each comes round every few steps), and the near misses of the
        seat's own legal actions that are illegal (the edges of what it may do, where
        a reason most often says more than it should), two at most."""
        if seat is None or not self.kinds:
            return []
        names = sorted(self.kinds)
        start = rng.randrange(len(names))
        shown = [
            rng.choice(self.kinds[names[(start + i) % len(names)]])
            for i in range(min(count, len(names)))
        ]
        kept = self.real.get((match.step, seat))
        if kept is None:
            legal = match.legal_json(seat)
            mine = _legal(match.legal_actions(seat))
            seen = [a for a in _from_view(match.title, match.view(seat)) if a not in mine]
            kept = self.real[match.step, seat] = (legal, {_key(a) for a in legal}, seen)
        legal, legal_keys, seen = kept
        near = rng.sample(legal, min(EDGES, len(legal)))
        edges = {_key(p): p for a in near for p in _perturbed(a) if _key(p) not in legal_keys}
        misses = [edges[k] for k in sorted(edges)]
        picked = rng.sample(seen, SEEN) if len(seen) > SEEN else seen
        to_json = match.title.codec.to_json
        return (
            shown
            + (rng.sample(misses, 2) if len(misses) > 2 else misses)
            + [to_json(a) for a in picked]
        )


#: Actions built from what a seat's view shows that are probed at each step, at most.
SEEN = 3
#: Combinations of shown values tried per kind of action with several fields, at most.
SEEN_PER_KIND = 64


def _shown_values(view: Any, strings: set[str], numbers: set[int]) -> None:
    """Gather the text and whole numbers among the leaves of a view (and its keys).
    A loop over a stack, the plain JSON types tested first by their exact type: a
    board's view has hundreds of leaves, and the kit walks a view at every step."""
    stack = [view]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is str:
            strings.add(value)
        elif kind is int:
            numbers.add(value)
        elif kind is dict or (kind is not list and isinstance(value, Mapping)):
            strings.update(key for key in value if isinstance(key, str))
            stack.extend(value.values())
        elif kind is list or isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            numbers.add(value)
        elif isinstance(value, str):
            strings.add(value)


def _field_values(kind: Any, strings: set[str], numbers: set[int]) -> list[Any] | None:
    """The shown values a field of type ``kind`` could take (``None``: a type the
    probes cannot build, such as a nested class)."""
    options = [k for k in typing.get_args(kind) if k is not type(None)]
    if options and len(options) < len(typing.get_args(kind)):
        kind = options[0] if len(options) == 1 else kind  # ``X | None``: X
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return [m for m in kind if isinstance(m.value, str | int)]
    if kind is str:
        return sorted(strings)
    if kind is int:
        return sorted(numbers)
    return None


@functools.cache
def _hints(cls: type) -> dict[str, Any] | None:
    """The field types of an action class (``None`` when they cannot be resolved),
    resolved once per class."""
    try:
        return typing.get_type_hints(cls)
    except Exception:
        return None


def from_view(match: Match, seat: int) -> list[dict[str, Any]]:
    """The seat's own actions built from the values its view shows (every card in its
    hand, every square or piece it is shown, every number on its screen), in JSON
    form, legal or not: a refusal of one of them is worded from what the seat may
    know, so twins the seat cannot tell apart must refuse it alike. A title whose
    field is a string (a card's name) is reached this way where whole-number near
    misses never go. Kinds with a field of another type are left out."""
    to_json = match.title.codec.to_json
    return [to_json(action) for action in _from_view(match.title, match.view(seat))]


def _legal(actions: Sequence[Any]) -> Collection[Any]:
    """The legal actions, as a set when they can be hashed (for the test of each
    action built from the view)."""
    try:
        return set(actions)
    except TypeError:  # actions of a mutable class
        return list(actions)


def _from_view(title: Title[Any], view: Any) -> list[Any]:
    """:func:`from_view`'s actions for a view, as action objects (only those probed
    are turned into JSON). :meth:`_Probes.draw` keeps them by step and seat: the
    real match's view at a step is the same beside every twin (a cache by the view's
    text hit no view twice in the shipped titles' conformance runs)."""
    strings: set[str] = set()
    numbers: set[int] = set()
    _shown_values(view, strings, numbers)
    out: list[Any] = []
    for _, cls in sorted(title.codec.types.items()):
        hints = _hints(cls)
        if hints is None:  # an annotation the kit cannot resolve: skip the kind
            continue
        fields = attrs.fields(cls)
        values = [_field_values(hints.get(f.name), strings, numbers) for f in fields]
        if not fields or any(v is None or not v for v in values):
            continue
        made = 0
        for combo in itertools.product(*typing.cast(list[list[Any]], values)):
            if made >= SEEN_PER_KIND:
                break
            try:
                action = cls(*combo)
            except Exception:  # the class refuses such values itself: not a probe
                continue
            out.append(action)
            made += 1
    return out


#: Legal actions of the seat whose near misses are probed at each step, at most.
EDGES = 6
