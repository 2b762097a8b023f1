"""The core's conformance kit run on Museum Rush, with its automatic twins drawn by
the title's resample hook (hands, decks, face-down cards, Stash and Buyer cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gameweave_museumrush import MuseumRush

from gameweave_core.testing import TitleConformance


class TestMuseumRushConformance(TitleConformance):
    title = MuseumRush()
    examples = 6


class TestMuseumRushFirstGameConformance(TitleConformance):
    title = MuseumRush()
    config: ClassVar[Mapping[str, Any]] = {"first_game": True}
    examples = 3
