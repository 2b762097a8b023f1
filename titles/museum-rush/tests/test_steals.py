"""Steal Actions, Turn Over Next Card, Items, Instant cards, Escaping, Service
Rooms, the End of the Game, the Take, Thief abilities, Stash and Buyers."""

from __future__ import annotations

import copy

from gameweave_museumrush import end, rules, tasks
from gameweave_museumrush.actions import (
    Choose,
    Control,
    Crack,
    Disable,
    Done,
    Drop,
    End,
    Lure,
    Move,
    Pass,
    Pick,
    Place,
    Raid,
    Rob,
    Security,
    Shop,
    Stash,
    StealLoot,
    Trap,
    UseKeys,
)
from gameweave_museumrush.cards import (
    BUYERS,
    CONTROL,
    ENTRANCE,
    EXHIBITS,
    HIGH_ROOMS,
    LOST,
    RARE_FOR_ROOM,
    SECURITY,
    SHOP,
    VAULT,
    parse_coord,
)
from gameweave_museumrush.queries import unlocked
from gameweave_museumrush.state import ESCAPED, OVER, RUSH, State
from helpers import act, card_of, deck_top, give, room_at, seed_where, table

from gameweave_core import Rng


def lock_room(state: State, at: str, room: int = 2) -> int:
    """High Security room ``HIGH_ROOMS[room]`` (the Judith Room, code 1-3-5) at ``at``."""
    return room_at(state, HIGH_ROOMS[room][0], at)


def crack_with(state: State, seat: int, want: object) -> int:
    """A seed whose roll makes ``want(state after the roll)`` true."""

    def ok(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, seat, Crack(), Rng(seed))
        return bool(want(s))  # type: ignore[operator]

    return seed_where(ok)


def test_crack_a_lock_tokens_stay_and_the_guard_comes() -> None:
    """Attempt to Crack a Lock: roll 3 dice, each matching digit takes an Unlock
    token; not cracked, the nearest Guard moves 2 towards you and the tokens stay."""
    state = table(at=("B2", "G4"), guards=["G2"])
    t = lock_room(state, "B2")
    seed = crack_with(state, 1, lambda s: s.grid[t].covered == [True, False, True])
    act(state, 1, Crack(), seed)
    dice = state.rolls[-1][2]
    assert 1 in dice and 5 in dice and 3 not in dice
    assert state.grid[t].covered == [True, False, True] and state.supply == 14
    assert state.guards == [parse_coord("E2")]
    assert state.grid[t].cards[0] == RARE_FOR_ROOM["Judith Room"]


def test_cracked_the_rare_treasure_is_yours() -> None:
    """Cracked!: all digits covered, steal the Rare Treasure, the Guard moves, the
    next card is turned over; the room then works like an Exhibit room."""
    state = table(at=("B2", "G4"), guards=["G1"])
    t = lock_room(state, "B2")
    state.grid[t].covered = [True, True, False]
    seed = crack_with(state, 1, lambda s: all(s.grid[t].covered))
    act(state, 1, Crack(), seed)
    assert RARE_FOR_ROOM["Judith Room"] in state.hands[0]
    assert unlocked(state, t)


def test_using_keys_finishes_the_code() -> None:
    """Using Keys: fail the roll but hold enough keys, and the keys complete the code."""
    state = table(at=("B2", "G4"), guards=["G1"])
    t = lock_room(state, "B2")
    state.keys[0] = 3
    seed = crack_with(state, 1, lambda s: not all(s.grid[t].covered))
    act(state, 1, Crack(), seed)
    assert rules.legal_actions(state, 1) == [UseKeys(), Pass()]
    missing = state.grid[t].covered.count(False)
    act(state, 1, UseKeys())
    assert state.keys[0] == 3 - missing and RARE_FOR_ROOM["Judith Room"] in state.hands[0]


def test_i_was_here_first() -> None:
    """ "I was here first!": a thief who tried the lock last turn and is still on
    the tile keeps the others from trying it."""
    state = table(at=("B2", "B2"), guards=["G1"])
    t = lock_room(state, "B2")
    state.cracked_at[1] = t
    assert Crack() not in rules.legal_actions(state, 1)
    assert "I was here first" in (rules.explain_illegal(state, 1, Crack()) or "")


