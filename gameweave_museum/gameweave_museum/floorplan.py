"""The Quayside Palace: the floor plan, read once from its text map.

The map lives in ``quayside_palace.toml`` as two 20x14 grids (what stands on
each square, and which wing it belongs to) plus the exits' names and the
collection. This module turns it into a :class:`FloorPlan`: squares are plain
integers (``row * width + column``, row 0 at the top), and everything the rules
ask again and again (neighbours, walking distances, sightlines, camera coverage)
is worked out here, once.

Coordinates people read and type are a column letter and a row number, ``"K7"``.
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Iterable
from functools import cache
from importlib import resources

import attrs

WIDTH = 20
HEIGHT = 14
COLUMNS = "ABCDEFGHIJKLMNOPQRST"
#: How far a camera watches along each line.
CAMERA_RANGE = 5

WALL = "#"
WING_ORDER = ("North", "West", "South", "East", "Court")


#: Every square's name, worked out once: the rules name squares in every action they
#: list, and the search bot lists actions in every step of every rollout.
_COORDS: tuple[str, ...] = tuple(
    f"{COLUMNS[col]}{row + 1}" for row in range(HEIGHT) for col in range(WIDTH)
)


def coord(square: int) -> str:
    """``"K7"`` for a square number."""
    return _COORDS[square]


def parse_coord(text: str) -> int:
    """The square named by ``"K7"`` (any case); ``ValueError`` says what is wrong."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(
            f"{text!r} is not a square: use a column A-T and a row 1-{HEIGHT}, like K7"
        )
    row = int(text[1:])
    if not 1 <= row <= HEIGHT:
        raise ValueError(f"{text!r} is off the map: rows run from 1 to {HEIGHT}")
    return (row - 1) * WIDTH + COLUMNS.index(text[0])


@attrs.frozen
class Artifact:
    """One piece of the collection, as its placard shows it."""

    name: str
    value: int
    heavy: bool
    vault: bool


@attrs.frozen
class Case:
    """A case on the map. ``index`` is its place in reading order."""

    index: int
    square: int
    vault: bool
    wing: str


@attrs.frozen
class Camera:
    """A numbered camera hung over ``square``; ``coverage`` is what it watches."""

    number: int
    square: int
    wing: str
    coverage: frozenset[int]
    #: ``coverage`` as a bit mask (bit n: square n).
    coverage_bits: int = 0


@attrs.frozen
class Exit:
    square: int
    name: str
    kind: str


@attrs.frozen(eq=False)
class FloorPlan:
    """Everything about the building that never changes during a heist."""

    name: str
    walls: frozenset[int]
    wing_of: tuple[str, ...]  # per square; "" for walls
    cases: tuple[Case, ...]
    cameras: tuple[Camera, ...]  # camera n at index n - 1
    breakers: dict[str, int]  # wing -> square of its panel
    posts: tuple[int, ...]
    exits: tuple[Exit, ...]
    office: frozenset[int]
    collection: tuple[Artifact, ...]
    neighbours: tuple[tuple[int, ...], ...]
    #: What a guard on each square sees (its own square included).
    sight: tuple[frozenset[int], ...]
    #: ``sight`` as bit masks (bit n: square n), for the record of what was seen.
    sight_bits: tuple[int, ...]

    by_square: dict[int, Case | Camera | Exit | str] = attrs.field(factory=dict)
    #: Walking distance between any two floor squares (walls block; nothing else).
    dist: tuple[dict[int, int], ...] = ()
    #: Walks with nothing but walls in the way, by (start, steps), as found: guards
    #: walk from the same squares all game, and the search bot walks them in every
    #: rollout.
    _open_walks: dict[tuple[int, int], dict[int, int]] = attrs.field(factory=dict, repr=False)

    # -- lookups ---------------------------------------------------------------

    @property
    def floor(self) -> list[int]:
        return [sq for sq in range(WIDTH * HEIGHT) if sq not in self.walls]

    def case_at(self, square: int) -> Case | None:
        found = self.by_square.get(square)
        return found if isinstance(found, Case) else None

    def camera_at(self, square: int) -> Camera | None:
        found = self.by_square.get(square)
        return found if isinstance(found, Camera) else None

    def exit_at(self, square: int) -> Exit | None:
        found = self.by_square.get(square)
        return found if isinstance(found, Exit) else None

    def breaker_at(self, square: int) -> str | None:
        """The wing whose breaker panel is on ``square``."""
        found = self.by_square.get(square)
        return found if isinstance(found, str) else None

    def reachable(self, start: int, steps: int, blocked: Iterable[int] = ()) -> dict[int, int]:
        """Squares within ``steps`` of walking from ``start`` (with their distance),
        never entering a wall or a square in ``blocked``. ``start`` is included at 0."""
        avoid = set(blocked)
        if avoid:
            return _bfs(self.neighbours, start, steps, avoid)
        walk = self._open_walks.get((start, steps))
        if walk is None:
            walk = self._open_walks[start, steps] = _bfs(self.neighbours, start, steps, avoid)
        return dict(walk)  # the caller's own copy


def _bfs(
    neighbours: tuple[tuple[int, ...], ...], start: int, steps: int, blocked: set[int]
) -> dict[int, int]:
    found = {start: 0}
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        dist = found[sq]
        if dist == steps:
            continue
        for nxt in neighbours[sq]:
            if nxt not in found and nxt not in blocked:
                found[nxt] = dist + 1
                queue.append(nxt)
    return found


