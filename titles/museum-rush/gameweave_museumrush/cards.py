"""The components of Museum Rush as data: the 28 Room tiles, every card, the grid.

The rulebook names the kinds and counts but prints few names, values or lock codes;
every name, value, code and icon below that the text does not give is the project's
own choice (listed on the rulings page, docs/titles/museumrush/rulings.md).
"""

from __future__ import annotations

import attrs

#: The classic museum: 4 rows of 7 tiles.
ROWS = 4
COLUMNS = 7
TILES = ROWS * COLUMNS
COLUMN_LETTERS = "ABCDEFG"

# Room kinds. Exhibit and High Security rooms are the red tiles that hold cards.
EXHIBIT = "exhibit"
HIGH = "high"
SERVICE = "service"
OTHER = "other"

# Service rooms the rules name.
VAULT = "Vault"
SECURITY = "Security Room"
LOST = "Lost & Found"
ARCHIVE_A = "Archive A"
ARCHIVE_B = "Archive B"
ENTRANCE = "Entrance Hall"
GENTS = "Gents"
LADIES = "Ladies"
CONTROL = "Control Room"
SHOP = "Gift Shop"


@attrs.frozen
class Room:
    """One Room tile: its name and kind (and, for a High Security room, its code)."""

    name: str
    kind: str
    code: str = ""


EXHIBITS = (
    "Egyptian Hall",
    "Roman Gallery",
    "Asian Art",
    "Modern Art",
    "Fossil Hall",
    "Sculpture Court",
    "Armoury",
)
#: Project's choice: each High Security room with its lock code (dice faces 0-5).
HIGH_ROOMS = (
    ("Sunflower Room", "24"),
    ("Mask Room", "05"),
    ("Judith Room", "135"),
    ("Vase Room", "024"),
    ("Crown Room", "125"),
    ("Sapphire Room", "0345"),
    ("Night Watch Room", "01234"),
)
SERVICES = (VAULT, SECURITY, LOST, ARCHIVE_A, ARCHIVE_B, ENTRANCE, GENTS, LADIES, CONTROL, SHOP)
OTHERS = ("Cloakroom", "Cafe", "Stairwell", "Library")

ROOMS: tuple[Room, ...] = (
    tuple(Room(n, EXHIBIT) for n in EXHIBITS)
    + tuple(Room(n, HIGH, code) for n, code in HIGH_ROOMS)
    + tuple(Room(n, SERVICE) for n in SERVICES)
    + tuple(Room(n, OTHER) for n in OTHERS)
)
ROOM_INDEX = {r.name: i for i, r in enumerate(ROOMS)}

#: Project's choice: the six Stash icons are on the four other rooms and the two toilets.
STASH_ROOMS = (*OTHERS, GENTS, LADIES)

# Card kinds.
LOOT = "loot"
RARE = "rare"
CAMERA = "camera"
GUARD = "guard"
DISABLE = "disable"
LURE = "lure"
TAKEDOWN = "takedown"
WAYOUT = "wayout"
CLOCK = "clock"
TRAP = "trap"

VALUABLES = frozenset({LOOT, RARE})
ITEMS = frozenset({DISABLE, LURE, TAKEDOWN, TRAP})
#: Cards with the red museum back (the rest have the purple Search back).
MUSEUM_KINDS = frozenset({LOOT, RARE, CAMERA, GUARD})


@attrs.frozen
class Card:
    """One card: its kind, name and value in $ million (Item values break ties)."""

    kind: str
    name: str
    value: int = 0
    #: A Rare Treasure's High Security room.
    room: str = ""


#: Project's choice: Loot names and values.
LOOT_CARDS = (
    ("Silver Spoon", 1),
    ("Pocket Watch", 1),
    ("Clay Pot", 1),
    ("Bronze Coin", 1),
    ("Jade Frog", 2),
    ("Ivory Comb", 2),
    ("Gold Ring", 2),
    ("Old Map", 2),
    ("Ruby Brooch", 3),
    ("Viking Helmet", 3),
    ("Pearl Necklace", 3),
    ("Fabergé Egg", 3),
    ("Samurai Sword", 4),
    ("Emerald Idol", 4),
)
#: Project's choice: Rare Treasures (value rises with the code's length).
RARE_CARDS = (
    ("Sunflowers", 5, "Sunflower Room"),
    ("Gold Mask", 5, "Mask Room"),
    ("Judith", 6, "Judith Room"),
    ("Ming Vase", 6, "Vase Room"),
    ("Crown Jewels", 7, "Crown Room"),
    ("Star Sapphire", 8, "Sapphire Room"),
    ("The Night Watch", 10, "Night Watch Room"),
)
#: Project's choice: Item values for the tie-break.
ITEM_VALUES = {DISABLE: 1, LURE: 1, TAKEDOWN: 2, TRAP: 2}

