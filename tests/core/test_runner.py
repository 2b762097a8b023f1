"""The bot runner: bots act on their own observation, and what they answer is
checked like any submission."""

from __future__ import annotations

import types
from typing import Any

import pytest

from gameweave_core import IllegalAction, MalformedAction, Match, RandomBot, Rng, TitleError
from gameweave_core.bots import Observation
from gameweave_core.runner import BotSeat, run_bots
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.title import Bid


class Scripted:
    """Answers what it is told, and keeps what it was shown while it acted (an
    observation's view and history are read on demand, from the match as it is)."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.seen: list[tuple[int, list[Any], dict[str, Any], list[str]]] = []

    def act(self, observation: Observation, rng: Rng) -> Any:
        self.seen.append(
            (observation.seat, list(observation.legal), observation.view, observation.history)
        )
        return self.answer(observation) if callable(self.answer) else self.answer


def seats(**bots: Scripted) -> dict[int, BotSeat]:
    return {int(k[1:]): BotSeat(bot, Rng(i)) for i, (k, bot) in enumerate(bots.items())}


def test_bots_act_in_seat_order_and_stop_at_a_seat_without_a_bot() -> None:
    match = Match(SealedBid(), 3, seed=4)
    one, two = Scripted(Bid(1)), Scripted(Bid(0))
    assert run_bots(match, seats(s1=one, s2=two)) == 2
    assert match.awaiting == (3,)  # seat 3 has no bot: the runner hands back
    assert [seat for seat, _ in match.actions()] == [1, 2]
    # Each bot saw its own seat, legal bids and view, as the match stood then.
    (seat_one, legal_one, view_one, _), (seat_two, _, view_two, _) = one.seen + two.seen
    assert (seat_one, seat_two) == (1, 2)
    assert legal_one == list(match.at(0).legal_actions(1))
    assert view_one == match.at(0).view(1) and view_two == match.at(1).view(2)


def test_an_illegal_answer_is_refused_and_changes_nothing() -> None:
    match = Match(SealedBid(), 2, seed=4)
    before = match.digest()
    with pytest.raises(IllegalAction, match="cannot bid 999"):
        run_bots(match, seats(s1=Scripted(Bid(999))))
    assert match.step == 0 and match.digest() == before
    with pytest.raises(MalformedAction):
        run_bots(match, seats(s1=Scripted({"type": "bid", "coins": "lots"})))
    assert match.step == 0 and match.digest() == before


def test_an_answer_in_json_form_is_taken_like_the_object() -> None:
    by_json, by_object = Match(SealedBid(), 2, seed=4), Match(SealedBid(), 2, seed=4)
    run_bots(by_json, seats(s1=Scripted({"type": "bid", "coins": 2})))
    run_bots(by_object, seats(s1=Scripted(Bid(2))))
    assert by_json.actions() == by_object.actions()
    assert by_json.digest() == by_object.digest()


def test_the_view_and_history_are_the_seats_own() -> None:
    match = Match(SealedBid(), 2, seed=4)
    match.submit(1, Bid(3))
    match.submit(2, Bid(1))
    spy = Scripted(lambda obs: obs.legal[0])
    run_bots(match, seats(s2=spy), limit=1)
    ((_, _, view, history),) = spy.seen
    assert view == match.at(2).view(2) and history == match.at(2).history(2)
    assert "You bid 1" in " ".join(history) and "You bid 3" not in " ".join(history)


def test_a_title_that_never_ends_is_stopped_at_the_limit() -> None:
    match = Match(SealedBid(), 2, seed=4)
    with pytest.raises(RuntimeError, match="did not end within 3 actions"):
        run_bots(match, seats(s1=Scripted(Bid(0)), s2=Scripted(Bid(0))), limit=3)
    assert match.step == 3


def test_take_bot_turn_plays_one_turn_with_the_given_generator() -> None:
    match = Match(SealedBid(), 2, seed=4)
    drawn: list[int] = []

    class Drawing:
        def act(self, observation: Observation, rng: Rng) -> Any:
            drawn.append(rng.randbelow(1000))
            return observation.legal[0]

    match.take_bot_turn(match.awaiting[0], Drawing(), Rng(77))
    assert match.step == 1
    assert drawn == [Rng(77).randbelow(1000)]  # the generator handed in, untouched before
    assert match.actions()[0][1] == SealedBid().codec.to_json(match.at(0).legal_actions(1)[0])


def _random_seats(players: int) -> dict[int, BotSeat]:
    return {s: BotSeat(RandomBot(), Rng(100 + s)) for s in range(1, players + 1)}


def _turn_by_turn(match: Match, bots: dict[int, BotSeat]) -> None:
    """run_bots spelled out as single turns: the reference its own loop must match."""
    while match.awaiting:
        seat = next(s for s in match.awaiting if s in bots)
        match.take_bot_turn(seat, bots[seat].bot, bots[seat].rng)


@pytest.mark.parametrize("recall", [False, True])
def test_the_bot_loop_plays_the_game_that_single_turns_play(recall: bool) -> None:
    # run_bots has a loop of its own (Match._run_bots), which makes a RandomBot's
    # choice without calling act; single turns call act. Recall takes the plain path.
    looped, turned = Match(SealedBid(), 3, seed=8, recall=recall), Match(SealedBid(), 3, seed=8)
    taken = run_bots(looped, _random_seats(3))
    _turn_by_turn(turned, _random_seats(3))
    assert looped.is_over and taken == looped.step == turned.step
    assert looped.actions() == turned.actions()
    assert looped.digest() == turned.digest()
    for seat in (None, 1, 2, 3):
        assert looped.events(seat) == turned.events(seat)
        assert looped.history(seat) == turned.history(seat)
    # Kept step by step with recall, rebuilt by a replay without: the same text.
    assert looped.information_state(2) == turned.information_state(2)


@pytest.mark.skipif(
    not isinstance(RandomBot.__dict__.get("act"), types.FunctionType),
    reason="the compiled build's RandomBot cannot be subclassed in Python",
)
def test_a_random_bot_of_a_subclass_is_asked_through_its_own_act() -> None:
    class Last(RandomBot):
        def act(self, observation: Observation, rng: Rng) -> Any:
            return observation.legal[-1]

    match = Match(SealedBid(), 2, seed=5)
    run_bots(match, {s: BotSeat(Last(), Rng(s)) for s in (1, 2)})
    replay = Match(SealedBid(), 2, seed=5)
    for seat, action in match.actions():
        # Each bid was the last legal one, as Last chose, not a random one.
        assert action == SealedBid().codec.to_json(replay.legal_actions(seat)[-1])
        replay.submit(seat, action)
    assert match.step > 2


class Exploding(SealedBid):
    """Fails half-way through applying a bid of 13 (a title bug)."""

    name = "exploding"

    def apply(self, state: Any, seat: Any, action: Any, rng: Any) -> Any:
        state.coins[seat - 1] -= 1  # damage first, then fail
        if action.coins == 13:
            raise ZeroDivisionError("boom")
        state.coins[seat - 1] += 1
        return super().apply(state, seat, action, rng)


def test_a_title_that_raises_in_the_bot_loop_is_rolled_back() -> None:
    match = Match(Exploding(), 2, seed=3)
    with pytest.raises(TitleError, match="exploding raised on action 2 .* ZeroDivisionError: boom"):
        run_bots(match, seats(s1=Scripted(Bid(2)), s2=Scripted(Bid(13))))
    assert match.step == 1 and match.failed is not None
    assert match.view(None)["coins"] == [20, 20]  # the half-done bid undone
