"""The floor plan as a picture (SVG), drawn from the map data, for the docs.

    python -m gameweave_museum.pictures docs/titles/museum/quayside-palace.svg

writes the file the rules page shows; a test checks the committed copy is what
this module draws, so the picture never drifts from the map.
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from .floorplan import COLUMNS, HEIGHT, WIDTH, FloorPlan, quayside_palace

CELL = 34
MARGIN = 26
LEGEND_HEIGHT = 96

WING_FILL = {
    "North": "#e9e2d0",
    "West": "#e3d6c6",
    "South": "#dfe7f1",
    "East": "#d9e6d3",
    "Court": "#e6e6e6",
}


def _xy(square: int) -> tuple[int, int]:
    row, col = divmod(square, WIDTH)
    return MARGIN + col * CELL, MARGIN + row * CELL


def _text(
    x: float, y: float, text: str, size: int = 12, fill: str = "#222", weight: str = "normal"
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" font-weight="{weight}" '
        f'text-anchor="middle" dominant-baseline="central">{escape(text)}</text>'
    )


def floor_plan_svg(plan: FloorPlan | None = None) -> str:
    """The Quayside Palace as an SVG document: wings, walls, Office, cases, cameras
    and what they watch, breakers, guard posts, exits, and coordinates on the edges."""
    plan = plan or quayside_palace()
    width = MARGIN * 2 + WIDTH * CELL
    height = MARGIN * 2 + HEIGHT * CELL + LEGEND_HEIGHT
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f"<title>{escape(plan.name)}: the floor plan of The Museum Job</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    covered = set().union(*(cam.coverage for cam in plan.cameras))
    for sq in range(WIDTH * HEIGHT):
        x, y = _xy(sq)
        if sq in plan.walls:
            fill = "#3b3b3b"
        elif sq in plan.office:
            fill = "#b9c8f0"
        else:
            fill = WING_FILL[plan.wing_of[sq]]
        out.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bbbbbb" stroke-width="0.5"/>'
        )
        if sq in covered:
            out.append(
                f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                'fill="#f08a24" fill-opacity="0.28"/>'
            )
    half = CELL / 2
    for case in plan.cases:
        x, y = _xy(case.square)
        colour = "#c9a227" if case.vault else "#2a7f9e"
        out.append(
            f'<rect x="{x + 6}" y="{y + 6}" width="{CELL - 12}" height="{CELL - 12}" fill="none" stroke="{colour}" stroke-width="3"/>'
        )
        out.append(_text(x + half, y + half, "V" if case.vault else "C", 12, colour, "bold"))
    for cam in plan.cameras:
        x, y = _xy(cam.square)
        out.append(f'<circle cx="{x + half}" cy="{y + half}" r="{half - 5}" fill="#1b6f93"/>')
        out.append(_text(x + half, y + half, str(cam.number), 13, "#ffffff", "bold"))
    for sq in plan.breakers.values():
        x, y = _xy(sq)
        out.append(
            f'<rect x="{x + 8}" y="{y + 5}" width="{CELL - 16}" height="{CELL - 10}" fill="#f2c230" stroke="#8a6d00"/>'
        )
        out.append(_text(x + half, y + half, "B", 12, "#4a3a00", "bold"))
    for sq in plan.posts:
        x, y = _xy(sq)
        out.append(
            f'<circle cx="{x + half}" cy="{y + half}" r="{half - 7}" fill="none" stroke="#2f8f3a" stroke-width="3"/>'
        )
        out.append(_text(x + half, y + half, "P", 11, "#2f8f3a", "bold"))
    for ex in plan.exits:
        x, y = _xy(ex.square)
        letter = {"door": "D", "window": "W", "skylight": "S"}[ex.kind]
        out.append(
            f'<rect x="{x + 4}" y="{y + 4}" width="{CELL - 8}" height="{CELL - 8}" fill="#7ccf6b" stroke="#2f6f23" stroke-width="2"/>'
        )
        out.append(_text(x + half, y + half, letter, 12, "#143d0c", "bold"))
    for col, letter in enumerate(COLUMNS):
        centre = MARGIN + col * CELL + half
        out.append(_text(centre, MARGIN / 2, letter, 12))
        out.append(_text(centre, MARGIN + HEIGHT * CELL + MARGIN / 2, letter, 12))
    for row in range(HEIGHT):
        middle = MARGIN + row * CELL + half
        out.append(_text(MARGIN / 2, middle, str(row + 1), 12))
        out.append(_text(MARGIN + WIDTH * CELL + MARGIN / 2, middle, str(row + 1), 12))
    legend = [
        ("#3b3b3b", "wall"),
        ("#b9c8f0", "Security Office"),
        ("#f6c08e", "watched by a camera"),
        ("#1b6f93", "camera (numbered)"),
        ("#c9a227", "vault case (V)"),
        ("#2a7f9e", "display case (C)"),
        ("#f2c230", "breaker (B)"),
        ("#2f8f3a", "guard post (P)"),
        ("#7ccf6b", "exit: door, window, skylight"),
    ]
    top = MARGIN * 2 + HEIGHT * CELL
    for i, (colour, label) in enumerate(legend):
        x = MARGIN + (i % 3) * 230
        y = top + (i // 3) * 26
        out.append(f'<rect x="{x}" y="{y}" width="16" height="16" fill="{colour}"/>')
        out.append(
            f'<text x="{x + 22}" y="{y + 8}" font-size="13" dominant-baseline="central">{escape(label)}</text>'
        )
    wings = ", ".join(f"{wing}" for wing in WING_FILL)
    out.append(
        f'<text x="{MARGIN}" y="{top + 84}" font-size="12" fill="#555">Floor tints: the five wings ({escape(wings)}). North is up; the river runs along row 14.</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m gameweave_museum.pictures OUTPUT.svg", file=sys.stderr)
        return 2
    Path(args[0]).write_text(floor_plan_svg(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
