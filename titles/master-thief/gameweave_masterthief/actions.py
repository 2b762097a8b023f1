"""What a player can do in Master Thief: one class per kind of action.

Thief Cards are named by their title (copies of a card are alike), Museum items by
their name (each is unique), seats by number.

Every field declares its values (:func:`gameweave_core.values`), so the actions
are numbered (an action space for game-playing algorithms): a seat is any seat of
the table, an item any Museum Card a thief can hold (never a Security card), a card
any Thief Card title. See :data:`ACTIONS` for the order of the kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from gameweave_core import action, values

from .cards import ALARM, MUSEUM_CARDS, THIEF_CARDS, UTILITY

#: Museum Cards a thief can carry, stash, drop or surrender: every Item and Charmed
#: Item (a Security card is never held: it is averted or struck at once).
ITEM_NAMES: tuple[str, ...] = tuple(c.name for c in MUSEUM_CARDS if c.kind != ALARM)
#: Every Thief Card title (what a hand may hold and discard).
CARD_NAMES: tuple[str, ...] = tuple(c.name for c in THIEF_CARDS)
#: The Utility titles (what :class:`PlayUtility` puts into play).
UTILITY_NAMES: tuple[str, ...] = tuple(c.name for c in THIEF_CARDS if c.kind == UTILITY)


def seats(players: int, config: Mapping[str, Any]) -> range:
    """Every seat of the table (one's own seat is never a legal target: the mask says so)."""
    return range(1, players + 1)


@action("steal")
@attrs.frozen
class Steal:
    """Steal 1 card from the Museum (the Heist, a turn's opening, a tie-break)."""


@action("swipe")
@attrs.frozen
class Swipe:
    """Play Swipe: take ``item`` Carried by ``target``."""

    target: int = values(seats)
    item: str = values(ITEM_NAMES)


@action("stash")
@attrs.frozen
class Stash:
    """Play Stash: turn your Carried ``item`` face down."""

    item: str = values(ITEM_NAMES)


@action("raid")
@attrs.frozen
class Raid:
    """Play Raid: take 1 Stashed item, at random, from ``target``."""

    target: int = values(seats)


@action("trip")
@attrs.frozen
class Trip:
    """Play Trip: ``target`` drops its Carried ``item`` into the Museum."""

    target: int = values(seats)
    item: str = values(ITEM_NAMES)


@action("snoop")
@attrs.frozen
class Snoop:
    """Play Snoop: look at ``target``'s Calling Card."""

    target: int = values(seats)


@action("lift")
@attrs.frozen
class Lift:
    """Play Lift: steal 1 more item from the Museum."""


@action("utility")
@attrs.frozen
class PlayUtility:
    """Play the Utility ``card`` face up in front of you."""

    card: str = values(UTILITY_NAMES)


@action("grip")
@attrs.frozen
class Grip:
    """Play Grip in answer to a Swipe, Raid or Trip aimed at you."""


@action("latch")
@attrs.frozen
class Latch:
    """Play Latch in answer to an opponent's escape."""


@action("pass")
@attrs.frozen
class Pass:
    """Let the moment go: no reaction, no item surrendered."""


@action("surrender")
@attrs.frozen
class Surrender:
    """Give up your Carried ``item`` to avert the Security on the table."""

    item: str = values(ITEM_NAMES)


@action("vote")
@attrs.frozen
class Vote:
    """The Jury of Thieves: vote to abandon the Heist and start over, or not."""

    abandon: bool = values((False, True))


@action("end")
@attrs.frozen
class EndTurn:
    """Stop playing Thief Cards this turn."""


@action("discard")
@attrs.frozen
class Discard:
    """Discard ``card`` from your hand (down to the hand limit)."""

    card: str = values(CARD_NAMES)


@action("drop")
@attrs.frozen
class Drop:
    """Drop your Carried ``item`` into the Museum (down to the carrying limit)."""

    item: str = values(ITEM_NAMES)


@action("stay")
@attrs.frozen
class Stay:
    """Stay in the Museum: the turn is over."""


@action("escape")
@attrs.frozen
class Escape:
    """Reveal your Calling Card and escape with your items."""


#: Every kind of action, for the title's codec.
ACTIONS = (
    Steal,
    Swipe,
    Stash,
    Raid,
    Trip,
    Snoop,
    Lift,
    PlayUtility,
    Grip,
    Latch,
    Pass,
    Surrender,
    Vote,
    EndTurn,
    Discard,
    Drop,
    Stay,
    Escape,
)
