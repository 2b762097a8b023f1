"""The hot path's shortcuts keep the rules' meaning: shared history lines and action
objects equal freshly built ones, settlement figures match ``settle_hand``, and the
hand-written ``__init__`` of Hand and Box takes every field as attrs would."""

from __future__ import annotations

import itertools

import attrs
import pytest

from gameweave_core import Event
from gameweave_house import actions as A
from gameweave_house import rules
from gameweave_house.cards import (
    FULL_DECK,
    hand_points,
    hand_total,
    is_two_card_21,
    points,
    total,
)
from gameweave_house.settle import (
    BLACKJACK,
    BUST,
    LOSS,
    PUSH,
    WALKED,
    WIN,
    Settlement,
    settle_figures,
    settle_hand,
)
from gameweave_house.state import Box, Hand


def test_equal_lines_share_one_public_event_and_kinds_stay_apart():
    a = rules.line("Crew 1 stands on 17")
    assert a is rules.line("Crew 1 stands on 17")
    assert a == Event("Crew 1 stands on 17")
    bet = rules.line("Crew 1 stands on 17", "bet")
    assert bet is not a and bet.kind == "bet" and bet.seats is None and bet.spectators


def test_upcard_and_settled_lines_carry_their_data():
    assert rules.upcard_line("TH") == Event(
        "The house shows 10", None, True, "upcard", {"card": "TH"}
    )
    assert rules.upcard_line("TH") != rules.upcard_line("TS")
    settled = rules.settled_line(990)
    assert settled == Event("Round settled — Take 990", None, True, "settled", {"take": 990})
    assert rules.settled_line(990) is settled


def test_shared_actions_equal_fresh_ones():
    assert rules._chips(50, None) == A.Chips(50) == rules.OWN_CHIPS[1]
    assert rules._chips(10, 3) == A.Chips(10, 3)
    assert rules._mark(2) == A.Mark(2)
    assert rules._PLAIN["alibi"] == A.Ability("alibi")
    assert rules._on_box("vanish", 2) == A.Ability("vanish", 2)
    assert rules._ab("palm", 2, 1, 0, None) == A.Ability("palm", 2, 1, 0)
    assert rules._ab("back_the_play", 1, None, None, 50) is rules._ab(
        "back_the_play", 1, None, None, 50
    )


@pytest.mark.parametrize("word", [WALKED, BUST, LOSS, PUSH, WIN, BLACKJACK])
def test_settle_figures_match_settle_hand(word: str):
    for flags in itertools.product([False, True], repeat=5):
        heavy, marked, bag, saved, short = flags
        for bet in (10, 25, 100):
            s = settle_hand(
                word,
                bet,
                heavy=heavy,
                marked=marked,
                double_bag=bag,
                saved=saved,
                short_change=short,
            )
            assert isinstance(s, Settlement)
            figures = settle_figures(word, bet, heavy, marked, bag, saved, short)
            assert figures == (s.credit, s.debit, s.notes), (word, bet, flags)


def test_settle_figures_refuse_an_unknown_result():
    with pytest.raises(ValueError, match="unknown hand result"):
        settle_figures("TIE", 10, False, False, False, False, False)


@pytest.mark.parametrize("cls", [Hand, Box])
def test_hand_and_box_take_every_field_by_keyword(cls: type):
    fields = attrs.fields(cls)
    values = {}
    for i, f in enumerate(fields):
        if f.name == "cards":
            values[f.name] = ["AS", "9D"]
        elif f.name == "hands":
            values[f.name] = [Hand(bet=20), Hand(bet=30)]
        elif "bool" in str(f.type):
            values[f.name] = True
        else:
            values[f.name] = i + 2
    made = cls(**values)
    assert {f.name: getattr(made, f.name) for f in fields} == values


def test_hand_and_box_defaults():
    assert Hand() == Hand(cards=[], bet=0)
    assert Hand().cards is not Hand().cards
    box = Box(id=2, seat=2)
    assert box.hands == [Hand()] and not box.extra and box.backed == 0
    assert Box(id=2, seat=2).hands[0] is not box.hands[0]


def test_two_card_21_is_exactly_a_two_card_hand_worth_21():
    for a, b in itertools.product(FULL_DECK, repeat=2):
        assert is_two_card_21([a, b]) == (points([a, b]) == 21), (a, b)
    assert not is_two_card_21(["AS"]) and not is_two_card_21(["AS", "5D", "5H"])


def test_totals_take_any_iterable_of_cards():
    cards = ["AS", "6H", "4C"]
    assert total(cards) == total(tuple(cards)) == total(iter(cards)) == hand_total(cards)
    assert points(c for c in cards) == hand_points(cards) == 21


def test_crew_names():
    assert [rules.crew(s) for s in (1, 2, 3, 4, 5, 12)] == [
        "Crew 1",
        "Crew 2",
        "Crew 3",
        "Crew 4",
        "Crew 5",
        "Crew 12",
    ]
