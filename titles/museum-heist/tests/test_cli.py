"""`gameweave play museumheist` in a real process: typed actions reach the match
and the saved log replays."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gameweave_museumheist.actions import Choose

from gameweave_core import Match, default_registry


def test_play_reads_typed_actions_and_saves_a_log_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "heist.toml"
    env = {**os.environ, "GAMEWEAVE_LOAD_PLUGINS": "museumheist", "COLUMNS": "80", "LINES": "24"}
    script = "choose duchess\nmove duchess Z9\n1\n"
    done = subprocess.run(
        [sys.executable, "-m", "gameweave_cli", "play", "museumheist", "--players", "2",
         "--seed", "3", "--log", str(log)],
        input=script, capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert "your card: The Duchess" in out
    assert "'Z9' is not a square" in out
    match = Match.load(log, verify=True, registry=default_registry())
    mine = [action for seat, action in match.actions() if seat == 1]
    # The choice, then menu item 1 on seat 1's first turn; the bad square changed nothing.
    assert len(mine) == 2
    assert match.title.codec.from_json(mine[0]) == Choose("duchess")
    assert match.view(1)["you"]["card"] == "duchess"