def test_steal_from_another_thief_ties_go_to_the_current_player() -> None:
    """Steal from Another Thief: both roll, the higher takes a random card; the
    player whose turn it is wins ties; then the Guards come."""
    state = table(at=("B2", "B2"), guards=["G1"])
    loot = card_of("loot", 3)
    give(state, 2, loot)

    def tie(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, 1, Rob(2), Rng(0))
        rules.apply(s, 2, Pass(), Rng(seed))
        a, b = s.rolls[-1][2]
        return a == b

    act(state, 1, Rob(2))
    assert rules.awaiting(state) == (2,) and rules.legal_actions(state, 2) == [Pass()]
    act(state, 2, Pass(), seed_where(tie))
    assert state.hands[0] == [loot] and state.hands[1] == []
    assert state.knows[loot] == (1 << 1) | (1 << 2)


def test_lure_a_thief_who_tries_to_steal_from_you() -> None:
    """Lure: played on a rival who tries to steal from you, it moves them away."""
    state = table(at=("B2", "B2"), guards=["G1"])
    give(state, 2, card_of("loot", 3), card_of("lure"))
    act(state, 1, Rob(2))
    act(state, 2, Lure(-1, 1, "B3"))
    assert state.pos[0] == parse_coord("B3") and card_of("loot", 3) in state.hands[1]


def test_the_vault_needs_two_keys_and_gives_up_to_three_cards() -> None:
    """Steal from the Vault: 2 keys, used up; choose up to 3 cards; Guard alerted."""
    state = table(at=("B2", "G4"), guards=["G1"])
    room_at(state, VAULT, "B2")
    pile = [card_of("loot", i) for i in range(4)]
    state.vault = list(pile)
    state.keys[0] = 1
    assert Raid() not in rules.legal_actions(state, 1)
    state.keys[0] = 2
    act(state, 1, Raid())
    assert state.keys[0] == 0 and state.supply == 18
    for c in pile[:3]:
        act(state, 1, Pick(c))
    assert state.hands[0] == pile[:3] and state.vault == [pile[3]]


def test_lost_and_found_needs_one_key() -> None:
    """Steal from Lost & Found: 1 key; stop when you like."""
    state = table(at=("B2", "G4"), guards=["G1"])
    room_at(state, LOST, "B2")
    state.lost = [card_of("lure", 0), card_of("lure", 1)]
    state.keys[0] = 1
    act(state, 1, Raid())
    act(state, 1, Pick(card_of("lure", 0)))
    act(state, 1, Done())
    assert state.hands[0] == [card_of("lure", 0)] and state.keys[0] == 0


def test_turn_over_a_guard_card_places_a_new_guard_nearby() -> None:
    """Turn Over Next Card (Guard): the player to the right places a new Guard next
    to the room, on a tile with no Guard and no thief; then the next card."""
    state = table(3, at=("B2", "G4", "A4"), guards=["G1"])
    t = room_at(state, EXHIBITS[0], "B2")
    loot, guard_card, below = card_of("loot", 5), card_of("guard", 7), card_of("loot", 6)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c not in (loot, guard_card, below)]
    state.grid[t].cards = [loot, guard_card, below]
    state.grid[t].up = True
    act(state, 1, StealLoot())
    while state.tasks and state.tasks[0].kind == "alert":
        act(state, 3, rules.legal_actions(state, 3)[0])
    assert state.tasks[0].kind == "newguard" and rules.awaiting(state) == (3,)
    spots = {a.at for a in rules.legal_actions(state, 3)}
    assert spots <= {"B1", "A2", "C2", "B3"} and "B2" not in spots
    act(state, 3, Place(sorted(spots)[0]))
    assert parse_coord(sorted(spots)[0]) in state.guards
    assert state.grid[t].cards == [below] and state.grid[t].up


def test_turned_up_camera_and_a_disable_card() -> None:
    """Turn Over Next Card (Camera) and Disable: the Camera is removed from the
    game, the Guard does not move, the next card is turned over."""
    state = table(at=("B2", "G4"), guards=["G2"])
    t = room_at(state, EXHIBITS[0], "B2")
    loot, cam = card_of("loot", 5), card_of("camera", 0)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c not in (loot, cam)]
    state.grid[t].cards = [loot, cam]
    state.grid[t].up = True
    give(state, 1, card_of("disable"))
    act(state, 1, StealLoot())
    assert state.guards == [parse_coord("E2")]
    assert state.tasks[0].kind == "camera"
    act(state, 1, Disable("B2"))
    assert cam in state.removed and state.grid[t].cards == []
    assert state.guards == [parse_coord("E2")]


