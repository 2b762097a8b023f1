"""The peers' own environment: ``benchmarks/.venv-peers``, never the project's.

OpenSpiel and RLCard are installed there from PyPI at pinned versions; their
workloads run in a worker subprocess of that environment. py-spy, the sampling
profiler the server benchmark uses, lives there too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-peers"
PYTHON = VENV / "bin" / "python"
#: Pinned so that figures from different days compare like with like. PettingZoo's
#: tictactoe_v3 (the RL benchmark's peer) imports pygame for its rendering.
REQUIREMENTS = (
    "open-spiel==2.0.2",
    "rlcard==1.2.0",
    "py-spy==0.4.3",
    "pettingzoo==1.27.0",
    "pygame==2.6.1",
)
STAMP = VENV / ".installed"


def ensure(base_python: str | None = None, quiet: bool = True) -> Path:
    """Create the peers' environment if it is missing or out of date; return its python."""
    wanted = "\n".join(REQUIREMENTS) + "\n"
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return PYTHON
    base = base_python or _base_python()
    print(
        f"benchmarks: installing the peers into {VENV} ({', '.join(REQUIREMENTS)})",
        file=sys.stderr,
        flush=True,
    )
    subprocess.run([base, "-m", "venv", str(VENV)], check=True)
    pip = [str(PYTHON), "-m", "pip", "--disable-pip-version-check"]
    if quiet:
        pip.append("--quiet")
    subprocess.run([*pip, "install", *REQUIREMENTS], check=True)
    STAMP.write_text(wanted)
    return PYTHON


def py_spy() -> Path:
    """The py-spy executable of the peers' environment."""
    ensure()
    return VENV / "bin" / "py-spy"


def _base_python() -> str:
    # The interpreter the project's venv was made from, so the peers run on the same
    # CPython release as the project.
    base = getattr(sys, "_base_executable", None) or sys.executable
    return str(base)


if __name__ == "__main__":
    print(ensure(quiet=False))
