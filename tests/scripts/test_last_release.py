"""Scripts written against the last release keep running.

A notebook or a maintainer's script names an installed title and plays it, saves the
log and reads it back, without building a registry (as it could before registries
were passed around). The script below is such a script, run as its author runs it:
a separate Python process, outside any test plugin.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
from gameweave_core import Match

match = Match.create("masterthief", 2, seed=1)
while not match.is_over and match.step < 60:
    seat = match.awaiting[0]
    match.submit(seat, match.legal_actions(seat)[0])
match.save(sys.argv[1])
again = Match.load(sys.argv[1], verify=True)
assert again.digest() == match.digest() and again.step == match.step
print(match.distribution, match.step)
"""


def test_a_script_of_the_last_release_plays_saves_and_reloads(tmp_path: Path) -> None:
    log = tmp_path / "script.toml"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(log)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    distribution, steps = done.stdout.split()
    assert distribution == "gameweave-master-thief" and int(steps) > 0
    assert "masterthief" in log.read_text()
