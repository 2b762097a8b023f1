"""A benchmark worker: runs workloads on request and reports timings as JSON lines.

Started by ``harness.Worker`` with the project's Python or the peers' (stdlib only
here, so it runs in either). Each request names a factory ``"module:function"``
(a module beside this file) and its keyword arguments; the factory returns
``step(i) -> units``, which is called for ``i = 0, 1, ...`` until ``seconds`` have
passed or ``count`` steps are done. Only the steps are timed. Factories are built
once per distinct request and reused, so set-up never counts.

The protocol uses the real stdout; anything a workload prints goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import traceback
from typing import Any


def main() -> None:
    out = sys.stdout
    sys.stdout = sys.stderr  # keep the protocol channel clean
    steps: dict[str, Any] = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = handle(request, steps)
        except Exception as exc:  # reported to the harness, which stops with it
            traceback.print_exc()
            reply = {"error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
        out.write(json.dumps(reply) + "\n")
        out.flush()


def load(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def handle(request: dict[str, Any], steps: dict[str, Any]) -> dict[str, Any]:
    fn, kwargs = request["fn"], request.get("kwargs", {})
    if request.get("info"):
        return {"result": load(fn)(**kwargs)}
    key = json.dumps([fn, kwargs], sort_keys=True)
    if key not in steps:
        steps[key] = load(fn)(**kwargs)
    step = steps[key]
    seconds = float(request.get("seconds") or 0)
    count = int(request.get("count") or 0)
    if not seconds and not count:
        raise ValueError("a request needs seconds or count")
    extra_fn = getattr(step, "extra", None)
    units = 0.0
    i = 0
    clock = time.perf_counter
    t0, c0 = clock(), time.process_time()
    if count:
        for i in range(count):
            units += step(i)
        i = count
    else:
        deadline = t0 + seconds
        while True:
            units += step(i)
            i += 1
            if clock() >= deadline:
                break
    wall = clock() - t0
    cpu = time.process_time() - c0
    extra = {"iterations": i}
    if extra_fn is not None:
        extra.update(extra_fn())
    return {"units": units, "wall": wall, "cpu": cpu, "extra": extra}


if __name__ == "__main__":
    main()
