"""The end of the game: the rush for the Way Outs once the last Clock is drawn or
every thief has escaped, and the Takes that decide the winners."""

from __future__ import annotations

from gameweave_core import Event, Rng

from .cards import BUYER_BONUS, BUYERS, CLOCKS_TO_END
from .hands import roll
from .queries import (
    everyone,
    guards_on,
    hand_value,
    is_way_out,
    item_value,
    label,
    order_from,
    steps,
)
from .state import OVER, RUSH, State, Task


def counted(n: int, thing: str) -> str:
    """``n`` things in words: ``1 tile``, ``2 tiles``, ``0 Guards``."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def begin_rush(state: State, rng: Rng) -> list[Event]:
    """The game ends at once: thieves still inside run for the nearest Way Out,
    rolling a die per tile, per Guard and per Booby Trap on the way; each 0, 1 or 2
    costs a card of their choice."""
    state.phase = RUSH
    state.tasks = []
    state.ended = "clock" if state.clocks >= CLOCKS_TO_END[state.players] else "escaped"
    events = [Event.public("The game is over: thieves still inside rush out", "rush")]
    for seat in order_from(state, state.turn):
        here = state.pos[seat - 1]
        if here < 0:
            continue
        tiles, guards, traps = flight(state, seat, here)
        dice = roll(rng, tiles + guards + traps)
        state.rolls.append((seat, "rush", dice))
        drops = sum(1 for d in dice if d <= 2)
        events.append(
            Event.public(
                f"{label(seat)} is {counted(tiles, 'tile')} from a Way Out "
                f"({counted(guards, 'Guard')}, {counted(traps, 'Booby Trap')}): rolls "
                f"{' '.join(map(str, dice)) or 'nothing'}, drops {drops}",
                "flee",
                dice=dice,
            )
        )
        if drops and state.hands[seat - 1]:
            state.tasks.append(Task("drop", seat, n=drops))
    return events


def flight(state: State, seat: int, start: int) -> tuple[int, int, int]:
    """Tiles to the nearest Way Out, and the Guards and Booby Traps on the way.

    Project's ruling: of the shortest routes, the thief takes the one with the
    fewest Guards and Booby Traps."""
    best: dict[int, tuple[int, int, int]] = {start: (0, 0, 0)}
    frontier = [start]
    while frontier:
        nxt = []
        for tile in frontier:
            d, g, b = best[tile]
            for n in steps(state, seat, tile):
                cost = (d + 1, g + len(guards_on(state, n)), b + (state.grid[n].trap >= 0))
                if n not in best:
                    best[n] = cost
                    nxt.append(n)
                elif best[n][0] == cost[0] and best[n][1] + best[n][2] > cost[1] + cost[2]:
                    best[n] = cost
        frontier = nxt
    outs = [best[t] for t in best if is_way_out(state, t)]
    return min(outs, key=lambda c: (c[0], c[1] + c[2]))


def takes(state: State) -> list[int]:
    """Each thief's Take: Loot and Treasure in hand, the stashed card, Buyer bonuses."""
    out = []
    for s in range(1, state.players + 1):
        held = list(state.hands[s - 1])
        if state.stashed[s - 1] >= 0:
            held.append(state.stashed[s - 1])
        total = hand_value(held)
        if state.buyer[s - 1] >= 0:
            _, loot, rare = BUYERS[state.buyer[s - 1]]
            total += BUYER_BONUS * sum(1 for c in (loot, rare) if c in held)
        out.append(total)
    return out


def finish(state: State) -> list[Event]:
    """The Takes are counted and every hand, the Vault and the Lost & Found shown."""
    state.phase = OVER
    state.takes = takes(state)
    best = max(state.takes)
    top = [s for s in range(1, state.players + 1) if state.takes[s - 1] == best]
    tie = max(item_value(state.hands[s - 1]) for s in top)
    state.winners = [s for s in top if item_value(state.hands[s - 1]) == tie]
    # The hands, the Vault and the Lost & Found are shown (the face-down cards left
    # on the tiles and in the deck are not: the views never show those).
    for c in [*(c for hand in state.hands for c in hand), *state.vault, *state.lost]:
        state.knows[c] = everyone(state)
    seats = range(1, state.players + 1)
    # Every card and Buyer is shown now: the data carries what the views then show.
    shown = {
        "hands": {str(s): sorted(state.hands[s - 1]) for s in seats},
        "vault": sorted(state.vault),
        "lost": sorted(state.lost),
        "buyers": {str(s): state.buyer[s - 1] for s in seats},
    }
    return [
        Event.public(
            "Takes: "
            + ", ".join(f"{label(s)} ${t}M" for s, t in enumerate(state.takes, start=1))
            + "; winner: "
            + ", ".join(label(s) for s in state.winners),
            "over",
            **shown,
        )
    ]
