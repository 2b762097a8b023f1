"""A newcomer's first hour at the terminal, round 3 (issue 39.8): the seat question
answers ``help`` and ``rules`` and names the sides plainly, without wrapping
mid-word; Ctrl-C during ``hint`` or in the rules pager cancels them and the game
goes on; a mistyped command (``rule``, ``hlep``) is pointed at the right one and
``?`` is help; the rules overview lists its topics once; Master Thief's last
status line is whole; one coin is "1 coin".

Each runs ``gameweave`` in an 80 x 24 pseudo-terminal (``screen.py``); the screens
are saved to ``test-output/terminal/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pexpect
import pytest
from rich.console import Console
from rich.text import Text

from gameweave_cli.teach import rules_page
from gameweave_core import Match, Rng, default_registry

from .conftest import ROOT
from .screen import Terminal
from .test_newcomer_terminal import installed_env

THIEF = r"seat 1 \(Thief\)> "


def museum(tmp_path: Path, *extra: str) -> Terminal:
    log = tmp_path / "museum.toml"
    return Terminal(
        ["play", "museum", "--seed", "3", "--log", str(log), *extra], installed_env("museum")
    )


def test_the_seat_question_answers_help_and_rules(tmp_path: Path) -> None:
    """``help`` and ``rules`` at the seat question got "type a seat number"; the sides
    read "1 = Thief, 2 = Security 2"."""
    term = museum(tmp_path)
    term.expect_exact("Seats: 1 = Thief, 2 = Security")
    term.expect_exact("Which seat do you want to play? [1]: ")
    assert "Security 2" not in "\n".join(term.screen())
    term.send("help")
    term.expect_exact("Which seat do you want to play? [1]: ")
    shown = " ".join(" ".join(term.screen()).split())
    assert "Type the number of the seat you will play" in shown
    assert "'rules' shows the game's rules" in shown
    term.save("seat-question-help")
    term.send("rules")
    term.expect_exact("Which seat do you want to play? [1]: ")
    rows = term.scrolled_off() + term.screen()
    assert any("The Museum Job: overview" in row for row in rows)
    assert not any("type a seat number" in row for row in rows)
    term.save("seat-question-rules")
    term.send("2")
    term.expect(r"seat 2 \(Security 2\)> ")
    term.send("quit")
    assert term.finish() == 0


def test_museum_rush_seats_fold_at_word_boundaries(tmp_path: Path) -> None:
    """Museum Rush's four seats ran past the 80 columns inside the question and
    wrapped mid-word."""
    log = tmp_path / "rush.toml"
    term = Terminal(
        ["play", "museumrush", "--players", "4", "--seed", "4", "--log", str(log)],
        installed_env("museumrush"),
    )
    term.expect_exact("Which seat do you want to play? [1]: ")
    rows = [row for row in term.screen() if row]
    start = next(i for i, row in enumerate(rows) if row.startswith("Seats: "))
    listed = rows[start : rows.index("Which seat do you want to play? [1]:")]
    term.save("museumrush-seat-question")
    reg = default_registry()
    match = Match(reg.title("museumrush"), 4, 4)
    joined = " ".join(row.strip() for row in listed)
    for seat in range(1, 5):
        thief = match.seat_label(seat).removeprefix(f"Seat {seat}").strip(" ()")
        assert f"{seat} = {thief}" in joined, (thief, listed)
    # Folded where a space was: every row is whole words of the list.
    words = joined.split()
    assert all(set(row.split()) <= set(words) for row in listed)
    assert all(len(row) <= 80 for row in listed)
    term.child.sendeof()
    assert term.finish() == 0


def test_ctrl_c_cancels_the_hint_and_the_pager_not_the_game(tmp_path: Path) -> None:
    term = museum(tmp_path, "--seat", "1=human")
    term.expect(THIEF)
    term.send("hint")
    term.expect("Searching")
    term.child.sendintr()
    found = term.expect(["Hint cancelled: back to your turn.", "Hint for"], timeout=60)
    if found == 1:  # the search was done before the key: ask again, stop sooner
        term.expect(THIEF)
        term.send("hint")
        term.expect("Searching")
        term.child.sendintr()
        term.expect("Hint cancelled: back to your turn.")
    term.expect(THIEF)
    term.save("hint-cancelled")
    term.send("rules actions")  # longer than a 24-row page
    term.expect_exact("-- more: Enter for the next page, q to stop -- ")
    term.child.sendintr()
    if term.expect(["rules closed: back to your turn", pexpect.TIMEOUT], timeout=10) == 1:
        term.child.sendintr()  # a signal between the prompt and its read (a CPython race)
        term.expect("rules closed: back to your turn")
    term.expect(THIEF)
    term.save("rules-pager-cancelled")
    term.send("quit")
    assert term.finish() == 0


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("rule", "did you mean 'rules'? 'help' lists the commands"),
        ("hlep", "did you mean 'help'? 'help' lists the commands"),
        ("?", "Type a menu number or an action to act, or one of:"),
    ],
)
def test_a_mistyped_command_is_pointed_at_the_right_one(
    tmp_path: Path, typed: str, said: str
) -> None:
    term = museum(tmp_path, "--seat", "1=human")
    term.expect(THIEF)
    term.send(typed)
    term.expect(THIEF)
    shown = " ".join(" ".join(term.screen()).split())  # the refusal folds at 80 columns
    assert said in shown, shown
    term.save(f"typed-{'question-mark' if typed == '?' else typed}")
    term.send("quit")
    assert term.finish() == 0


@pytest.mark.parametrize("name", ["museum", "house", "museumheist", "masterthief", "museumrush"])
def test_the_rules_overview_lists_its_topics_once(name: str) -> None:
    title = default_registry().title(name)
    console = Console(width=80, color_system=None)
    lines = rules_page(title, "").lines(console)
    text = "\n".join(lines)
    assert text.count("Topics:") == 1 and "Rules topics:" not in text, text
    # Another topic still names the rest in its footer.
    assert "Rules topics:" in "\n".join(rules_page(title, "actions").lines(console))


def test_master_thiefs_last_status_line_is_whole() -> None:
    """The line with the final scores and winners was cut at 80 columns (``winn…``)
    when the other end-of-game notes shared it."""
    from gameweave_masterthief.terminal import render_text

    title = default_registry().title("masterthief")
    match = Match(title, 4, 1)
    rng = Rng(1)
    while match.awaiting:
        seat = match.awaiting[0]
        match.submit(seat, rng.choice(match.legal_actions(seat)))
    view: dict[str, Any] = dict(match.view(1))
    view.update(last_turn=True, final_turn=True)  # every note a game may end with
    plain = Text.from_markup(render_text(view, 1, 80)).plain.splitlines()
    assert all(len(row) <= 80 for row in plain), plain
    # The notes (below the seats' lines, which may be cut) are whole.
    at = max(i for i, row in enumerate(plain) if "carried:" in row) + 1
    notes = plain[at : next(i for i, row in enumerate(plain) if row.startswith("Your hand"))]
    assert notes and not any(row.endswith("…") for row in notes), notes
    final = next(row for row in plain if row.startswith("Final BMC"))
    assert re.search(r", winners? [0-9, ]+ \(\w+\)$", final), final
    assert "Thief deck empty: last turn" in plain and "last thief inside: final turn" in plain


def test_one_coin_is_a_coin() -> None:
    from gameweave_sealedbid.terminal import render_text

    view = {"lot": 1, "lots_left": 4, "coins": [1, 20], "points": [1, 0], "sealed": []}
    text = render_text(view, 1)
    assert "Bidder 1 (you): 1 coin, 1 point" in text
    assert "Bidder 2: 20 coins, 0 points" in text


def test_the_maintainers_version_sample_lists_every_title(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39.10: the maintainers page's ``gameweave --version`` sample lacked two
    of the project's titles. Every title installed here is in it, as printed."""
    from typer.testing import CliRunner

    from gameweave_cli.app import app
    from gameweave_core.registry import ENV_LOAD_PLUGINS

    monkeypatch.delenv(ENV_LOAD_PLUGINS, raising=False)
    default_registry.cache_clear()
    try:
        printed = CliRunner().invoke(app, ["--version"]).stdout.splitlines()
    finally:
        default_registry.cache_clear()
    page = (ROOT / "docs" / "maintainers.md").read_text(encoding="utf-8")
    sample = page.split("$ gameweave --version\n", 1)[1].split("```", 1)[0].splitlines()
    titles = [line for line in printed[1:] if " from gameweave-" in line]
    assert len(titles) >= 5, printed
    for line in titles:
        assert line in sample, (line, sample)
