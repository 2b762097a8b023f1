"""The end of the heist: what every view then shows of the Thief's night comes with
the event that ends it (a seat learns only through the events it reads)."""

from __future__ import annotations

import pytest

from gameweave_core.testing import random_match
from gameweave_museum import MuseumJob

TITLE = MuseumJob()


@pytest.mark.parametrize("seed", range(4))
def test_the_last_event_carries_the_reveal_every_view_shows(seed: int) -> None:
    match = random_match(TITLE, 2 + seed % 3, seed)
    ended = [e for e in match.events(None) if e.get("kind") in ("dawn", "catch", "escape")]
    assert len(ended) == 1
    for watcher in (2, None):
        assert ended[0]["data"]["reveal"] == match.view(watcher)["reveal"]
