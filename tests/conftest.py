"""Shared test setup.

The tutorial title (docs/tutorial/sealed-bid) is the core's test bed. It is a
separate distribution; here it is imported from its folder and registered by hand,
so the project's own environment need not install it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

# Gameweave's pytest plugins, asked for here and nowhere else (a library never loads
# them into a project that did not ask): every match seeded, one Hypothesis policy,
# and the server and browser fixtures. See docs/reference/test-helpers.md.
pytest_plugins = ["gameweave_core.pytest_plugin", "gameweave_http.testing"]

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial" / "sealed-bid"
if str(TUTORIAL) not in sys.path:
    sys.path.insert(0, str(TUTORIAL))


@pytest.fixture
def sealed_registry() -> Any:
    """A registry holding only the tutorial title, as its plugin registers it."""
    from gameweave_core import Registry
    from gameweave_sealedbid import plugin

    registry = Registry()
    registry.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    return registry
