"""Where a running server spends its busy time, sampled by py-spy from outside.

py-spy (installed in the benchmark's own ``.venv-peers``) attaches to the server's
pid and samples every thread's stack; cProfile could not, since the app runs its
blocking work in a thread pool. Samples whose innermost frame is a wait (an idle
worker thread, the event loop's select) are dropped, so the shares are of busy time.
"""

from __future__ import annotations

import collections
import re
import subprocess
from pathlib import Path
from typing import Any

#: Innermost frames that mean "waiting, not working".
IDLE = (
    "Condition.wait ",
    "Event.wait ",
    ".select (selectors.py",
    "_worker (concurrent/futures/thread.py",
    "Thread._wait_for_tstate_lock",
    "Queue.get ",
    "sleep ",
)
#: Frames worth naming: the project's own code and what it hands work to.
OURS = ("gameweave_", "run_in_threadpool", "dumps (json")
#: ...but not the outermost wrapper every sample of the main thread sits under.
SKIP = ("gameweave_http/server.py",)


def start(
    py_spy: Path, pid: int, seconds: float, out: Path, rate: int = 100, gil: bool = False
) -> Any:
    """Start sampling ``pid`` for ``seconds`` into ``out`` (folded stacks); returns the
    py-spy process, to ``wait()`` for. With ``gil`` only the thread holding the GIL is
    sampled: where the CPU goes. Without, every thread: where threads wait too."""
    cmd = [
        str(py_spy),
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, round(seconds))),
        "--rate",
        str(rate),
        "--format",
        "raw",
        "--output",
        str(out),
        "--nonblocking",
    ]
    if gil:
        cmd.append("--gil")
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(proc: Any, seconds: float, out: Path) -> str | None:
    """Wait for the py-spy process :func:`start` returned (killing it if it outlives
    its run by a minute); ``None`` when ``out`` holds its samples, else why not."""
    try:
        proc.wait(timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.returncode != 0 or not out.exists():
        return f"py-spy could not sample the server (exit {proc.returncode})"
    return None


def summarise(folded: Path, top: int = 10, drop_idle: bool = True) -> dict[str, Any]:
    """The share of samples under each of our functions (callees included) and the
    innermost frames (with line numbers) taking the most samples."""
    inclusive: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    kept = idle = 0
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [f for f in stack.split(";") if not f.startswith(("process ", "thread "))]
        if not frames or (drop_idle and any(mark in frames[-1] for mark in IDLE)):
            idle += n
            continue
        kept += n
        leaves[frames[-1].strip()] += n
        names = {
            _name(f) for f in frames if any(o in f for o in OURS) and not any(k in f for k in SKIP)
        }
        for name in names:
            inclusive[name] += n
    total = kept or 1
    return {
        "samples": kept,
        "idle_samples": idle,
        "inclusive": [(k, v / total) for k, v in inclusive.most_common(top)],
        "leaves": [(k, v / total) for k, v in leaves.most_common(top)],
    }


def _name(frame: str) -> str:
    # "Store._tx (gameweave_http/store.py:99)" -> "Store._tx (gameweave_http/store.py)"
    return re.sub(r":\d+\)$", ")", frame.strip())
