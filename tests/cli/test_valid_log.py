"""One definition of a valid log: ``replay --verify`` and ``play --resume`` accept
and refuse exactly the same logs, with the same exit code and the same reason.

A valid log is one the installed rules reproduce entirely: every action is taken,
every entry carries its digest and every digest matches. A log whose last entry
records that the title raised (``error = "..."``) is a bug report, not a game in
progress: ``replay --verify`` re-applies the action to reproduce the failure and
exits 1, and ``play --resume`` refuses to play on past it, in one line, leaving the
file as it was (it used to drop the entry silently and write the log again
without it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from typer.testing import CliRunner, Result

from gameweave_cli.app import app
from gameweave_core import MatchLog
from gameweave_core.log import LogEntry

from .buggy import PlantedBug
from .conftest import add_titles


def invoke(runner: CliRunner, *args: object, input: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def saved(installed: Any, runner: CliRunner, tmp_path: Path) -> Path:
    """A Sealed Bids game saved after two bids of seat 1 (seat 2 a bot): 5 actions."""
    log = tmp_path / "saved.toml"
    result = invoke(
        runner, "play", "sealedbid", "--seed", 9, "--log", log, input="bid 1\nbid 1\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert len(MatchLog.load(log).actions) == 5
    return log


@pytest.fixture
def crash(installed: Any, runner: CliRunner, tmp_path: Path) -> Path:
    """A log saved by ``play`` when Planted Bug raised on action 6 (every seat a bot)."""
    add_titles(installed, PlantedBug(), distribution="gameweave-buggy", version="1.0.0")
    log = tmp_path / "crash.toml"
    result = invoke(runner, "play", "plantedbug", "--seed", 4, "--seat", "1=bot", "--log", log)
    assert result.exit_code == 1, result.output
    record = MatchLog.load(log)
    assert len(record.actions) == 6 and record.actions[-1].error is not None
    return log


Edit = Callable[[MatchLog], MatchLog]


def entries(change: Callable[[LogEntry], LogEntry]) -> Edit:
    """An edit of every entry, as a person with an editor could make it."""
    return lambda log: attrs.evolve(log, actions=[change(e) for e in log.actions])


def at(index: int, **fields: Any) -> Edit:
    return entries(lambda e: attrs.evolve(e, **fields) if e.index == index else e)


def keep(log: MatchLog) -> MatchLog:
    return log


def without_last(log: MatchLog) -> MatchLog:
    return attrs.evolve(log, actions=log.actions[:-1])


def other_bid(log: MatchLog) -> MatchLog:
    first = log.actions[0]
    coins = 1 - first.action["coins"] if first.action["coins"] <= 1 else 0
    return at(1, action={**first.action, "coins": coins})(log)


#: (case, base log, edit, exit code of both commands, what both lines say).
CASES: list[tuple[str, str, Edit, int, str]] = [
    ("untouched", "saved", keep, 0, ""),
    ("a digest edited", "saved", at(2, digest="0000000000000000"), 1, "the state now differs"),
    ("an action edited", "saved", other_bid, 1, "action 1:"),
    ("a digest removed", "saved", at(2, digest=None), 2, "action 2 has no digest"),
    ("a failure recorded", "crash", keep, 1, "plantedbug raised on action 6"),
    (
        "a failure recorded that the rules no longer raise",
        "saved",
        at(5, digest=None, error="ZeroDivisionError: division by zero"),
        1,
        "action 5: recorded as making the title raise (ZeroDivisionError",
    ),
    (
        "a failure recorded before the last entry",
        "saved",
        at(2, digest=None, error="ZeroDivisionError: division by zero"),
        2,
        "action 2: only the last entry may record a failure",
    ),
    (
        "a failure recorded with a digest",
        "saved",
        at(5, error="ZeroDivisionError: division by zero"),
        2,
        "action 5: an entry recording a failure has no digest",
    ),
    (
        "a seat the match does not have",
        "saved",
        lambda log: attrs.evolve(log, seats={"1": "human", "7": "bot:thrifty"}),
        2,
        "the seats table names seat '7', not 1 to 2",
    ),
    ("a failure removed by hand", "crash", without_last, 0, ""),
]


@pytest.mark.parametrize(
    ("base", "edit", "code", "reason"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_replay_verify_and_resume_agree(
    request: pytest.FixtureRequest,
    runner: CliRunner,
    base: str,
    edit: Edit,
    code: int,
    reason: str,
) -> None:
    log: Path = request.getfixturevalue(base)
    edit(MatchLog.load(log)).save(log)
    text = log.read_text()
    verify = invoke(runner, "replay", log, "--verify")
    # Every seat a person's, who quits at once: a resumed game is saved as it was.
    resume = invoke(
        runner, "play", "--resume", log, "--seat", "1=human", "--seat", "2=human", input="quit\n"
    )
    for name, result in (("replay --verify", verify), ("play --resume", resume)):
        assert result.exit_code == code, (name, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), name
        if code:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), (name, lines)
            assert str(log) in lines[0] and reason in lines[0], (name, lines[0])
    if code:
        assert log.read_text() == text  # refused: not rewritten
    else:
        assert "verified" in verify.stdout and f"Game saved to {log}" in resume.stdout