def test_lure_moves_a_guard_and_the_ventriloquist_three() -> None:
    """Lure: on or next to a Guard, move it 1 tile; the Ventriloquist up to 3."""
    state = table(at=("B2", "G4"), guards=["C2"])
    give(state, 1, card_of("lure"))
    lures = {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Lure) and a.guard == 0}
    assert lures == {"C1", "B2", "D2", "C3"}
    state.thief = ["The Ventriloquist", ""]
    lures = {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Lure) and a.guard == 0}
    assert "F2" in lures and "G2" not in lures


def test_a_lured_cat_is_sent_orthogonally_like_any_thief() -> None:
    """The Cat: diagonal moves "but not when slipping away from Guards or if being
    Lured"; Lure: a Thief on the same or an adjacent tile can be sent away."""
    state = table(at=("B2", "C2"))
    state.thief = ["The Owl", "The Cat"]
    give(state, 1, card_of("lure"))
    sends = {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Lure) and a.seat == 2}
    assert sends == {"C1", "B2", "D2", "C3"}  # one tile, never diagonal (B1, D1, B3, D3)


def test_the_ventriloquist_sends_a_thief_up_to_three_tiles() -> None:
    """The Ventriloquist: "When playing a Lure card, the Ventriloquist can move the
    Guard/Thief up to 3 spaces" — a rival Thief too."""
    state = table(at=("B2", "C2"))
    state.thief = ["The Ventriloquist", "The Cat"]
    give(state, 1, card_of("lure"))
    sends = {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Lure) and a.seat == 2}
    assert {"C1", "F2", "C4", "D3"} <= sends  # 1, 3, 2 and 2 orthogonal steps
    assert "G2" not in sends  # four steps is too far


def test_booby_trap_catches_a_guard_and_leaves_its_key() -> None:
    """Booby Trap: placed during movement on an adjacent free tile; a Guard moving
    in is removed with the trap and leaves a key the next thief picks up."""
    state = table(at=("B2", "G4"), guards=["D2"])
    trap = card_of("trap")
    give(state, 1, trap)
    spots = {a.at for a in rules.legal_actions(state, 1) if isinstance(a, Trap)}
    assert "B2" not in spots and "C2" in spots
    act(state, 1, Trap("C2"))
    assert state.grid[parse_coord("C2")].trap == trap
    loot_t = room_at(state, EXHIBITS[0], "B2")
    state.grid[loot_t].cards = [card_of("loot", 9)]
    state.grid[loot_t].up = True
    act(state, 1, StealLoot())
    assert state.guards == [-1] and state.grid[parse_coord("C2")].keys == 1
    state.moves_left = 3
    state.stolen = False
    state.tasks = []
    act(state, 1, Move("C2"))
    assert state.keys[0] == 1 and state.grid[parse_coord("C2")].keys == 0


def test_a_thief_walking_into_a_booby_trap() -> None:
    """Booby Trap: a thief moving in loses a random card and the Guard comes."""
    state = table(at=("B2", "G4"), guards=["G2"])
    state.grid[parse_coord("C2")].trap = card_of("trap")
    give(state, 1, card_of("loot", 2))
    act(state, 1, Move("C2"))
    assert state.hands[0] == [] and card_of("loot", 2) in state.vault
    assert state.grid[parse_coord("C2")].trap == -1
    assert state.guards == [parse_coord("E2")]


def test_way_out_goes_by_the_closest_edge_room() -> None:
    """Way Out: next to the edge room closest to your thief; none free, no effect."""
    state = table(at=("B2", "G4"), turn=2)
    room_at(state, ENTRANCE, "D4")
    deck_top(state, card_of("wayout"))
    act(state, 2, End(False))
    assert rules.awaiting(state) == (1,)
    assert {a.at for a in rules.legal_actions(state, 1)} == {"B1", "A2"}


def test_how_many_players_clock_cards_end_the_game() -> None:
    """How Many Players?: 2 players end on the 4th Clock, 3 on the 5th, 4 on the
    6th, at once (the current player does not finish the turn)."""
    for players, need in ((2, 4), (3, 5), (4, 6)):
        state = table(players, turn=players)
        state.clocks = need - 2
        deck_top(state, card_of("clock", 0), card_of("clock", 1))
        act(state, players, End(False))
        assert state.phase not in (RUSH, OVER) and state.clocks == need - 1
        act(state, 1, End(False))
        assert state.phase in (RUSH, OVER) and state.clocks == need


