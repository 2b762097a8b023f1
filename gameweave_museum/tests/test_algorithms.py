"""The Museum Job as algorithms see it: numbered actions and encoded views.

Random and heuristic games at every player count: every legal action of every
state round-trips through its number, and every view (each seat's and the
spectator's) encodes to the spec's length. The schema is checked to be strict
(a value it does not cover is refused) and to carry what a seat knows.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest

from gameweave_core import Match, Rng, ViewOutsideSchema, derive_seed
from gameweave_core.space import ActionSpace, action_space
from gameweave_museum import MuseumJob
from gameweave_museum.actions import Enter, Hold, MoveGuard, Post, Walk
from gameweave_museum.algorithms import MAX_EVIDENCE, MAX_ROUTE
from gameweave_museum.bots import heuristic_bot

TITLE = MuseumJob()
PLAYERS = (2, 3, 4)


def space_of(players: int) -> ActionSpace:
    return action_space(TITLE, players, TITLE.check_config(players, {}))


def check_every_step(match: Match, choose: Any) -> int:
    """Play ``match`` out with ``choose(match, seat)``, checking numbers and views
    at every step; returns how many actions were checked."""
    players = match.players
    space = space_of(players)
    spec = TITLE.observation_spec(players, match.config)
    assert spec is not None
    checked = 0
    while True:
        for seat in (None, *range(1, players + 1)):
            assert len(spec.encode(match.view(seat))) == spec.size
        if not match.awaiting:
            return checked
        seat = match.awaiting[0]
        legal = list(match.legal_actions(seat))
        numbers = [space.index(act) for act in legal]
        assert len(set(numbers)) == len(legal), "two legal actions share a number"
        for act, number in zip(legal, numbers, strict=True):
            assert 0 <= number < space.size
            assert space.action(number) == act
        checked += len(legal)
        match.submit(seat, choose(match, seat))


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_number_every_legal_action_and_encode_every_view(players: int) -> None:
    checked = 0
    for seed in range(4):
        rng = Rng(derive_seed(seed, "choices"))
        match = Match(TITLE, players, 100 * players + seed)
        checked += check_every_step(match, lambda m, s, r=rng: r.choice(list(m.legal_actions(s))))
    assert checked > 1000


@pytest.mark.parametrize("players", PLAYERS)
def test_heuristic_games_number_every_legal_action_and_encode_every_view(players: int) -> None:
    # The heuristic bots lift, cut and pick far more than random play does.
    match = Match(TITLE, players, 40 + players)
    bots = {s: heuristic_bot(s, players) for s in range(1, players + 1)}
    rng = Rng(derive_seed(players, "bots"))
    assert check_every_step(match, lambda m, s: bots[s].act(m.observe(s), rng)) > 100


def test_the_space_sizes_and_numbers_are_fixed() -> None:
    # 224 floor squares: walks (x3 for the arrival option) and guard moves (x3
    # guards) are 672 each; posts are 3 guards x 4 posts x the Security seats.
    assert [space_of(p).size for p in PLAYERS] == [1368, 1380, 1392]
    space = space_of(3)
    assert space.action(0) == Post(1, "J4", 2)  # posts in reading order
    assert space.action(1) == Post(1, "J4", 3)
    assert space.action(24) == Enter("F1")
    assert space.index(Walk("A1")) == 31
    assert space.index(Walk("A1", "cut")) == 32
    assert space.index(Hold()) == 31 + 672
    assert space.action(space.size - 1) == MoveGuard(3, "T14")


def test_an_action_outside_the_domains_has_no_number() -> None:
    from gameweave_core.space import NotEnumerable

    space = space_of(2)
    with pytest.raises(NotEnumerable, match=r"walk\.to"):
        space.index(Walk("E1"))  # a wall
    with pytest.raises(NotEnumerable, match=r"post\.seat"):
        space.index(Post(1, "B7", 3))  # no seat 3 in a two-player game


def thief_turn_match() -> Match:
    match = Match(TITLE, 3, 7)
    rng = Rng(7)
    while match.view(1)["phase"] != "thief" or len(match.view(1)["thief"]["route"]) < 3:
        seat = match.awaiting[0]
        match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    return match


def test_the_schema_refuses_what_it_does_not_cover() -> None:
    match = thief_turn_match()
    spec = TITLE.observation_spec(3, match.config)
    assert spec is not None
    view = match.view(1)
    view["thief"]["at"] = "E1"  # a wall: no view can hold it
    with pytest.raises(ViewOutsideSchema, match=r"\['thief'\]\['at'\]"):
        spec.encode(view)
    view = match.view(2)
    view["thief"] = match.view(1)["thief"] | {"note": "x"}
    with pytest.raises(ViewOutsideSchema, match="note"):
        spec.encode(view)
    view = match.view(None)
    view["board"]["walls"] = view["board"]["walls"][1:]  # the floor plan is checked
    with pytest.raises(ViewOutsideSchema, match=r"\['board'\]"):
        spec.encode(view)
    view = match.view(None)
    view["evidence"] = view["evidence"] + [view["evidence"][0]] * MAX_EVIDENCE
    if view["evidence"]:
        with pytest.raises(ViewOutsideSchema, match="more than the schema's"):
            spec.encode(view)


def test_the_thiefs_secrets_are_in_the_thiefs_numbers_only() -> None:
    match = thief_turn_match()
    spec = TITLE.observation_spec(3, match.config)
    assert spec is not None
    thief, security, spectator = (spec.encode(match.view(s)) for s in (1, 2, None))
    # Where the Thief stands is one of the Thief's numbers, and only theirs.
    at = match.view(1)["thief"]["at"]
    where = [p for p in spec.parts if p[0] == "view['thief']['at']" and p[3] != "present"]
    assert len(where) == 1
    _, offset, width, _ = where[0]
    assert sum(thief[offset : offset + width]) == 1.0
    assert sum(security[offset : offset + width]) == 0.0
    assert sum(spectator[offset : offset + width]) == 0.0
    assert thief != security
    # The route's slots are as many as a night allows.
    route = [
        p for p in spec.parts if p[0].startswith("view['thief']['route']") and p[3] == "present"
    ]
    assert len(route) == MAX_ROUTE and at in match.view(1)["thief"]["route"]


def test_only_the_fixed_board_and_words_go_unencoded() -> None:
    spec = TITLE.observation_spec(2, TITLE.check_config(2, {}))
    assert spec is not None
    assert [path for path, _ in spec.not_encoded] == ["view['board']", "view['phase_text']"]


def test_the_facts_say_chance_is_the_setup_shuffle() -> None:
    facts = TITLE.game_facts(2, {})
    assert facts is not None
    assert facts.max_chance_outcomes == 7 and not facts.simultaneous
    assert facts.utility == "constant_sum" and facts.utility_sum == 1.0
    assert TITLE.game_facts(4, {}).utility == "general_sum"  # type: ignore[union-attr]


def assert_nothing_shared(a: Any, b: Any, path: str = "state") -> None:
    """``b`` is a copy of ``a`` that shares no list, dict or record with it."""
    if isinstance(a, list | dict) or attrs.has(type(a)):
        assert a is not b, f"{path} is shared between the state and its copy"
    if attrs.has(type(a)):
        for field in attrs.fields(type(a)):
            assert_nothing_shared(
                getattr(a, field.name), getattr(b, field.name), f"{path}.{field.name}"
            )
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_nothing_shared(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        for key in a:
            assert_nothing_shared(a[key], b[key], f"{path}[{key!r}]")


@pytest.mark.parametrize("players", PLAYERS)
def test_copy_state_copies_everything_and_shares_nothing(players: int) -> None:
    match = Match(TITLE, players, 60 + players)
    bots = {s: heuristic_bot(s, players) for s in range(1, players + 1)}
    rng = Rng(players)
    while True:
        state = match.state
        copied = TITLE.copy_state(state)
        assert copied == state and copied == copy.deepcopy(state)
        assert_nothing_shared(state, copied)
        if not match.awaiting:
            break
        seat = match.awaiting[0]
        match.submit(seat, bots[seat].act(match.observe(seat), rng))
    assert state.evidence and state.trail.watched  # the records were there to copy
