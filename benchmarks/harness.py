"""The measuring kit: workers in subprocesses, interleaved rounds, medians and ratios.

Every comparison is measured in one run with its contenders interleaved (A, B, A,
B, ...; the order rotates each round so neither side always runs first), and
reported as a ratio of medians. A single timing on a shared two-core machine says
little; a median of interleaved rounds says much more.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: The project's own environment (the one ``make bench`` runs in).
PROJECT_PYTHON = Path(sys.executable)


@attrs.frozen
class Sample:
    """One measured batch: ``units`` of work (hands, actions, games) in ``wall`` seconds."""

    units: float
    wall: float
    cpu: float = 0.0
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def rate(self) -> float:
        return self.units / self.wall if self.wall > 0 else 0.0


class WorkerError(RuntimeError):
    """A worker process failed or answered nonsense."""


class Worker:
    """A long-lived Python subprocess that runs workloads and reports samples as JSON.

    The workload is timed inside the subprocess, so start-up, imports and the
    pipe cost nothing; the same timing code measures every contender.
    """

    def __init__(self, python: Path | str, label: str, env: Mapping[str, str] | None = None):
        self.label = label
        full_env = {**os.environ, **(env or {})}
        # The peers' environment must not see the project's packages, and vice versa.
        full_env.pop("PYTHONPATH", None)
        self.proc = subprocess.Popen(
            [str(python), "-u", str(HERE / "worker.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=full_env,
            text=True,
        )

    def call(
        self,
        fn: str,
        kwargs: Mapping[str, Any],
        *,
        seconds: float = 0.0,
        count: int = 0,
    ) -> Sample:
        """Run ``fn`` (``"module:factory"``) for ``seconds`` or ``count`` iterations."""
        request = {"fn": fn, "kwargs": dict(kwargs), "seconds": seconds, "count": count}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise WorkerError(f"{self.label} worker died before {fn}") from None
        line = self.proc.stdout.readline()
        if not line:
            raise WorkerError(f"{self.label} worker died running {fn} (see its stderr above)")
        reply = json.loads(line)
        if "error" in reply:
            raise WorkerError(f"{self.label} worker: {fn}: {reply['error']}")
        return Sample(reply["units"], reply["wall"], reply["cpu"], reply.get("extra", {}))

    def info(self, fn: str, kwargs: Mapping[str, Any] | None = None) -> Any:
        """Call ``fn(**kwargs)`` once in the worker and return its JSON result (untimed)."""
        request = {"fn": fn, "kwargs": dict(kwargs or {}), "info": True}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise WorkerError(f"{self.label} worker died running {fn}")
        reply = json.loads(line)
        if "error" in reply:
            raise WorkerError(f"{self.label} worker: {fn}: {reply['error']}")
        return reply["result"]

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@attrs.define
class Contender:
    """One side of a comparison: a name and how to measure one batch of it."""

    name: str
    measure: Callable[[], Sample]
    samples: list[Sample] = attrs.field(factory=list)

    @property
    def rates(self) -> list[float]:
        return [s.rate for s in self.samples]

    @property
    def walls(self) -> list[float]:
        return [s.wall for s in self.samples]

    def median_rate(self) -> float:
        return statistics.median(self.rates)

    def median_wall(self) -> float:
        return statistics.median(self.walls)


def on_worker(
    worker: Worker,
    name: str,
    fn: str,
    kwargs: Mapping[str, Any],
    *,
    seconds: float = 0.0,
    count: int = 0,
) -> Contender:
    """A contender measured by ``worker``."""
    return Contender(name, lambda: worker.call(fn, kwargs, seconds=seconds, count=count))


def interleave(
    contenders: Sequence[Contender],
    rounds: int,
    warmup: bool = True,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Measure every contender ``rounds`` times, interleaved, rotating the order.

    A first warm-up round (imports, caches, JIT-less but cold CPython) is discarded.
    """
    if warmup:
        for c in contenders:
            c.measure()
    n = len(contenders)
    for r in range(rounds):
        order = [contenders[(r + i) % n] for i in range(n)]
        for c in order:
            c.samples.append(c.measure())
        if progress:
            progress(
                f"round {r + 1}/{rounds}: "
                + ", ".join(f"{c.name} {describe(c.samples[-1])}" for c in contenders)
            )


def describe(sample: Sample) -> str:
    """A sample for progress lines: a rate, or a wall time for one-off runs."""
    if sample.units == 1:
        return f"{sample.wall:.2f} s"
    return f"{sample.rate:,.0f}/s"


def paired_ratios(a: Contender, b: Contender, by: str = "rate") -> list[float]:
    """Round-by-round ratios of ``a`` to ``b`` (rates, or wall times with ``by="wall"``)."""
    if by == "rate":
        return [x.rate / y.rate for x, y in zip(a.samples, b.samples, strict=True) if y.rate]
    return [x.wall / y.wall for x, y in zip(a.samples, b.samples, strict=True) if y.wall]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation."""
    if not values:
        raise ValueError("no values")
    data = sorted(values)
    if len(data) == 1:
        return data[0]
    pos = (len(data) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def timed(fn: Callable[[], float]) -> Sample:
    """Time ``fn`` here (in this process); it returns the units of work it did."""
    t0, c0 = time.perf_counter(), time.process_time()
    units = fn()
    return Sample(units, time.perf_counter() - t0, time.process_time() - c0)


# -- formatting ---------------------------------------------------------------------


def fmt_rate(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:,.1f}"
    return f"{x:,.2f}"


def fmt_ratio(x: float) -> str:
    return f"{x:.2f}x"


def fmt_range(values: Sequence[float], fmt: Callable[[float], str] = fmt_rate) -> str:
    return f"{fmt(min(values))} – {fmt(max(values))}"


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table; every cell is text already."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
                break
    except OSError:
        pass
    try:
        load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        load = "?"
    return {
        "cpu": model,
        "nproc": os.cpu_count(),
        "memory": mem,
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "loadavg_at_start": load,
    }
