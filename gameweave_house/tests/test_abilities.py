"""One test per ability card (15) and per passive (5)."""

from __future__ import annotations

from helpers import ability, bet_all, box, dealt, do, order, push, table, take

from gameweave_core.testing import check_refused

# -- the Lookout -----------------------------------------------------------------------


def test_the_count_reads_unseen_tens_and_aces() -> None:
    m = table(("lookout", "ghost"), ())
    assert m.view(1)["count"] == {"tens_and_aces": 20, "cards": 52, "reading": "EVEN"}
    m = dealt(("lookout", "ghost"), [("TS", "JS"), ("QH", "KH")], "2D", "3D")
    # five cards seen, four of them tens (the hole card is unseen): 16 of 47
    assert m.view(1)["count"] == {"tens_and_aces": 16, "cards": 47, "reading": "THIN"}
    m = table(("ghost", "bagman"), ())
    assert "count" not in m.view(1)  # only a Lookout brings The Count


def test_long_glass_turns_the_next_three_cards_face_up_and_they_are_drawn_in_order() -> None:
    top = ["9S", "8S", "7S", "6S", "5S", "4S", "3S"]
    m = table(("lookout", "ghost"), top)
    ability(m, 1, "long_glass")
    assert m.view(2)["deck"]["face_up"] == ["9S", "8S", "7S"]
    assert m.view(1)["crew"][0]["cards"][0]["reason"] == "spent"
    bet_all(m, [10, 10])
    assert box(m, 1)["hands"][0]["cards"][0] == "9S" and m.view(1)["dealer"]["cards"] == ["7S"]
    assert m.view(1)["deck"]["face_up"] == []


def test_rooftop_turns_the_hole_card_up_for_everyone_and_needs_dealt_cards() -> None:
    m = table(("lookout", "ghost"), order([("TS", "6S"), ("TH", "9H")], "6D", "QC"))
    reason = check_refused(m, 1, {"type": "ability", "card": "rooftop"})
    assert "needs cards on the table" in reason
    card = m.view(1)["crew"][0]["cards"][1]
    assert (
        card["key"] == "rooftop" and not card["playable"] and "cards on the table" in card["reason"]
    )
    bet_all(m, [10, 10])
    ability(m, 1, "rooftop")
    d = m.view(2)["dealer"]
    assert d["cards"] == ["6D", "QC"] and not d["hole_down"] and d["points"] == 16


def test_the_call_stops_the_deal_for_the_callers_mark() -> None:
    m = table(("lookout", "ghost"), order([("AS", "6S"), ("TH", "9H")], "6D", "QC"))
    ability(m, 1, "the_call")
    bet_all(m, [10, 10])
    v = m.view(1)
    assert v["phase"] == "call" and m.awaiting == (1,)
    assert [b["hands"][0]["cards"] for b in v["boxes"]] == [["AS"], ["TH"]]
    assert v["dealer"]["cards"] == []
    assert {"type": "no_mark"} in m.legal_json(1)
    do(m, 1, "mark", box=1)
    v = m.view(1)
    assert v["levers"]["mark"] == 1 and v["phase"] == "play" and v["dealer"]["cards"] == ["6D"]


def test_the_call_is_only_playable_while_no_box_is_marked() -> None:
    m = table(("lookout", "ghost"), ())
    do(m, 1, "mark", box=2)
    assert "already Marked" in check_refused(m, 1, {"type": "ability", "card": "the_call"})


# -- the Sleight -----------------------------------------------------------------------

SG = ("sleight", "ghost")


def test_false_cut_replaces_a_card_on_any_live_main_box() -> None:
    m = dealt(SG, [("TS", "6S"), ("TH", "4H")], "TD", "8D", then=["5C"])
    ability(m, 1, "false_cut", box=2, index=1)  # a crewmate's box, not yet played
    assert box(m, 2)["hands"][0]["cards"] == ["TH", "5C"]
    assert m.view(1)["deck"]["discard"] == 1


