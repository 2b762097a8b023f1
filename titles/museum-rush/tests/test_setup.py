"""Components, Set Up the Game, Break In! and How to Play."""

from __future__ import annotations

from collections import Counter

from gameweave_museumrush import rules
from gameweave_museumrush.actions import BreakIn, End
from gameweave_museumrush.cards import (
    BUYERS,
    CARDS,
    EDGE,
    EXHIBIT,
    GUARD,
    HIGH,
    OTHER,
    RARE_FOR_ROOM,
    ROOMS,
    SECURITY,
    SERVICE,
    STASH_ROOMS,
    THIEVES,
    coord,
)
from gameweave_museumrush.queries import tile_of
from gameweave_museumrush.state import BREAKIN, TURN
from helpers import act

from gameweave_core import Rng


def test_components_room_tiles() -> None:
    """Components: 28 Room tiles, 7 Exhibit, 10 Service (Vault, Security Room,
    Lost & Found among them), 7 High Security, 4 other."""
    kinds = Counter(r.kind for r in ROOMS)
    assert kinds == {EXHIBIT: 7, SERVICE: 10, HIGH: 7, OTHER: 4}
    names = {r.name for r in ROOMS}
    assert {"Vault", "Security Room", "Lost & Found"} <= names


def test_components_cards() -> None:
    """Components: 14 Loot, 7 Rare Treasure, 6 Camera, 8 Guard; the Search deck of
    6 Disable, 6 Lure, 3 Take Down, 4 Way Out, 6 Clock, 4 Booby Trap; 6 Stash, 6
    Buyer and 6 Thief cards."""
    kinds = Counter(c.kind for c in CARDS)
    assert kinds == {
        "loot": 14,
        "rare": 7,
        "camera": 6,
        "guard": 8,
        "disable": 6,
        "lure": 6,
        "takedown": 3,
        "wayout": 4,
        "clock": 6,
        "trap": 4,
    }
    assert len(BUYERS) == len(STASH_ROOMS) == len(THIEVES) == 6


def test_set_up_fills_the_museum() -> None:
    """Set Up 1-3: a random 4x7 grid; two face-down cards on every red tile, Rare
    Treasures face up on their own High Security rooms; Guards showing on Exhibit
    rooms replaced by Guard models; one Guard on the Security Room; 16 tokens."""
    layouts = set()
    for seed in range(12):
        state = rules.setup(3, {}, Rng(seed))
        layouts.add(tuple(t.room for t in state.grid))
        assert sorted(t.room for t in state.grid) == list(range(28))
        guard_cards = 0
        for t, tile in enumerate(state.grid):
            room = ROOMS[tile.room]
            if room.kind == HIGH:
                assert tile.cards[0] == RARE_FOR_ROOM[room.name] and tile.up
                assert len(tile.cards) == 3
                assert tile.covered == [False] * len(room.code)
            elif room.kind == EXHIBIT:
                removed_here = 2 - len(tile.cards)
                assert state.guards.count(t) == removed_here
                guard_cards += removed_here
                if tile.cards:
                    assert tile.up and CARDS[tile.cards[0]].kind != GUARD
            else:
                assert tile.cards == []
        assert len(state.guards) == guard_cards + 1
        assert state.guards[-1] == tile_of(state, SECURITY)
        assert sorted(state.removed) == sorted(c for c in state.removed if CARDS[c].kind == GUARD)
        assert state.supply == 16
        assert len(state.deck) == 29
    assert len(layouts) == 12


def test_set_up_deals_buyers_stashes_and_thieves() -> None:
    """Set Up 6-8: each player a Buyer, a Stash and a Thief, all different."""
    state = rules.setup(4, {}, Rng(3))
    assert len(set(state.buyer)) == len(set(state.stash)) == len(set(state.thief)) == 4
    assert all(t in THIEVES for t in state.thief)


def test_first_game_leaves_out_thief_buyer_and_stash_cards() -> None:
    """Your First Game: leave out the Thief cards, Buyer cards and Stash cards."""
    state = rules.setup(2, {"first_game": True}, Rng(3))
    assert state.thief == ["", ""] and state.stash == ["", ""] and state.buyer == [-1, -1]


def test_break_in_edge_rooms_without_guard_or_thief_before_anything_else() -> None:
    """Break In!: any edge room without a Guard or another Thief; every thief breaks
    in before anything else happens (nobody draws until all are in)."""
    state = rules.setup(3, {"first_game": True}, Rng(5))
    assert state.phase == BREAKIN
    first = state.turn
    legal = rules.legal_actions(state, first)
    spots = {a.at for a in legal if isinstance(a, BreakIn)}
    guarded = {coord(g) for g in state.guards}
    assert spots == {coord(t) for t in EDGE} - guarded
    act(state, first, BreakIn(sorted(spots)[0]))
    second = first % 3 + 1
    assert rules.awaiting(state) == (second,)
    assert sorted(spots)[0] not in {a.at for a in rules.legal_actions(state, second)}
    assert all(not h for h in state.hands)
    act(state, second, rules.legal_actions(state, second)[0])
    third = second % 3 + 1
    act(state, third, rules.legal_actions(state, third)[0])
    assert state.phase == TURN and state.turn == first
    # "At the start of each turn, you always draw 1 card": the first player drew
    # (or met a Clock or Way Out at once).
    assert len(state.deck) == 28


def test_players_take_turns_clockwise() -> None:
    """How to Play: players take turns, moving clockwise (seat numbers rise)."""
    state = rules.setup(3, {"first_game": True}, Rng(5))
    for _ in range(3):
        s = rules.awaiting(state)[0]
        act(state, s, rules.legal_actions(state, s)[0])
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        while state.tasks:
            s = rules.awaiting(state)[0]
            act(state, s, rules.legal_actions(state, s)[-1])
        act(state, state.turn, End(False))
    start = seen[0]
    assert seen == [(start - 1 + i) % 3 + 1 for i in range(4)]
