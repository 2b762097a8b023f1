"""The script ``make tutorial`` uses to read ``gameweave games --json``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

SCRIPT_DIR = Path(__file__).resolve().parents[2] / "docs" / "tutorial"
if str(SCRIPT_DIR) not in sys.path:
    sys.path.insert(0, str(SCRIPT_DIR))

import check_listed  # noqa: E402  (docs/tutorial/check_listed.py, put on the path above)


def run(monkeypatch: pytest.MonkeyPatch, stdin: str, *wanted: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return check_listed.main(list(wanted))


def test_passes_when_every_title_is_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = json.dumps([{"name": "museum"}, {"name": "sealedbid"}])
    assert run(monkeypatch, rows, "sealedbid") == 0
    assert "listed: museum, sealedbid" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("stdin", "complaint"),
    [
        ('[{"name": "museum"}]', "not listed: sealedbid; listed: museum"),
        ("[]", "not listed: sealedbid; listed: none"),
        ("", "cannot read the title list"),
        ('{"sealedbid": 1}', "cannot read the title list"),
    ],
)
def test_fails_with_one_line_otherwise(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, complaint: str
) -> None:
    assert run(monkeypatch, stdin, "sealedbid") == 1
    err = capsys.readouterr().err
    assert complaint in err and err.count("\n") == 1


def test_the_real_command_lists_json_rows() -> None:
    from typer.testing import CliRunner

    from gameweave_cli.app import app

    result = CliRunner().invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    names = {row["name"] for row in json.loads(result.stdout)}
    assert names  # the project's own titles are installed in the dev environment