def test_false_cut_busts_a_box_over_21_on_the_spot() -> None:
    m = dealt(SG, [("TS", "2S"), ("TH", "9H")], "TD", "8D", then=["5C", "9C", "KC"])
    do(m, 1, "hit")  # T 2 5 = 17
    ability(m, 1, "false_cut", box=1, index=1)  # the 2 goes, a 9 comes: 24
    h = box(m, 1)["hands"][0]
    assert h["cards"] == ["TS", "9C", "5C"] and h["status"] == "bust"
    assert m.awaiting == (2,)


def test_palm_swaps_a_card_with_a_crewmates_box() -> None:
    m = dealt(SG, [("TS", "6S"), ("9H", "4H")], "TD", "8D")
    ability(m, 1, "palm", mine=1, box=2, index=0)
    assert box(m, 1)["hands"][0]["cards"] == ["TS", "9H"]
    assert box(m, 2)["hands"][0]["cards"] == ["6S", "4H"]


def test_palm_never_touches_a_blackjack_and_busts_over_21() -> None:
    m = dealt(SG, [("TS", "6S"), ("AH", "KH")], "TD", "8D")
    assert not any(a.get("card") == "palm" for a in m.legal_json(1))
    m = dealt(SG, [("TS", "2S"), ("9H", "4H")], "TD", "8D", then=["4C"])
    do(m, 1, "hit")  # T 2 4 = 16
    ability(m, 1, "palm", mine=1, box=2, index=0)  # T 9 4 = 23
    assert box(m, 1)["hands"][0]["status"] == "bust"
    assert box(m, 2)["hands"][0]["cards"] == ["2S", "4H"]


