"""Gameweave's local HTTP adapter: a Starlette app, its SQLite match store and a
static browser client.

Run it with ``gameweave serve`` (see :func:`gameweave_http.server.serve`); build
the app for tests or embedding with :func:`gameweave_http.app.create_app`.

Importing the package needs none of the server's dependencies (the ``http`` extra):
:mod:`gameweave_http.testing`, which pytest loads as a plugin wherever gameweave is
installed, must import without them; ``create_app`` is imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
