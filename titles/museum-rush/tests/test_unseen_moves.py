"""Cards that leave a hand unseen: who still knows which card is where.

A thief robbed takes "a card at random from your opponent's hand"; a Booby Trap
makes you "discard a random card from your hand"; cards dropped to the hand limit
go face down to the Vault or the Lost & Found. The two thieves of a robbery see the
card; everyone sees its back (red museum card or purple Search card) change hands
or go onto its pile, and nothing more. So a card the table had seen in that hand
is still known only if it was the hand's only card of that back.

Before version 2 the others' view of the hand dropped exactly the card that left,
and so told everyone which one it was (tests/core/test_kit_mutations.py keeps a
copy of that bookkeeping and shows the conformance kit failing on it).
"""

from __future__ import annotations

import copy

from gameweave_museumrush import rules, views
from gameweave_museumrush.actions import Drop, Move, Pass, Rob
from gameweave_museumrush.cards import CARDS, parse_coord
from gameweave_museumrush.queries import everyone
from gameweave_museumrush.state import State, Task
from helpers import act, card_of, give, seed_where, table

from gameweave_core import Event, Rng


def card_named(name: str) -> int:
    return next(i for i, c in enumerate(CARDS) if c.name == name)


WATCH, COIN = card_named("Pocket Watch"), card_named("Bronze Coin")


def shown_to_all(state: State, *cards: int) -> None:
    """As if each card had been stolen in plain sight (the table saw it go in)."""
    for c in cards:
        state.knows[c] = everyone(state)


def known(state: State, watcher: int | None, seat: int) -> list[int]:
    """The cards of ``seat``'s hand that ``watcher`` (``None``: a spectator) sees."""
    return [c["id"] for c in views.view(state, watcher)["thieves"][seat - 1]["known"]]


def rob(state: State, winner_takes: int) -> list[Event]:
    """Seat 1 robs seat 2, with the dice and the draw that make seat 1 take
    ``winner_takes``."""
    act(state, 1, Rob(2))

    def takes(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, 2, Pass(), Rng(seed))
        return s.hands[0] == [winner_takes]

    return act(state, 2, Pass(), seed_where(takes))


def test_a_card_taken_at_random_leaves_the_table_unsure_which() -> None:
    """Steal from Another Thief: "take a card at random from your opponent's hand".
    Seat 2 holds the Pocket Watch and the Bronze Coin, both seen by all; seat 1
    takes one. Seat 3 and the spectator see a red card go, not which: their view of
    seat 2's hand and of seat 1's holds neither, whichever was taken."""
    for taken in (WATCH, COIN):
        state = table(3, at=("B2", "B2", "G4"), guards=["G2"])
        give(state, 2, WATCH, COIN)
        shown_to_all(state, WATCH, COIN)
        assert known(state, None, 2) == sorted([WATCH, COIN])
        events = rob(state, taken)
        stayed = COIN if taken == WATCH else WATCH
        for watcher in (3, None):
            assert known(state, watcher, 2) == [] and known(state, watcher, 1) == []
            entry = views.view(state, watcher)["thieves"]
            assert entry[0]["valuables"] == 1 and entry[1]["valuables"] == 1
            told = [e.data for e in events if e.visible_to(watcher) and e.kind == "took"]
            assert told == [{"back": "museum"}]  # what they saw: a red card's back
        # The two thieves saw the card.
        for seat in (1, 2):
            assert known(state, seat, 1) == [taken] and known(state, seat, 2) == [stayed]


def test_the_only_card_of_its_back_is_known_to_have_moved() -> None:
    """Seat 2 holds the Pocket Watch, seen by all, and a Lure nobody else has seen:
    a red card changing hands can only be the Watch, so the table still knows it."""
    state = table(3, at=("B2", "B2", "G4"), guards=["G2"])
    give(state, 2, WATCH, card_of("lure"))
    shown_to_all(state, WATCH)
    rob(state, WATCH)
    for watcher in (3, None):
        assert known(state, watcher, 1) == [WATCH] and known(state, watcher, 2) == []


def test_a_random_discard_to_a_booby_trap_hides_which_card_went() -> None:
    """Booby Trap: "You must discard a random card from your hand": the table sees a
    red card go face down to the Vault (the event says which pile), not which."""
    state = table(3, at=("B2", "G4", "A4"), guards=["G2"])
    state.grid[parse_coord("C2")].trap = card_of("trap")
    give(state, 1, WATCH, COIN)
    shown_to_all(state, WATCH, COIN)
    events = act(state, 1, Move("C2"))
    lost = state.vault[-1]
    assert lost in (WATCH, COIN)
    for watcher in (2, 3, None):
        assert known(state, watcher, 1) == []
        assert views.view(state, watcher)["vault"]["known"] == []
        told = [e.data for e in events if e.visible_to(watcher) and e.kind == "lose"]
        assert told == [{"pile": "vault"}]
    assert known(state, 1, 1) == [WATCH + COIN - lost]


def test_a_card_dropped_face_down_by_choice_is_not_named_to_the_others() -> None:
    """Hand Limit: "Dropped Loot ... cards are put face-down in the Vault": the
    owner chooses, the others see only a red card go to the Vault."""
    state = table(3, at=("B2", "G4", "A4"), guards=["G2"])
    give(state, 1, WATCH, COIN)
    shown_to_all(state, WATCH, COIN)
    state.tasks.insert(0, Task("drop", 1))
    act(state, 1, Drop(WATCH))
    for watcher in (2, 3, None):
        assert known(state, watcher, 1) == [] and views.view(state, watcher)["vault"]["known"] == []
    assert known(state, 1, 1) == [COIN]
