"""The documentation's own directives, in a tiny Sphinx project. ``make docs``
builds with warnings as errors, so a warning here is a failed build there."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

DOCS = Path(__file__).resolve().parents[2] / "docs"
for folder in (DOCS / "_ext", DOCS / "tutorial" / "sealed-bid"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

CONF = """
extensions = ["myst_parser", "gameweave_docs"]
exclude_patterns = ["_build", "_generated"]
"""

#: What the picture directive is pointed at in these tests.
SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'


#: This module's import name, for the directive to find the functions below.
HERE = __name__


def square_svg(colour: str = "black") -> str:
    return SQUARE.replace("<rect ", f'<rect fill="{colour}" ')


def not_svg() -> int:
    return 3


def build(tmp_path: Path, pages: dict[str, str], conf: str = "") -> tuple[Path, str]:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF + conf)
    for name, text in pages.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    out = tmp_path / "out"
    warnings = io.StringIO()
    # A fresh docutils registry per build: Sphinx registers nodes and directives
    # globally, and complains when a second app in the process does it again.
    with docutils_namespace():
        app = Sphinx(
            str(src), str(src), str(out), str(tmp_path / "doctrees"), "html",
            status=None, warning=warnings,
        )  # fmt: skip
        app.build()
    return out, re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue())


def toctree(*entries: str) -> str:
    return "```{gameweave-toctree}\n:glob:\n\n" + "\n".join(entries) + "\n```\n"


def test_a_glob_that_matches_nothing_is_quietly_left_out(tmp_path: Path) -> None:
    pages = {
        "index.md": "# Home\n\n" + toctree("titles/*/index", "more/*"),
        "more/one.md": "# One\n",
    }
    out, warnings = build(tmp_path, pages)
    assert warnings == ""
    home = (out / "index.html").read_text()
    assert 'href="more/one.html"' in home


def test_a_plain_entry_to_a_missing_page_still_warns(tmp_path: Path) -> None:
    _, warnings = build(tmp_path, {"index.md": "# Home\n\n" + toctree("missing")})
    assert "nonexisting document 'missing'" in warnings


def test_a_picture_is_drawn_by_the_code(tmp_path: Path) -> None:
    page = (
        f"# Home\n\n```{{gameweave-svg}} {HERE}:square_svg\n"
        ':alt: a red square\n:kwargs: {"colour": "red"}\n```\n'
    )
    out, warnings = build(tmp_path, {"index.md": page})
    assert warnings == ""
    html = (out / "index.html").read_text()
    assert 'alt="a red square"' in html
    (svg,) = (out / "_images").glob("*.svg")
    assert svg.read_text() == square_svg("red")


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        ("square_svg\n", "give :alt:"),
        ("not_svg\n:alt: x\n", "returned int, not SVG"),
        ("square_svg\n:alt: x\n:kwargs: {nope\n", "not JSON"),
    ],
)
def test_a_bad_picture_fails_the_build(tmp_path: Path, body: str, complaint: str) -> None:
    page = f"# Home\n\n```{{gameweave-svg}} {HERE}:{body}```\n"
    _, warnings = build(tmp_path, {"index.md": page})
    assert complaint in warnings


def test_every_exported_name_must_be_in_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "fakeapi.py"
    module.write_text(
        '__all__ = ["shown", "forgotten"]\n\n\n'
        'def shown():\n    """In the reference."""\n\n\n'
        'def forgotten():\n    """Left out."""\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    conf = 'extensions.append("sphinx.ext.autodoc")\ngameweave_public_api = "fakeapi"\n'
    page = "# API\n\n```{eval-rst}\n.. automodule:: fakeapi\n   :members: shown\n```\n"
    _, warnings = build(tmp_path, {"index.md": page}, conf)
    assert "fakeapi.__all__ names undocumented in the reference: forgotten" in warnings
    assert "shown" not in warnings.split("reference:")[1]
