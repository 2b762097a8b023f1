"""Chained reactions (gameweave_core.chain): the stack on its own, then Bluff, a
bluffing game built on it (tests/core/bluff.py), under the conformance kit and rule by
rule, with a variant that shows answers too early, which the kit must catch."""

from __future__ import annotations

from typing import Any

import pytest

from gameweave_core import Match, chain
from gameweave_core.reactions import PASS
from gameweave_core.testing import TitleConformance, check_refused

from . import bluff
from .bluff import Block, Bluff, Challenge, Coup, Income, Lose, Pass, Steal, Tax

# -- the stack ---------------------------------------------------------------------


def test_a_claim_nobody_answers_goes_through_its_questions_then_stands() -> None:
    pending = chain.Chain()
    steal = chain.push(pending, "steal", 1, ["challenge", "block"], role="captain", target=3)
    assert chain.step(pending) == chain.Ask(steal, "challenge")
    chain.ask(pending, [2, 3])
    assert chain.step(pending) == chain.Waiting((2, 3)) and chain.awaited(pending) == (2, 3)
    chain.answer(pending, 3, PASS)
    chain.answer(pending, 2, PASS)
    assert chain.step(pending) == chain.Ask(steal, "block")  # all passed: on to the next
    chain.ask(pending, [])  # nobody may block: the question passes unanswered
    assert chain.step(pending) == chain.Stands(steal)
    assert chain.is_idle(pending) and chain.step(pending) is None


def test_answers_resolve_innermost_first_and_in_the_windows_order() -> None:
    pending = chain.Chain()
    steal = chain.push(pending, "steal", 1, ["challenge", "block"], target=3)
    chain.step(pending)
    chain.ask(pending, [2, 3, 4])
    chain.answer(pending, 2, PASS)
    chain.answer(pending, 3, PASS)
    chain.answer(pending, 4, PASS)
    chain.step(pending)
    chain.ask(pending, [3])
    chain.answer(pending, 3, "block")
    assert chain.step(pending) == chain.Answered(steal, "block", ((3, "block"),))
    block = chain.push(pending, "block", 3, ["challenge"], role="captain")
    assert chain.top(pending) is block
    chain.step(pending)
    chain.ask(pending, [4, 1, 2])
    chain.answer(pending, 2, "challenge")  # answered first, but last in the order
    chain.answer(pending, 1, PASS)
    chain.answer(pending, 4, "challenge")
    # The block is answered before the steal beneath it; seat 4 before seat 2.
    assert chain.step(pending) == chain.Answered(
        block, "challenge", ((4, "challenge"), (2, "challenge"))
    )
    chain.drop(pending, block)  # say the block was a bluff
    assert chain.step(pending) == chain.Stands(steal)


def test_a_standing_block_drops_the_claim_beneath_it() -> None:
    pending = chain.Chain()
    steal = chain.push(pending, "steal", 1, [])
    block = chain.push(pending, "block", 2, [])
    assert chain.step(pending) == chain.Stands(block)
    chain.drop(pending, steal)
    assert chain.step(pending) is None


def test_misuse_is_a_one_line_error() -> None:
    pending = chain.Chain()
    with pytest.raises(ValueError, match="no question is due"):
        chain.ask(pending, [1])
    with pytest.raises(ValueError, match="no question is open"):
        chain.answer(pending, 1, PASS)
    link = chain.push(pending, "tax", 1, ["challenge"])
    chain.step(pending)
    chain.ask(pending, [2])
    with pytest.raises(ValueError, match="no question is due"):
        chain.ask(pending, [2])
    with pytest.raises(ValueError, match="seat 3 is not asked"):
        chain.answer(pending, 3, "challenge")
    chain.drop(pending, link)
    with pytest.raises(ValueError, match="the tax of seat 1 is not on the chain"):
        chain.drop(pending, link)


# -- Bluff ---------------------------------------------------------------------------


class TestBluffConformance(TitleConformance):
    title = Bluff()


def table(*cards: str, players: int = 3) -> Match:
    """A match dealt ``cards``: seat 1's two, seat 2's, ..., then the deck (in order,
    the last drawn first); the rest of the ten cards are left out."""
    return Match(Bluff(), players, seed=1, config={"deck": list(cards)})


DEALT = ("duke", "duke", "captain", "captain", "duke", "captain", "captain", "duke")


def everyone_passes(match: Match) -> None:
    for seat in match.awaiting:
        match.submit(seat, Pass())


