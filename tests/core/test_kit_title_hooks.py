"""The resample hook and test-only options as the Title base class declares them."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from gameweave_core import Rng, Title
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.state import State


class Bare(SealedBid):
    """Sealed Bids as if it had never written resample, with two options."""

    name = "bare"
    resample = Title.resample
    default_config: ClassVar[dict[str, Any]] = {"lots": [], "fast": False}


def test_can_resample_says_whether_a_title_overrides_the_hook() -> None:
    assert SealedBid().can_resample
    assert not Bare().can_resample


def test_the_base_hook_refuses_naming_the_title() -> None:
    title = Bare()
    state: State = title.setup(2, title.check_config(2, {}), Rng(1))
    with pytest.raises(NotImplementedError, match="bare does not implement resample"):
        title.resample(state, 1, Rng(2))


def test_offered_options_leave_out_the_test_only_ones() -> None:
    assert Bare.test_only_options == frozenset({"lots"})
    assert Bare().offered_options() == {"fast": False}
    assert Title.test_only_options == frozenset()
