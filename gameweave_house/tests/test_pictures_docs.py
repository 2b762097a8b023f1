"""The docs' table picture is what the code draws, and the pages exist."""

from __future__ import annotations

from pathlib import Path

from gameweave_house.pictures import example_view, table_svg

DOCS = Path(__file__).resolve().parents[2] / "docs" / "titles" / "house"


def test_committed_table_picture_is_what_the_code_draws() -> None:
    committed = (DOCS / "table.svg").read_text(encoding="utf-8")
    assert committed == table_svg(), (
        "regenerate: python -m gameweave_house.pictures docs/titles/house/table.svg"
    )


def test_the_picture_is_drawn_from_the_view_alone() -> None:
    view = example_view()
    svg = table_svg(view)
    assert svg.startswith("<svg") and f"TAKE {view['take']}" in svg
    assert view["dealer"]["hole_down"]
    # one face-down card for the hole, one for the deck
    assert svg.count('fill="#7a1f2b"') == 2


def test_rulings_and_odds_pages_are_listed() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "rulings" in index and "odds" in index
    rulings = (DOCS / "rulings.md").read_text(encoding="utf-8")
    for topic in ("Deal me in with nothing bet", "A Marked blackjack", "Alibi", "A full round"):
        assert topic in rulings


def test_the_docs_legend_is_the_rules_text_s_word_for_word() -> None:
    from gameweave_house.rules_text import SYMBOLS

    index = (DOCS / "index.md").read_text(encoding="utf-8")
    section = index.split("## Reading the table", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows == [f"| `{mark}` | {meaning} |" for mark, meaning in SYMBOLS]