def _grid(text: str, label: str) -> list[str]:
    lines = [line for line in text.strip("\n").splitlines()]
    header, rows = lines[0], lines[1:]
    if header != COLUMNS or len(rows) != HEIGHT or any(len(r) != WIDTH for r in rows):
        raise ValueError(f"the {label} grid must be {WIDTH}x{HEIGHT} under a column header")
    return rows


def _line(start: int, step: tuple[int, int], walls: frozenset[int], limit: int) -> list[int]:
    row, col = divmod(start, WIDTH)
    out = []
    for _ in range(limit):
        row, col = row + step[0], col + step[1]
        if not (0 <= row < HEIGHT and 0 <= col < WIDTH):
            break
        sq = row * WIDTH + col
        if sq in walls:
            break
        out.append(sq)
    return out


DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def sightline(start: int, walls: frozenset[int], limit: int = WIDTH + HEIGHT) -> frozenset[int]:
    """Squares seen straight along the row and column from ``start`` until a wall
    (or ``limit`` squares), not counting ``start`` itself."""
    seen: set[int] = set()
    for step in DIRECTIONS:
        seen.update(_line(start, step, walls, limit))
    return frozenset(seen)


def bits(squares: Iterable[int]) -> int:
    """``squares`` as a bit mask: bit n set for square n."""
    return sum(1 << sq for sq in set(squares))


def load(text: str) -> FloorPlan:
    """Build a floor plan from the TOML text of a map file."""
    data = tomllib.loads(text)
    tiles = _grid(data["tiles"], "tiles")
    wing_rows = _grid(data["wings"], "wings")
    names: dict[str, str] = data["wing_names"]
    walls = frozenset(
        r * WIDTH + c for r in range(HEIGHT) for c in range(WIDTH) if tiles[r][c] == WALL
    )
    wing_of: list[str] = []
    cases: list[Case] = []
    cameras: dict[int, tuple[int, str]] = {}
    breakers: dict[str, int] = {}
    posts: list[int] = []
    exit_squares: list[int] = []
    office: set[int] = set()
    for r in range(HEIGHT):
        for c in range(WIDTH):
            sq, tile, wing_letter = r * WIDTH + c, tiles[r][c], wing_rows[r][c]
            if (tile == WALL) != (wing_letter == WALL):
                raise ValueError(f"{coord(sq)}: the two grids disagree about a wall")
            wing = "" if tile == WALL else names[wing_letter]
            wing_of.append(wing)
            if tile in (WALL, "."):
                continue
            if tile in "VC":
                cases.append(Case(len(cases), sq, tile == "V", wing))
            elif tile.isdigit():
                cameras[int(tile)] = (sq, wing)
            elif tile == "B":
                if wing in breakers:
                    raise ValueError(f"{coord(sq)}: a second breaker in the {wing} wing")
                breakers[wing] = sq
            elif tile == "P":
                posts.append(sq)
            elif tile == "X":
                exit_squares.append(sq)
            elif tile == "O":
                office.add(sq)
            else:
                raise ValueError(f"{coord(sq)}: unknown tile {tile!r}")
    exits_data: dict[str, dict[str, str]] = data["exits"]
    if sorted(parse_coord(k) for k in exits_data) != exit_squares:
        raise ValueError("the [exits] table must name exactly the X squares of the map")
    exits = tuple(
        Exit(sq, exits_data[coord(sq)]["name"], exits_data[coord(sq)]["kind"])
        for sq in exit_squares
    )
    if sorted(cameras) != list(range(1, len(cameras) + 1)):
        raise ValueError("cameras must be numbered 1, 2, 3, ... without gaps")
    neighbours = tuple(
        () if sq in walls else tuple(n for step in DIRECTIONS for n in _line(sq, step, walls, 1))
        for sq in range(WIDTH * HEIGHT)
    )
    sight = tuple(
        frozenset() if sq in walls else sightline(sq, walls) | {sq} for sq in range(WIDTH * HEIGHT)
    )
    coverage = {n: sightline(sq, walls, CAMERA_RANGE) for n, (sq, _) in cameras.items()}
    camera_list = tuple(
        Camera(n, sq, wing, coverage[n], bits(coverage[n]))
        for n, (sq, wing) in sorted(cameras.items())
    )
    by_square: dict[int, Case | Camera | Exit | str] = {}
    things: list[Case | Camera | Exit] = [*cases, *camera_list, *exits]
    for thing in things:
        by_square[thing.square] = thing
    for wing, sq in breakers.items():
        by_square[sq] = wing
    return FloorPlan(
        name=data["name"],
        walls=walls,
        wing_of=tuple(wing_of),
        cases=tuple(cases),
        cameras=camera_list,
        breakers={w: breakers[w] for w in WING_ORDER if w in breakers},
        posts=tuple(posts),
        exits=exits,
        office=frozenset(office),
        collection=tuple(
            Artifact(a["name"], a["value"], a.get("heavy", False), a.get("vault", False))
            for a in data["artifact"]
        ),
        neighbours=neighbours,
        sight=sight,
        sight_bits=tuple(bits(seen) for seen in sight),
        by_square=by_square,
        dist=tuple(
            {} if sq in walls else _bfs(neighbours, sq, WIDTH * HEIGHT, set())
            for sq in range(WIDTH * HEIGHT)
        ),
    )


@cache
def quayside_palace() -> FloorPlan:
    """The one floor plan of The Museum Job."""
    text = resources.files(__package__).joinpath("quayside_palace.toml").read_text("utf-8")
    return load(text)
