"""The resample hook: a job the crew cannot tell apart from the real one, differing
only in cards nobody has seen, drawn afresh from the given generator."""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest

from gameweave_cli.hint import search_hint
from gameweave_core import Match, Rng
from gameweave_core.ismcts import SearchOptions
from gameweave_core.testing import check_worlds, random_match
from gameweave_core.worlds import InconsistentWorld, resampled_world
from gameweave_house import HouseJob
from gameweave_house import resample as resample_module
from gameweave_house.actions import Ability, Chips, DealMeIn, Draft
from gameweave_house.cards import FULL_DECK, high_low, is_two_card_21, stacked
from gameweave_house.state import State

TITLE = HouseJob()


def played(players: int, seed: int, steps: int, deck: list[str] | None = None) -> State:
    """A job after up to ``steps`` random legal actions."""
    config = TITLE.check_config(players, {"deck": deck or []})
    rng = Rng(seed)
    choices = Rng(seed + 1000)
    state = TITLE.setup(players, config, rng)
    for _ in range(steps):
        seats = TITLE.awaiting(state)
        if not seats:
            break
        act = choices.choice(list(TITLE.legal_actions(state, seats[0])))
        TITLE.apply(state, seats[0], act, rng)
    return state


def hole_down_job(roles: tuple[str, ...]) -> State:
    """A job in its first playing turn with the hole card face down and a ten or an
    ace showing, so the peek has ruled some hole cards out (found by trying seeds,
    not by one magic seed)."""
    for seed in range(1, 500):
        state = TITLE.setup(len(roles), TITLE.check_config(len(roles), {}), Rng(seed))
        rng = Rng(seed)
        for seat, role in enumerate(roles, start=1):
            TITLE.apply(state, seat, Draft(role), rng)
        while state.phase == "bet":
            seat = state.turn
            TITLE.apply(state, seat, Chips(10), rng)
            TITLE.apply(state, seat, DealMeIn(), rng)
        if state.hole_down and state.dealer[0][0] in "ATJQK":
            return state
    raise AssertionError("no seed deals a ten or an ace up with the hole card down")


def surfaces(state: State) -> dict[str, Any]:
    """Everything a seat or a spectator receives from a state."""
    out: dict[str, Any] = {}
    for seat in [None, *range(1, state.players + 1)]:
        out[f"view {seat}"] = TITLE.view(state, seat)
        if seat is not None:
            legal = TITLE.legal_actions(state, seat)
            out[f"legal {seat}"] = [TITLE.codec.to_json(a) for a in legal]
            out[f"labels {seat}"] = [TITLE.describe_action(a) for a in legal]
            out[f"seat {seat}"] = TITLE.seat_label(state, seat)
    out["awaiting"] = TITLE.awaiting(state)
    out["outcome"] = TITLE.outcome(state)
    return out


def without_unseen(state: State) -> dict[str, Any]:
    """The state with the unseen cards blanked out."""
    data = attrs.asdict(state)
    hidden = state.face_down
    data["deck"] = ["??"] * hidden + data["deck"][hidden:]
    if state.hole_down:
        data["dealer"][1] = "??"
    return data


def unseen(state: State) -> list[str]:
    cards = state.deck[: state.face_down]
    return sorted([*cards, state.dealer[1]] if state.hole_down else cards)


JOBS = [(players, seed, steps) for players in (2, 3, 4) for seed in (1, 2) for steps in (8, 25, 60)]


@pytest.mark.parametrize(("players", "seed", "steps"), JOBS)
def test_a_resampled_job_looks_the_same_and_differs_only_in_unseen_cards(
    players: int, seed: int, steps: int
) -> None:
    state = played(players, seed, steps)
    before = copy.deepcopy(state)
    for seat in [None, *range(1, players + 1)]:
        other = TITLE.resample(state, seat, Rng(seed * 7 + (seat or 0)))
        assert other is not state and other.deck is not state.deck
        assert surfaces(other) == surfaces(state)
        assert without_unseen(other) == without_unseen(state)
        assert unseen(other) == unseen(state)
    assert state == before  # left untouched


def test_the_unseen_cards_really_move() -> None:
    state = played(3, 4, 20)
    assert state.face_down > 10
    moved = [TITLE.resample(state, 1, Rng(s)).deck != state.deck for s in range(5)]
    assert all(moved)


