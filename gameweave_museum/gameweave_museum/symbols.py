"""The map's symbols: one table for the terminal, the browser and the docs.

Every kind of square (and every evidence token) has one glyph, one name, one
colour and one meaning, written here once. ``terminal.py`` draws and explains
the map with them, the browser renderer reads them from ``web/symbols.js`` (a
module generated from this table; a test fails when the committed copy differs),
and the docs' floor plan (``pictures.py``) takes its letters and colours from
here too. Regenerate the browser's copy with::

    python -m gameweave_museum.symbols gameweave_museum/gameweave_museum/web/symbols.js

Colours are ``#rrggbb``: the browser and the docs use them as they are; rich
draws them in a terminal (down to 256 or 16 colours where that is all there is,
and not at all under ``NO_COLOR``, which is why every kind has a glyph).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import attrs


@attrs.frozen
class Symbol:
    """How one kind of thing is drawn: ``glyph`` (one or two characters; a ``1``
    in it stands for the thing's number, e.g. ``c1`` for camera 1), ``name`` (a
    word or two, for a legend), ``colour`` and ``meaning`` (a sentence)."""

    kind: str
    glyph: str
    name: str
    colour: str
    meaning: str


#: The kinds of square the map shows, in the legend's order.
SQUARES: tuple[Symbol, ...] = (
    Symbol(
        "guard",
        "G1",
        "guard",
        "#c92a2a",
        "A guard, with its number; it sees along its row and column.",
    ),
    Symbol(
        "thief",
        "@",
        "Thief",
        "#ae3ec9",
        "The Thief: on the Thief's own screen, and everyone's once the night is over.",
    ),
    Symbol("last_seen", "?", "last seen", "#e8a400", "Where Security last saw the Thief."),
    Symbol(
        "vault",
        "V",
        "vault case",
        "#c9a227",
        "A vault case holding a crown; the North breaker powers its alarm.",
    ),
    Symbol("case", "C", "showcase", "#1c7ed6", "A display case, with the value of its piece."),
    Symbol("empty", "x", "empty frame", "#e03131", "A case found empty."),
    Symbol(
        "camera",
        "c1",
        "camera",
        "#0c8599",
        "A camera, with its number; it watches up to five squares along its row and column.",
    ),
    Symbol(
        "watched",
        "+",
        "watched now",
        "#f08c00",
        "A square the monitors watch now (a guard is in the Office).",
    ),
    Symbol(
        "breaker",
        "B",
        "breaker",
        "#b08900",
        "A wing's breaker: cut, it blinds that wing's cameras.",
    ),
    Symbol("post", "P", "guard post", "#2f9e44", "A guard post, where the guards start."),
    Symbol("door", "D", "door", "#37b24d", "An exit: a door."),
    Symbol("window", "W", "window", "#37b24d", "An exit: a window."),
    Symbol("skylight", "S", "skylight", "#37b24d", "An exit: the skylight."),
    Symbol(
        "office",
        "::",
        "Office",
        "#4263eb",
        "The Security Office: a guard here watches the monitors.",
    ),
    Symbol("wall", "##", "wall", "#495057", "A wall: nobody walks through it or sees past it."),
)

#: Evidence tokens: what Security found, where, and when (the terminal lists
#: them in words; the browser marks them in a corner of their square).
EVIDENCE: tuple[Symbol, ...] = (
    Symbol("last_seen", "?", "Thief seen", "#e8a400", "The Thief was spotted here."),
    Symbol("empty_frame", "x", "empty case found", "#e03131", "A case here was found empty."),
    Symbol("cut_camera", "/", "cut camera found", "#e03131", "The camera here was found cut."),
    Symbol(
        "dark", "~", "wing found dark", "#e03131", "This breaker was found cut: its wing went dark."
    ),
    Symbol("forced_exit", "!", "forced exit found", "#e03131", "This exit was found forced open."),
    Symbol("alarm", "*", "alarm", "#e03131", "The vault alarm went off here."),
)

#: The floor's tint in each wing.
WINGS: Mapping[str, str] = MappingProxyType(
    {
        "North": "#e9e2f5",
        "West": "#e2eef7",
        "South": "#f6ead9",
        "East": "#e0f2e6",
        "Court": "#f4f1dc",
    }
)

BY_KIND: Mapping[str, Symbol] = MappingProxyType({s.kind: s for s in SQUARES})
EVIDENCE_BY_KIND: Mapping[str, Symbol] = MappingProxyType({s.kind: s for s in EVIDENCE})

#: The three kinds of exit, by the map data's word for them.
EXIT_KINDS = ("door", "window", "skylight")


def glyph(kind: str, number: int | None = None) -> str:
    """The glyph of ``kind``, with ``number`` in place of its ``1`` (``G3``, ``c7``)."""
    text = BY_KIND[kind].glyph
    return text.replace("1", str(number)) if number is not None else text


def colour(kind: str) -> str:
    return BY_KIND[kind].colour


def as_data() -> dict[str, object]:
    """The table as JSON-ready data (what the browser receives)."""
    return {
        "squares": [attrs.asdict(s) for s in SQUARES],
        "evidence": [attrs.asdict(s) for s in EVIDENCE],
        "wings": dict(WINGS),
    }


def web_module() -> str:
    """The text of ``web/symbols.js``: the table as an ES module."""
    data = json.dumps(as_data(), indent=2, ensure_ascii=False)
    return (
        "// @ts-check\n"
        "// Generated from gameweave_museum/symbols.py: do not edit by hand.\n"
        "// python -m gameweave_museum.symbols gameweave_museum/gameweave_museum/web/symbols.js\n"
        f"export const SYMBOLS = {data};\n"
    )


#: Where the browser's copy lives, next to the renderer.
WEB_MODULE = Path(__file__).resolve().parent / "web" / "symbols.js"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m gameweave_museum.symbols OUTPUT.js", file=sys.stderr)
        return 2
    Path(args[0]).write_text(web_module(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
