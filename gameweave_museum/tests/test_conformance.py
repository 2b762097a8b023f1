"""The testing kit, run on The Museum Job.

Secrecy is checked by the kit's automatic twins, drawn from the title's resample
hook: no hand-written twins take part in the kit run.

One extra test goes where the automatic twins do not: they swap the state of a
match at one step and keep its past, so the Thief's earlier turns are the same
in both worlds. Here the twin is a whole match of its own, its Thief history
drawn by the hook from the break-in on, played beside a game of the heuristic
bots (which reach forced exits, found cuts and quiet crowns that random play
rarely does); Security and the spectator must not tell the two apart on any
surface, at any step up to the fork.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gameweave_core import Match, Rng, derive_seed
from gameweave_core.testing import TitleConformance, Twin, check_indistinguishable
from gameweave_museum import MuseumJob, resample
from gameweave_museum.bots import heuristic_bot
from gameweave_museum.state import SECURITY, THIEF

# The whole kit takes tens of seconds a title: `make check` (the inner loop) leaves it
# to `make test`, which runs it in full.
pytestmark = pytest.mark.slow

TITLE = MuseumJob()


class TestMuseumConformance(TitleConformance):
    title = TITLE
    examples = 10
    golden = Path(__file__).resolve().parent / "golden"


def heuristic_game(players: int, seed: int) -> Match:
    match = Match(TITLE, players, seed)
    rng = Rng(derive_seed(seed, "bots"))
    bots = {s: heuristic_bot(s, players) for s in range(1, players + 1)}
    while match.awaiting:
        seat = match.awaiting[0]
        match.submit(seat, bots[seat].act(match.observe(seat), rng))
    return match


def test_whole_drawn_histories_cannot_be_told_from_heuristic_games() -> None:
    twins = 0
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        game = heuristic_game(players, seed)
        hidden = [step.step for step in game.steps() if step.state.phase in (THIEF, SECURITY)]
        for fork in hidden[3::6]:
            real = game.at(fork)
            drawn = resample.draw(real.state, Rng(derive_seed(seed, f"twin {fork}")))
            assert drawn is not None, f"no history agreed with the evidence at step {fork}"
            thief = iter(drawn[0])
            actions = real.actions()
            twin_actions = [
                (seat, TITLE.codec.to_json(next(thief)) if seat == 1 else act)
                for seat, act in actions
            ]
            if twin_actions == actions:
                continue  # the draw happened to be the real history: nothing to compare
            check_indistinguishable(
                TITLE,
                Twin(
                    players=players,
                    seed=seed,
                    actions_a=actions,
                    actions_b=twin_actions,
                    seats=list(range(2, players + 1)),
                ),
            )
            twins += 1
    assert twins >= 10
