"""The opt-in mypyc build shared by the distributions that have one.

``setup.py`` (the core) and ``gameweave_house/setup.py`` (The House Job) each name the modules
they compile and call :func:`setup_with_optional_mypyc`. A plain ``pip install`` or
``pip install -e`` builds pure Python. With ``GAMEWEAVE_COMPILE=1`` the listed modules
are compiled with mypyc into the wheel, beside their unchanged ``.py`` sources, the way
black and mypy ship::

    GAMEWEAVE_COMPILE=1 pip install --no-build-isolation .

``--no-build-isolation`` uses the mypy already installed (mypy type-checks the compiled
modules, so the distribution's dependencies must be installed beside it). The compiled
modules only ever go into a wheel: an editable install or ``build_ext --inplace`` with
``GAMEWEAVE_COMPILE=1`` is refused, because an extension module beside ``rules.py``
would shadow every later edit of the source.
"""

from __future__ import annotations

import os
import sys

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

#: Where mypyc writes its C and setuptools its objects: apart from the pure build's
#: ``build/lib`` so a later pure wheel can never pick up a stale extension module.
BUILD_BASE = os.path.join("build", "compiled")

EDITABLE_COMMANDS = {"develop", "editable_wheel"}
METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}
REFUSED = (
    "GAMEWEAVE_COMPILE=1 builds into a wheel only; drop -e / --inplace "
    "(compiled modules beside the sources would shadow later edits)"
)


def compiling() -> bool:
    return os.environ.get("GAMEWEAVE_COMPILE", "") == "1"


class CompiledDistribution(Distribution):
    """Says it has extension modules, so the wheel is tagged for this platform, while
    mypyc itself runs only when ``build_ext`` does (not for every metadata query)."""

    def has_ext_modules(self) -> bool:
        return True


def mypyc_build_ext(modules: list[str], group: str) -> type[build_ext]:
    """A ``build_ext`` that runs mypyc on ``modules`` first and refuses to build
    beside the sources."""

    class MypycBuildExt(build_ext):
        def finalize_options(self) -> None:
            if self.inplace or getattr(self, "editable_mode", False):
                raise SystemExit(REFUSED)
            # Metadata queries (egg_info, dist_info, sdist) finalize build_ext too; only
            # a real build runs mypyc.
            if not self.distribution.ext_modules and not set(self.distribution.commands) <= (
                METADATA_COMMANDS
            ):
                from mypyc.build import mypycify

                self.distribution.ext_modules = mypycify(
                    modules,
                    opt_level="3",
                    group_name=group,
                    target_dir=os.path.join(BUILD_BASE, "mypyc"),
                )
            super().finalize_options()

    return MypycBuildExt


def setup_with_optional_mypyc(modules: list[str], group: str, requires: list[str]) -> None:
    """``setup()``, compiling ``modules`` with mypyc when ``GAMEWEAVE_COMPILE=1``.

    ``requires`` are the distribution's own dependencies, which mypy needs beside it
    when pip builds in an isolated environment.
    """
    if not compiling():
        setup()
        return
    if EDITABLE_COMMANDS & set(sys.argv):
        raise SystemExit(REFUSED)
    setup(
        distclass=CompiledDistribution,
        cmdclass={"build_ext": mypyc_build_ext(modules, group)},
        options={"build": {"build_base": BUILD_BASE}},
        setup_requires=["mypy>=1.10", *requires],
    )
