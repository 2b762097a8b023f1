"""The kit's deeper mode for a nightly run: GAMEWEAVE_KIT_DEPTH multiplies every
check's examples and the bot-played matches the moved-step twins look at."""

from __future__ import annotations

import pytest

from gameweave_core.testing.conformance import _kit
from gameweave_core.testing.moved import DEPTH_ENV, depth


def test_unset_the_kit_runs_at_its_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DEPTH_ENV, raising=False)
    assert depth() == 1
    assert _kit(6).max_examples == 6


def test_a_depth_multiplies_every_checks_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DEPTH_ENV, "5")
    assert depth() == 5
    assert _kit(6).max_examples == 30


@pytest.mark.parametrize("raw", ["0", "-2", "deep", "1.5"])
def test_a_depth_that_is_not_a_whole_number_of_at_least_one_is_one_line(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv(DEPTH_ENV, raw)
    with pytest.raises(
        ValueError, match=f"GAMEWEAVE_KIT_DEPTH must be a whole number of at least 1, not '{raw}'"
    ):
        depth()


def test_the_deeper_twins_are_drawn_only_in_a_deeper_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Museum Job's twins mostly end within a step or two (the seat is soon told
    # a card or a die), which is when the deeper twins would be drawn.
    from gameweave_core.registry import default_registry
    from gameweave_core.testing.resampled import check_resampled_twins

    title = default_registry().title("museum")
    monkeypatch.delenv(DEPTH_ENV, raising=False)
    plain = check_resampled_twins(title, 3, 7, moved_spines=0)
    monkeypatch.setenv(DEPTH_ENV, "2")
    deep = check_resampled_twins(title, 3, 7, moved_spines=0)
    assert plain.deeper == 0
    assert deep.deeper > 0
    assert deep.twins == plain.twins + deep.deeper
