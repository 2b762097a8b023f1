"""The docs pages agree with the title: the rulings print the card lists as they are
in the data, the card picture is drawn from the data, the pages exist."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from gameweave_masterthief.cards import CALLING_CARDS, MUSEUM_CARDS, THIEF_CARDS
from gameweave_masterthief.pictures import cards_svg

DOCS = Path(__file__).resolve().parents[3] / "docs" / "titles" / "masterthief"


def test_the_rulings_print_every_card_as_the_data_has_it() -> None:
    text = (DOCS / "rulings.md").read_text()
    for card in THIEF_CARDS:
        assert f"| {card.name} | {card.kind} | {card.copies} | {card.text} |" in text
    for item in MUSEUM_CARDS:
        assert f"| {item.name} | {item.kind} |" in text
    for calling in CALLING_CARDS:
        a, b = calling.categories
        assert f"| {calling.name} | {a} and {b} |" in text
    assert "the project's own choice" in text.lower() or "project's own" in text


def test_the_card_picture_is_svg_naming_the_printed_examples() -> None:
    svg = cards_svg()
    ET.fromstring(svg)
    for name in ("Swipe", "Grip", "Smoke Pellet", "T-Rex Skull", "The Scream", "Laser Snare"):
        assert name in svg


def test_the_pages_exist_and_link_each_other() -> None:
    index = (DOCS / "index.md").read_text()
    assert "gameweave_masterthief.pictures:cards_svg" in index
    assert "{doc}`rulings page <rulings>`" in index and (DOCS / "balance.md").exists()
    balance = (DOCS / "balance.md").read_text()
    assert "gameweave simulate masterthief --games 400 --players P --seed 1 --json" in balance
