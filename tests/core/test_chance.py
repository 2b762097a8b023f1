"""Explicit chance, clones, information states, utilities and facts (issue 35)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gameweave_core import (
    GameFacts,
    GameweaveError,
    IllegalAction,
    IntRange,
    Match,
    NotAwaited,
    Outcome,
    Rng,
    Schema,
    TitleError,
    game_info,
)
from gameweave_core.errors import NeedsChance
from gameweave_core.rng import ScriptedRng
from gameweave_core.testing import (
    TitleConformance,
    check_action_space,
    check_explicit_chance,
    check_game_info,
    check_information_states,
    check_observations,
    check_utilities,
    random_match,
)
from gameweave_sealedbid import SealedBid

from .bluff import Bluff
from .liarsdice import LiarsDice
from .liarsdice import State as DiceState
from .pickpocket import Pickpocket

# -- the draw primitive ---------------------------------------------------------------


def test_every_draw_but_random_is_built_on_randbelow_draw_for_draw() -> None:
    # Generator 2's draws, fed to a generator that has nothing but randbelow (the
    # scripted one), give the same shuffle, choice, sample and numbers: each of them
    # is built on randbelow, so overriding randbelow alone changes them all.
    n = 20
    bounds = [*range(n, 1, -1), n, *range(n, n - 4, -1), 7, 7]
    plain = Rng(5)
    stream = Rng(5)
    draws = [stream.randbelow(b) for b in bounds]
    scripted = ScriptedRng(draws)
    items = list(range(n))
    a, b = list(items), list(items)
    plain.shuffle(a)
    scripted.shuffle(b)
    assert a == b
    assert plain.choice(items) == scripted.choice(items)
    assert plain.sample(items, 4) == scripted.sample(items, 4)
    assert plain.randint(3, 9) == scripted.randint(3, 9)
    assert plain.randrange(7) == scripted.randrange(7)
    assert scripted.bounds == bounds


def test_a_scripted_generator_gives_its_draws_then_asks_for_chance() -> None:
    rng = ScriptedRng([2, 0])
    assert rng.choice("abc") == "c"
    assert rng.randint(1, 6) == 1
    with pytest.raises(NeedsChance) as caught:
        rng.randbelow(52)
    assert caught.value.n == 52
    assert rng.bounds == [3, 6]
    with pytest.raises(ValueError, match="scripted draw 0 is 4, outside range"):
        ScriptedRng([4]).randbelow(3)
    with pytest.raises(TypeError, match="cannot be an explicit chance outcome"):
        ScriptedRng().random()
    # The signal is no Exception: a title's own `except Exception` cannot swallow it.
    assert not isinstance(caught.value, Exception)


# -- explicit chance -------------------------------------------------------------------


def test_a_match_with_a_shuffle_in_setup_starts_at_a_chance_node() -> None:
    match = Match.explicit(SealedBid(), 2)
    assert match.is_chance_node
    assert match.awaiting == ()
    assert match.outcome() is None
    outcomes = match.chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(9))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(GameweaveError, match="chance node of its setup"):
        match.view(1)
    with pytest.raises(NotAwaited, match="chance node"):
        match.submit(1, {"type": "bid", "coins": 1})
    sizes = []
    while match.is_chance_node:
        sizes.append(len(match.chance_outcomes()))
        match.apply_chance(0)
    assert sizes == [9, 8, 7, 6, 5, 4, 3, 2]  # Fisher-Yates from the end
    assert match.chance_draws == [0] * 8
    assert match.awaiting == (1, 2)


def test_a_bad_chance_outcome_is_refused_and_changes_nothing() -> None:
    match = Match.explicit(SealedBid(), 2)
    with pytest.raises(IllegalAction, match="outcomes 0 to 8"):
        match.apply_chance(9)
    with pytest.raises(IllegalAction):
        match.apply_chance(True)
    assert match.chance_outcomes()[-1][0] == 8
    seeded = Match(SealedBid(), 2, seed=1)
    with pytest.raises(IllegalAction, match="not at a chance node"):
        seeded.apply_chance(0)


@pytest.mark.parametrize(
    "title", [SealedBid(), LiarsDice(), Pickpocket(), Bluff()], ids=lambda t: t.name
)
@pytest.mark.parametrize("seed", [0, 7, 2026])
def test_explicit_chance_replays_the_seeded_match(title: Any, seed: int) -> None:
    for players in (title.min_players, title.max_players):
        check_explicit_chance(title, players, seed)


def test_chance_during_play_is_a_node_after_the_action() -> None:
    draws = Rng(3)
    match = Match.explicit(LiarsDice(), 2)
    while match.is_chance_node:  # 3 dice each: 6 draws of a die
        assert len(match.chance_outcomes()) == 6
        match.apply_chance(draws.randbelow(6))
    assert len(match.chance_draws) == 6
    seat = match.awaiting[0]
    before = match.view(seat)
    match.submit(seat, {"type": "reroll"})
    assert match.is_chance_node and match.step == 0  # the re-roll waits for its dice
    assert match.view(seat) == before
    for _ in range(3):
        match.apply_chance(5)
    assert not match.is_chance_node and match.step == 1
    assert match.view(seat)["my_dice"] == [6, 6, 6]
    assert match.history(seat)[-1] == "You re-roll: 6 6 6"


class RandomInRules(LiarsDice):
    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> DiceState:
        rng.random()
        return super().setup(players, config, rng)


def test_rules_drawing_a_float_cannot_be_made_explicit() -> None:
    with pytest.raises(TypeError, match="rng.random\\(\\) cannot be an explicit chance outcome"):
        Match.explicit(RandomInRules(), 2)


def test_an_explicit_match_has_no_seed_to_log() -> None:
    match = Match.explicit(SealedBid(), 2)
    with pytest.raises(GameweaveError, match="to_log needs a seeded match"):
        match.to_log()


# -- clones ---------------------------------------------------------------------------


def test_a_clone_goes_its_own_way() -> None:
    match = random_match(LiarsDice(), 3, 21, steps=4)
    clone = match.clone()
    assert clone.digest() == match.digest()
    assert clone.history(1) == match.history(1)
    before = match.digest()
    seat = clone.awaiting[0]
    clone.submit(seat, clone.legal_actions(seat)[0])
    assert match.digest() == before and match.step == 4
    assert clone.step == 5
    # A clone draws what the match would: both go on alike.
    seat = match.awaiting[0]
    act = match.legal_actions(seat)[0]
    other = match.clone()
    match.submit(seat, act)
    other.submit(seat, act)
    assert other.digest() == match.digest()


def test_a_clone_at_a_chance_node_is_at_it_too() -> None:
    match = Match.explicit(SealedBid(), 2)
    match.apply_chance(3)
    clone = match.clone()
    clone.apply_chance(1)
    assert match.chance_outcomes()[-1][0] == 7  # still at the second draw of eight
    match.apply_chance(1)
    assert clone.chance_outcomes() == match.chance_outcomes()


# -- information states ---------------------------------------------------------------


def test_information_states_recall_and_separate_the_seats() -> None:
    match = random_match(Pickpocket(), 3, 5)
    check_information_states(match)
    one, two = match.information_state(1), match.information_state(2)
    assert one != two
    assert one.splitlines()[0].startswith('["view",0,')


def test_a_seat_cannot_tell_two_deals_apart_only_by_what_it_was_not_shown() -> None:
    # Two matches in which only the order of lots nobody has seen yet differs give
    # seat 1 the same information state, until the first of them comes up.
    a = Match(SealedBid(), 2, seed=0, config={"lots": [5, 1, 2, 3, 4]})
    b = Match(SealedBid(), 2, seed=0, config={"lots": [5, 1, 2, 4, 3]})
    for m in (a, b):
        m.submit(1, {"type": "bid", "coins": 3})
    assert a.information_state(1) == b.information_state(1)
    for m in (a, b):
        m.submit(2, {"type": "bid", "coins": 4})
        m.submit(1, {"type": "bid", "coins": 0})
        m.submit(2, {"type": "bid", "coins": 0})
    # The third lot (worth 2 in both) is up; the fourth will be 3 in one, 4 in the other.
    assert a.information_state(1) == b.information_state(1)
    for m in (a, b):
        m.submit(1, {"type": "bid", "coins": 0})
        m.submit(2, {"type": "bid", "coins": 0})
    assert a.information_state(1) != b.information_state(1)


# -- utilities and facts -----------------------------------------------------------------


def test_default_utilities_and_undeclared_facts() -> None:
    match = random_match(Pickpocket(), 2, 8)
    outcome = match.outcome()
    assert outcome is not None
    found = match.utilities()
    assert found == tuple(1.0 if s in outcome.winners else 0.0 for s in (1, 2))
    info = game_info(Pickpocket(), 2)
    assert info.declared and info.simultaneous and info.uses_chance
    assert info.dynamics == "simultaneous"
    assert info.max_chance_outcomes == 16
    assert info.num_actions == 1 + 12 + 2 + 1 + 1
    assert info.observation_size is not None
    assert Match(Pickpocket(), 2, seed=1).utilities() is None


def test_game_info_of_an_undeclared_title_says_so() -> None:
    from .test_space import FreeText

    info = game_info(FreeText(), 2)
    assert not info.declared
    assert info.max_chance_outcomes is None and info.dynamics is None
    assert info.num_actions is None
    assert info.not_enumerable is not None and "'text'" in info.not_enumerable


# -- the kit fails a wrong declaration ------------------------------------------------------


class FewerBids(SealedBid):
    """Declares bids of 0 to 10 only, though a seat may bid all its 20 coins."""

    def action_list(self, players: int, config: Mapping[str, Any]) -> Sequence[Any]:
        from gameweave_sealedbid.actions import Bid

        return [Bid(c) for c in range(11)]


class NarrowView(SealedBid):
    """Declares at most 10 coins in a purse, though purses start at 20."""

    def view_schema(self, players: int, config: Mapping[str, Any]) -> Schema:
        schema: Any = super().view_schema(players, config)
        fields = dict(schema.fields)
        fields["coins"] = type(fields["coins"])(IntRange(0, 10), length=players)
        narrowed: Schema = type(schema).of(fields)
        return narrowed


class FewerOutcomes(LiarsDice):
    """Declares 5 outcomes at most; a die has 6."""

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        return GameFacts(max_chance_outcomes=5)


class Sequential(SealedBid):
    """Declares sequential moves; every seat bids at once."""

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        return GameFacts(max_chance_outcomes=9, simultaneous=False)


class FalseZeroSum(LiarsDice):
    """Declares zero-sum utilities, but keeps the default 1 for a winner, 0 otherwise."""

    def game_facts(self, players: int, config: Mapping[str, Any]) -> GameFacts:
        return GameFacts(max_chance_outcomes=6, utility="zero_sum", min_utility=-1.0)


def test_the_kit_fails_an_action_missing_from_the_declared_numbers() -> None:
    match = Match(FewerBids(), 2, seed=1)
    with pytest.raises(AssertionError) as caught:
        check_action_space(match)
    assert "sealedbid at step 0, seat 1: a legal action has no number" in str(caught.value)
    assert "Bid(coins=11)" in str(caught.value)


def test_the_kit_fails_a_view_outside_its_declared_schema() -> None:
    match = Match(NarrowView(), 2, seed=1)
    with pytest.raises(AssertionError) as caught:
        check_observations(match)
    assert "view['coins'][0] is 20, not a whole number from 0 to 10" in str(caught.value)


def test_the_kit_fails_a_draw_with_more_outcomes_than_declared() -> None:
    with pytest.raises(AssertionError, match="6 outcomes, more than the declared"):
        check_explicit_chance(FewerOutcomes(), 2, 1)


def test_the_kit_fails_simultaneous_moves_declared_sequential() -> None:
    match = random_match(Sequential(), 2, 1)
    with pytest.raises(AssertionError, match="awaited at once at step 0"):
        check_game_info(match)


def test_the_kit_fails_utilities_that_break_the_declared_sum() -> None:
    match = random_match(FalseZeroSum(), 2, 4)
    with pytest.raises(AssertionError, match="declared zero-sum, but utilities"):
        check_utilities(match, match.game_info)


def test_the_kit_passes_the_declared_titles() -> None:
    for title in (SealedBid(), LiarsDice(), Pickpocket(), Bluff()):
        match = random_match(title, title.max_players, 12)
        assert check_action_space(match) > 0
        assert check_observations(match) > 0
        check_game_info(match)


def test_utilities_of_the_wrong_length_are_a_title_error() -> None:
    class Short(SealedBid):
        def utilities(self, outcome: Outcome, players: int) -> Sequence[float]:
            return (1.0,)

    match = random_match(Short(), 3, 2)
    with pytest.raises(TitleError, match="gave 1 values for 3 seats"):
        match.utilities()


def test_the_conformance_class_fails_a_wrong_declaration_and_skips_a_missing_one() -> None:
    from .test_kit_mutations import kit_failure
    from .test_space import FreeText

    message = kit_failure(FewerBids(), "test_actions_enumerate")
    assert "a legal action has no number" in message
    kit = type("Kit", (TitleConformance,), {"title": FreeText()})
    with pytest.raises(pytest.skip.Exception, match="not checked: freetext cannot number"):
        kit().test_actions_enumerate()


def test_a_resampled_match_keeps_the_seats_view_and_redraws_the_rest() -> None:
    match = Match(SealedBid(), 3, seed=8)
    match.submit(2, {"type": "bid", "coins": 6})
    match.submit(3, {"type": "bid", "coins": 2})
    drawn = [match.resampled(1, Rng(s)) for s in range(6)]
    for other in drawn:
        assert other.view(1) == match.view(1)
        assert other.legal_actions(1) == match.legal_actions(1)
        assert other.information_state(1) == match.information_state(1)
    # The other seats' sealed bids and the lots to come are redrawn.
    assert any(other.digest() != match.digest() for other in drawn)
    # A resampled match plays on by itself; the real one is untouched.
    before = match.digest()
    other = drawn[0]
    other.submit(1, {"type": "bid", "coins": 1})
    assert other.step == 3 and match.step == 2 and match.digest() == before
    # Same generator, same draw.
    assert match.resampled(1, Rng(3)).digest() == drawn[3].digest()


def test_a_resampled_explicit_match_stays_explicit() -> None:
    match = Match.explicit(LiarsDice(), 2)
    draws = Rng(4)
    while match.is_chance_node:
        match.apply_chance(draws.randbelow(6))
    seat = match.awaiting[0]
    match.submit(seat, {"type": "reroll"})
    assert match.is_chance_node
    other = match.resampled(3 - seat, Rng(1))
    assert other.explicit_chance and other.is_chance_node
    for _ in range(3):
        other.apply_chance(0)
    assert other.view(seat)["my_dice"] == [1, 1, 1]
    assert match.is_chance_node
