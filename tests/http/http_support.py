"""Helpers of the HTTP adapter tests: real servers in a thread or in a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial" / "sealed-bid"
SCREENSHOTS = ROOT / "test-output" / "screenshots"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer:
    """A real uvicorn server on a free loopback port, in a thread of this process."""

    def __init__(self, app: Any, limits: Any = None) -> None:
        import uvicorn

        from gameweave_http.server import uvicorn_options

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # With limits, uvicorn is set up as serve() sets it up (the guarded protocol).
        options = uvicorn_options(limits) if limits is not None else {}
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            access_log=False,
            log_level="warning",
            timeout_graceful_shutdown=1,
            **options,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)


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
        self.port = free_port()
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
        code = f"from gameweave_http.server import serve; serve(port={self.port}, db={str(self.db)!r}, dev=True)"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code], env=env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 20
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


def wait_for_version(page: Any, at_least: int, timeout: float = 10.0) -> None:
    """Wait until the page shows version ``at_least`` or later.

    Polled from here with ``page.evaluate`` (Playwright's ``wait_for_function``
    evaluates its predicate inside the page, which the pages' CSP forbids)."""
    deadline = time.monotonic() + timeout
    while page.evaluate("Number(document.body.dataset.version)") < at_least:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page did not reach version {at_least}")
        time.sleep(0.05)


def csp_refusals(message: Any) -> list[str]:
    """A browser console message, if it reports a Content-Security-Policy refusal."""
    text = str(message.text)
    return [text] if "Content Security Policy" in text else []