def test_escaping_by_a_way_out() -> None:
    """Escaping the Museum: on a Way Out, declare it at the end of your turn; no
    more turns. The Entrance Hall counts as a Way Out."""
    state = table(at=("B1", "G4"))
    assert End(True) not in rules.legal_actions(state, 1)
    state.grid[parse_coord("B1")].wayout = True
    act(state, 1, End(True))
    assert state.pos[0] == ESCAPED and state.turn == 2
    act(state, 2, End(False))
    assert state.turn == 2
    room_at(state, ENTRANCE, "G4")
    assert End(True) in rules.legal_actions(state, 2)


def test_control_security_and_gift_shop_once_per_turn() -> None:
    """Service Rooms: Control Room disables any one Camera, Security Room moves any
    one Guard a space, Gift Shop draws one more card; each once per turn."""
    state = table(at=("B2", "G4"), guards=["F3"])
    room_at(state, CONTROL, "B2")
    cam_tile = room_at(state, EXHIBITS[3], "E4")
    cam = card_of("camera", 2)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c != cam]
    state.grid[cam_tile].cards = [cam]
    state.grid[cam_tile].up = True
    act(state, 1, Control("E4"))
    assert cam in state.removed
    assert not [a for a in rules.legal_actions(state, 1) if isinstance(a, Control)]
    room_at(state, SECURITY, "B3")
    act(state, 1, Move("B3"))
    act(state, 1, Security(0, "F2"))
    assert state.guards == [parse_coord("F2")]
    assert not [a for a in rules.legal_actions(state, 1) if isinstance(a, Security)]
    room_at(state, SHOP, "B4")
    act(state, 1, Move("B4"))
    before = len(state.deck)
    act(state, 1, Shop())
    assert len(state.deck) == before - 1 and Shop() not in rules.legal_actions(state, 1)


def test_cipher_uses_the_security_room_from_three_spaces() -> None:
    """The Cipher: once in his movement, the Security or Control Room from up to 3
    spaces away."""
    state = table(at=("B2", "G4"), guards=["F3"], first_game=False)
    state.thief = ["Cipher", "The Owl"]
    room_at(state, SECURITY, "E2")
    assert [a for a in rules.legal_actions(state, 1) if isinstance(a, Security)]
    state.thief = ["The Cat", "The Owl"]
    assert not [a for a in rules.legal_actions(state, 1) if isinstance(a, Security)]


def test_the_owl_keeps_one_of_two() -> None:
    """The Owl: take 2 cards, keep 1, the other to the bottom of the deck."""
    state = table(turn=2, first_game=False)
    state.thief = ["The Owl", "The Cat"]
    a, b = card_of("lure"), card_of("disable")
    deck_top(state, a, b)
    act(state, 2, End(False))
    assert rules.legal_actions(state, 1) == [Choose(min(a, b)), Choose(max(a, b))]
    act(state, 1, Choose(b))
    assert state.hands[0] == [b] and state.deck[-1] == a and state.knows[a] == 1 << 1


def test_still_inside_thieves_roll_per_tile_and_drop() -> None:
    """Still Inside?: a die per tile to the nearest Way Out (and per Guard and
    Booby Trap on the way); each 0, 1 or 2 costs a card of your choice."""
    state = table(at=("D2", "G4"), turn=2)
    room_at(state, ENTRANCE, "D1")
    give(state, 1, *[card_of("loot", i) for i in range(5)])
    state.clocks = 3
    deck_top(state, card_of("clock"))

    def drops(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, 2, End(False), Rng(seed))
        return s.rolls[-2][0] == 1 and s.rolls[-2][2][0] <= 2

    act(state, 2, End(False), seed_where(drops))
    flee = next(r for r in state.rolls if r[1] == "rush" and r[0] == 1)
    assert len(flee[2]) == 1  # one tile from the Entrance Hall
    assert state.phase == RUSH and rules.awaiting(state) == (1,)
    act(state, 1, Drop(card_of("loot", 0)))
    assert state.phase == OVER and len(state.hands[0]) == 4


