"""Moving a piece: "Direct move", jumps, "Moving through Secret Passages", and the
"Remember" paragraph (a move must end closer to the Artwork, measured geometrically).
"""

from __future__ import annotations

from gameweave_museumheist import rules
from gameweave_museumheist.actions import Challenge, Choose, Move, Place, Swap
from gameweave_museumheist.board import CHARACTERS, DISTANCE2, SQUARES, parse_coord
from gameweave_museumheist.movement import destinations, reaches
from helpers import act, ends, position
from hypothesis import given
from hypothesis import strategies as st


def test_a_step_goes_to_a_vacant_neighbour_closer_to_the_artwork() -> None:
    # "Pieces can move into any vacant adjacent space (orthogonal or diagonal) ...
    # provided that the move brings the piece closer to the Artwork token."
    state = position({"guard": "E3"}, "E5")
    assert ends(state, "guard") == {"D4", "E4", "F4"}


def test_closer_is_measured_geometrically_so_a_diagonal_is_longer() -> None:
    # "a diagonal distance to the Artwork token is considered greater than an orthogonal
    # distance": from E3 (2 below E5) to D3 keeps two steps to go but is further away.
    state = position({"guard": "E3"}, "E5")
    assert "D3" not in ends(state, "guard")
    refusal = rules.explain_illegal(state, 1, Move("guard", "D3"))
    assert refusal is not None and "closer to the Artwork" in refusal
    # One up and one across (D4, distance^2 2) beats two up (E3, distance^2 4).
    state = position({"guard": "D4"}, "E5")
    assert "E3" not in ends(state, "guard")


def test_a_step_onto_an_occupied_square_is_not_a_move() -> None:
    state = position({"guard": "E3", "granny": "E4", "boy": "D4"}, "E6")
    assert "E4" not in ends(state, "guard") and "D4" not in ends(state, "guard")
    assert "F4" in ends(state, "guard")


def test_a_jump_goes_over_an_adjacent_piece_to_the_vacant_square_beyond() -> None:
    # "OR jump over an adjacent piece in any direction (orthogonal or diagonal) to a
    # vacant space"
    state = position({"guard": "E2", "schoolgirl": "E3"}, "E7")
    assert "E4" in ends(state, "guard")
    state = position({"guard": "E2", "schoolgirl": "F3"}, "H5")
    assert "G4" in ends(state, "guard")


def test_no_jump_onto_an_occupied_square_or_over_a_gap() -> None:
    state = position({"guard": "E2", "schoolgirl": "E3", "granny": "E4"}, "E7")
    assert "E4" not in ends(state, "guard") and "E5" not in ends(state, "guard")
    state = position({"guard": "E2", "schoolgirl": "E4"}, "E7")
    assert ends(state, "guard") == {"D3", "E3", "F3"}


def test_jumps_chain_in_different_directions() -> None:
    # "Several such jumps may be made in succession even if they are in different
    # directions": E2 over E3 to E4, then over F5 to G6.
    state = position({"guard": "E2", "schoolgirl": "E3", "granny": "F5"}, "E7")
    assert {"E4", "G6"} <= ends(state, "guard")
    act(state, 1, Move("guard", "G6"))
    assert state.pieces[CHARACTERS.index("guard")] == parse_coord("G6")


def test_a_chain_may_pass_further_away_if_it_ends_closer() -> None:
    # "the move is allowed even if sections of the movement may have temporarily
    # brought the piece further away": C5 over D4 to E3 (further), then over D3 to C3.
    state = position({"guard": "C5", "schoolgirl": "D4", "granny": "D3"}, "A3")
    got = ends(state, "guard")
    assert "C3" in got and "E3" not in got


def test_a_step_onto_a_passage_may_go_on_to_another_vacant_passage() -> None:
    # "When landing a Character piece on a Secret Passage, the player may immediately
    # move the piece to any other vacant Secret Passage space", and it must end closer;
    # the rulebook's example: one step left onto a passage, an occupied passage is out,
    # a passage further away is out.
    state = position({"guard": "C2", "granny": "G7"}, "E6")
    got = ends(state, "guard")
    assert "B7" in got  # via B2, closer
    assert "G7" not in got  # occupied by the Granny
    assert "G2" not in got  # as far as C2: not closer
    assert "B2" not in got  # the passage itself is further than C2
    state = position({"guard": "C2"}, "E6")
    assert "G7" in ends(state, "guard")


def test_stopping_on_a_passage_without_using_it_is_allowed() -> None:
    # "Players may choose not to use the Secret Passage"
    state = position({"guard": "C1"}, "B4")
    assert "B2" in ends(state, "guard")


def test_a_jump_chain_may_end_with_a_passage_move() -> None:
    # "a jump or a series or jumps may end with a Secret Passage move": D2 over C2 lands
    # on the passage B2 and goes on to G7; without the Schoolgirl on C2 it cannot.
    state = position({"guard": "D2", "schoolgirl": "C2"}, "F6")
    assert "G7" in ends(state, "guard")
    state = position({"guard": "D2"}, "F6")
    assert "G7" not in ends(state, "guard")


def test_a_piece_that_begins_the_round_on_a_passage_may_use_it_as_its_move() -> None:
    # "If a Character piece begins a round on a Secret Passage, it may use the Secret
    # Passage as a move for their turn"
    state = position({"guard": "B2"}, "G6")
    assert "G7" in ends(state, "guard")
    act(state, 1, Move("guard", "G7"))
    assert state.pieces[CHARACTERS.index("guard")] == parse_coord("G7")


