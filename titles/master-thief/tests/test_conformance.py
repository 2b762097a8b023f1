"""Master Thief under Gameweave's conformance kit, with the automatic twins drawn by
its resample hook (hands, Calling Cards, the Museum pile and the Thief deck)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from gameweave_masterthief import MasterThief
from gameweave_masterthief.state import State
from hypothesis import strategies as st

from gameweave_core import Event, Registry, Rng, default_registry
from gameweave_core.testing import TitleConformance, Twin, check_indistinguishable

# The whole kit takes tens of seconds a title: `make check` (the inner loop) leaves it
# to `make test`, which runs it in full.
pytestmark = pytest.mark.slow


def latch_twin() -> Twin:
    """Seat 1 tries to escape; seat 2 holds a Latch in one match and a Trip in the
    other, and lets it go in both. Seat 3 and spectators must not tell them apart
    (the museum order is the same in both, so the automatic twins' reshuffled
    Museum does not end the comparison at the next steal)."""
    common = {
        "museum": ["Astrolabe", "Ruby Sceptre", "Opal Brooch", "T-Rex Skull"],
        "calling": ["The Looter", "The Cat Burglar", "The Collector"],
    }
    filler = ["Deep Pockets", "Lift", "Raid", "Trip"]
    hands = {
        "a": [*filler, "Latch", "Lift", "Raid", "Raid", *filler],
        "b": [*filler, "Trip", "Lift", "Raid", "Raid", *filler],
    }
    actions = [
        (1, {"type": "steal"}),
        (2, {"type": "steal"}),
        (3, {"type": "steal"}),
        (1, {"type": "steal"}),
        (1, {"type": "end"}),
        (1, {"type": "escape"}),
        (3, {"type": "pass"}),
        (2, {"type": "pass"}),
    ]
    return Twin(
        players=3,
        seed=5,
        actions_a=actions,
        actions_b=actions,
        seats=[1, 3],
        config_a={**common, "deck": hands["a"]},
        config_b={**common, "deck": hands["b"]},
    )


def grip_twin() -> Twin:
    """Seat 1 swipes seat 2's Ruby Sceptre; seat 2 holds a Grip in one match and a
    Trip in the other, and lets the Swipe happen in both."""
    filler = ["Deep Pockets", "Lift", "Raid", "Trip"]
    common = {
        "museum": ["Astrolabe", "Ruby Sceptre", "Opal Brooch", "T-Rex Skull"],
        "calling": ["The Looter", "The Cat Burglar", "The Collector"],
    }
    mine = ["Swipe", "Lift", "Raid", "Trip"]
    actions = [
        (1, {"type": "steal"}),
        (2, {"type": "steal"}),
        (3, {"type": "steal"}),
        (1, {"type": "steal"}),
        (1, {"type": "swipe", "target": 2, "item": "Ruby Sceptre"}),
        (2, {"type": "pass"}),
        (1, {"type": "end"}),
    ]
    return Twin(
        players=3,
        seed=5,
        actions_a=actions,
        actions_b=actions,
        seats=[1, 3],
        config_a={**common, "deck": [*mine, "Grip", "Lift", "Raid", "Deep Pockets", *filler]},
        config_b={**common, "deck": [*mine, "Trip", "Lift", "Raid", "Deep Pockets", *filler]},
    )


class TestMasterThiefConformance(TitleConformance):
    title = MasterThief()
    examples = 24
    golden = Path(__file__).resolve().parent / "golden"

    def twins(self) -> st.SearchStrategy[Twin]:
        return st.sampled_from([latch_twin(), grip_twin()])

    def registry(self) -> Registry:
        """Only this title: the kit does not depend on other installed plugins."""
        registry = Registry()
        registry.add_title(self.title)
        return registry


def test_the_installed_plugin_registers_the_title() -> None:
    entry = default_registry().entry("masterthief")
    assert isinstance(entry.title, MasterThief)
    assert entry.distribution == "gameweave-master-thief"


class LeakyThief(MasterThief):
    """Master Thief whose Grip and Latch windows ask only the thieves holding one."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> Sequence[Event]:
        events = super().apply(state, seat, action, rng)
        window = state.window
        if window is not None and window.trigger != "security":
            card = "Latch" if window.trigger == "escape" else "Grip"
            window.order = [s for s in window.order if card in state.hands[s - 1]]
        return events


@pytest.mark.parametrize("twin", [latch_twin(), grip_twin()], ids=["latch", "grip"])
def test_the_twins_catch_a_window_that_asks_only_the_holders(twin: Twin) -> None:
    check_indistinguishable(MasterThief(), twin)
    with pytest.raises(AssertionError, match="seat 1 can tell the twin matches apart"):
        check_indistinguishable(LeakyThief(), twin)
