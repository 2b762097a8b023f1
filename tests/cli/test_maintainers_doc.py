"""The maintainers' page: its ``git bisect run`` example, run as it is written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

PAGE = ROOT / "docs" / "maintainers.md"


def bisect_script() -> str:
    blocks = re.findall(r"^```sh\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    script: str
    (script,) = [b for b in blocks if "git bisect run" in b and "git init" in b]
    return script


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_bisect_example_finds_the_commit_that_changed_the_rules(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "GAMEWEAVE_"))}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["TMPDIR"] = str(tmp_path)  # mktemp -d makes the throw-away repository here
    env["HOME"] = str(tmp_path)  # no user git configuration
    done = subprocess.run(
        ["bash", "-c", bisect_script()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    subjects = re.findall(r"^[0-9a-f]{7,} (Tiny Bids.*)$", done.stdout, re.M)
    assert subjects == [
        "Tiny Bids: a docstring",
        "Tiny Bids: one more coin each",
        "Tiny Bids: a summary",
        "Tiny Bids",
    ]
    # The good side verifies, the bad side names its first divergence, and git
    # names the commit that gave each player one more coin.
    assert "verified; 10 actions of tiny replay to the recorded state" in out
    assert "error: verify failed at action 1: ../game.toml: action 1:" in out
    found = re.search(r"^([0-9a-f]{40}) is the first bad commit$", out, re.M)
    assert found is not None, out
    assert re.search(r"^\s+Tiny Bids: one more coin each$", out[found.end() :], re.M)
