"""Every byte bounded: a command reading a log reads at most the log bound (32
MiB) from any path, a device, a pipe or a FIFO included, and refuses more in one
line at once, where it would otherwise read without end.

Each command runs in a child process whose memory is capped (well above what it
needs), so that a reader that does not stop fails the test instead of the machine."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Match, play_out
from gameweave_core.log import MAX_LOG_CHARS

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="devices and FIFOs are POSIX")

#: The child's address space: a few times what the command needs with a log at the bound.
MEMORY = 1 << 30
#: Seconds a command may take: it fails only on a hang.
PATIENCE = 120

LAUNCH = (
    "import resource, sys; "
    f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY})); "
    "from gameweave_cli.app import main; sys.argv[0] = 'gameweave'; main()"
)

TOO_LARGE = (
    f"too large (more than {MAX_LOG_CHARS:,} bytes; a log may have at most {MAX_LOG_CHARS:,})"
)


def gameweave(env: dict[str, str], *args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LAUNCH, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


@pytest.fixture
def good_log(installed: Any, tmp_path: Path) -> Path:
    path = tmp_path / "good.toml"
    play_out(Match.create("sealedbid", 2, 5, registry=installed), registry=installed).save(path)
    return path


def commands(log: Path, good: Path) -> list[list[object]]:
    """Every way the CLI reads ``log``."""
    return [
        ["replay", log],
        ["replay", log, "--verify"],
        ["play", "--resume", log],
        ["replay", good, "--diff", log],
    ]


@contextlib.contextmanager
def endless_fifo(path: Path) -> Iterator[Path]:
    """A FIFO whose writer writes until its reader hangs up."""
    os.mkfifo(path)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), path.open("wb") as out:
            chunk = b"# a comment, over and over\n" * 40_000
            while True:
                out.write(chunk)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        if writer.is_alive():  # the reader never came: let the writer's open return
            with contextlib.suppress(OSError), path.open("rb"):
                pass
        writer.join(PATIENCE)
        path.unlink()


def test_a_device_without_end_is_refused_at_the_bound(child_env: Any, good_log: Path) -> None:
    for args in commands(Path("/dev/zero"), good_log):
        done = gameweave(child_env, *args)
        assert done.returncode == 2, (args, done.stderr)
        line = one_error_line(done)
        assert line == f"error: /dev/zero: {TOO_LARGE}", args


def test_a_fifo_without_end_is_refused_at_the_bound(
    child_env: Any, good_log: Path, tmp_path: Path
) -> None:
    for args in commands(tmp_path / "endless", good_log):
        with endless_fifo(tmp_path / "endless") as fifo:
            done = gameweave(child_env, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert one_error_line(done) == f"error: {fifo}: {TOO_LARGE}", args


def test_a_log_through_a_fifo_still_replays(child_env: Any, good_log: Path, tmp_path: Path) -> None:
    """A pipe is refused for its size, not for being a pipe (``replay <(cat LOG)``)."""
    fifo = tmp_path / "piped"
    os.mkfifo(fifo)
    text = good_log.read_bytes()

    def write() -> None:
        with fifo.open("wb") as out:
            out.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = gameweave(child_env, "replay", fifo, "--verify")
    writer.join(PATIENCE)
    assert done.returncode == 0, done.stderr
    assert "verified; 10 actions of sealedbid" in done.stdout


def test_a_large_regular_file_is_refused_before_it_is_read(
    child_env: Any, good_log: Path, tmp_path: Path
) -> None:
    large = tmp_path / "large.toml"
    with large.open("wb") as out:
        out.truncate(MAX_LOG_CHARS + 1)  # sparse: no disk is filled
    for args in commands(large, good_log):
        done = gameweave(child_env, *args)
        assert done.returncode == 2, (args, done.stderr)
        size = MAX_LOG_CHARS + 1
        assert one_error_line(done) == (
            f"error: {large}: too large ({size:,} bytes; a log may have at most {MAX_LOG_CHARS:,})"
        ), args
