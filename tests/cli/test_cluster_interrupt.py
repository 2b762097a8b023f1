"""Ctrl-C during ``simulate --cluster local:N`` ends the run in one line: the
terminal sends SIGINT to every process of the command, the local cluster's
workers included, and none of them prints a traceback."""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import pexpect
import psutil
import pytest

pytest.importorskip("distributed")

#: Seconds the run may take to start, or to stop once interrupted: a hang bound.
PATIENCE = 180
#: A seeded run far too long to finish before it is interrupted.
RUN = ["simulate", "sealedbid", "--games", "10000000", "--seed", "1", "--cluster", "local:2"]
#: Escape sequences of the progress bar.
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def alive(process: psutil.Process) -> bool:
    try:
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


@pytest.mark.slow
def test_ctrl_c_of_a_local_cluster_run_is_one_line(child_env: Any) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", *RUN],
        env=child_env,
        timeout=PATIENCE,
        dimensions=(40, 120),
    )
    workers: list[psutil.Process] = []
    try:
        # The progress bar counts finished games: wait until the workers play some.
        child.expect(rb" [1-9][0-9]*/10000000")
        workers = psutil.Process(child.pid).children(recursive=True)
        assert workers, "the local cluster runs in processes of its own"
        child.sendintr()  # Ctrl-C at the terminal: SIGINT to the whole process group
        child.expect(pexpect.EOF)
        child.close()
        output = ANSI.sub(b"", child.before).decode("utf-8", "replace")
        assert child.exitstatus == 130, output
        for word in ("Traceback", "KeyboardInterrupt", "CancelledError", "Exception"):
            assert word not in output, output
        errors = [line for line in output.splitlines() if "error" in line.lower()]
        assert len(errors) == 1, output
        assert re.match(r"error: interrupted after \d+ of 10000000 games", errors[0]), output
        # Stopped by the run, not left behind.
        deadline = time.monotonic() + PATIENCE
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(w) for w in workers)
    finally:
        child.close(force=True)
        for worker in workers:
            if alive(worker):
                worker.kill()
