"""``gameweave replay``: views at any step, stepping, JSON, verification, bad logs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from gameweave_cli.app import app
from gameweave_cli.render import fold
from gameweave_core import Match, default_registry, play_out

from .conftest import ROOT


@pytest.fixture
def game(installed: Any, tmp_path: Path) -> Any:
    """A finished two-player game of Sealed Bids saved to a log; returns (path, match)."""
    match = play_out(Match.create("sealedbid", 2, 77, registry=default_registry()))
    path = tmp_path / "game.toml"
    match.save(path)
    return path, match


def replay(runner: CliRunner, *args: str | Path, input: str | None = None) -> Result:
    return runner.invoke(app, ["replay", *map(str, args)], input=input)


def one_error_line(result: Result) -> str:
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_replay_shows_the_end_as_a_spectator(game: Any, runner: CliRunner) -> None:
    path, match = game
    result = replay(runner, path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "step 10 of 10, as spectator" in out
    for line in match.history(None):
        assert line in out
    assert "You bid" not in out
    assert match.outcome().summary in out


def test_replay_as_a_seat_at_a_step(game: Any, runner: CliRunner) -> None:
    path, match = game
    result = replay(runner, path, "--as", "1", "--to", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "step 3 of 10, as seat 1 (Bidder 1)" in out
    for line in match.at(3).history(1):
        assert line in out
    assert "Game over" not in out
    assert "Awaiting" in out


def test_replay_json_is_the_seats_payload(game: Any, runner: CliRunner) -> None:
    path, match = game
    result = replay(runner, path, "--as", "2", "--to", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    at5 = match.at(5)
    assert data["step"] == 5 and data["steps"] == 10 and data["log"] == str(path)
    assert data["view"] == at5.view(2)
    assert data["history"] == at5.history(2)
    assert data["legal"] == at5.legal_json(2)
    spectator = json.loads(replay(runner, path, "--json").stdout)
    assert spectator["view"] == match.view(None)
    assert spectator["history"] == match.history(None)
    assert spectator["outcome"] == match.outcome().to_json()


def test_verify_passes_on_an_untouched_log(game: Any, runner: CliRunner) -> None:
    path, _ = game
    result = replay(runner, path, "--verify")
    assert result.exit_code == 0, result.output
    assert "verified; 10 actions of sealedbid" in result.stdout
    data = json.loads(replay(runner, path, "--verify", "--json").stdout)
    assert data["verified"] is True and data["actions"] == 10 and data["checked"] == 10


def test_verify_catches_a_hand_edited_digest(game: Any, runner: CliRunner) -> None:
    path, _ = game
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    (n,) = [i for i, line in enumerate(lines) if "index = 4," in line]
    lines[n] = re.sub(r'digest = "[0-9a-f]+"', 'digest = "0000000000000000"', lines[n])
    path.write_text("".join(lines))
    result = replay(runner, path, "--verify")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "verify failed at action 4" in line and f"{path}: action 4:" in line
    # Showing the match does not check digests, so it still works.
    assert replay(runner, path).exit_code == 0


def test_verify_catches_a_hand_edited_action(game: Any, runner: CliRunner) -> None:
    path, match = game
    record_seat, record_action = match.actions()[6]
    assert record_seat in (1, 2)
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    (n,) = [i for i, line in enumerate(lines) if "index = 7," in line]
    coins = record_action["coins"]
    changed = 0 if coins else 1
    lines[n] = lines[n].replace(f"coins = {coins} }}", f"coins = {changed} }}")
    assert lines[n] != text.splitlines(keepends=True)[n]
    path.write_text("".join(lines))
    result = replay(runner, path, "--verify")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{path}: action 7:" in line


def test_an_action_the_rules_refuse_names_its_index(game: Any, runner: CliRunner) -> None:
    path, _ = game
    text = path.read_text()
    text = re.sub(
        r"(index = 2, seat = \d, action = \{ type = \"bid\", coins = )\d+", r"\g<1>999", text
    )
    path.write_text(text)
    for args in ([], ["--verify"]):
        result = replay(runner, path, *args)
        assert result.exit_code == 1
        line = one_error_line(result)
        assert f"{path}: action 2: refused:" in line and "cannot bid 999" in line
    assert replay(runner, path, "--to", "1").exit_code == 0


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("actions = [", "actions = [[["), "not valid TOML"),
        (lambda t: t.replace("format = 1", "format = 99"), "unknown log format 99"),
        (lambda t: t.replace('title = "sealedbid"', 'title = "chess"'), "no title named 'chess'"),
        (lambda t: t.replace("index = 3,", "index = 5,"), "action 3: entry out of order"),
        (lambda t: t.replace("seat = 1,", "seat = 'one',", 1), "malformed entry"),
    ],
)
def test_corrupt_logs_are_one_line_exit_2(
    game: Any, runner: CliRunner, edit: Any, message: Any
) -> None:
    path, _ = game
    path.write_text(edit(path.read_text()))
    for args in ([], ["--verify"], ["--json"]):
        result = replay(runner, path, *args)
        assert result.exit_code == 2, (args, result.output)
        line = one_error_line(result)
        assert str(path) in line and message in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--to", "11"], "--to 11: "),
        (["--to", "-1"], "has actions 0 to 10"),
        (["--as", "3"], "--as 3: this match has seats 1 to 2"),
        (["--as", "thief"], "--as takes a seat number or 'spectator'"),
        (["--verify", "--to", "3"], "--verify checks the whole log"),
        (["--verify", "--as", "1"], "--verify checks the whole log"),
        (["--verify", "--step"], "--verify checks the whole log"),
        (["--step", "--json"], "--step is interactive; leave out --json"),
    ],
)
def test_bad_options_are_one_line_exit_2(
    game: Any, runner: CliRunner, args: Any, message: Any
) -> None:
    path, _ = game
    result = replay(runner, path, *args)
    assert result.exit_code == 2
    assert message in one_error_line(result)


def test_missing_log(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    result = replay(runner, tmp_path / "nope.toml")
    assert result.exit_code == 2
    assert "nope.toml: cannot read" in one_error_line(result)


def test_step_walks_forward_back_and_jumps(game: Any, runner: CliRunner) -> None:
    path, match = game
    result = replay(
        runner, path, "--step", "--to", "1", "--as", "1", input="n\np\nfoo\n12\n9\n\nq\n"
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    headers = re.findall(r"step (\d+) of 10", out)
    # A refused answer is not followed by a redraw: the reason stays by the prompt.
    assert headers == ["1", "2", "1", "9", "10"]
    assert "'foo' is not a step command" in out
    assert "there is no step 12: steps are 0 to 10" in out
    last = match.events(1, since=9)
    assert all(e["text"] in out for e in last)
    assert "Game over" in out


def test_step_ends_at_end_of_input(game: Any, runner: CliRunner) -> None:
    path, _ = game
    result = replay(runner, path, "--step", input="")
    assert result.exit_code == 0
    assert "step 10 of 10" in result.stdout


def test_step_says_what_to_type_and_help_explains(game: Any, runner: CliRunner) -> None:
    path, _ = game
    result = replay(runner, path, "--step", "--to", "2", input="help\n?\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    # The prompt itself names the keys; help explains each of them, and nothing is redrawn.
    assert out.count("[2/10] Enter: next, b: back, N: go to step N, q, help > ") == 3
    assert out.count("a number           go straight to that step") == 2
    assert "b, p, back, prev   the step before" in out
    assert re.findall(r"step (\d+) of 10", out) == ["2"]


def test_a_log_cut_mid_entry_cannot_be_read_exit_2(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 39.10: a log cut inside its last action was refused as a "malformed
    action" the rules refuse (exit 1); it is a file that cannot be read (exit 2),
    and the line says where it ends. The Museum Job (every installed title: no
    ``installed`` fixture) writes each action as a table of its own, one field a line."""
    match = Match.create("museum", 2, 5, registry=default_registry())
    for _ in range(6):
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    text = match.to_log().to_toml()
    start = text.rindex("[actions.action]")
    # Up to the action's first field: its other fields are lost.
    cut = text[: text.index("\n", text.index("\n", start) + 1) + 1]
    path = tmp_path / "cut.toml"
    path.write_text(cut)
    for args in ([], ["--verify"], ["--to", "6"]):
        result = replay(runner, path, *args)
        if args == ["--verify"]:  # what the terminal shows, folded at 80 columns
            capture = ROOT / "test-output" / "terminal" / "replay-cut-log.txt"
            capture.parent.mkdir(parents=True, exist_ok=True)
            shown = "\n".join(fold(result.stderr, 80, indent="  "))
            capture.write_text(f"$ gameweave replay cut.toml --verify\n{shown}\n")
        assert result.exit_code == 2, (args, result.output)
        line = one_error_line(result)
        assert f"{path}: action 6: the log ends mid-entry" in line, line
        assert "cannot be read" in line
    assert replay(runner, path, "--to", "5").exit_code == 0


