"""Turn Sequence, Draw Cards, Hand Limit, Moving, Guards Moving and Getting Caught."""

from __future__ import annotations

from gameweave_museumrush import rules
from gameweave_museumrush.actions import (
    BreakIn,
    Drop,
    End,
    Go,
    Keep,
    Lure,
    Move,
    Pass,
    Route,
    StealLoot,
    TakeDown,
)
from gameweave_museumrush.cards import (
    ARCHIVE_A,
    ARCHIVE_B,
    CARDS,
    EDGE,
    EXHIBITS,
    GENTS,
    coord,
    parse_coord,
)
from gameweave_museumrush.state import OUTSIDE, State, Task
from helpers import act, card_of, deck_top, give, room_at, seed_where, table, texts

from gameweave_core import Rng


def loot_room(state: State, at: str, value_card: int | None = None) -> int:
    """An Exhibit room at ``at`` with face-up Loot on top and one card below."""
    t = room_at(state, EXHIBITS[0], at)
    loot = card_of("loot", 5) if value_card is None else value_card
    below = card_of("loot", 6)
    for tile in state.grid:
        for c in (loot, below):
            if c in tile.cards:
                tile.cards.remove(c)
    state.grid[t].cards = [loot, below]
    state.grid[t].up = True
    state.knows[loot] = 7
    return t


def test_draw_one_card_at_the_start_of_each_turn() -> None:
    """Draw Cards: at the start of each turn you always draw 1 card from the Search
    deck; Items go into your hand."""
    state = table(turn=2)
    lure = card_of("lure")
    deck_top(state, lure)
    act(state, 2, End(False))
    assert state.turn == 1 and state.hands[0] == [lure]


def test_clock_and_way_out_are_dealt_with_straight_away() -> None:
    """Draw Cards: Clock and Way Out cards must be dealt with straight away."""
    state = table(turn=2, at=("B2", "G4"))
    deck_top(state, card_of("clock"), card_of("wayout"))
    act(state, 2, End(False))
    assert state.clocks == 1 and state.hands[0] == []
    act(state, 1, End(False))
    assert state.hands[1] == [] and state.grid[state.pos[1]].wayout


def test_hand_limit_drops_back_to_seven() -> None:
    """Hand Limit: 8 or more cards and you drop back down to 7 at once; Loot goes
    face down into the Vault, Items into Lost & Found."""
    state = table(turn=2)
    give(state, 1, *[card_of("loot", i) for i in range(4)], *[card_of("lure", i) for i in range(3)])
    deck_top(state, card_of("disable"))
    act(state, 2, End(False))
    assert rules.awaiting(state) == (1,) and state.tasks[0].kind == "drop"
    assert rules.legal_actions(state, 1) == [Drop(c) for c in sorted(state.hands[0])]
    act(state, 1, Drop(card_of("loot", 0)))
    assert len(state.hands[0]) == 7 and state.vault == [card_of("loot", 0)]
    assert not state.tasks
    # Dropping face down: the other seat does not learn which card.
    assert not state.knows[card_of("loot", 0)] & (1 << 2)


def test_move_up_to_three_times_up_down_left_right() -> None:
    """Moving: up to 3 moves a turn, each to an adjacent tile, never diagonally."""
    state = table(at=("C2", "G4"))
    moves = {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Move)}
    assert moves == {"C1", "B2", "D2", "C3"}
    for to in ("C3", "D3", "E3"):
        state.grid[parse_coord(to)].cards = []
        state.grid[parse_coord(to)].up = False
    for to in ("C3", "D3", "E3"):
        act(state, 1, Move(to))
    assert not [a for a in rules.legal_actions(state, 1) if isinstance(a, Move)]


def test_the_cat_moves_diagonally_but_not_when_slipping_away() -> None:
    """The Cat: diagonal moves too (but not when slipping away)."""
    state = table(at=("C2", "G4"), first_game=False)
    state.thief = ["The Cat", "The Owl"]
    moves = {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Move)}
    assert {"B1", "D1", "B3", "D3"} <= moves
    state.tasks = [Task("slip", 1)]
    assert {a.to for a in rules.legal_actions(state, 1)} == {"C1", "B2", "D2", "C3"}


def test_archives_are_joined_for_thieves() -> None:
    """Service Rooms: a thief may move from one Archive to the other."""
    state = table(at=("A1", "G4"))
    room_at(state, ARCHIVE_A, "A1")
    room_at(state, ARCHIVE_B, "G1")
    assert Move("G1") in rules.legal_actions(state, 1)


