"""One test per rule of The House Job, on stacked decks (see helpers.order)."""

from __future__ import annotations

import pytest
from helpers import ability, bet_all, box, dealt, do, order, push, table, take

from gameweave_core import IllegalAction
from gameweave_core.testing import check_refused
from gameweave_house.cards import count_reading, high_low, is_two_card_21, label, points, total

LG = ("lookout", "ghost")


# -- table and draft ----------------------------------------------------------------


def test_take_opens_at_1000_and_seat_1_drafts_first() -> None:
    from gameweave_core import Match
    from gameweave_house import HouseJob

    m = Match(HouseJob(), 3, 1)
    assert m.view(1)["take"] == 1000 and m.view(1)["phase"] == "draft"
    assert m.awaiting == (1,)
    m.submit(1, {"type": "draft", "role": "ghost"})
    assert m.awaiting == (2,)
    reason = check_refused(m, 2, {"type": "draft", "role": "ghost"})
    assert "already taken" in reason
    m.submit(2, {"type": "draft", "role": "bagman"})
    m.submit(3, {"type": "draft", "role": "lookout"})
    v = m.view(None)
    assert [c["role"] for c in v["crew"]] == ["ghost", "bagman", "lookout"]
    assert v["phase"] == "bet" and v["caller"] == 1 and m.awaiting == (1,)


def test_caller_moves_one_seat_each_round_and_presses_next_round() -> None:
    m = dealt(LG, [("TS", "8S"), ("TH", "9H")], "TD", "8D")
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert m.view(None)["phase"] == "settled"
    assert m.awaiting == (2,)  # the seat after the caller presses Next round
    do(m, 2, "next_round")
    v = m.view(None)
    assert v["caller"] == 2 and v["round"] == 2 and m.awaiting == (2,)  # caller bets first


def test_card_values_and_soft_aces() -> None:
    assert total(["AS", "6H"]) == (17, True)
    assert total(["AS", "6H", "9C"]) == (16, False)
    assert total(["AS", "AH", "9C"]) == (21, True)
    assert points(["KS", "QH", "2C"]) == 22
    assert is_two_card_21(["AS", "JD"]) and not is_two_card_21(["7S", "7H", "7D"])


# -- betting -----------------------------------------------------------------------


def test_chips_leave_the_take_as_they_are_pushed_up_to_the_table_maximum() -> None:
    m = table(LG, ())
    do(m, 1, "chips", amount=50)
    assert take(m) == 950
    push(m, 1, 200)
    assert box(m, 1)["hands"][0]["bet"] == 250
    assert {"type": "chips", "amount": 10} not in m.legal_json(1)
    check_refused(m, 1, {"type": "chips", "amount": 10})


def test_every_chip_pushed_is_told_to_the_table() -> None:
    """The crew sees the chips go on a box; a seat learns only through what it
    reads, so each push is a line of everyone's history."""
    m = table(LG, ())
    push(m, 1, 50)
    assert m.history(2)[-1] == m.history(None)[-1] == "Crew 1 puts 50 on their box"


def test_bagman_deep_pockets_raise_his_own_maximum_to_500() -> None:
    m = table(("bagman", "ghost"), ())
    push(m, 1, 500)
    assert box(m, 1)["table_max"] == 500 and take(m) == 500
    assert {"type": "chips", "amount": 10} not in m.legal_json(1)
    do(m, 1, "deal_me_in")
    push(m, 2, 250)
    assert {"type": "chips", "amount": 10} not in m.legal_json(2)


def test_deal_me_in_needs_a_bet_and_chips_are_limited_to_the_take() -> None:
    m = table(LG, (), take=60)
    reason = check_refused(m, 1, {"type": "deal_me_in"})
    assert "at least 10" in reason
    do(m, 1, "chips", amount=50)
    assert {"type": "chips", "amount": 50} not in m.legal_json(1)
    assert {"type": "chips", "amount": 10} in m.legal_json(1)


