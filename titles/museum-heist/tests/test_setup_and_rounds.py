"""Game setup, the choosing of characters, turn order and later rounds.

Each test names the rulebook passage ("Game Setup", "Subsequent rounds", ...) it checks,
or the ruling (docs/titles/museumheist/rulings.md) where the rulebook leaves room.
"""

from __future__ import annotations

import pytest
from gameweave_museumheist import MuseumHeist, rules
from gameweave_museumheist.actions import Challenge, Choose, Move, Place
from gameweave_museumheist.board import (
    CHARACTERS,
    PASSAGE_SET,
    WITNESSES,
    adjacent,
    col_row,
    coord,
    parse_coord,
)
from gameweave_museumheist.state import CHOOSE, PLACE, PLAY, State
from helpers import act, position, texts

from gameweave_core import ConfigError, Match, Rng

TITLE = MuseumHeist()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_gets_identical_cards_and_two_swap_tokens(players: int) -> None:
    # "Each player receives an identical set of 7 Character cards and 2 Swap tokens"
    state = rules.setup(players, {}, Rng(5))
    assert state.swaps == [2] * players
    for seat in range(1, players + 1):
        assert list(rules.legal_actions(state, seat)) == [Choose(c) for c in CHARACTERS]


def test_player_counts_two_to_four() -> None:
    # The box holds "4 sets of 7 Character cards": two to four players.
    for players in (2, 3, 4):
        assert TITLE.check_config(players, {}) == {}
    for players in (1, 5):
        with pytest.raises(ConfigError, match="2 to 4 players"):
            TITLE.check_config(players, {})


def test_seven_pieces_placed_at_random_on_vacant_spaces() -> None:
    # "distribute the 7 Character pieces randomly on any vacant playing spaces"
    layouts = set()
    for seed in range(40):
        state = rules.setup(3, {}, Rng(seed))
        assert len(set(state.pieces)) == 7
        assert all(0 <= s < 64 for s in state.pieces)
        layouts.add(tuple(state.pieces))
    assert len(layouts) == 40


def test_first_artwork_is_apart_from_pieces_and_off_the_passages() -> None:
    # "place it on a vacant space non-adjacent to any Character pieces ... An Artwork
    # token cannot be placed on a Secret Passage space"; in round 1 the generator places
    # it (ruling).
    spots = set()
    for seed in range(200):
        state = rules.setup(2, {}, Rng(seed))
        art = state.artwork
        assert art not in state.pieces
        assert art not in PASSAGE_SET
        assert not any(adjacent(art, p) for p in state.pieces)
        spots.add(art)
    assert len(spots) > 20


def test_the_artwork_always_has_a_legal_space_on_this_board() -> None:
    # Ruling (the board): seven pieces can never leave the Artwork without a space,
    # because nine squares off the passages lie three or more steps apart and a piece
    # blocks only the squares it stands on or touches.
    assert len(WITNESSES) > len(CHARACTERS)
    assert not set(WITNESSES) & PASSAGE_SET
    for a in WITNESSES:
        for b in WITNESSES:
            ac, ar = col_row(a)
            bc, br = col_row(b)
            assert a == b or max(abs(ac - bc), abs(ar - br)) >= 3
    crowded = [parse_coord(c) for c in ("B2", "E2", "H2", "B5", "E5", "H5", "D8")]
    spaces = rules.artwork_spaces(crowded)
    free = [w for w in WITNESSES if w not in crowded and not any(adjacent(w, p) for p in crowded)]
    assert len(free) >= 2 and set(free) <= set(spaces)
    assert not any(adjacent(s, p) for s in spaces for p in crowded)
    roomy = rules.artwork_spaces([parse_coord("A1")])
    assert parse_coord("B1") not in roomy and parse_coord("C1") in roomy


@pytest.mark.parametrize("players", [2, 3, 4])
def test_everyone_chooses_at_the_same_time(players: int) -> None:
    # "Each player secretly selects one Character card": all seats are awaited together.
    match = Match(TITLE, players, 3)
    assert match.awaiting == tuple(range(1, players + 1))
    match.submit(2, Choose("duchess"))
    other = Match(TITLE, players, 3)
    other.submit(2, Choose("guard"))
    assert match.awaiting == tuple(s for s in range(1, players + 1) if s != 2)
    assert match.view(2)["you"]["card"] == "duchess"
    for seat in [1, *range(3, players + 1)]:
        assert "card" not in match.view(seat)["you"]
        assert match.view(seat) == other.view(seat)
        assert "Seat 2 has chosen a character" in match.history(seat)
        assert not any("Duchess" in line for line in match.history(seat))
    assert match.view(None) == other.view(None)
    assert match.view(1)["chosen"] == [2]