def test_an_unanswered_claim_is_carried_out_and_the_turn_passes() -> None:
    match = table(*DEALT)
    match.submit(1, Tax())
    assert list(match.awaiting) == [2, 3]  # anyone may challenge
    everyone_passes(match)
    assert match.view(None)["coins"] == [5, 2, 2]
    assert list(match.awaiting) == [2] and match.view(None)["chain"] == []


def test_a_challenged_true_claim_costs_the_challenger_and_the_claim_stands() -> None:
    """The rule: "If the claimant holds the role, they show it, shuffle it into the
    deck and draw a new card, and the challenger loses a card"."""
    match = table(*DEALT)
    match.submit(1, Tax())
    match.submit(3, Challenge())
    match.submit(2, Pass())
    assert list(match.awaiting) == [3]  # the loser chooses the card
    assert [a["type"] for a in match.legal_json(3)] == ["lose", "lose"]
    match.submit(3, Lose("duke"))
    assert match.view(None)["lost"] == [[], [], ["duke"]]
    assert match.view(None)["coins"] == [5, 2, 2]  # the tax went through
    assert "Seat 1 shows a Duke and draws anew" in match.history(2)
    assert len(match.view(1)["hand"]) == 2


def test_a_bluff_called_costs_the_claimant_and_the_action_fails() -> None:
    match = table(*DEALT)
    match.submit(1, Steal(3))  # seat 1 holds two Dukes: no Captain
    match.submit(2, Challenge())
    match.submit(3, Challenge())
    # Seat 2 sits first from the claimant's left: its challenge is the one heard.
    assert "Seat 2 challenges seat 1" in match.history(None)
    assert "Seat 3 challenges seat 1" not in match.history(None)
    assert list(match.awaiting) == [1]
    match.submit(1, Lose("duke"))
    assert match.view(None)["coins"] == [2, 2, 2]
    assert list(match.awaiting) == [2]  # no block is asked for a failed steal


def test_a_block_that_stands_stops_the_steal_and_one_shown_a_bluff_does_not() -> None:
    # Seat 3 holds a Duke and a Captain: its block is true.
    match = table(*DEALT)
    match.submit(1, Income())
    match.submit(2, Steal(3))  # true: seat 2 holds two Captains
    everyone_passes(match)
    assert list(match.awaiting) == [3]  # only the target may block
    match.submit(3, Block())
    assert list(match.awaiting) == [1, 2]  # the block opens its own challenge window
    everyone_passes(match)
    assert "Seat 3's block stands: the steal fails" in match.history(None)
    assert match.view(None)["coins"] == [3, 2, 2]
    # Seat 1 holds no Captain: its block is shown a bluff and the steal goes through.
    match = table(*DEALT)
    match.submit(1, Income())
    match.submit(2, Income())
    match.submit(3, Steal(1))
    everyone_passes(match)
    match.submit(1, Block())
    match.submit(2, Challenge())
    match.submit(3, Pass())
    match.submit(1, Lose("duke"))
    assert "Seat 3 takes 2 from seat 1" in match.history(None)
    assert match.view(None)["coins"] == [1, 3, 4]


def test_answers_in_an_open_window_are_secret_until_it_closes() -> None:
    match = table(*DEALT)
    match.submit(1, Tax())
    match.submit(2, Challenge())
    (link,) = match.view(3)["chain"]
    assert link["answered"] == [2] and "mine" not in link  # that seat 2 answered: public
    assert match.view(2)["chain"][0]["mine"] == "challenge"  # what: its own
    assert check_refused(match, 2, Pass()).startswith("seat 2 is not awaited")


def test_ten_coins_must_coup_and_the_target_chooses_its_card() -> None:
    match = table(*DEALT, players=2)
    match.state.coins[0] = 10
    match.state.turn = 1
    assert match.legal_actions(1) == [Coup(2)]
    match.submit(1, Coup(2))
    assert list(match.awaiting) == [2]
    match.submit(2, Lose("captain"))
    assert match.view(None)["coins"][0] == 3 and match.view(None)["cards"] == [2, 1]


class ShowsAnswers(Bluff):
    """Shows every seat every answer already given in an open window."""

    def view(self, state: bluff.State, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        link = chain.top(state.pending)
        if link is not None and link.window is not None:
            out["answers"] = {str(s): a for s, a in sorted(link.window.answers.items())}
        return out


def test_the_kit_catches_answers_shown_before_the_window_closes() -> None:
    class Kit(TitleConformance):
        title = ShowsAnswers()

    with pytest.raises(AssertionError, match="view"):
        Kit().test_secrets_are_kept()
