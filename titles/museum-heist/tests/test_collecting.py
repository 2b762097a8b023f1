"""Challenges, Swap tokens, "Collecting the Artwork Token" (rules 1a-1c, 2a, 2b) and
"End of Game"; each test names the rule it checks."""

from __future__ import annotations

import pytest
from gameweave_museumheist import MuseumHeist, rules, views
from gameweave_museumheist.actions import Challenge, Move, Swap
from gameweave_museumheist.board import parse_coord
from gameweave_museumheist.state import ARTWORK_TOKENS, OVER, PLACE, tokens_to_win
from helpers import act, position, texts

from gameweave_core import Match, play_out

TITLE = MuseumHeist()


def test_rule_1a_the_only_holder_landing_on_the_artwork_collects() -> None:
    # "If the player is the only one with that Character card, that player wins"
    state = position({"artist": "E4"}, "E5", players=3, chosen=["artist", "duchess", "guard"])
    events = act(state, 1, Move("artist", "E5"))
    assert state.tokens == [1, 0, 0] and state.phase == PLACE
    assert state.last is not None and state.last.revealed == {1: "artist"}
    for seat in (1, 2, 3, None):
        assert any("Seat 1 shows The Artist" in t for t in texts(events, seat))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_1b_one_opponent_with_the_same_card_collects(players: int) -> None:
    # "If one more opponent has chosen an identical Character ... that opponent ends up
    # collecting the Artwork token."
    cards = ["artist", "artist", "guard", "boy"][:players]
    state = position({"artist": "E4"}, "E5", players=players, chosen=cards)
    act(state, 1, Move("artist", "E5"))
    assert state.tokens[:2] == [0, 1]
    assert state.last is not None and state.last.revealed == {1: "artist", 2: "artist"}


@pytest.mark.parametrize("players", [3, 4])
def test_rule_1c_two_or_more_opponents_with_the_same_card_the_mover_collects(
    players: int,
) -> None:
    # "If more than one opponent have chosen the same Character card ... the player that
    # landed on the Artwork collects it."
    cards = ["artist", "artist", "artist", "boy"][:players]
    state = position({"artist": "E4"}, "E5", players=players, chosen=cards, turn=2)
    act(state, 2, Move("artist", "E5"))
    assert state.tokens[:3] == [0, 1, 0]
    assert state.last is not None
    assert state.last.revealed == {1: "artist", 2: "artist", 3: "artist"}


def test_a_seat_out_of_the_round_takes_no_part_in_the_landing() -> None:
    # Ruling: "out of the round" means out of rules 1b/1c too.
    state = position({"artist": "E4"}, "A1", players=3, chosen=["artist", "artist", "guard"])
    act(state, 1, Challenge(3, "boy"))  # wrong: seat 1 is out
    state.artwork = parse_coord("E5")
    act(state, 2, Move("artist", "E5"))
    assert state.tokens == [0, 1, 0]  # rule 1a for seat 2; seat 1's Artist does not count


def test_moving_another_piece_onto_the_artwork_collects_nothing() -> None:
    # Ruling: any piece may be moved onto the Artwork; only the mover's own character
    # collects. The mover must show a card that matches, so everyone learns they are not
    # that character, and the piece now blocks the Artwork.
    state = position({"guard": "E4", "artist": "E6"}, "E5", players=2, chosen=["artist", "guard"])
    events = act(state, 1, Move("guard", "E5"))
    assert state.tokens == [0, 0] and state.round == 1
    assert rules.awaiting(state) == (2,)
    assert state.ruled_out[0] == ["guard"]
    assert views.view(state, 2)["ruled_out"] == {"1": ["guard"]}
    assert any("nobody collects" in t for t in texts(events, 2))
    assert "E5" not in {a.to for a in rules.legal_actions(state, 2) if isinstance(a, Move)}


def test_challenge_right_the_card_is_shown_to_all_and_the_challenger_collects() -> None:
    # 2a: "correctly guesses their identity (the challenged player shows his card to the
    # other players), the round ends and they collect the Artwork token"
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    events = act(state, 1, Challenge(3, "guard"))
    assert state.tokens == [1, 0, 0] and state.round == 2
    for seat in (1, 2, 3, None):
        assert any("right" in t for t in texts(events, seat))
    assert state.last is not None and state.last.revealed == {3: "guard"}