def test_steal_loot_the_nearest_guard_moves_two_tiles_towards_you() -> None:
    """Steal Loot; Guards Moving: the nearest Guard moves 2 tiles towards a Thief
    who steals Loot. Then the next card is turned over."""
    state = table(at=("B2", "G4"), guards=["F2", "G1"])
    t = loot_room(state, "B2")
    loot = state.grid[t].cards[0]
    act(state, 1, StealLoot())
    assert loot in state.hands[0]
    assert state.guards == [parse_coord("D2"), parse_coord("G1")]
    assert state.grid[t].up and state.grid[t].cards == [card_of("loot", 6)]
    # One Steal Action a turn, and no more moving after it.
    assert not [a for a in rules.legal_actions(state, 1) if isinstance(a, (Move, StealLoot))]


def test_player_to_the_right_chooses_among_equally_short_routes() -> None:
    """Which Way?: the Guard takes a shortest route; when several are as short, the
    player to the right of the current player chooses."""
    state = table(3, at=("B2", "G4", "A4"), guards=["D3"])
    loot_room(state, "B2")
    act(state, 1, StealLoot())
    assert rules.awaiting(state) == (3,)
    routes = {a.path for a in rules.legal_actions(state, 3)}
    assert routes == {"C3-B3", "C3-C2", "D2-C2"}
    act(state, 3, Route(0, "C3-B3"))
    assert state.guards == [parse_coord("B3")]


def test_the_joker_moves_the_guards_in_his_own_turn() -> None:
    """The Joker: during his own turn he moves the Guards instead."""
    state = table(3, at=("B2", "G4", "A4"), guards=["D3"], first_game=False)
    state.thief = ["The Joker", "The Owl", "The Cat"]
    loot_room(state, "B2")
    act(state, 1, StealLoot())
    assert rules.awaiting(state) == (1,)


def test_equally_close_guards_one_moves_and_the_right_player_picks() -> None:
    """Which Way?: two Guards equally close, just one moves; the player to the
    right chooses which."""
    state = table(3, at=("D2", "G4", "A4"), guards=["B2", "F2"])
    loot_room(state, "D2")
    act(state, 1, StealLoot())
    options = rules.legal_actions(state, 3)
    assert {a.guard for a in options} == {0, 1}
    act(state, 3, Route(1, "E2-D2"))
    assert state.guards[0] == parse_coord("B2")


def caught_state() -> State:
    state = table(at=("B2", "G4"), guards=["D2"])
    loot_room(state, "B2")
    act(state, 1, StealLoot())
    return state


def test_a_guard_reaching_you_and_a_take_down() -> None:
    """Getting Caught! and Take Down: the Guard is removed and you take its key."""
    state = table(at=("B2", "G4"), guards=["D2"])
    loot_room(state, "B2")
    give(state, 1, card_of("takedown"))
    act(state, 1, StealLoot())
    assert state.tasks[0].kind == "caught" and TakeDown() in rules.legal_actions(state, 1)
    act(state, 1, TakeDown())
    assert state.guards == [-1] and state.keys[0] == 1 and state.supply == 15


def test_lure_sends_the_guard_away() -> None:
    """Lure: a Guard on your tile moves 1 tile the way you choose; you are not busted."""
    state = table(at=("B2", "G4"), guards=["D2"])
    loot_room(state, "B2")
    give(state, 1, card_of("lure"))
    act(state, 1, StealLoot())
    act(state, 1, Lure(0, 0, "B1"))
    assert state.guards == [parse_coord("B1")] and state.pos[0] == parse_coord("B2")


def test_slipping_away_beats_the_loot_you_carry() -> None:
    """Slipping Away: roll 1 die; more than your Loot and Treasure cards and you
    slip to an adjacent room of your choice."""

    def slips(seed: int) -> bool:
        s = caught_state()
        rules.apply(s, 1, Pass(), Rng(seed))
        return bool(s.tasks) and s.tasks[0].kind == "slip"

    seed = seed_where(slips)
    state = caught_state()
    events = act(state, 1, Pass(), seed)
    assert "slips away" in texts(events, 2)[0]
    die = state.rolls[-1][2][0]
    assert die > 1
    act(state, 1, Go("A2"))
    assert state.pos[0] == parse_coord("A2")


def test_busted_keeps_one_card_and_is_thrown_out() -> None:
    """Busted!: roll at or below the Loot carried; keep one card (and the keys),
    the rest confiscated (Loot to the Vault, Items to Lost & Found), piece off."""

    def busted(seed: int) -> bool:
        s = caught_state()
        give(s, 1, card_of("loot", 0), card_of("loot", 1), card_of("lure"))
        s.tasks[0].kind = "caught"
        rules.apply(s, 1, Pass(), Rng(seed))
        return bool(s.tasks) and s.tasks[0].kind == "bust"

    seed = seed_where(busted)
    state = caught_state()
    give(state, 1, card_of("loot", 0), card_of("loot", 1), card_of("lure"))
    state.keys[0] = 1
    act(state, 1, Pass(), seed)
    assert state.rolls[-1][2][0] <= 3
    kept = card_of("loot", 1)
    act(state, 1, Keep(kept))
    assert state.hands[0] == [kept] and state.keys[0] == 1
    assert card_of("loot", 0) in state.vault and card_of("lure") in state.lost
    assert state.pos[0] == OUTSIDE and state.turn == 2


