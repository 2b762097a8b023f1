"""Oh Hell (tests/core/ohhell.py), the kit's trick-taking test title: its rules where
the kit's checks touch them, and the whole kit passing on the unmodified title."""

from __future__ import annotations

from gameweave_core import Match, Rng
from gameweave_core.testing import TitleConformance, check_refused

from .ohhell import CARDS, Bid, OhHell, Play, State, resample, suit, trick_winner, voids


class TestOhHellConformance(TitleConformance):
    """The unmodified title passes the whole kit, with no written twins."""

    title = OhHell()


def table(hands: list[list[str]], trump: str = "2C") -> Match:
    """A match with the given hands dealt, trumps from ``trump``, bids still to make."""
    match = Match(OhHell(), len(hands), seed=1)
    state: State = match._state
    state.hands = [list(h) for h in hands]
    state.trump = trump
    taken = {c for h in hands for c in h} | {trump}
    state.deck = [c for c in CARDS if c not in taken]
    match._awaiting = None
    match._legal.clear()
    return match


def bid_all(match: Match, bids: list[int]) -> None:
    for _ in bids:
        seat = match.awaiting[0]
        match.submit(seat, Bid(bids[seat - 1]))


def test_a_player_must_follow_the_suit_led_while_they_hold_it() -> None:
    match = table([["2H", "3S", "4S"], ["5H", "2S", "6D"], ["3H", "4H", "5D"]])
    bid_all(match, [1, 1, 1])
    assert match.awaiting == (1,)  # the dealer is seat 3: seat 1 leads
    match.submit(1, Play("3S"))
    assert match.legal_actions(2) == [Play("2S")]
    reason = check_refused(match, 2, Play("5H"))
    assert "follow spades" in reason and "seat" not in reason  # names no one's cards
    match.submit(2, Play("2S"))
    assert match.legal_actions(3) == [Play(c) for c in ["3H", "4H", "5D"]]  # void: any card


def test_the_highest_trump_takes_the_trick_else_the_highest_of_the_suit_led() -> None:
    assert trick_winner([(1, "3S"), (2, "6S"), (3, "2C")], "C") == 3
    assert trick_winner([(1, "3S"), (2, "6H"), (3, "5S")], "C") == 3
    assert trick_winner([(1, "3S"), (2, "6H"), (3, "2S")], "H") == 2


def test_exactly_the_tricks_bid_score_ten_and_the_bid() -> None:
    match = table([["6S", "5S", "4S"], ["2H", "3H", "4H"]], trump="2D")
    bid_all(match, [3, 1])
    for _ in range(3):
        match.submit(match.awaiting[0], match.legal_actions(match.awaiting[0])[0])
        match.submit(match.awaiting[0], match.legal_actions(match.awaiting[0])[0])
    assert match.view(None)["scores"] == [13, 0]  # seat 1 made 3; seat 2 bid 1 and took none


def test_a_seat_that_did_not_follow_has_shown_a_void() -> None:
    match = table([["2H", "3S", "4S"], ["5H", "2S", "6D"], ["3H", "4H", "5D"]])
    bid_all(match, [1, 1, 1])
    match.submit(1, Play("3S"))
    match.submit(2, Play("2S"))
    match.submit(3, Play("5D"))
    assert voids(match._state) == {1: set(), 2: set(), 3: {"S"}}


def test_the_resample_keeps_shown_voids_and_never_deals_played_cards_back() -> None:
    match = table([["2H", "3S", "4S"], ["5H", "2S", "6D"], ["3H", "4H", "5D"]])
    bid_all(match, [1, 1, 1])
    for card in ("3S", "2S", "5D"):
        match.submit(match.awaiting[0], Play(card))
    for seed in range(200):
        drawn = resample(match._state, 1, Rng(seed))
        assert drawn.hands[0] == match._state.hands[0]  # its own hand is its own
        assert not any(suit(c) == "S" for c in drawn.hands[2])  # seat 3 has no spades
        dealt = [c for h in drawn.hands for c in h] + drawn.deck
        assert not {"3S", "2S", "5D", "2C"} & set(dealt)  # played and turned up: out
        assert sorted([*dealt, "3S", "2S", "5D", "2C"]) == sorted(CARDS)
        assert [len(h) for h in drawn.hands] == [2, 2, 2]
