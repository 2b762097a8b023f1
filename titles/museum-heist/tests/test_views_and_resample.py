"""Per-seat views (allow-lists) and the resample hook."""

from __future__ import annotations

import copy
from collections import Counter

from gameweave_museumheist import MuseumHeist, views
from gameweave_museumheist.actions import Challenge, Choose, Move
from gameweave_museumheist.board import CHARACTERS
from gameweave_museumheist.resample import resample
from helpers import act, position

from gameweave_core import Match, Rng

TITLE = MuseumHeist()

PUBLIC_KEYS = {
    "players", "round", "phase", "phase_text", "board", "pieces", "tokens", "swaps",
    "target", "supply", "starter", "chosen", "out", "known", "ruled_out", "rested", "moves",
    "challenges",
}  # fmt: skip


def test_a_view_holds_exactly_the_allowed_fields() -> None:
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    seat_view = views.view(state, 2)
    assert set(seat_view) == PUBLIC_KEYS | {"artwork", "turn", "you"}
    assert seat_view["you"] == {"seat": 2, "card": "duchess"}
    spectator = views.view(state, None)
    assert set(spectator) == PUBLIC_KEYS | {"artwork", "turn"}
    assert spectator["known"] == {}


def test_everyone_sees_the_tokens_swaps_and_board() -> None:
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    state.tokens = [1, 0, 2]
    state.swaps = [2, 1, 0]
    for seat in (1, 2, 3, None):
        v = views.view(state, seat)
        assert v["tokens"] == [1, 0, 2] and v["swaps"] == [2, 1, 0]
        assert v["pieces"]["artist"] == "D4" and v["artwork"] == "A1"
        assert v["board"]["passages"] == ["B2", "G2", "B7", "G7"]


def test_a_card_shown_privately_is_in_that_seats_view_only() -> None:
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    act(state, 1, Challenge(3, "boy"))
    assert views.view(state, 1)["known"] == {"3": "guard"}
    assert views.view(state, 2)["known"] == {}
    assert views.view(state, None)["known"] == {}


def test_a_card_shown_privately_stays_in_the_view_after_the_round() -> None:
    # The round ends at once in a two-player game (rule 2b), but what the challenger
    # was shown is still theirs to know.
    state = position({"artist": "D4"}, "A1", players=2, chosen=["artist", "duchess"])
    act(state, 1, Challenge(2, "boy"))
    assert state.round == 2
    assert views.view(state, 1)["last"]["shown_to_you"] == {"2": "duchess"}
    for seat in (2, None):
        assert "shown_to_you" not in views.view(state, seat)["last"]
    assert views.view(state, 2)["last"]["revealed"] == {}
    # What everyone saw of the round stays too: the challenge and what it ruled out.
    for seat in (1, 2, None):
        last = views.view(state, seat)["last"]
        assert last["challenges"] == [{"by": 1, "seat": 2, "named": "boy", "right": False}]
        assert last["ruled_out"] == {"2": ["boy"]}


def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest() -> None:
    state = position(
        {"artist": "D4"}, "A1", players=4, chosen=["artist", "duchess", "guard", "boy"]
    )
    act(state, 1, Challenge(3, "boy"))  # wrong: seat 1 sees seat 3's Guard; all learn 3 is no Boy
    before = copy.deepcopy(state)
    seen: dict[int, Counter[str]] = {2: Counter(), 3: Counter(), 4: Counter()}
    for seed in range(300):
        drawn = resample(state, 1, Rng(seed))
        assert drawn is not state and state == before
        assert drawn.chosen[0] == "artist" and drawn.chosen[2] == "guard"
        assert drawn.pieces == state.pieces and drawn.out == state.out
        for s in (2, 4):
            seen[s][drawn.chosen[s - 1]] += 1
    assert set(seen[2]) == set(CHARACTERS) and set(seen[4]) == set(CHARACTERS)
    # Seat 2 only knows seat 3 is not the Boy.
    counts: Counter[str] = Counter(resample(state, 2, Rng(s)).chosen[2] for s in range(300))
    assert set(counts) == set(CHARACTERS) - {"boy"}
    assert all(resample(state, 2, Rng(s)).chosen[1] == "duchess" for s in range(20))


def test_resample_is_deterministic_and_leaves_unchosen_seats_alone() -> None:
    match = Match(TITLE, 3, 8)
    match.submit(2, Choose("granny"))
    state = match.state
    a = resample(state, 1, Rng(4))
    b = resample(state, 1, Rng(4))
    assert a == b
    assert a.chosen[0] == "" and a.chosen[2] == "" and a.chosen[1] in CHARACTERS


def test_resample_respects_what_a_landing_without_a_reveal_tells() -> None:
    # Landing another character's piece tells everyone the mover is not that character.
    state = position({"guard": "E4"}, "E5", players=2, chosen=["artist", "duchess"])
    act(state, 1, Move("guard", "E5"))
    assert {resample(state, 2, Rng(s)).chosen[0] for s in range(200)} == set(CHARACTERS) - {"guard"}