def test_the_snake_adds_one_when_slipping_away() -> None:
    """The Snake: adds 1 to her die when slipping away."""

    def zero(seed: int) -> bool:
        s = caught_state()
        rules.apply(s, 1, Pass(), Rng(seed))
        return s.rolls[-1][2] == [1]

    seed = seed_where(zero)
    state = caught_state()
    state.thief = ["The Snake", "The Owl"]
    act(state, 1, Pass(), seed)
    assert state.tasks[0].kind == "slip"  # 1 + 1 beats the one Loot she carries


def test_re_entering_the_museum_next_turn() -> None:
    """Re-Entering the Museum: next turn, break in on a free edge room (not a
    move), then the turn goes on as normal (the draw first)."""
    state = table(turn=2)
    state.pos[0] = OUTSIDE
    deck_top(state, card_of("lure"))
    act(state, 2, End(False))
    assert state.turn == 1 and state.hands[0] == []
    legal = rules.legal_actions(state, 1)
    assert all(isinstance(a, BreakIn) for a in legal) and BreakIn("G4") not in legal
    act(state, 1, BreakIn("C1"))
    assert state.hands[0] == [card_of("lure")] and state.moves_left == 3


def test_two_thieves_at_once_current_player_first() -> None:
    """Two Thieves at Once: the current player's thief is dealt with first, then
    the next if the Guard is still there."""
    state = table(at=("B2", "B2"), guards=["D2"])
    loot_room(state, "B2")
    give(state, 1, card_of("lure"))
    act(state, 1, StealLoot())
    assert [(t.kind, t.seat) for t in state.tasks[:2]] == [("caught", 1), ("caught", 2)]
    act(state, 1, Lure(0, 0, "C2"))
    # The Guard left the tile: the second thief is safe.
    assert not [t for t in state.tasks if t.kind == "caught"]


def test_gents_and_ladies_thieves_cannot_be_caught() -> None:
    """Service Rooms: thieves cannot be caught in the Gents or the Ladies."""
    state = table(at=("B2", "G4"), guards=["C2"])
    room_at(state, GENTS, "C2")
    act(state, 1, Move("C2"))
    assert not state.tasks and state.pos[0] == parse_coord("C2")


def test_moving_through_a_camera_room_counts() -> None:
    """Moving (NB) and Guards Moving: moving into a room with a Camera brings the
    nearest Guard 2 tiles towards you, even if you do not stop there."""
    state = table(at=("A1", "G4"), guards=["A4"])
    t = room_at(state, EXHIBITS[1], "B1")
    cam = card_of("camera")
    give(state, 2, cam)
    state.hands[1].remove(cam)
    state.grid[t].cards = [cam]
    state.grid[t].up = True
    act(state, 1, Move("B1"))
    assert state.tasks and state.tasks[0].kind == "camera"
    act(state, 1, Pass())
    assert state.tasks[0].kind == "alert" and rules.awaiting(state) == (2,)
    assert {a.path for a in rules.legal_actions(state, 2)} == {"A3-A2", "A3-B3", "B4-B3"}
    assert CARDS[cam].kind == "camera" and coord(t) == "B1"


def test_events_show_dice_to_everyone() -> None:
    """A die rolled to slip away is rolled openly: every seat and spectator reads it."""
    state = caught_state()
    events = act(state, 1, Pass(), 3)
    roll = [e for e in events if e.kind in ("slip", "bust")]
    assert roll and roll[0].seats is None and roll[0].spectators


def camera_start() -> State:
    """Seat 1 starts its turn on a face-up Camera in B2; a Guard waits on G2."""
    state = table(at=("B2", "G4"), guards=["G2"])
    t = room_at(state, EXHIBITS[1], "B2")
    cam = card_of("camera", 4)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c != cam]
    state.grid[t].cards = [cam]
    state.grid[t].up = True
    return state


def test_starting_on_a_camera_is_fine_if_you_move_away() -> None:
    """Camera Card 3: starting your turn on a Camera is fine as long as you move away
    (or play a Disable); staying put, the nearest Guard comes."""
    state = camera_start()
    act(state, 1, Move("B1"))
    act(state, 1, End(False))
    assert state.guards == [parse_coord("G2")] and state.turn == 2
    state = camera_start()
    act(state, 1, End(False))
    assert state.guards == [parse_coord("E2")]


