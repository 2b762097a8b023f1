"""Edges the rulings page settles: each test names its ruling."""

from __future__ import annotations

from helpers import ability, bet_all, box, dealt, do, order, push, table, take

from gameweave_core.testing import check_refused


def test_the_call_with_no_mark_deals_on() -> None:
    m = table(("lookout", "ghost"), order([("TS", "6S"), ("TH", "9H")], "6D", "QC"))
    ability(m, 1, "the_call")
    bet_all(m, [10, 10])
    do(m, 1, "no_mark")
    v = m.view(1)
    assert v["phase"] == "play" and not v["levers"]["mark"]
    assert "Crew 1 calls No Mark" in m.history(None)


def test_levers_may_come_after_chips_until_deal_me_in() -> None:
    # Ruling: "before you bet" is the whole betting turn.
    m = table(("lookout", "ghost"), ())
    push(m, 1, 50)
    ability(m, 1, "the_call")
    do(m, 1, "heavy")
    do(m, 1, "mark", box=1)
    assert m.view(1)["levers"] == {"mark": 1, "heavy": True, "heavy_spent": True, "call": True}


def test_extra_box_natural_is_a_blackjack_and_it_needs_the_take() -> None:
    deck = order([("TS", "7S"), ("TH", "8H")], "9D", "8D", extra=("AC", "KC"))
    m = table(("inside_man", "ghost"), deck)
    ability(m, 1, "extra_box")
    bet_all(m, [100, 100])
    assert box(m, 3)["hands"][0]["status"] == "blackjack"
    do(m, 1, "stand")
    do(m, 2, "stand")
    assert "Extra Box 21 BLACKJACK +15" in m.history(None)
    m = table(("inside_man", "ghost"), (), take=15)
    card = m.view(1)["crew"][0]["cards"][2]
    assert not card["playable"] and "can't cover" in card["reason"]


def test_vanish_covers_a_split_hand_that_busts_after_it_is_played() -> None:
    m = dealt(
        ("ghost", "lookout"),
        [("8S", "8H"), ("TH", "9H")],
        "TD",
        "7D",
        then=["3C", "4C", "KC", "KD"],
    )
    ability(m, 1, "vanish", box=1)
    do(m, 1, "split")  # 8 3 = 11 and 8 4 = 12
    do(m, 1, "hit")  # 21
    do(m, 1, "hit")  # 12 + K = 22: bust
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 split 22 BUST · VANISH 0" in hist


def test_short_change_covers_the_main_hand_only() -> None:
    m = dealt(("bagman", "ghost"), [("8S", "8H"), ("TH", "9H")], "TD", "8D", then=["9C", "9D"])
    ability(m, 1, "short_change", box=1)
    do(m, 1, "split")  # 8 9 = 17 twice against 18
    do(m, 1, "stand")
    do(m, 1, "stand")
    do(m, 2, "stand")
    hist = m.history(None)
    assert "Crew 1 17 LOSS · SHORT CHANGE 0" in hist and "Crew 1 split 17 LOSS -100" in hist


def test_back_the_play_never_backs_a_blackjack() -> None:
    m = dealt(("bagman", "ghost"), [("TS", "6S"), ("AH", "KH")], "6D", "TD")
    assert not any(a.get("card") == "back_the_play" and a.get("box") == 2 for a in m.legal_json(1))


def test_the_drop_needs_two_cards() -> None:
    m = dealt(("ghost", "lookout"), [("TS", "6S"), ("TH", "9H")], "TD", "8D", then=["2C"])
    ability(m, 1, "the_drop", index=1)  # one card left: 10
    do(m, 1, "hit")  # 12
    assert any(a.get("card") == "alibi" for a in m.legal_json(1))
    reason = check_refused(m, 1, {"type": "ability", "card": "the_drop", "index": 0})
    assert "spent" in reason


def test_labels_and_the_final_board() -> None:
    m = dealt(
        ("lookout", "ghost"), [("TS", "7S"), ("TH", "7H")], "TD", "8D", bets=[50, 50], take=100
    )
    assert m.seat_label(1) == "Crew 1 (Lookout)"
    do(m, 1, "stand")
    do(m, 2, "stand")
    out = m.outcome()
    assert out is not None and "Take 0 against the opening 100" in out.summary
    assert m.view(None)["ended"] == "broke" and take(m) == 0
