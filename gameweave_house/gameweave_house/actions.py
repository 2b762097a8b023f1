"""Every decision in The House Job is one of these actions.

JSON forms, e.g. ``{"type": "draft", "role": "ghost"}``, ``{"type": "chips",
"amount": 50}``, ``{"type": "deal_me_in"}``, ``{"type": "hit"}``,
``{"type": "ability", "card": "false_cut", "box": 2, "index": 1}``,
``{"type": "mark", "box": 2}``, ``{"type": "next_round"}``.

Every field declares the values it can take (``values``) for game-playing
algorithms: boxes are numbered 1 up to the player count and the Extra Box one past
it; a card is indexed in a hand (at most 11 cards stay under 22) or among the face-up
deck cards. Which fields an ability card uses depends on the card, so the title
numbers its actions from the list in ``algorithms.py`` rather than from the product.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from gameweave_core import action, values

from .roles import ABILITIES, ROLES

#: The most cards a hand holds without going over 21: four aces, four twos, three threes.
MOST_CARDS = 11
#: How many cards the deck holds (the most that can be face up at once).
DECK_CARDS = 52


def box_ids(players: int, config: Mapping[str, Any]) -> range:
    """Every box: the seats' own (their seat numbers) and the Extra Box after them."""
    return range(1, players + 2)


def _extra_box(players: int, config: Mapping[str, Any]) -> tuple[int]:
    return (players + 1,)


#: The chips one push may move (the rules offer each that fits the box and the Take).
CHIP_AMOUNTS = (10, 50, 100)
#: The amounts Back the Play offers (and the whole Take, numbered apart: see
#: ``algorithms.action_list``). Written here as well as in the rules, which import
#: this module: tests/test_algorithms.py checks the two agree.
BACKING_AMOUNTS = (10, 50, 100, 250, 500, 1000)


@action("draft")
@attrs.frozen
class Draft:
    """Take a role (seat 1 drafts first, then round the table)."""

    role: str = values(tuple(ROLES))


@action("chips")
@attrs.frozen
class Chips:
    """Push ``amount`` (10, 50 or 100) from the Take onto your box (or your Extra Box)."""

    amount: int = values(CHIP_AMOUNTS)
    #: ``None``: your own box; else the Extra Box.
    box: int | None = values(_extra_box, none=True, default=None)


@action("deal_me_in")
@attrs.frozen
class DealMeIn:
    """End your betting turn."""


@action("mark")
@attrs.frozen
class Mark:
    """The caller declares ``box`` the Mark."""

    box: int = values(box_ids)


@action("no_mark")
@attrs.frozen
class NoMark:
    """At The Call's pause, the caller declines to Mark a box."""


@action("heavy")
@attrs.frozen
class Heavy:
    """The caller calls the Heavy (once per job)."""


@action("hit")
@attrs.frozen
class Hit:
    """Take another card on the hand you are playing."""


@action("stand")
@attrs.frozen
class Stand:
    """Keep the total of the hand you are playing."""


@action("double")
@attrs.frozen
class Double:
    """Double the bet, take one card and stand."""


@action("split")
@attrs.frozen
class Split:
    """Split a pair into a main box and a split box."""


@action("cold_feet")
@attrs.frozen
class ColdFeet:
    """Walk the hand out for half its bet back (while a Ghost sits at the table)."""


@action("ability")
@attrs.frozen
class Ability:
    """Play an ability card. ``box`` names a target box, ``index`` a card (in a box,
    or among the face-up deck cards for The Load), ``mine`` your own card for Palm,
    ``amount`` the chips for Back the Play."""

    card: str = values(tuple(ABILITIES))
    box: int | None = values(box_ids, none=True, default=None)
    index: int | None = values(range(DECK_CARDS), none=True, default=None)
    mine: int | None = values(range(MOST_CARDS), none=True, default=None)
    #: Back the Play's steps; going all-in with a Take that is none of them is
    #: numbered apart, by the Take of the moment (see ``algorithms.action_list``).
    amount: int | None = values(BACKING_AMOUNTS, none=True, default=None)


@action("next_round")
@attrs.frozen
class NextRound:
    """Start the next round as its caller (or end the job when the deck is done)."""


ACTIONS = (
    Draft,
    Chips,
    DealMeIn,
    Mark,
    NoMark,
    Heavy,
    Hit,
    Stand,
    Double,
    Split,
    ColdFeet,
    Ability,
    NextRound,
)
