"""``gameweave simulate`` and the pure :func:`simulate` behind it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gameweave_cli.app import app
from gameweave_cli.simulate import (
    InlineExecutor,
    Interrupted,
    ctrl_c_noted,
    numeric_figures,
    simulate,
)
from gameweave_core import Match, MatchLog, default_registry

from .conftest import FragileBid, ThreeFails, add_titles, seed_where


def run(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(app, ["simulate", *args])


def as_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = run(runner, *args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_results_depend_on_the_seed_not_on_jobs(installed: Any, runner: CliRunner) -> None:
    one = as_json(runner, "sealedbid", "--games", "16", "--seed", "11", "--jobs", "1")
    two = as_json(runner, "sealedbid", "--games", "16", "--seed", "11", "--jobs", "2")
    assert one == two
    other = as_json(runner, "sealedbid", "--games", "16", "--seed", "12", "--jobs", "1")
    assert other["figures"] != one["figures"]


def test_the_numbers_add_up(installed: Any, runner: CliRunner) -> None:
    data = as_json(runner, "sealedbid", "--games", "40", "--seed", "3", "--jobs", "1")
    assert data["games"] == data["finished"] == 40 and data["failed"] == 0
    assert sum(s["wins"] for s in data["sides"]) == 40
    assert sum(data["reasons"].values()) == 40
    assert set(data["reasons"]) <= {"points", "tie"}
    # Two players, five lots, one sealed bid each per lot.
    assert data["mean_length"] == data["min_length"] == data["max_length"] == 10
    for side in data["sides"]:
        assert side["low"] <= side["rate"] <= side["high"]
        assert side["rate"] == side["wins"] / 40
    assert set(data["figures"]) == {"points[1]", "points[2]", "coins[1]", "coins[2]"}
    assert data["seats"] == {"1": "thrifty", "2": "thrifty"}
    # Each seat holds between 0 and 20 coins and wins at most 9+8+7+6+5 points.
    assert all(0 <= data["figures"][f"coins[{s}]"] <= 20 for s in (1, 2))
    assert all(0 <= data["figures"][f"points[{s}]"] <= 35 for s in (1, 2))


def test_figures_are_the_means_of_the_games(installed: Any) -> None:
    result = simulate("sealedbid", 6, 2, 5, {}, InlineExecutor(), keep_logs=True)
    points = []
    for game in result.results:
        assert game.log is not None
        match = Match.from_log(MatchLog.from_toml(game.log), registry=default_registry())
        outcome = match.outcome()
        assert outcome is not None and outcome.side == game.side
        points.append(outcome.figures["points"][0])
    assert result.figures()["points[1]"] == pytest.approx(sum(points) / 6)


def test_any_executor_gives_the_same_result(installed: Any) -> None:
    inline = simulate("sealedbid", 9, 3, 21, {2: "random"}, InlineExecutor(), batch=2)
    with ThreadPoolExecutor(3) as pool:
        threaded = simulate("sealedbid", 9, 3, 21, {2: "random"}, pool, batch=4)
    assert inline.to_json() == threaded.to_json()
    assert inline.seats == {1: "thrifty", 2: "random", 3: "thrifty"}


def test_table_output(installed: Any, runner: CliRunner) -> None:
    result = run(runner, "sealedbid", "--games", "20", "--seed", "4", "--jobs", "1", "-p", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Sealed Bids: 20 games, 3 players, seed 4, bots 1=thrifty, 2=thrifty, 3=thrifty" in out
    assert "95% interval" in out and "How it ended" in out
    assert "points[3]" in out and "Mean game length: 15.0 actions" in out


def test_seat_bots_change_the_play(installed: Any, runner: CliRunner) -> None:
    args = ["sealedbid", "--games", "30", "--seed", "2", "--jobs", "1"]
    thrifty = as_json(runner, *args)
    mixed = as_json(runner, *args, "--seat", "2=random")
    assert mixed["seats"] == {"1": "thrifty", "2": "random"}
    assert mixed["figures"] != thrifty["figures"]


def test_save_logs_writes_every_game(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    args = ["sealedbid", "--games", "5", "--seed", "6", "--jobs", "2", "--save-logs", str(folder)]
    data = as_json(runner, *args)
    paths = sorted(folder.iterdir())
    assert [p.name for p in paths] == [f"sealedbid-seed6-game{i:05d}.toml" for i in range(1, 6)]
    outcomes = [Match.load(p, verify=True, registry=default_registry()).outcome() for p in paths]
    sides = [o.side for o in outcomes if o is not None]
    assert len(sides) == len(paths)
    assert sorted(s["side"] for s in data["sides"] for _ in range(s["wins"])) == sorted(sides)


def test_a_failing_game_is_saved_and_the_run_goes_on(
    installed: Any, runner: CliRunner, cd_tmp: Any
) -> None:
    fragile = FragileBid()
    add_titles(installed, fragile)
    assert seed_where(fragile, True) is not None
    result = run(runner, "fragilebid", "--games", "30", "--seed", "1", "--jobs", "1", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["failed"] >= 1 and data["finished"] >= 1
    assert data["failed"] + data["finished"] == 30
    for failure in data["failures"]:
        assert "ZeroDivisionError: the auctioneer divided by zero" in failure["error"]
        log = cd_tmp / failure["log"]
        assert f"reproduce with: gameweave replay {failure['log']} --verify" in result.stderr
        record = MatchLog.load(log)
        assert record.actions[-1].error is not None
        verify = runner.invoke(app, ["replay", str(log), "--verify"])
        assert verify.exit_code == 1 and "divided by zero" in verify.stderr
    # Only failed games leave logs when --save-logs is not given.
    assert len(list((cd_tmp / "gameweave-logs").iterdir())) == data["failed"]


def test_a_setup_that_raises_fails_each_game_with_a_replayable_log(
    installed: Any, runner: CliRunner, cd_tmp: Any
) -> None:
    add_titles(installed, ThreeFails())
    result = run(
        runner, "threefails", "--games", "3", "-p", "3", "--seed", "1", "-j", "1", "--json"
    )
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["failed"] == 3 and data["sides"] == []
    assert data["failures"][0]["error"] == "setup: IndexError: no third paddle"
    replay = runner.invoke(app, ["replay", data["failures"][0]["log"], "--verify"])
    assert replay.exit_code == 2 and "no third paddle" in replay.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch", "--games", "3"], "no title named 'nosuch' is installed; installed: sealedbid"),
        (
            ["sealedbid", "--games", "3", "--seed", "1", "-p", "5"],
            "Sealed Bids takes 2 to 4 players, not 5",
        ),
        (["sealedbid", "--games", "0"], "--games must be at least 1"),
        (["sealedbid", "--games", "3", "--jobs", "0"], "--jobs must be at least 1"),
        (
            ["sealedbid", "--games", "3", "--seed", "1", "--seat", "2=deep"],
            "sealedbid has no bot 'deep'",
        ),
        (["sealedbid", "--games", "3", "--seed", "1", "--seat", "4=random"], "there is no seat 4"),
        (["sealedbid", "--games", "3", "--seat", "random"], "write it as N=BOTNAME"),
        (["sealedbid", "--games", "3", "--seed", "-5"], "--seed must be between 0 and"),
    ],
)
def test_simulate_errors_are_one_line(
    installed: Any, runner: CliRunner, args: Any, message: Any
) -> None:
    result = run(runner, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_numeric_figures_flatten_numbers_only() -> None:
    figures = {"take": 7, "won": True, "who": "crew", "points": [1, 2.5], "score": {"a": 3}}
    assert numeric_figures(figures) == {
        "take": 7.0,
        "points[1]": 1.0,
        "points[2]": 2.5,
        "score.a": 3.0,
    }


def test_progress_is_reported_as_batches_finish(installed: Any) -> None:
    events: list[str] = []

    class Recording(InlineExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            events.append("submit")
            return super().submit(fn, *args, **kwargs)

    result = simulate(
        "sealedbid",
        7,
        2,
        1,
        {},
        Recording(),
        batch=2,
        window=1,
        on_progress=lambda n: events.append(f"done {n}"),
    )
    assert result.games == 7
    assert events == ["submit", "done 2"] * 3 + ["submit", "done 1"]


class PressesCtrlC:
    """An object whose finaliser receives a Ctrl-C, as a Dask future's may (its
    ``__del__`` runs in the run's thread as batches finish)."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)  # Python runs the handler right here


