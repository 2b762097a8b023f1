"""The five roles: their passives and fifteen ability cards, with timing, as data.

Nothing here decides anything; the rules read these tables. Texts are our own
short summaries of each card, shown on player cards and in the terminal.
"""

from __future__ import annotations

from typing import Final

import attrs

#: Timing classes of ability cards (the rulebook's "Your turn" table).
BEFORE_DEAL: Final = "before_deal"
DEALT: Final = "dealt"
ANY: Final = "any"

TIMING_TEXT: Final = {
    BEFORE_DEAL: "before the deal only — your betting turn",
    DEALT: "once cards are dealt — your playing turn",
    ANY: "any time on your turn",
}


@attrs.frozen
class Ability:
    """One single-use ability card."""

    key: str
    name: str
    role: str
    timing: str
    text: str


@attrs.frozen
class Role:
    """A role: a passive that is always on and three ability cards."""

    key: str
    name: str
    passive: str
    passive_name: str
    passive_text: str
    cards: tuple[str, str, str]
    #: What the role is for, in a line (shown where roles are drafted).
    summary: str = ""


ABILITIES: Final[dict[str, Ability]] = {
    a.key: a
    for a in (
        Ability(
            "long_glass",
            "Long Glass",
            "lookout",
            ANY,
            "Turn the next three face-down deck cards face up; the next draws take them in order.",
        ),
        Ability(
            "rooftop",
            "Rooftop",
            "lookout",
            DEALT,
            "Turn the dealer's hole card face up for the whole crew.",
        ),
        Ability(
            "the_call",
            "The Call",
            "lookout",
            BEFORE_DEAL,
            "This round the deal pauses after every box's first card so the caller may Mark a box.",
        ),
        Ability(
            "false_cut",
            "False Cut",
            "sleight",
            DEALT,
            "Discard one card from any live main box and deal it a fresh card in its place.",
        ),
        Ability(
            "palm",
            "Palm",
            "sleight",
            DEALT,
            "Swap one of your main box's cards with one from a crewmate's live main box.",
        ),
        Ability(
            "the_load",
            "The Load",
            "sleight",
            ANY,
            "Move a face-up deck card to the very top (needs two face-up deck cards).",
        ),
        Ability(
            "vanish",
            "Vanish",
            "ghost",
            ANY,
            "Name a box: if a hand in it busts this round, its bet and backed chips come back.",
        ),
        Ability(
            "the_drop",
            "The Drop",
            "ghost",
            DEALT,
            "Discard a card from the hand you are playing; its value comes off the total.",
        ),
        Ability(
            "alibi",
            "Alibi",
            "ghost",
            DEALT,
            "Discard the hand you are playing and take two fresh cards; keep playing.",
        ),
        Ability(
            "double_bag",
            "Double Bag",
            "bagman",
            ANY,
            "This round the Mark pays 3:1 instead of 2:1.",
        ),
        Ability(
            "short_change",
            "Short Change",
            "bagman",
            ANY,
            "Name a box that is not a blackjack: if its main hand loses this round, it pushes.",
        ),
        Ability(
            "back_the_play",
            "Back the Play",
            "bagman",
            DEALT,
            "Before your first hit, push chips from the Take onto any live box, no table maximum.",
        ),
        Ability(
            "slow_hand",
            "Slow Hand",
            "inside_man",
            ANY,
            "This round the dealer stands on 16 instead of 17.",
        ),
        Ability(
            "the_nod",
            "The Nod",
            "inside_man",
            ANY,
            "When the dealer stands, it takes exactly one more card (if a hand stands against it).",
        ),
        Ability(
            "extra_box",
            "Extra Box",
            "inside_man",
            BEFORE_DEAL,
            "Open an extra box from the Take (10 to start), played after your own box.",
        ),
    )
}

ROLES: Final[dict[str, Role]] = {
    r.key: r
    for r in (
        Role(
            "lookout",
            "Lookout",
            "the_count",
            "The Count",
            "The board counts the tens and aces among the cards the crew has not seen yet "
            "and reads RICH when they make up 43% or more of them, THIN under 35%, EVEN in "
            "between, and SPENT when no unseen card is left.",
            ("long_glass", "rooftop", "the_call"),
            "Sees cards early: the deck's count, its next cards, the hole card.",
        ),
        Role(
            "sleight",
            "Sleight",
            "palmed",
            "Palmed",
            "When one of the Sleight's own hands busts, the next face-down deck card turns face up.",
            ("false_cut", "palm", "the_load"),
            "Moves cards: swaps, replaces and reorders them on the table and deck.",
        ),
        Role(
            "ghost",
            "Ghost",
            "cold_feet",
            "Cold Feet",
            "While a Ghost sits at the table, any hand may walk out for half its bet back "
            "before its first hit.",
            ("vanish", "the_drop", "alibi"),
            "Gets hands out of trouble: walk-outs, refunded busts, fresh cards.",
        ),
        Role(
            "bagman",
            "Bagman",
            "deep_pockets",
            "Deep Pockets",
            "The table maximum on the Bagman's own box is 500 instead of 250.",
            ("double_bag", "short_change", "back_the_play"),
            "Moves money: a bigger box, a richer Mark, losses turned to pushes.",
        ),
        Role(
            "inside_man",
            "Inside Man",
            "the_tell",
            "The Tell",
            "Once the dealer holds two cards, the crew learns whether the hole card is HIGH "
            "(7 to king, or an ace) or LOW (2 to 6).",
            ("slow_hand", "the_nod", "extra_box"),
            "Bends the dealer: a hint at the hole card, where it stands, one more card.",
        ),
    )
}

#: Role keys in the rulebook's order.
ROLE_ORDER: Final[tuple[str, ...]] = tuple(ROLES)
