"""``gameweave games`` and the plumbing every command shares."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gameweave_cli.app import app

from .conftest import make_dist


def test_games_table_lists_the_installed_title(installed: Any, runner: CliRunner) -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "sealedbid" in result.stdout
    assert "Sealed Bids" in result.stdout
    assert "2-4" in result.stdout
    assert "gameweave-sealedbid 1.0.0" in result.stdout


def test_games_json_has_exactly_the_documented_keys(installed: Any, runner: CliRunner) -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [
        {
            "name": "sealedbid",
            "display_name": "Sealed Bids",
            "min_players": 2,
            "max_players": 4,
            "version": "3",
            "distribution": "gameweave-sealedbid",
            "options": {},
        }
    ]


def test_games_with_nothing_installed(
    installed: Any, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gameweave_core import default_registry

    monkeypatch.setenv("GAMEWEAVE_LOAD_PLUGINS", "")
    default_registry.cache_clear()
    assert json.loads(runner.invoke(app, ["games", "--json"]).stdout) == []
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "No titles are installed" in result.stdout


def test_a_plugin_that_fails_to_load_is_one_error_line(
    installed: Any, runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from gameweave_core import default_registry

    monkeypatch.syspath_prepend(str(make_dist(tmp_path, "broken", {"broken": "no_such_mod"})))
    monkeypatch.setenv("GAMEWEAVE_LOAD_PLUGINS", "sealedbid,broken")
    default_registry.cache_clear()
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: plugin 'broken' (no_such_mod) failed to load")


def test_every_command_has_help(runner: CliRunner) -> None:
    for command in ("games", "play", "replay", "simulate", "serve"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, command
        assert "Usage" in result.stdout


def test_module_entry_point_runs_the_app(child_env: Any) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gameweave_cli", "games", "--json"],
        env=child_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert [row["name"] for row in json.loads(done.stdout)] == ["sealedbid"]
