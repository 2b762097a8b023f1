"""``gameweave new NAME``: a new title's distribution, whose tests pass as written.

The files come from the templates in ``templates/title/`` (``$slug``, ``$cls``,
``$display`` and ``$year`` filled in): the title in one module (state, actions,
rules, views, resample, a bot, the rules text, the plugin hook), its
``pyproject.toml`` with the entry point, tests running the conformance kit, a golden
log, a README and a LICENSE. The golden log is played here, once the files are
written, by the new title's own bots; its expected screens are recorded by the kit's
:func:`~gameweave_core.testing.golden.write_golden`, so they are exactly what the tests read.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.util
import re
import string
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from gameweave_core import GameweaveError, Match, Registry, play_out

from .render import error

#: Each template and where it goes in the new folder (``{slug}`` filled in).
FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "module.py.tmpl": "gameweave_{slug}.py",
    "test_module.py.tmpl": "tests/test_{slug}.py",
    "conftest.py.tmpl": "tests/conftest.py",
    "README.md.tmpl": "README.md",
    "LICENSE.tmpl": "LICENSE",
}

#: A slug: it names the title, the module ``gameweave_<slug>`` and the distribution.
SLUG = re.compile(r"[a-z][a-z0-9]{1,29}")

#: The recorded game: its seed and players (the title's default bot in every seat).
GOLDEN_SEED = 2026
GOLDEN_PLAYERS = 3


class ScaffoldError(ValueError):
    """Why a title cannot be made there (one line)."""


def check_slug(name: str) -> str:
    """``name`` as a slug, or :class:`ScaffoldError` saying what a slug is."""
    if not SLUG.fullmatch(name):
        raise ScaffoldError(
            f"{name!r} cannot name a title: use 2 to 30 lowercase letters and digits, "
            "starting with a letter (it becomes the module gameweave_NAME)"
        )
    return name


def render(slug: str, display: str, year: int) -> dict[str, str]:
    """Every file of the new title, by its path in the new folder."""
    values = {"slug": slug, "cls": slug.capitalize(), "display": display, "year": str(year)}
    folder = resources.files("gameweave_cli") / "templates" / "title"
    return {
        target.format(slug=slug): string.Template((folder / source).read_text()).substitute(values)
        for source, target in FILES.items()
    }


def write_title(name: str, folder: Path, *, display: str | None = None) -> list[Path]:
    """Write the new title's files into ``folder`` (new, or empty) and return them."""
    slug = check_slug(name)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder")
    shown = display if display is not None else slug.capitalize()
    if not shown.strip() or any(c in shown for c in '\n"\\'):
        raise ScaffoldError(f"--display {shown!r}: one line, without double quotes or backslashes")
    written = []
    for relative, text in render(slug, shown.strip(), dt.date.today().year).items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written


@contextlib.contextmanager
def _imported(folder: Path, slug: str) -> Iterator[object]:
    """The new title's module, imported from ``folder`` for as long as it is needed
    (it is not installed yet)."""
    module_name = f"gameweave_{slug}"
    if module_name in sys.modules:
        raise ScaffoldError(f"a module named {module_name} is already imported here")
    spec = importlib.util.spec_from_file_location(module_name, folder / f"{module_name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # the title names its own module: game=
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(module_name, None)


def record_golden(folder: Path, slug: str) -> tuple[Path, Path | None]:
    """Play the golden game with the new title's bots and save its log; record its
    expected screens with the kit. Returns the log and the expected file (``None``
    when the kit's dependencies, pytest and hypothesis, are not installed)."""
    log = folder / "tests" / "golden" / f"{slug}.toml"
    log.parent.mkdir(parents=True, exist_ok=True)
    with _imported(folder, slug) as module:
        registry = Registry()
        registry.add_plugin(module, slug, f"gameweave-{slug}", "0.1.0")
        match = Match.create(slug, GOLDEN_PLAYERS, GOLDEN_SEED, registry=registry)
        play_out(match, registry=registry)
        try:
            from gameweave_core.testing.golden import golden_path_expected, write_golden
        except ImportError:
            match.save(log)
            return log, None
        write_golden(match, log)  # the log and its expected screens, as the kit reads them
        return log, golden_path_expected(log)


def new(
    name: Annotated[str, typer.Argument(help="The new title's slug, e.g. 'highcard'.")],
    folder: Annotated[
        Path | None, typer.Argument(help="Where to write it (default: ./NAME).")
    ] = None,
    display: Annotated[
        str | None, typer.Option(help="The name shown to players (default: Name).")
    ] = None,
) -> None:
    """Start a new title: a distribution with the game in one file, a bot, the rules
    text, tests with the conformance kit and a golden log, ready to install and test."""
    target = folder if folder is not None else Path(name)
    try:
        written = write_title(name, target, display=display)
        log, expected = record_golden(target, name)
    except (ScaffoldError, GameweaveError, OSError) as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    for path in [*written, log, *([expected] if expected else [])]:
        typer.echo(f"wrote {path}")
    if expected is None:
        typer.echo(
            "pytest and hypothesis are not installed here: after `pip install -e '.[test]'`, "
            "record the golden log's screens once with `GAMEWEAVE_UPDATE_GOLDEN=1 pytest`"
        )
    typer.echo(f"next: cd {target} && pip install -e '.[test]' && pytest")
