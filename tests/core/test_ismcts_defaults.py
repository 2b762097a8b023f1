"""The ISMCTS bot as a title sets it up: per-title search defaults, root candidates
proposed by the title's bot, cut-off rollouts scored by the title's evaluation,
and fresh rollout bots per rollout."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import pytest

from gameweave_core import ConfigError, Match, Registry, Rng
from gameweave_core.bots import Bot, BotFactory, Observation
from gameweave_core.ismcts import IsmctsBot, IsmctsFactory, SearchOptions
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.bots import ThriftyBot
from gameweave_sealedbid.state import State

from .test_ismcts import hidden_bid_match


def coins_left(state: State, seat: int) -> float:
    """A stand-in evaluation: the share of the coins a seat still holds."""
    return state.coins[seat - 1] / max(1, sum(state.coins))


class Tuned(SealedBid):
    """Sealed Bids asking for its own search: seat 2 rolls out with its bot."""

    name = "sealedbid-tuned"

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        if seat == 2:
            return {"iterations": 7, "rollout": "thrifty", "candidates": 3}
        return {"iterations": 11 * players}


class Misspelt(SealedBid):
    name = "sealedbid-misspelt"

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        return {"iteration": 5}


# -- the defaults are applied ----------------------------------------------------------


def test_the_title_defaults_reach_every_way_of_making_the_bot() -> None:
    title = Tuned()
    registry = Registry()
    registry.add_title(title)
    factory = registry.bots(title)["ismcts"]
    assert isinstance(factory, IsmctsFactory)
    seat2 = factory(2, 3).options
    assert (seat2.iterations, seat2.rollout, seat2.candidates) == (7, "thrifty", 3)
    assert factory(1, 3).options == SearchOptions(iterations=33)
    # The bot made directly (as the hint does) asks the title too.
    assert IsmctsBot(title, 2, 3).options == seat2
    # A retuned factory changes only what it names, per seat, on top of the title's.
    retuned = factory.with_options(exploration=0.2)
    assert retuned(2, 3).options == SearchOptions(
        iterations=7, rollout="thrifty", candidates=3, exploration=0.2
    )
    assert retuned(1, 2).options == SearchOptions(iterations=22, exploration=0.2)
    # The kit's cheap variant keeps the title's rollout bot but cuts the budget.
    cheap = factory.for_tests()(2, 3).options
    assert (cheap.iterations, cheap.rollout_limit, cheap.rollout) == (4, 12, "thrifty")
    # Given options replace the title's.
    assert IsmctsFactory(title, SearchOptions(iterations=3))(2, 3).options.rollout is None


def test_the_title_defaults_change_the_search() -> None:
    match = hidden_bid_match(Tuned())
    result = IsmctsBot(match.title, 2, 3).search(match.observe(2), Rng(4))
    # At most 7 iterations, spent only on the bids the thrifty bot proposed.
    assert result.iterations <= 7
    tried = {c.action for c in result.choices if c.visits}
    assert 1 <= len(tried) <= 3
    plain = IsmctsBot(SealedBid(), 2, 3).search(match.observe(2), Rng(4))
    assert plain.iterations == SearchOptions().iterations


def test_a_misspelt_default_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError, match="sealedbid-misspelt: no search option.s. iteration;"):
        IsmctsBot(Misspelt(), 1, 2)
    with pytest.raises(ConfigError) as info:
        IsmctsFactory(Misspelt())(1, 2)
    assert "\n" not in str(info.value)


# -- candidates --------------------------------------------------------------------------


def test_candidates_are_the_proposing_bot_moves_and_only_they_are_searched() -> None:
    match = hidden_bid_match(SealedBid())
    options = SearchOptions(iterations=60, rollout="thrifty", candidates=8)
    result = IsmctsBot(match.title, 2, 3, options).search(match.observe(2), Rng(5))
    tried = {c.action.coins for c in result.choices if c.visits}
    assert sum(c.visits for c in result.choices) == 60
    # Thrifty bids the lot (2 here) give or take: -1 to +2, within its 5 coins left.
    view = match.view(2)
    coins = view["coins"][1]
    near = {max(0, min(coins, view["lot"] + d)) for d in (-1, 0, 1, 2)}
    assert len(tried) >= 2 and tried <= near
    assert result.action.coins in tried
    # Without candidates every legal bid is tried.
    full = IsmctsBot(match.title, 2, 3, SearchOptions(iterations=60, rollout="thrifty"))
    assert len({c.action for c in full.search(match.observe(2), Rng(5)).choices if c.visits}) > 4


def test_a_single_candidate_is_played_without_searching() -> None:
    class Sure(SealedBid):
        name = "sealedbid-sure"

        def bots(self) -> Mapping[str, BotFactory]:
            return {"sure": lambda seat, players: SureBot()}

    class SureBot:
        def act(self, observation: Observation, rng: Rng) -> Any:
            return observation.legal[-1]

    match = Match(Sure(), 2, seed=3)
    options = SearchOptions(rollout="sure", candidates=5)
    result = IsmctsBot(match.title, 1, 2, options).search(match.observe(1), Rng(1))
    assert result.iterations == 0 and result.share == 1.0
    assert result.action == match.legal_actions(1)[-1]


def test_candidates_default_to_the_title_default_bot_and_need_one() -> None:
    match = hidden_bid_match(SealedBid())
    options = SearchOptions(iterations=30, candidates=4)  # random rollouts
    result = IsmctsBot(match.title, 2, 3, options).search(match.observe(2), Rng(2))
    assert 1 <= len({c.action for c in result.choices if c.visits}) <= 4

    class Botless(SealedBid):
        name = "sealedbid-botless"
        default_bot = "random"

        def bots(self) -> Mapping[str, BotFactory]:
            return {}

    with pytest.raises(ConfigError, match="no bot of its own to propose candidates"):
        IsmctsBot(Botless(), 1, 2, options)
    with pytest.raises(ConfigError, match="candidates must be a whole number >= 1"):
        SearchOptions(candidates=0)


def test_a_search_with_candidates_is_deterministic_and_twin_blind() -> None:
    match = hidden_bid_match(SealedBid())
    options = SearchOptions(iterations=40, rollout="thrifty", candidates=6)
    real = IsmctsBot(match.title, 2, 3, options).search(match.observe(2), Rng(9))
    assert IsmctsBot(match.title, 2, 3, options).search(match.observe(2), Rng(9)) == real
    title = match.title
    for k in range(4):
        twin = match.observe(2).resample(Rng(k))
        obs = Observation(
            2,
            title.legal_actions(twin, 2),
            functools.partial(title.view, twin),
            match.history,
            functools.partial(title.resample, twin),
        )
        assert IsmctsBot(title, 2, 3, options).search(obs, Rng(9)) == real, f"twin {k}"


# -- cut-off rollouts and rollout bots ------------------------------------------------------


def test_a_cut_off_rollout_is_scored_by_the_evaluation() -> None:
    match = Match(SealedBid(), 2, seed=4)
    seen: list[int] = []

    def by_seat(state: State, seat: int) -> float:
        seen.append(seat)
        return 0.25 if seat == 1 else 0.75

    options = SearchOptions(iterations=30, rollout_limit=0, evaluate=by_seat)
    result = IsmctsBot(match.title, 1, 2, options).search(match.observe(1), Rng(2))
    assert {c.mean for c in result.choices if c.visits} == {0.25}
    assert sorted(set(seen)) == [1, 2] and len(seen) == 2 * 30
    # A real evaluation grades the drawn states: the bids differ in what they leave.
    options = SearchOptions(iterations=30, rollout_limit=0, evaluate=coins_left)
    result = IsmctsBot(match.title, 1, 2, options).search(match.observe(1), Rng(2))
    means = {round(c.mean, 9) for c in result.choices if c.visits}
    assert len(means) > 3 and all(0.0 <= m <= 1.0 for m in means)


def test_each_rollout_gets_fresh_bots() -> None:
    made: list[Bot] = []

    class Counting(SealedBid):
        name = "sealedbid-counting"

        def bots(self) -> Mapping[str, BotFactory]:
            def factory(seat: int, players: int) -> Bot:
                bot = ThriftyBot()
                made.append(bot)
                return bot

            return {"thrifty": factory}

    match = Match(Counting(), 2, seed=4)
    options = SearchOptions(iterations=20, rollout="thrifty")
    IsmctsBot(match.title, 1, 2, options).search(match.observe(1), Rng(2))
    # Both seats bid in every rollout (each iteration leaves lots to play): at
    # least one new bot per rollout, never one bot for all of them.
    assert len(made) >= 20


def test_a_hint_weighs_every_legal_action_where_the_bots_search_prunes() -> None:
    """A title may narrow its bot's search to the moves its own bot proposes; a
    hint for a person searches among every legal action, and says why when no
    search ran."""
    from gameweave_cli.hint import hint_text, search_hint

    class Sure(SealedBid):
        name = "sealedbid-sure-hint"

        def bots(self) -> Mapping[str, BotFactory]:
            return {"sure": lambda seat, players: SureBot()}

        def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
            return {"rollout": "sure", "candidates": 3}

    class SureBot:
        def act(self, observation: Observation, rng: Rng) -> Any:
            return observation.legal[min(2, len(observation.legal) - 1)]

    match = Match(Sure(), 2, seed=3)
    legal = match.legal_actions(1)
    pruned = search_hint(match, 1, SearchOptions.for_title(match.title, 1, 2))
    assert pruned.iterations == 0 and pruned.action == legal[2]
    text = hint_text(match, 1, pruned).plain
    # Sealed Bids' menu counts from 0, as its bids do: bid 2 is number 2.
    assert "2. bid 2" in text
    assert f"the one move of {len(legal)} that the title's own bot proposes" in text
    full = search_hint(match, 1)
    assert full.iterations > 0
    assert {c.action for c in full.choices} == set(legal)
