"""Real games in a pseudo-terminal: a person typing moves at ``gameweave play``."""

from __future__ import annotations

import os
import re
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from gameweave_core import Match, MatchLog, default_registry
from gameweave_core.registry import ENV_LOAD_PLUGINS

PROMPT_1 = r"seat 1 \(Bidder 1\)> "
PROMPT_2 = r"seat 2 \(Bidder 2\)> "


def spawn(child_env: Any, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", "play", "sealedbid", *args],
        env=child_env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 100),
    )
    return child


@pytest.fixture
def tutorial_on_path(installed: Any) -> Any:
    """Match.load in this process needs the tutorial title too."""
    return installed


def test_a_whole_game_typed_at_the_terminal(
    child_env: Any, tutorial_on_path: Any, tmp_path: Path
) -> None:
    log = tmp_path / "pty.toml"
    child = spawn(child_env, "--seed", "21", "--log", str(log))
    # At a terminal, without --seat, the player is asked for a side.
    child.expect_exact("Seats: 1 = Bidder, 2 = Bidder")
    child.expect_exact("Which seat do you want to play? [1]: ")
    child.sendline("3")
    child.expect("Not accepted: type a seat number from 1 to 2")
    child.sendline("1")
    child.expect("Your move, seat 1 \\(Bidder 1\\)")
    child.expect(PROMPT_1)
    child.sendline("bid 25")
    child.expect("Not accepted: you hold 20 coins and cannot bid 25")
    child.expect(PROMPT_1)
    child.sendline("help")
    child.expect("save the log and leave")
    child.expect(PROMPT_1)
    child.sendline("5")  # the menu counts from 0, as the bids do: 5 bids 5
    child.expect("You bid 5 on the")
    child.expect("Bids revealed: seat 1 5, seat 2 \\d+")
    for bid in ("bid 4", "bid 3", "bid 2", "bid 1"):
        child.expect(PROMPT_1)
        child.sendline(bid)
        child.expect(f"You {bid} on the")
    child.expect("Game over: ")
    child.expect(f"Log saved to {log}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = MatchLog.load(log)
    assert [e.action["coins"] for e in record.actions if e.seat == 1] == [5, 4, 3, 2, 1]
    assert Match.load(log, verify=True, registry=default_registry()).is_over


def test_hot_seat_wipes_the_screen_between_players(
    child_env: Any, tutorial_on_path: Any, tmp_path: Path
) -> None:
    log = tmp_path / "hot.toml"
    child = spawn(child_env, "--seed", "21", "--seat", "2=human", "--log", str(log))
    child.expect_exact("\x1b[3J")  # screen and scrollback cleared before anyone looks
    child.expect("Pass to seat 1 \\(Bidder 1\\) and press Enter")
    child.sendline("")
    child.expect(PROMPT_1)
    child.sendline("bid 17")
    child.expect("You bid 17 on the")
    child.expect_exact("\x1b[3J")
    child.expect("Pass to seat 2 \\(Bidder 2\\) and press Enter")
    child.sendline("")
    child.expect(PROMPT_2)
    screen = child.before
    assert "Seat 1 seals a bid" in screen
    assert screen.index("\x1b[3J") < screen.index("Seat 1 seals a bid")  # wiped again
    assert "You bid" not in screen and "bid: 17" not in screen
    child.sendline("quit")
    child.expect(f"Game saved to {log}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert [e.action for e in MatchLog.load(log).actions] == [{"type": "bid", "coins": 17}]


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sighup"])
def test_an_interrupted_game_still_writes_its_log(
    child_env: Any, tutorial_on_path: Any, tmp_path: Path, how: Any
) -> None:
    log = tmp_path / "cut.toml"
    child = spawn(child_env, "--seed", "21", "--seat", "2=bot", "--log", str(log))
    child.expect(PROMPT_1)
    child.sendline("bid 2")
    child.expect("You bid 2 on the")
    child.expect(PROMPT_1)

    def interrupt() -> None:
        if how == "ctrl-c":
            child.sendintr()
        else:
            child.kill(signal.SIGTERM if how == "sigterm" else signal.SIGHUP)

    # The prompt is written just before the child blocks reading; a signal that
    # lands in between is only acted on at the next signal (a CPython race, not
    # ours), so give it a moment, and one more signal if it is still waiting.
    time.sleep(0.5)
    interrupt()
    if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=10) == 1:
        interrupt()
        child.expect(pexpect.EOF)
    if how != "sighup":  # after a hang-up the terminal is gone: nothing is shown
        assert f"Interrupted; game saved to {log}" in child.before
        # The same resume hint as quit and Ctrl-D give, as a command that works as
        # printed (this gameweave was started as python -m gameweave_cli).
        again = f"{shlex.quote(sys.executable)} -m gameweave_cli play --resume {log}"
        assert f"Continue with:\r\n  {again}\r\n" in child.before
    child.close()
    assert child.exitstatus == 130
    assert [e.seat for e in MatchLog.load(log).actions] == [2, 1, 2]


# -- The Museum Job in a small terminal --------------------------------------------

THIEF = r"seat 1 \(Thief\)> "
SECURITY = r"seat 2 \(Security 2[^>\n]*\)> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: Escape sequences that set a colour (foreground or background).
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def museum(
    tmp_path: Path, *args: str, no_color: bool = False, rows: int = 24, columns: int = 80
) -> pexpect.spawn:
    """``gameweave play museum`` in a pseudo-terminal (80 columns, 24 rows unless told)."""
    env = dict(os.environ)
    env[ENV_LOAD_PLUGINS] = "museum"
    env["TERM"] = "xterm-256color"
    for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        env.pop(name, None)
    if no_color:
        env["NO_COLOR"] = "1"
    log = tmp_path / "museum.toml"
    return pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", "play", "museum", "--seed", "3", "--log", str(log), *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(rows, columns),
    )


