"""The core's conformance kit run on The House Job. Secrecy is checked by the kit's
automatic twins, drawn with the title's resample hook; the deck twins below are an
extra: two matches played from the start on decks that differ in unseen cards, so
every history line since the first deal is compared too, through the ``deck`` option."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameweave_core import Rng
from gameweave_core.testing import TitleConformance, Twin, check_indistinguishable, seeds
from gameweave_house import HouseJob
from gameweave_house.cards import FULL_DECK, high_low, is_two_card_21

# The whole kit takes tens of seconds a title: `make check` (the inner loop) leaves it
# to `make test`, which runs it in full.
pytestmark = pytest.mark.slow

TITLE = HouseJob()


@st.composite
def deck_twins(draw: st.DrawFn) -> Twin:
    """Two decks that differ only in cards nobody at the table has seen.

    Match A is played by random legal actions (stopping anywhere, often mid-round
    with the hole card down). Deck B is deck A with the cards still unseen at the
    end shuffled among themselves: the face-down rest of the deck, and the hole card
    if it is still down (swapped only for a card The Tell reads the same). Every
    seat and spectators must see the same views, legal actions and history.
    """
    players = draw(st.integers(2, 4))
    order = list(draw(st.permutations(FULL_DECK)))
    seed = draw(seeds)
    choices = Rng(draw(seeds))
    config_a = {"deck": order}
    state = TITLE.setup(players, TITLE.check_config(players, config_a), Rng(seed))
    played: list[tuple[int, dict[str, object]]] = []
    rng = Rng(seed)
    for _ in range(draw(st.integers(0, 150))):
        seats = TITLE.awaiting(state)
        if not seats:
            break
        seat = seats[0]
        act = choices.choice(list(TITLE.legal_actions(state, seat)))
        before = copy.deepcopy(state)
        TITLE.apply(state, seat, act, rng)
        if state.last_round:  # the discard went back in: positions no longer line up
            state = before
            break
        played.append((seat, TITLE.codec.to_json(act)))
    drawn = len(FULL_DECK) - len(state.deck)
    unseen = list(range(drawn + state.shown, len(FULL_DECK)))
    deck_b = list(order)
    tail = [order[i] for i in unseen]
    choices.shuffle(tail)
    for i, card in zip(unseen, tail, strict=True):
        deck_b[i] = card
    if len(state.dealer) == 2 and not state.hole_up:
        hole = order.index(state.dealer[1])
        told = state.has_role("inside_man")
        up, card = state.dealer[0], order[hole]

        def same_to_the_crew(other: str) -> bool:
            # The peek tells everyone whether the house has blackjack; The Tell
            # tells HIGH or LOW. Any other hole card is indistinguishable.
            if is_two_card_21([up, other]) != is_two_card_21([up, card]):
                return False
            return not told or high_low(other) == high_low(card)

        mates = [i for i in unseen if same_to_the_crew(deck_b[i])]
        if mates:
            swap = choices.choice(mates)
            deck_b[hole], deck_b[swap] = deck_b[swap], deck_b[hole]
    return Twin(
        players=players,
        seed=seed,
        actions_a=played,
        actions_b=played,
        seats=list(range(1, players + 1)),
        config_a=config_a,
        config_b={"deck": deck_b},
    )


class TestHouseConformance(TitleConformance):
    title = TITLE
    examples = 40
    golden = Path(__file__).resolve().parent / "golden"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(twin=deck_twins())
def test_decks_differing_in_unseen_cards_look_the_same(twin: Twin) -> None:
    check_indistinguishable(TITLE, twin)


def test_a_mid_round_golden_view_keeps_the_hole_card_down() -> None:
    golden = TestHouseConformance.golden
    assert golden is not None
    expected = json.loads((golden / "house-3-midround.expected.json").read_text())
    for snapshot in expected["seats"].values():
        dealer = snapshot["view"]["dealer"]
        assert dealer["hole_down"] and len(dealer["cards"]) == 1
