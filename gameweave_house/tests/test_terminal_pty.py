"""The House Job typed at ``gameweave play`` in an 80x24 pseudo-terminal without colour:
the draft describes the roles, a refused move says why in one line, a targeted
card's numbers are on the table, and the round a bot swept on is still shown when
it is your turn to bet again.

The compiled build's environment (``make test-compiled``) has no pexpect: the module
is skipped there, and nowhere else."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

if os.environ.get("GAMEWEAVE_EXPECT_COMPILED") == "1":
    pytest.importorskip("pexpect", reason="the compiled build's environment has no pexpect")

import pexpect

from gameweave_house.cards import stacked

# Draw order: first cards (Crew 1, Crew 2), the up-card, second cards, the hole card,
# then the draws: Crew 1 holds 10♠ 6♠ against the house's 6♦.
DECK = stacked("TS", "TH", "6D", "6S", "9H", "TD", "5C", "4C", "3C", "2C")
SLEIGHT = r"seat 1 \(Crew 1 \(Sleight\)\)> "


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_a_round_typed_at_an_80_by_24_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, NO_COLOR="1", TERM="xterm", GAMEWEAVE_LOAD_PLUGINS="house")
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    deck = "[" + ", ".join(f'"{c}"' for c in DECK) + "]"
    args = ["play", "house", "--players", "2", "--seat", "1=human", "--seed", "3"]
    args += ["--option", f"deck={deck}", "--log", str(tmp_path / "job.toml")]
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 80),
    )
    try:
        child.expect(r"seat 1 \(Crew 1\)> ")
        draft = plain(child.before)
        assert "Sleight: Moves cards: swaps, replaces and reorders them" in draft
        assert "rules roles: what every passive and card does" in draft
        child.sendline("draft sleight")
        child.expect(SLEIGHT)

        child.sendline("deal")
        child.expect(SLEIGHT)
        assert "Not accepted: bet at least 10 first" in plain(child.before)
        child.sendline("play palm for 10")
        child.expect(SLEIGHT)
        refused = plain(child.before)
        assert (
            "Not accepted: Palm takes a box, one of your own cards and a card, not an amount"
            in (refused)
        )

        child.sendline("+10")
        child.expect(SLEIGHT)
        child.sendline("deal")
        child.expect(SLEIGHT)
        table = plain(child.before)
        assert "Crew 1  bet 10  [1]10♠ [2]6♠  16  PLAYING" in table
        assert "play palm box B mine M card C" in table

        # Crew 1 stands; the bot plays, the round settles, the bot presses Next round
        # and bets at once. At Crew 1's next betting turn round 1 is still shown.
        child.sendline("stand")
        child.expect(SLEIGHT)
        screen = plain(child.before)
        screen = screen[screen.rindex("The House Job, step") :]
        assert "Round 2 betting — you to bet" in screen
        assert re.search(r"Round 1 settled: the house \d+ \(6♦ 10♦", screen), screen
        assert re.search(r"Crew 1  10♠ 6♠  16  (LOSS  -10|WIN  \+10|PUSH  0)", screen), screen
        assert all(len(line) <= 80 for line in screen.splitlines()), screen
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
