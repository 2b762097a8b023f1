"""The compiled build's guard rails: the sources never sit beside compiled modules,
the build compiles what the tests check, and it refuses an editable install."""

from __future__ import annotations

import ast
import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COMPILED_MODULES, expect_compiled, module_files

from gameweave_core import Rng
from gameweave_house import HouseJob

HOUSE = Path(__file__).resolve().parent.parent
ROOT = HOUSE.parent  # the repository (HOUSE is gameweave_house/)
SOURCES = HOUSE / "gameweave_house"


def test_the_imported_build_is_the_expected_one() -> None:
    files = module_files()
    if expect_compiled():
        assert all(f.endswith(".so") for f in files.values()), files
    else:
        assert all(f.endswith(".py") for f in files.values()), (
            f"compiled House modules imported in a pure run: {files}; "
            "set GAMEWEAVE_EXPECT_COMPILED=1 for the compiled build"
        )


def test_no_compiled_module_sits_beside_the_sources() -> None:
    for folder in (SOURCES, ROOT / "gameweave_core"):
        stale = sorted(p.name for p in folder.iterdir() if p.suffix in (".so", ".pyd"))
        assert not stale, f"extension modules in {folder} would shadow the sources: {stale}"


def compiled_list(folder: Path) -> list[str]:
    """The ``COMPILED`` list of ``folder/setup.py``."""
    tree = ast.parse((folder / "setup.py").read_text(encoding="utf-8"))
    listed = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    )
    paths = ast.literal_eval(listed)
    assert all((folder / p).is_file() for p in paths)
    return [p.removesuffix(".py").replace("/", ".") for p in paths]


def test_setup_compiles_the_modules_the_tests_check() -> None:
    # The House distribution compiles its rules, the core distribution its hot path.
    assert (*compiled_list(HOUSE), *compiled_list(ROOT)) == COMPILED_MODULES


@pytest.mark.parametrize("command", ["develop", "editable_wheel"])
def test_a_compiled_editable_install_is_refused(command: str) -> None:
    env = {**os.environ, "GAMEWEAVE_COMPILE": "1"}
    done = subprocess.run(
        [sys.executable, str(HOUSE / "setup.py"), command],
        cwd=HOUSE,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "builds into a wheel only" in done.stderr
    assert not [p for p in SOURCES.iterdir() if p.suffix == ".so"]


def test_a_state_deep_copies_and_pickles_to_an_equal_state() -> None:
    # The compiled classes build a copy through __init__ first (see state.Box).
    title = HouseJob()
    rng = Rng(3)
    state = title.setup(3, title.check_config(3, {}), rng)
    while len(state.boxes) < 3 or not state.dealer:  # draft, bets, the deal
        seat = title.awaiting(state)[0]
        title.apply(state, seat, title.legal_actions(state, seat)[0], rng)
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state and twin is not state
        assert twin.boxes[0].hands[0] is not state.boxes[0].hands[0]
