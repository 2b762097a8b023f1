"""Sealed Bids under test: Gameweave's conformance kit, then the rules one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameweave_core import ConfigError, Match, Rng, default_registry
from gameweave_core.testing import TitleConformance, check_refused, random_match, seeds
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.actions import Bid
from gameweave_sealedbid.state import LOTS, START_COINS, VALUES


def bid(coins: int) -> dict[str, Any]:
    """A bid in its JSON form, as a browser or a log sends it."""
    return {"type": "bid", "coins": coins}


class TestSealedBidConformance(TitleConformance):
    title = SealedBid()
    golden = Path(__file__).parent / "golden"


def test_the_installed_plugin_registers_the_title() -> None:
    entry = default_registry().entry("sealedbid")
    assert isinstance(entry.title, SealedBid)
    assert entry.distribution == "gameweave-sealedbid"


def test_the_highest_bid_wins_the_lot_and_pays() -> None:
    match = Match(SealedBid(), 3, seed=1)
    lot = match.view(None)["lot"]
    for seat, coins in [(1, 5), (2, 3), (3, 0)]:
        match.submit(seat, bid(coins))
    view = match.view(None)
    assert view["coins"] == [START_COINS - 5, START_COINS, START_COINS]
    assert view["points"] == [lot, 0, 0]
    assert view["lots_left"] == LOTS - 1
    assert f"Seat 1 wins the {lot}-point lot for 5" in match.history(2)


def test_the_next_lot_is_announced_to_everyone() -> None:
    """A seat learns only through the events it reads: the lot that comes up is
    told to all, as well as shown in every view."""
    match = Match(SealedBid(), 3, seed=1)
    for seat in (1, 2, 3):
        match.submit(seat, bid(0))
    lot = match.view(None)["lot"]
    for watcher in (1, 2, 3, None):
        assert match.history(watcher)[-1] == f"The {lot}-point lot comes up"
        assert match.events(watcher)[-1]["data"] == {"lot": lot}


def test_a_tie_for_highest_leaves_the_lot_unsold() -> None:
    match = Match(SealedBid(), 3, seed=1)
    for seat, coins in [(1, 4), (2, 4), (3, 1)]:
        match.submit(seat, bid(coins))
    view = match.view(None)
    assert view["coins"] == [START_COINS] * 3
    assert view["points"] == [0, 0, 0]
    assert view["lots_left"] == LOTS - 1


def test_a_sealed_bid_is_seen_only_by_its_bidder_until_the_reveal() -> None:
    match = Match(SealedBid(), 2, seed=3)
    match.submit(1, bid(13))
    assert match.view(1)["my_bid"] == 13
    for watcher in (2, None):
        assert "my_bid" not in match.view(watcher)
        assert match.view(watcher)["sealed"] == [1]
        assert not any("13" in line for line in match.history(watcher))
    match.submit(2, bid(2))
    assert "Bids revealed: seat 1 13, seat 2 2" in match.history(None)


def test_the_lots_to_come_are_secret() -> None:
    title = SealedBid()
    # Stacked decks (a test-only option): the same first lot, then different lots.
    a = Match(title, 2, seed=0, config={"lots": [5, 1, 2, 3, 4]})
    b = Match(title, 2, seed=0, config={"lots": [5, 9, 8, 7, 6]})
    assert a.digest() != b.digest()  # the decks differ...
    for watcher in (1, 2, None):
        assert a.payload(watcher) == b.payload(watcher)  # ...and nobody can tell


def test_resample_redraws_only_what_the_seat_has_not_seen() -> None:
    match = Match(SealedBid(), 3, seed=2)
    match.submit(1, bid(7))
    match.submit(2, bid(3))
    before = match.snapshot()  # the whole state as data, secrets included: tests only
    unseen = set(VALUES) - {match.state.lot}  # match.state: the live state, tests only
    for seed in range(20):
        drawn = match.resample(1, Rng(seed))  # a state seat 1 cannot tell from the real one
        assert SealedBid().view(drawn, 1) == match.view(1)
        assert drawn.bids[1] == 7 and 0 <= drawn.bids[2] <= START_COINS  # 2's bid redrawn
        assert len(drawn.deck) == LOTS - 1 and set(drawn.deck) <= unseen
    assert match.snapshot() == before  # drawing left the real match untouched
    decks = {tuple(match.resample(3, Rng(s)).deck) for s in range(20)}
    assert len(decks) > 1  # the lots to come really are drawn again


def test_the_stacked_deck_is_an_option_for_tests_only() -> None:
    title = SealedBid()
    assert "lots" in title.test_only_options and "lots" not in title.offered_options()
    match = Match(title, 2, seed=1, config={"lots": [9, 8, 7, 6, 5]})
    assert match.view(None)["lot"] == 9
    with pytest.raises(ConfigError, match="lots must be 5 different values from 1 to 9"):
        Match(title, 2, seed=1, config={"lots": [9, 9, 7, 6, 5]})


def test_nobody_may_bid_more_than_they_hold_or_bid_twice() -> None:
    match = Match(SealedBid(), 2, seed=5)
    reason = check_refused(match, 1, bid(START_COINS + 1))
    assert reason == f"you hold {START_COINS} coins and cannot bid {START_COINS + 1}"
    match.submit(1, bid(0))
    assert "not awaited" in check_refused(match, 1, bid(0))


def test_the_most_points_win_after_the_last_lot() -> None:
    match = Match(SealedBid(), 2, seed=8)
    for _ in range(LOTS):
        match.submit(1, bid(1))
        match.submit(2, bid(0))
    result = match.outcome()
    assert result is not None and match.awaiting == ()
    assert result.winners == (1,)
    assert result.figures["coins"] == [START_COINS - LOTS, START_COINS]
    assert result.figures["points"][1] == 0 and result.figures["points"][0] >= 1 + 2 + 3 + 4 + 5


@given(seed=seeds, players=st.integers(SealedBid.min_players, SealedBid.max_players))
@settings(max_examples=25, deadline=None)
def test_every_point_was_paid_for(seed: int, players: int) -> None:
    match = random_match(SealedBid(), players, seed)  # random legal bids to the end
    result = match.outcome()
    assert result is not None
    for points, coins in zip(result.figures["points"], result.figures["coins"], strict=True):
        assert 0 <= coins <= START_COINS
        assert points <= sum(sorted(VALUES)[-LOTS:])
        # a lot goes only to one highest bid, which is more than the others' 0 or more
        assert points == 0 or coins < START_COINS


def test_equal_points_and_coins_share_the_win() -> None:
    match = Match(SealedBid(), 2, seed=8)
    for _ in range(LOTS):
        match.submit(1, bid(0))
        match.submit(2, bid(0))
    result = match.outcome()
    assert result is not None
    assert (result.side, result.winners) == ("tie", (1, 2))


def test_typed_bids_are_read() -> None:
    title = SealedBid()
    legal = [Bid(c) for c in range(START_COINS + 1)]
    assert title.parse_action("bid 7", legal) == Bid(7)
    with pytest.raises(ValueError, match="cannot read"):
        title.parse_action("bid seven", legal)
    # What the adapters call: the canonical JSON form first (the core reads it for
    # every title), then the title's own notation.
    assert title.read_action('{"type": "bid", "coins": 7}', legal) == Bid(7)
    assert title.read_action("bid 7", legal) == Bid(7)


def test_the_terminal_shows_a_bid_only_to_its_bidder() -> None:
    title = SealedBid()
    match = Match(title, 2, seed=4)
    match.submit(2, bid(6))
    assert "Your sealed bid: 6" in title.render_text(match.view(2), 2)
    assert "Your sealed bid" not in title.render_text(match.view(1), 1)
    assert "Bidder 2: 20 coins, 0 points  (bid sealed)" in title.render_text(match.view(1), 1)


def test_the_rules_text_explains_every_choice_and_names_its_topics() -> None:
    import re

    from gameweave_sealedbid.rules_text import TOPICS

    title = SealedBid()
    assert title.rules_text() is TOPICS and next(iter(TOPICS)) == "overview"
    named = set(re.findall(r"`rules (\w+)`", TOPICS["overview"]))
    assert named == set(TOPICS) - {"overview"}
    forms = re.findall(r"^- `(\w+)", TOPICS["actions"], flags=re.MULTILINE)
    assert forms == [title.describe_action(Bid(3)).split()[0]]
