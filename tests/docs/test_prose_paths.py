"""The prose names only what exists: every repository path and every ``make`` target
that README.md, CONTRIBUTING.md and the pages under docs/ write as code (an inline
code span or a code block) is in the checkout and the Makefile.

A path is checked when it starts with ``./`` or with a file or folder at the
checkout's top (``gameweave_core/...``, ``titles/...``, ``Makefile``), so a path is
written from the checkout's root; names made up for an example (``gameweave_heist/``)
and what a build writes (``docs/_build/``, ``build/``) are not.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: What builds and runs write: named in the prose, absent from a fresh checkout.
GENERATED = (
    "docs/_build",
    "docs/_generated",
    "build/",
    ".venv",
    "benchmarks/results/",
    "gameweave-logs",  # simulate's logs of failed games
)

FENCE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n(.*?)^\1", re.M | re.S)
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
MAKE = re.compile(r"\bmake ((?:[a-z][a-z0-9-]*)(?: [a-z][a-z0-9-]*)*)")
TARGET = re.compile(r"^([A-Za-z][A-Za-z0-9_.-]*)\s*:(?!=)", re.M)


def pages() -> list[Path]:
    """The prose checked: the README, CONTRIBUTING and every page under docs/."""
    found = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
    skipped = {"_build", "_generated", "node_modules"}
    return [p for p in found if not skipped & set(p.relative_to(ROOT).parts)]


def code_in(text: str) -> list[str]:
    """The code of a page: its code blocks, then its inline code spans."""
    blocks = [m.group(2) for m in FENCE.finditer(text)]
    rest = FENCE.sub("", text)
    return [*blocks, *(m.group(1) for m in SPAN.finditer(rest))]


def make_targets(makefile: Path = ROOT / "Makefile") -> set[str]:
    return set(TARGET.findall(makefile.read_text(encoding="utf-8")))


def named_targets(code: str) -> set[str]:
    """The targets a piece of code runs with ``make`` (``make lint typecheck``)."""
    return {t for m in MAKE.finditer(code) for t in m.group(1).split()}


def named_paths(code: str, top: set[str]) -> set[str]:
    """The repository paths a piece of code names (see the module's docstring)."""
    paths = set()
    for word in re.split(r"[\s,;=|>]+", code):
        word = word.strip("()[]'\"`").rstrip(".:")
        local = word.startswith("./")
        word = word.removeprefix("./").split("#")[0].split("::")[0]
        if not word or "://" in word or any(c in word for c in "*{}<>$%"):
            continue
        first = word.split("/")[0]
        if local or (first in top and ("/" in word or "." in word)):
            paths.add(word.rstrip("/") or ".")
    return paths


def missing(page: Path, top: set[str], targets: set[str]) -> list[str]:
    """What ``page`` names that is not there, one line each."""
    wrong = []
    for code in code_in(page.read_text(encoding="utf-8")):
        wrong += [f"make {t}" for t in sorted(named_targets(code) - targets)]
        for path in sorted(named_paths(code, top)):
            if not path.startswith(GENERATED) and not (ROOT / path).exists():
                wrong.append(path)
    return wrong


def top_level() -> set[str]:
    return {p.name for p in ROOT.iterdir() if not p.name.startswith(".")}


def test_every_path_and_make_target_in_the_prose_exists() -> None:
    top, targets = top_level(), make_targets()
    stale = {
        str(page.relative_to(ROOT)): found
        for page in pages()
        if (found := missing(page, top, targets))
    }
    assert stale == {}, "the prose names what is not there (write paths from the root)"


def test_a_stale_path_or_target_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Run `make lint typecheck`, then `make lintt`.\n\n"
        "```sh\ncd ./house && make check\nmake serve TITLE=house\n```\n\n"
        "The rules are in `gameweave_house/gameweave_house/rules.py`, the old ones in\n"
        "`titles/house-job/rules.py`; `gameweave_heist/rules.py` is an example.\n",
        encoding="utf-8",
    )
    makefile = tmp_path / "Makefile"
    makefile.write_text("X := 1\nlint: a\ntypecheck:\n\tmypy\ncheck: lint\nserve:\n")
    found = missing(page, top_level(), make_targets(makefile))
    assert found == ["house", "make lintt", "titles/house-job/rules.py"]
