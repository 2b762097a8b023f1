"""The board and the seven characters: squares, coordinates, passages, distance.

The rulebook does not print its board. The project's own design (see the rulings
page) is a plain 8 x 8 grid, columns A-H from the left, rows 1-8 from the top,
with a Secret Passage near each corner: B2, G2, B7 and G7. Squares are numbers
0-63 inside the rules and coordinates such as ``"C5"`` in actions and views.
"""

from __future__ import annotations

SIZE = 8
SQUARES = SIZE * SIZE
COLUMNS = "ABCDEFGH"

#: The characters, in the order the rules list them (keys used in actions and views).
CHARACTERS: tuple[str, ...] = (
    "artist",
    "duchess",
    "tourist",
    "schoolgirl",
    "guard",
    "granny",
    "boy",
)
#: How people call each character.
NAMES: dict[str, str] = {
    "artist": "The Artist",
    "duchess": "The Duchess",
    "tourist": "The Tourist",
    "schoolgirl": "The School Girl",
    "guard": "The Guard",
    "granny": "The Granny",
    "boy": "The Little Boy",
}
#: One letter per character, for the terminal board.
LETTERS: dict[str, str] = {
    "artist": "A",
    "duchess": "D",
    "tourist": "T",
    "schoolgirl": "S",
    "guard": "G",
    "granny": "N",
    "boy": "B",
}

#: The eight directions a piece steps or jumps in (column, row).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)


def square(col: int, row: int) -> int:
    """The square at zero-based ``col`` and ``row``."""
    return row * SIZE + col


# The search bot (ISMCTS) asks for coordinates, steps and distances in every move
# of every rollout, so they are worked out once per square into the tables below:
# a searched game took half the CPU time with them (4 seeded games of
# `benchmarks/search.py museumheist`, the same moves either way).

#: Zero-based column and row of every square.
_COL_ROW: tuple[tuple[int, int], ...] = tuple((sq % SIZE, sq // SIZE) for sq in range(SQUARES))
#: Every square as people write it.
_COORDS: tuple[str, ...] = tuple(f"{COLUMNS[c]}{r + 1}" for c, r in _COL_ROW)


def col_row(sq: int) -> tuple[int, int]:
    """Zero-based column and row of ``sq``."""
    return _COL_ROW[sq]


def coord(sq: int) -> str:
    """``sq`` as people write it, e.g. ``"C5"``."""
    return _COORDS[sq]


def parse_coord(text: str) -> int:
    """The square ``text`` names (``"c5"`` or ``"C5"``); ``ValueError`` otherwise."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "12345678":
        raise ValueError(f"{text!r} is not a square: use a column A-H and a row 1-8, like C5")
    return square(COLUMNS.index(t[0]), int(t[1]) - 1)


#: The four Secret Passages, near the corners (the project's own design).
PASSAGES: tuple[int, ...] = tuple(sorted(parse_coord(c) for c in ("B2", "G2", "B7", "G7")))
PASSAGE_SET = frozenset(PASSAGES)

#: Nine squares off the passages, each at least three steps (in any direction) from
#: the others. A piece blocks only squares it stands on or touches, so it can block
#: at most one of them: with seven pieces two always stay free for the Artwork.
WITNESSES: tuple[int, ...] = tuple(
    parse_coord(c) for c in ("A1", "D1", "H1", "A4", "D4", "H4", "A8", "D8", "H8")
)


def step(sq: int, d: tuple[int, int], times: int = 1) -> int | None:
    """The square ``times`` steps from ``sq`` in direction ``d``, or ``None`` off the board."""
    col, row = col_row(sq)
    c, r = col + d[0] * times, row + d[1] * times
    if 0 <= c < SIZE and 0 <= r < SIZE:
        return square(c, r)
    return None


#: The neighbours of each square (8 directions), computed once.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for d in DIRECTIONS if (n := step(sq, d)) is not None) for sq in range(SQUARES)
)

#: The jumps from each square: (the square jumped over, the square landed on), in
#: the order of :data:`DIRECTIONS`, for every direction with both on the board.
JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (over, land)
        for d in DIRECTIONS
        if (over := step(sq, d)) is not None and (land := step(sq, d, 2)) is not None
    )
    for sq in range(SQUARES)
)


def _distance2(a: int, b: int) -> int:
    ac, ar = _COL_ROW[a]
    bc, br = _COL_ROW[b]
    return (ac - bc) ** 2 + (ar - br) ** 2


#: ``DISTANCE2[a][b]``: the squared distance between squares ``a`` and ``b``.
DISTANCE2: tuple[tuple[int, ...], ...] = tuple(
    tuple(_distance2(a, b) for b in range(SQUARES)) for a in range(SQUARES)
)


def distance2(a: int, b: int) -> int:
    """The squared straight-line distance between two squares.

    The rulebook measures "closer" geometrically, so a diagonal is longer than an
    orthogonal step; comparing squares of distances orders them exactly, in integers.
    """
    return DISTANCE2[a][b]


def adjacent(a: int, b: int) -> bool:
    """Whether two different squares touch, edge or corner."""
    return a != b and distance2(a, b) <= 2


def parse_character(text: str) -> str:
    """The character key ``text`` names: a key, a name, a word of it or its letter."""
    t = text.strip().lower().replace("the ", "").replace(" ", "").replace("-", "")
    if t in NAMES:
        return t
    for key, name in NAMES.items():
        words = name.lower().replace("the ", "")
        if t in (words.replace(" ", ""), LETTERS[key].lower()) or t in words.split():
            return key
    known = ", ".join(CHARACTERS)
    raise ValueError(f"{text!r} is not a character; the characters are: {known}")
