"""``gameweave new``: the new title's files, and its tests passing as written (the
Makefile's ``scaffold`` target installs the same output into a fresh environment)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gameweave_cli.app import app

RUFF = Path(sys.executable).parent / "ruff"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("new") / "lanterns"
    result = CliRunner().invoke(app, ["new", "lanterns", str(folder), "--display", "Lanterns"])
    assert result.exit_code == 0, result.output
    return folder, result.output


def test_it_writes_a_distribution_with_its_tests_and_a_golden_log(made: tuple[Path, str]) -> None:
    folder, output = made
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert files == [
        "LICENSE",
        "README.md",
        "gameweave_lanterns.py",
        "pyproject.toml",
        "tests/conftest.py",
        "tests/golden/lanterns.expected.json",
        "tests/golden/lanterns.toml",
        "tests/test_lanterns.py",
    ]
    pyproject = (folder / "pyproject.toml").read_text()
    assert '[project.entry-points.gameweave]\nlanterns = "gameweave_lanterns"' in pyproject
    # The tests ask for Gameweave's pytest plugin themselves (it never loads unasked).
    conftest = (folder / "tests" / "conftest.py").read_text()
    assert 'pytest_plugins = ["gameweave_core.pytest_plugin"]' in conftest
    module = (folder / "gameweave_lanterns.py").read_text()
    assert "class Lanterns(ModuleTitle[State], game=gameweave_lanterns):" in module
    assert 'display_name = "Lanterns"' in module
    assert f"wrote {folder / 'tests' / 'golden' / 'lanterns.toml'}" in output
    assert f"next: cd {folder}" in output


def test_its_tests_and_checks_pass_as_written(made: tuple[Path, str]) -> None:
    folder, _ = made
    env = {**os.environ, "PYTHONPATH": str(folder)}
    env.pop("GAMEWEAVE_UPDATE_GOLDEN", None)
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert " passed" in tests.stdout and "failed" not in tests.stdout
    # ruff with the new project's own settings (its pyproject.toml).
    for command in (["check", "."], ["format", "--check", "."]):
        lint = subprocess.run([str(RUFF), *command], cwd=folder, capture_output=True, text=True)
        assert lint.returncode == 0, lint.stdout + lint.stderr


def test_its_conformance_class_checks_the_golden_log(made: tuple[Path, str]) -> None:
    """The kit runs the recorded game (the class names the folder): an edited
    expected screen fails it, naming the log."""
    folder, _ = made
    copy = folder.parent / "lanterns-edited"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    expected = copy / "tests" / "golden" / "lanterns.expected.json"
    expected.write_text(expected.read_text().replace('"digest": "', '"digest": "0', 1))
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env.pop("GAMEWEAVE_UPDATE_GOLDEN", None)
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "golden"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert tests.returncode == 1, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert "lanterns.toml no longer plays the same" in tests.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "Big Game"], "'Big Game' cannot name a title: use 2 to 30 lowercase letters"),
        (["new", "x"], "'x' cannot name a title"),
        (["new", "ok", "--display", 'say "hi"'], "without double quotes or backslashes"),
    ],
)
def test_a_name_that_cannot_be_a_slug_is_one_line_and_writes_nothing(
    runner: CliRunner, cd_tmp: Path, args: list[str], message: str
) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert list(cd_tmp.iterdir()) == []


def test_an_existing_folder_with_files_is_left_alone(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = runner.invoke(app, ["new", "lanterns", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path} already exists and is not an empty folder" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
