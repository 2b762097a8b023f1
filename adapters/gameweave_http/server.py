"""Running the app on uvicorn: what ``gameweave serve`` calls."""

from __future__ import annotations

import logging
from pathlib import Path

from .app import create_app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = "gameweave.sqlite3",
    fsync: bool = False,
) -> None:
    """Serve the browser client and the API on ``host:port``, storing matches in ``db``.

    Binds the loopback interface unless told otherwise. uvicorn's own access log is
    off: the app writes one without query strings, which can hold seat tokens.
    Every action is committed before its reply, which survives the process being
    killed; ``fsync`` also flushes each commit to disk, against the machine going
    down, at several milliseconds an action.
    """
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(db, fsync=fsync)
    print(f"Gameweave serving on http://{host}:{port}/ (matches in {Path(db).resolve()})")
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
        log_level="info",
        # Open event streams would otherwise hold a shutdown up forever.
        timeout_graceful_shutdown=2,
    )


if __name__ == "__main__":  # python -m gameweave_http.server [port] [db]
    import sys

    args = sys.argv[1:]
    serve(
        port=int(args[0]) if args else 8000,
        db=args[1] if len(args) > 1 else "gameweave.sqlite3",
    )
