"""Optional compiled build of the core's hot path (the metadata is in pyproject.toml).

With ``GAMEWEAVE_COMPILE=1`` the modules below are compiled with mypyc into the wheel;
without it this is a plain pure-Python build. The machinery, and why it refuses an
editable install, is in ``tools/mypyc_build.py``; The House Job's rules have their own
list in ``gameweave_house/setup.py``.
"""

from __future__ import annotations

import os
import sys
import tomllib

#: The core's hot path of random play: the match, bot observations, the bot runner,
#: random numbers and the events the match files. A compiled title spends most of its
#: time here once its own rules are compiled (with only the House rules compiled, Match
#: cost about 1.5 times the rules).
COMPILED = [
    "gameweave_core/rng.py",
    "gameweave_core/bots.py",
    "gameweave_core/events.py",
    "gameweave_core/match.py",
    "gameweave_core/runner.py",
]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools"))
from mypyc_build import setup_with_optional_mypyc  # noqa: E402

with open("pyproject.toml", "rb") as f:
    _requires = list(tomllib.load(f)["project"]["dependencies"])

setup_with_optional_mypyc(COMPILED, "gameweave_core", _requires)
