"""The floor plan as a picture (SVG), drawn from the map data, for the docs.

    python -m gameweave_museum.pictures docs/titles/museum/quayside-palace.svg

writes the file the rules page shows; a test checks the committed copy is what
this module draws, so the picture never drifts from the map.
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from . import symbols
from .floorplan import COLUMNS, HEIGHT, WIDTH, FloorPlan, quayside_palace

CELL = 34
MARGIN = 26
LEGEND_HEIGHT = 104

#: The floor's tint in each wing, as the terminal and the browser have it.
WING_FILL = symbols.WINGS
#: The kinds of square the picture shows, in its legend's order (from :mod:`.symbols`,
#: like every letter and colour drawn here).
LEGEND_KINDS = (
    "vault",
    "case",
    "camera",
    "breaker",
    "post",
    "door",
    "window",
    "skylight",
    "office",
    "wall",
    "watched",
)


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
    and what they watch, breakers, guard posts, exits, and coordinates on the edges,
    in the letters and colours of :mod:`.symbols` (the terminal's and the browser's)."""
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
    colour = symbols.colour
    for sq in range(WIDTH * HEIGHT):
        x, y = _xy(sq)
        fill = colour("wall") if sq in plan.walls else WING_FILL[plan.wing_of[sq]]
        out.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bbbbbb" stroke-width="0.5"/>'
        )
        if sq in plan.office:
            out.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{colour("office")}" fill-opacity="0.35"/>'
            )
            out.append(
                _text(
                    x + CELL / 2,
                    y + CELL / 2,
                    symbols.glyph("office"),
                    12,
                    colour("office"),
                    "bold",
                )
            )
        if sq in covered:
            # What the cameras cover: the squares the monitors watch, when someone does.
            out.append(
                f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                f'fill="{colour("watched")}" fill-opacity="0.28"/>'
            )
    half = CELL / 2
    for case in plan.cases:
        x, y = _xy(case.square)
        kind = "vault" if case.vault else "case"
        out.append(
            f'<rect x="{x + 6}" y="{y + 6}" width="{CELL - 12}" height="{CELL - 12}" fill="none" stroke="{colour(kind)}" stroke-width="3"/>'
        )
        out.append(_text(x + half, y + half, symbols.glyph(kind), 12, colour(kind), "bold"))
    for cam in plan.cameras:
        x, y = _xy(cam.square)
        out.append(
            f'<circle cx="{x + half}" cy="{y + half}" r="{half - 4}" fill="{colour("camera")}"/>'
        )
        out.append(
            _text(x + half, y + half, symbols.glyph("camera", cam.number), 12, "#ffffff", "bold")
        )
    for sq in plan.breakers.values():
        x, y = _xy(sq)
        out.append(
            f'<rect x="{x + 8}" y="{y + 5}" width="{CELL - 16}" height="{CELL - 10}" fill="#ffffff" stroke="{colour("breaker")}" stroke-width="2"/>'
        )
        out.append(
            _text(x + half, y + half, symbols.glyph("breaker"), 12, colour("breaker"), "bold")
        )
    for sq in plan.posts:
        x, y = _xy(sq)
        out.append(
            f'<circle cx="{x + half}" cy="{y + half}" r="{half - 7}" fill="none" stroke="{colour("post")}" stroke-width="3"/>'
        )
        out.append(_text(x + half, y + half, symbols.glyph("post"), 11, colour("post"), "bold"))
    for ex in plan.exits:
        x, y = _xy(ex.square)
        out.append(
            f'<rect x="{x + 4}" y="{y + 4}" width="{CELL - 8}" height="{CELL - 8}" fill="#ffffff" stroke="{colour(ex.kind)}" stroke-width="2.5"/>'
        )
        out.append(_text(x + half, y + half, symbols.glyph(ex.kind), 12, colour(ex.kind), "bold"))
    for col, letter in enumerate(COLUMNS):
        centre = MARGIN + col * CELL + half
        out.append(_text(centre, MARGIN / 2, letter, 12))
        out.append(_text(centre, MARGIN + HEIGHT * CELL + MARGIN / 2, letter, 12))
    for row in range(HEIGHT):
        middle = MARGIN + row * CELL + half
        out.append(_text(MARGIN / 2, middle, str(row + 1), 12))
        out.append(_text(MARGIN + WIDTH * CELL + MARGIN / 2, middle, str(row + 1), 12))
    top = MARGIN * 2 + HEIGHT * CELL
    for i, kind in enumerate(LEGEND_KINDS):
        sym = symbols.BY_KIND[kind]
        x = MARGIN + (i % 4) * 178
        y = top + (i // 4) * 26
        out.append(
            f'<g class="legend" data-kind="{kind}"><rect x="{x}" y="{y}" width="22" height="18" '
            f'fill="#ffffff" stroke="{sym.colour}" stroke-width="2"/>'
            + _text(x + 11, y + 9, sym.glyph, 11, sym.colour, "bold")
            + f'<text x="{x + 28}" y="{y + 9}" font-size="13" dominant-baseline="central">{escape(sym.name)}</text></g>'
        )
    wings = ", ".join(f"{wing}" for wing in WING_FILL)
    out.append(
        f'<text x="{MARGIN}" y="{top + 92}" font-size="12" fill="#555">Floor tints: the five wings ({escape(wings)}); a camera\'s squares are tinted. North is up; the river runs along row 14.</text>'
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
