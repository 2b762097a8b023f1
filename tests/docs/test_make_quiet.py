"""``make play`` on a fresh clone (issue 39.7): the install prints one line, not the
sixty lines of setuptools warnings pip passes on; its output is kept in a log, shown
(its end) only when the install fails. The README says what ``make test`` installs.

The Makefile's install rule runs here with a stand-in for Python, whose ``-m venv``
makes a folder and whose ``-m pip`` prints what setuptools prints (and fails when
told to): the rule itself is what is tested, in seconds and without a network.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = """#!/bin/sh
if [ "$1" = -m ] && [ "$2" = venv ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0
fi
if [ "$1" = -m ] && [ "$2" = pip ]; then
  echo "BuildBackendWarning: Editable installation of a project in strict mode" >&2
  echo "!!  ****************************************************************" >&2
  echo "Successfully installed gameweave"
  if [ -n "$FAKE_PIP_FAILS" ]; then
    echo "ERROR: Could not find a version that satisfies the requirement" >&2
    exit 1
  fi
  exit 0
fi
exit 0
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

#: What a running make passes to the commands it starts.
MAKE_VARIABLES = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")


def install(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    venv = tmp_path / "venv"
    return subprocess.run(
        ["make", "--no-print-directory", f"VENV={venv}", f"PYTHON={python}", f"{venv}/.installed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # As a user runs it: not as a job of a make already running (`make check` -j),
        # whose MAKEFLAGS would hand it a jobserver it cannot reach.
        env={**{k: v for k, v in os.environ.items() if k not in MAKE_VARIABLES}, **env},
        timeout=120,
        check=False,
    )


def test_the_install_says_one_line_and_keeps_pips_output(tmp_path: Path) -> None:
    done = install(tmp_path)
    captures = ROOT / "test-output" / "terminal"
    captures.mkdir(parents=True, exist_ok=True)
    (captures / "make-install.txt").write_text(done.stdout + done.stderr)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    assert lines[0].startswith("Installing Gameweave and its games into")
    log = (tmp_path / "venv" / "install.log").read_text()
    assert "BuildBackendWarning" in log and "Successfully installed" in log
    assert (tmp_path / "venv" / ".installed").exists()


def test_a_failed_install_shows_the_end_of_its_log(tmp_path: Path) -> None:
    done = install(tmp_path, FAKE_PIP_FAILS="1")
    assert done.returncode != 0
    assert "ERROR: Could not find a version" in done.stderr
    assert "install.log" in done.stderr and "failed" in done.stderr
    assert not (tmp_path / "venv" / ".installed").exists()


def test_the_readme_says_what_make_test_installs() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "apt-get install -y chromium" in readme
    assert "sudo" in readme and "/usr/bin/chromium" in readme
    # The Makefile does what the README says.
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "apt-get install -y -qq chromium" in makefile and "SUDO=sudo" in makefile
