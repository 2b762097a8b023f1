"""Fixtures of the CLI tests: the tutorial title installed as a plugin.

The CLI finds titles through the ``gameweave`` entry points, so the tests give
Sealed Bids a minimal ``.dist-info`` folder on the path (in this process through
``sys.path``, in child processes through ``PYTHONPATH``) instead of installing it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gameweave_core import Rng, Title, default_registry
from gameweave_core.registry import ENV_LOAD_PLUGINS

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial" / "sealed-bid"

from gameweave_sealedbid.title import SealedBid, State  # noqa: E402  (path set in tests/conftest.py)


def make_dist(folder: Path, name: str, entry_points: Mapping[str, str]) -> Path:
    """A minimal installed distribution: just enough metadata for entry points."""
    dist = folder / f"{name.replace('-', '_')}-1.0.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0.0\n")
    lines = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (dist / "entry_points.txt").write_text(f"[gameweave]\n{lines}")
    return folder


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder on which Sealed Bids looks installed (distribution gameweave-sealedbid)."""
    folder = tmp_path_factory.mktemp("site")
    return make_dist(folder, "gameweave-sealedbid", {"sealedbid": "gameweave_sealedbid.plugin"})


@pytest.fixture
def child_env(plugin_dir: Path) -> dict[str, str]:
    """Environment of a ``gameweave`` subprocess that sees only Sealed Bids."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(plugin_dir), str(TUTORIAL)])
    env[ENV_LOAD_PLUGINS] = "sealedbid"
    env["COLUMNS"] = "100"
    return env


@pytest.fixture(scope="session")
def buggy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder on which the titles of ``buggy.py`` look installed (distribution
    gameweave-buggy 1.0.0, entry point ``buggy``)."""
    from . import buggy

    folder = tmp_path_factory.mktemp("buggy-site")
    return make_dist(folder, "gameweave-buggy", {"buggy": buggy.__name__})


@pytest.fixture
def buggy_env(child_env: dict[str, str], buggy_dir: Path) -> dict[str, str]:
    """Environment of a ``gameweave`` subprocess that sees Sealed Bids and the
    planted-bug titles."""
    from . import buggy

    # The folder the test package is imported from (``cli.buggy`` -> tests/).
    package_root = Path(buggy.__file__).parents[buggy.__name__.count(".")]
    env = dict(child_env)
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(buggy_dir), str(package_root)])
    env[ENV_LOAD_PLUGINS] = "sealedbid,buggy"
    return env


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch, plugin_dir: Path) -> Iterator[Any]:
    """Sealed Bids installed for this process; yields the default registry.

    The registry is cached per process, so it is rebuilt here and dropped after the
    test: no other test sees the tutorial title or the test titles added to it.
    """
    monkeypatch.syspath_prepend(str(plugin_dir))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(plugin_dir), str(TUTORIAL)]))
    monkeypatch.setenv(ENV_LOAD_PLUGINS, "sealedbid")
    monkeypatch.setenv("COLUMNS", "100")
    default_registry.cache_clear()
    try:
        yield default_registry()
    finally:
        default_registry.cache_clear()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cd_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in an empty folder (``play`` and ``simulate`` write ./gameweave-logs there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- titles made for these tests ------------------------------------------------------


class PlainBid(SealedBid):
    """Sealed Bids without a renderer, labels, parser or rules text: the CLI's
    generic fallbacks."""

    name = "plainbid"
    display_name = "Plain Bids"

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        return None

    def describe_action(self, action: Any) -> str:
        return Title.describe_action(self, action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        return Title.parse_action(self, text, legal)

    def seat_label(self, state: State, seat: int) -> str:
        return Title.seat_label(self, state, seat)

    def rules_text(self) -> Mapping[str, str]:
        return {}  # no rules text


class OpenBid(PlainBid):
    """Plain Bids declared free of secrets: hot-seat play needs no hand-over."""

    name = "openbid"
    display_name = "Open Bids"

    def has_secrets(self, state: State, seat: int) -> bool:
        return False


class ClumsyBid(SealedBid):
    """Sealed Bids whose terminal drawing, action labels and parser raise."""

    name = "clumsybid"
    display_name = "Clumsy Bids"

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        raise KeyError("crest")

    def describe_action(self, action: Any) -> str:
        raise TypeError("no label")

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        raise AttributeError("no parser")


class FragileBid(SealedBid):
    """Sealed Bids with a bug: revealing the bids on a 9-point first lot raises."""

    name = "fragilebid"
    display_name = "Fragile Bids"

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Any]:
        if state.sold == 0 and state.lot == 9 and len(state.bids) == state.players - 1:
            raise ZeroDivisionError("the auctioneer divided by zero")
        return list(super().apply(state, seat, action, rng))


class ThreeFails(SealedBid):
    """Sealed Bids whose setup has a bug with three players."""

    name = "threefails"
    display_name = "Three Fails"

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        if players == 3:
            raise IndexError("no third paddle")
        return super().setup(players, config, rng)


def add_titles(
    registry: Any, *titles: Title[Any], distribution: str = "gameweave-tests", version: str = "0"
) -> None:
    for title in titles:
        registry.add_title(title, distribution, version)


def first_lot(title: Title[Any], seed: int) -> int:
    """The first lot of a Sealed Bids match with ``seed`` (through the public view)."""
    from gameweave_core import Match

    return int(Match(title, 2, seed).view(None)["lot"])


def seed_where(title: Title[Any], wanted: bool) -> int:
    """The smallest seed whose first lot is (or is not) the 9-point lot."""
    return next(s for s in range(1000) if (first_lot(title, s) == 9) == wanted)


__all__ = [
    "ROOT",
    "TUTORIAL",
    "ClumsyBid",
    "FragileBid",
    "PlainBid",
    "ThreeFails",
    "add_titles",
    "make_dist",
    "seed_where",
]
