"""The actions of Museum Rush, one class per kind (see ``ACTIONS``).

Every field declares its values (:func:`gameweave_core.values`): tiles by their
coordinates (``"A1"`` to ``"G4"``), cards by their id in :data:`~.cards.CARDS`,
Guards by their number (9 at most: one per Guard card and the Security Room's),
seats by number. :func:`action_list` numbers the actions (an action space for
game-playing algorithms): every kind's fields in product, but a Lure's, which go
together (a Guard, or a thief, never both).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import attrs

from gameweave_core import action, values
from gameweave_core.space import domain_of

from .cards import (
    CARDS,
    EDGE,
    GUARD,
    ITEMS,
    MUSEUM_KINDS,
    TILES,
    VALUABLES,
    coord,
    neighbours,
)

#: Every tile, row by row.
TILE_NAMES: tuple[str, ...] = tuple(coord(t) for t in range(TILES))
#: The edge tiles (where thieves break in and Way Outs go).
EDGE_NAMES: tuple[str, ...] = tuple(coord(t) for t in EDGE)
#: Guards are numbered in the order they come: the Guard cards turned up in the
#: museum, then the one from the Security Room.
GUARD_NUMBERS = range(sum(1 for c in CARDS if c.kind == GUARD) + 1)
#: Loot and Rare Treasures (what a Stash holds).
VALUABLE_IDS: tuple[int, ...] = tuple(i for i, c in enumerate(CARDS) if c.kind in VALUABLES)
#: Cards a hand can hold, and the Vault and the Lost & Found: valuables and Items.
HAND_IDS: tuple[int, ...] = tuple(
    i for i, c in enumerate(CARDS) if c.kind in VALUABLES or c.kind in ITEMS
)
#: The Search deck's cards (what The Owl draws).
SEARCH_CARD_IDS: tuple[int, ...] = tuple(
    i for i, c in enumerate(CARDS) if c.kind not in MUSEUM_KINDS
)
#: A Guard's route: one tile, or two adjacent tiles joined by "-" (a Guard walks at
#: most 2 tiles, each step to an adjacent tile).
PATHS: tuple[str, ...] = TILE_NAMES + tuple(
    f"{coord(a)}-{coord(b)}" for a in range(TILES) for b in neighbours(a)
)


def seats(players: int, config: Mapping[str, Any]) -> range:
    """Every seat of the table."""
    return range(1, players + 1)


def lure_seats(players: int, config: Mapping[str, Any]) -> range:
    """A Lure's thief: 0 when it lures a Guard, else a seat."""
    return range(0, players + 1)


@action("breakin")
@attrs.frozen
class BreakIn:
    """Break in on edge tile ``at``."""

    at: str = values(EDGE_NAMES)


@action("move")
@attrs.frozen
class Move:
    """Move to the tile ``to`` (one step)."""

    to: str = values(TILE_NAMES)


@action("loot")
@attrs.frozen
class StealLoot:
    """Steal the face-up Loot on your tile."""


@action("crack")
@attrs.frozen
class Crack:
    """Roll the 3 dice at the lock of your High Security tile."""


@action("rob")
@attrs.frozen
class Rob:
    """Try to steal from the thief of seat ``seat`` on your tile."""

    seat: int = values(seats)


@action("raid")
@attrs.frozen
class Raid:
    """Use keys to break into the Vault or Lost & Found on your tile."""


@action("lure")
@attrs.frozen
class Lure:
    """Play a Lure: move Guard ``guard`` (or, with guard -1, the thief of ``seat``) to ``to``.

    ``seat`` is 0 when a Guard is lured: :func:`action_list` numbers only those
    pairs, not every Guard with every seat."""

    guard: int = values(range(-1, len(GUARD_NUMBERS)))
    seat: int = values(lure_seats)
    to: str = values(TILE_NAMES)


@action("takedown")
@attrs.frozen
class TakeDown:
    """Play a Take Down on the Guard that found you."""


@action("disable")
@attrs.frozen
class Disable:
    """Play a Disable on the Camera on tile ``at``."""

    at: str = values(TILE_NAMES)


