"""Test helpers for anything served over HTTP: a title's browser tests, the server's
own tests, scripts that drive a match through the API.

A test suite asks for this plugin in its top ``conftest.py`` (``pytest_plugins =
["gameweave_core.pytest_plugin", "gameweave_http.testing"]``); it then gives every
test these fixtures:

``serve_title``
    A factory: ``serve_title(plugin, "museumheist")`` starts the Gameweave server
    hosting that title in a thread, on a loopback socket the test owns, in
    development mode (clients choose seeds), and stops it after the test.
``loopback_servers``
    The same for any ASGI app: ``loopback_servers(create_app(...))``.
``gameweave_browser``
    Debian's headless Chromium through Playwright, one per test session (skipped
    without Chromium on a developer's machine, failed under CI).
``seat_pages``
    Opens pages (``seat_pages.open(url)``), each in a browser context of its own,
    gathers their script errors in ``seat_pages.errors`` and closes every context
    at the end of the test, before the server stops, so no event stream is cut.

and these functions: :func:`create_match` (its ``seed`` is required: a test plays
the same game on every run), :func:`page_version`, :func:`wait_for_new_version` and
:func:`wait_for_version` (built on Playwright's ``expect``, which polls without running script in the page,
so the pages' Content-Security-Policy allows it). A title's browser test reads::

    from gameweave_http.testing import create_match, wait_for_new_version

    def test_a_seat_plays(serve_title, seat_pages):
        server = serve_title(plugin, "museumheist")
        made = create_match(server, "museumheist", 2, seed=11, bots=[2])
        page = seat_pages.open(made["seats"][0]["url"], ready=".mh-board")
        ...

The server needs ``gameweave[http]``, the browser ``playwright`` and Debian's
``chromium`` (``make browser-deps``); nothing is imported before a test asks.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Self

import pytest

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
#: Set to a whole number to shift every seed :func:`create_match` is given by it: how
#: to run a browser test over other games than the one it names (``for k in $(seq
#: 20); do GAMEWEAVE_SEED_OFFSET=$k pytest -m browser; done``).
SEED_OFFSET_ENV = "GAMEWEAVE_SEED_OFFSET"
#: How long a page or a server may take before a test calls it a hang: generous,
#: since a busy machine is slow, and only a hang should fail.
PATIENCE_MS = 30_000


def loopback_socket() -> socket.socket:
    """A TCP socket bound to a free 127.0.0.1 port, owned by the caller until it is
    closed: handing it to a server (instead of a port number to bind again later)
    leaves no moment in which another process could take the port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class LoopbackServer:
    """An ASGI app served by uvicorn in a daemon thread, on a loopback socket bound
    here, for the length of a ``with`` block; ``url`` is its address. It is served
    as ``gameweave serve`` serves (the guarded protocol, which the seat socket
    needs, with the default limits); ``options`` go to ``uvicorn.Config`` over
    those (e.g. other limits), and ``served=False`` leaves uvicorn as it comes."""

    def __init__(
        self, app: Any, start_within: float = 30.0, *, served: bool = True, **options: Any
    ) -> None:
        import uvicorn

        if served:
            from .limits import Limits
            from .server import uvicorn_options

            options = {**uvicorn_options(Limits()), **options}

        self.app = app
        self.socket = loopback_socket()
        self.port = int(self.socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.start_within = start_within
        config = uvicorn.Config(
            app,
            access_log=False,
            log_level="warning",
            timeout_graceful_shutdown=1,
            **options,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    @classmethod
    def for_plugin(
        cls, plugin: ModuleType, name: str, db: Path, *, dev: bool = True
    ) -> LoopbackServer:
        """The Gameweave server hosting only the title ``plugin`` registers, stored in
        ``db``. Development mode (the default here) lets a test choose each match's
        seed and a title's test-only options; ``dev=False`` serves as players get it."""
        from gameweave_core import Registry

        registry = Registry()
        registry.add_plugin(plugin, name, "gameweave", "test")
        return cls.for_registry(registry, db, dev=dev)

    @classmethod
    def for_registry(cls, registry: Any, db: Path, *, dev: bool = True) -> LoopbackServer:
        """The Gameweave server hosting the titles of ``registry``, stored in ``db``,
        served as ``gameweave serve`` serves it (its protocol and limits: the seat
        socket included)."""
        from .app import create_app

        return cls(create_app(db, registry, dev=dev))

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + self.start_within
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"uvicorn did not start on {self.url}")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


def shifted(seed: int) -> int:
    """``seed`` shifted by :data:`SEED_OFFSET_ENV` (unset: ``seed`` itself). A test that
    types a seed into a page (the lobby's seed field) passes it through this too."""
    return seed + int(os.environ.get(SEED_OFFSET_ENV, "0"))


def create_match(
    server: LoopbackServer | str,
    title: str,
    players: int,
    *,
    seed: int,
    bots: Sequence[int] | Mapping[str, str | None] = (),
    **fields: Any,
) -> dict[str, Any]:
    """Create a match through ``POST /api/matches`` and return the reply (its
    ``seats`` carry each seat's join link). ``bots`` are the bot seats: a list of
    seats (each plays the title's default bot), or seat numbers (as text) to bot
    names. ``seed`` is required: every match a test
    makes is the same game on every run (the server must be in development mode,
    as :func:`serve_title`'s are; :data:`SEED_OFFSET_ENV` shifts it, to try others). ``fields`` are further request fields, such as
    ``config``."""
    import httpx

    seed = shifted(seed)
    url = server if isinstance(server, str) else server.url
    seated = dict(bots) if isinstance(bots, Mapping) else list(bots)
    body = {"title": title, "players": players, "bots": seated, "seed": seed, **fields}
    reply = httpx.post(url + "/api/matches", json=body, timeout=PATIENCE_MS / 1000)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright. Without it the test is skipped
    on a developer's machine and fails under CI (``make test`` installs it first)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is missing: make browser-deps should have installed it")
        pytest.skip("Debian's chromium is not installed (make browser-deps)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("playwright is not installed (pip install playwright)")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            yield browser
        finally:
            browser.close()


class SeatPages:
    """Pages opened for one test, each in a browser context of its own (its own
    storage, as another person's browser would be), closed together by
    :meth:`close`. Script errors and refusals by the pages' Content-Security-Policy
    are gathered in :attr:`errors`."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        #: Script errors and CSP refusals of every page, as text: a test usually
        #: asserts it is empty.
        self.errors: list[str] = []

    def open(
        self,
        url: str | None = None,
        *,
        width: int = 1280,
        height: int = 900,
        ready: str | None = None,
        **context: Any,
    ) -> Any:
        """A new page in a new context of ``width`` by ``height``, at ``url`` if
        given (else blank, for a test that sets routes first); with ``ready``, once
        that selector is on the page. ``context`` goes to ``browser.new_context``
        (e.g. ``has_touch=True`` or ``permissions``)."""
        made = self.new_context(viewport={"width": width, "height": height}, **context)
        return self.page(made, url, ready=ready)

    def new_context(self, **options: Any) -> Any:
        """A browser context (one person's browser: its storage, its viewport),
        closed with the others; ``options`` go to ``browser.new_context``."""
        made = self.browser.new_context(**options)
        self.contexts.append(made)
        return made

    def page(self, context: Any, url: str | None = None, *, ready: str | None = None) -> Any:
        """A new page (a tab) in ``context``, watched for errors like every other."""
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", self._console)
        page.set_default_timeout(PATIENCE_MS)
        if url is not None:
            page.goto(url)
        if ready is not None:
            page.wait_for_selector(ready)
        return page

    def _console(self, message: Any) -> None:
        text = str(message.text)
        if "Content Security Policy" in text:
            self.errors.append(text)

    def close(self) -> None:
        """Close every context (and so every page and its event stream)."""
        while self.contexts:
            self.contexts.pop().close()


def page_version(page: Any) -> int:
    """The version of the match the page shows (its ``body[data-version]``), once it
    shows one (a page just opened has drawn nothing yet)."""
    page.wait_for_selector("body[data-version]", state="attached")
    return int(page.get_attribute("body", "data-version"))


def wait_for_new_version(page: Any, before: int) -> int:
    """Wait until the page shows a version other than ``before`` (it drew a newer
    payload), and return it. Built on Playwright's ``expect``, which fails only
    after :data:`PATIENCE_MS`."""
    from playwright.sync_api import expect

    expect(page.locator("body")).not_to_have_attribute(
        "data-version", str(before), timeout=PATIENCE_MS
    )
    return page_version(page)


def wait_for_version(page: Any, at_least: int) -> int:
    """Wait until the page shows version ``at_least`` or a later one, and return it
    (each wait is :func:`wait_for_new_version`'s: versions only grow)."""
    shown = page_version(page)
    while shown < at_least:
        shown = wait_for_new_version(page, shown)
    return shown


# -- the fixtures (pytest loads this module as a plugin) --------------------------------


def pytest_configure(config: pytest.Config) -> None:
    # The mark every browser test carries (``pytest -m browser`` runs only those).
    config.addinivalue_line("markers", "browser: drives Debian's headless Chromium (Playwright)")


@pytest.fixture(scope="session")
def gameweave_browser() -> Iterator[Any]:
    """Debian's headless Chromium, once per test session."""
    with chromium() as browser:
        yield browser


@pytest.fixture
def loopback_servers() -> Iterator[Callable[..., LoopbackServer]]:
    """A factory of started servers: ``loopback_servers(app, **options)`` serves any
    ASGI app (see :class:`LoopbackServer`); every server stops after the test, once
    the test's :func:`seat_pages` are closed."""
    started: list[LoopbackServer] = []

    def start(app: Any, **options: Any) -> LoopbackServer:
        server = LoopbackServer(app, **options).__enter__()
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        server.__exit__(None, None, None)


@pytest.fixture
def serve_title(
    tmp_path: Path, loopback_servers: Callable[..., LoopbackServer]
) -> Callable[..., LoopbackServer]:
    """A factory of started servers: ``serve_title(plugin, name)`` hosts the title
    ``plugin`` registers as ``name`` (development mode unless ``dev=False``), with
    its matches in the test's temporary folder; every server stops after the test."""
    from gameweave_core import Registry

    from .app import create_app

    made: list[LoopbackServer] = []

    def start(plugin: ModuleType, name: str, *, dev: bool = True) -> LoopbackServer:
        registry = Registry()
        registry.add_plugin(plugin, name, "gameweave", "test")
        db = tmp_path / f"{name}-{len(made)}.sqlite3"
        made.append(loopback_servers(create_app(db, registry, dev=dev)))
        return made[-1]

    return start


@pytest.fixture
def seat_pages(
    gameweave_browser: Any, loopback_servers: Callable[..., LoopbackServer]
) -> Iterator[SeatPages]:
    """Pages for this test (see :class:`SeatPages`), closed at its end, before any
    server from :func:`loopback_servers` or :func:`serve_title` stops (so their event
    streams end cleanly, not cut by the server's shutdown)."""
    pages = SeatPages(gameweave_browser)
    try:
        yield pages
    finally:
        pages.close()
