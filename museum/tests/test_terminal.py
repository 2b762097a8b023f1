"""Typed actions, their descriptions, and the terminal rendering."""

from __future__ import annotations

from typing import Any

import pytest

from gameweave_core import Match
from gameweave_core.runner import play_out
from gameweave_core.testing import random_match
from gameweave_museum import MuseumJob
from gameweave_museum.actions import Enter, Escape, Hold, Lift, MoveGuard, Pick, Post, Walk
from gameweave_museum.terminal import render_map

TITLE = MuseumJob()


def test_every_legal_action_reads_back_from_its_description() -> None:
    match = random_match(TITLE, 3, 4)
    for step in match.steps():
        for seat in step.awaiting:
            for act in step.legal_actions(seat):
                assert (
                    TITLE.parse_action(TITLE.describe_action(act), step.legal_actions(seat)) == act
                )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("walk K7", Walk("K7")),
        ("walk k7 cut", Walk("K7", "cut")),
        ("  WALK K7 ESCAPE ", Walk("K7", "escape")),
        ("hold", Hold()),
        ("lift", Lift()),
        ("pick", Pick()),
        ("escape", Escape()),
        ("guard 2 D4", MoveGuard(2, "D4")),
        ("post 1 J4 seat 3", Post(1, "J4", 3)),
        ("enter A8", Enter("A8")),
        ('{"type": "walk", "to": "K7"}', Walk("K7")),
    ],
)
def test_typed_actions(text: Any, expected: Any) -> None:
    assert TITLE.parse_action(text, []) == expected


def test_a_bare_square_is_the_awaited_guards_move() -> None:
    assert TITLE.parse_action("d4", [MoveGuard(3, "C4")]) == MoveGuard(3, "D4")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("walk", "walk needs a square"),
        ("walk Z9", "not a square"),
        ("walk K99", "off the map"),
        ("walk K7 dance", "'cut' or 'escape'"),
        ("hold K7", "takes nothing"),
        ("guard D4", "guard 2 D4"),
        ("guard x D4", "must be a number"),
        ("teleport K7", "unknown action 'teleport'; now you can: hold, walk"),
        ("", "type an action"),
    ],
)
def test_unreadable_actions_get_a_one_line_reason(text: Any, message: Any) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        TITLE.parse_action(text, [Walk("K7"), Hold()])
    assert "\n" not in str(caught.value)


def test_the_thief_is_drawn_only_on_the_thiefs_screen() -> None:
    match = Match(TITLE, 2, 3)
    while match.awaiting and match.step < 8:
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    thief_map = render_map(match.view(1), 1)
    assert "[bold magenta]@ [/]" in thief_map
    others: tuple[int | None, ...] = (2, None)
    for other in others:
        assert "[bold magenta]@ [/]" not in render_map(match.view(other), other)
    everyone: tuple[int | None, ...] = (1, 2, None)
    for watcher in everyone:
        screen = screen_of(match, watcher)
        assert "A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q  R  S  T" in screen
        assert "Placards" in screen and "Dawn" in screen


def test_the_finished_heist_is_drawn_for_everyone() -> None:
    match = Match(TITLE, 2, 8)
    play_out(match)
    screen = screen_of(match, None)
    assert "The heist is over" in screen and "route" in screen


@pytest.mark.parametrize(("players", "header"), [(2, "(guards 1, 2, 3)"), (4, "(guard 1)")])
def test_the_header_names_the_guards_a_security_seat_runs(players: Any, header: Any) -> None:
    match = Match(TITLE, players, 3)
    while match.awaiting and match.step < 4:
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    first = screen_of(match, 2).splitlines()[0]
    assert first.endswith(f"you are [bold]Security[/] {header}"), first
    assert "[" not in first.replace("[bold]", "").replace("[/]", "")


def test_the_catching_guard_is_drawn_on_the_thiefs_square() -> None:
    match = Match(TITLE, 2, 3)
    for guard, post in ((1, "J4"), (2, "B7"), (3, "K12")):
        match.submit(2, next(a for a in match.legal_actions(2) if (a.guard, a.at) == (guard, post)))
    match.submit(1, Enter("J14"))
    match.submit(1, Walk("K14"))
    assert match.view(1)["thief"]["at"] == "K14"
    match.submit(2, MoveGuard(1, "J4"))
    match.submit(2, MoveGuard(2, "B7"))
    match.submit(2, MoveGuard(3, "K14"))
    assert match.view(None)["ended"] == "catch"
    for seat in (1, 2, None):
        drawn = render_map(match.view(seat), seat)
        assert "[bold white on magenta]G3[/]" in drawn, seat
        assert "[bold magenta]@ [/]" not in drawn, "the Thief is under the guard"


def screen_of(match: Match, seat: int | None) -> str:
    """The terminal screen of ``seat``; The Museum Job always draws one."""
    screen = TITLE.render_text(match.view(seat), seat)
    assert screen is not None
    return screen