CARDS: tuple[Card, ...] = (
    tuple(Card(LOOT, n, v) for n, v in LOOT_CARDS)
    + tuple(Card(RARE, n, v, room) for n, v, room in RARE_CARDS)
    + tuple(Card(CAMERA, "Camera") for _ in range(6))
    + tuple(Card(GUARD, "Guard") for _ in range(8))
    + tuple(Card(DISABLE, "Disable", ITEM_VALUES[DISABLE]) for _ in range(6))
    + tuple(Card(LURE, "Lure", ITEM_VALUES[LURE]) for _ in range(6))
    + tuple(Card(TAKEDOWN, "Take Down", ITEM_VALUES[TAKEDOWN]) for _ in range(3))
    + tuple(Card(WAYOUT, "Way Out") for _ in range(4))
    + tuple(Card(CLOCK, "Clock") for _ in range(6))
    + tuple(Card(TRAP, "Booby Trap", ITEM_VALUES[TRAP]) for _ in range(4))
)
LOOT_IDS = tuple(i for i, c in enumerate(CARDS) if c.kind == LOOT)
RARE_IDS = tuple(i for i, c in enumerate(CARDS) if c.kind == RARE)
FILL_IDS = tuple(i for i, c in enumerate(CARDS) if c.kind in (LOOT, CAMERA, GUARD))
SEARCH_IDS = tuple(i for i, c in enumerate(CARDS) if c.kind not in MUSEUM_KINDS)
RARE_FOR_ROOM = {CARDS[i].room: i for i in RARE_IDS}

#: Project's choice: Buyer k wants one Loot and one Rare Treasure.
BUYERS = (
    ("The Countess", LOOT_IDS[11], RARE_IDS[0]),
    ("Mr Black", LOOT_IDS[8], RARE_IDS[1]),
    ("Madame Ling", LOOT_IDS[4], RARE_IDS[3]),
    ("The Sheikh", LOOT_IDS[12], RARE_IDS[4]),
    ("Doctor Grey", LOOT_IDS[9], RARE_IDS[2]),
    ("Lady Vane", LOOT_IDS[13], RARE_IDS[5]),
)
BUYER_BONUS = 2

THIEVES = ("The Cat", "The Joker", "The Snake", "Cipher", "The Owl", "The Ventriloquist")

#: Clocks that end the game, by player count.
CLOCKS_TO_END = {2: 4, 3: 5, 4: 6}


def coord(tile: int) -> str:
    """``0`` -> ``"A1"``: column letter, then row number (row 1 at the top)."""
    return f"{COLUMN_LETTERS[tile % COLUMNS]}{tile // COLUMNS + 1}"


def parse_coord(text: str) -> int:
    """``"a1"`` or ``"A1"`` -> ``0``; ValueError for anything else."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in COLUMN_LETTERS or t[1] not in "1234":
        raise ValueError(f"{text!r} is not a tile (A1 to G4)")
    return (int(t[1]) - 1) * COLUMNS + COLUMN_LETTERS.index(t[0])


def neighbours(tile: int) -> list[int]:
    """Orthogonally adjacent tiles (up, down, left, right), in tile order."""
    r, c = divmod(tile, COLUMNS)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < ROWS and 0 <= cc < COLUMNS:
            out.append(rr * COLUMNS + cc)
    return sorted(out)


def diagonals(tile: int) -> list[int]:
    """Diagonally adjacent tiles (The Cat's extra moves)."""
    r, c = divmod(tile, COLUMNS)
    out = []
    for dr in (-1, 1):
        for dc in (-1, 1):
            rr, cc = r + dr, c + dc
            if 0 <= rr < ROWS and 0 <= cc < COLUMNS:
                out.append(rr * COLUMNS + cc)
    return sorted(out)


def distance(a: int, b: int) -> int:
    """Steps between two tiles moving orthogonally (the grid has no gaps)."""
    return abs(a % COLUMNS - b % COLUMNS) + abs(a // COLUMNS - b // COLUMNS)


def is_edge(tile: int) -> bool:
    r, c = divmod(tile, COLUMNS)
    return r in (0, ROWS - 1) or c in (0, COLUMNS - 1)


EDGE = tuple(t for t in range(TILES) if is_edge(t))