def test_the_passage_privilege_is_lost_once_the_piece_moves_or_is_swapped() -> None:
    # Ruling: the privilege belongs to a piece still on the passage it began the round on.
    state = position({"guard": "B2", "boy": "D4"}, "G6")
    act(state, 1, Swap("guard", "boy"))
    act(state, 2, Swap("guard", "boy"))
    assert state.pieces[CHARACTERS.index("guard")] == parse_coord("B2")
    assert "G7" not in ends(state, "guard")


def test_a_piece_arriving_on_a_passage_mid_round_cannot_later_hop_without_moving() -> None:
    state = position({"guard": "C1"}, "F7")
    assert {"B2", "G7"} <= ends(state, "guard")
    act(state, 1, Move("guard", "B2"))  # could have hopped on; chose to stop
    assert "G7" not in ends(state, "guard")


def test_a_piece_on_the_artwork_cannot_move() -> None:
    state = position({"guard": "E4"}, "E5", chosen=["artist", "duchess"])
    act(state, 1, Move("guard", "E5"))
    assert ends(state, "guard") == set()
    refusal = rules.explain_illegal(state, 2, Move("guard", "E6"))
    assert refusal == "The Guard is on the Artwork and cannot get any closer"


def test_a_piece_stops_on_reaching_the_artwork() -> None:
    """Direct move: "Several such jumps may be made in succession ... provided that the
    Character piece ends up closer to the coveted Artwork token". Ruling: a jump chain
    ends on the Artwork; it cannot jump on from there. C2 jumps over D3 onto the
    Artwork on E4; going on over E5 would land on E6, which is closer to the Artwork
    (squared distance 4) than C2 (8), so only the ruling keeps it out. No other way
    leads to E6."""
    state = position({"guard": "C2", "schoolgirl": "D3", "granny": "E5"}, "E4")
    art = parse_coord("E4")
    assert DISTANCE2[art][parse_coord("E6")] < DISTANCE2[art][parse_coord("C2")]
    got = ends(state, "guard")
    assert "E4" in got and "E6" not in got
    assert rules.explain_illegal(state, 1, Move("guard", "E6")) is not None


def test_any_player_may_move_any_piece() -> None:
    # "Move any Character piece in any direction"
    state = position(
        {
            c: sq
            for c, sq in zip(CHARACTERS, ["B3", "C3", "D3", "E3", "F3", "G3", "H3"], strict=True)
        },
        "E6",
        chosen=["artist", "duchess"],
    )
    moved = {a.piece for a in rules.legal_actions(state, 1) if isinstance(a, Move)}
    assert moved == set(CHARACTERS)


def test_the_start_of_round_passage_move_in_later_rounds() -> None:
    """Moving through Secret Passages: "If a Character piece begins a round on a Secret
    Passage, it may use the Secret Passage as a move for their turn". Ruling: every
    round has its own beginning (once everyone has chosen), so in round 2 the right
    belongs to the pieces standing on a passage then, not to those of round 1, and not
    to a piece that steps onto a passage later in round 2."""
    state = position({"guard": "C1", "boy": "G2"}, "F7", chosen=["artist", "duchess"])
    assert "G7" in ends(state, "boy")  # the Boy began round 1 on a passage
    act(state, 1, Move("guard", "B2"))  # stops on a passage mid-round: no hop yet
    assert not {"G2", "G7", "B7"} & ends(state, "guard")
    act(state, 2, Move("boy", "G3"))  # the Boy leaves its passage
    act(state, 1, Challenge(2, "duchess"))  # right: seat 1 takes round 1
    assert state.round == 2 and rules.awaiting(state) == (2,)
    act(state, 2, Place("G5"))
    act(state, 1, Choose("tourist"))
    act(state, 2, Choose("granny"))
    assert rules.awaiting(state) == (1,)
    # The Guard begins round 2 on B2: it may hop to any vacant passage that is closer.
    assert {"G7", "B7"} <= ends(state, "guard")
    # The Artist steps onto the passage B7 during round 2: it gains no hop this round.
    act(state, 1, Move("artist", "B7"))
    act(state, 2, Move("boy", "G4"))
    assert not {"G2", "G7"} & ends(state, "artist")
    # The Guard has not moved, so it keeps its right until it uses it.
    act(state, 1, Move("guard", "G7"))
    assert state.pieces[CHARACTERS.index("guard")] == parse_coord("G7")


@given(
    start=st.integers(0, SQUARES - 1),
    others=st.sets(st.integers(0, SQUARES - 1), max_size=6),
    target=st.integers(-1, SQUARES - 1),
    rested=st.booleans(),
)
def test_reaches_answers_as_the_whole_set_of_destinations_does(
    start: int, others: set[int], target: int, rested: bool
) -> None:
    # The bot's quick question must never disagree with the rules' full answer: a
    # crowded board, the Artwork on a passage, a rested piece, no Artwork at all.
    occupied = others - {start}
    assert reaches(start, occupied, target, rested) == (
        target in destinations(start, occupied, target, rested)
    )


def test_reaches_finds_an_artwork_on_a_passage_through_another_passage() -> None:
    # From A1 a step reaches the passage B2, and a move through a passage may end on
    # any other vacant one: G7, where the Artwork lies.
    start, target = parse_coord("A1"), parse_coord("G7")
    assert reaches(start, set(), target)
    assert not reaches(start, {parse_coord("B2"), parse_coord("A2"), parse_coord("B1")}, target)
