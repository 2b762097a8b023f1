"""The kit's golden logs: ``TitleConformance`` checks every log of the folder its
``golden`` names, and ``python -m gameweave_core.testing.record_golden`` records them
again from one place (the same bytes when the rules did not change)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gameweave_core import Registry
from gameweave_core.testing import TitleConformance, golden_path_expected, record_golden, record_new
from gameweave_core.testing.record_golden import main
from gameweave_sealedbid import SealedBid

#: Sealed Bids, which the dev environment does not install (the tutorial's title).
REGISTRY = Registry()
REGISTRY.add_title(SealedBid())


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command sees Sealed Bids as installed."""
    monkeypatch.setattr(record_golden, "default_registry", lambda: REGISTRY)


def recorded(folder: Path) -> list[Path]:
    """Two Sealed Bids games played by the title's bots, recorded in ``folder``."""
    return [
        record_new(folder, "sealedbid-2p", "sealedbid", 2, 5, registry=REGISTRY),
        record_new(
            folder, "sealedbid-3p", "sealedbid", 3, 9, ["random", "thrifty"], registry=REGISTRY
        ),
    ]


def kit(folder: Path | None) -> TitleConformance:
    class TestGolden(TitleConformance):
        title = SealedBid()
        golden = folder

    return TestGolden()


def test_the_kit_checks_every_log_of_the_golden_folder(tmp_path: Path) -> None:
    logs = recorded(tmp_path)
    assert all(golden_path_expected(log).exists() for log in logs)
    kit(tmp_path).test_golden_logs_play_the_same()


def test_an_edited_expected_screen_fails_naming_the_log(tmp_path: Path) -> None:
    _, three = recorded(tmp_path)
    expected = golden_path_expected(three)
    data = json.loads(expected.read_text())
    data["seats"]["1"]["history"].append("a line nobody was shown")
    expected.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    with pytest.raises(AssertionError) as caught:
        kit(tmp_path).test_golden_logs_play_the_same()
    message = str(caught.value)
    assert "1 of 2 golden logs no longer play the same" in message
    assert "sealedbid-3p.toml no longer plays the same" in message
    assert "record_golden --title sealedbid" in message


def test_a_log_the_rules_no_longer_reach_fails_naming_the_step(tmp_path: Path) -> None:
    two, _ = recorded(tmp_path)
    text = two.read_text()
    first = text.index('digest = "') + len('digest = "')
    two.write_text(text[:first] + "0" * 16 + text[first + 16 :])
    with pytest.raises(AssertionError, match=r"sealedbid-2p.toml: .*action 1.*digest"):
        kit(tmp_path).test_golden_logs_play_the_same()


def test_an_empty_golden_folder_fails_and_no_folder_is_one_skip_line(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="no golden log"):
        kit(tmp_path).test_golden_logs_play_the_same()
    with pytest.raises(pytest.skip.Exception, match="names no golden folder"):
        kit(None).test_golden_logs_play_the_same()


def test_recording_again_with_unchanged_rules_writes_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], installed: None
) -> None:
    first = tmp_path / "first"
    recorded(first)
    again = tmp_path / "again"
    shutil.copytree(first, again)
    # The expected files are written afresh, not kept: delete them first.
    for expected in again.glob("*.expected.json"):
        expected.unlink()
    assert main(["--title", "sealedbid", "--write", str(again)]) == 0
    assert "recorded" in capsys.readouterr().out
    for path in sorted(first.iterdir()):
        assert (again / path.name).read_bytes() == path.read_bytes(), path.name


def test_recording_an_unknown_title_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], installed: None
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--title", "nosuchgame", "--write", str(tmp_path)])
    assert stopped.value.code == 2
    assert "no installed title named 'nosuchgame'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_command_records_a_new_game_then_the_kit_passes_it(
    tmp_path: Path, installed: None
) -> None:
    args = ["--title", "sealedbid", "--write", str(tmp_path), "--record", "sealedbid-4p"]
    assert main([*args, "--players", "4", "--seed", "3", "--bots", "random"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "sealedbid-4p.expected.json",
        "sealedbid-4p.toml",
    ]
    kit(tmp_path).test_golden_logs_play_the_same()