def test_a_seat_the_take_cannot_cover_sits_the_round_out() -> None:
    m = table(LG, order([("TS", "8S")], "TD", "8D"), take=105)
    push(m, 1, 100)
    do(m, 1, "deal_me_in")
    v = m.view(None)
    assert v["crew"][1]["sitting_out"] and [b["id"] for b in v["boxes"]] == [1]
    assert "Crew 2 sits the round out — the Take can't cover 10" in m.history(None)
    assert v["phase"] == "play" and m.awaiting == (1,)


def test_only_the_caller_calls_the_mark_and_the_heavy() -> None:
    m = table(LG, ())
    push(m, 1, 10)
    do(m, 1, "deal_me_in")
    assert "only the caller" in check_refused(m, 2, {"type": "mark", "box": 2})
    assert "only the caller" in check_refused(m, 2, {"type": "heavy"})


def test_the_heavy_is_once_per_job() -> None:
    m = table(LG, order([("TS", "8S"), ("TH", "9H")], "TD", "8D"))
    do(m, 1, "heavy")
    bet_all(m, [10, 10])
    do(m, 1, "stand")
    do(m, 2, "stand")
    do(m, 2, "next_round")
    do(m, 2, "chips", amount=10)
    do(m, 2, "deal_me_in")
    assert not any(a["type"] == "heavy" for a in m.legal_json(1))  # not the caller
    do(m, 1, "chips", amount=10)
    do(m, 1, "deal_me_in")
    do(m, 1, "stand")
    do(m, 2, "stand")
    do(m, 1, "next_round")  # seat 1 calls round 3: the Heavy is spent for the job
    assert m.view(None)["caller"] == 1 and m.view(None)["levers"]["heavy_spent"]
    assert not any(a["type"] == "heavy" for a in m.legal_json(1))
    assert "spent" in check_refused(m, 1, {"type": "heavy"})


# -- the deal and the peek ------------------------------------------------------------


def test_deal_order_upcard_second_cards_hole_card() -> None:
    m = dealt(LG, [("2S", "3S"), ("4H", "5H")], "6D", "7D")
    v = m.view(None)
    assert box(m, 1)["hands"][0]["cards"] == ["2S", "3S"]
    assert box(m, 2)["hands"][0]["cards"] == ["4H", "5H"]
    assert v["dealer"]["cards"] == ["6D"] and v["dealer"]["hole_down"]
    assert "The house shows 6" in m.history(None)


def test_dealer_blackjack_ends_the_round_naturals_push_others_lose() -> None:
    m = dealt(LG, [("AS", "KS"), ("TH", "9H")], "AD", "KD")
    v = m.view(None)
    assert v["phase"] == "settled" and v["dealer"]["cards"] == ["AD", "KD"]
    assert take(m) == 1000 - 200 + 100
    hist = m.history(None)
    assert "Crew 1 21 PUSH 0" in hist and "Crew 2 19 LOSS -100" in hist


def test_blackjack_boxes_are_skipped_and_play_goes_in_seat_order() -> None:
    m = dealt(LG, [("AS", "KS"), ("TH", "9H")], "9D", "8D")
    assert m.awaiting == (2,)
    assert "Crew 1 is dealt a blackjack (A♠ K♠)" in m.history(None)


