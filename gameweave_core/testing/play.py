"""Random play and the plain checks every other part of the kit builds on: a match
played by random legal actions, what a seat is shown, replay and round trips, a
refusal that changes nothing, and the title's bots as the kit runs them."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from typing import Any

import pytest
import tomli_w
from hypothesis import strategies as st

from ..errors import IllegalAction
from ..log import MatchLog
from ..match import Match
from ..registry import Registry
from ..rng import MAX_SEED, Rng, derive_seed
from ..runner import BotSeat, run_bots
from ..title import Title
from .watch import _doing

#: Every seed a match may have, as a hypothesis strategy: ``@given(seed=seeds)``.
seeds = st.integers(min_value=0, max_value=MAX_SEED)

#: Arbitrary JSON, the raw material of junk actions.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def random_match(
    title: Title[Any],
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    steps: int | None = None,
) -> Match:
    """A match played by uniformly random legal actions, to the end or ``steps``."""
    match = Match(title, players, seed, config)
    rng = Rng(derive_seed(seed, "kit"))
    limit = title.max_actions
    while match.awaiting and (steps is None or match.step < steps):
        if match.step >= limit:
            raise AssertionError(f"{title.name} did not end within max_actions={limit}")
        seat = rng.choice(match.awaiting)
        legal = match.legal_actions(seat)
        assert legal, f"seat {seat} is awaited at step {match.step} but has no legal action"
        _doing(f"{title.name}: random play, seat {seat}")
        match.submit(seat, rng.choice(legal))
    return match


def snapshot_for(match: Match, seat: int | None) -> dict[str, Any]:
    """The heart of what ``seat`` receives: its view, legal actions and history
    (:func:`surfaces` gathers everything)."""
    return {
        "view": match.view(seat),
        "legal": match.legal_json(seat) if seat is not None else [],
        "history": match.history(seat),
    }


def observers(match: Match) -> list[int | None]:
    """Every seat of ``match`` in order, then ``None`` for a spectator."""
    return [*range(1, match.players + 1), None]


def check_ends(match: Match) -> None:
    """The match is over, with an outcome naming real seats."""
    result = match.outcome()
    assert result is not None, "random play stopped without an outcome"
    assert not match.awaiting, "the match has an outcome but still awaits seats"
    assert all(1 <= s <= match.players for s in result.winners), result
    json.dumps(result.to_json())


def check_replay(match: Match) -> None:
    """The saved log round-trips through TOML and replays to every recorded digest."""
    log = match.to_log()
    text = log.to_toml()
    again = MatchLog.from_toml(text)
    assert again == log, "the log changed on its way through TOML"
    registry = Registry()
    registry.add_title(match.title)
    rebuilt = Match.from_log(again, verify=True, registry=registry)
    assert rebuilt.digest() == match.digest()
    for seat in observers(match):
        assert snapshot_for(rebuilt, seat) == snapshot_for(match, seat)
    for step, entry in zip(range(1, len(log.actions) + 1), log.actions, strict=True):
        if step % 7 == 0 or step == len(log.actions):  # at() replays: sample the steps
            assert match.at(step).digest() == entry.digest, f"at({step}) disagrees with the log"


def _changed(new: Any, old: Any) -> Any:
    """What of ``new`` differs from ``old``: within tables, the entries whose value
    changed, and within lists as long as before, the items that changed (by their
    index, as a table), each cut the same way; anything else whole."""
    if isinstance(new, dict) and isinstance(old, dict):
        return {
            k: _changed(v, old[k]) if k in old else v
            for k, v in new.items()
            if old.get(k, _NONE) != v
        }
    if isinstance(new, list) and isinstance(old, list) and len(new) == len(old):
        return {
            str(i): _changed(v, w) for i, (v, w) in enumerate(zip(new, old, strict=True)) if v != w
        }
    return new


_NONE = object()


def check_round_trips(match: Match) -> None:
    """Every view, legal action and history line survives JSON and TOML, at every step.

    Each step round-trips what changed for the seat: the view's entries whose value
    changed since the step before (a value that survives alone survives in its table),
    the history lines and events that are new (or all of them when a title rewrote its
    history). Every value is checked once rather than once a step, which on a long
    match was most of the kit's time."""
    codec = match.title.codec
    lines: dict[int | None, list[str]] = {}
    views: dict[int | None, Any] = {}
    since = -1
    for state in match.steps():
        for seat in observers(state):
            payload = snapshot_for(state, seat)
            history, view = payload["history"], payload["view"]
            before, shown = lines.get(seat, []), views.get(seat)
            lines[seat], views[seat] = history, view
            if history[: len(before)] == before:
                payload = {**payload, "history": history[len(before) :]}
            if shown is not None:
                payload = {**payload, "view": _changed(view, shown)}
            as_json = json.loads(json.dumps(payload))
            assert as_json == payload, f"the payload for seat {seat} is not plain JSON"
            as_toml = tomllib.loads(tomli_w.dumps(payload))
            assert as_toml == payload, f"the payload for seat {seat} does not survive TOML"
            events = state.events(seat, since)
            assert json.loads(json.dumps(events)) == events, (
                f"events for seat {seat} are not plain JSON"
            )
            for act in payload["legal"]:
                assert codec.to_json(codec.from_json(act)) == act
        since = state.step


def fingerprint(match: Match) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged."""
    return (
        match.step,
        match.digest(),
        match.awaiting,
        tuple(len(match.history(s)) for s in observers(match)),
    )


def check_refused(match: Match, seat: Any, action: Any) -> str:
    """Submitting must raise :class:`IllegalAction` with a one-line reason and change
    nothing. Returns the reason."""
    before = fingerprint(match)
    with pytest.raises(IllegalAction) as caught:
        match.submit(seat, action)
    reason = str(caught.value)
    assert reason and "\n" not in reason, f"reason must be one line: {reason!r}"
    assert fingerprint(match) == before, "a refused action changed the match"
    return reason


def check_bots(title: Title[Any], registry: Registry, players: int, seed: int) -> None:
    """Every bot of the title plays whole games in every seat without an illegal move."""
    for name, factory in kit_bots(registry, title).items():
        match = Match(title, players, seed)
        seats = {
            s: BotSeat(factory(s, players), Rng(derive_seed(seed, f"bot:{s}")), name)
            for s in range(1, players + 1)
        }
        run_bots(match, seats, limit=title.max_actions)
        check_ends(match)


def kit_bots(registry: Registry, title: Title[Any]) -> dict[str, Any]:
    """The title's bots as the kit runs them: a factory with a ``for_tests()``
    method (a search bot) is run at the cheap budget it returns, since the kit
    checks what a bot does, not how well it plays."""
    found: dict[str, Any] = {}
    for name, factory in registry.bots(title).items():
        cheap = getattr(factory, "for_tests", None)
        found[name] = cheap() if callable(cheap) else factory
    return found
