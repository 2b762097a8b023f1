"""``hint`` in ``gameweave play``, ISMCTS seats, and the sign that a bot is thinking."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from gameweave_cli.app import app
from gameweave_cli.hint import hint_text, search_hint, thinking
from gameweave_cli.play import Session
from gameweave_core import Match, MatchLog, Title, default_registry, seat_bots
from gameweave_core.ismcts import SearchOptions
from gameweave_sealedbid.title import SealedBid

from .conftest import add_titles


class Unsearchable(SealedBid):
    """Sealed Bids without its resample hook."""

    name = "unsearchable"
    resample = Title.resample


def session_output(match: Match, moves: list[str], tmp_path: Path, terminal: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, force_terminal=terminal)
    answers = iter(moves)
    session = Session(
        match,
        frozenset({1}),
        seat_bots(match, {2: None}),
        tmp_path / "g.toml",
        console,
        lambda prompt: next(answers),
    )
    assert session.run() == 0
    return out.getvalue()


def test_hint_names_a_legal_move_and_how_sure_the_search_is(installed: Any, tmp_path: Path) -> None:
    match = Match.create("sealedbid", 2, 3, registry=default_registry())
    out = session_output(match, ["hint", "quit"], tmp_path)
    (line,) = [ln for ln in out.splitlines() if ln.startswith("Hint: ")]
    result = search_hint(match, 1)
    # Sealed Bids' menu counts from 0, as its bids do.
    number = list(match.legal_actions(1)).index(result.action)
    assert line.startswith(f"Hint: {number}. {match.title.describe_action(result.action)}, ")
    assert f"chosen in {result.share:.0%} of {result.iterations} searches" in line
    assert "then: " in out
    assert match.step == 1  # seat 2's bot bid first; the hint played nothing


def test_a_hint_uses_only_what_the_seat_knows(installed: Any) -> None:
    # Seat 1 has sealed a bid seat 2 has not seen: any bid seat 1 may have made
    # leaves seat 2's view, and so its hint, the same.
    hints = []
    for bid in (0, 4, 9):
        match = Match.create("sealedbid", 2, 3, registry=default_registry())
        match.submit(1, {"type": "bid", "coins": bid})
        result = search_hint(match, 2, SearchOptions(iterations=60))
        hints.append(str(hint_text(match, 2, result)))
    assert hints[0] == hints[1] == hints[2]


def test_no_hint_for_a_title_without_resample(installed: Any, tmp_path: Path) -> None:
    add_titles(installed, Unsearchable())
    match = Match.create("unsearchable", 2, 3, registry=default_registry())
    out = session_output(match, ["hint", "quit"], tmp_path)
    assert "No hint: Sealed Bids has no resample hook, so the search cannot give hints" in out


def test_help_lists_hint(installed: Any, tmp_path: Path) -> None:
    out = session_output(
        Match.create("sealedbid", 2, 3, registry=default_registry()), ["help", "quit"], tmp_path
    )
    assert "hint " in out


def test_a_bot_shows_it_is_thinking_on_a_terminal_only() -> None:
    term = io.StringIO()
    with thinking(Console(file=term, force_terminal=True, width=80), "Seat 2 is thinking..."):
        pass
    assert "Seat 2 is thinking..." in term.getvalue()
    plain = io.StringIO()
    with thinking(Console(file=plain, width=80), "Seat 2 is thinking..."):
        pass
    assert plain.getvalue() == ""


def test_bots_in_a_session_with_a_person_show_they_are_thinking(
    installed: Any, tmp_path: Path
) -> None:
    match = Match.create("sealedbid", 2, 3, registry=default_registry())
    assert f"Seat 2 ({match.seat_label(2)}) is thinking..." in session_output(
        match, ["bid 1", "quit"], tmp_path, terminal=True
    )
    again = Match.create("sealedbid", 2, 3, registry=default_registry())
    assert "is thinking" not in session_output(again, ["bid 1", "quit"], tmp_path)


def test_play_and_simulate_take_an_ismcts_seat(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "g.toml"
    played = runner.invoke(
        app,
        ["play", "sealedbid", "--seed", "4", "--seat", "1=bot:ismcts", "--log", str(log)],
    )
    assert played.exit_code == 0, played.output
    assert Match.load(log, verify=True, registry=default_registry()).is_over
    assert len(MatchLog.load(log).actions) == 10
    simulated = runner.invoke(
        app,
        ["simulate", "sealedbid", "--games", "2", "--seed", "4", "--seat", "1=ismcts", "--json"],
    )
    assert simulated.exit_code == 0, simulated.output
    assert '"1": "ismcts"' in simulated.stdout