def test_a_ctrl_c_that_lands_in_a_finaliser_still_stops_the_run(installed: Any) -> None:
    # Raised there, KeyboardInterrupt would be printed as "Exception ignored" and
    # dropped, and the run would play all its games.
    def batch_done(n: int) -> None:
        PressesCtrlC()  # dropped at once: finalised here, in the run's thread

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(Interrupted) as stop:
            simulate(
                "sealedbid",
                40,
                2,
                1,
                {},
                InlineExecutor(),
                batch=2,
                window=1,
                on_progress=batch_done,
            )
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    # The run stops after the batch during which Ctrl-C came, and keeps its games.
    assert stop.value.result.games == 2


def test_a_program_that_ignores_ctrl_c_keeps_ignoring_it_during_a_run() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with ctrl_c_noted() as pressed:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)
        assert not pressed.is_set()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


# In a fresh interpreter: pytest itself may have threads running by now.
POOL_PROBE = """
import threading
from gameweave_cli.app import _process_pool
if {thread}:
    threading.Thread(target=threading.Event().wait, daemon=True).start()
pool = _process_pool(2)
print(pool._mp_context.get_start_method(), len(pool._processes), pool.submit(sum, [1, 2]).result())
pool.shutdown()
"""


def probe_pool(thread: bool) -> str:
    code = POOL_PROBE.format(thread=thread)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(sys.platform != "linux", reason="fork is chosen on Linux only")
def test_workers_are_forked_before_any_other_thread_starts() -> None:
    # Both workers exist when the pool is handed back: none is forked later, beside
    # the progress bar's thread.
    assert probe_pool(thread=False) == "fork 2 3"


def test_a_running_thread_makes_the_pool_spawn_fresh_interpreters() -> None:
    assert probe_pool(thread=True).startswith("spawn ")
