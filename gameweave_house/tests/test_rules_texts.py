"""The House Job's rules texts say what the game does (issue 39.5): the in-game rules
tell of the dry deck shuffled back in, and the rulings page lists every way the
history departs from the lines the rulebook prints in *Reading the log*."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import TITLE, dealt, do

from gameweave_core import Match, Rng
from gameweave_house.rules_text import TOPICS
from gameweave_house.terminal import render_text

LG = ("lookout", "ghost")
ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "docs" / "titles" / "house" / "rulings.md"
#: Where the captures go: the pages as an 80-column terminal shows them.
CAPTURES = ROOT / "test-output" / "terminal"


def capture(topic: str) -> str:
    """The ``rules TOPIC`` page as an 80-column terminal prints it, saved for people."""
    from rich.console import Console

    from gameweave_cli.teach import rules_page

    console = Console(width=80, color_system=None)
    text = "\n".join(rules_page(TITLE, topic).lines(console))
    CAPTURES.mkdir(parents=True, exist_ok=True)
    (CAPTURES / f"house-rules-{topic or 'overview'}.txt").write_text(text + "\n", "utf-8")
    return text


#: The rulebook's *Reading the log* example, line by line as printed.
PRINTED = (
    "The house shows 7",
    "Crew 1 is dealt a blackjack",
    "Crew 2 hits to 26 — bust",
    "Hole card up — house has 16",
    "The house draws to 26 — bust",
    "Crew 1 21 BLACKJACK +15",
    "Crew 2 26 BUST · LOSS -10",
    "Round settled — Take 1240",
)


def dry_deck() -> Match:
    """A match whose deck runs dry in the middle of a hand."""
    m = dealt(LG, [("2S", "3S"), ("TH", "9H")], "TD", "8D")
    state = m.state  # white-box: leave one card in the deck
    state.discard.extend(state.deck[:-1])
    del state.deck[:-1]
    do(m, 1, "hit")
    do(m, 1, "hit")  # the deck is dry here: the discard comes back
    return m


def test_the_rules_tell_of_the_discard_shuffled_back_in() -> None:
    """The overview said "one pass through one 52-card deck, never reshuffled", while a
    deck run dry mid-round takes the discard back."""
    m = dry_deck()
    assert any("shuffled back in" in line for line in m.history(None))
    view = m.view(None)
    assert view["last_round"] and view["deck"]["left"] > 1
    table = render_text(view, None)
    assert f"Deck {view['deck']['left']} cards" in table and "LAST ROUND" in table
    overview = TOPICS["overview"]
    assert "never reshuffled." not in overview  # not unqualified
    assert "never reshuffled between rounds" in overview
    assert "the discard is shuffled back in" in overview
    assert "LAST ROUND" in TOPICS["ending"] and "shuffled back in" in TOPICS["ending"]
    shown = " ".join(capture("").split())
    assert "the discard is shuffled back in" in shown
    assert "shuffled back in" in " ".join(capture("ending").split())
    assert "names every card" not in shown  # the payouts topic says that
    assert "name every card drawn" in " ".join(capture("payouts").split())


def test_one_card_left_reads_in_the_singular() -> None:
    m = dry_deck()
    view = m.view(None)
    view["deck"]["left"] = 1  # the table as it reads with one card left
    assert "Deck 1 card " in render_text(view, None) + " "
    assert "Deck 1 cards" not in render_text(view, None)


def played_lines() -> list[str]:
    """Every history line of a dozen jobs played by random legal choices."""
    lines: list[str] = []
    for seed in range(1, 13):
        m = Match(TITLE, 2, seed)
        rng = Rng(seed)
        while m.awaiting:
            seat = m.awaiting[0]
            m.submit(seat, rng.choice(m.legal_actions(seat)))
        lines += m.history(None)
    return lines


def shape(printed: str) -> re.Pattern[str]:
    """A printed line with its figures and ranks left open."""
    parts = re.split(r"(\d+)", printed)
    return re.compile(
        "".join(r"(?:\d+|[AKQJ])" if p.isdigit() else re.escape(p) for p in parts) + "$"
    )


def test_the_rulings_list_every_departure_from_the_printed_log() -> None:
    """Each line of the rulebook's example the game does not write in that form is
    quoted in the rulings page's history section, which says what the game writes."""
    lines = played_lines()
    rulings = RULINGS.read_text(encoding="utf-8")
    assert "## The history" in rulings
    section = " ".join(rulings.split("## The history", 1)[1].split("\n## ", 1)[0].split())
    departures = [p for p in PRINTED if not any(shape(p).match(line) for line in lines)]
    assert departures, "every printed line is written as printed: the section is stale"
    for printed in departures:
        assert f'"{printed}"' in section, f"the rulings do not say how {printed!r} differs"
    # The lines written as printed are named as such.
    for printed in PRINTED:
        if printed not in departures:
            assert printed in section, printed
