"""Every decision in The House Job is one of these actions.

JSON forms, e.g. ``{"type": "draft", "role": "ghost"}``, ``{"type": "chips",
"amount": 50}``, ``{"type": "deal_me_in"}``, ``{"type": "hit"}``,
``{"type": "ability", "card": "false_cut", "box": 2, "index": 1}``,
``{"type": "mark", "box": 2}``, ``{"type": "next_round"}``.
"""

from __future__ import annotations

import attrs

from gameweave_core import action


@action("draft")
@attrs.frozen
class Draft:
    """Take a role (seat 1 drafts first, then round the table)."""

    role: str


@action("chips")
@attrs.frozen
class Chips:
    """Push ``amount`` (10, 50 or 100) from the Take onto your box (or your Extra Box)."""

    amount: int
    box: int | None = None


@action("deal_me_in")
@attrs.frozen
class DealMeIn:
    """End your betting turn."""


@action("mark")
@attrs.frozen
class Mark:
    """The caller declares ``box`` the Mark."""

    box: int


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

    card: str
    box: int | None = None
    index: int | None = None
    mine: int | None = None
    amount: int | None = None


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
