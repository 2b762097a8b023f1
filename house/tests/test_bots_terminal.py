"""Bots play from their view; the terminal draws a view and reads typed actions."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import dealt, table

from gameweave_core import Match, Observation, Rng, default_registry
from gameweave_core.runner import play_out
from gameweave_house import HouseJob
from gameweave_house import actions as A
from gameweave_house.bots import BasicBot, basic_move, wants_cold_feet

TITLE = HouseJob()


@pytest.mark.parametrize(
    ("cards", "up", "move"),
    [
        (["TS", "6S"], 10, "hit"),
        (["TS", "6S"], 6, "stand"),
        (["TS", "2S"], 4, "stand"),
        (["TS", "2S"], 3, "hit"),
        (["5S", "6S"], 10, "double"),
        (["5S", "5H"], 6, "double"),  # fives are played as a ten
        (["8S", "8H"], 10, "split"),
        (["AS", "AH"], 11, "split"),
        (["TS", "KH"], 6, "stand"),
        (["AS", "7H"], 9, "hit"),
        (["AS", "7H"], 2, "stand"),
        (["AS", "6H"], 4, "double"),
        (["9S", "9H"], 7, "stand"),
    ],
)
def test_basic_strategy(cards: Any, up: Any, move: Any) -> None:
    assert basic_move(cards, up, True, True) == move


def test_cold_feet_where_it_pays() -> None:
    assert wants_cold_feet(["TS", "6S"], 10, False)
    assert not wants_cold_feet(["TS", "6S"], 6, False)
    assert wants_cold_feet(["TS", "4S"], 10, True) and not wants_cold_feet(["TS", "4S"], 10, False)


def observe(m: Match, seat: int) -> Observation:
    return m.observe(seat)


def test_basic_bot_walks_out_on_16_against_a_ten() -> None:
    m = dealt(("lookout", "ghost"), [("TS", "6S"), ("TH", "9H")], "TD", "7D")
    # The Lookout's heuristics would spend Rooftop first on a stiff hand.
    assert BasicBot(abilities=False).act(observe(m, 1), Rng(1)) == A.ColdFeet()
    assert BasicBot(abilities=True).act(observe(m, 1), Rng(1)) == A.Ability("rooftop")


def test_noabilities_bot_never_plays_a_card_or_lever() -> None:
    for seed in range(6):
        m = Match(TITLE, 4, seed)
        play_out(m, dict.fromkeys(range(1, 5), "basic-noabilities"))
        assert m.is_over
        assert not any(
            "plays" in line or "Marks" in line or "Heavy" in line for line in m.history(None)
        )


def test_basic_bot_spends_cards_and_finishes_jobs() -> None:
    played = 0
    for seed in range(8):
        m = Match(TITLE, 3, seed)
        play_out(m)
        assert m.is_over
        played += sum(" plays " in line for line in m.history(None))
    assert played > 8


def test_the_registry_offers_basic_as_default_and_random() -> None:
    reg = default_registry()
    bots = reg.bots(reg.title("house"))
    assert {"basic", "basic-noabilities", "random"} <= set(bots)
    assert reg.title("house").default_bot == "basic"


def test_render_text_shows_the_table_and_greyed_reasons() -> None:
    m = table(("lookout", "ghost"), ())
    text = TITLE.render_text(m.view(1), 1) or ""
    assert "TAKE 1000" in text and "The Count 20/52 EVEN" in text
    assert "The Call — PLAY NOW" in text
    assert "Rooftop — needs cards on the table" in text
    m = dealt(("inside_man", "ghost"), [("TS", "6S"), ("TH", "9H")], "6D", "QC")
    text = TITLE.render_text(m.view(2), 2) or ""
    assert "The Tell HIGH" in text and "▒▒" in text and "PLAYING" in text
    assert "Q♣" not in text


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("+50", A.Chips(50)),
        ("deal", A.DealMeIn()),
        ("play the call", A.Ability("the_call")),
        ("play call", A.Ability("the_call")),
        ("play long glass", A.Ability("long_glass")),
        ("mark 2", A.Mark(2)),
        ("heavy", A.Heavy()),
    ],
)
def test_parse_action_reads_typed_words(typed: Any, expected: Any) -> None:
    m = table(("lookout", "ghost"), ())
    if expected == A.DealMeIn():
        m.submit(1, {"type": "chips", "amount": 10})
    assert TITLE.parse_action(typed, m.legal_actions(1)) == expected


def test_parse_action_errors_are_one_helpful_line() -> None:
    m = table(("lookout", "ghost"), ())
    legal = m.legal_actions(1)
    for typed, words in [
        ("hit", "not possible now"),
        ("+70", "not possible now"),
        ("mark x", "mark 2"),
        ("play rooftop", "can't be played now"),
        ("play fireworks", "no ability card"),
        ("dance", "cannot read"),
    ]:
        with pytest.raises(ValueError) as caught:
            TITLE.parse_action(typed, legal)
        assert words in str(caught.value) and "\n" not in str(caught.value)
    m = dealt(("ghost", "lookout"), [("TS", "6S"), ("TH", "9H")], "TD", "7D")
    with pytest.raises(ValueError, match="say which"):
        TITLE.parse_action("play the drop", m.legal_actions(1))
    assert TITLE.parse_action("play the drop card 2", m.legal_actions(1)) == A.Ability(
        "the_drop", index=1
    )
    assert TITLE.parse_action("cold feet", m.legal_actions(1)) == A.ColdFeet()


def test_every_legal_label_parses_back_to_its_action() -> None:
    for seed in range(3):
        m = Match(TITLE, 3, seed)
        while m.awaiting and m.step < 60:
            seat = m.awaiting[0]
            legal = m.legal_actions(seat)
            for act in legal:
                assert TITLE.parse_action(TITLE.describe_action(act), legal) == act
            m.submit(seat, legal[seed % len(legal)])


def test_render_history_is_newest_first() -> None:
    from gameweave_house.terminal import render_history

    m = dealt(("lookout", "ghost"), [("TS", "6S"), ("TH", "9H")], "6D", "TD", then=["9C", "7C"])
    m.submit(1, {"type": "hit"})
    m.submit(2, {"type": "stand"})
    text = render_history(m.history(1)).splitlines()
    assert text[0] == "Round settled — Take 1000"
    assert "[red]Crew 1 25 BUST · LOSS -100[/]" in text and "[green]Crew 2 19 WIN +100[/]" in text
