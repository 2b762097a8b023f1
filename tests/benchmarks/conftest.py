"""The benchmark's tic-tac-toe title is imported from its folder, as the benchmark's
server imports it: it is not installed into any environment."""

from __future__ import annotations

import sys
from pathlib import Path

TICTACTOE = Path(__file__).resolve().parents[2] / "benchmarks" / "tictactoe"
if str(TICTACTOE) not in sys.path:
    sys.path.insert(0, str(TICTACTOE))
