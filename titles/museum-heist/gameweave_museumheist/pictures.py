"""The board as a picture (SVG), drawn from the board data and the movement rules.

The docs show it with the ``gameweave-svg`` directive; a test checks the picture
against the data (every passage drawn, every highlighted square a legal end).
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape

from .board import CHARACTERS, COLUMNS, LETTERS, NAMES, PASSAGES, SIZE, coord, parse_coord
from .movement import destinations

CELL = 44
MARGIN = 28

#: The pieces' colours. The rulebook names four (the Artist green, the Guard blue, the
#: School Girl red, the Granny white); the other three are the project's choice.
COLOURS: dict[str, str] = {
    "artist": "#2e9e44",
    "duchess": "#7b3fa8",
    "tourist": "#f0a020",
    "schoolgirl": "#d23a32",
    "guard": "#2f62c9",
    "granny": "#f4f4f4",
    "boy": "#8a5a2b",
}

#: The example the rules page draws: the Guard one step from the passage B2.
EXAMPLE_PIECES = {"guard": "C2", "granny": "G7", "artist": "E3", "schoolgirl": "D5"}
EXAMPLE_ARTWORK = "E6"


def _text(x: float, y: float, text: str, size: int = 13, fill: str = "#222") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'font-family="sans-serif" text-anchor="middle" dominant-baseline="central">'
        f"{escape(text)}</text>"
    )


def board_svg(
    pieces: Mapping[str, str] | None = None,
    artwork: str | None = None,
    highlight: str | None = None,
) -> str:
    """The board with its passages and, if given, pieces (character -> square), the
    Artwork, and the squares the ``highlight`` piece may end a move on."""
    pieces = dict(EXAMPLE_PIECES if pieces is None else pieces)
    artwork = EXAMPLE_ARTWORK if artwork is None and pieces == EXAMPLE_PIECES else artwork
    if highlight is None and pieces == EXAMPLE_PIECES:
        highlight = "guard"
    side = MARGIN * 2 + CELL * SIZE
    legend_rows = (len(CHARACTERS) + 2) // 3 + 2
    height = side + 22 * legend_rows + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {height}" '
        f'width="{side}" height="{height}" role="img">',
        f'<rect width="{side}" height="{height}" fill="#fbf8f1"/>',
    ]
    squares = {parse_coord(sq): c for c, sq in pieces.items()}
    art = parse_coord(artwork) if artwork else -1
    ends: set[int] = set()
    if highlight and art >= 0:
        start = parse_coord(pieces[highlight])
        ends = destinations(start, set(squares) - {start}, art)
    for i in range(SIZE):
        out.append(_text(MARGIN + CELL * i + CELL / 2, MARGIN / 2, COLUMNS[i]))
        out.append(_text(MARGIN / 2, MARGIN + CELL * i + CELL / 2, str(i + 1)))
    for sq in range(SIZE * SIZE):
        col, row = sq % SIZE, sq // SIZE
        x, y = MARGIN + col * CELL, MARGIN + row * CELL
        fill = "#e8dfca" if (col + row) % 2 else "#f3ecdc"
        if sq in PASSAGES:
            fill = "#3b4a5a"
        out.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
            f'stroke="#b9ad93" data-square="{coord(sq)}"/>'
        )
        if sq in PASSAGES and sq not in squares:
            out.append(_text(x + CELL / 2, y + CELL - 9, "passage", 9, "#e6edf5"))
        if sq in ends:
            out.append(
                f'<rect x="{x + 4}" y="{y + 4}" width="{CELL - 8}" height="{CELL - 8}" '
                'fill="none" stroke="#e0a800" stroke-width="3" stroke-dasharray="5 3"/>'
            )
        if sq == art:
            out.append(
                f'<rect x="{x + 9}" y="{y + 9}" width="{CELL - 18}" height="{CELL - 18}" '
                'fill="#d4af37" stroke="#7a5c00" stroke-width="2"/>'
            )
            out.append(_text(x + CELL / 2, y + CELL / 2, "★", 14, "#5a4300"))
        if sq in squares:
            c = squares[sq]
            out.append(
                f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL / 2 - 6}" '
                f'fill="{COLOURS[c]}" stroke="#222" stroke-width="1.5"/>'
            )
            ink = "#222" if c == "granny" else "#fff"
            out.append(_text(x + CELL / 2, y + CELL / 2, LETTERS[c], 15, ink))
    y0 = side
    for i, c in enumerate(CHARACTERS):
        x = MARGIN + (i % 3) * (CELL * SIZE // 3)
        y = y0 + (i // 3) * 22
        out.append(f'<circle cx="{x + 8}" cy="{y + 8}" r="7" fill="{COLOURS[c]}" stroke="#222"/>')
        out.append(
            f'<text x="{x + 20}" y="{y + 8}" font-size="12" font-family="sans-serif" '
            f'dominant-baseline="central">{LETTERS[c]} {escape(NAMES[c])}</text>'
        )
    notes = ["Dark squares: the four Secret Passages; ★ the Artwork."]
    if ends:
        notes.append(f"Dashed: where {NAMES[highlight or '']} may end its move.")
    for i, note in enumerate(notes):
        y = y0 + 22 * (legend_rows - 2 + i)
        out.append(
            f'<text x="{MARGIN}" y="{y + 8}" font-size="12" font-family="sans-serif" '
            f'dominant-baseline="central">{escape(note)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)
