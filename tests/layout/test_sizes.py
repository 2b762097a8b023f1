"""No module of a title is past 700 lines: past that, it is cut by concept (see
docs/architecture.md, "How a title is laid out"), with ``rules.py`` the way in. The
conformance kit's package (gameweave_core/testing/) keeps to the same limit."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The most lines a title's module may have.
LIMIT = 700


def title_modules(root: Path = ROOT) -> list[Path]:
    """The modules of every title in the repository: each distribution's packages
    (the two games at the top, the published ones under titles/, the tutorial's)
    and the one-file titles."""
    folders = [root / "gameweave_museum", root / "gameweave_house", root / "docs" / "tutorial"]
    folders += sorted(p.parent for p in (root / "titles").glob("*/pyproject.toml"))
    found: list[Path] = []
    for folder in folders:
        found += folder.glob("**/gameweave_*/*.py")
    found += (root / "benchmarks").glob("*/gameweave_*.py")
    return sorted(p for p in found if "build" not in p.relative_to(root).parts)


def too_long(paths: list[Path], limit: int = LIMIT) -> dict[str, int]:
    """The files of ``paths`` with more than ``limit`` lines, with their counts."""
    counts = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in paths
    }
    return {name: n for name, n in counts.items() if n > limit}


def test_the_titles_modules_are_found() -> None:
    names = {str(p.relative_to(ROOT)) for p in title_modules()}
    assert "gameweave_museum/gameweave_museum/rules.py" in names
    assert "gameweave_house/gameweave_house/rules.py" in names
    assert "titles/master-thief/gameweave_masterthief/rules.py" in names
    assert "benchmarks/tictactoe/gameweave_tictactoe.py" in names


def test_no_title_module_is_past_700_lines() -> None:
    assert too_long(title_modules()) == {}, "cut these by concept (docs/architecture.md)"


def test_a_module_past_the_limit_is_named() -> None:
    long = ROOT / "gameweave_museum" / "gameweave_museum" / "rules.py"
    lines = len(long.read_text(encoding="utf-8").splitlines())
    assert too_long([long], limit=lines - 1) == {
        "gameweave_museum/gameweave_museum/rules.py": lines
    }
    assert too_long([long], limit=lines) == {}


def kit_modules(root: Path = ROOT) -> list[Path]:
    """The modules of the conformance kit, one per job."""
    return sorted((root / "gameweave_core" / "testing").glob("*.py"))


def test_the_kit_is_a_package_of_modules_within_the_limit() -> None:
    names = {p.name for p in kit_modules()}
    assert {"__init__.py", "conformance.py", "golden.py", "watch.py", "twins.py"} <= names
    assert not (ROOT / "gameweave_core" / "testing.py").exists()
    assert too_long(kit_modules()) == {}, "cut these by job (gameweave_core/testing/__init__.py)"
