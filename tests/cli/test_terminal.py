"""Real games in a pseudo-terminal: a person typing moves at ``gameweave play``."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from gameweave_core import Match, MatchLog

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
    child.expect("Your move, seat 1 \\(Bidder 1\\)")
    child.expect(PROMPT_1)
    child.sendline("bid 25")
    child.expect("Not accepted: you hold 20 coins and cannot bid 25")
    child.expect(PROMPT_1)
    child.sendline("help")
    child.expect("save the log and leave")
    child.expect(PROMPT_1)
    child.sendline("6")  # menu item 6: bid 5
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
    assert Match.load(log, verify=True).is_over


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
    child = spawn(child_env, "--seed", "21", "--log", str(log))
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
    child.close()
    assert child.exitstatus == 130
    assert [e.seat for e in MatchLog.load(log).actions] == [2, 1, 2]
