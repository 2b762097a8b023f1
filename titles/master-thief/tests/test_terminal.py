"""Master Thief in a terminal: every view fits 80x24, typed actions are read."""

from __future__ import annotations

import pytest
from gameweave_masterthief.actions import EndTurn, Swipe
from helpers import REGISTRY, TITLE, act, heist, stacked
from rich.console import Console
from rich.text import Text

from gameweave_core import Match, play_out


def plain(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.split("\n")


def test_every_view_fits_80_by_24() -> None:
    for players in (2, 4, 6):
        match = Match(TITLE, players, seed=players)
        play_out(match, {s: "random" for s in range(1, players + 1)}, REGISTRY)
        for step in range(0, match.step + 1, 3):
            at = match.at(step)
            for seat in [1, players, None]:
                lines = plain(TITLE.render_text(at.view(seat), seat) or "")
                assert len(lines) <= 24, (players, step, seat)
                assert all(len(line) <= 80 for line in lines), (players, step, seat, lines)


def test_the_table_shows_the_seats_own_hand_and_calling_card_only() -> None:
    match = stacked(2, hands=[["Swipe", "Grip", "Latch", "Lift"]], calling=["The Looter"])
    mine = TITLE.render_text(match.view(1), 1) or ""
    theirs = TITLE.render_text(match.view(2), 2) or ""
    assert "Your hand:[/bold] Grip, Latch, Lift, Swipe" in mine
    assert "The Looter" in mine and "The Looter" not in theirs
    assert "Grip, Latch" not in theirs


def test_typed_actions_are_read_by_label_or_unique_start() -> None:
    legal = [Swipe(2, "Ruby Sceptre"), Swipe(2, "Dodo Egg"), EndTurn()]
    assert TITLE.parse_action("swipe 2 ruby sceptre", legal) == Swipe(2, "Ruby Sceptre")
    assert TITLE.parse_action("swipe 2 dodo", legal) == Swipe(2, "Dodo Egg")
    assert TITLE.parse_action("END", legal) == EndTurn()
    with pytest.raises(ValueError, match="fits 2 actions; type more of it"):
        TITLE.parse_action("swipe", legal)
    with pytest.raises(ValueError, match="cannot read 'grab it': try one of end, swipe"):
        TITLE.parse_action("grab it", legal)
    assert TITLE.read_action('{"type": "end"}', legal) == EndTurn()


def test_a_window_and_security_are_shown() -> None:
    match = stacked(
        2,
        museum=["Astrolabe", "Ruby Sceptre", "Opal Brooch"],
        hands=[["Swipe", "Lift", "Lift", "Raid"], ["Grip", "Lift", "Raid", "Trip"]],
    )
    heist(match)
    act(match, 1, "steal")
    act(match, 1, "swipe 2 Ruby Sceptre")
    text = TITLE.render_text(match.view(2), 2) or ""
    assert "Answering Seat 1's swipe at Seat 2: asked 2; answered none" in text
    assert "Seat 2 (you) (in)" in text
    Console(width=80, record=True).print(text)


def test_the_rules_topics_explain_every_kind_of_action() -> None:
    topics = TITLE.rules_text()
    assert topics is not None and list(topics)[:2] == ["overview", "actions"]
    forms = {
        line.strip()[3:].split("`")[0].split()[0]
        for line in topics["actions"].splitlines()
        if line.strip().startswith("- `")
    }
    match = Match(TITLE, 3, seed=2)
    play_out(match, {s: "random" for s in range(1, 4)}, REGISTRY)
    seen = set()
    for step in range(match.step):
        at = match.at(step)
        for seat in at.awaiting:
            seen |= {TITLE.describe_action(a).split()[0] for a in at.legal_actions(seat)}
    assert seen <= forms, seen - forms
    assert forms >= {"steal", "swipe", "grip", "latch", "pass", "escape", "stay", "end"}
