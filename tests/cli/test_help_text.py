"""Every command's ``--help`` reads cleanly in an 80-column terminal (issue 39.10):
nothing cropped (``--forwarded-allow-i…``), no flag shown with a type (``<bool>``),
no argument in braces (``{title}``), values named by their kind."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

COMMANDS = ["", "games", "rules", "play", "replay", "simulate", "serve", "new"]


def help_of(command: str) -> str:
    argv = [sys.executable, "-m", "gameweave_cli", *([command] if command else []), "--help"]
    env = {**os.environ, "COLUMNS": "80", "TERM": "xterm"}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("command", COMMANDS, ids=[c or "gameweave" for c in COMMANDS])
def test_help_fits_80_columns_uncropped_in_plain_words(command: str) -> None:
    text = help_of(command)
    assert "Usage: gameweave" in text
    for line in text.splitlines():
        assert len(line) <= 80, line
        assert "…" not in line, line
    for typed in ("<bool>", "<str>", "<int>", "<path>", "list[str]", "{"):
        assert typed not in text, f"{typed!r} in gameweave {command} --help:\n{text}"


def test_serve_help_names_every_option_whole() -> None:
    text = help_of("serve")
    for option in ("--forwarded-allow-ips TEXT", "--allowed-host TEXT", "--dev / --no-dev"):
        assert option in text, text


def test_arguments_are_named_in_capitals_in_the_usage_line() -> None:
    assert "Usage: gameweave rules [OPTIONS] TITLE [TOPIC]" in help_of("rules")
    assert "Usage: gameweave replay [OPTIONS] LOG" in help_of("replay")
