"""What each seat may know, built as allow-lists.

Everyone sees the museum (rooms, face-up cards, how many cards lie face down,
Unlock tokens, Booby Traps, keys, Way Outs), the Guards and thieves, the dice, the
discard pile, the Clocks and how many cards of each back (red museum, purple
Search) every hand holds. A card's face is read only where ``State.knows`` gives
the seat (or everyone) that card. A seat adds its own hand, Stash and Buyer; other
Stash cards once shown, Buyers once the game is over. No value is ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameweave_core import Bag, Bool, IntRange, ListOf, Maybe, NotEncoded, OneOf, Record, Schema

from .actions import GUARD_NUMBERS, HAND_IDS, SEARCH_CARD_IDS, TILE_NAMES, VALUABLE_IDS
from .cards import (
    BUYER_BONUS,
    BUYERS,
    CAMERA,
    CARDS,
    CLOCKS_TO_END,
    EXHIBIT,
    GUARD,
    HIGH,
    HIGH_ROOMS,
    ITEMS,
    LOOT,
    OTHER,
    RARE,
    ROOMS,
    SERVICE,
    STASH_ROOMS,
    THIEVES,
    TRAP,
    VALUABLES,
    coord,
)
from .hands import DIE_FACES, HAND_LIMIT
from .queries import bit, guard_mover, room_name
from .rules import awaiting
from .state import BREAKIN, ESCAPED, OUTSIDE, OVER, PUBLIC, RUSH, TURN, State
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


# -- the views' shape, for the core's observation encoder -----------------------------

#: Unlock tokens in the game (the supply at the start): no pile of keys holds more.
KEYS = 16
#: The most cards in a hand: the Hand Limit, and the card over it that makes the
#: thief drop at once (the drop comes before anything else). Room is left above.
MAX_HAND = HAND_LIMIT + 3
#: The most dice of one roll: the rush for a Way Out rolls one per tile (9 at most on
#: a 4 x 7 grid), per Guard (9) and per Booby Trap (4) on the way.
MAX_DICE = 9 + len(GUARD_NUMBERS) + sum(1 for c in CARDS if c.kind == TRAP)
#: The most a Take can be: every Loot and Rare Treasure, and both of a Buyer's bonuses.
MAX_TAKE = sum(c.value for c in CARDS if c.kind in VALUABLES) + 2 * BUYER_BONUS
#: The rolls the view keeps (the latest ones) and what they were for.
ROLLS_KEPT = 6
ROLLS_FOR = ("crack", "rob", "rush", "slip")
#: The most cards a seat can know in the Search deck: The Owl's, each put back at
#: the bottom after a draw that takes two. Every draw shrinks the deck by one and
#: nothing else goes back in, so after ``d`` draws the deck holds ``29 - d`` cards
#: and The Owl knows at most ``d`` of them: never more than half the deck.
OWL_KNOWN = len(SEARCH_CARD_IDS) // 2
#: Where a thief is: a tile, or out of the museum.
PLACES = (*TILE_NAMES, "outside", "escaped")


def cards(ids: Any) -> list[dict[str, Any]]:
    """The cards of ``ids`` as the view shows them (one whole card is one value)."""
    return [card_json(c) for c in ids]


def of_kind(*kinds: str) -> list[dict[str, Any]]:
    return cards(i for i, c in enumerate(CARDS) if c.kind in kinds)


def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
    """The shape of every view of a ``players``-seat match, for the core's encoder.

    A card is one value (its id, kind, name and value together); lists of cards the
    view keeps sorted (hands, piles) are bags, nothing lost; the discard pile and
    the cards removed from the game are bags too: their order is never read. A
    tile's place is its position in the grid list. Free text (the latest news, the
    words for a pending task) is for people and not encoded.
    """
    seat = IntRange(1, players, one_hot=True)
    seat_set = Bag(range(1, players + 1), max_count=1)
    tile = OneOf(TILE_NAMES)
    hand = Bag(cards(HAND_IDS), max_count=1)
    valuable = OneOf(cards(VALUABLE_IDS))
    stash_rooms = OneOf(STASH_ROOMS)
    grid_tile = Record(
        at=NotEncoded("the tile's place: its position in the grid list, row by row"),
        room=OneOf([r.name for r in ROOMS]),
        kind=OneOf((EXHIBIT, HIGH, SERVICE, OTHER)),
        # A tile holds 3 cards at most (a Rare Treasure on 2), the top one face up.
        facedown=IntRange(0, 2),
        trap=Bool(),
        keys=IntRange(0, KEYS),
        wayout=Bool(),
        stash_icon=Bool(),
        top=Maybe(OneOf(of_kind(LOOT, RARE, CAMERA))),
        trap_card=Maybe(OneOf(of_kind(TRAP))),
        code=Maybe(OneOf([code for _, code in HIGH_ROOMS])),
        covered=Maybe(ListOf(Bool(), max_len=max(len(code) for _, code in HIGH_ROOMS))),
    )
    thief = Record(
        seat=seat,
        thief=OneOf(("", *THIEVES)),
        at=OneOf(PLACES),
        keys=IntRange(0, KEYS),
        valuables=IntRange(0, MAX_HAND),
        items=IntRange(0, MAX_HAND),
        known=hand,
        stash=Maybe(stash_rooms),
        stashed=Maybe(valuable),
        buyer=Maybe(OneOf([b[0] for b in BUYERS])),
    )
    roll = Record.of(
        {
            "seat": seat,
            "for": OneOf(ROLLS_FOR),
            "dice": ListOf(IntRange(0, DIE_FACES - 1), max_len=MAX_DICE),
        }
    )
    pending = Record(
        kind=OneOf(tuple(TASK_WORDS)),
        what=NotEncoded("words for people, fixed by the task's kind"),
        by=seat,
        about=IntRange(0, players, one_hot=True),
        at=Maybe(tile),
        room=Maybe(OneOf([r.name for r in ROOMS])),
    )
    search = len(SEARCH_CARD_IDS)
    in_deck = Record(
        from_top=IntRange(0, search - 1),
        id=OneOf(SEARCH_CARD_IDS),
        kind=NotEncoded("the card's kind, fixed by its id"),
        name=NotEncoded("the card's name, fixed by its id"),
        value=NotEncoded("the card's value, fixed by its id"),
    )
    you = Record(
        seat=seat,
        hand=hand,
        stash=Maybe(stash_rooms),
        deck=Maybe(ListOf(in_deck, max_len=OWL_KNOWN)),
        buyer=Maybe(Record(name=OneOf([b[0] for b in BUYERS]), wants=ListOf(valuable, length=2))),
        drawn=Maybe(ListOf(OneOf(cards(SEARCH_CARD_IDS)), length=2)),
    )
    return Record(
        players=IntRange(2, 4),
        first_game=Bool(),
        phase=OneOf((BREAKIN, TURN, RUSH, OVER)),
        turn=seat,
        awaiting=seat_set,
        grid=ListOf(grid_tile, length=len(TILE_NAMES)),
        guards=ListOf(
            Record(id=IntRange(0, len(GUARD_NUMBERS) - 1, one_hot=True), at=tile),
            max_len=len(GUARD_NUMBERS),
        ),
        thieves=ListOf(thief, length=players),
        deck=IntRange(0, search),
        discard=Bag(cards(SEARCH_CARD_IDS), max_count=1),
        removed=IntRange(0, len(of_kind(GUARD, CAMERA, TRAP))),
        removed_cards=Bag(of_kind(GUARD, CAMERA, TRAP), max_count=1),
        vault=Record(
            count=IntRange(0, len(VALUABLE_IDS)), known=Bag(cards(VALUABLE_IDS), max_count=1)
        ),
        lost=Record(
            count=IntRange(0, len(of_kind(*ITEMS))), known=Bag(of_kind(*ITEMS), max_count=1)
        ),
        clocks=IntRange(0, max(CLOCKS_TO_END.values())),
        clocks_to_end=IntRange(min(CLOCKS_TO_END.values()), max(CLOCKS_TO_END.values())),
        supply=IntRange(0, KEYS),
        moves_left=IntRange(0, 3),
        stolen=Bool(),
        rolls=ListOf(roll, max_len=ROLLS_KEPT),
        guard_mover=seat,
        news=NotEncoded("the latest action's public lines, as text for people"),
        pending=Maybe(pending),
        you=Maybe(you),
        takes=Maybe(ListOf(IntRange(0, MAX_TAKE), length=players)),
        winners=Maybe(seat_set),
        ended=Maybe(OneOf(("clock", "escaped"))),
    )
