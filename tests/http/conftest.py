"""Fixtures for the HTTP adapter: apps over a temporary SQLite file, a real
uvicorn server in a thread or in a subprocess. The browser, its pages and
servers for them come from gameweave_http.testing (a pytest plugin)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from http_support import SCREENSHOTS, ProcessServer, ThreadServer

from gameweave_core import Registry
from gameweave_http.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def sealed_app(tmp_path: Path, sealed_registry: Registry) -> Any:
    # Development mode: the tests choose seeds to replay what they check.
    return create_app(tmp_path / "matches.sqlite3", sealed_registry, dev=True)


@pytest.fixture
def client(sealed_app: Any) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(sealed_app) as c:
            yield c


@pytest.fixture
def live_sealed(sealed_app: Any) -> Iterator[ThreadServer]:
    with ThreadServer(sealed_app) as server:
        yield server


@pytest.fixture
def process_server(tmp_path: Path) -> Iterator[Any]:
    """A factory of subprocess servers, all stopped at the end of the test."""
    started: list[ProcessServer] = []

    def make(db: Path | None = None, plugins: str = "sealedbid") -> ProcessServer:
        server = ProcessServer(tmp_path, db or tmp_path / "matches.sqlite3", plugins)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def shots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
