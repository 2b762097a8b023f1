"""Museum Heist as algorithms see it: numbered actions and encoded views.

Random games at every player count: every legal action of every awaited seat
round-trips through its number (the mask marks exactly the legal ones), and
every view (each seat's and the spectator's) encodes to the spec's length. The
schema is checked to be strict and to keep each seat's card to itself.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest
from gameweave_museumheist import MuseumHeist
from gameweave_museumheist.actions import Challenge, Choose, Move, Place, Swap
from gameweave_museumheist.algorithms import most_moves_in_a_round
from gameweave_museumheist.board import CHARACTERS

from gameweave_core import Match, Rng, ViewOutsideSchema, derive_seed
from gameweave_core.space import NotEnumerable

TITLE = MuseumHeist()
PLAYERS = (2, 3, 4)


def check_every_step(match: Match, rng: Rng) -> int:
    """Play ``match`` out at random, checking numbers and views at every step;
    returns how many legal actions were checked."""
    players = match.players
    space = match.action_space
    spec = match.observation_spec
    assert spec is not None
    checked = 0
    while True:
        for seat in (None, *range(1, players + 1)):
            assert len(match.observation(seat)) == spec.size
        if not match.awaiting:
            return checked
        for seat in match.awaiting:  # several at once while characters are chosen
            legal = list(match.legal_actions(seat))
            numbers = match.legal_indices(seat)
            mask = match.legal_mask(seat)
            assert len(mask) == space.size
            assert sorted(numbers) == [i for i, m in enumerate(mask) if m]
            assert len(set(numbers)) == len(legal), "two legal actions share a number"
            assert [space.action(n) for n in numbers] == legal
            checked += len(legal)
        seat = match.awaiting[0]
        match.submit_index(seat, rng.choice(match.legal_indices(seat)))


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_number_every_legal_action_and_encode_every_view(players: int) -> None:
    checked = 0
    for seed in range(4):
        match = Match(TITLE, players, 200 * players + seed)
        checked += check_every_step(match, Rng(derive_seed(seed, "choices")))
        assert match.utilities() is not None
        assert sum(match.utilities() or ()) == 1.0
    assert checked > 2000


def test_the_space_sizes_and_numbers_are_fixed() -> None:
    # 64 squares to place on, 7 characters to choose, 7 x 64 moves, seats x 7
    # challenges, 7 x 7 swaps (the legal ones are the 21 in the rules' order).
    sizes = [Match(TITLE, p, 1).action_space.size for p in PLAYERS]
    assert sizes == [582, 589, 596]
    space = Match(TITLE, 3, 1).action_space
    assert space.action(0) == Place("A1")
    assert space.index(Choose(CHARACTERS[0])) == 64
    assert space.index(Move("artist", "A1")) == 71
    assert space.index(Challenge(1, "artist")) == 71 + 7 * 64
    assert space.action(space.size - 1) == Swap("boy", "boy")


def test_an_action_outside_the_domains_has_no_number() -> None:
    space = Match(TITLE, 2, 1).action_space
    with pytest.raises(NotEnumerable, match=r"challenge\.seat"):
        space.index(Challenge(3, "boy"))  # no seat 3 in a two-player game
    with pytest.raises(NotEnumerable, match=r"move\.to"):
        space.index(Move("boy", "I9"))


def playing_match() -> Match:
    match = Match(TITLE, 3, 5)
    rng = Rng(5)
    while match.view(None)["phase"] != "play" or len(match.view(None)["moves"]) < 2:
        seat = match.awaiting[0]
        match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    return match


def test_the_schema_refuses_what_it_does_not_cover() -> None:
    match = playing_match()
    spec = match.observation_spec
    assert spec is not None
    view = match.view(1)
    view["you"]["card"] = "butler"
    with pytest.raises(ViewOutsideSchema, match=r"\['you'\]\['card'\]"):
        spec.encode(view)
    view = match.view(None)
    view["known"] = {"4": "boy"}  # no seat 4 in a three-player game
    with pytest.raises(ViewOutsideSchema, match="'4'"):
        spec.encode(view)
    view = match.view(None)
    view["board"]["passages"] = ["A1"]  # the board is checked
    with pytest.raises(ViewOutsideSchema, match=r"\['board'\]"):
        spec.encode(view)
    view = match.view(None)
    view["moves"] = view["moves"] * most_moves_in_a_round()
    with pytest.raises(ViewOutsideSchema, match="more than the schema's"):
        spec.encode(view)


def test_a_seats_card_is_in_its_own_numbers_only() -> None:
    match = playing_match()
    spec = match.observation_spec
    assert spec is not None
    (card,) = [p for p in spec.parts if p[0] == "view['you']['card']" and p[3] != "present"]
    _, offset, width, _ = card
    mine = match.observation(1)[offset : offset + width]
    assert mine[CHARACTERS.index(match.view(1)["you"]["card"])] == 1.0
    assert sum(match.observation(None)[offset : offset + width]) == 0.0
    assert match.observation(1) != match.observation(2)


def test_only_the_fixed_board_and_words_go_unencoded() -> None:
    spec = Match(TITLE, 2, 1).observation_spec
    assert spec is not None
    assert [path for path, _ in spec.not_encoded] == ["view['phase_text']", "view['board']"]


def test_the_facts_hold_in_explicit_chance_games() -> None:
    for players in PLAYERS:
        facts = TITLE.game_facts(players, {})
        assert facts is not None and facts.simultaneous and facts.utility == "constant_sum"
        match = Match.explicit(TITLE, players)
        rng = Rng(players)
        nodes = 0
        while match.is_chance_node:
            outcomes = match.chance_outcomes()
            assert len(outcomes) <= facts.max_chance_outcomes
            nodes += 1
            match.apply_chance(rng.choice(outcomes)[0])
        assert nodes == facts.max_chance_nodes
        assert set(match.awaiting) == set(range(1, players + 1))  # all choose at once


def assert_nothing_shared(a: Any, b: Any, path: str = "state") -> None:
    """``b`` is a copy of ``a`` that shares no list, dict or record with it."""
    if isinstance(a, list | dict) or attrs.has(type(a)):
        assert a is not b, f"{path} is shared between the state and its copy"
    if attrs.has(type(a)):
        for field in attrs.fields(type(a)):
            assert_nothing_shared(
                getattr(a, field.name), getattr(b, field.name), f"{path}.{field.name}"
            )
    elif isinstance(a, list | tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_nothing_shared(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        for key in a:
            assert_nothing_shared(a[key], b[key], f"{path}[{key!r}]")


@pytest.mark.parametrize("players", PLAYERS)
def test_copy_state_copies_everything_and_shares_nothing(players: int) -> None:
    rounds_ended = 0
    for seed in range(3):
        match = Match(TITLE, players, 700 + 10 * players + seed)
        rng = Rng(seed)
        while True:
            state = match.state
            copied = TITLE.copy_state(state)
            assert copied == state and copied == copy.deepcopy(state)
            assert_nothing_shared(state, copied)
            rounds_ended += state.last is not None
            if not match.awaiting:
                break
            seat = match.awaiting[0]
            match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    assert rounds_ended  # a round's record was there to copy
