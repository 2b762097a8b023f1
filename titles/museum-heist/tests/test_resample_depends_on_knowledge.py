"""The resample hook draws only from what the seat knows (the conformance kit holds
every title to it: one seed, one draw, from any state the seat cannot tell apart)."""

from __future__ import annotations

import copy

from gameweave_museumheist import MuseumHeist
from gameweave_museumheist.actions import Challenge
from gameweave_museumheist.resample import resample
from helpers import act, position

from gameweave_core import Rng

TITLE = MuseumHeist()


def test_what_another_seat_alone_was_shown_last_round_is_drawn_again() -> None:
    """Seat 1 challenged seat 2 wrongly and was shown its card, in a two-player round
    that then ended. A spectator never saw it: two states where seat 2's card was
    another one look the same to it and draw the same state."""
    a = position({"artist": "D4"}, "A1", players=2, chosen=["artist", "duchess"])
    b = position({"artist": "D4"}, "A1", players=2, chosen=["artist", "tourist"])
    for state in (a, b):
        act(state, 1, Challenge(2, "boy"))
    assert a.last is not None and b.last is not None
    assert a.last.shown[0] == {2: "duchess"} and b.last.shown[0] == {2: "tourist"}
    for seat in (None,):
        for k in range(5):
            assert TITLE.snapshot(resample(a, seat, Rng(k))) == TITLE.snapshot(
                resample(b, seat, Rng(k))
            )
    # Seat 1 saw it: its draws keep it.
    assert resample(a, 1, Rng(0)).last.shown[0] == {2: "duchess"}  # type: ignore[union-attr]
    before = copy.deepcopy(a)
    resample(a, 2, Rng(3))
    assert a == before