def test_take_down_when_you_move_onto_a_guard() -> None:
    """Take Down: also when you move onto a Guard's tile."""
    state = table(at=("B2", "G4"), guards=["C2"])
    give(state, 1, card_of("takedown"))
    act(state, 1, Move("C2"))
    assert rules.legal_actions(state, 1)[0] == TakeDown()
    act(state, 1, TakeDown())
    assert state.guards == [-1] and state.keys[0] == 1 and state.pos[0] == parse_coord("C2")


def test_a_second_guard_on_your_tile_finds_you_too() -> None:
    """Getting Caught!: "If a Guard moves onto your tile (or for some reason you move
    onto his) then a Lure or a Take Down card will keep you safe"; Two Thieves at
    Once: "If the Guard is still on the tile, carry on". Moving onto a tile with two
    Guards, a thief who takes one down still faces the other."""
    state = table(at=("B2", "G4"), guards=["C2", "C2"])
    give(state, 1, card_of("takedown"))
    act(state, 1, Move("C2"))
    act(state, 1, TakeDown())
    assert state.guards == [-1, parse_coord("C2")]
    task = state.tasks[0]
    assert (task.kind, task.seat, task.guard) == ("caught", 1, 1)
    assert rules.legal_actions(state, 1) == [Pass()]  # no card left: roll or be busted
    # A Lure sends one Guard away; the one left behind finds the thief as well.
    state = table(at=("B2", "G4"), guards=["C2", "C2"])
    give(state, 1, card_of("lure"))
    act(state, 1, Move("C2"))
    act(state, 1, Lure(0, 0, "D2"))
    task = state.tasks[0]
    assert (task.kind, task.seat, task.guard) == ("caught", 1, 1)


def test_items_may_be_played_before_the_next_card_is_turned_over() -> None:
    """Turn Over Next Card: "complete the movement of the closest Guard, play any
    Item cards as a reaction and work out their effect, then last of all turn over
    the next card". The Guard stops next to the thief, who may Lure it away before a
    Camera comes up."""
    state = table(3, at=("B2", "G4", "A4"), guards=["E2"])
    t = room_at(state, EXHIBITS[0], "B2")
    loot, cam = card_of("loot", 5), card_of("camera", 0)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c not in (loot, cam)]
    state.grid[t].cards = [loot, cam]
    state.grid[t].up = True
    give(state, 1, card_of("lure"))
    act(state, 1, StealLoot())
    assert state.guards == [parse_coord("C2")]  # next door, not on the tile
    # The next card is still face down while the thief may answer.
    assert not state.grid[t].up and state.grid[t].cards == [cam]
    assert rules.awaiting(state) == (1,) and state.tasks[0].kind == "react"
    assert Lure(0, 0, "D2") in rules.legal_actions(state, 1)
    act(state, 1, Lure(0, 0, "D2"))
    # Then the Camera comes up and calls the Guard back.
    assert state.grid[t].up and state.tasks[0].kind == "camera"
    act(state, 1, Pass())
    assert state.guards == [parse_coord("B2")] and state.tasks[0].kind == "caught"


def test_the_reaction_pause_is_offered_whatever_the_hand_holds() -> None:
    """Turn Over Next Card: the pause for Items comes whenever a Guard stands on or
    next to the thief, with or without an Item in hand, so it tells the table
    nothing; with no Guard near, the next card is turned over at once."""
    state = table(3, at=("B2", "G4", "A4"), guards=["E2"])
    loot_room(state, "B2")
    act(state, 1, StealLoot())
    assert state.tasks[0].kind == "react" and rules.legal_actions(state, 1) == [Pass()]
    act(state, 1, Pass())
    assert state.grid[parse_coord("B2")].up
    far = table(3, at=("B2", "G4", "A4"), guards=["G2"])
    loot_room(far, "B2")
    act(far, 1, StealLoot())
    assert far.grid[parse_coord("B2")].up and not far.tasks


def test_a_busted_thief_breaks_in_again_when_a_room_is_free() -> None:
    """Re-Entering the Museum: "In your next turn you can break in again – choose any
    room around the edge of the museum, as long as there isn't a Guard or another
    player". Ruling: "can" gives leave to come back in, it is not a choice to sit
    out; a busted thief breaks in whenever an edge room is free, and only when none
    is does the turn pass."""
    state = table(turn=2)
    state.pos[0] = OUTSIDE
    act(state, 2, End(False))
    legal = rules.legal_actions(state, 1)
    assert legal and all(isinstance(a, BreakIn) for a in legal)
    # Every edge room taken by a Guard or a thief: the turn passes.
    state = table(turn=2)
    state.pos[0] = OUTSIDE
    state.guards = list(EDGE)
    act(state, 2, End(False))
    assert rules.legal_actions(state, 1) == [End(False)]
