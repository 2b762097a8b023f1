"""The docs' titles page lists the project's titles (issue 31.5: it read them from
the core's distribution, which registers none, and showed an empty table)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from gameweave_core import default_registry

DOCS = Path(__file__).resolve().parents[2] / "docs"
if str(DOCS / "_ext") not in sys.path:  # gameweave_docs, the docs' own extension
    sys.path.insert(0, str(DOCS / "_ext"))


def test_the_titles_table_lists_every_title_the_project_ships() -> None:
    import gameweave_docs as gd

    conf = runpy.run_path(str(DOCS / "conf.py"))
    table = gd.titles_table(default_registry(), conf["gameweave_titles_from"])
    for name in ("museum", "house", "museumheist", "masterthief", "museumrush"):
        assert f"| `{name}` |" in table, name
    assert len(table.strip().splitlines()) == 2 + 5
    page = (DOCS / "titles.md").read_text(encoding="utf-8")
    assert "Two ship with the project" not in page and "Five ship with the project" in page
    assert "tutorial" in page and "gameweave rules TITLE" in page
