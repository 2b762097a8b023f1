"""The terminal renderer fits 80 x 24 and the parser reads back every legal action."""

from __future__ import annotations

import pytest
from gameweave_museumheist import MuseumHeist
from gameweave_museumheist.actions import Challenge, Choose, Move, Place, Swap
from gameweave_museumheist.bots import HeuristicBot
from gameweave_museumheist.terminal import describe_action, parse_action, render_text
from rich.console import Console

from gameweave_core import Match, Rng

TITLE = MuseumHeist()


def _rendered(text: str) -> list[str]:
    console = Console(width=80, record=True, color_system=None)
    console.print(text, soft_wrap=True)
    return console.export_text().rstrip("\n").split("\n")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_screen_of_a_game_fits_80_by_24(players: int) -> None:
    match = Match(TITLE, players, 12)
    bot, rng = HeuristicBot(), Rng(12)
    checked = 0
    while True:
        # Every screen of the first rounds, then only the last one (rich is slow).
        if checked > 240 and not match.is_over:
            match.take_bot_turn(match.awaiting[0], bot, rng)
            continue
        for seat in [*range(1, players + 1), None]:
            lines = _rendered(render_text(match.view(seat), seat))
            # 24 rows leave room for a prompt and a few menu lines below the screen.
            assert len(lines) <= 17, "\n".join(lines)
            assert max(len(line) for line in lines) <= 80, "\n".join(lines)
            checked += 1
        if match.is_over:
            break
        match.take_bot_turn(match.awaiting[0], bot, rng)
    assert checked > 20


def test_the_screen_shows_the_seats_own_card_and_not_others() -> None:
    match = Match(TITLE, 2, 5)
    match.submit(1, Choose("duchess"))
    match.submit(2, Choose("granny"))
    mine = "\n".join(_rendered(render_text(match.view(1), 1)))
    assert "your card: The Duchess" in mine
    assert "your card: The Granny" not in mine
    other = "\n".join(_rendered(render_text(match.view(2), 2)))
    assert "your card: The Granny" in other
    assert "Seat 1 to act" in mine
    art = match.view(1)["artwork"]
    row = int(art[1])
    board_row = next(line for line in mine.split("\n") if line.startswith(f"{row:>3} "))
    assert board_row[4 + 2 * "ABCDEFGH".index(art[0])] == "*"


@pytest.mark.parametrize("players", [2, 4])
def test_every_legal_action_reads_back_from_its_description(players: int) -> None:
    match = Match(TITLE, players, 2)
    seen = set()
    while not match.is_over and match.step < 60:
        seat = match.awaiting[0]
        legal = match.legal_actions(seat)
        for act in legal:
            assert parse_action(describe_action(act), legal) == act
            assert TITLE.parse_action(describe_action(act), legal) == act
            seen.add(type(act))
        match.submit(seat, legal[match.step % len(legal)])
    assert {Choose, Move, Challenge, Swap} <= seen


def test_short_forms_and_names() -> None:
    assert parse_action("guard e5", []) == Move("guard", "E5")
    assert parse_action("m little boy c3", []) == Move("boy", "C3")
    assert parse_action("challenge 2 the school girl", []) == Challenge(2, "schoolgirl")
    assert parse_action("c 3 N", []) == Challenge(3, "granny")
    assert parse_action("swap guard artist", []) == Swap("artist", "guard")
    assert parse_action("choose Duchess", []) == Choose("duchess")
    assert parse_action("place d5", []) == Place("D5")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "type an action"),
        ("move guard", "move needs a character and a square"),
        ("move guard Z9", "is not a square"),
        ("challenge artist", "challenge needs a seat number"),
        ("choose wizard", "is not a character"),
        ("swap artist", "swap needs two characters"),
        ("dance", "cannot read"),
    ],
)
def test_unreadable_input_gets_a_one_line_reason(text: str, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_action(text, [])
    assert words in str(caught.value) and "\n" not in str(caught.value)
