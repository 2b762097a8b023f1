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


#: The kinds of work a move's CPU time goes to, for :func:`categorise`: a sample
#: counts for the first kind (in this order) one of whose marks is in any of its
#: frames, so that a socket write made while sending an event counts as a write,
#: and the event's own work as the event stream's. The last kind takes the rest.
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "socket writes (the kernel's send, on loopback)",
        ("OneWrite.write", "OneWrite.flush", "WebSocket.send", "WebSocket.ping"),
    ),
    (
        "checks: host, head size, limits, origin, seat token",
        (
            "Gate.admit",
            "refuse_cross_site",
            "read_token",
            "hash_token",
            "Store.seat_for",
            "Hub.seat (",
            "RateLimit.take",
            "BodyClock",
            "still_seated",
            "SeatSocket._seated",
        ),
    ),
    ("store: SQLite commits and new matches' rows", ("gameweave_http/store.py",)),
    (
        "payloads: view, history, legal actions, labels, JSON",
        ("Hub._payload (", "Match.payload", "labels (gameweave_http/hub.py", "wire.py"),
    ),
    (
        "rules: the action decoded, checked and applied; new matches set up",
        ("Hub._apply", "_submitted", "Match.__init__", "gameweave_core/", "gameweave_tictactoe"),
    ),
    ("event streams: woken, framed, sent", ("gameweave_http/events.py",)),
    (
        "seat sockets: frames read, moves queued, pushes woken",
        ("gameweave_http/sockets.py", "gameweave_http/frames.py", "WebSocket."),
    ),
    (
        "responses: uvicorn's send (status line, headers, chunks)",
        ("RequestResponseCycle.send", "send_json", "send_safely", "Errors.__call__.<locals>"),
    ),
    ("request bodies: read, JSON parsed, structured", ("read_body", "parse_json", "bodies.py")),
    (
        "HTTP parsing: httptools and uvicorn's protocol (head, scope, task)",
        (
            "data_received",
            "on_headers_complete",
            "on_message_complete",
            "on_url",
            "on_header",
            "on_body",
            "_start_asgi_task",
        ),
    ),
    (
        "connections: opened and closed",
        ("connection_made", "connection_lost", "Protocol.__init__", "create_protocol"),
    ),
    (
        "app layers: ASGI, routing, handlers, the hub's locks",
        ("gameweave_http/", "starlette/", "uvicorn/", "asyncio/locks.py"),
    ),
)
#: What takes the samples no kind claims.
REST = "event loop: uvloop's polls, reads and callbacks"
#: The frames every sample of the server's main thread sits under, left out
#: before the kinds are looked for.
OUTER = (
    "gameweave_http/server.py",
    "uvicorn/server.py",
    "uvicorn/main.py",
    "uvicorn/_compat.py",
    "asyncio/runners.py",
    "<frozen runpy>",
    "<module>",
    "threading.py",
)


def categorise(folded: Path) -> dict[str, Any]:
    """The share of busy samples of each kind of work (:data:`KINDS`, then
    :data:`REST`), from py-spy's folded stacks of every running thread (idle
    waits left out)."""
    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [f for f in stack.split(";") if not f.startswith(("process ", "thread "))]
        if not frames or any(mark in frames[-1] for mark in IDLE):
            continue
        n = int(count)
        total += n
        frames = [f for f in frames if not any(o in f for o in OUTER)]
        kind = next(
            (name for name, marks in KINDS if any(m in f for f in frames for m in marks)), REST
        )
        counts[kind] += n
    names = [name for name, _ in KINDS] + [REST]
    return {
        "samples": total,
        "shares": {name: counts[name] / (total or 1) for name in names},
    }


def kinds_table(columns: dict[str, dict[str, Any]], unit: str) -> tuple[list[str], list[list[str]]]:
    """The head and rows of a "where each microsecond goes" table: for each column
    (a label, and a profile carrying ``kinds`` shares and ``us_per_unit``, the shares
    times the server's CPU per ``unit``, and ``cpu_per_unit_us``), every kind's share
    and microseconds per unit, then the total."""
    first = next(iter(columns.values()))
    head = ["Kind of work"]
    for label in columns:
        head += [f"{label}: share" if label else "share", f"µs per {unit}"]
    rows = []
    for kind in first["kinds"]:
        row = [kind]
        for found in columns.values():
            row += [f"{found['kinds'][kind]:.0%}", f"{found['us_per_unit'][kind]:.0f}"]
        rows.append(row)
    total = [f"**the server's CPU per {unit}**"]
    for found in columns.values():
        total += ["100%", f"**{found['cpu_per_unit_us']:.0f}**"]
    rows.append(total)
    return head, rows


def per_unit(kinds: dict[str, Any], cpu_us: float) -> dict[str, Any]:
    """:func:`categorise`'s result as a column of :func:`kinds_table`: the shares,
    and each times ``cpu_us``, the server's CPU per unit over the sampled load."""
    return {
        "kinds": kinds["shares"],
        "kind_samples": kinds["samples"],
        "cpu_per_unit_us": cpu_us,
        "us_per_unit": {k: v * cpu_us for k, v in kinds["shares"].items()},
    }
