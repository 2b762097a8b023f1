"""Pickpocket (tests/core/pickpocket.py), the kit's second hidden-information test
title with a reaction window: its rules where the kit's mutants touch them, and the
whole kit passing on the unmodified title."""

from __future__ import annotations

from gameweave_core import Match
from gameweave_core.testing import TitleConformance, check_refused

from .pickpocket import GUARDS, PUBLIC, Draw, Guard, Let, Pick, Pickpocket, Show, State


class TestPickpocketConformance(TitleConformance):
    """The unmodified title passes the whole kit, with no written twins."""

    title = Pickpocket()


def table(hands: list[list[int]], deck: list[int] | None = None) -> Match:
    """A three-seat match with the given hands (and deck), seat 1 to play."""
    match = Match(Pickpocket(), len(hands), seed=1)
    state: State = match._state
    state.hands = [list(h) for h in hands]
    state.deck = list(
        deck if deck is not None else [c for c in range(16) if not any(c in h for h in hands)]
    )
    for s, hand in enumerate(hands, start=1):
        for c in hand:
            state.knows[c] = 1 << s
    for c in state.deck:
        state.knows[c] = 0
    match._awaiting = None
    match._legal.clear()
    return match


def known(match: Match, watcher: int | None, seat: int) -> list[int]:
    return list(match.view(watcher)["hands"][seat - 1]["known"])


def test_every_seat_holding_cards_is_asked_whether_it_holds_a_guard_or_not() -> None:
    match = table([[0, 1], [3, 12], [6, 7]])
    match.submit(1, Pick(2))
    assert match.awaiting == (2, 3)  # seat 3 holds no Guard and is asked all the same
    assert match.legal_actions(3) == [Let()] and match.legal_actions(2) == [Guard(), Let()]
    assert "nobody is picking" not in check_refused(match, 3, Guard())


def test_a_guard_stops_the_pick_and_is_discarded_face_up() -> None:
    match = table([[0, 1], [3, 12], [6, 7]])
    match.submit(1, Pick(2))
    match.submit(3, Let())
    match.submit(2, Guard())
    assert match.view(None)["discard"] == [12] and match.view(None)["hands"][0]["size"] == 2
    assert "Stopped by a Guard (seat 2)" in match.history(None)


def test_a_card_taken_at_random_leaves_the_table_unsure_which() -> None:
    """Seat 2 has shown both its coins; seat 1 takes one at random. Seat 3 and the
    spectator saw a card go, not which: they know neither any more."""
    match = table([[0], [3, 9], [6]], deck=[1, 2])
    for c in (3, 9):
        match._state.knows[c] |= PUBLIC | (1 << 1) | (1 << 3)
    assert known(match, 3, 2) == [3, 9]
    match.submit(1, Pick(2))
    match.submit(2, Let())
    match.submit(3, Let())
    taken = next(c for c in (3, 9) if c in match._state.hands[0])
    for watcher in (3, None):
        assert known(match, watcher, 2) == [] and known(match, watcher, 1) == []
    assert known(match, 1, 1) == sorted([0, taken]) and known(match, 2, 1) == [taken]


def test_the_only_card_in_a_hand_is_known_to_have_moved() -> None:
    match = table([[0], [9], [6]], deck=[1, 2])
    match._state.knows[9] |= PUBLIC
    match.submit(1, Pick(2))
    match.submit(2, Let())
    match.submit(3, Let())
    assert known(match, 3, 1) == [9] and known(match, None, 1) == [9]


def test_shown_coins_are_seen_by_all_and_guards_cannot_be_shown() -> None:
    match = table([[0, 12], [3], [6]])
    assert Show(0) in match.legal_actions(1) and Show(12) not in match.legal_actions(1)
    match.submit(1, Show(0))
    assert known(match, None, 1) == [0] and known(match, 2, 1) == [0]
    assert 12 in GUARDS and Draw() in match.legal_actions(2)
