"""Master Thief under Gameweave's conformance kit, with the automatic twins drawn by
its resample hook (hands, Calling Cards, the Museum pile and the Thief deck)."""

from __future__ import annotations

from gameweave_masterthief import MasterThief

from gameweave_core import Registry, default_registry
from gameweave_core.testing import TitleConformance


class TestMasterThiefConformance(TitleConformance):
    title = MasterThief()
    examples = 24

    def registry(self) -> Registry:
        """Only this title: the kit does not depend on other installed plugins."""
        registry = Registry()
        registry.add_title(self.title)
        return registry


def test_the_installed_plugin_registers_the_title() -> None:
    entry = default_registry().entry("masterthief")
    assert isinstance(entry.title, MasterThief)
    assert entry.distribution == "gameweave-master-thief"
