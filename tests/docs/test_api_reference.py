"""docs/reference/api.md, the API reference kept in the repository, is what the code
says today: it is rendered afresh from the signatures and docstrings and compared."""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
if str(DOCS / "_ext") not in sys.path:
    sys.path.insert(0, str(DOCS / "_ext"))

import apiref  # noqa: E402  (lives in docs/_ext, put on the path above)


def test_the_api_page_in_the_repository_is_up_to_date() -> None:
    fresh = apiref.render()
    kept = apiref.TARGET.read_text()
    assert kept == fresh, (
        f"{apiref.TARGET.relative_to(DOCS.parent)} is out of date with the code: "
        f"run {apiref.COMMAND} and commit it"
    )


def test_the_page_shows_signatures_and_defaults_in_plain_markdown() -> None:
    page = apiref.TARGET.read_text()
    assert "#### `Match.load(path: str | Path, *, registry: Registry | None = None, " in page
    assert "### class `ModuleTitle()`" in page
    # Sphinx roles are turned into code spans: nothing needs Sphinx to read.
    assert ":class:`" not in page and ":meth:`" not in page
    assert not re.search(r"(?<!`)``(?!`)", page)  # no reST double backticks either
    assert "Default: `True` (the safe" in page  # Title.has_secrets states its default


def test_a_docstring_change_shows_as_out_of_date() -> None:
    def documented() -> None:
        """Before."""

    documented.__module__ = "gameweave_core.title"
    before = apiref.prose(documented.__doc__)
    documented.__doc__ = "After, with ``code`` and :class:`~gameweave_core.match.Match`."
    assert apiref.prose(documented.__doc__) == "After, with `code` and `Match`.\n" != before
