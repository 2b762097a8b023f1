"""Helpers of the HTTP adapter tests: real servers in a thread or in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from gameweave_http.testing import LoopbackServer, loopback_socket

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial" / "sealed-bid"
SCREENSHOTS = ROOT / "test-output" / "screenshots"


class ThreadServer(LoopbackServer):
    """A real uvicorn server on a loopback socket of its own, in a thread of this
    process; with ``limits``, set up as ``serve()`` sets uvicorn up (the guarded
    protocol), else uvicorn as it comes."""

    def __init__(self, app: Any, limits: Any = None) -> None:
        from gameweave_http.server import uvicorn_options

        if limits is None:
            super().__init__(app, served=False)
        else:
            super().__init__(app, **uvicorn_options(limits))


def sealed_plugin_path(tmp_path: Path) -> str:
    """A PYTHONPATH on which a subprocess finds Sealed Bids through its entry point."""
    site = tmp_path / "site"
    info = site / "gameweave_sealedbid-1.0.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: gameweave-sealedbid\nVersion: 1.0.0\n"
    )
    (info / "entry_points.txt").write_text("[gameweave]\nsealedbid = gameweave_sealedbid.plugin\n")
    return os.pathsep.join([str(site), str(TUTORIAL)])


class ProcessServer:
    """``gameweave_http.server.serve`` in a subprocess, which a test may SIGKILL."""

    def __init__(self, tmp_path: Path, db: Path, plugins: str = "sealedbid") -> None:
        self.tmp_path = tmp_path
        self.db = db
        self.plugins = plugins
        # Bound here and handed to the server process: no other process can take
        # the port between its choice and the server's start.
        self.socket = loopback_socket()
        self.port = int(self.socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tmp_path / f"server-{self.port}.log"

    def start(self) -> ProcessServer:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in [sealed_plugin_path(self.tmp_path), env.get("PYTHONPATH", "")] if p
        )
        env["GAMEWEAVE_LOAD_PLUGINS"] = self.plugins
        env["GAMEWEAVE_ACCESS_LOG"] = "1"  # the crash test reads it for tokens
        fd = self.socket.fileno()
        code = (
            "from gameweave_http.server import serve; "
            f"serve(fd={fd}, db={str(self.db)!r}, dev=True)"
        )
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                pass_fds=(fd,),
            )
        deadline = time.monotonic() + 60  # a hang, not a slow machine
        while True:
            try:
                if httpx.get(f"{self.url}/api/titles", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no cleanup, no flush, no goodbye
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.socket.close()


def new_match(
    store: Any, match_id: str = "m1", seed: int = 7, tokens: dict[int, str] | None = None
) -> None:
    """Store a two-seat Sealed Bids match with no actions yet."""
    store.create(
        match_id,
        title="sealedbid",
        title_version="1",
        players=2,
        seed=seed,
        config={},
        distribution="test",
        distribution_version="1",
        bots={},
        tokens=tokens or {1: "token-one", 2: "token-two"},
    )
