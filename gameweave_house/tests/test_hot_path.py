"""The speed tricks the rules keep do not change their meaning: shared history lines
and action objects equal freshly built ones, and kinds of line stay apart."""

from __future__ import annotations

import itertools

from helpers import dealt

from gameweave_core import Event
from gameweave_house import actions as A
from gameweave_house import choices
from gameweave_house.abilities import play
from gameweave_house.cards import FULL_DECK, is_two_card_21, points, total
from gameweave_house.history import crew, line, settled_line, upcard_line
from gameweave_house.state import Box, Hand


def test_equal_lines_share_one_public_event_and_kinds_stay_apart() -> None:
    a = line("Crew 1 stands on 17")
    assert a is line("Crew 1 stands on 17")
    assert a == Event("Crew 1 stands on 17")
    bet = line("Crew 1 stands on 17", "bet")
    assert bet is not a and bet.kind == "bet" and bet.seats is None and bet.spectators


def test_upcard_and_settled_lines_carry_their_data() -> None:
    assert upcard_line("TH") == Event("The house shows 10", None, True, "upcard", {"card": "TH"})
    assert upcard_line("TH") != upcard_line("TS")
    settled = settled_line(990)
    assert settled == Event("Round settled — Take 990", None, True, "settled", {"take": 990})
    assert settled_line(990) is settled


def test_shared_actions_equal_fresh_ones() -> None:
    assert (A.Chips(10), A.Chips(50), A.Chips(100)) == choices.OWN_CHIPS
    assert (A.Hit(), A.Stand(), A.NextRound()) == (choices.HIT, choices.STAND, choices.NEXT_ROUND)
    assert play("alibi") == A.Ability("alibi")
    assert play("vanish", box=2) == A.Ability("vanish", 2)
    assert play("palm", box=2, index=1, mine=0) == A.Ability("palm", 2, 1, 0)
    assert play("back_the_play", box=1, amount=50) is play("back_the_play", box=1, amount=50)


def test_legal_plays_equal_fresh_actions() -> None:
    m = dealt(("sleight", "ghost"), [("TS", "6S"), ("TH", "4H")], "TD", "8D")
    legal = m.legal_actions(1)
    cuts = [a for a in legal if isinstance(a, A.Ability) and a.card == "false_cut"]
    assert cuts == [A.Ability("false_cut", box, index) for box in (1, 2) for index in (0, 1)]
    palms = [a for a in legal if isinstance(a, A.Ability) and a.card == "palm"]
    assert palms == [A.Ability("palm", 2, j, i) for i in (0, 1) for j in (0, 1)]


def test_hand_and_box_defaults() -> None:
    assert Hand() == Hand(cards=[], bet=0)
    assert Hand().cards is not Hand().cards
    box = Box(id=2, seat=2)
    assert box.hands == [Hand()] and not box.extra and box.backed == 0
    assert Box(id=2, seat=2).hands[0] is not box.hands[0]


def test_two_card_21_is_exactly_a_two_card_hand_worth_21() -> None:
    for a, b in itertools.product(FULL_DECK, repeat=2):
        assert is_two_card_21([a, b]) == (points([a, b]) == 21), (a, b)
    assert not is_two_card_21(["AS"]) and not is_two_card_21(["AS", "5D", "5H"])


def test_totals_count_one_ace_as_11_when_that_stays_at_21() -> None:
    assert total(["AS", "6H", "4C"]) == (21, True)
    assert total(["AS", "AH", "KC"]) == (12, False)
    assert points(["AS", "6H", "4C"]) == 21


def test_crew_names() -> None:
    assert [crew(s) for s in (1, 2, 3, 4, 5, 12)] == [
        "Crew 1",
        "Crew 2",
        "Crew 3",
        "Crew 4",
        "Crew 5",
        "Crew 12",
    ]
