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
from gameweave_house import HouseJob
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
