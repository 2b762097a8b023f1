"""What game-playing algorithms (OpenSpiel, PettingZoo trainers) need to know about
Museum Rush beyond its rules: each thief's utility at the end, and the facts the
core cannot work out (the largest random draw, one seat at a time, the kind of sum
of the utilities)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from gameweave_core import GameFacts, Outcome

from .cards import FILL_IDS, SEARCH_IDS, TILES
from .state import State


def utilities(outcome: Outcome, players: int) -> Sequence[float]:
    """The win, shared: each winner gets ``1 / winners`` (thieves tied on the Take
    and on their Items share it), everyone else 0. The sum is always 1."""
    share = 1.0 / len(outcome.winners)
    return tuple(share if s in outcome.winners else 0.0 for s in range(1, players + 1))


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """The largest draw is a shuffle at setup: the Search deck (29 cards), the 28
    Room tiles, the 28 cards that fill the rooms (dice have 6 faces, a hand 8
    cards). One seat chooses at a time. The utilities sum to 1 (:func:`utilities`)."""
    return GameFacts(
        max_chance_outcomes=max(len(SEARCH_IDS), TILES, len(FILL_IDS)),
        simultaneous=False,
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
    )


def copy_state(state: State) -> State:
    """A copy of ``state`` that shares nothing that can change, for
    :meth:`~gameweave_core.Match.clone` and explicit chance: about three times as
    fast as ``copy.deepcopy``, as the state holds only lists, dicts, tuples, attrs
    classes and plain values (anything else is a ``TypeError``, not a shared part)."""
    copied = _copy(state)
    assert isinstance(copied, State)
    return copied


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is list:
        return [_copy(v) for v in value]
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_copy(v) for v in value)
    if attrs.has(kind):
        new = object.__new__(kind)
        for field in attrs.fields(kind):
            object.__setattr__(new, field.name, _copy(getattr(value, field.name)))
        return new
    raise TypeError(f"copy_state does not copy a {kind.__name__}: {value!r}")
