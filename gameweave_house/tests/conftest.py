"""With ``GAMEWEAVE_EXPECT_COMPILED=1`` (``make test-compiled``) every House test
first proves it runs the mypyc-compiled modules, not the sources beside the tests."""

from __future__ import annotations

import importlib
import os

import pytest

# Gameweave's pytest plugins, asked for here and nowhere else: every match seeded, one
# Hypothesis policy, and the server and browser fixtures ("Tests that give one answer").
pytest_plugins = ["gameweave_core.pytest_plugin", "gameweave_http.testing"]

#: The modules setup.py compiles (a test checks the two lists agree): the House
#: rules and the core's hot path, which every House test drives.
COMPILED_MODULES = (
    "gameweave_house.state",
    "gameweave_house.cards",
    "gameweave_house.deck",
    "gameweave_house.history",
    "gameweave_house.dealer",
    "gameweave_house.settle",
    "gameweave_house.roles",
    "gameweave_house.abilities",
    "gameweave_house.choices",
    "gameweave_house.rules",
    "gameweave_core.rng",
    "gameweave_core.bots",
    "gameweave_core.events",
    "gameweave_core.match",
    "gameweave_core.runner",
)


def expect_compiled() -> bool:
    return os.environ.get("GAMEWEAVE_EXPECT_COMPILED", "") == "1"


def module_files() -> dict[str, str]:
    return {name: str(importlib.import_module(name).__file__) for name in COMPILED_MODULES}


@pytest.fixture(autouse=True, scope="session")
def _compiled_build_is_the_one_imported() -> None:
    if not expect_compiled():
        return
    plain = {name: path for name, path in module_files().items() if not path.endswith(".so")}
    if plain:
        pytest.fail(
            f"GAMEWEAVE_EXPECT_COMPILED=1 but these modules are plain Python: {plain}",
            pytrace=False,
        )
