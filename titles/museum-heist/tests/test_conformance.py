"""The core's conformance kit run on Museum Heist. Secrecy is checked by the kit's
automatic twins (drawn with the title's resample hook) and, as an extra, by twins
played from the start: seat 1 picks a different character in each, and nothing the
other seats or spectators receive may tell the two apart while seat 1's card stays
hidden (nobody challenges seat 1 and no piece goes onto the Artwork)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gameweave_museumheist import MuseumHeist
from gameweave_museumheist.actions import Challenge, Choose, Move
from gameweave_museumheist.board import CHARACTERS
from hypothesis import strategies as st

from gameweave_core import Match, Rng
from gameweave_core.testing import TitleConformance, Twin, seeds

# The whole kit takes tens of seconds a title: `make check` (the inner loop) leaves it
# to `make test`, which runs it in full.
pytestmark = pytest.mark.slow

TITLE = MuseumHeist()


def _hides_seat_one(match: Match, act: Any) -> bool:
    if isinstance(act, Challenge):
        return act.seat != 1
    if isinstance(act, Move):
        return act.to != match.view(None).get("artwork")
    return True


@st.composite
def hidden_first_card(draw: st.DrawFn) -> Twin:
    players = draw(st.integers(2, 4))
    seed = draw(seeds)
    card_a, card_b = draw(
        st.lists(st.sampled_from(CHARACTERS), min_size=2, max_size=2, unique=True)
    )
    choices = Rng(draw(seeds))
    a, b = Match(TITLE, players, seed), Match(TITLE, players, seed)
    actions_a: list[tuple[int, Any]] = [(1, Choose(card_a))]
    actions_b: list[tuple[int, Any]] = [(1, Choose(card_b))]
    a.submit(1, Choose(card_a))
    b.submit(1, Choose(card_b))
    for _ in range(draw(st.integers(1, 30))):
        if not a.awaiting or a.view(None)["round"] > 1:
            break
        seat = a.awaiting[0]
        legal = [x for x in a.legal_actions(seat) if _hides_seat_one(a, x)]
        if not legal:
            break
        act = choices.choice(legal)
        for match, actions in ((a, actions_a), (b, actions_b)):
            match.submit(seat, act)
            actions.append((seat, act))
    return Twin(
        players=players,
        seed=seed,
        actions_a=[(s, TITLE.codec.to_json(x)) for s, x in actions_a],
        actions_b=[(s, TITLE.codec.to_json(x)) for s, x in actions_b],
        seats=list(range(2, players + 1)),
    )


class TestMuseumHeistConformance(TitleConformance):
    title = TITLE
    examples = 10
    golden = Path(__file__).resolve().parent / "golden"

    def twins(self) -> st.SearchStrategy[Twin]:
        return hidden_first_card()
