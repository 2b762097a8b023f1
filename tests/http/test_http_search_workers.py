"""The search pool's worker processes die with the server, however it dies: a
server killed with SIGKILL runs no clean-up, and its workers must not live on,
reparented, each holding its memory."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psutil
import pytest
from search_bots import GATE_ENV, started_file

T = TypeVar("T")

HERE = Path(__file__).resolve().parent
#: Seconds allowed for anything the test waits for: it fails only on a hang.
PATIENCE = 120.0


def wait_for(found: Callable[[], T | None], what: str) -> T:
    deadline = time.monotonic() + PATIENCE
    while True:
        value = found()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def searchbots_site(tmp_path: Path) -> str:
    """A PYTHONPATH on which a server process, and its workers, find the test
    plugin ``search_bots`` (the held search bot) through its entry point."""
    site = tmp_path / "searchbots-site"
    info = site / "gameweave_searchbots-1.0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: gameweave-searchbots\nVersion: 1\n"
    )
    (info / "entry_points.txt").write_text("[gameweave]\nsearchbots = search_bots\n")
    return os.pathsep.join([str(site), str(HERE)])


def alive(process: psutil.Process) -> bool:
    """Whether ``process`` still runs (a zombie waiting to be reaped has ended)."""
    try:
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def test_search_workers_exit_when_the_server_is_killed(
    process_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = tmp_path / "gate"  # never opened: the bot searches until its worker ends
    monkeypatch.setenv(GATE_ENV, str(gate))
    monkeypatch.setenv("GAMEWEAVE_SEARCHES", "2")
    paths = [searchbots_site(tmp_path), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    server = process_server(plugins="sealedbid,searchbots")
    body = {"title": "sealedbid", "players": 2, "bots": {"2": "held"}, "seed": 7}
    created = httpx.post(f"{server.url}/api/matches", json=body, timeout=30)
    assert created.status_code == 201, created.text
    wait_for(lambda: started_file(gate).exists() or None, "the held search to start")

    assert server.proc is not None
    workers = psutil.Process(server.proc.pid).children(recursive=True)
    assert any(alive(w) for w in workers), "the search runs in a worker process"
    server.kill()  # SIGKILL, with the search under way: the server cleans nothing up
    try:
        wait_for(lambda: not any(alive(w) for w in workers) or None, "the workers to exit")
    finally:
        for worker in workers:  # a failed run leaves nothing behind
            if alive(worker):
                worker.kill()
