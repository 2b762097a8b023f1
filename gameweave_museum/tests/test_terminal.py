"""Typed actions, their descriptions, and the terminal rendering."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.text import Text

from gameweave_core import Match
from gameweave_core.runner import play_out
from gameweave_core.testing import random_match
from gameweave_museum import MuseumJob
from gameweave_museum.actions import Enter, Escape, Hold, Lift, MoveGuard, Pick, Post, Walk
from gameweave_museum.rules_text import TOPICS
from gameweave_museum.terminal import LEGEND_ENTRIES, WIDE, render_map, render_text, style

TITLE = MuseumJob()


def test_every_legal_action_reads_back_from_its_description() -> None:
    match = random_match(TITLE, 3, 4)
    for step in match.steps():
        for seat in step.awaiting:
            for act in step.legal_actions(seat):
                assert (
                    TITLE.parse_action(TITLE.describe_action(act), step.legal_actions(seat)) == act
                )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("walk K7", Walk("K7")),
        ("walk k7 cut", Walk("K7", "cut")),
        ("  WALK K7 ESCAPE ", Walk("K7", "escape")),
        ("hold", Hold()),
        ("lift", Lift()),
        ("pick", Pick()),
        ("escape", Escape()),
        ("guard 2 D4", MoveGuard(2, "D4")),
        ("post 1 J4 seat 3", Post(1, "J4", 3)),
        ("enter A8", Enter("A8")),
        ('{"type": "walk", "to": "K7"}', Walk("K7")),
    ],
)
def test_typed_actions(text: Any, expected: Any) -> None:
    assert TITLE.read_action(text, []) == expected


def test_a_bare_square_is_the_awaited_guards_move() -> None:
    assert TITLE.parse_action("d4", [MoveGuard(3, "C4")]) == MoveGuard(3, "D4")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("walk", "walk needs a square"),
        ("walk Z9", "not a square"),
        ("walk K99", "off the map"),
        ("walk K7 dance", "'cut' or 'escape'"),
        ("hold K7", "takes nothing"),
        ("guard D4", "guard 2 D4"),
        ("guard x D4", "must be a number"),
        ("teleport K7", "unknown action 'teleport'; now you can: hold, walk"),
        ("", "type an action"),
    ],
)
def test_unreadable_actions_get_a_one_line_reason(text: Any, message: Any) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        TITLE.parse_action(text, [Walk("K7"), Hold()])
    assert "\n" not in str(caught.value)


def test_the_thief_is_drawn_only_on_the_thiefs_screen() -> None:
    match = Match(TITLE, 2, 3)
    while match.awaiting and match.step < 8:
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    thief_map = render_map(match.view(1), 1)
    thief = f"[{style('thief')}]@ [/]"
    assert thief in thief_map
    others: tuple[int | None, ...] = (2, None)
    for other in others:
        assert thief not in render_map(match.view(other), other)
    everyone: tuple[int | None, ...] = (1, 2, None)
    for watcher in everyone:
        screen = screen_of(match, watcher)
        assert "A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q  R  S  T" in screen
        assert "Cases (h heavy):" in screen and "Dawn" in screen
        wide = render_text(match.view(watcher), watcher, 130)
        assert "Placards" in wide and "Crown of the Estuary" in wide


def test_the_finished_heist_is_drawn_for_everyone() -> None:
    match = Match(TITLE, 2, 8)
    play_out(match)
    screen = screen_of(match, None)
    assert "The heist is over" in screen and "route" in screen


@pytest.mark.parametrize(("players", "header"), [(2, "(guards 1, 2, 3)"), (4, "(guard 1)")])
def test_the_header_names_the_guards_a_security_seat_runs(players: Any, header: Any) -> None:
    match = Match(TITLE, players, 3)
    while match.awaiting and match.step < 4:
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    wide = render_text(match.view(2), 2, 130).splitlines()[0]
    assert wide.rstrip().endswith(f"You are [bold]Security[/] {header}"), wide
    assert "[" not in plain(wide) and "]" not in plain(wide)
    # The narrow screen leaves the seat's name to the adapter (the same header for all).
    assert plain(screen_of(match, 2)).splitlines()[0].startswith("Round 1 · Dawn ●")


def test_the_catching_guard_is_drawn_on_the_thiefs_square() -> None:
    match = Match(TITLE, 2, 3)
    for guard, post in ((1, "J4"), (2, "B7"), (3, "K12")):
        match.submit(2, next(a for a in match.legal_actions(2) if (a.guard, a.at) == (guard, post)))
    match.submit(1, Enter("J14"))
    match.submit(1, Walk("K14"))
    assert match.view(1)["thief"]["at"] == "K14"
    match.submit(2, MoveGuard(1, "J4"))
    match.submit(2, MoveGuard(2, "B7"))
    match.submit(2, MoveGuard(3, "K14"))
    assert match.view(None)["ended"] == "catch"
    for seat in (1, 2, None):
        drawn = render_map(match.view(seat), seat)
        assert f"[bold white on {style('thief').split()[-1]}]G3[/]" in drawn, seat
        assert f"[{style('thief')}]@ [/]" not in drawn, "the Thief is under the guard"


def screen_of(match: Match, seat: int | None) -> str:
    """The terminal screen of ``seat``; The Museum Job always draws one."""
    screen = TITLE.render_text(match.view(seat), seat)
    assert screen is not None
    return screen


def plain(markup: str) -> str:
    """What a terminal shows of ``markup``, without colours."""
    return Text.from_markup(markup).plain


def screens(players: int, seed: int) -> list[tuple[Match, int | None]]:
    """A match played to its end, kept at each step with the seat to draw."""
    match = random_match(TITLE, players, seed)
    out: list[tuple[Match, int | None]] = []
    for step in match.steps():
        for seat in (*range(1, players + 1), None):
            out.append((step, seat))
    return out


@pytest.mark.parametrize("seed", [4, 11])
def test_a_turn_fits_80_columns_and_leaves_room_for_the_menu(seed: int) -> None:
    for step, seat in screens(2, seed)[::7]:
        lines = plain(screen_of(step, seat)).splitlines()
        assert max(len(line) for line in lines) <= 80, (seed, step.step, seat)
        if not step.is_over:
            # 24 rows: these, the rule above them, a menu of two lines or more, the prompt.
            assert len(lines) <= 20, (step.step, seat, len(lines))


@pytest.mark.parametrize("width", [64, 80, 100, WIDE, 150])
def test_the_legend_never_breaks_a_word(width: int) -> None:
    match = Match(TITLE, 2, 5)
    while match.awaiting and match.step < 6:
        seat = match.awaiting[0]
        match.submit(seat, match.legal_actions(seat)[0])
    for seat in (1, 2):
        drawn = plain(render_text(match.view(seat), seat, width))
        lines = drawn.splitlines()
        assert max(len(line) for line in lines) <= width
        for glyph, _, meaning in LEGEND_ENTRIES:
            if glyph in "DWS" and width < WIDE:
                meaning = "exits"  # the three kinds of exit share one entry
            assert any(re.search(rf"(^|\s){re.escape(meaning)}(\s|$)", ln) for ln in lines), (
                width,
                meaning,
            )


def _cell(map_text: str, square: str) -> str:
    """The two characters drawn for ``square`` on a plain map."""
    column = "ABCDEFGHIJKLMNOPQRST".index(square[0])
    line = map_text.splitlines()[int(square[1:])]
    return line[4 + 3 * column : 6 + 3 * column]


def test_watched_squares_carry_a_glyph_not_only_a_shade() -> None:
    match = Match(TITLE, 2, 3)
    for guard, post in ((1, "J4"), (2, "B7"), (3, "K12")):
        match.submit(2, next(a for a in match.legal_actions(2) if (a.guard, a.at) == (guard, post)))
    match.submit(1, Enter("A8"))
    match.submit(1, Hold())
    before = match.view(2)
    assert not before["monitors_watched"]
    assert "+" not in plain(render_map(before, 2))
    match.submit(2, MoveGuard(1, "J7"))  # into the Security Office
    view = match.view(2)
    assert view["monitors_watched"]
    covered = {
        sq
        for cam in view["board"]["cameras"]
        for sq in cam["covers"]
        if sq not in {g["at"] for g in view["guards"]}
    }
    drawn = plain(render_map(view, 2))
    # Two-letter symbols (the Office, a camera, a guard) keep only the shade.
    marked = [sq for sq in covered if _cell(drawn, sq) not in ("::", "##") and "G" not in sq]
    assert len(marked) > 10
    for square in covered:
        cell = _cell(drawn, square)
        assert "+" in cell or cell == "::" or cell[0] in "cG", (square, cell)
    others = {f"{c}{r}" for c in "ABCDEFGHIJKLMNOPQRST" for r in range(1, 15)} - covered
    assert all("+" not in _cell(drawn, square) for square in others)


def test_the_rules_text_covers_what_a_newcomer_asks() -> None:
    assert TITLE.rules_text() is TOPICS
    first = next(iter(TOPICS))
    assert first == "overview"
    for topic in ("guards", "cameras", "moving", "crown", "cuts", "exits", "dawn"):
        assert topic in TOPICS
    assert "heavy" in TOPICS["moving"].lower() and "2 steps" in TOPICS["moving"]
    assert "alarm" in TOPICS["crown"] and "North" in TOPICS["crown"]
    # The overview names every other topic, and names no topic that is missing.
    named = set(re.findall(r"`rules (\w+)`", TOPICS["overview"]))
    assert named == set(TOPICS) - {"overview"}


def test_the_actions_topic_explains_every_kind_of_action() -> None:
    kinds = {describe_kind(cls) for cls in TITLE.actions}
    explained = set(re.findall(r"^- `(\w+)", TOPICS["actions"], flags=re.MULTILINE))
    assert kinds <= explained, kinds - explained


def describe_kind(cls: type) -> str:
    """The word an action of class ``cls`` is typed with."""
    samples = [Walk("K7"), Hold(), Lift(), Pick(), Escape(), MoveGuard(1, "D4"), Post(1, "J4", 2)]
    samples += [Enter("A8")]
    from gameweave_museum.actions import Cut

    samples.append(Cut())
    sample = next(s for s in samples if type(s) is cls)
    return TITLE.describe_action(sample).split()[0]
