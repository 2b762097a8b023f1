"""Gameweave's local HTTP adapter: a Starlette app, its SQLite match store and a
static browser client.

Run it with ``gameweave serve`` (see :func:`gameweave_http.server.serve`); build
the app for tests or embedding with :func:`gameweave_http.app.create_app`.
"""

from .app import create_app

__all__ = ["create_app"]
