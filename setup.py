"""Optional compiled build of The House Job's rules (the metadata is in pyproject.toml).

A plain ``pip install .`` or ``pip install -e .`` builds pure Python. With
``GAMEWEAVE_COMPILE=1`` the House rules modules are compiled with mypyc into the
wheel, beside their unchanged ``.py`` sources, the way black and mypy ship::

    GAMEWEAVE_COMPILE=1 pip install --no-build-isolation .

``--no-build-isolation`` uses the mypy already installed; without it pip fetches
mypy into a throwaway build environment. The compiled modules only ever go into a
wheel: an editable install or ``build_ext --inplace`` with ``GAMEWEAVE_COMPILE=1`` is
refused, because an extension module beside ``rules.py`` would shadow every later
edit of the source.
"""

from __future__ import annotations

import os
import sys
import tomllib

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

#: The modules compiled: the hot path of random play. The House Job's state, cards,
#: rules, dealer play and settlement, and the core's match, bot observations, bot
#: runner and random numbers (the core must shrink with the rules it drives, or its
#: share of the time grows). Everything else stays interpreted.
COMPILED = [
    "gameweave_house/state.py",
    "gameweave_house/cards.py",
    "gameweave_house/dealer.py",
    "gameweave_house/settle.py",
    "gameweave_house/rules.py",
    "gameweave_core/rng.py",
    "gameweave_core/bots.py",
    "gameweave_core/match.py",
    "gameweave_core/runner.py",
]
#: Where mypyc writes its C and setuptools its objects: apart from the pure build's
#: ``build/lib`` so a later pure wheel can never pick up a stale extension module.
BUILD_BASE = os.path.join("build", "compiled")

COMPILE = os.environ.get("GAMEWEAVE_COMPILE", "") == "1"
EDITABLE_COMMANDS = {"develop", "editable_wheel"}
METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}


def _dependencies() -> list[str]:
    with open("pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


class CompiledDistribution(Distribution):
    """Says it has extension modules, so the wheel is tagged for this platform, while
    mypyc itself runs only when ``build_ext`` does (not for every metadata query)."""

    def has_ext_modules(self) -> bool:
        return True


class MypycBuildExt(build_ext):
    """``build_ext`` that runs mypyc first and refuses to build beside the sources."""

    def finalize_options(self) -> None:
        if self.inplace or getattr(self, "editable_mode", False):
            raise SystemExit(
                "GAMEWEAVE_COMPILE=1 builds into a wheel only; drop -e / --inplace "
                "(compiled modules beside the sources would shadow later edits)"
            )
        # Metadata queries (egg_info, dist_info, sdist) finalize build_ext too; only a
        # real build runs mypyc.
        if not self.distribution.ext_modules and not set(self.distribution.commands) <= (
            METADATA_COMMANDS
        ):
            from mypyc.build import mypycify

            self.distribution.ext_modules = mypycify(
                COMPILED,
                opt_level="3",
                group_name="gameweave",
                target_dir=os.path.join(BUILD_BASE, "mypyc"),
            )
        super().finalize_options()


if COMPILE and EDITABLE_COMMANDS & set(sys.argv):
    raise SystemExit(
        "GAMEWEAVE_COMPILE=1 builds into a wheel only; an editable install stays pure "
        "Python (use `pip install --no-build-isolation .` without -e)"
    )

if COMPILE:
    setup(
        distclass=CompiledDistribution,
        cmdclass={"build_ext": MypycBuildExt},
        options={"build": {"build_base": BUILD_BASE}},
        # Only read with build isolation: the backend installs these before building.
        # mypy type-checks the compiled modules, so it needs the project's own
        # dependencies (attrs, pluggy...) beside it.
        setup_requires=["mypy>=1.10", *_dependencies()],
    )
else:
    setup()