def test_resampling_is_deterministic_for_one_seed() -> None:
    state = played(4, 3, 40)
    assert TITLE.resample(state, 2, Rng(9)) == TITLE.resample(state, 2, Rng(9))
    assert TITLE.resample(state, 2, Rng(9)) != TITLE.resample(state, 2, Rng(10))


def test_the_hole_card_takes_every_value_the_crew_cannot_rule_out() -> None:
    state = hole_down_job(("lookout", "ghost"))
    up = state.dealer[0]
    possible = {c for c in unseen(state) if not is_two_card_21([up, c])}
    assert possible < set(unseen(state))  # a ten or an ace is up: the peek rules cards out
    seen = {TITLE.resample(state, None, Rng(i)).dealer[1] for i in range(1500)}
    assert seen == possible  # never a card that would have made the peek say blackjack


def test_the_tell_keeps_the_hole_card_high_or_low() -> None:
    state = hole_down_job(("inside_man", "ghost"))
    reading = high_low(state.dealer[1])
    up = state.dealer[0]
    possible = {c for c in unseen(state) if high_low(c) == reading and not is_two_card_21([up, c])}
    assert any(high_low(c) != reading for c in unseen(state))  # cards The Tell rules out
    seen = {TITLE.resample(state, 1, Rng(i)).dealer[1] for i in range(1500)}
    assert seen == possible


def test_face_up_deck_cards_stay_where_they_are() -> None:
    state = played(2, 5, 0, deck=stacked())
    rng = Rng(1)
    TITLE.apply(state, 1, Draft("lookout"), rng)
    TITLE.apply(state, 2, Draft("ghost"), rng)
    assert Ability("long_glass") in TITLE.legal_actions(state, 1)
    TITLE.apply(state, 1, Ability("long_glass"), rng)
    assert state.shown == 3
    for i in range(20):
        other = TITLE.resample(state, 1, Rng(i))
        assert other.deck[-3:] == state.deck[-3:]
        assert sorted(other.deck) == sorted(state.deck) == sorted(FULL_DECK)


def twin_jobs(players: int, seed: int, steps: int) -> tuple[Match, Match]:
    """Two jobs played alike on decks that differ only in the order of the cards
    still face down at the end: no seat (nor a spectator) can tell them apart."""
    order = list(FULL_DECK)
    Rng(seed).shuffle(order)
    a = Match(TITLE, players, seed, {"deck": order})
    choices = Rng(seed + 1)
    for _ in range(steps):
        if not a.awaiting:
            break
        seat = a.awaiting[0]
        a.submit(seat, choices.choice(list(a.legal_actions(seat))))
    hidden = a._state.face_down  # the last ``hidden`` cards of the deck's draw order
    tail = order[len(order) - hidden :]
    Rng(seed + 2).shuffle(tail)
    b = Match(TITLE, players, seed, {"deck": [*order[: len(order) - hidden], *tail]})
    for seat, act in a.actions():
        b.submit(seat, act)
    return a, b


@pytest.mark.parametrize(("players", "seed", "steps"), [(2, 4, 12), (3, 5, 16), (4, 8, 20)])
def test_the_hint_is_the_same_in_jobs_the_crew_cannot_tell_apart(
    players: int, seed: int, steps: int
) -> None:
    """The hint of ``gameweave play`` (the search run from the seat's view, as the
    HTTP hint runs it) depends only on what the crew knows. The resample hook once
    shuffled the unseen cards where they lay, so the true order showed through the
    draws: two jobs the crew could not tell apart gave different hints."""
    a, b = twin_jobs(players, seed, steps)
    assert a._state.deck != b._state.deck  # the truth differs...
    seat = a.awaiting[0]
    for watcher in [None, *range(1, players + 1)]:
        assert a.payload(watcher) == b.payload(watcher)  # ...where nobody can see it
    options = SearchOptions.for_title(TITLE, seat, players, iterations=40)
    hint_a, hint_b = search_hint(a, seat, options), search_hint(b, seat, options)
    assert hint_a.iterations == 40 and hint_a == hint_b


# -- the same draws as worlds the core checks (gameweave_core.worlds) -----------------


def reshuffled_with_the_hole_down() -> list[Match]:
    """Random jobs at the steps where the deck ran dry after the dealer's hole card
    went face down (the discard shuffled back in cannot hold it)."""
    found = []
    for seed in range(130, 200):
        match = random_match(TITLE, 2 + seed % 3, seed)
        for step in match.steps():
            state: State = step.state
            # The hole card is not in the latest shuffle: it was dealt before it.
            if state.hole_down and state.dealer[1] not in state.shuffles[-1][1]:
                found.append(match.at(step.step))
    return found


