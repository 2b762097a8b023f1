"""One set of map symbols for the terminal, the browser and the docs: each drawn
from ``symbols.py``, and these tests fail as soon as one of them drifts away."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from rich.text import Text

from gameweave_core import Match
from gameweave_museum import MuseumJob, symbols
from gameweave_museum.actions import Enter, Hold, MoveGuard
from gameweave_museum.pictures import LEGEND_KINDS, floor_plan_svg
from gameweave_museum.rules_text import TOPICS
from gameweave_museum.terminal import LEGEND_ENTRIES, render_map, style

PACKAGE = Path(symbols.__file__).resolve().parent
WEB = PACKAGE / "web"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "titles" / "museum" / "index.md"
SVG = "{http://www.w3.org/2000/svg}"
HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def test_every_kind_has_one_glyph_name_and_colour() -> None:
    for table in (symbols.SQUARES, symbols.EVIDENCE):
        kinds = [s.kind for s in table]
        assert len(kinds) == len(set(kinds))
        for s in table:
            assert 1 <= len(s.glyph) <= 2 and s.glyph.isascii(), s  # fits a terminal cell
            assert re.fullmatch(r"#[0-9a-f]{6}", s.colour), s
            assert s.name and s.meaning.endswith("."), s
    # On the map, two kinds never share a glyph (the exits share a colour, not a letter).
    glyphs = [s.glyph for s in symbols.SQUARES]
    assert len(glyphs) == len(set(glyphs))


def test_the_browsers_copy_is_the_table() -> None:
    """``web/symbols.js`` is generated; regenerate it with
    ``python -m gameweave_museum.symbols gameweave_museum/gameweave_museum/web/symbols.js``."""
    assert (WEB / "symbols.js").read_text(encoding="utf-8") == symbols.web_module()


def test_the_renderer_takes_its_symbols_from_the_table() -> None:
    js = (WEB / "museum.js").read_text(encoding="utf-8")
    assert 'import { SYMBOLS } from "./symbols.js";' in js
    # No colour and no glyph of its own: every one comes from SYMBOLS.
    assert HEX.findall(js) == [c for c in HEX.findall(js) if c.lower() in ("#fff", "#eee")]
    for old in ("⇋", "◇", "▭", "ϟ", "WING_COLOURS", "SEAT_COLOURS"):
        assert old not in js, old
    for quoted in re.findall(r'svg\("text", \{[^}]*\}, "([^"]+)"\)', js):
        assert quoted == "OFFICE", f"a glyph written into museum.js: {quoted!r}"


#: The classes of the map's symbols in the browser, and the classes of their states.
SYMBOL_CLASSES = (
    "mj-exit",
    "mj-breaker",
    "mj-camera",
    "mj-case",
    "mj-guard",
    "mj-thief",
    "mj-post",
    "mj-office",
    "mj-coverage",
    "mj-evidence",
    "mj-watched",
)
STATES = (".dead", ".dark", ".gone", ".open", ".forced", ".moving", ".off", ".latest", ".watched")
WHITE = {"#fff", "#ffffff", "white"}


def test_the_stylesheet_gives_symbols_no_colours_of_their_own() -> None:
    """The CSS may say how a state changes a symbol (a dead camera, a gone case),
    and draw white for contrast; the colour of a kind is the table's alone."""
    css = (WEB / "museum.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    checked = 0
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        if not any(re.search(rf"\.{c}(?![\w-])", selector) for c in SYMBOL_CLASSES):
            continue
        if any(state in selector for state in STATES):
            continue
        checked += 1
        for prop, value in re.findall(r"(?<![\w-])(fill|stroke|color)\s*:\s*([^;]+)", body):
            assert value.strip().lower() in WHITE, f"{selector.strip()} sets {prop}: {value}"
    assert checked >= 10


def _played() -> Match:
    """A match where the monitors watch, with guards posted and the Thief inside."""
    match = Match(MuseumJob(), 2, 3)
    for guard, post in ((1, "J4"), (2, "B7"), (3, "K12")):
        match.submit(2, next(a for a in match.legal_actions(2) if (a.guard, a.at) == (guard, post)))
    match.submit(1, Enter("A8"))
    match.submit(1, Hold())
    match.submit(2, MoveGuard(1, "J7"))  # into the Office: the monitors are watched
    return match


def test_the_terminal_draws_and_explains_with_the_table() -> None:
    assert [(g, m) for g, _, m in LEGEND_ENTRIES] == [(s.glyph, s.name) for s in symbols.SQUARES]
    for (_, look, _), sym in zip(LEGEND_ENTRIES, symbols.SQUARES, strict=True):
        assert sym.colour in look, (sym.kind, look)
    match = _played()
    view = match.view(1)
    drawn = render_map(view, 1)
    plain = Text.from_markup(drawn).plain.splitlines()

    def cell(square: str) -> str:
        column = view["board"]["columns"].index(square[0])
        return plain[int(square[1:])][4 + 3 * column : 6 + 3 * column]

    board = view["board"]
    for cam in board["cameras"]:
        assert cell(cam["at"]) == symbols.glyph("camera", cam["number"])
    for ex in board["exits"]:
        if ex["at"] != view["thief"]["at"]:  # the Thief stands in the door they forced
            assert cell(ex["at"])[0] == symbols.glyph(ex["kind"]), ex
    for g in view["guards"]:
        assert cell(g["at"]) == symbols.glyph("guard", g["number"])
        assert f"[{style('guard')}]{symbols.glyph('guard', g['number'])}[/]" in drawn
    assert cell(view["thief"]["at"])[0] == symbols.glyph("thief")
    for kind in ("wall", "office", "post", "breaker", "vault", "case", "camera"):
        assert f"[{style(kind)}" in drawn, kind
    assert cell(board["walls"][0]) == symbols.glyph("wall")
    assert symbols.glyph("watched") in "".join(plain)  # the monitors are watched


def test_the_docs_floor_plan_uses_the_table() -> None:
    root = ET.fromstring(floor_plan_svg())
    legend = {
        str(g.get("data-kind")): g for g in root.iter(f"{SVG}g") if g.get("class") == "legend"
    }
    assert list(legend) == list(LEGEND_KINDS)
    for kind, group in legend.items():
        sym = symbols.BY_KIND[kind]
        texts = [t.text for t in group.iter(f"{SVG}text")]
        assert texts == [sym.glyph, sym.name], kind
        assert group.find(f"{SVG}rect").get("stroke") == sym.colour  # type: ignore[union-attr]
    # On the plan itself: each exit's letter in its kind's colour, each camera "c<n>".
    drawn = {(t.text, t.get("fill")) for t in root.iter(f"{SVG}text")}
    for kind in ("door", "window", "skylight", "vault", "case", "breaker", "post", "office"):
        assert (symbols.glyph(kind), symbols.colour(kind)) in drawn, kind
    assert (symbols.glyph("camera", 7), "#ffffff") in drawn


def test_the_docs_page_and_the_rules_name_the_same_letters() -> None:
    page = DOCS.read_text(encoding="utf-8")
    table = page[page.index("| On the map |") :].split("\n\n")[0]
    for kind in ("vault", "case", "breaker", "post", "office"):
        assert f"({symbols.glyph(kind)})" in table, kind
    assert "(D, W, S)" in table and "(c1–c7)" in table
    # The terminal's `rules map` explains every glyph of the map.
    for sym in symbols.SQUARES:
        assert f"`{sym.glyph}`" in TOPICS["map"], sym.glyph
