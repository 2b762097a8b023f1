"""Museum Rush for game-playing algorithms: its actions are numbered (the values each
field declares, listed by ``action_list``), its views encode to a fixed-size
observation (the declared view schema), and its utilities and facts hold in play.

The states are those of seeded random play at every player count, in full and
first games, seen from every seat and by a spectator, to the end of each match."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from gameweave_museumrush import MuseumRush
from gameweave_museumrush.actions import PATHS, Lure, Route, action_list, lures
from gameweave_museumrush.views import OWL_KNOWN

from gameweave_core import (
    IllegalAction,
    Match,
    NotEnumerable,
    Rng,
    ViewOutsideSchema,
    action_space,
    game_info,
)

TITLE = MuseumRush()
COUNTS = (2, 3, 4)
CONFIGS: tuple[Mapping[str, Any], ...] = ({}, {"first_game": True})
#: Matches played per player count and options (each to its end).
SEEDS = 6


def played(players: int, config: Mapping[str, Any], seeds: int = SEEDS) -> Iterator[Match]:
    """Every state of ``seeds`` random matches (the match object at each step)."""
    for seed in range(seeds):
        match = Match(TITLE, players, seed, config)
        rng = Rng(seed + 1000)
        while True:
            yield match
            if match.is_over:
                break
            seat = rng.choice(match.awaiting)
            match.submit(seat, rng.choice(list(match.legal_actions(seat))))


def full(players: int, config: Mapping[str, Any]) -> dict[str, Any]:
    return TITLE.check_config(players, dict(config))


@pytest.mark.parametrize("config", CONFIGS, ids=["full", "first"])
@pytest.mark.parametrize("players", COUNTS)
def test_every_legal_action_has_a_number_that_gives_it_back(
    players: int, config: Mapping[str, Any]
) -> None:
    space = action_space(TITLE, players, full(players, config))
    checked = 0
    kinds: set[type] = set()
    for match in played(players, config):
        for seat in match.awaiting:
            legal = list(match.legal_actions(seat))
            numbers = [space.index(a) for a in legal]
            assert len(set(numbers)) == len(legal), legal
            for number, act in zip(numbers, legal, strict=True):
                assert 0 <= number < space.size
                assert space.action(number) == act
                kinds.add(type(act))
            checked += len(legal)
    assert checked > 500
    # Random play reaches most kinds, the joint Lure and the Guards' routes among them.
    assert len(kinds) >= 15


@pytest.mark.parametrize("players", COUNTS)
def test_the_list_is_every_kind_once_with_lures_paired(players: int) -> None:
    """A Lure moves a Guard (seat 0) or a thief (Guard -1): 9 Guards and the
    seats, to each of 28 tiles; every other kind is its fields' product."""
    listed = action_list(players, full(players, {}))
    assert len(listed) == len(set(listed))
    assert {type(a) for a in listed} == set(TITLE.actions)
    assert [a for a in listed if isinstance(a, Lure)] == lures(players)
    assert len(lures(players)) == (9 + players) * 28
    # 9 Guards, each along one tile or two adjacent tiles (28 + 2 x 45 edges).
    assert len(PATHS) == 118
    assert sum(isinstance(a, Route) for a in listed) == 9 * 118
    assert len(listed) == 1950 + 29 * players
    space = action_space(TITLE, players, full(players, {}))
    assert space.size == len(listed)
    # A Lure of a Guard and a thief at once, or a Guard that cannot exist, has no number.
    for bad in (Lure(0, 1, "A1"), Route(9, "A1")):
        with pytest.raises(NotEnumerable):
            space.index(bad)


@pytest.mark.parametrize("config", CONFIGS, ids=["full", "first"])
@pytest.mark.parametrize("players", COUNTS)
def test_every_view_encodes_to_the_spec_s_size(players: int, config: Mapping[str, Any]) -> None:
    spec = TITLE.observation_spec(players, full(players, config))
    assert spec is not None
    # Only text for people is left out, each part with its reason.
    assert {path for path, _ in spec.not_encoded} == {
        "view['grid'][*]['at']",
        "view['pending']['what']",
        "view['you']['deck'][*]['kind']",
        "view['you']['deck'][*]['name']",
        "view['you']['deck'][*]['value']",
        "view['news']",
    }
    seen = 0
    for match in played(players, config, seeds=3):
        for watcher in (None, *range(1, players + 1)):
            view = match.view(watcher)
            numbers = spec.encode(view)
            assert len(numbers) == spec.size
            # The compiled encoder gives what the schema's reference encoding gives.
            assert numbers == spec.reference(view)
            assert all(0.0 <= x <= 1.0 for x in numbers)
            seen += 1
    assert seen > 100


