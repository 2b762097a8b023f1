"""The cards of Master Thief, as data: 70 Thief Cards, 36 Museum Cards, 6 Calling Cards.

The rulebook prints only a few examples of each (Swipe, Grip, Smoke Pellet; T-Rex
Skull, Amber, Laser Snare, The Scream; The Cat Burglar, The Pickpocket, The Looter)
and the counts. Every other card here, and every number on the cards, is the
project's own design in the spirit of those examples (see the rulings page).
"""

from __future__ import annotations

import attrs

# -- Thief Cards ------------------------------------------------------------------

ACTION = "Action"
REACTION = "Reaction"
UTILITY = "Utility"


@attrs.frozen
class ThiefCard:
    """One kind of Thief Card: its name, kind, how many the deck holds, its text."""

    name: str
    kind: str
    copies: int
    text: str


THIEF_CARDS: tuple[ThiefCard, ...] = (
    ThiefCard("Swipe", ACTION, 12, "Take 1 Carried item from any 1 opponent."),
    ThiefCard("Stash", ACTION, 8, "Turn 1 of your Carried items face down: it is Stashed."),
    ThiefCard("Raid", ACTION, 4, "Take 1 Stashed item, at random, from any 1 opponent."),
    ThiefCard("Trip", ACTION, 4, "1 opponent drops 1 Carried item of your choice into the Museum."),
    ThiefCard("Snoop", ACTION, 2, "Look at 1 opponent's Calling Card."),
    ThiefCard("Lift", ACTION, 4, "Steal 1 more item from the Museum."),
    ThiefCard(
        "Grip",
        REACTION,
        8,
        "Stop the loss of 1 Carried or Stashed item to a Swipe, Raid or Trip; "
        "a gripped item is Carried.",
    ),
    ThiefCard("Latch", REACTION, 14, "Stop an opponent's escape from the Museum."),
    ThiefCard(
        "Smoke Pellet",
        UTILITY,
        6,
        "Until your next turn, none of your Carried or Stashed items can be taken or dropped "
        "by an opponent's card.",
    ),
    ThiefCard("Deep Pockets", UTILITY, 4, "Until your next turn, you may carry 6 items."),
    ThiefCard("Getaway Car", UTILITY, 4, "Until your next turn, no Latch can stop your escape."),
)

THIEF: dict[str, ThiefCard] = {c.name: c for c in THIEF_CARDS}

#: Reactions that stop a Swipe, Raid or Trip, and the cards they stop.
GRIP_STOPS = frozenset({"Swipe", "Raid", "Trip"})


def thief_deck() -> list[str]:
    """The 70 Thief Cards by name, in the order of the list above (shuffle it)."""
    return [c.name for c in THIEF_CARDS for _ in range(c.copies)]


# -- Museum Cards -----------------------------------------------------------------

ARTIFACTS = "Artifacts"
BONES = "Bones"
GEMS = "Gems"
MASKS = "Masks"
PAINTINGS = "Paintings"
STATUES = "Statues"
SECURITY = "Security"
CATEGORIES = (ARTIFACTS, BONES, GEMS, MASKS, PAINTINGS, STATUES)

ITEM = "Item"
CHARMED = "Charmed"
ALARM = "Security"


@attrs.frozen
class MuseumCard:
    """One Museum Card. ``category`` is the item's category, or for Security the
    category of the item that averts it; ``draw`` the Thief Cards drawn when it is
    stolen; ``bmc`` its worth in Black Market Credits (0 for Security)."""

    name: str
    kind: str
    category: str
    draw: int
    bmc: int
    text: str = ""


def _items(category: str, names: tuple[str, str, str, str]) -> list[MuseumCard]:
    # The more an item is worth, the fewer Thief Cards it brings: 5 BMC draw 0,
    # 4 and 3 BMC draw 2, 2 BMC draw 3.
    worth = ((5, 0), (4, 2), (3, 2), (2, 3))
    return [MuseumCard(n, ITEM, category, d, b) for n, (b, d) in zip(names, worth, strict=True)]


MUSEUM_CARDS: tuple[MuseumCard, ...] = (
    *_items(ARTIFACTS, ("Crown of the Lost King", "Ming Vase", "Ceremonial Dagger", "Astrolabe")),
    *_items(BONES, ("T-Rex Skull", "Mammoth Tusks", "Raptor Claw", "Dodo Egg")),
    *_items(GEMS, ("Star of the Nile", "Ruby Sceptre", "Sapphire Ring", "Opal Brooch")),
    *_items(MASKS, ("Golden Death Mask", "Jade Mask", "Carnival Mask", "Ritual Mask")),
    *_items(
        PAINTINGS,
        ("Starry Harbour", "Portrait of a Duchess", "Still Life with Pears", "Sketch of a Horse"),
    ),
    *_items(STATUES, ("Winged Victory", "Discus Thrower", "Marble Bust", "Terracotta Warrior")),
    MuseumCard(
        "The Scream", CHARMED, PAINTINGS, 3, 1, "It now takes 4 Security Strikes to end the game."
    ),
    MuseumCard("Amber", CHARMED, GEMS, 3, 1, "Your hand limit is 5."),
    MuseumCard("Golden Scarab", CHARMED, ARTIFACTS, 3, 1, "Your carrying limit is 5."),
    MuseumCard(
        "Sabre-Tooth Fang", CHARMED, BONES, 3, 1, "When you steal from the Museum, draw 1 more."
    ),
    MuseumCard(
        "Mask of Many Faces",
        CHARMED,
        MASKS,
        3,
        1,
        "You may play 2 of the same titled Thief Card in one turn.",
    ),
    MuseumCard(
        "Marble Cherub", CHARMED, STATUES, 3, 1, "You may avert any Security with any Carried item."
    ),
    MuseumCard("Pressure Plate", ALARM, ARTIFACTS, 0, 0),
    MuseumCard("Guard Dog", ALARM, BONES, 0, 0),
    MuseumCard("Laser Snare", ALARM, GEMS, 0, 0),
    MuseumCard("Security Camera", ALARM, MASKS, 0, 0),
    MuseumCard("Night Watchman", ALARM, PAINTINGS, 0, 0),
    MuseumCard("Motion Sensor", ALARM, STATUES, 0, 0),
)

MUSEUM: dict[str, MuseumCard] = {c.name: c for c in MUSEUM_CARDS}

# -- Calling Cards ----------------------------------------------------------------


@attrs.frozen
class CallingCard:
    """A secret goal: +2 BMC for each item of its two categories in your possession."""

    name: str
    categories: tuple[str, str]


#: Each category is favoured by exactly two Calling Cards (a ring of six).
CALLING_CARDS: tuple[CallingCard, ...] = (
    CallingCard("The Cat Burglar", (PAINTINGS, GEMS)),
    CallingCard("The Pickpocket", (GEMS, ARTIFACTS)),
    CallingCard("The Looter", (ARTIFACTS, BONES)),
    CallingCard("The Grave Robber", (BONES, MASKS)),
    CallingCard("The Masquerader", (MASKS, STATUES)),
    CallingCard("The Collector", (STATUES, PAINTINGS)),
)

CALLING: dict[str, CallingCard] = {c.name: c for c in CALLING_CARDS}
#: The bonus per matching item.
CALLING_BONUS = 2
