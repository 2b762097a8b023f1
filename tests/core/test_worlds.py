"""Worlds given as their history (gameweave_core.worlds): the outcomes that make the
core's shuffle deal a chosen order, and the replay that accepts a world only when
the seat receives exactly what it received."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameweave_core import Match, Rng
from gameweave_core.rng import ScriptedRng
from gameweave_core.worlds import (
    InconsistentWorld,
    World,
    resampled_world,
    sample_outcomes,
    shuffle_outcomes,
)

from .ohhell import CARDS, Bid, OhHell, deal_outcomes, resample_world


@given(st.permutations(list(range(12))))
def test_shuffle_outcomes_make_the_shuffle_deal_the_chosen_order(arranged: list[int]) -> None:
    items = list(range(12))
    outcomes = shuffle_outcomes(items, arranged)
    dealt = list(items)
    ScriptedRng(outcomes).shuffle(dealt)
    assert dealt == arranged
    assert all(0 <= o <= i for o, i in zip(outcomes, range(11, 0, -1), strict=True))


def test_shuffle_outcomes_refuse_other_items() -> None:
    with pytest.raises(ValueError, match="not the items shuffled"):
        shuffle_outcomes([1, 2, 3], [1, 2, 4])


@given(st.data())
def test_sample_outcomes_make_the_sample_draw_the_chosen_items(data: st.DataObject) -> None:
    items = list(range(10, 22))
    k = data.draw(st.integers(0, len(items)))
    chosen = data.draw(st.permutations(items))[:k]
    outcomes = sample_outcomes(items, chosen)
    assert ScriptedRng(outcomes).sample(items, k) == chosen
    # Each outcome is one of the n - i a draw of sample can give at that point.
    assert all(0 <= o < len(items) - i for i, o in enumerate(outcomes))


def test_sample_outcomes_refuse_an_item_not_left() -> None:
    with pytest.raises(ValueError, match="9 is not among the items left"):
        sample_outcomes([1, 2, 3], [2, 9])
    with pytest.raises(ValueError, match="2 is not among the items left"):
        sample_outcomes([1, 2, 3], [2, 2])


def played(seed: int, steps: int) -> Match:
    match = Match(OhHell(), 3, seed)
    rng = Rng(seed + 1)
    while match.awaiting and match.step < steps:
        seat = match.awaiting[0]
        match.submit(seat, rng.choice(match.legal_actions(seat)))
    return match


def test_the_real_history_is_a_world_and_replays_to_the_real_state() -> None:
    """Dealing the real hands again is a world every seat accepts, ending in the
    real state."""
    match = played(5, 9)
    for seat in (1, 2, 3, None):
        world = resample_world(match._state, seat, Rng(seat or 0))
        again = resampled_world(match, seat, world)
        assert again.view(seat) == match.view(seat) and again.step == match.step


def test_a_world_with_outcomes_left_over_or_missing_is_refused() -> None:
    match = played(5, 4)
    world = resample_world(match._state, 1, Rng(1))
    with pytest.raises(InconsistentWorld, match="gives 20 chance outcomes and the match draws 19"):
        resampled_world(match, 1, World((*world.chance, 0)))
    with pytest.raises(InconsistentWorld, match="draws more"):
        resampled_world(match, 1, World(world.chance[:-1]))


def test_a_world_that_deals_the_seat_another_hand_is_refused_at_the_deal() -> None:
    """Seat 1 was dealt its hand at the start: a world dealing it any other is told
    apart at once, by the view (step 0)."""
    match = played(5, 4)
    mine = match._state.hands[0] + [c for t in match._state.tricks for s, c in t if s == 1]
    others = [c for c in CARDS if c not in mine and c != match._state.trump]
    swapped = {1: [*mine[1:], others[0]], 2: others[1:4], 3: others[4:7]}
    world = World(tuple(deal_outcomes(3, swapped, match._state.trump)))
    with pytest.raises(InconsistentWorld, match="seat 1's view differs at step 0") as caught:
        resampled_world(match, 1, world)
    # The message says where: the first card of the hand that differs, both ways.
    real = match.at(0).view(1)["hand"]
    dealt = sorted(swapped[1], key=CARDS.index)
    i = next(i for i, (a, b) in enumerate(zip(real, dealt, strict=True)) if a != b)
    assert f"(['hand'][{i}]: {real[i]!r} in the match, {dealt[i]!r} in the world)" in str(
        caught.value
    )


def test_the_seat_s_own_action_cannot_be_changed() -> None:
    match = played(5, 2)
    world = resample_world(match._state, 1, Rng(1))
    seat, bid = match.actions()[0]
    assert seat == 1  # left of the dealer (seat 3) bids first
    changed = World(world.chance, {1: Bid(2 if bid["tricks"] == 3 else 3)})
    with pytest.raises(InconsistentWorld, match="changes seat 1's own action at step 1"):
        resampled_world(match, 1, changed)
