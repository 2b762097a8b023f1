"""The House Job as algorithms see it: numbered actions and encoded views.

Random and bot games at every player count: every legal action of every state
round-trips through its number, and every view (each seat's and the spectator's)
encodes to the spec's length. Going all-in with Back the Play when the Take is
none of its steps has one number per box that stands for the Take of the moment,
so its number is read with the seat's view.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest

from gameweave_core import Match, Relative, Rng, ViewOutsideSchema, derive_seed
from gameweave_core.space import NotEnumerable
from gameweave_house import HouseJob
from gameweave_house.abilities import BACKING_STEPS, CARDS
from gameweave_house.actions import (
    ACTIONS,
    BACKING_AMOUNTS,
    CHIP_AMOUNTS,
    Ability,
    Chips,
    Draft,
    Mark,
)
from gameweave_house.algorithms import REASONS, action_list, most_take
from gameweave_house.bots import BOTS

TITLE = HouseJob()
PLAYERS = (2, 3, 4)


def all_in(act: Any) -> bool:
    """Back the Play for the whole Take, when the Take is none of the steps."""
    return (
        isinstance(act, Ability) and act.card == "back_the_play" and act.amount not in BACKING_STEPS
    )


def check_every_step(match: Match, choose: Any) -> tuple[int, int]:
    """Play ``match`` out with ``choose(match, seat)``, checking numbers and views at
    every step; returns (legal actions checked, all-in plays met)."""
    space = match.action_space
    spec = match.observation_spec
    assert spec is not None
    checked = all_ins = 0
    while True:
        for seat in (None, *range(1, match.players + 1)):
            assert len(match.observation(seat)) == spec.size
        if not match.awaiting:
            return checked, all_ins
        seat = match.awaiting[0]
        legal = list(match.legal_actions(seat))
        view = match.view(seat)
        numbers = [space.index(a, view) for a in legal]
        assert numbers == match.legal_indices(seat)
        assert len(set(numbers)) == len(legal), "two legal actions share a number"
        assert [space.action(n, view) for n in numbers] == legal
        mask = match.legal_mask(seat)
        assert sorted(numbers) == [i for i, bit in enumerate(mask) if bit]
        checked += len(legal)
        all_ins += sum(1 for a in legal if all_in(a))
        act = choose(match, seat)
        if act is not None:  # None: the chooser submitted it itself
            match.submit(seat, act)


def random_choice(rng: Rng) -> Any:
    return lambda m, s: rng.choice(list(m.legal_actions(s)))


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_number_every_legal_action_and_encode_every_view(players: int) -> None:
    checked = 0
    for seed in range(4):
        match = Match(TITLE, players, 300 * players + seed)
        checked += check_every_step(match, random_choice(Rng(derive_seed(seed, "choices"))))[0]
        assert match.utilities() in ((0.0,) * players, (1.0,) * players)
    assert checked > 1000


@pytest.mark.parametrize("players", PLAYERS)
def test_bot_games_number_every_legal_action_and_encode_every_view(players: int) -> None:
    # The basic bots bet, mark and play their cards as a crew would, which random
    # play rarely does for long.
    match = Match(TITLE, players, 60 + players)
    bots = {s: BOTS[TITLE.default_bot](s, players) for s in range(1, players + 1)}
    rng = Rng(derive_seed(players, "bots"))
    checked, _ = check_every_step(match, lambda m, s: bots[s].act(m.observe(s), rng))
    assert checked > 100


def test_the_space_sizes_and_numbers_are_fixed() -> None:
    sizes = [Match(TITLE, p, 1).action_space.size for p in PLAYERS]
    assert sizes == [384, 526, 668]
    space = Match(TITLE, 2, 1).action_space
    assert space.action(0) == Draft("lookout")
    assert space.index(Chips(10)) == 5
    assert space.index(Chips(10, 3)) == 6  # the Extra Box of two seats is box 3
    assert space.index(Mark(1)) == 12


def test_every_kind_and_every_ability_card_has_numbers() -> None:
    listed = [a for a in action_list(3, TITLE.check_config(3, {})) if not isinstance(a, Relative)]
    assert {type(a) for a in listed} == set(ACTIONS)
    assert {a.card for a in listed if isinstance(a, Ability)} == set(CARDS)
    # The list is the product of the declared values for every kind but Ability.
    own_chips = [a.amount for a in listed if isinstance(a, Chips) and a.box is None]
    assert own_chips == list(CHIP_AMOUNTS)


def test_the_declared_amounts_are_the_rules_amounts() -> None:
    assert BACKING_AMOUNTS == BACKING_STEPS
    # The first betting turn with the whole Take offers every push.
    match = Match(TITLE, 2, 1)
    while match.view(None)["phase"] == "draft":
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    seat = match.awaiting[0]
    offered = [a.amount for a in match.legal_actions(seat) if isinstance(a, Chips)]
    assert offered == list(CHIP_AMOUNTS)


def test_an_all_in_is_numbered_by_the_take_of_the_moment() -> None:
    space = Match(TITLE, 2, 1).action_space
    relative = [i for i, a in enumerate(space.actions()) if isinstance(a, Relative)]
    assert len(relative) == 3  # one per box: the seats' two and the Extra Box
    all_in_box_1 = relative[0]
    odd = {"take": 730}
    assert space.action(all_in_box_1, odd) == Ability("back_the_play", box=1, amount=730)
    assert space.index(Ability("back_the_play", box=1, amount=730), odd) == all_in_box_1
    # A Take that is one of the steps is that step's own number, never the all-in's.
    step = Ability("back_the_play", box=1, amount=1000)
    assert space.index(step, {"take": 1000}) == space.index(step) != all_in_box_1
    with pytest.raises(ValueError, match="all in on box 1"):
        space.action(all_in_box_1, {"take": 1000})
    with pytest.raises(NotEnumerable, match="back_the_play"):
        space.index(Ability("back_the_play", box=1, amount=730))  # without the view
    # And it happens in play: an all-in taken whenever it is legal, by its number.
    chosen: list[Any] = []
    met = 0
    for seed in range(6):
        match = Match(TITLE, 4, 900 + seed)
        rng = Rng(seed)

        def by_number(m: Match, s: int, r: Rng = rng) -> Any:
            space = m.action_space
            view = m.view(s)
            numbers = m.legal_indices(s)
            for number in numbers:
                if all_in(space.action(number, view)):
                    m.submit_index(s, number)
                    chosen.append(number)
                    return None
            return space.action(r.choice(numbers), view)

        met += check_every_step(match, by_number)[1]
    assert met > 0 and chosen


def betting_match() -> Match:
    match = Match(TITLE, 3, 8)
    rng = Rng(8)
    while match.view(None)["phase"] != "play":
        seat = match.awaiting[0]
        match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    return match


def test_the_schema_refuses_what_it_does_not_cover() -> None:
    match = betting_match()
    spec = match.observation_spec
    assert spec is not None
    view = match.view(1)
    view["dealer"]["cards"] = ["1X"]
    with pytest.raises(ViewOutsideSchema, match=r"\['dealer'\]\['cards'\]\[0\]"):
        spec.encode(view)
    view = match.view(1)
    view["take"] = most_take(3, 1000) + 1
    with pytest.raises(ViewOutsideSchema, match=r"\['take'\]"):
        spec.encode(view)
    view = match.view(1)
    view["crew"][0]["cards"][0]["reason"] = "because"
    with pytest.raises(ViewOutsideSchema, match="reason"):
        spec.encode(view)
    assert "" in REASONS and "spent" in REASONS


def test_the_opening_take_is_part_of_the_schema() -> None:
    # A schema is for one player count and options: the opening Take is checked.
    match = Match(TITLE, 2, 3, config={"take": 500})
    spec = match.observation_spec
    assert spec is not None
    assert len(match.observation(1)) == spec.size
    other = TITLE.observation_spec(2, TITLE.check_config(2, {}))
    assert other is not None
    with pytest.raises(ViewOutsideSchema, match="opening"):
        other.encode(match.view(1))


def test_only_words_and_constants_go_unencoded() -> None:
    spec = Match(TITLE, 2, 1).observation_spec
    assert spec is not None
    names = {path.rsplit("[", 1)[-1] for path, _ in spec.not_encoded}
    assert names == {
        *("'name']", "'text']", "'when']", "'role_name']", "'summary']"),
        *("'opening']", "'min_bet']"),
    }


def test_the_facts_hold_in_explicit_chance_games() -> None:
    facts = TITLE.game_facts(2, {})
    assert facts is not None and facts.utility == "identical" and not facts.simultaneous
    match = Match.explicit(TITLE, 2)
    assert match.is_chance_node
    assert len(match.chance_outcomes()) == facts.max_chance_outcomes == 52


def containers(value: Any, path: str, found: dict[str, Any]) -> None:
    """Every list and record inside ``value``, by its path."""
    if isinstance(value, list) or attrs.has(type(value)):
        found[path] = value
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            containers(getattr(value, field.name), f"{path}.{field.name}", found)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            containers(item, f"{path}[{i}]", found)


def sharing(found: dict[str, Any]) -> set[frozenset[str]]:
    """The groups of paths that hold one and the same object."""
    groups: dict[int, set[str]] = {}
    for path, value in found.items():
        groups.setdefault(id(value), set()).add(path)
    return {frozenset(g) for g in groups.values() if len(g) > 1}


@pytest.mark.parametrize("players", PLAYERS)
def test_copy_state_copies_everything_shares_nothing_and_keeps_the_aliases(players: int) -> None:
    settled = 0
    for seed in range(2):
        match = Match(TITLE, players, 500 + 10 * players + seed)
        rng = Rng(seed)
        while True:
            state = match.state
            copied = TITLE.copy_state(state)
            assert copied == state and copied == copy.deepcopy(state)
            mine: dict[str, Any] = {}
            theirs: dict[str, Any] = {}
            containers(state, "state", mine)
            containers(copied, "state", theirs)
            assert mine.keys() == theirs.keys()
            shared = [p for p in mine if mine[p] is theirs[p]]
            assert not shared, f"{shared[0]} is shared between the state and its copy"
            # The last settlement holds the dealer's and the hands' own lists: so must the copy's.
            assert sharing(mine) == sharing(theirs)
            settled += any("last" in p for g in sharing(mine) for p in g)
            if not match.awaiting:
                break
            seat = match.awaiting[0]
            match.submit(seat, rng.choice(list(match.legal_actions(seat))))
    assert settled  # the aliases were there to keep