def test_count_the_take_stash_and_buyers() -> None:
    """Count Up Your 'Take', Using Your Stash, Buyers: Loot and Treasure values,
    the stashed card, $2M per piece your Buyer wants; Items break a tie."""
    state = table(at=("A1", "A1"), first_game=False)
    state.stash = ["Cafe", "Library"]
    room_at(state, "Cafe", "A1")
    buyer, wanted_loot, _ = BUYERS[0]
    state.buyer = [0, 1]
    give(state, 1, wanted_loot, card_of("loot", 0))
    act(state, 1, Stash(wanted_loot))
    assert state.stashed[0] == wanted_loot and state.stash_shown[0]
    assert Stash(card_of("loot", 0)) not in rules.legal_actions(state, 1)
    give(state, 2, card_of("loot", 1), card_of("lure"))
    takes = end.takes(state)
    from gameweave_museumrush.cards import CARDS

    assert takes[0] == CARDS[wanted_loot].value + 1 + 2
    assert takes[1] == 1
    assert buyer == "The Countess"


def test_a_tie_is_broken_by_item_values() -> None:
    """Count Up Your 'Take': in a draw, the Items in hand break the tie."""
    state = table(at=("A1", "G4"))
    give(state, 1, card_of("loot", 0))
    give(state, 2, card_of("loot", 1), card_of("takedown"))
    end.finish(state)
    assert state.takes == [1, 1] and state.winners == [2]
    assert rules.outcome(state) is not None


def test_way_out_has_no_effect_when_the_closest_rooms_have_one() -> None:
    """Way Out: if the closest edge rooms all have a Way Out already, discard it."""
    state = table(at=("A1", "G4"), turn=2)
    state.grid[parse_coord("A1")].wayout = True
    deck_top(state, card_of("wayout"))
    events = act(state, 2, End(False))
    assert not state.tasks and sum(t.wayout for t in state.grid) == 1
    assert any("no effect" in e.text for e in events)


def test_no_booby_trap_on_a_camera() -> None:
    """Booby Trap: never on top of a Camera card, nor where a thief or Guard stands."""
    state = table(at=("B2", "B3"), guards=["A2"])
    cam_tile = room_at(state, EXHIBITS[2], "C2")
    cam = card_of("camera", 3)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c != cam]
    state.grid[cam_tile].cards = [cam]
    state.grid[cam_tile].up = True
    give(state, 1, card_of("trap"))
    spots = {a.at for a in rules.legal_actions(state, 1) if isinstance(a, Trap)}
    assert spots == {"B1"}


def test_guards_do_not_use_the_archive_passage() -> None:
    """Service Rooms: Guards do not use the passage between the Archives."""
    from gameweave_museumrush.cards import ARCHIVE_A, ARCHIVE_B
    from gameweave_museumrush.queries import guard_options

    state = table(at=("A1", "G4"), guards=["G1"])
    room_at(state, ARCHIVE_A, "A1")
    room_at(state, ARCHIVE_B, "G1")
    assert [path for _, path in guard_options(state, 1)] == [[parse_coord("F1"), parse_coord("E1")]]


def test_lure_a_rival_thief_in_your_own_turn() -> None:
    """Lure: on the same or an adjacent tile to another thief, send them 1 tile."""
    state = table(at=("B2", "C2"), guards=["G4"])
    give(state, 1, card_of("lure"))
    assert Lure(-1, 2, "D2") in rules.legal_actions(state, 1)
    act(state, 1, Lure(-1, 2, "C1"))
    assert state.pos[1] == parse_coord("C1") and card_of("lure") in state.discard


def test_a_new_guard_with_no_free_tile_starts_in_the_security_room() -> None:
    """Turn Over Next Card (Guard): no free adjacent tile, the Guard starts in the
    Security Room, even if someone is there."""
    state = table(4, at=("B2", "A2", "C2", "B3"), guards=["B1", "B1"])
    t = room_at(state, EXHIBITS[0], "B2")
    sec = room_at(state, SECURITY, "G4")
    loot, guard_card = card_of("loot", 5), card_of("guard", 7)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c not in (loot, guard_card)]
    state.grid[t].cards = [loot, guard_card]
    state.grid[t].up = True
    act(state, 1, StealLoot())
    while state.tasks:
        s = rules.awaiting(state)[0]
        act(state, s, rules.legal_actions(state, s)[-1])
    assert sec in state.guards


