"""The ISMCTS bot: deterministic, acting from its seat's view alone, stronger than
random, and offered exactly for the titles that can resample."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest

from gameweave_core import ConfigError, Match, Outcome, Registry, Rng, Title, derive_seed
from gameweave_core.bots import Observation, RandomBot
from gameweave_core.ismcts import (
    UNFINISHED_REWARD,
    IsmctsBot,
    IsmctsFactory,
    SearchOptions,
    SearchResult,
)
from gameweave_core.runner import BotSeat, run_bots
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.state import State

#: Small budgets: these tests check behaviour; strength is measured in benchmarks/.
FEW = SearchOptions(iterations=40)


class NoResample(SealedBid):
    """Sealed Bids without its resample hook."""

    name = "sealedbid-noresample"
    resample = Title.resample


class LeakyResample(SealedBid):
    """A broken hook that keeps the hidden bids and lots to come as they really are
    (only the seat's own information would be allowed to stay)."""

    name = "sealedbid-leaky"

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        return copy.deepcopy(state)


def hidden_bid_match(title: SealedBid, seed: int = 11) -> Match:
    """A 3-seat match where seat 1 has sealed a bid seat 2 has not seen, on lot 2."""
    match = Match(title, 3, seed=seed)
    for seat, coins in ((1, 3), (2, 5), (3, 0)):
        match.submit(seat, {"type": "bid", "coins": coins})
    match.submit(1, {"type": "bid", "coins": 7})
    assert match.awaiting == (2, 3)
    return match


def twin_observation(match: Match, seat: int, k: int) -> tuple[Observation, Any]:
    """An observation of a state drawn for ``seat`` (a twin: the seat cannot tell it
    from the real one), built like the match builds its own; and the drawn state."""
    title = match.title
    twin = match.observe(seat).resample(Rng(k))
    obs = Observation(
        seat,
        title.legal_actions(twin, seat),
        lambda s: title.view(twin, s),
        match.history,
        lambda s, rng: title.resample(twin, s, rng),
    )
    return obs, twin


def _resample_from(title: SealedBid, state: State, seat: int, rng: Rng) -> State:
    return title.resample(state, seat, rng)


def search(match: Match, seat: int, seed: int, options: SearchOptions = FEW) -> SearchResult:
    bot = IsmctsBot(match.title, seat, match.players, options)
    return bot.search(match.observe(seat), Rng(seed))


# -- determinism and the view -------------------------------------------------------


def test_same_observation_and_seed_give_the_same_search() -> None:
    match = hidden_bid_match(SealedBid())
    first, again = search(match, 2, 5), search(match, 2, 5)
    assert first == again
    assert first.iterations == FEW.iterations
    assert sum(c.visits for c in first.choices) == FEW.iterations
    # Another seed searches other determinizations: the figures differ.
    assert search(match, 2, 6).choices != first.choices


def test_a_twin_observation_gives_the_same_move_and_figures() -> None:
    match = hidden_bid_match(SealedBid())
    real = search(match, 2, 9)
    differing = 0
    for k in range(6):
        obs, twin = twin_observation(match, 2, k)
        assert obs.view == match.view(2)
        differing += match.title.snapshot(twin) != match.snapshot()
        bot = IsmctsBot(match.title, 2, 3, FEW)
        assert bot.search(obs, Rng(9)) == real, f"twin {k} changed the search"
    assert differing >= 5  # the twins really hold other hidden bids and lots


def test_the_twin_check_catches_a_search_that_uses_the_real_secrets() -> None:
    # With a hook that keeps the real hidden bids, the search depends on them: a
    # twin (another world the seat cannot tell apart) searches differently.
    title = LeakyResample()
    match = hidden_bid_match(title)
    real = search(match, 2, 9)
    honest = SealedBid()
    differs = 0
    for k in range(6):
        twin = honest.resample(match.observe(2).resample(Rng(0)), 2, Rng(k))
        obs = Observation(
            2,
            title.legal_actions(twin, 2),
            functools.partial(title.view, twin),
            match.history,
            functools.partial(_resample_from, title, twin),
        )
        differs += IsmctsBot(title, 2, 3, FEW).search(obs, Rng(9)) != real
    assert differs >= 5


def test_the_bot_reads_nothing_but_its_observation() -> None:
    class Spy:
        """An observation that records which of its attributes the bot reads."""

        def __init__(self, real: Observation) -> None:
            self.real = real
            self.read: set[str] = set()

        def __getattr__(self, name: str) -> Any:
            self.read.add(name)
            return getattr(self.real, name)

    match = hidden_bid_match(SealedBid())
    spy = Spy(match.observe(2))
    IsmctsBot(match.title, 2, 3, FEW).act(spy, Rng(1))  # type: ignore[arg-type]
    assert {"legal", "resample"} <= spy.read <= {"legal", "seat", "resample"}


def test_observation_resample_draws_from_the_seat_information_set() -> None:
    match = hidden_bid_match(SealedBid())
    drawn = match.observe(2).resample(Rng(3))
    assert match.title.view(drawn, 2) == match.view(2)
    assert match.title.snapshot(drawn) != match.snapshot()
    assert match.observe(2).resample(Rng(3)) == drawn
    bare = Observation(2, match.legal_actions(2), match.view, match.history)
    with pytest.raises(NotImplementedError, match="cannot draw states"):
        bare.resample(Rng(3))


# -- play -----------------------------------------------------------------------------


def test_the_bot_plays_whole_games_and_beats_random_clearly() -> None:
    title = SealedBid()
    factory = IsmctsFactory(title, SearchOptions(iterations=60))
    wins = games = 0
    for game in range(16):
        me = 1 + game % 2  # seats swapped every other game
        match = Match(title, 2, seed=game)
        seats = {
            me: BotSeat(factory(me, 2), Rng(derive_seed(game, "search"))),
            3 - me: BotSeat(RandomBot(), Rng(derive_seed(game, "random"))),
        }
        run_bots(match, seats, limit=title.max_actions)
        outcome = match.outcome()
        assert outcome is not None
        games += 1
        wins += outcome.winners == (me,)
    # Random against random wins about 45% of two-seat games (ties win nobody).
    assert wins >= 13, f"ISMCTS won only {wins} of {games} games against random"


def test_a_search_with_one_legal_action_takes_it_without_searching() -> None:
    class One(SealedBid):
        name = "sealedbid-one"

        def legal_actions(self, state: State, seat: int) -> list[Any]:
            return list(super().legal_actions(state, seat))[:1]

    match = Match(One(), 2, seed=1)
    result = search(match, 1, 1)
    assert result.iterations == 0 and result.share == 1.0
    assert result.action == match.legal_actions(1)[0]


def test_rollout_limit_scores_unfinished_games_as_half() -> None:
    match = Match(SealedBid(), 2, seed=4)
    result = search(match, 1, 2, SearchOptions(iterations=30, rollout_limit=0))
    assert {c.mean for c in result.choices if c.visits} == {UNFINISHED_REWARD}
    full = search(match, 1, 2, SearchOptions(iterations=30))
    assert {c.mean for c in full.choices if c.visits} != {UNFINISHED_REWARD}


def test_rollouts_with_the_title_bot_are_deterministic_and_differ_from_random() -> None:
    match = hidden_bid_match(SealedBid())
    thrifty = SearchOptions(iterations=40, rollout="thrifty")
    assert search(match, 2, 4, thrifty) == search(match, 2, 4, thrifty)
    assert search(match, 2, 4, thrifty).choices != search(match, 2, 4).choices


def test_a_wall_clock_budget_stops_early() -> None:
    match = Match(SealedBid(), 2, seed=4)
    result = search(match, 1, 2, SearchOptions(iterations=10**6, budget=0.05))
    assert 1 <= result.iterations < 10**6


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "iterations must be a whole number >= 1"),
        ({"exploration": -1.0}, "exploration must be >= 0"),
        ({"budget": 0}, "budget must be a number of seconds > 0"),
        ({"rollout_limit": -2}, "rollout_limit must be >= 0"),
    ],
)
def test_bad_options_are_one_line(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        SearchOptions(**options)
    assert "\n" not in str(info.value)


def test_an_unknown_rollout_bot_is_named() -> None:
    with pytest.raises(ConfigError, match="sealedbid has no bot 'wild' to roll out with"):
        IsmctsBot(SealedBid(), 1, 2, SearchOptions(rollout="wild"))


def test_reward_defaults_to_winning() -> None:
    outcome = Outcome(side="tie", winners=(1, 3), reason="tie", summary="")
    assert [SealedBid().reward(outcome, s) for s in (1, 2, 3)] == [1.0, 0.0, 1.0]


# -- registration -----------------------------------------------------------------------


def test_offered_for_titles_that_resample_and_absent_otherwise() -> None:
    registry = Registry()
    registry.add_title(SealedBid())
    registry.add_title(NoResample())
    sealed = registry.bots(registry.title("sealedbid"))
    assert isinstance(sealed["ismcts"], IsmctsFactory)
    assert "ismcts" not in registry.bots(registry.title("sealedbid-noresample"))
    match = Match.create("sealedbid", 2, seed=3, registry=registry)
    from gameweave_core import play_out

    play_out(match, {1: "ismcts", 2: "random"}, registry)
    assert match.is_over


def test_the_kit_runs_search_bots_at_their_test_budget() -> None:
    from gameweave_core.testing import kit_bots

    registry = Registry()
    registry.add_title(SealedBid())
    bots = kit_bots(registry, registry.title("sealedbid"))
    assert bots["ismcts"](1, 2).options == IsmctsFactory(SealedBid()).for_tests()(1, 2).options
    assert bots["ismcts"](1, 2).options.iterations == 4
    assert bots["random"] is registry.bots(registry.title("sealedbid"))["random"]
