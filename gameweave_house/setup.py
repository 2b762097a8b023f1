"""Optional compiled build of The House Job's rules (the metadata is in pyproject.toml).

With ``GAMEWEAVE_COMPILE=1`` the modules below are compiled with mypyc into the wheel;
without it this is a plain pure-Python build. The machinery, and why it refuses an
editable install, is shared with the core's build in ``../tools/mypyc_build.py``, so
the compiled build is made from a checkout of the repository (``make compiled``).
"""

from __future__ import annotations

import os
import sys
import tomllib

#: The hot path of a House hand: state, cards, the deck, history lines, dealer play,
#: settlement, the ability cards, and the rules.
COMPILED = [
    "gameweave_house/state.py",
    "gameweave_house/cards.py",
    "gameweave_house/deck.py",
    "gameweave_house/history.py",
    "gameweave_house/dealer.py",
    "gameweave_house/settle.py",
    "gameweave_house/roles.py",
    "gameweave_house/abilities.py",
    "gameweave_house/choices.py",
    "gameweave_house/rules.py",
]

if os.environ.get("GAMEWEAVE_COMPILE", "") == "1":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "tools"))
    from mypyc_build import setup_with_optional_mypyc

    with open("pyproject.toml", "rb") as f:
        _requires = list(tomllib.load(f)["project"]["dependencies"])
    setup_with_optional_mypyc(COMPILED, "gameweave_house", _requires)
else:
    from setuptools import setup

    setup()
