"""The heuristic bot against the random bot, and the terminal renderer."""

from __future__ import annotations

from gameweave_museumrush import MuseumRush, rules, views
from gameweave_museumrush.actions import Go
from gameweave_museumrush.bots import HeuristicBot
from gameweave_museumrush.cards import parse_coord
from gameweave_museumrush.state import Task
from helpers import card_of, table

from gameweave_core import Match, Observation, Rng, play_out

TITLE = MuseumRush()


def test_heuristic_bot_beats_random_in_seat_swapped_games() -> None:
    """The default bot wins outright in most seat-swapped two-player games (the
    balance page measures it over 400; here a quick 40 keeps it honest)."""
    wins = 0
    for seed in range(20):
        for seat in (1, 2):
            match = Match.create(TITLE, 2, seed)
            play_out(match, {seat: "heuristic", 3 - seat: "random"})
            outcome = match.outcome()
            assert outcome is not None
            wins += outcome.winners == (seat,)
    assert wins >= 28, f"heuristic won {wins} of 40"


def test_terminal_fits_80_by_24_and_typed_actions_round_trip() -> None:
    """Every seat's screen fits 80x24 at every step of a four-player game, and
    every legal action's label reads back as that action."""
    match = Match.create(TITLE, 4, 3)
    rng_steps = 0
    while match.awaiting and rng_steps < 400:
        for seat in (None, 1, 2, 3, 4):
            text = TITLE.render_text(match.view(seat), seat)
            assert text is not None
            lines = text.split("\n")
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), text
        seat = match.awaiting[0]
        legal = match.legal_actions(seat)
        for action in legal:
            assert TITLE.parse_action(TITLE.describe_action(action), legal) == action
        match.take_bot_turn(seat, TITLE.bots()["heuristic"](seat, 4), Rng(rng_steps))
        rng_steps += 1
    assert rng_steps > 20


def test_a_typo_is_one_clear_line() -> None:
    legal = Match.create(TITLE, 2, 1).legal_actions(1)
    for text in ("fly A1", "move", "lure x 0 A1"):
        try:
            TITLE.parse_action(text, legal)
        except ValueError as exc:
            assert "\n" not in str(exc) and str(exc)
        else:
            raise AssertionError(f"{text!r} was read")


def test_rules_topics_name_real_actions() -> None:
    """The ``rules actions`` topic lists typed forms the terminal reads."""
    from gameweave_museumrush.actions import ACTIONS

    from gameweave_core.actions import action_tag

    topics = TITLE.rules_text()
    assert topics is not None and next(iter(topics)) == "overview" and "actions" in topics
    tags = {action_tag(cls) for cls in ACTIONS} | {"escape"}
    typed = [
        line.split("`")[1] for line in topics["actions"].splitlines() if line.startswith("- `")
    ]
    assert len(typed) >= 10
    for form in typed:
        assert form.split()[0] in tags, form


def test_the_heuristic_bot_slips_away_from_cameras() -> None:
    """Slipping Away "can trigger other effects as normal when you move into a room":
    a Camera there calls the Guard straight back. The bot slips to a tile without a
    Camera (with an empty hand The Snake always slips, so the old choice could loop)."""
    state = table(at=("B2", "G4"), guards=["B2"])
    cams = [card_of("camera", i) for i in range(3)]
    for tile in state.grid:
        tile.cards = [c for c in tile.cards if c not in cams]
    for cam, at in zip(cams, ("B1", "A2", "C2"), strict=True):
        t = state.grid[parse_coord(at)]
        t.cards, t.up = [cam], True
        state.knows[cam] = (1 << 3) - 1
    state.tasks = [Task("slip", 1)]
    legal = rules.legal_actions(state, 1)
    assert {a.to for a in legal} == {"B1", "A2", "C2", "B3"}
    obs = Observation(1, legal, lambda s: views.view(state, s), lambda s: [])
    assert HeuristicBot().act(obs, Rng(0)) == Go("B3")


def test_a_player_line_too_long_for_the_terminal_ends_in_an_ellipsis() -> None:
    """A thief whose cards the table has seen can fill more than a line: the line
    is cut at the terminal's width with an ellipsis, so nobody mistakes the cut
    list for the whole of it (issue 31.6)."""
    view = Match.create(TITLE, 3, 5).view(None)
    everything = [{"id": card} for card in range(40)]
    view["thieves"][0]["known"] = everything
    for width in (80, 60):
        text = TITLE.render_text(view, None, width)
        assert text is not None
        line = next(
            line
            for line in text.split("\n")
            if line.startswith(f"Seat {view['thieves'][0]['seat']}")
        )
        assert len(line) == width and line.endswith("…"), line
