"""mypy checks a title's modules against the calls the core makes
(:mod:`gameweave_core.protocols`): a wrong signature is an error in the class
statement that names the module, in the package layout and in one file; and a title
made by ``gameweave new`` type-checks from its own folder in the environment ``make``
builds, with no MYPYPATH (the checkout's .pth puts the core on mypy's path)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "benchmarks" / "tictactoe" / "gameweave_tictactoe.py"
SEALED = ROOT / "docs" / "tutorial" / "sealed-bid" / "gameweave_sealedbid"

#: Tic-tac-toe's apply, and the same with one more required argument.
APPLY = "def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:"
WRONG_APPLY = (
    "def apply(state: State, seat: int, action: Any, rng: Rng, extra: int) -> list[Event]:"
)


def mypy(folder: Path, *targets: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` run from ``folder`` as a title's author runs it there."""
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), *targets],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


def test_one_file_title_with_a_wrong_apply_fails_mypy(tmp_path: Path, cache: Path) -> None:
    source = TICTACTOE.read_text(encoding="utf-8")
    assert source.count(APPLY) == 1
    (tmp_path / TICTACTOE.name).write_text(source, encoding="utf-8")
    good = mypy(tmp_path, TICTACTOE.name, cache=cache)
    assert good.returncode == 0, good.stdout + good.stderr
    (tmp_path / TICTACTOE.name).write_text(source.replace(APPLY, WRONG_APPLY), encoding="utf-8")
    bad = mypy(tmp_path, TICTACTOE.name, cache=cache)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert 'Argument "game" to "__init_subclass__" of "ModuleTitle"' in bad.stdout
    assert "extra: int" in bad.stdout  # mypy shows the signature it got


def test_package_title_with_a_wrong_apply_fails_mypy(tmp_path: Path, cache: Path) -> None:
    package = tmp_path / SEALED.name
    shutil.copytree(SEALED, package, ignore=shutil.ignore_patterns("__pycache__"))
    good = mypy(tmp_path, SEALED.name, cache=cache)
    assert good.returncode == 0, good.stdout + good.stderr
    rules = package / "rules.py"
    text = rules.read_text(encoding="utf-8")
    head = "def apply(state: State, seat: int, action: Any, rng: Rng)"
    assert text.count(head) == 1
    rules.write_text(text.replace(head, head[:-1] + ", extra: int)"), encoding="utf-8")
    bad = mypy(tmp_path, SEALED.name, cache=cache)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert 'Argument "rules" to "__init_subclass__" of "ModuleTitle"' in bad.stdout


def test_a_new_title_type_checks_from_its_own_folder(tmp_path: Path, cache: Path) -> None:
    from gameweave_cli.scaffold import write_title

    write_title("typedemo", tmp_path / "typedemo")
    done = mypy(tmp_path / "typedemo", ".", cache=cache)
    assert done.returncode == 0, done.stdout + done.stderr
