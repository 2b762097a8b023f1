"""The HTTP reference page is generated from the server's own OpenAPI document."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
if str(DOCS / "_ext") not in sys.path:
    sys.path.insert(0, str(DOCS / "_ext"))

import gameweave_docs as gd  # noqa: E402  (lives in docs/_ext, put on the path above)


def test_the_real_http_api_renders_every_path() -> None:
    from gameweave_http.routes import schema

    doc = schema()
    page = gd.render_http(doc)
    for path, item in doc["paths"].items():
        for method in item:
            if method in gd._METHODS:
                assert f"## `{method.upper()} {path}`" in page
