"""``simulate --cluster``: the same numbers on a Dask cluster of real processes.

The cluster tests start ``dask scheduler`` and ``dask worker`` processes on
127.0.0.1 (free ports, no dashboard, one thread each) with the tutorial title
installed for them as for a ``gameweave`` subprocess, and always stop them.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gameweave_cli.app import app
from gameweave_cli.simulate import (
    GameResult,
    InlineExecutor,
    SimulationResult,
    Tally,
    simulate,
)
from gameweave_core import Match, default_registry
from gameweave_dask import cluster as clustering
from gameweave_http.testing import loopback_socket

from .conftest import TUTORIAL

pytest.importorskip("distributed")

#: Seconds any one process start, run or stop may take before the test fails.
LIMIT = 90


class Cluster:
    """A scheduler and its workers, each a subprocess stopped by its own pid."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env = env
        self.log_dir = log_dir
        self.procs: list[subprocess.Popen[bytes]] = []
        self.address = ""
        self.port = 0
        # Port 0: the scheduler binds a free port itself and writes its address to
        # the scheduler file (no port chosen here for another process to take).
        self.scheduler_file = log_dir / "scheduler.json"
        self._start(
            "scheduler",
            [
                "distributed.cli.dask_scheduler",
                *("--host", "127.0.0.1", "--port", "0"),
                *("--scheduler-file", str(self.scheduler_file)),
                # Its health routes on loopback too (by default they take 0.0.0.0:8787).
                *("--dashboard-address", "127.0.0.1:0"),
            ],
            env,
        )
        self._wait_for_port()

    def _start(self, name: str, args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"{name}.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", *args, "--no-dashboard"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.procs.append(proc)
        return proc

    def _wait_for_port(self) -> None:
        deadline = time.monotonic() + LIMIT
        while time.monotonic() < deadline:
            try:
                self.address = json.loads(self.scheduler_file.read_text())["address"]
                self.port = int(self.address.rsplit(":", 1)[1])
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        raise RuntimeError(f"the scheduler did not start (see {self.scheduler_file})")

    def add_worker(self, name: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        """A worker process of one thread, without a nanny: killing it loses it."""
        args = ["distributed.cli.dask_worker", self.address, "--nthreads", "1", "--no-nanny"]
        args += ["--host", "127.0.0.1", "--name", name]
        return self._start(name, args, env or self.env)

    def client(self) -> Any:
        from distributed import Client

        return Client(self.address, timeout=LIMIT)  # type: ignore[no-untyped-call]

    def wait_for_workers(self, n: int) -> dict[str, int]:
        """Wait until ``n`` workers have joined; their pids by address."""
        with self.client() as client:
            client.wait_for_workers(n, timeout=LIMIT)
            return dict(client.run(os.getpid))

    def stop(self) -> None:
        """Workers first, then the scheduler; a process that outlasts a short grace
        after SIGTERM is killed."""
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)


@pytest.fixture
def start_cluster(child_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """Starts clusters (a scheduler, no workers yet) and stops them after the test."""
    started: list[Cluster] = []

    def start() -> Cluster:
        folder = tmp_path / f"cluster{len(started)}"
        folder.mkdir()
        made = Cluster(child_env, folder)
        started.append(made)
        return made

    try:
        yield start
    finally:
        for made in started:
            made.stop()


def gameweave(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gameweave_cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )


def simulate_json(env: dict[str, str], *args: str, cwd: Path) -> str:
    done = gameweave(env, "simulate", *args, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no chatter from Dask either
    return done.stdout


# -- with real processes -------------------------------------------------------------------


@pytest.mark.slow
def test_every_way_of_running_gives_the_same_json(
    start_cluster: Any, child_env: Any, tmp_path: Any, installed: Any
) -> None:
    cluster = start_cluster()
    cluster.add_worker("w1")
    cluster.add_worker("w2")
    assert len(cluster.wait_for_workers(2)) == 2
    run = ["sealedbid", "--games", "300", "--seed", "17", "-p", "3"]
    one = simulate_json(child_env, *run, "--jobs", "1", "--save-logs", "one", cwd=tmp_path)
    two = simulate_json(child_env, *run, "--jobs", "2", cwd=tmp_path)
    local = simulate_json(child_env, *run, "--cluster", "local:2", cwd=tmp_path)
    remote = simulate_json(
        child_env, *run, "--cluster", cluster.address, "--save-logs", "remote", cwd=tmp_path
    )
    assert json.loads(one)["finished"] == 300
    assert one == two == local == remote  # byte for byte
    # The client wrote every game's log from what the workers sent back.
    ones = sorted((tmp_path / "one").iterdir())
    remotes = sorted((tmp_path / "remote").iterdir())
    assert len(remotes) == 300
    assert [p.name for p in ones] == [p.name for p in remotes]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(ones, remotes, strict=True))
    assert Match.load(remotes[-1], verify=True, registry=default_registry()).is_over
    # Another seed gives other numbers on the cluster too.
    other_seed = ["sealedbid", "--games", "300", "--seed", "18", "-p", "3"]
    other = simulate_json(child_env, *other_seed, "--cluster", cluster.address, cwd=tmp_path)
    assert json.loads(other)["figures"] != json.loads(one)["figures"]


@pytest.mark.slow
def test_a_worker_killed_mid_run_changes_nothing(start_cluster: Any, installed: Any) -> None:
    cluster = start_cluster()
    procs = {"w1": cluster.add_worker("w1"), "w2": cluster.add_worker("w2")}
    pids = cluster.wait_for_workers(2)
    by_pid = {p.pid: p for p in procs.values()}

    def run(executor: Any, **options: Any) -> Any:
        return simulate("sealedbid", 3000, 2, 23, {2: "random"}, executor, batch=50, **options)

    expected = run(InlineExecutor()).to_json()

    entry = installed.entry("sealedbid")
    executor = clustering.open_cluster(cluster.address, entry, timeout=LIMIT)
    killed: list[int] = []

    def kill_a_busy_worker(n: int) -> None:
        if killed:
            return
        # A worker that is playing a batch right now: its batch is lost with it. On a
        # fast machine every batch in flight may already be done when one is
        # reported; then try again at the next report (the run has 60 batches, and
        # the test insists below that a worker was killed).
        busy = [addr for addr, keys in executor.client.processing().items() if keys]
        if not busy:
            return
        victim = by_pid[pids[busy[0]]]
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=LIMIT)
        killed.append(victim.pid)

    with executor:
        result = run(executor, window=2 * executor.threads, on_progress=kill_a_busy_worker)
    assert killed, "no worker was ever busy: the run is too short to test a lost worker"
    assert by_pid[killed[0]].returncode == -signal.SIGKILL
    assert result.to_json() == expected
    assert result.games == result.tally.finished == 3000


@pytest.mark.slow
def test_a_worker_without_the_title_is_refused_in_one_line(
    start_cluster: Any, child_env: Any, tmp_path: Any
) -> None:
    cluster = start_cluster()
    bare = dict(child_env, GAMEWEAVE_LOAD_PLUGINS="")  # the worker loads no title at all
    cluster.add_worker("bare", env=bare)
    (address,) = cluster.wait_for_workers(1)
    done = gameweave(
        child_env,
        "simulate",
        "sealedbid",
        "-n",
        "20",
        "--seed",
        "2",
        "--cluster",
        cluster.address,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and done.stdout == ""
    ours = clustering.TitleStamp.of(default_entry())
    assert ours.distribution_version == "1.0.0"
    assert done.stderr == (
        f"error: worker {address} does not have sealedbid (it has: none); "
        f"install {ours.describe()} there, as on this machine\n"
    )


@pytest.mark.slow
def test_a_worker_with_another_version_is_refused_in_one_line(
    start_cluster: Any, child_env: Any, tmp_path: Any
) -> None:
    # The same title from a distribution of another version.
    site = tmp_path / "site2"
    dist = site / "gameweave_sealedbid-2.0.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: gameweave-sealedbid\nVersion: 2.0.0\n"
    )
    (dist / "entry_points.txt").write_text("[gameweave]\nsealedbid = gameweave_sealedbid.plugin\n")
    newer = dict(child_env, PYTHONPATH=os.pathsep.join([str(site), str(TUTORIAL)]))
    cluster = start_cluster()
    cluster.add_worker("newer", env=newer)
    (address,) = cluster.wait_for_workers(1)
    done = gameweave(
        child_env,
        "simulate",
        "sealedbid",
        "-n",
        "20",
        "--seed",
        "2",
        "--cluster",
        cluster.address,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and done.stdout == ""
    ours = clustering.TitleStamp.of(default_entry())
    theirs = f"{ours.name} {ours.version} from gameweave-sealedbid 2.0.0 on gameweave"
    assert done.stderr == (
        f"error: worker {address} has {theirs} {ours.core_version}, this machine has "
        f"{ours.describe()}: install the same on every worker\n"
    )
    assert not (tmp_path / "gameweave-logs").exists()


@pytest.mark.slow
def test_a_worker_that_joins_late_without_the_title_stops_the_run(
    start_cluster: Any, installed: Any
) -> None:
    cluster = start_cluster()
    cluster.add_worker("w1")
    cluster.wait_for_workers(1)
    executor = clustering.open_cluster(cluster.address, installed.entry("sealedbid"), timeout=LIMIT)
    with executor:
        # It joins after the check at the start: its first task refuses to play.
        late = cluster.add_worker("bare", env=dict(cluster.env, GAMEWEAVE_LOAD_PLUGINS=""))
        executor.client.wait_for_workers(2, timeout=LIMIT)
        pids = executor.client.run(os.getpid)
        bare = next(address for address, pid in pids.items() if pid == late.pid)
        with pytest.raises(clustering.ClusterError) as caught:
            simulate("sealedbid", 3000, 2, 1, {}, executor, batch=10, window=8)
    assert str(caught.value).startswith(f"worker {bare} does not have sealedbid (it has: none)")


@pytest.mark.slow
def test_a_lost_scheduler_stops_the_run_in_one_line(
    start_cluster: Any, child_env: Any, tmp_path: Any
) -> None:
    cluster = start_cluster()
    cluster.add_worker("w1")
    cluster.wait_for_workers(1)
    # The client tries to reconnect for this long before it gives up.
    env = dict(child_env, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="3s")
    args = ["simulate", "sealedbid", "-n", "500000", "--seed", "2", "--cluster", cluster.address]
    run = subprocess.Popen(
        [sys.executable, "-m", "gameweave_cli", *args],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with cluster.client() as client:
            # Kill the scheduler once the run's games are being played.
            deadline = time.monotonic() + LIMIT
            while not any(client.processing().values()):
                assert time.monotonic() < deadline and run.poll() is None
                time.sleep(0.1)
        cluster.procs[0].send_signal(signal.SIGKILL)
        out, err = run.communicate(timeout=LIMIT)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: lost the Dask scheduler at {cluster.address}: ")


def default_entry() -> Any:
    """The tutorial title's entry as a ``gameweave`` subprocess sees it."""
    from gameweave_core import Registry
    from gameweave_core.registry import TitleEntry
    from gameweave_sealedbid import plugin

    registry = Registry()
    registry.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    entry: TitleEntry = registry.entry("sealedbid")
    return entry


# -- without a cluster -------------------------------------------------------------------


def test_without_dask_cluster_says_how_to_install_it(
    installed: Any, runner: Any, monkeypatch: Any
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = runner.invoke(
        app, ["simulate", "sealedbid", "-n", "3", "--seed", "1", "--cluster", "local:2"]
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "error: --cluster needs Dask, which is not installed: pip install 'gameweave[dask]'\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cluster", "local:0"], "--cluster 'local:0': write local:N with N at least 1"),
        (["--cluster", "local:two"], "--cluster 'local:two': write local:N"),
        (["--cluster", " "], "--cluster needs a scheduler address"),
        (["--cluster", "local:2", "--jobs", "2"], "--jobs and --cluster exclude each other"),
    ],
)
def test_cluster_errors_are_one_line(installed: Any, runner: Any, args: Any, message: Any) -> None:
    result = runner.invoke(app, ["simulate", "sealedbid", "-n", "3", "--seed", "1", *args])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_an_unreachable_scheduler_is_one_error(installed: Any) -> None:
    # A port bound here and never listened on: connections to it are refused.
    with loopback_socket() as bound:
        address = f"tcp://127.0.0.1:{bound.getsockname()[1]}"
        with pytest.raises(clustering.ClusterError) as caught:
            clustering.open_cluster(address, installed.entry("sealedbid"), timeout=1)
    assert str(caught.value).startswith(f"cannot reach the Dask scheduler at {address}: ")
    assert "\n" not in str(caught.value)


def test_workers_are_checked_by_address_in_order() -> None:
    wanted = clustering.TitleStamp("bid", "1", "gameweave-bid", "1.0.0", "0.1.0")
    older = clustering.TitleStamp("bid", "1", "gameweave-bid", "0.9.0", "0.1.0")
    clustering.check_workers({"tcp://a:1": {"bid": wanted}, "tcp://b:1": {"bid": wanted}}, wanted)
    found: dict[str, Any] = {
        "tcp://c:1": {"bid": older},
        "tcp://a:1": {"bid": wanted},
        "tcp://b:1": "PluginError: plugin 'bid' failed to load: boom",
    }
    with pytest.raises(
        clustering.ClusterError, match=r"^worker tcp://b:1 cannot load its titles: Plug"
    ):
        clustering.check_workers(found, wanted)
    del found["tcp://b:1"]
    with pytest.raises(
        clustering.ClusterError,
        match=r"^worker tcp://c:1 has bid 1 from gameweave-bid 0\.9\.0 on gameweave 0\.1\.0, this",
    ):
        clustering.check_workers(found, wanted)
    # Another build of the engine is another build too.
    newer_core = clustering.TitleStamp("bid", "1", "gameweave-bid", "1.0.0", "0.2.0")
    with pytest.raises(clustering.ClusterError, match="on gameweave 0.2.0, this machine has"):
        clustering.check_workers({"tcp://a:1": {"bid": newer_core}}, wanted)


# -- the tally: the same numbers in any order --------------------------------------------------


def game(index: int, side: str, length: int, **figures: Any) -> GameResult:
    return GameResult(index, index, length, side=side, reason="points", figures=figures)


def test_tallies_merged_in_any_order_and_grouping_give_the_same_numbers() -> None:
    # Sums of these floats depend on the order they are added in: 1e16 + 1.0 == 1e16.
    values = [1e16, 1.0, -1e16, 0.1, 0.2, 0.3, 2.5, 1.0, 7.0, -3.25] * 3
    games = [
        game(i, "ab"[i % 2], 5 + i % 4, score=v, lot=i % 3, seats=[i, 0.5])
        for i, v in enumerate(values, start=1)
    ]
    games.append(GameResult(len(games) + 1, 0, 0, error="Boom"))

    def tallied(order: list[GameResult], groups: int) -> dict[str, Any]:
        parts = [Tally() for _ in range(groups)]
        for i, g in enumerate(order):
            parts[i % groups].add(g)
        total = Tally()
        for part in parts:
            total.merge(part)
        result = SimulationResult("t", 2, 1, {1: "x", 2: "y"}, total, ())
        return result.to_json()

    first = tallied(games, 1)
    assert first["figures"]["score"] == math.fsum(values) / len(values)
    assert list(first["figures"]) == ["score", "lot", "seats[1]", "seats[2]"]
    assert first["games"] == 31 and first["finished"] == 30
    assert (first["min_length"], first["max_length"]) == (5, 8)
    rng = random.Random(5)
    for groups in (2, 3, 7):
        shuffled = games[:]
        rng.shuffle(shuffled)
        assert tallied(shuffled, groups) == first


def test_the_client_keeps_no_game_it_was_not_asked_to(installed: Any) -> None:
    plain = simulate("sealedbid", 120, 2, 4, {}, InlineExecutor(), batch=7)
    assert plain.results == () and plain.games == 120
    sunk: list[int] = []
    logged = simulate(
        "sealedbid",
        120,
        2,
        4,
        {},
        InlineExecutor(),
        batch=7,
        keep_logs=True,
        log_sink=lambda r: sunk.append(r.index),
    )
    # Every log went to the sink as its batch arrived; none stayed in the result.
    assert logged.results == () and sorted(sunk) == list(range(1, 121))
    assert logged.to_json() == plain.to_json()


def test_games_of_a_lost_batch_fail_with_logs_that_name_their_seeds(installed: Any) -> None:
    from concurrent.futures import Future

    from gameweave_core import MatchLog

    class LosesTheSecondBatch(InlineExecutor):
        calls = 0

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls != 2:
                return super().submit(fn, *args, **kwargs)
            lost: Future[Any] = Future()
            lost.set_exception(RuntimeError("the worker vanished"))
            return lost

    result = simulate("sealedbid", 12, 2, 3, {}, LosesTheSecondBatch(), batch=5)
    assert [r.index for r in result.failures] == [6, 7, 8, 9, 10]
    assert result.tally.finished == 7 and result.games == 12
    whole = simulate("sealedbid", 12, 2, 3, {}, InlineExecutor(), keep_logs=True)
    seeds = {r.index: r.seed for r in whole.results}
    for lost in result.failures:
        assert lost.error == "worker failed: RuntimeError: the worker vanished"
        assert lost.log is not None
        log = MatchLog.from_toml(lost.log)
        assert (log.title, log.players, log.actions) == ("sealedbid", 2, [])
        # The seed of the game itself, from which it can be played again.
        assert log.seed == lost.seed == seeds[lost.index]


def test_opening_a_cluster_silences_every_logger_that_could_add_lines() -> None:
    import logging

    # A lost scheduler makes Dask, Tornado (its network layer) and asyncio log errors
    # from the client's event loop; the run says what happened in one line instead.
    names = ["distributed", "distributed.client", "tornado", "tornado.application", "asyncio"]
    before = {name: logging.getLogger(name).level for name in names}
    try:
        clustering._quiet()
        for name in names:
            assert not logging.getLogger(name).isEnabledFor(logging.ERROR), name
    finally:
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)
