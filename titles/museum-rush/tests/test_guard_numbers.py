"""Museum Rush's Guards carry one number everywhere (issue 39.2): the board marks
them G1, G2 and the typed actions, the hint and the browser's buttons say Guard 1,
while the actions' ``guard`` field counts from 0. The board as an 80-column
terminal shows it is saved to ``test-output/terminal/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from gameweave_museumrush import MuseumRush
from gameweave_museumrush.actions import Lure, Route, Security
from gameweave_museumrush.terminal import describe_action, parse_action, render_text
from rich.console import Console

from gameweave_core import Match, Rng

TITLE = MuseumRush()
CAPTURES = Path(__file__).resolve().parents[3] / "test-output" / "terminal"


def test_typed_guards_count_from_one() -> None:
    assert describe_action(Security(0, "C2")) == "security 1 C2"
    assert describe_action(Route(1, "B2-B3")) == "route 2 B2-B3"
    assert describe_action(Lure(0, 0, "C2")) == "lure 1 0 C2"
    assert describe_action(Lure(-1, 2, "C2")) == "lure -1 2 C2"  # a thief, not a Guard
    legal = [Security(0, "C2"), Security(1, "B3")]
    assert parse_action("security 1 C2", legal) == Security(0, "C2")
    assert parse_action("Security 2 b3", legal) == Security(1, "B3")
    # Readable but not on offer: returned for the match to refuse, still counted from 1.
    assert parse_action("security 3 A1", legal) == Security(2, "A1")
    with pytest.raises(ValueError, match="numbered from 1"):
        parse_action("security 0 C2", legal)


def test_the_board_marks_each_guard_with_its_number() -> None:
    match = Match(TITLE, 2, 4)
    rng = Rng(4)
    for _ in range(6):
        seat = match.awaiting[0]
        match.submit(seat, rng.choice(match.legal_actions(seat)))
    view = match.view(1)
    assert view["guards"], view["guards"]
    console = Console(width=80, color_system=None, record=True)
    console.print(render_text(view, 1, 80))
    board = console.export_text()
    CAPTURES.mkdir(parents=True, exist_ok=True)
    (CAPTURES / "museumrush-board.txt").write_text(board, encoding="utf-8")
    rows = board.splitlines()
    columns = rows[0].split()
    for guard in view["guards"]:
        column, row = guard["at"][0], int(guard["at"][1:])
        line = rows[row]
        # The cell of that column: ten characters after the row number.
        start = 4 + columns.index(column) * 11
        assert f"G{guard['id'] + 1}" in line[start : start + 11], (guard, line)
    assert "G1=Guard T=trap" in board  # the legend, on one line of 80


def test_the_rush_counts_in_words() -> None:
    """Issue 39.8: the rush's lines read "2 tile(s) from a Way Out (1 Guard(s), 0 Booby
    Trap(s))"; they read "2 tiles ... (1 Guard, 0 Booby Traps)"."""
    golden = Path(__file__).resolve().parent / "golden" / "museumrush-3p-heuristic-bots.toml"
    from gameweave_museumrush import plugin

    from gameweave_core import MatchLog, Registry

    reg = Registry()
    reg.add_plugin(plugin, "museumrush", "gameweave-museumrush", "test")
    match = Match.from_log(MatchLog.load(golden), registry=reg)
    rush = [line for line in match.history(None) if "from a Way Out" in line]
    assert rush, "the golden game ends in a rush"
    for line in rush:
        assert "(s)" not in line, line
    assert any("(1 Guard," in line for line in rush), rush
    assert any(" tiles from" in line and "Booby Traps)" in line for line in rush), rush