def test_every_world_the_hook_draws_is_accepted_by_the_core() -> None:
    """The kit's own check (``check_worlds``) on random jobs, some of which run the
    deck dry and shuffle the discard back in."""
    reshuffled = 0
    for seed in range(130, 142):
        match = random_match(TITLE, 2 + seed % 3, seed)
        reshuffled += len(match.state.shuffles) > 1
        check_worlds(match, steps=8)
    assert reshuffled >= 1


def test_a_hole_card_dealt_before_the_deck_ran_dry_is_known_and_kept() -> None:
    """Once the discard is shuffled back in, every face-down deck card is one the
    crew saw in the discard, and the hole card the one card seen nowhere. The
    resample used to pool it with the deck, drawing jobs that cannot be: the
    world of such a draw is not even a shuffle of the discard."""
    states = reshuffled_with_the_hole_down()
    assert len(states) >= 5
    for i, at in enumerate(states):
        state: State = at.state
        for seat in (1, None):
            drawn = TITLE.resample(state, seat, Rng(i))
            assert drawn.dealer[1] == state.dealer[1]
            assert sorted(drawn.deck) == sorted(state.deck)
            resampled_world(at, seat, TITLE.resample_world(state, seat, Rng(i)))


def test_worlds_differ_from_the_real_job_in_the_cards_nobody_has_seen() -> None:
    """A world that always gave the real deck would pass the core's check: these
    worlds deal the face-down cards (and the hole card) otherwise in nearly every
    draw, and what the crew saw stays as it was."""
    differ = same = 0
    for seed in range(4):
        match = random_match(TITLE, 2 + seed % 3, seed)
        for step in range(10, match.step, 9):
            at = match.at(step)
            state: State = at.state
            world = TITLE.resample_world(state, 1, Rng(step))
            replayed: State = resampled_world(at, 1, world).state
            face_up = state.deck[state.face_down :]
            assert replayed.deck[replayed.face_down :] == face_up
            if (replayed.deck, replayed.dealer) != (state.deck, state.dealer):
                differ += 1
            else:
                same += 1
    assert differ > 10 * max(same, 1), (differ, same)


def test_a_chosen_deck_has_only_the_real_world() -> None:
    """The test option ``deck`` fixes every card: nothing was shuffled."""
    match = Match(TITLE, 2, 1, {"deck": stacked()})
    assert match.state.shuffles == []
    assert TITLE.resample_world(match.state, 1, Rng(1)).chance == ()


def test_a_world_that_forgets_the_peek_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant resample that forgets the house peeked (any unseen card may be the
    hole card, a blackjack too): some of its worlds give the dealer a blackjack the
    peek would have shown, and the core refuses them."""
    monkeypatch.setattr(resample_module, "is_two_card_21", lambda cards: False)
    refused = tried = 0
    for seed in range(40):
        match = random_match(TITLE, 2, seed)
        for step in match.steps():
            state: State = step.state
            if not (state.hole_down and state.dealer[0][0] in "AT"):
                continue
            at = match.at(step.step)
            for i in range(4):
                tried += 1
                try:
                    resampled_world(at, None, TITLE.resample_world(state, None, Rng(i)))
                except InconsistentWorld as exc:
                    refused += 1
                    assert "differs at step" in str(exc) or "told otherwise" in str(exc)
            break
    assert tried >= 20 and refused >= 1, (tried, refused)


def test_the_world_ends_in_the_job_resample_draws_with_the_same_generator() -> None:
    """The search bot keeps calling ``resample``; the cards it draws are those the
    checked world deals, so the core's check of the worlds covers the bot's draws."""
    compared = 0
    for seed in (0, 1, 139):
        match = random_match(TITLE, 2 + seed % 3, seed)
        for step in range(5, match.step, 7):
            at = match.at(step)
            world = TITLE.resample_world(at.state, 1, Rng(step))
            replayed: State = resampled_world(at, 1, world).state
            drawn = TITLE.resample(at.state, 1, Rng(step))
            assert (replayed.deck, replayed.dealer) == (drawn.deck, drawn.dealer), step
            compared += 1
    assert compared >= 20
