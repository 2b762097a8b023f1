"""What each seat may know, built as allow-lists.

Everyone sees the board, the pieces, the Artwork, the tokens and Swap tokens on
the table, who has chosen, who is out, this round's moves, the cards shown to all
and what everyone can deduce ("Seat 2 is not The Artist"). A seat adds its own
card and the cards shown to it alone. Nothing else of the secret choices is read.
No value is ever ``None``: views travel through TOML.
"""

from __future__ import annotations

from typing import Any

from .board import CHARACTERS, COLUMNS, PASSAGES, SIZE, coord
from .state import CHOOSE, OVER, PLACE, PLAY, State, tokens_to_win

PHASE_WORDS = {
    PLACE: "The Artwork is being placed",
    CHOOSE: "Everyone chooses a character in secret",
    PLAY: "Turns: move a piece, challenge or swap",
    OVER: "The game is over",
}


def board_view() -> dict[str, Any]:
    """The fixed board: its size, column letters and Secret Passages."""
    return {"size": SIZE, "columns": COLUMNS, "passages": [coord(p) for p in PASSAGES]}


def known_cards(state: State, seat: int | None) -> dict[str, str]:
    """This round's cards ``seat`` has seen: shown to all, or to it alone."""
    seats = list(state.public)
    if seat is not None:
        seats += state.shown[seat - 1]
    return {str(s): state.chosen[s - 1] for s in sorted(set(seats))}


def challenges_view(challenges: list[tuple[int, int, str, bool]]) -> list[dict[str, Any]]:
    """Challenges as everyone saw them: who named what for whom, and whether rightly."""
    return [
        {"by": by, "seat": target, "named": named, "right": right}
        for by, target, named, right in challenges
    ]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """All ``seat`` (``None``: a spectator) may know."""
    out: dict[str, Any] = {
        "players": state.players,
        "round": state.round,
        "phase": state.phase,
        "phase_text": PHASE_WORDS[state.phase],
        "board": board_view(),
        "pieces": {c: coord(sq) for c, sq in zip(CHARACTERS, state.pieces, strict=True)},
        "tokens": list(state.tokens),
        "swaps": list(state.swaps),
        "target": tokens_to_win(state.players),
        "supply": state.supply,
        "starter": state.starter,
        "chosen": [s for s in range(1, state.players + 1) if state.chosen[s - 1]],
        "out": [s for s in range(1, state.players + 1) if state.out[s - 1]],
        "known": known_cards(state, seat),
        "ruled_out": {str(s): list(r) for s, r in enumerate(state.ruled_out, start=1) if r},
        "rested": list(state.rested),
        "moves": [
            {"seat": s, "piece": c, "from": coord(a), "to": coord(b)} for s, c, a, b in state.moves
        ],
        "challenges": challenges_view(state.challenges),
    }
    if state.artwork >= 0:
        out["artwork"] = coord(state.artwork)
    if state.phase in (PLACE, PLAY):
        out["turn"] = state.turn
    if seat is not None:
        you: dict[str, Any] = {"seat": seat}
        if state.chosen[seat - 1]:
            you["card"] = state.chosen[seat - 1]
        out["you"] = you
    if state.last is not None:
        out["last"] = {
            "round": state.last.round,
            "winner": state.last.winner,
            "how": state.last.how,
            "revealed": {str(s): c for s, c in state.last.revealed.items()},
            "challenges": challenges_view(state.last.challenges),
            "ruled_out": {str(s): list(r) for s, r in state.last.ruled_out.items()},
        }
        if seat is not None and state.last.shown[seat - 1]:
            out["last"]["shown_to_you"] = {
                str(s): c for s, c in sorted(state.last.shown[seat - 1].items())
            }
    if state.phase == OVER:
        out["winner"] = state.winner
    return out


def seat_label(state: State, seat: int) -> str:
    """``"Seat 2"``: seats have no roles in Museum Heist."""
    return f"Seat {seat}"


def has_secrets(state: State, seat: int) -> bool:
    """Every seat hides its card until the game is over."""
    return state.phase != OVER