@action("trap")
@attrs.frozen
class Trap:
    """Place a Booby Trap on the adjacent tile ``at``."""

    at: str = values(TILE_NAMES)


@action("control")
@attrs.frozen
class Control:
    """Use the Control Room: disable the Camera on tile ``at``."""

    at: str = values(TILE_NAMES)


@action("security")
@attrs.frozen
class Security:
    """Use the Security Room: move Guard ``guard`` to ``to``."""

    guard: int = values(GUARD_NUMBERS)
    to: str = values(TILE_NAMES)


@action("shop")
@attrs.frozen
class Shop:
    """Use the Gift Shop: draw one extra Search card."""


@action("stash")
@attrs.frozen
class Stash:
    """Show your Stash card and put card ``card`` under it."""

    card: int = values(VALUABLE_IDS)


@action("pass")
@attrs.frozen
class Pass:
    """Play nothing (roll to slip away, let the Camera see you, keep the keys)."""


@action("usekeys")
@attrs.frozen
class UseKeys:
    """Finish the lock with your keys."""


@action("go")
@attrs.frozen
class Go:
    """Slip away to the adjacent tile ``to``."""

    to: str = values(TILE_NAMES)


@action("keep")
@attrs.frozen
class Keep:
    """Busted: keep card ``card``."""

    card: int = values(HAND_IDS)


@action("drop")
@attrs.frozen
class Drop:
    """Drop card ``card``."""

    card: int = values(HAND_IDS)


@action("pick")
@attrs.frozen
class Pick:
    """Take card ``card`` from the pile."""

    card: int = values(HAND_IDS)


@action("done")
@attrs.frozen
class Done:
    """Take no more cards from the pile."""


@action("route")
@attrs.frozen
class Route:
    """Move Guard ``guard`` along ``path`` (tiles joined by '-')."""

    guard: int = values(GUARD_NUMBERS)
    path: str = values(PATHS)


@action("place")
@attrs.frozen
class Place:
    """Place the new Guard on tile ``at``."""

    at: str = values(TILE_NAMES)


@action("wayout")
@attrs.frozen
class PutWayOut:
    """Put the Way Out card next to edge tile ``at``."""

    at: str = values(EDGE_NAMES)


@action("choose")
@attrs.frozen
class Choose:
    """The Owl keeps card ``card`` of the two drawn."""

    card: int = values(SEARCH_CARD_IDS)


@action("end")
@attrs.frozen
class End:
    """End your turn (``escape``: leave by the Way Out you stand on)."""

    escape: bool = values((False, True))


ACTIONS = (
    BreakIn,
    Move,
    StealLoot,
    Crack,
    Rob,
    Raid,
    Lure,
    TakeDown,
    Disable,
    Trap,
    Control,
    Security,
    Shop,
    Stash,
    Pass,
    UseKeys,
    Go,
    Keep,
    Drop,
    Pick,
    Done,
    Route,
    Place,
    PutWayOut,
    Choose,
    End,
)


def lures(players: int) -> list[Lure]:
    """Every Lure: each Guard (seat 0), then each thief (Guard -1), to each tile."""
    on_guards = [Lure(g, 0, t) for g in GUARD_NUMBERS for t in TILE_NAMES]
    on_thieves = [Lure(-1, s, t) for s in range(1, players + 1) for t in TILE_NAMES]
    return on_guards + on_thieves


def action_list(players: int, config: Mapping[str, Any]) -> list[Any]:
    """Every action of a ``players``-seat match, in the order that numbers them: the
    kinds in :data:`ACTIONS` order, each the product of its fields' declared values
    (the first field slowest), a Lure's Guard and thief as :func:`lures` pairs them."""
    out: list[Any] = []
    for kind in ACTIONS:
        if kind is Lure:
            out += lures(players)
            continue
        domains = []
        for field in attrs.fields(kind):
            domain = domain_of(field)
            assert domain is not None, f"{kind.__name__}.{field.name} declares no values"
            domains.append(domain.resolve(players, config))
        out += [kind(*combo) for combo in itertools.product(*domains)]
    return out
