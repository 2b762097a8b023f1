"""The core's conformance kit run on Museum Rush, with its automatic twins drawn by
the title's resample hook (hands, decks, face-down cards, Stash and Buyer cards)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from gameweave_museumrush import MuseumRush

from gameweave_core.testing import TitleConformance

# The whole kit takes tens of seconds a title: `make check` (the inner loop) leaves it
# to `make test`, which runs it in full.
pytestmark = pytest.mark.slow


class TestMuseumRushConformance(TitleConformance):
    title = MuseumRush()
    examples = 6
    golden = Path(__file__).resolve().parent / "golden"


class TestMuseumRushFirstGameConformance(TitleConformance):
    title = MuseumRush()
    config: ClassVar[Mapping[str, Any]] = {"first_game": True}
    examples = 3