def test_the_load_moves_a_face_up_card_to_the_top() -> None:
    top = ["9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "2H", "3H"]
    m = table(("lookout", "sleight", "ghost"), top)
    ability(m, 1, "long_glass")
    push(m, 1, 10)
    do(m, 1, "deal_me_in")
    ability(m, 2, "the_load", index=2)
    assert m.view(2)["deck"]["face_up"] == ["7S", "9S", "8S"]
    bet_all(m, [10, 10, 10])
    assert [box(m, i)["hands"][0]["cards"][0] for i in (1, 2, 3)] == ["7S", "9S", "8S"]


def test_the_load_needs_two_face_up_cards() -> None:
    m = table(("sleight", "ghost"), ())
    card = m.view(1)["crew"][0]["cards"][2]
    assert card["key"] == "the_load" and "two face-up" in card["reason"]
    check_refused(m, 1, {"type": "ability", "card": "the_load", "index": 1})


def test_palmed_turns_the_next_card_up_when_the_sleights_box_busts() -> None:
    m = dealt(SG, [("TS", "6S"), ("TH", "9H")], "TD", "8D", then=["KC", "4C"])
    do(m, 1, "hit")
    assert m.view(2)["deck"]["face_up"] == ["4C"]
    assert "Palmed — the next deck card turns face up: 4♣" in m.history(None)
    m = dealt(("ghost", "sleight"), [("TS", "6S"), ("TH", "9H")], "TD", "8D", then=["KC", "4C"])
    do(m, 1, "hit")  # the Ghost busts: nothing turns
    assert m.view(2)["deck"]["face_up"] == []


# -- the Ghost ------------------------------------------------------------------------

GL = ("ghost", "lookout")


def test_vanish_brings_a_busted_bet_and_its_backed_chips_back() -> None:
    m = table(("bagman", "ghost"), order([("TS", "6S"), ("TH", "9H")], "TD", "8D", ["KC"]))
    push(m, 1, 100)
    do(m, 1, "deal_me_in")
    ability(m, 2, "vanish", box=1)
    assert any(p["key"] == "vanish" for p in m.view(1)["pending"])
    push(m, 2, 100)
    do(m, 2, "deal_me_in")
    ability(m, 1, "back_the_play", box=1, amount=100)
    do(m, 1, "hit")  # 26: bust
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 26 BUST · VANISH 0" in hist and "Raise on Crew 1 0" in hist
    assert take(m) == 1000 + 100  # box 2 won 100 and box 1 lost nothing


def test_the_drop_discards_a_card_from_the_hand_being_played() -> None:
    m = dealt(GL, [("TS", "6S"), ("TH", "9H")], "TD", "8D", then=["9C"])
    ability(m, 1, "the_drop", index=1)
    assert box(m, 1)["hands"][0]["cards"] == ["TS"] and m.awaiting == (1,)
    do(m, 1, "hit")
    assert box(m, 1)["hands"][0]["points"] == 19


def test_alibi_takes_two_fresh_cards_and_a_21_is_plain() -> None:
    m = dealt(GL, [("TS", "6S"), ("TH", "9H")], "TD", "8D", then=["AC", "KC"])
    ability(m, 1, "alibi")
    assert box(m, 1)["hands"][0]["cards"] == ["AC", "KC"]
    assert m.awaiting == (2,)  # 21 stands by itself
    do(m, 2, "stand")
    assert "Crew 1 21 WIN +100" in m.history(None)  # even money, not 3:2


def test_cold_feet_is_the_whole_crews_while_a_ghost_sits() -> None:
    m = dealt(("lookout", "ghost"), [("TS", "6S"), ("TH", "9H")], "TD", "8D", bets=[50, 10])
    do(m, 1, "cold_feet")  # the Lookout's box walks: the Ghost's passive covers the crew
    assert box(m, 1)["hands"][0]["status"] == "walked"
    do(m, 2, "stand")
    assert "Crew 1 16 COLD FEET -25" in m.history(None)


# -- the Bagman -----------------------------------------------------------------------

BG = ("bagman", "ghost")


def test_double_bag_makes_the_mark_pay_3_to_1() -> None:
    m = table(BG, order([("TS", "9S"), ("TH", "7H")], "TD", "8D"))
    do(m, 1, "mark", box=2)
    push(m, 1, 10)
    do(m, 1, "deal_me_in")
    push(m, 2, 100)
    do(m, 2, "deal_me_in")
    ability(m, 1, "double_bag")  # on the playing turn, once the cards are out
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "Crew 2 17 LOSS · MARK -200" in m.history(None)
    m = table(BG, order([("TS", "7S"), ("TH", "9H")], "TD", "8D"))
    do(m, 1, "mark", box=2)
    bet_all(m, [10, 100])
    ability(m, 1, "double_bag")
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "Crew 2 19 WIN · MARK +300" in m.history(None)


def test_short_change_turns_a_loss_into_a_push() -> None:
    m = dealt(BG, [("TS", "7S"), ("TH", "9H")], "TD", "8D")
    ability(m, 1, "short_change", box=1)
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "Crew 1 17 LOSS · SHORT CHANGE 0" in m.history(None)
    assert take(m) == 1000 + 100


def test_short_change_covers_a_dealer_blackjack_but_never_names_a_blackjack_box() -> None:
    m = table(BG, order([("AS", "KS"), ("TH", "9H")], "AD", "KD"))
    ability(m, 1, "short_change", box=2)
    bet_all(m, [100, 100])
    assert "Crew 2 19 LOSS · SHORT CHANGE 0" in m.history(None) and take(m) == 1000
    m = dealt(BG, [("TS", "6S"), ("AH", "KH")], "9D", "8D")
    assert not any(a.get("card") == "short_change" and a.get("box") == 2 for a in m.legal_json(1))


def test_back_the_play_has_no_table_maximum_and_comes_before_the_first_hit() -> None:
    m = dealt(BG, [("TS", "6S"), ("TH", "9H")], "6D", "TD", then=["2C", "7C"])
    take_now = take(m)
    assert {"type": "ability", "card": "back_the_play", "box": 2, "amount": take_now} in (
        m.legal_json(1)
    )  # all-in is on the menu
    do(m, 1, "hit")
    assert not any(a.get("card") == "back_the_play" for a in m.legal_json(1))


def test_deep_pockets_is_the_bagmans_own_box_only() -> None:
    m = table(BG, ())
    assert box(m, 1)["table_max"] == 500
    push(m, 1, 10)
    do(m, 1, "deal_me_in")
    assert box(m, 2)["table_max"] == 250


# -- the Inside Man -------------------------------------------------------------------

IG = ("inside_man", "ghost")


def test_the_tell_reads_the_hole_card_high_or_low() -> None:
    m = dealt(IG, [("TS", "6S"), ("TH", "9H")], "6D", "QC")
    assert m.view(2)["tell"] == "HIGH"
    m = dealt(IG, [("TS", "6S"), ("TH", "9H")], "6D", "4C")
    assert m.view(2)["tell"] == "LOW"
    assert "The Tell — the hole card is LOW" in m.history(None)
    m = dealt(("lookout", "ghost"), [("TS", "6S"), ("TH", "9H")], "6D", "4C")
    assert "tell" not in m.view(2)


def test_slow_hand_makes_the_dealer_stand_on_16() -> None:
    m = dealt(IG, [("TS", "7S"), ("TH", "8H")], "TD", "6D", then=["5C"])
    ability(m, 1, "slow_hand")
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert m.view(1)["dealer"]["cards"] == ["TD", "6D"]
    assert take(m) == 1000 + 200
    m = dealt(IG, [("TS", "7S"), ("TH", "8H")], "TD", "6D", then=["5C"])
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert m.view(1)["dealer"]["cards"] == ["TD", "6D", "5C"]


def test_the_nod_gives_a_standing_dealer_one_more_card() -> None:
    m = dealt(IG, [("TS", "QS"), ("TH", "9H")], "TD", "8D", then=["5C"])
    ability(m, 1, "the_nod")
    assert any(p["key"] == "the_nod" for p in m.view(2)["pending"])
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert m.view(1)["dealer"]["cards"] == ["TD", "8D", "5C"]
    assert "The Nod — the house takes one more, 5♣, to 23 — bust" in m.history(None)
    assert take(m) == 1000 + 200


def test_the_nod_does_not_fire_after_a_dealer_bust() -> None:
    m = dealt(IG, [("TS", "QS"), ("TH", "9H")], "6D", "TD", then=["KC", "5C"])
    ability(m, 1, "the_nod")
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert m.view(1)["dealer"]["cards"] == ["6D", "TD", "KC"]


def test_extra_box_opens_a_second_box_played_after_its_owners() -> None:
    deck = order([("TS", "7S"), ("TH", "8H")], "TD", "6D", then=["5C"], extra=("9C", "9D"))
    m = table(IG, deck)
    ability(m, 1, "extra_box")
    assert box(m, 3)["extra"] and box(m, 3)["hands"][0]["bet"] == 10 and take(m) == 990
    do(m, 1, "chips", amount=50, box=3)
    assert m.history(None)[-1] == "Crew 1 puts 50 on the Extra Box"
    push(m, 1, 100)
    do(m, 1, "deal_me_in")
    assert m.history(None)[-1] == "Crew 1 is in for 100 and 60 on the Extra Box — Take 840"
    push(m, 2, 100)
    do(m, 2, "deal_me_in")
    assert box(m, 3)["hands"][0]["cards"] == ["9C", "9D"]
    assert "Extra Box is dealt 9♣ 9♦ — 18" in m.history(None)
    do(m, 1, "stand")
    assert m.view(1)["playing"] == {"box": 3, "hand": 0}  # after the owner's own box
    assert {"type": "split"} not in m.legal_json(1)  # the Extra Box never splits
    assert "never splits" in check_refused(m, 1, {"type": "split"})


def test_extra_box_is_before_the_deal_only() -> None:
    m = dealt(IG, [("TS", "7S"), ("TH", "8H")], "TD", "6D")
    card = m.view(1)["crew"][0]["cards"][2]
    assert card["key"] == "extra_box" and "before the deal" in card["reason"]


def test_spent_cards_stay_spent_for_the_whole_job() -> None:
    m = dealt(IG, [("TS", "QS"), ("TH", "9H")], "TD", "8D", then=["5C"])
    ability(m, 1, "the_nod")
    cards = m.view(2)["crew"][0]["cards"]
    assert cards[1]["spent"] and not cards[1]["playable"]
    assert "spent" in check_refused(m, 1, {"type": "ability", "card": "the_nod"})