def test_state_and_diff_name_the_squares(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 39.10: ``--state`` and ``--diff`` showed The Museum Job's squares as
    numbers (``"thief": 98``); they show them as the map names them (``"K7"``)."""
    square = re.compile(r"^[A-T][0-9]{1,2}$")
    paths = []
    for pick in (0, 1):  # two games parting at Security's first post
        match = Match.create("museum", 2, 5, registry=default_registry())
        for step in range(6):
            seat = match.awaiting[0]
            legal = match.legal_actions(seat)
            match.submit(seat, legal[pick if step == 0 else 0])
        path = tmp_path / f"game{pick}.toml"
        match.save(path)
        paths.append(path)
    result = replay(runner, paths[0], "--state")
    assert result.exit_code == 0, result.output
    capture = ROOT / "test-output" / "terminal" / "replay-state-squares.txt"
    capture.parent.mkdir(parents=True, exist_ok=True)
    capture.write_text("$ gameweave replay game0.toml --state\n" + result.stdout)
    state = json.loads(result.stdout)
    assert square.match(state["thief"]), state["thief"]
    assert all(square.match(g) for g in state["guards"]), state["guards"]
    assert all(square.match(s) for s in state["route"])
    assert all(square.match(e["square"]) for e in state["evidence"])
    differ = replay(runner, paths[0], "--diff", paths[1])
    shown = [line for line in differ.stdout.splitlines() if line.startswith(("-", "+"))]
    guards = [line for line in shown if re.match(r'^[-+]\s+"[A-T][0-9]{1,2}",?$', line)]
    assert guards, differ.stdout
    assert not [line for line in shown if re.match(r"^[-+]\s+[0-9]{2,3},?$", line)], shown


def test_state_names_museum_heists_squares(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 39.10: Museum Heist's pieces read as square numbers in ``--state``."""
    match = Match.create("museumheist", 2, 4, registry=default_registry())
    for _ in range(6):
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    path = tmp_path / "heist.toml"
    match.save(path)
    result = replay(runner, path, "--state")
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert all(re.match(r"^[A-Z][0-9]{1,2}$", sq) for sq in state["pieces"]), state["pieces"]
    assert state["artwork"] == -1 or re.match(r"^[A-Z][0-9]{1,2}$", state["artwork"])
    # The digest is the plain snapshot's, as before: the log still verifies.
    assert replay(runner, path, "--verify").exit_code == 0
