"""What each seat may know, built as allow-lists.

Everyone sees the museum (rooms, face-up cards, how many cards lie face down,
Unlock tokens, Booby Traps, keys, Way Outs), the Guards and thieves, the dice, the
discard pile, the Clocks and how many cards of each back (red museum, purple
Search) every hand holds. A card's face is read only where ``State.knows`` gives
the seat (or everyone) that card. A seat adds its own hand, Stash and Buyer; other
Stash cards once shown, Buyers once the game is over. No value is ``None``.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    BUYERS,
    CARDS,
    CLOCKS_TO_END,
    ITEMS,
    ROOMS,
    STASH_ROOMS,
    VALUABLES,
    coord,
)
from .queries import bit, guard_mover, room_name
from .rules import awaiting
from .state import ESCAPED, OUTSIDE, OVER, PUBLIC, State
from .tasks import TASK_WORDS, decider


def card_json(card: int) -> dict[str, Any]:
    c = CARDS[card]
    out: dict[str, Any] = {"id": card, "kind": c.kind, "name": c.name, "value": c.value}
    if c.room:
        out["room"] = c.room
    return out


def where(pos: int) -> str:
    return "outside" if pos == OUTSIDE else "escaped" if pos == ESCAPED else coord(pos)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """All ``seat`` (``None``: a spectator) may know."""
    mine = PUBLIC | (bit(seat) if seat is not None else 0)

    def seen(card: int) -> bool:
        return bool(state.knows[card] & mine)

    tiles = []
    for t, tile in enumerate(state.grid):
        room = ROOMS[tile.room]
        entry: dict[str, Any] = {
            "at": coord(t),
            "room": room.name,
            "kind": room.kind,
            "facedown": len(tile.cards) - (1 if tile.up else 0),
            "trap": tile.trap >= 0,
            "keys": tile.keys,
            "wayout": tile.wayout,
            "stash_icon": room.name in STASH_ROOMS,
        }
        if tile.up and tile.cards:
            entry["top"] = card_json(tile.cards[0])
        if tile.trap >= 0:  # face up: which Booby Trap card it is, everyone sees
            entry["trap_card"] = card_json(tile.trap)
        if room.code:
            entry["code"] = room.code
            entry["covered"] = list(tile.covered)
        tiles.append(entry)
    thieves = []
    for s in range(1, state.players + 1):
        hand = state.hands[s - 1]
        entry = {
            "seat": s,
            "thief": state.thief[s - 1],
            "at": where(state.pos[s - 1]),
            "keys": state.keys[s - 1],
            "valuables": sum(1 for c in hand if CARDS[c].kind in VALUABLES),
            "items": sum(1 for c in hand if CARDS[c].kind in ITEMS),
            "known": [card_json(c) for c in sorted(hand) if seen(c)],
        }
        if state.stash_shown[s - 1]:
            entry["stash"] = state.stash[s - 1]
            entry["stashed"] = card_json(state.stashed[s - 1])
        if state.phase == OVER and state.buyer[s - 1] >= 0:
            entry["buyer"] = BUYERS[state.buyer[s - 1]][0]
        thieves.append(entry)
    out: dict[str, Any] = {
        "players": state.players,
        "first_game": state.first_game,
        "phase": state.phase,
        "turn": state.turn,
        "awaiting": list(awaiting(state)),
        "grid": tiles,
        "guards": [{"id": g, "at": coord(p)} for g, p in enumerate(state.guards) if p >= 0],
        "thieves": thieves,
        "deck": len(state.deck),
        "discard": [card_json(c) for c in state.discard],
        "removed": len(state.removed),
        # Every card removed from the game went out face up, in everyone's sight.
        "removed_cards": [card_json(c) for c in state.removed],
        "vault": {
            "count": len(state.vault),
            "known": [card_json(c) for c in sorted(state.vault) if seen(c)],
        },
        "lost": {
            "count": len(state.lost),
            "known": [card_json(c) for c in sorted(state.lost) if seen(c)],
        },
        "clocks": state.clocks,
        "clocks_to_end": CLOCKS_TO_END[state.players],
        "supply": state.supply,
        "moves_left": max(state.moves_left, 0),
        "stolen": state.stolen,
        "rolls": [{"seat": s, "for": what, "dice": list(d)} for s, what, d in state.rolls[-6:]],
        "guard_mover": guard_mover(state),
        "news": list(state.news),
    }
    if state.tasks and state.phase != OVER:
        task = state.tasks[0]
        pending: dict[str, Any] = {
            "kind": task.kind,
            "what": TASK_WORDS[task.kind],
            "by": decider(state, task),
            "about": task.seat,
        }
        if task.room >= 0:
            pending["at"] = coord(task.room)
            pending["room"] = room_name(state, task.room)
        out["pending"] = pending
    if seat is not None:
        you: dict[str, Any] = {
            "seat": seat,
            "hand": [card_json(c) for c in sorted(state.hands[seat - 1])],
        }
        if state.stash[seat - 1]:
            you["stash"] = state.stash[seat - 1]
        # Search cards the seat saw go back into the deck (The Owl's), by place.
        deck = [
            {"from_top": i, **card_json(c)}
            for i, c in enumerate(state.deck)
            if state.knows[c] & bit(seat)
        ]
        if deck:
            you["deck"] = deck
        if state.buyer[seat - 1] >= 0:
            buyer, loot, rare = BUYERS[state.buyer[seat - 1]]
            you["buyer"] = {"name": buyer, "wants": [card_json(loot), card_json(rare)]}
        # The Owl's two cards stay in sight until one is kept, even while another
        # task comes first (the seat was told them: the view keeps what it was told).
        owl = next((t for t in state.tasks if t.kind == "owl" and t.seat == seat), None)
        if owl is not None:
            you["drawn"] = [card_json(c) for c in owl.cards]
        out["you"] = you
    if state.phase == OVER:
        out["takes"] = list(state.takes)
        out["winners"] = list(state.winners)
        out["ended"] = state.ended
    return out


def seat_label(state: State, seat: int) -> str:
    """``"Seat 2 (The Owl)"``, or ``"Seat 2"`` in a first game."""
    thief = state.thief[seat - 1]
    return f"Seat {seat} ({thief})" if thief else f"Seat {seat}"


def has_secrets(state: State, seat: int) -> bool:
    """A seat hides its hand, Stash and Buyer until the game is over."""
    return state.phase != OVER