def rows_shown(raw: str, width: int = 80) -> list[str]:
    """The rows ``raw`` takes on a terminal ``width`` columns wide (colours removed,
    long lines wrapped as the terminal would)."""
    rows: list[str] = []
    for line in ANSI.sub("", raw).replace("\r", "").split("\n"):
        rows.extend([line[i : i + width] for i in range(0, len(line), width)] or [""])
    return rows


def last_screen(raw: str) -> list[str]:
    """The rows from the last turn's rule to the prompt."""
    rows = rows_shown(raw)
    start = max(i for i, row in enumerate(rows) if "── The Museum Job, step" in row)
    return rows[start:]


def test_a_museum_turn_fits_80_by_24(tmp_path: Path) -> None:
    child = museum(tmp_path)
    child.expect_exact("Seats: 1 = Thief, 2 = Security")
    child.expect_exact("Which seat do you want to play? [1]: ")
    child.sendline("")
    child.expect(THIEF)
    first = child.before
    assert "How to play: type a menu number or the move" in first
    # The first prompts explain the choices, with a square on offer as the example.
    assert re.search(r"enter [A-T][0-9]+: your first move: break in through the exit on", first)
    child.sendline("enter T4")
    turns = 0
    while turns < 3:  # past the two turns that teach
        assert child.expect([THIEF, "Game over"]) == 0, "the heist ended too soon for this test"
        turns += 1
        screen = child.before + child.after
        if turns < 3:
            child.sendline("hold")
    rows = last_screen(screen)
    assert len(rows) <= 24, "\n".join(rows)
    assert all(len(row) <= 80 for row in rows), "a line wrapped"
    text = "\n".join(rows)
    assert "    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q  R  S  T" in text
    assert re.search(r"^ 14 ", text, flags=re.MULTILINE)  # the whole map
    # and the menu, whole or ending in how to see the rest
    assert " hold" in rows[-2] or "type 'menu' to list them all" in rows[-2]
    assert rows[-1].startswith("seat 1 (Thief)>")
    for word in ("guard", "last seen", "vault case", "watched now", "Office", "wall"):
        assert re.search(rf"\s{word}(\s|$)", text), word  # the legend, words whole
    assert "You at " in text and "Cases (h heavy):" in text
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_no_color_still_marks_what_the_monitors_watch(tmp_path: Path) -> None:
    child = museum(tmp_path, "--seat", "2=human", "--seat", "1=bot", no_color=True)
    for post in ("post 1 J4", "post 2 B7", "post 3 K12"):
        child.expect(SECURITY)
        child.sendline(post)
    child.expect(SECURITY)  # guard 1 to move, after the Thief's turns
    assert "monitors off" in ANSI.sub("", child.before)
    child.sendline("guard 1 J7")  # into the Security Office: the monitors are watched
    child.expect(SECURITY)
    screen = child.before
    assert not COLOUR.search(screen), "a colour was sent although NO_COLOR is set"
    rows = last_screen(screen + child.after)
    assert len(rows) <= 24
    board = [row for row in rows if re.match(r"^ {1,2}\d{1,2} ", row)]  # not the menu's
    assert len(board) == 14, board
    assert sum(row.count("+") for row in board) > 10  # watched squares, by glyph
    assert "monitors on" in "\n".join(rows)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_rules_are_paged_to_the_terminal(tmp_path: Path) -> None:
    child = museum(tmp_path, "--seat", "1=human", rows=16)
    child.expect(THIEF)
    child.sendline("rules actions")
    child.expect_exact("-- more: Enter for the next page, q to stop -- ")
    page = rows_shown(child.before)
    heading = next(n for n, row in enumerate(page) if "The Museum Job: actions" in row)
    assert len(page[heading:]) == 16  # a page and its "more" line fill the 16 rows
    child.sendline("")
    child.expect("Rules topics: overview, moving, guards")
    child.expect(THIEF)
    child.sendline("rules crown")
    child.expect("vault")
    child.expect(THIEF)
    assert "-- more" not in child.before  # a short topic is not paged
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_wide_terminal_puts_the_placards_beside_the_map(tmp_path: Path) -> None:
    child = museum(tmp_path, "--seat", "1=human", rows=40, columns=132)
    child.expect(THIEF)
    child.sendline("enter T4")
    child.expect(THIEF)
    rows = rows_shown(child.before, width=132)
    start = max(i for i, row in enumerate(rows) if "── The Museum Job, step" in row)
    rows = rows[start:]
    assert all(len(row) <= 132 for row in rows)
    # The whole width: a map row carries a placard with its full name beside it.
    assert any(re.match(r"^ 1[0-4] .* 1[0-4] +[A-Z]\d+ \d", row) for row in rows), rows
    assert any("Crown of the Estuary" in row and row.startswith(" ") for row in rows)
    assert any(row.rstrip().endswith("You are Thief") for row in rows)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_simulate_shows_the_time_elapsed_and_the_time_remaining(child_env: Any) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", "simulate", "sealedbid", "-n", "400", "--seed", "1"],
        env=child_env,
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 100),
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # The bar (drawn from the start, so even a fast run shows it): games done of all,
    # then the time elapsed and the time remaining (-:--:-- until there is an estimate).
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    clock = r"(?:\d+:\d\d:\d\d|-:--:--)"
    assert re.search(rf"\d+/400 +{clock} +{clock}", screen), screen[:300]
