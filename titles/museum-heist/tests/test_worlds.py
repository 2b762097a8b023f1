"""The resample as a world the core checks (``resample_world``; see
gameweave_core.worlds): every choice of every round drawn again where the seat did
not see it, at the step it was made, and replayed by the core beside the real match."""

from __future__ import annotations

from functools import cache

import pytest
from gameweave_museumheist import MuseumHeist, resample
from gameweave_museumheist.board import CHARACTERS
from gameweave_museumheist.state import HISTORY_FIELDS

from gameweave_core import Match, Rng, derive_seed, play_out
from gameweave_core.testing import check_worlds, random_match
from gameweave_core.worlds import resampled_world

TITLE = MuseumHeist()


@cache
def games() -> list[Match]:
    """Whole games of the heuristic bots (who challenge and land on the Artwork) and
    of random play, for two to four players."""
    out = []
    for players in (2, 3, 4):
        match = Match(TITLE, players, 40 + players)
        play_out(match, dict.fromkeys(range(1, players + 1), "heuristic"))
        out.append(match)
        out.append(random_match(TITLE, players, 50 + players))
    return out


def test_the_games_reach_what_the_worlds_must_respect() -> None:
    """Past rounds, wrong challenges (a card shown to one seat, a character ruled
    out), right challenges and landings (cards shown to all)."""
    rounds = [r for match in games() for r in match.state.rounds]
    assert len(rounds) >= 10
    assert any(r.revealed for r in rounds)
    assert any(any(seen) for r in rounds for seen in r.shown)
    assert any(r.ruled_out for r in rounds)


def test_every_world_the_hook_draws_is_accepted_by_the_core() -> None:
    for match in games():
        check_worlds(match, steps=10)


def test_the_choices_of_a_world_stand_at_the_steps_the_seats_chose() -> None:
    for match in games():
        world = TITLE.resample_world(match.state, 1, Rng(1))
        chose = {
            i for i, (seat, act) in enumerate(match.actions(), start=1) if act["type"] == "choose"
        }
        others = {i for i in chose if match.actions()[i - 1][0] != 1}
        assert set(world.choices) == others


def test_worlds_differ_from_the_real_match_in_the_cards_nobody_showed() -> None:
    """A world that always gave the real choices would pass the core's check: here
    most worlds change some choice the seat did not see, and never one it saw."""
    differ = same = 0
    for match in games():
        for step in range(5, match.step, max(1, match.step // 6)):
            at = match.at(step)
            for seat in (1, None):
                world = TITLE.resample_world(at.state, seat, Rng(derive_seed(step, str(seat))))
                real = {
                    i: a for i, (_, a) in enumerate(at.actions(), start=1) if i in world.choices
                }
                drawn = {i: TITLE.codec.to_json(a) for i, a in world.choices.items()}
                if drawn != real:
                    differ += 1
                else:
                    same += 1
                resampled_world(at, seat, world)
    assert differ > 2 * same, (differ, same)


def test_the_past_kept_for_worlds_is_left_out_of_the_digest() -> None:
    match = games()[0]
    data = TITLE.snapshot(match.state)
    assert not set(HISTORY_FIELDS) & set(data)
    assert match.state.acted == match.step


def test_a_world_that_ignores_what_the_table_ruled_out_fails_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A mutant that draws every unseen card among all the characters, forgetting
    the wrong challenges and the pieces landed on the Artwork without a reveal."""
    monkeypatch.setattr(resample, "_unruled", lambda ruled_out, rng: rng.choice(CHARACTERS))
    failed = 0
    for match in games():
        try:
            check_worlds(match, steps=10)
        except AssertionError as exc:
            assert "could not have happened" in str(exc)
            failed += 1
    assert failed >= 3
