"""Master Thief for game-playing algorithms: its actions are numbered (the values
each field declares), its views encode to a fixed-size observation (the declared
view schema), and its utilities and facts hold in real play.

The states are those of seeded random play at every player count, seen from every
seat and by a spectator, to the end of each match."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from gameweave_masterthief import MasterThief
from gameweave_masterthief.views import MAX_TURNS, jury_sentences

from gameweave_core import (
    IllegalAction,
    Match,
    NotEnumerable,
    Rng,
    ViewOutsideSchema,
    action_space,
    game_info,
)

TITLE = MasterThief()
COUNTS = (2, 3, 4, 5, 6)
#: Matches played per player count (each to its end).
SEEDS = 8


def played(players: int, seeds: int = SEEDS) -> Iterator[Match]:
    """Every state of ``seeds`` random matches (the match object at each step)."""
    for seed in range(seeds):
        match = Match(TITLE, players, seed)
        rng = Rng(seed + 1000)
        while True:
            yield match
            if match.is_over:
                break
            seat = rng.choice(match.awaiting)
            match.submit(seat, rng.choice(list(match.legal_actions(seat))))


def full(players: int) -> dict[str, Any]:
    return TITLE.check_config(players, {})


@pytest.mark.parametrize("players", COUNTS)
def test_every_legal_action_has_a_number_that_gives_it_back(players: int) -> None:
    space = action_space(TITLE, players, full(players))
    checked = 0
    for match in played(players):
        for seat in match.awaiting:
            legal = list(match.legal_actions(seat))
            numbers = [space.index(a) for a in legal]
            assert len(set(numbers)) == len(legal), legal
            for number, act in zip(numbers, legal, strict=True):
                assert 0 <= number < space.size
                assert space.action(number) == act
            checked += len(legal)
    assert checked > 100


@pytest.mark.parametrize("players", COUNTS)
def test_the_space_is_every_kind_of_action_once_and_small(players: int) -> None:
    """Seats 1 to N as targets, the 30 items a thief can hold, the 11 titles."""
    space = action_space(TITLE, players, full(players))
    every = space.actions()
    assert len(every) == len(set(every)) == space.size
    assert space.size == 238 + 62 * (players - 2)
    assert {type(a) for a in every} == set(TITLE.actions)
    # A seat out of the table, or a Security card, is not a number.
    with pytest.raises(NotEnumerable, match=r"swipe\.target"):
        space.index(
            TITLE.codec.from_json({"type": "swipe", "target": players + 1, "item": "Amber"})
        )
    with pytest.raises(NotEnumerable, match=r"drop\.item"):
        space.index(TITLE.codec.from_json({"type": "drop", "item": "Laser Snare"}))


@pytest.mark.parametrize("players", COUNTS)
def test_every_view_encodes_to_the_spec_s_size(players: int) -> None:
    spec = TITLE.observation_spec(players, full(players))
    assert spec is not None
    # Nothing of Master Thief's view is free text: every part is encoded.
    assert spec.not_encoded == ()
    seen = 0
    for match in played(players, seeds=4):
        for watcher in (None, *range(1, players + 1)):
            view = match.view(watcher)
            numbers = spec.encode(view)
            assert len(numbers) == spec.size
            # The compiled encoder gives what the schema's reference encoding gives.
            assert numbers == spec.reference(view)
            assert all(0.0 <= x <= 1.0 for x in numbers)
            seen += 1
    assert seen > 100


def _unordered(view: dict[str, Any]) -> str:
    """The view with the lists the schema encodes as bags put in order: what the
    observation must tell apart (the order Carried items came in, Utilities and
    cards played this turn is the one thing a bag leaves out)."""
    out = json.loads(json.dumps(view))
    out["played"] = sorted(out["played"])
    for seat in out["seats"]:
        for key in ("carried", "caught_with"):
            if key in seat:
                seat[key] = sorted(seat[key], key=lambda i: i["name"])
        seat["utilities"] = sorted(seat["utilities"])
    return json.dumps(out, sort_keys=True)


@pytest.mark.parametrize("players", (2, 3, 6))
def test_different_views_give_different_observations(players: int) -> None:
    """Nothing is dropped: two views the observation cannot tell apart are the same
    view (up to the order of the bags)."""
    spec = TITLE.observation_spec(players, full(players))
    assert spec is not None
    by_numbers: dict[tuple[float, ...], str] = {}
    for match in played(players, seeds=4):
        for watcher in (None, *range(1, players + 1)):
            view = match.view(watcher)
            key = tuple(spec.encode(view))
            text = _unordered(view)
            assert by_numbers.setdefault(key, text) == text
    assert len(by_numbers) > 50


def test_a_view_value_outside_the_schema_is_an_error_not_dropped() -> None:
    spec = TITLE.observation_spec(3, full(3))
    assert spec is not None
    view = Match(TITLE, 3, 1).view(1)
    for bad in (
        {**view, "hand": [*view["hand"], "Crowbar"]},
        {**view, "turns": MAX_TURNS + 1},
        {**view, "gossip": "seat 2 holds a Latch"},
        {**view, "seats": view["seats"][:2]},
    ):
        with pytest.raises(ViewOutsideSchema):
            spec.encode(bad)


@pytest.mark.parametrize("players", (2, 3, 5))
def test_every_jury_verdict_is_one_the_schema_names(players: int) -> None:
    """The Jury's line reads as the rules write it, whatever the tally: a Heist that
    pulls Security, every way the table can vote."""
    sentences = set(jury_sentences(players))
    spec = TITLE.observation_spec(players, full(players))
    assert spec is not None
    found: set[str] = set()
    for seed in range(60):
        match = Match(TITLE, players, seed)
        for seat in range(1, players + 1):
            match.submit(seat, TITLE.codec.from_json({"type": "steal"}))
        if match.view(None)["phase"] != "jury":
            continue
        for seat in range(1, players + 1):
            # Seat s votes to abandon when bit s of the seed says so: many tallies.
            abandon = bool(seed >> seat & 1)
            match.submit(seat, TITLE.codec.from_json({"type": "vote", "abandon": abandon}))
        line = match.view(None)["jury"]
        assert line in sentences
        found.add(line)
        spec.encode(match.view(None))
    assert len(found) >= 2


@pytest.mark.parametrize("players", (2, 4, 6))
def test_utilities_share_the_win_and_the_facts_hold(players: int) -> None:
    info = game_info(TITLE, players)
    assert info.num_actions == action_space(TITLE, players, full(players)).size
    assert info.utility == "constant_sum" and info.utility_sum == 1.0
    assert info.max_length == TITLE.max_actions <= MAX_TURNS
    most_awaited = 0
    for match in played(players):
        most_awaited = max(most_awaited, len(match.awaiting))
        for seat in match.awaiting:
            assert len(match.legal_actions(seat)) <= info.num_actions
        outcome = match.outcome()
        if outcome is None:
            continue
        utilities = TITLE.utilities(outcome, players)
        assert sum(utilities) == pytest.approx(1.0)
        assert all(info.min_utility <= u <= info.max_utility for u in utilities)
        best = max(utilities)
        assert {s for s in range(1, players + 1) if utilities[s - 1] == best} == set(
            outcome.winners
        )
    # The Heist awaits every seat at once: simultaneous, as the facts say.
    assert info.simultaneous and most_awaited == players


@pytest.mark.parametrize("players", (2, 5))
def test_a_match_played_by_numbers_is_the_match_played_by_actions(players: int) -> None:
    """Through the match: the mask marks exactly the legal numbers, submitting a
    number is submitting its action, and a number not legal now is refused and
    changes nothing."""
    for seed in range(3):
        by_number = Match(TITLE, players, seed)
        by_action = Match(TITLE, players, seed)
        rng = Rng(seed)
        while not by_action.is_over:
            seat = rng.choice(by_action.awaiting)
            legal = list(by_action.legal_actions(seat))
            numbers = by_number.legal_indices(seat)
            mask = by_number.legal_mask(seat)
            assert len(mask) == by_number.action_space.size
            assert [i for i, on in enumerate(mask) if on] == sorted(numbers)
            pick = rng.randbelow(len(legal))
            illegal = next(i for i, on in enumerate(mask) if not on)
            before = by_number.digest()
            with pytest.raises(IllegalAction):
                by_number.submit_index(seat, illegal)
            assert by_number.digest() == before
            by_number.submit_index(seat, numbers[pick])
            by_action.submit(seat, legal[pick])
            assert by_number.digest() == by_action.digest()
            assert by_number.observation(seat) == by_action.observation(seat)
        outcome = by_action.outcome()
        assert outcome is not None
        assert by_number.utilities() == tuple(TITLE.utilities(outcome, players))