def _all_choose(match: Match, cards: list[str]) -> None:
    for seat, card in enumerate(cards, start=1):
        match.submit(seat, Choose(card))


def test_seat_one_starts_the_first_round_and_play_goes_clockwise() -> None:
    # "The youngest player starts. Play continues clockwise." Ruling: seat 1 starts,
    # and seat numbers run clockwise.
    match = Match(TITLE, 3, 11)
    _all_choose(match, ["artist", "duchess", "tourist"])
    assert match.awaiting == (1,)
    order = []
    for _ in range(6):
        seat = match.awaiting[0]
        order.append(seat)
        move = next(a for a in match.legal_actions(seat) if isinstance(a, Move))
        match.submit(seat, move)
        if match.view(None)["phase"] != PLAY:
            break
    assert order[:3] == [1, 2, 3]


def test_a_seat_out_of_the_round_is_skipped() -> None:
    # "they are out of the round": the turn passes over them (ruling: they cannot act).
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    act(state, 1, Challenge(2, "boy"))
    assert state.out == [True, False, False]
    assert rules.awaiting(state) == (2,)
    act(state, 2, Move("artist", "C3"))
    assert rules.awaiting(state) == (3,)
    act(state, 3, Move("artist", "B2"))
    assert rules.awaiting(state) == (2,)
    assert rules.legal_actions(state, 1) == ()


def _finish_round(state: State, winner: int) -> None:
    # The winner unmasks someone by naming the right card.
    target = winner % state.players + 1
    state.turn = winner
    act(state, winner, Challenge(target, state.chosen[target - 1]))


@pytest.mark.parametrize(
    ("players", "winner", "placer"), [(2, 1, 2), (2, 2, 1), (3, 1, 3), (3, 2, 1), (4, 3, 2)]
)
def test_the_player_to_the_right_of_the_winner_places_the_next_artwork(
    players: int, winner: int, placer: int
) -> None:
    # "The player to the right of the winner of the previous round places a new Artwork
    # token"; ruling: clockwise play passes from seat n to n+1, so the seat to the
    # winner's right is the one before it.
    cards = ["artist", "duchess", "tourist", "guard"][:players]
    state = position({"artist": "D4"}, "A1", players=players, chosen=cards)
    pieces = list(state.pieces)
    _finish_round(state, winner)
    assert state.phase == PLACE and state.round == 2
    assert rules.awaiting(state) == (placer,)
    assert state.pieces == pieces  # "The 7 Characters pieces remain in place"
    legal = rules.legal_actions(state, placer)
    assert legal and all(isinstance(a, Place) for a in legal)
    for a in legal:
        sq = parse_coord(a.at)
        assert sq not in pieces and sq not in PASSAGE_SET
        assert not any(adjacent(sq, p) for p in pieces)
    act(state, placer, legal[0])
    assert state.artwork == parse_coord(legal[0].at)
    # "Each player returns their character card ... back to their deck": all seven again.
    assert state.phase == CHOOSE
    for seat in range(1, players + 1):
        assert list(rules.legal_actions(state, seat)) == [Choose(c) for c in CHARACTERS]
    for seat, card in enumerate(cards, start=1):
        act(state, seat, Choose(card))
    # "The winner of the previous round starts."
    assert state.phase == PLAY and rules.awaiting(state) == (winner,)


def test_placing_the_artwork_next_to_a_piece_or_on_a_passage_is_refused() -> None:
    state = position({"artist": "D4"}, "A1", players=2, chosen=["artist", "duchess"])
    _finish_round(state, 1)
    near = Place("D5")
    assert near not in rules.legal_actions(state, 2)
    assert rules.explain_illegal(state, 2, near) == "the Artwork may not go next to a piece (D5)"
    passage = Place(coord(min(PASSAGE_SET - set(state.pieces))))
    assert "Secret Passage" in (rules.explain_illegal(state, 2, passage) or "")
    assert passage not in rules.legal_actions(state, 2)


def test_cards_of_a_finished_round_stay_secret_unless_shown() -> None:
    # Ruling: at the end of a round the cards go back to the hands unseen.
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    events = act(state, 1, Challenge(2, "duchess"))
    assert state.last is not None and state.last.revealed == {2: "duchess"}
    for seat in (2, 3, None):
        assert not any("Artist" in t or "Guard" in t for t in texts(events, seat))
    assert state.chosen == ["", "", ""]