def _comparable(view: dict[str, Any]) -> str:
    """The view without its text for people, the bags of unsorted cards in order:
    what the observation must tell apart."""
    out = json.loads(json.dumps(view))
    del out["news"]
    out.get("pending", {}).pop("what", None)
    for key in ("discard", "removed_cards"):
        out[key] = sorted(out[key], key=lambda c: c["id"])
    return json.dumps(out, sort_keys=True)


@pytest.mark.parametrize("players", (2, 4))
def test_different_views_give_different_observations(players: int) -> None:
    """Nothing is dropped: two views the observation cannot tell apart differ at
    most in their text for people."""
    spec = TITLE.observation_spec(players, full(players, {}))
    assert spec is not None
    by_numbers: dict[tuple[float, ...], str] = {}
    for match in played(players, {}, seeds=3):
        for watcher in (None, *range(1, players + 1)):
            view = match.view(watcher)
            text = _comparable(view)
            assert by_numbers.setdefault(tuple(spec.encode(view)), text) == text
    assert len(by_numbers) > 100


def test_the_owl_knows_at_most_half_the_search_deck() -> None:
    """The bound the schema puts on the deck cards a seat knows holds for The Owl,
    who knows the most: over whole games with The Owl at the table."""
    most = 0
    owls = 0
    for seed in range(40):
        match = Match(TITLE, 2, seed)
        if "The Owl" not in [t["thief"] for t in match.view(None)["thieves"]]:
            continue
        owls += 1
        rng = Rng(seed)
        while not match.is_over:
            for seat in (1, 2):
                most = max(most, len(match.view(seat)["you"].get("deck", [])))
            seat = rng.choice(match.awaiting)
            match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    assert owls >= 5
    assert 1 <= most <= OWL_KNOWN


def test_a_view_value_outside_the_schema_is_an_error_not_dropped() -> None:
    spec = TITLE.observation_spec(3, full(3, {}))
    assert spec is not None
    view = Match(TITLE, 3, 1).view(1)
    bad_tile = {**view["grid"][0], "keys": 17}
    for bad in (
        {**view, "grid": [bad_tile, *view["grid"][1:]]},
        {**view, "grid": view["grid"][:27]},
        {**view, "clocks": 7},
        {**view, "whisper": "seat 2 holds a Lure"},
        {**view, "thieves": [{**view["thieves"][0], "at": "H9"}, *view["thieves"][1:]]},
    ):
        with pytest.raises(ViewOutsideSchema):
            spec.encode(bad)


@pytest.mark.parametrize("players", COUNTS)
def test_utilities_share_the_win_and_the_facts_hold(players: int) -> None:
    info = game_info(TITLE, players)
    assert info.num_actions == action_space(TITLE, players, full(players, {})).size
    assert info.utility == "constant_sum" and info.utility_sum == 1.0
    assert not info.simultaneous
    ended = 0
    for match in played(players, {}):
        assert len(match.awaiting) <= 1
        outcome = match.outcome()
        if outcome is None:
            continue
        ended += 1
        utilities = TITLE.utilities(outcome, players)
        assert sum(utilities) == pytest.approx(1.0)
        assert all(info.min_utility <= u <= info.max_utility for u in utilities)
        best = max(utilities)
        assert {s for s in range(1, players + 1) if utilities[s - 1] == best} == set(
            outcome.winners
        )
    assert ended == SEEDS


@pytest.mark.parametrize("config", CONFIGS, ids=["full", "first"])
@pytest.mark.parametrize("players", (2, 4))
def test_a_match_played_by_numbers_is_the_match_played_by_actions(
    players: int, config: Mapping[str, Any]
) -> None:
    """Through the match: the mask marks exactly the legal numbers, submitting a
    number is submitting its action, and a number not legal now is refused and
    changes nothing."""
    for seed in range(2):
        by_number = Match(TITLE, players, seed, config)
        by_action = Match(TITLE, players, seed, config)
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
