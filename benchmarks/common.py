"""What every benchmark shares: the run's settings, a section of the results, the
project's paths, and the servers the server benchmarks start.

Each benchmark is a module of its own (``bench_blackjack.py``, ``versus.py``, ...)
with a ``bench(settings, ctx)`` function returning a :class:`Section`; ``run.py``
is the table of them and the report. None of them imports ``run.py``.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness as H

HERE = H.HERE
ROOT = H.ROOT
PY = str(H.PROJECT_PYTHON)
BIN = Path(PY).parent
#: The mypyc-compiled install of the project (``make compiled``), if built.
COMPILED_PYTHON = ROOT / ".venv-compiled" / "bin" / "python"


@attrs.frozen
class Settings:
    quick: bool
    rounds: int
    seconds: float  # one timed batch of a rate benchmark
    overhead_batch: float  # target seconds of one fixed-work overhead batch
    simulate_target: float  # seconds of one `simulate --jobs 1` run
    simulate_rounds: int
    server_rounds: int
    server_seconds: float
    memory_games: int
    memory_matches: int

    @classmethod
    def make(cls, quick: bool, rounds: int | None) -> Settings:
        if quick:
            return cls(True, rounds or 3, 0.3, 0.25, 2.0, 1, rounds or 2, 1.0, 1000, 100)
        # simulate: about 20 s at --jobs 1, so that the command's own start-up (about
        # 0.3 s, paid once by either) does not pass for a cost of the second process.
        return cls(False, rounds or 9, 1.0, 0.6, 20.0, 3, rounds or 5, 3.0, 10_000, 1000)


@attrs.define
class Goal:
    benchmark: str
    goal: str
    measured: str
    met: bool | None  # None: not measured


@attrs.define
class Section:
    key: str
    title: str
    body: list[str] = attrs.field(factory=list)
    goals: list[Goal] = attrs.field(factory=list)
    raw: dict[str, Any] = attrs.field(factory=dict)
    error: str | None = None


def say(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def spread(values: list[float], fmt: Callable[[float], str] = H.fmt_ratio) -> str:
    return f"{fmt(min(values))} – {fmt(max(values))}"


#: How the peers are named in the tables.
PEER = {"openspiel": "OpenSpiel", "rlcard": "RLCard"}


def profile_md(prof: dict[str, Any], caption: str) -> list[str]:
    """A profile from ``workloads.profile_split`` as two small markdown tables."""
    return [
        "",
        f"{caption}, by cProfile: share of profiled time by area (profiling inflates "
        "call-heavy code), then the functions with the most time of their own:",
        "",
        H.md_table(
            ["Area", "share"], [[k, f"{v:.0%}"] for k, v in prof["areas"].items() if v >= 0.01]
        ),
        "",
        H.md_table(
            ["Function (own time)", "share", "calls", "with callees"],
            [
                [
                    f"`{f['function']}`",
                    f"{f['share']:.0%}",
                    f"{f['calls']:,}",
                    f"{f['cumulative_share']:.0%}",
                ]
                for f in prof["top"][:8]
            ],
        ),
    ]


def run_cmd(cmd: list[str], timeout: float, cwd: Path) -> H.Sample:
    """Run a command; the sample's ``cpu`` is the CPU time of its whole process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed ({done.returncode}): "
            f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}"
        )
    return H.Sample(1, wall, cpu, {"stdout": done.stdout})


def git_commit() -> str:
    """The checked-out commit (with "+changes" when tracked files differ from it)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        # The results file this run rewrites does not count as a change.
        dirty = subprocess.run(
            [
                "git",
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ".",
                ":!benchmarks/results.md",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}+changes" if dirty else head


# -- servers ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A server subprocess on 127.0.0.1, stopped (by its own pid) on exit."""

    def __init__(
        self, cmd: list[str], port: int, label: str, log: Path, env: dict[str, str] | None = None
    ):
        self.label, self.port = label, port
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{label} exited at start-up (see {log})")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{label} did not listen on 127.0.0.1:{port} within 60 s")

    def cpu(self) -> float:
        """CPU seconds the server process has used so far (all its threads)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss(self) -> dict[str, int]:
        out = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) * 1024
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def loadgen(cfg: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [PY, str(HERE / "loadgen.py"), json.dumps(cfg)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=cfg.get("seconds", 5) + 120,
    )
    if done.returncode != 0:
        raise RuntimeError("loadgen failed: " + (done.stderr.strip().splitlines() or ["?"])[-1])
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def with_cpu(server: Server, cfg: dict[str, Any]) -> dict[str, Any]:
    """A load run, with the CPU time the server used during it."""
    before = server.cpu()
    out = loadgen(cfg)
    out["server_cpu"] = server.cpu() - before
    return out


#: The server's limits for the benchmarks: every load generator's client comes from
#: one address, which the default rate of match creation and the default number of
#: event streams (both per address) would refuse.
BENCH_LIMITS = (
    "creates_per_minute=10000000,streams=4000,streams_per_match=4000,streams_per_client=4000,"
    "connections=5000"
)


def our_server(tmp: Path, label: str, limits: str = BENCH_LIMITS) -> Server:
    port = free_port()
    db = tmp / f"{label}.sqlite3"
    return Server(
        [PY, "-m", "gameweave_http.server", str(port), str(db)],
        port,
        label,
        tmp / f"{label}.log",
        env={"GAMEWEAVE_LIMITS": limits},
    )
