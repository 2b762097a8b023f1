"""The board picture is drawn from the data and the docs pages exist."""

from __future__ import annotations

import re
from pathlib import Path

from gameweave_museumheist.board import PASSAGES, coord, parse_coord
from gameweave_museumheist.movement import destinations
from gameweave_museumheist.pictures import EXAMPLE_ARTWORK, EXAMPLE_PIECES, board_svg

DOCS = Path(__file__).resolve().parents[3] / "docs" / "titles" / "museumheist"


def test_the_picture_draws_every_square_and_the_four_passages() -> None:
    svg = board_svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert len(re.findall(r'data-square="[A-H][1-8]"', svg)) == 64
    for p in PASSAGES:
        assert re.search(rf'fill="#3b4a5a" stroke="#b9ad93" data-square="{coord(p)}"', svg)


def test_the_dashed_squares_are_the_moves_the_rules_allow() -> None:
    svg = board_svg()
    dashed = len(re.findall(r'stroke-dasharray="5 3"', svg))
    start = parse_coord(EXAMPLE_PIECES["guard"])
    others = {parse_coord(s) for c, s in EXAMPLE_PIECES.items() if c != "guard"}
    ends = destinations(start, others, parse_coord(EXAMPLE_ARTWORK))
    assert dashed == len(ends) > 0
    assert parse_coord("B7") in ends  # the example shows a passage hop


def test_the_docs_pages_are_there() -> None:
    for page in ("index.md", "rulings.md", "balance.md"):
        assert (DOCS / page).is_file(), page
    index = (DOCS / "index.md").read_text()
    assert "gameweave_museumheist.pictures:board_svg" in index
    rulings = (DOCS / "rulings.md").read_text()
    assert "project's own choice" in rulings
