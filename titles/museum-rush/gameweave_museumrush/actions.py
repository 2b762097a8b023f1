"""The actions of Museum Rush, one class per kind (see ``ACTIONS``)."""

from __future__ import annotations

import attrs

from gameweave_core import action


@action("breakin")
@attrs.frozen
class BreakIn:
    """Break in on edge tile ``at``."""

    at: str


@action("move")
@attrs.frozen
class Move:
    """Move to the tile ``to`` (one step)."""

    to: str


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

    seat: int


@action("raid")
@attrs.frozen
class Raid:
    """Use keys to break into the Vault or Lost & Found on your tile."""


@action("lure")
@attrs.frozen
class Lure:
    """Play a Lure: move Guard ``guard`` (or, with guard -1, the thief of ``seat``) to ``to``."""

    guard: int
    seat: int
    to: str


@action("takedown")
@attrs.frozen
class TakeDown:
    """Play a Take Down on the Guard that found you."""


@action("disable")
@attrs.frozen
class Disable:
    """Play a Disable on the Camera on tile ``at``."""

    at: str


@action("trap")
@attrs.frozen
class Trap:
    """Place a Booby Trap on the adjacent tile ``at``."""

    at: str


@action("control")
@attrs.frozen
class Control:
    """Use the Control Room: disable the Camera on tile ``at``."""

    at: str


@action("security")
@attrs.frozen
class Security:
    """Use the Security Room: move Guard ``guard`` to ``to``."""

    guard: int
    to: str


@action("shop")
@attrs.frozen
class Shop:
    """Use the Gift Shop: draw one extra Search card."""


@action("stash")
@attrs.frozen
class Stash:
    """Show your Stash card and put card ``card`` under it."""

    card: int


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

    to: str


@action("keep")
@attrs.frozen
class Keep:
    """Busted: keep card ``card``."""

    card: int


@action("drop")
@attrs.frozen
class Drop:
    """Drop card ``card``."""

    card: int


@action("pick")
@attrs.frozen
class Pick:
    """Take card ``card`` from the pile."""

    card: int


@action("done")
@attrs.frozen
class Done:
    """Take no more cards from the pile."""


@action("route")
@attrs.frozen
class Route:
    """Move Guard ``guard`` along ``path`` (tiles joined by '-')."""

    guard: int
    path: str


@action("place")
@attrs.frozen
class Place:
    """Place the new Guard on tile ``at``."""

    at: str


@action("wayout")
@attrs.frozen
class PutWayOut:
    """Put the Way Out card next to edge tile ``at``."""

    at: str


@action("choose")
@attrs.frozen
class Choose:
    """The Owl keeps card ``card`` of the two drawn."""

    card: int


@action("end")
@attrs.frozen
class End:
    """End your turn (``escape``: leave by the Way Out you stand on)."""

    escape: bool


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
