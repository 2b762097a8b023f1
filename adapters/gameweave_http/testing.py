"""Helpers for a title's browser tests: the server on a loopback port in a thread,
and Debian's Chromium driven by Playwright.

A title's tests use them like this (needs ``gameweave[http]`` and ``playwright``)::

    @pytest.fixture(scope="module")
    def browser() -> Iterator[Any]:
        with chromium() as b:
            yield b

    @pytest.fixture
    def server(tmp_path: Path) -> Iterator[LoopbackServer]:
        with LoopbackServer.for_plugin(plugin, "museumheist", tmp_path / "m.sqlite3") as s:
            yield s
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

#: Debian's Chromium (``make browser-deps`` installs it); Playwright never downloads one.
CHROMIUM = "/usr/bin/chromium"
#: Headless, and quiet on a machine without a network.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


class LoopbackServer:
    """An ASGI app served by uvicorn on a free 127.0.0.1 port, in a daemon thread, for
    the length of a ``with`` block; ``url`` is its address."""

    def __init__(self, app: Any, start_within: float = 30.0) -> None:
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        self.url = f"http://127.0.0.1:{port}"
        self.start_within = start_within
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            access_log=False,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @classmethod
    def for_plugin(
        cls, plugin: ModuleType, name: str, db: Path, *, dev: bool = False
    ) -> LoopbackServer:
        """The Gameweave server hosting only the title ``plugin`` registers, stored in
        ``db``; ``dev`` lets a test choose seeds and test-only options."""
        from gameweave_core import Registry

        from .app import create_app

        registry = Registry()
        registry.add_plugin(plugin, name, "gameweave", "test")
        return cls(create_app(db, registry, dev=dev))

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        deadline = time.monotonic() + self.start_within
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright. Without it the test is skipped
    on a developer's machine and fails under CI (``make test`` installs it first)."""
    import pytest

    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is missing: make browser-deps should have installed it")
        pytest.skip("Debian's chromium is not installed (make browser-deps)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            yield browser
        finally:
            browser.close()