def test_challenge_wrong_the_challenger_is_out_and_only_they_see_the_card() -> None:
    # 2b: "they are out of the round (the challenged player shows him his identity card)"
    match = Match(TITLE, 3, 4)
    for seat, card in ((1, "artist"), (2, "duchess"), (3, "guard")):
        match.submit(seat, {"type": "choose", "character": card})
    match.submit(1, Challenge(2, "boy"))
    assert match.view(1)["known"] == {"2": "duchess"}
    assert "Seat 2 shows you The Duchess" in match.history(1)
    others: tuple[int | None, ...] = (2, 3, None)
    for other in others:
        assert match.view(other)["known"] == {}
        if other != 2:
            assert not any("Duchess" in line for line in match.history(other))
        assert match.view(other)["out"] == [1]
        assert match.view(seat)["ruled_out"] == {"2": ["boy"]}
    assert match.awaiting == (2,)
    # A seat out of the round cannot be challenged.
    assert Challenge(1, "artist") not in match.legal_actions(2)
    assert rules.explain_illegal(match.state, 2, Challenge(1, "artist")) == (
        "seat 1 is out of the round"
    )


def test_the_last_player_with_an_intact_identity_collects() -> None:
    # 2b: "If only one player is left with their secret identity intact, the round comes
    # to an end and they win the Artwork token."
    state = position({"artist": "D4"}, "A1", players=2, chosen=["artist", "duchess"])
    act(state, 1, Challenge(2, "boy"))
    assert state.tokens == [0, 1] and state.round == 2
    state = position({"artist": "D4"}, "A1", players=3, chosen=["artist", "duchess", "guard"])
    act(state, 1, Challenge(2, "boy"))
    assert state.round == 1
    act(state, 2, Challenge(3, "artist"))
    assert state.tokens == [0, 0, 1] and state.round == 2


def test_a_swap_token_makes_two_pieces_change_places() -> None:
    # "play a Swap token. This allows the player to make two Character pieces swap places"
    state = position({"artist": "D4", "boy": "G2"}, "A1", chosen=["artist", "duchess"])
    act(state, 1, Swap("artist", "boy"))
    assert state.pieces[0] == parse_coord("G2") and state.pieces[6] == parse_coord("D4")
    assert state.swaps == [1, 2]


def test_swap_tokens_are_not_replenished_between_rounds() -> None:
    # "Swap tokens are not replenished between rounds, so each player may only perform
    # this action twice during the entire game."
    state = position({"artist": "D4"}, "A1", chosen=["artist", "duchess"])
    act(state, 1, Swap("artist", "boy"))
    act(state, 2, Challenge(1, "artist"))  # round 2
    state.phase = "play"
    state.artwork = parse_coord("A1")
    state.chosen = ["artist", "duchess"]
    state.turn = 1
    act(state, 1, Swap("artist", "boy"))
    assert state.swaps[0] == 0
    act(state, 2, Move("artist", "C3"))
    assert not any(isinstance(a, Swap) for a in rules.legal_actions(state, 1))
    assert rules.explain_illegal(state, 1, Swap("artist", "boy")) == (
        "you have no Swap tokens left (two per game)"
    )


@pytest.mark.parametrize(("players", "need"), [(2, 4), (3, 3), (4, 3)])
def test_the_game_ends_at_three_tokens_or_four_with_two_players(players: int, need: int) -> None:
    # "The game ends when a player has collected 3 Artwork tokens (or 4 Artwork tokens,
    # in a 2-player game)."
    assert tokens_to_win(players) == need
    cards = ["artist", "duchess", "guard", "boy"][:players]
    state = position({"artist": "E4"}, "E5", players=players, chosen=cards)
    state.tokens[0] = need - 2
    act(state, 1, Move("artist", "E5"))
    assert state.phase != OVER
    state = position({"artist": "E4"}, "E5", players=players, chosen=cards)
    state.tokens[0] = need - 1
    act(state, 1, Move("artist", "E5"))
    assert state.phase == OVER and rules.awaiting(state) == ()
    result = rules.outcome(state)
    assert result is not None and result.winners == (1,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nine_artwork_tokens_are_enough(players: int) -> None:
    # "9 Artwork tokens": every round hands out exactly one, and the longest game gives
    # everyone one short of winning and then one more: 2 x 3 + 1, 3 x 2 + 1, 4 x 2 + 1
    # rounds at most, never more than nine (ruling: the box never runs out).
    longest = players * (tokens_to_win(players) - 1) + 1
    assert longest <= ARTWORK_TOKENS
    for seed in range(6):
        match = Match(TITLE, players, seed)
        play_out(match, {s: "random" for s in range(1, players + 1)})
        view = match.view(None)
        assert view["phase"] == OVER
        assert sum(view["tokens"]) == view["round"] <= longest
        assert view["supply"] == ARTWORK_TOKENS - view["round"] >= 0