def test_the_stashed_card_is_safe_and_outside_the_hand_limit() -> None:
    """Using Your Stash: the card cannot be confiscated and does not count towards
    the hand limit."""
    state = table(at=("A1", "G4"), first_game=False)
    state.stash = ["Cafe", "Library"]
    room_at(state, "Cafe", "A1")
    give(state, 1, *[card_of("loot", i) for i in range(8)])
    state.tasks = []
    act(state, 1, Stash(card_of("loot", 7)))
    assert len(state.hands[0]) == 7 and state.stashed[0] == card_of("loot", 7)
    tasks.do_bust(state, 1, card_of("loot", 0))
    assert state.stashed[0] == card_of("loot", 7) and card_of("loot", 7) not in state.vault


def test_the_vault_raid_alerts_the_nearest_guard() -> None:
    """Steal from the Vault, step 3: the nearest Guard moves 2 tiles towards you."""
    state = table(at=("B2", "G4"), guards=["G2"])
    room_at(state, VAULT, "B2")
    state.vault = [card_of("loot", 0)]
    state.keys[0] = 2
    act(state, 1, Raid())
    act(state, 1, Pick(card_of("loot", 0)))
    assert state.guards == [parse_coord("E2")]


def test_you_may_try_to_rob_a_thief_with_an_empty_hand() -> None:
    """Steal from Another Thief: "If you've moved onto the same tile as another
    Thief, you can attempt to steal from them"; "The player that rolls highest is
    successful – take a card at random from your opponent's hand". An empty hand is
    no shelter: the victim who rolls higher takes a card from the thief."""
    state = table(at=("B2", "B2"), guards=["G1"])
    loot = card_of("loot", 3)
    give(state, 1, loot)
    assert state.hands[1] == [] and Rob(2) in rules.legal_actions(state, 1)

    def victim_wins(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, 1, Rob(2), Rng(0))
        rules.apply(s, 2, Pass(), Rng(seed))
        a, b = s.rolls[-1][2]
        return b > a

    act(state, 1, Rob(2))
    act(state, 2, Pass(), seed_where(victim_wins))
    assert state.hands == [[], [loot]]


def test_the_player_to_the_right_places_a_new_guard_even_in_the_jokers_turn() -> None:
    """Turn Over Next Card (Guard): "The player to the right places a new Guard";
    The Joker: "During his own turn the Joker's player moves Guards instead of the
    player to the right" — he moves them, but a new Guard is placed as usual."""
    state = table(3, at=("B2", "G4", "A4"), guards=["G1"], first_game=False)
    state.thief = ["The Joker", "The Owl", "The Cat"]
    t = room_at(state, EXHIBITS[0], "B2")
    loot, guard_card, below = card_of("loot", 5), card_of("guard", 7), card_of("loot", 6)
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c not in (loot, guard_card, below)]
    state.grid[t].cards = [loot, guard_card, below]
    state.grid[t].up = True
    act(state, 1, StealLoot())
    while state.tasks and state.tasks[0].kind == "alert":
        assert rules.awaiting(state) == (1,)  # the Joker routes the walking Guard
        act(state, 1, rules.legal_actions(state, 1)[0])
    assert state.tasks[0].kind == "newguard" and rules.awaiting(state) == (3,)


def test_the_stash_is_used_during_movement_not_after_the_steal_action() -> None:
    """Using Your Stash: "if you have moved into your Stash location, you can stash
    ... 5. Carry on with your movement if you have any left." Ruling: stashing is
    part of the movement, which the Steal Action ends (as for Booby Traps): a card
    stolen there cannot be stashed in the same turn."""
    state = table(at=("A1", "A1"), guards=["G4"], first_game=False)
    state.stash = ["Cafe", "Library"]
    room_at(state, "Cafe", "A1")
    mine, theirs = card_of("loot", 0), card_of("loot", 1)
    give(state, 1, mine)
    give(state, 2, theirs)
    assert Stash(mine) in rules.legal_actions(state, 1)  # before the Steal Action

    def thief_wins(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, 1, Rob(2), Rng(0))
        rules.apply(s, 2, Pass(), Rng(seed))
        a, b = s.rolls[-1][2]
        return a >= b

    act(state, 1, Rob(2))
    act(state, 2, Pass(), seed_where(thief_wins))
    while state.tasks:  # the Guard's route, chosen by the player to the right
        seat = rules.awaiting(state)[0]
        act(state, seat, rules.legal_actions(state, seat)[0])
    assert sorted(state.hands[0]) == sorted([mine, theirs]) and state.turn == 1
    assert not [a for a in rules.legal_actions(state, 1) if isinstance(a, Stash)]
    assert "Stash" in (rules.explain_illegal(state, 1, Stash(mine)) or "")
