"""Plugins: entry points, the env filter, duplicates, bots from other plugins."""

from __future__ import annotations

import inspect
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Match, PluginError, Registry, UnknownTitle, hooks, play_out
from gameweave_core.registry import ENV_LOAD_PLUGINS
from gameweave_sealedbid import SealedBid


def _install_throwaway(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    dist: Any = "gameweave-coinflip",
    version: Any = "0.3.0",
) -> None:
    """Install a third-party title the way pip would leave it: a module and a
    .dist-info with an entry point in the ``gameweave`` group."""
    (tmp_path / "coinflip_plugin.py").write_text(
        textwrap.dedent(
            """
            from gameweave_core import hookimpl
            from gameweave_sealedbid import SealedBid


            class CoinFlip(SealedBid):
                name = "coinflip"
                display_name = "Coin Flip"


            @hookimpl
            def register_titles(register):
                register(CoinFlip())


            class AlwaysZero:
                def act(self, observation, rng):
                    return observation.legal[0]


            @hookimpl
            def register_bots(register):
                register("sealedbid", "zero", lambda seat, players: AlwaysZero())
            """
        )
    )
    info = tmp_path / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text("[gameweave]\ncoinflip = coinflip_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "coinflip_plugin", raising=False)


def test_an_installed_third_party_title_is_listed_and_playable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install_throwaway(tmp_path, monkeypatch)
    registry = Registry()
    registry.load_entry_points(env={ENV_LOAD_PLUGINS: "coinflip"})
    assert registry.names() == ["coinflip"]
    entry = registry.entry("coinflip")
    assert (entry.distribution, entry.distribution_version) == ("gameweave-coinflip", "0.3.0")
    match = play_out(Match.create("coinflip", 2, seed=1, registry=registry), registry=registry)
    assert match.is_over
    assert match.to_log().distribution == "gameweave-coinflip"


def test_load_plugins_env_selects_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_throwaway(tmp_path, monkeypatch)
    nothing = Registry()
    nothing.load_entry_points(env={ENV_LOAD_PLUGINS: ""})
    assert nothing.names() == []
    everything = Registry()
    everything.load_entry_points(env={})
    assert "coinflip" in everything.names()


def test_plugins_add_bots_to_other_titles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sealed_registry: Any
) -> None:
    _install_throwaway(tmp_path, monkeypatch)
    import coinflip_plugin  # type: ignore[import-not-found]  # written by _install_throwaway

    sealed_registry.add_plugin(coinflip_plugin, "coinflip", "gameweave-coinflip", "0.3.0")
    title = sealed_registry.title("sealedbid")
    assert set(sealed_registry.bots(title)) == {"random", "ismcts", "thrifty", "zero"}
    match = Match.create("sealedbid", 2, seed=2, registry=sealed_registry)
    play_out(match, {1: "zero", 2: "zero"}, registry=sealed_registry)
    assert match.view(None)["coins"] == [20, 20]


def test_a_duplicate_title_name_names_both_distributions(sealed_registry: Any) -> None:
    with pytest.raises(
        PluginError,
        match="two titles are named 'sealedbid': one from gameweave-sealedbid, one from imposter",
    ):
        sealed_registry.add_title(SealedBid(), "imposter", "6.6.6")


def test_a_plugin_that_fails_to_import_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gameweave]\nbroken = no_such_module_here\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError, match="plugin 'broken' .* failed to load: No module named"):
        Registry().load_entry_points(env={ENV_LOAD_PLUGINS: "broken"})


def test_unknown_titles_and_bots_list_what_exists(sealed_registry: Any) -> None:
    with pytest.raises(
        UnknownTitle, match="no title named 'chess' is installed; installed: sealedbid"
    ):
        sealed_registry.entry("chess")
    from gameweave_core import ConfigError

    with pytest.raises(ConfigError, match="has no bot 'genius'; bots: ismcts, random, thrifty"):
        sealed_registry.bot(sealed_registry.title("sealedbid"), "genius")


def test_every_hookspec_is_documented_and_typed() -> None:
    specs = [f for name, f in vars(hooks).items() if callable(f) and hasattr(f, "gameweave_spec")]
    assert {f.__name__ for f in specs} == {"register_titles", "register_bots", "register_commands"}
    for spec in specs:
        assert spec.__doc__ and len(spec.__doc__.split()) > 15, spec.__name__
        signature = inspect.signature(spec)
        assert all(
            p.annotation is not inspect.Parameter.empty for p in signature.parameters.values()
        )


def test_the_search_bot_comes_through_the_bot_hook_like_any_plugins_bot(
    sealed_registry: Any,
) -> None:
    from types import ModuleType

    from gameweave_core import hookimpl
    from gameweave_core.bots import random_bot
    from gameweave_core.ismcts import IsmctsFactory

    # ismcts is the core's bundled plugin, registered in every registry ...
    assert hooks.BUNDLED_PLUGINS == {"ismcts": "gameweave_core.ismcts"}
    title = sealed_registry.title("sealedbid")
    assert isinstance(sealed_registry.bots(title)["ismcts"], IsmctsFactory)
    # ... and a registry made without it has none: the registry names no bot itself.
    bare = Registry(bundled=False)
    bare.add_title(title)
    assert set(bare.bots(title)) == {"random", "thrifty"}

    # Any plugin may offer a bot for every title the same way.
    plugin = ModuleType("everywhere")

    @hookimpl
    def register_bots(register: Any) -> None:
        register.every_title("first", lambda t: lambda seat, players: random_bot(seat, players))
        register.every_title("picky", lambda t: None)  # plays no title

    plugin.register_bots = register_bots  # type: ignore[attr-defined]
    bare.add_plugin(plugin, "everywhere")
    assert set(bare.bots(title)) == {"random", "thrifty", "first"}
    again = ModuleType("again")
    again.register_bots = register_bots  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match="registers bot 'first' for every title, and that name"):
        bare.add_plugin(again, "again")