def test_seat_one_plays_first_whoever_calls() -> None:
    m = dealt(
        LG,
        [("TS", "8S"), ("TH", "9H")],
        "TD",
        "8D",
        then=["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "5H", "6H"],
    )
    do(m, 1, "stand")
    do(m, 2, "stand")
    do(m, 2, "next_round")
    bet_all(m, [10, 10])
    assert m.view(None)["caller"] == 2
    assert m.awaiting == (1,)


# -- playing a hand --------------------------------------------------------------------


def test_hit_to_bust_ends_the_box_and_21_stands_by_itself() -> None:
    m = dealt(LG, [("TS", "5S"), ("TH", "2H")], "TD", "8D", then=["6C", "9C", "KC"])
    lines = do(m, 1, "hit")
    # Each line names the card drawn: the crew learns it from the line it reads.
    assert "Crew 1 hits 6♣ to 21 and stands" in lines and m.awaiting == (2,)
    do(m, 2, "hit")  # 9: 21 again, stands, the dealer plays; try a bust instead
    m = dealt(LG, [("TS", "5S"), ("TH", "2H")], "TD", "8D", then=["6C", "KC"])
    do(m, 1, "hit")
    lines = do(m, 2, "hit")
    assert "Crew 2 hits K♣ to 22 — bust" in lines
    assert box(m, 2)["hands"][0]["status"] == "bust"


def test_double_takes_one_card_ignores_the_table_maximum() -> None:
    m = dealt(LG, [("5S", "6S"), ("TH", "9H")], "TD", "7D", then=["TC"], bets=[250, 100])
    do(m, 1, "double")
    h = box(m, 1)["hands"][0]
    assert h["bet"] == 500 and h["cards"] == ["5S", "6S", "TC"] and h["status"] == "stood"
    assert take(m) == 1000 - 350 - 250


def test_double_only_on_two_cards_and_only_if_the_take_covers_it() -> None:
    m = dealt(LG, [("2S", "3S"), ("TH", "9H")], "TD", "7D", then=["4C"], bets=[200, 50], take=300)
    assert {"type": "double"} not in m.legal_json(1)
    assert "can't cover" in check_refused(m, 1, {"type": "double"})
    m = dealt(LG, [("2S", "3S"), ("TH", "9H")], "TD", "7D", then=["4C"])
    do(m, 1, "hit")
    assert "two-card" in check_refused(m, 1, {"type": "double"})


def test_split_pairs_each_get_a_card_and_their_own_bet() -> None:
    m = dealt(LG, [("8S", "8H"), ("TH", "9H")], "TD", "7D", then=["3C", "TC"])
    do(m, 1, "split")
    hands = box(m, 1)["hands"]
    assert [h["cards"] for h in hands] == [["8S", "3C"], ["8H", "TC"]]
    assert [h["bet"] for h in hands] == [100, 100] and take(m) == 700
    assert {"type": "split"} not in m.legal_json(1)  # once per box
    do(m, 1, "stand")
    assert m.view(None)["playing"] == {"box": 1, "hand": 1}  # main box, then split box


def test_split_aces_get_one_card_each_and_a_21_is_plain() -> None:
    m = dealt(LG, [("AS", "AH"), ("TH", "7H")], "9D", "8D", then=["KC", "9C"])
    do(m, 1, "split")
    assert m.awaiting == (2,)
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 21 WIN +100" in hist and "Crew 1 split 20 WIN +100" in hist


def test_cold_feet_walks_out_for_half_the_bet_before_the_first_hit() -> None:
    m = dealt(LG, [("TS", "6S"), ("TH", "9H")], "TD", "8D", bets=[30, 100])
    assert {"type": "cold_feet"} in m.legal_json(1)
    do(m, 1, "cold_feet")
    do(m, 2, "stand")
    assert "Crew 1 16 COLD FEET -15" in m.history(None)


def test_cold_feet_needs_a_ghost_and_no_hit() -> None:
    m = dealt(("lookout", "bagman"), [("TS", "6S"), ("TH", "9H")], "TD", "8D")
    assert "needs a Ghost" in check_refused(m, 1, {"type": "cold_feet"})
    m = dealt(LG, [("TS", "2S"), ("TH", "9H")], "TD", "8D", then=["3C"])
    do(m, 1, "hit")
    assert {"type": "cold_feet"} not in m.legal_json(1)


# -- the dealer ------------------------------------------------------------------------


def test_dealer_draws_to_17_and_stands_on_soft_17() -> None:
    m = dealt(LG, [("TS", "8S"), ("TH", "9H")], "6D", "TD", then=["7C"])
    do(m, 1, "stand")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Hole card up — house has 16" in hist and "The house draws 7♣ to 23 — bust" in hist
    m = dealt(LG, [("TS", "8S"), ("TH", "9H")], "AD", "6D", then=["5C"])
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "The house stands on 17" in m.history(None)
    assert m.view(None)["dealer"]["cards"] == ["AD", "6D"]


def test_dealer_draws_nothing_when_no_hand_stands() -> None:
    m = dealt(LG, [("TS", "6S"), ("AH", "KH")], "5D", "6D", then=["KC", "9C"])
    do(m, 1, "hit")
    v = m.view(None)
    assert v["dealer"]["cards"] == ["5D", "6D"] and v["phase"] == "settled"
    assert "No hand stands against the house; it draws nothing" in m.history(None)


# -- settlement ------------------------------------------------------------------------


def test_bust_loses_even_when_the_dealer_busts() -> None:
    m = dealt(LG, [("TS", "6S"), ("TH", "9H")], "6D", "TD", then=["9C", "7C"])
    do(m, 1, "hit")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 25 BUST · LOSS -100" in hist and "Crew 2 19 WIN +100" in hist
    assert take(m) == 1000
    assert "Round settled — Take 1000" in hist


def test_blackjack_pays_3_to_2_win_even_push_returns_loss_loses() -> None:
    m = dealt(LG, [("AS", "KS"), ("TH", "9H")], "9D", "8D")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 21 BLACKJACK +150" in hist and "Crew 2 19 WIN +100" in hist
    assert take(m) == 1250
    m = dealt(LG, [("TS", "7S"), ("TH", "8H")], "TD", "8D")
    do(m, 1, "stand")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 17 LOSS -100" in hist and "Crew 2 18 PUSH 0" in hist
    assert take(m) == 900


def test_the_mark_pays_2_to_1_and_loses_double() -> None:
    m = table(LG, order([("TS", "9S"), ("TH", "7H")], "TD", "8D"))
    do(m, 1, "mark", box=1)
    assert m.view(None)["pending"][0]["key"] == "mark"
    bet_all(m, [100, 100])
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "Crew 1 19 WIN · MARK +200" in m.history(None)
    m = table(LG, order([("TS", "7S"), ("TH", "7H")], "TD", "8D"))
    do(m, 1, "mark", box=1)
    bet_all(m, [100, 100])
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "Crew 1 17 LOSS · MARK -200" in m.history(None)
    assert take(m) == 1000 - 200 - 100


def test_the_heavy_doubles_every_box_both_ways_and_stacks_with_the_mark() -> None:
    m = table(("bagman", "ghost"), order([("TS", "9S"), ("TH", "7H")], "TD", "8D"))
    do(m, 1, "heavy")
    do(m, 1, "mark", box=1)
    ability(m, 1, "double_bag")
    bet_all(m, [100, 100])
    do(m, 1, "stand")
    do(m, 2, "stand")
    hist = m.history(None)
    # 100 doubled by the Heavy is 200; the Mark with Double Bag pays 3:1 on it.
    assert "Crew 1 19 WIN · HEAVY · MARK +600" in hist
    assert "Crew 2 17 LOSS · HEAVY -200" in hist
    assert take(m) == 1000 + 600 - 200
    m = table(LG, order([("TS", "7S"), ("TH", "9H")], "TD", "8D"))
    do(m, 1, "heavy")
    do(m, 1, "mark", box=1)
    bet_all(m, [100, 100])
    do(m, 1, "stand")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 17 LOSS · HEAVY · MARK -400" in hist and "Crew 2 19 WIN · HEAVY +200" in hist


def test_the_crew_never_owes_the_house() -> None:
    m = table(LG, order([("TS", "7S"), ("TH", "6H")], "TD", "8D"), take=500)
    do(m, 1, "heavy")
    do(m, 1, "mark", box=1)
    bet_all(m, [250, 10])
    assert take(m) == 240
    do(m, 1, "stand")
    do(m, 2, "stand")
    # Box 1 owes 250 x2 (Heavy) x2 (Mark) = 1000, 250 already gone: 750 more wanted.
    assert take(m) == 0
    hist = m.history(None)
    assert "Crew 1 17 LOSS · HEAVY · MARK · TAKE EMPTY -490" in hist
    assert "Crew 2 16 LOSS · HEAVY · TAKE EMPTY -10" in hist
    outcome = m.outcome()
    assert outcome is not None and outcome.reason == "broke"


def test_backed_chips_settle_at_even_money_with_a_raise_line() -> None:
    m = dealt(("bagman", "ghost"), [("TS", "6S"), ("TH", "9H")], "6D", "TD", then=["7C"])
    ability(m, 1, "back_the_play", box=2, amount=250)
    assert box(m, 2)["backed"] == 250 and take(m) == 550
    do(m, 1, "stand")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Raise on Crew 2 +250" in hist and "Crew 2 19 WIN +100" in hist
    assert take(m) == 1000 + 100 + 100 + 250


# -- the end of the job ----------------------------------------------------------------


def test_next_round_ends_the_job_when_the_deck_cannot_deal_a_full_round() -> None:
    m = dealt(LG, [("TS", "8S"), ("TH", "9H")], "TD", "8D")
    do(m, 1, "stand")
    do(m, 2, "stand")
    state = m.state  # white-box: thin the deck to less than a full round
    state.discard.extend(state.deck[5:])
    del state.deck[5:]  # a full round at two seats takes 2 x 2 + 2 = 6 cards
    assert m.view(None)["last_round"]
    do(m, 2, "next_round")
    out = m.outcome()
    assert out is not None and out.reason == "deck" and out.figures["take"] == take(m)
    assert out.figures["opening"] == 1000 and out.figures["took_the_house"] is True
    assert m.view(None)["took_the_house"] is True


def test_a_deck_run_dry_mid_hand_takes_the_discard_back_and_ends_after_the_round() -> None:
    m = dealt(LG, [("2S", "3S"), ("TH", "9H")], "TD", "8D")
    state = m.state
    state.discard.extend(state.deck[:-1])
    del state.deck[:-1]
    do(m, 1, "hit")
    do(m, 1, "hit")  # the deck is dry here: the discard comes back
    assert any("The deck runs dry" in line for line in m.history(None))
    assert m.view(None)["last_round"]
    while m.view(None)["phase"] == "play":
        do(m, m.awaiting[0], "stand")
    do(m, m.awaiting[0], "next_round")
    outcome = m.outcome()
    assert outcome is not None and outcome.reason == "deck"


def test_broke_between_rounds_ends_the_job_as_a_loss() -> None:
    m = dealt(LG, [("TS", "7S"), ("TH", "7H")], "TD", "8D", bets=[50, 50], take=100)
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert take(m) == 0
    out = m.outcome()
    assert out is not None and out.reason == "broke" and out.side == "house" and out.winners == ()
    assert not m.awaiting


# -- history and secrecy ----------------------------------------------------------------


def test_the_hole_card_is_never_named_before_it_is_turned() -> None:
    m = dealt(LG, [("TS", "6S"), ("TH", "9H")], "6D", "QC", then=["7C"])
    hole = label("QC")
    before = m.history(1)
    assert not any(hole in line for line in before)
    assert "QC" not in str(m.view(1)) and "QC" not in str(m.legal_json(1))
    assert "7C" not in str(m.view(1)) and "7C" not in str(m.legal_json(1))
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "QC" in m.view(1)["dealer"]["cards"]


def test_refused_actions_are_one_line_and_change_nothing() -> None:
    m = dealt(LG, [("TS", "6S"), ("TH", "9H")], "6D", "TD")
    assert "not awaited" in check_refused(m, 2, {"type": "hit"})
    assert "not your playing turn" not in check_refused(m, 1, {"type": "split"})
    with pytest.raises(IllegalAction):
        m.submit(1, {"type": "ability", "card": "rooftop", "box": 1})


def test_count_and_tell_readings() -> None:
    assert count_reading(["TS"] * 43 + ["2S"] * 57)[2] == "RICH"
    assert count_reading(["TS"] * 42 + ["2S"] * 58)[2] == "EVEN"
    assert count_reading(["TS"] * 35 + ["2S"] * 65)[2] == "EVEN"
    assert count_reading(["TS"] * 34 + ["2S"] * 66)[2] == "THIN"
    assert count_reading([])[2] == "SPENT"
    assert high_low("7S") == "HIGH" and high_low("AS") == "HIGH" and high_low("6S") == "LOW"
