"""The information-set sampler (the title's ``resample`` hook).

A seat knows where a card is when ``State.knows`` says so (its own bit or the
public one). Every other card is redrawn among the places the seat cannot see
into: the Search deck (and The Owl's two cards in hand), the face-down cards on
the red tiles, other thieves' hands, the Vault and the Lost & Found. Card backs
are public, so a place keeps its back: a purple slot gets a Search card, a red one
a museum card; and the rules keep further kinds apart (Clocks and Way Outs only in
the deck, Cameras and Guard cards only face down on a tile, Rare Treasures never
face down on a tile). Among the assignments that respect all that, the draw is
uniform. Other seats' Stash cards (not yet shown) and Buyers are redrawn uniformly
from those the seat has not seen.

Where this is not exact: uniform ignores what play suggests (a thief heading for a
room may want its Loot), and a card the seat saw leave a hand face down (busted,
dropped) is treated as unseen anywhere, not as "one of two places". The draw uses
only what the seat knows: unseen cards and places are put in a canonical order
before shuffling, and piles whose order does not matter are sorted.
"""

from __future__ import annotations

from gameweave_core import Rng, pickled_copy

from .cards import BUYERS, CAMERA, CARDS, CLOCK, GUARD, MUSEUM_KINDS, RARE, STASH_ROOMS, WAYOUT
from .queries import bit
from .state import PUBLIC, State

# A place is (where, index): where is "deck", "owl", ("tile", t), ("hand", s), "vault", "lost".
Place = tuple[str, int, int]


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A fresh state ``seat`` (``None``: a spectator) cannot tell from ``state``."""
    # About 3 times faster than copy.deepcopy on mid-game states, and resample runs
    # once per search iteration.
    out = pickled_copy(state)
    mine = PUBLIC | (bit(seat) if seat is not None else 0)
    for hand in out.hands:
        hand.sort()
    out.vault.sort()
    out.lost.sort()
    places: list[tuple[Place, int]] = []
    for i, c in enumerate(out.deck):
        places.append((("deck", 0, i), c))
    for k, task in enumerate(out.tasks):
        if task.kind == "owl":
            places.extend((("owl", k, i), c) for i, c in enumerate(task.cards))
    for t, tile in enumerate(out.grid):
        first = 1 if tile.up else 0
        places.extend((("tile", t, i), tile.cards[i]) for i in range(first, len(tile.cards)))
    for s, hand in enumerate(out.hands, start=1):
        places.extend((("hand", s, i), c) for i, c in enumerate(hand))
    places.extend((("vault", 0, i), c) for i, c in enumerate(out.vault))
    places.extend((("lost", 0, i), c) for i, c in enumerate(out.lost))
    hidden = [(p, c) for p, c in places if not state.knows[c] & mine]
    museum = [(p, c) for p, c in hidden if CARDS[c].kind in MUSEUM_KINDS]
    search = [(p, c) for p, c in hidden if CARDS[c].kind not in MUSEUM_KINDS]
    # Red backs: Cameras and Guards only face down on tiles, Rares only elsewhere.
    assign(out, museum, rng, lambda p: p[0] == "tile", (CAMERA, GUARD), (RARE,))
    # Purple backs: Clocks and Way Outs only in the deck (or The Owl's draw).
    assign(out, search, rng, lambda p: p[0] in ("deck", "owl"), (CLOCK, WAYOUT), ())
    for hand in out.hands:
        hand.sort()
    out.vault.sort()
    out.lost.sort()
    redraw_secret_cards(out, state, seat, rng)
    return out


def assign(
    out: State,
    hidden: list[tuple[Place, int]],
    rng: Rng,
    special: object,
    only_special: tuple[str, ...],
    only_other: tuple[str, ...],
) -> None:
    """Deal ``hidden``'s cards back into its places, uniformly among the deals that
    put ``only_special`` kinds in places where ``special(place)`` holds and
    ``only_other`` kinds where it does not."""
    is_special = special if callable(special) else (lambda p: False)
    slots = sorted(p for p, _ in hidden)
    cards = sorted(c for _, c in hidden)
    a_slots = [p for p in slots if is_special(p)]
    b_slots = [p for p in slots if not is_special(p)]
    a_cards = [c for c in cards if CARDS[c].kind in only_special]
    b_cards = [c for c in cards if CARDS[c].kind in only_other]
    free = [c for c in cards if CARDS[c].kind not in only_special + only_other]
    rng.shuffle(a_slots)
    rng.shuffle(b_slots)
    placed: dict[Place, int] = {}
    for p, c in zip(a_slots, a_cards, strict=False):
        placed[p] = c
    for p, c in zip(b_slots, b_cards, strict=False):
        placed[p] = c
    rest = sorted(p for p in slots if p not in placed)
    rng.shuffle(free)
    for p, c in zip(rest, free, strict=True):
        placed[p] = c
    for p, c in placed.items():
        put(out, p, c)


def put(out: State, place: Place, card: int) -> None:
    where, k, i = place
    if where == "deck":
        out.deck[i] = card
        out.knows[card] = 0
    elif where == "owl":
        out.tasks[k].cards[i] = card
        out.knows[card] = bit(out.tasks[k].seat)
    elif where == "tile":
        out.grid[k].cards[i] = card
        out.knows[card] = 0
    elif where == "hand":
        out.hands[k - 1][i] = card
        out.knows[card] = bit(k)
    elif where == "vault":
        out.vault[i] = card
        out.knows[card] = 0
    else:
        out.lost[i] = card
        out.knows[card] = 0


def redraw_secret_cards(out: State, state: State, seat: int | None, rng: Rng) -> None:
    """Other seats' Buyers and unshown Stash cards, from those the seat has not seen."""
    if state.first_game:
        return
    over = state.phase == "over"
    others = [s for s in range(1, state.players + 1) if s != seat]
    if not over:
        hidden = [s for s in others]
        seen_buyers = {state.buyer[seat - 1]} if seat is not None else set()
        pool = [b for b in range(len(BUYERS)) if b not in seen_buyers]
        drawn = rng.sample(pool, len(hidden))
        for s, b in zip(hidden, drawn, strict=True):
            out.buyer[s - 1] = b
    hidden = [s for s in others if not state.stash_shown[s - 1]]
    seen = {state.stash[s - 1] for s in range(1, state.players + 1) if state.stash_shown[s - 1]}
    if seat is not None:
        seen.add(state.stash[seat - 1])
    pool_rooms = [r for r in STASH_ROOMS if r not in seen]
    for s, r in zip(hidden, rng.sample(pool_rooms, len(hidden)), strict=True):
        out.stash[s - 1] = r
