"""The CLI with the project's own titles, found through their entry points."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gameweave_cli.app import app
from gameweave_core import Match, default_registry
from gameweave_core.registry import ENV_LOAD_PLUGINS

TITLES = ["museum", "house"]


@pytest.fixture
def real_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The default registry with every installed plugin (the user's view)."""
    monkeypatch.delenv(ENV_LOAD_PLUGINS, raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    default_registry.cache_clear()
    try:
        yield default_registry()
    finally:
        default_registry.cache_clear()


def need(registry: Any, name: str) -> None:
    # Both titles ship in this distribution: missing means a broken install.
    assert name in registry.names(), f"the {name} title is not installed"


@pytest.mark.parametrize("name", TITLES)
def test_all_bot_game(real_registry: Any, runner: CliRunner, tmp_path: Path, name: Any) -> None:
    need(real_registry, name)
    log = tmp_path / f"{name}.toml"
    args = ["play", name, "--seed", "2", "--seat", "1=bot", "--seat", "2=bot", "--log", str(log)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    replayed = Match.load(log, verify=True, registry=default_registry())
    assert replayed.is_over
    out = result.stdout
    outcome = replayed.outcome()
    # Long lines are folded at the terminal's width (100 here): read them whole.
    assert outcome is not None and outcome.summary in " ".join(out.split())
    # What was printed is the spectator's history, line for line: nothing private.
    # (A line too long for the terminal goes on under itself, indented further.)
    printed: list[str] = []
    for row in out.splitlines():
        if row.startswith("    ") and printed:
            printed[-1] += " " + row.strip()
        elif row.startswith("  "):
            printed.append(row.strip())
    assert printed == [" ".join(line.split()) for line in replayed.history(None)]


@pytest.mark.parametrize("name", TITLES)
def test_simulate_twenty_games(real_registry: Any, runner: CliRunner, name: Any) -> None:
    need(real_registry, name)
    runs = []
    for jobs in ("1", "2"):
        args = ["simulate", name, "--games", "20", "--seed", "5", "--jobs", jobs, "--json"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        runs.append(json.loads(result.stdout))
    data = runs[0]
    assert runs[1] == data
    assert data["finished"] == 20 and data["failed"] == 0
    assert sum(s["wins"] for s in data["sides"]) == 20
    assert sum(data["reasons"].values()) == 20
    assert data["min_length"] <= data["mean_length"] <= data["max_length"]


@pytest.mark.parametrize("name", TITLES)
def test_listed_by_games(real_registry: Any, runner: CliRunner, name: Any) -> None:
    need(real_registry, name)
    rows = json.loads(runner.invoke(app, ["games", "--json"]).stdout)
    (row,) = [r for r in rows if r["name"] == name]
    title = real_registry.title(name)
    assert row["display_name"] == title.display_name
    assert (row["min_players"], row["max_players"]) == (title.min_players, title.max_players)


def test_the_museum_job_at_the_terminal(real_registry: Any, tmp_path: Path) -> None:
    """What ``make play`` starts: The Museum Job, seat 1 the Thief against bots."""
    import os
    import sys

    import pexpect

    need(real_registry, "museum")
    log = tmp_path / "museum.toml"
    env = {k: v for k, v in os.environ.items() if k != ENV_LOAD_PLUGINS}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", "play", "museum", "--seed", "9", "--log", str(log)],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 110),
    )
    prompt = r"seat 1 \(Thief\)> "
    child.expect("Which seat do you want to play")  # asked at a terminal without --seat
    child.sendline("1")
    child.expect(prompt)
    child.sendline("walk Z99")  # not a square: refused, asked again
    child.expect("Not accepted: ")
    child.expect(prompt)
    child.sendline("1")  # the first way in on the menu
    child.expect(prompt)
    child.sendline("hold")
    child.expect(prompt)
    child.sendline("quit")
    child.expect(f"Game saved to {log}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    match = Match.load(log, verify=True, registry=default_registry())
    mine = [a["type"] for s, a in match.actions() if s == 1]
    assert mine == ["enter", "hold"]


def test_museum_hot_seat_never_shows_one_seat_the_others_secrets(
    real_registry: Any, tmp_path: Path
) -> None:
    """Thief and Security at one keyboard: every screen is checked, at the moment
    it is shown, for lines only the other seat's view or history holds."""
    import io

    from rich.console import Console
    from rich.text import Text

    from gameweave_cli.play import Session
    from gameweave_cli.render import render_view

    need(real_registry, "museum")
    match = Match.create("museum", 2, 9, registry=default_registry())
    buffer = io.StringIO()
    console = Console(file=buffer, width=110, highlight=False, soft_wrap=True)
    marks = {"prompt": 0, "handover": 0}
    checked: list[int] = []
    handovers: list[str] = []

    def plain_lines(seat: int) -> set[str]:
        text = Text.from_markup(render_view(match, seat)).plain
        return {line.strip() for line in text.splitlines() if len(line.strip()) > 3}

    def read(prompt: str) -> str:
        out = buffer.getvalue()
        if prompt.startswith("Pass to"):
            handovers.append(prompt.strip())
            marks["handover"] = marks["prompt"] = len(out)
            return ""
        seat = int(prompt.split()[1])
        other = 3 - seat
        screen = out[marks["prompt"] :]
        since_handover = out[marks["handover"] :]
        marks["prompt"] = len(out)
        for line in plain_lines(other) - plain_lines(seat):
            assert line not in screen, f"seat {seat} was shown seat {other}'s {line!r}"
        for line in set(match.history(other)) - set(match.history(seat)):
            assert line not in since_handover, f"seat {seat} read seat {other}'s {line!r}"
        checked.append(seat)
        return "1" if len(checked) < 40 else "quit"

    session = Session(match, frozenset({1, 2}), {}, tmp_path / "hot.toml", console, read)
    assert session.run() == 0
    assert set(checked) == {1, 2}
    assert "Pass to seat 1 (Thief) and press Enter" in handovers
    assert len(handovers) >= 3


def test_every_prompt_reads_the_canonical_json_form(real_registry: Any, tmp_path: Path) -> None:
    """The core reads JSON before the title's own notation: The House Job's prompt,
    whose parser knows only words, takes ``{"type": "draft", "role": "lookout"}``,
    and a JSON action of no kind the title has is refused in one line."""
    import io

    from rich.console import Console

    from gameweave_cli.play import Session

    need(real_registry, "house")
    match = Match.create("house", 2, 3, registry=real_registry)
    buffer = io.StringIO()
    console = Console(file=buffer, width=110, highlight=False, soft_wrap=True)
    typed = iter(['{"type": "steal"}', '{"type": "draft", "role": "lookout"}', "quit"])

    def read(prompt: str) -> str:
        return "" if prompt.startswith("Pass to") else next(typed)

    session = Session(match, frozenset({1, 2}), {}, tmp_path / "house.toml", console, read)
    assert session.run() == 0
    assert match.actions()[0] == (1, {"type": "draft", "role": "lookout"})
    refused = [line for line in buffer.getvalue().splitlines() if "Not accepted" in line]
    assert refused == [
        "Not accepted: unknown action type 'steal'; this title knows: "
        + ", ".join(sorted(match.title.codec.types))
    ]


def test_options_reach_the_game_and_its_log(
    real_registry: Any, runner: CliRunner, tmp_path: Path
) -> None:
    need(real_registry, "house")
    log = tmp_path / "house.toml"
    args = ["play", "house", "--seed", "2", "--seat", "1=bot", "--seat", "2=bot"]
    result = runner.invoke(app, [*args, "--log", str(log), "--option", "take=300"])
    assert result.exit_code == 0, result.output
    replayed = Match.load(log, verify=True, registry=default_registry())
    assert replayed.config["take"] == 300
    outcome = replayed.outcome()
    assert outcome is not None and outcome.figures["opening"] == 300
    # simulate: every game opens at the Take given, and the run says so.
    sim = ["simulate", "house", "--games", "4", "--seed", "5", "--jobs", "1", "--json"]
    data = json.loads(runner.invoke(app, [*sim, "-o", "take=300"]).stdout)
    assert data["config"]["take"] == 300
    assert data["figures"] != json.loads(runner.invoke(app, sim).stdout)["figures"]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("speed=3", "unknown option(s) speed; house takes: deck, take"),
        ("take", "--option 'take': write it as KEY=VALUE"),
        ("take=abc", "option 'take' must be a whole number, not text ('abc')"),
        ("take=5", "take: the opening Take must be a whole number of at least 10"),
    ],
)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bad_options_are_one_line_errors(
    real_registry: Any, runner: CliRunner, tmp_path: Path, command: Any, option: Any, message: Any
) -> None:
    need(real_registry, "house")
    args = [command, "house", "--option", option]
    args += (
        ["--games", "2", "--seed", "1"]
        if command == "simulate"
        else ["--log", str(tmp_path / "x.toml")]
    )
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not (tmp_path / "x.toml").exists()


def test_a_resumed_game_keeps_its_options(
    real_registry: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "saved.toml"
    log.write_text("not read: the option is refused first")
    result = runner.invoke(app, ["play", "--resume", str(log), "--option", "take=300"])
    assert result.exit_code == 2
    assert "keeps the options it was saved with" in result.stderr
