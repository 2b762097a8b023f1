"""The rules of Museum Heist as pure functions over :class:`~.state.State`.

The entry points follow the title convention: ``setup``, ``awaiting``,
``legal_actions``, ``apply``, ``explain_illegal`` and ``outcome``. Rounds end in
:func:`end_round`, which hands out the Artwork token and starts the next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from gameweave_core import Event, Outcome, Rng

from .actions import Challenge, Choose, Move, Place, Swap
from .board import (
    CHARACTERS,
    NAMES,
    PASSAGE_SET,
    SQUARES,
    adjacent,
    coord,
    parse_coord,
)
from .movement import destinations
from .state import (
    CHOOSE,
    OVER,
    PLACE,
    PLAY,
    SWAPS_EACH,
    PastRound,
    RoundEnd,
    State,
    tokens_to_win,
)

# -- setting up ----------------------------------------------------------------------


def artwork_spaces(pieces: Sequence[int]) -> list[int]:
    """Squares the Artwork may go on: vacant, no Secret Passage, next to no piece.

    Never empty on this board: see :data:`~.board.WITNESSES`.
    """
    taken = set(pieces)
    return [
        s
        for s in range(SQUARES)
        if s not in taken and s not in PASSAGE_SET and not any(adjacent(s, p) for p in pieces)
    ]


def setup(players: int, config: Any, rng: Rng) -> State:
    """Round 1: pieces and then the Artwork placed at random, cards not yet chosen."""
    pieces = rng.sample(range(SQUARES), len(CHARACTERS))
    state = State(
        players=players,
        pieces=pieces,
        artwork=-1,
        phase=CHOOSE,
        chosen=[""] * players,
        tokens=[0] * players,
        swaps=[SWAPS_EACH] * players,
        out=[False] * players,
        shown=[[] for _ in range(players)],
        ruled_out=[[] for _ in range(players)],
    )
    # Ruling: the rulebook names nobody to place the first Artwork; the generator does.
    state.artwork = rng.choice(artwork_spaces(pieces))
    state.supply -= 1
    state.start, state.start_artwork = tuple(pieces), state.artwork
    return state


# -- whose turn, and what they may do ----------------------------------------------------


def awaiting(state: State) -> Sequence[int]:
    """The placer, every seat yet to choose (all at once), or the seat to play."""
    if state.phase == CHOOSE:
        return tuple(s for s in range(1, state.players + 1) if not state.chosen[s - 1])
    if state.phase in (PLACE, PLAY):
        return (state.turn,)
    return ()


def in_round(state: State) -> list[int]:
    """Seats still in this round (not out after a wrong challenge)."""
    return [s for s in range(1, state.players + 1) if not state.out[s - 1]]


def occupied_by_others(state: State, index: int) -> set[int]:
    return {sq for i, sq in enumerate(state.pieces) if i != index}


def piece_destinations(state: State, character: str) -> set[int]:
    """Where the piece of ``character`` may end a move now."""
    index = CHARACTERS.index(character)
    return destinations(
        state.pieces[index],
        occupied_by_others(state, index),
        state.artwork,
        character in state.rested,
    )


def legal_actions(state: State, seat: int) -> Sequence[Any]:
    """Every action ``seat`` may take now (nothing when it is not awaited)."""
    if seat not in awaiting(state):
        return ()
    if state.phase == PLACE:
        return [Place(coord(s)) for s in artwork_spaces(state.pieces)]
    if state.phase == CHOOSE:
        return [Choose(c) for c in CHARACTERS]
    out: list[Any] = []
    for character in CHARACTERS:
        out.extend(Move(character, coord(s)) for s in sorted(piece_destinations(state, character)))
    for other in in_round(state):
        if other != seat:
            out.extend(Challenge(other, c) for c in CHARACTERS)
    if state.swaps[seat - 1] > 0:
        out.extend(Swap(a, b) for a, b in combinations(CHARACTERS, 2))
    return out


def _square_or_none(text: str) -> int | None:
    try:
        return parse_coord(text)
    except ValueError:
        return None


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why ``action`` is not legal for ``seat`` now, in one line."""
    phase_needs: dict[str, type | tuple[type, ...]] = {
        PLACE: Place,
        CHOOSE: Choose,
        PLAY: (Move, Challenge, Swap),
    }
    wanted = phase_needs.get(state.phase)
    if wanted is None:
        return "the game is over"
    if not isinstance(action, wanted):
        doing = {
            PLACE: "the Artwork is being placed",
            CHOOSE: "players are choosing their characters",
            PLAY: "players are taking turns (move, challenge or swap)",
        }[state.phase]
        return f"not now: {doing}"
    match action:
        case Place(at=at):
            return explain_place(state, at)
        case Choose(character=c):
            if c not in CHARACTERS:
                return f"{c!r} is not a character: one of {', '.join(CHARACTERS)}"
            return "you have already chosen this round"
        case Move(piece=p, to=to):
            return explain_move(state, p, to)
        case Challenge(seat=target, character=c):
            return explain_challenge(state, seat, target, c)
        case Swap(first=a, second=b):
            return explain_swap(state, seat, a, b)
    return None


def explain_place(state: State, at: str) -> str:
    """Why the Artwork may not go on ``at``."""
    sq = _square_or_none(at)
    if sq is None:
        return f"{at!r} is not a square (A1 to H8)"
    if sq in state.pieces:
        return f"{coord(sq)} is taken by a piece"
    if sq in PASSAGE_SET:
        return f"the Artwork may not go on a Secret Passage ({coord(sq)})"
    return f"the Artwork may not go next to a piece ({coord(sq)})"


def explain_move(state: State, p: str, to: str) -> str:
    """Why piece ``p`` may not move to ``to``."""
    if p not in CHARACTERS:
        return f"{p!r} is not a character: one of {', '.join(CHARACTERS)}"
    sq = _square_or_none(to)
    if sq is None:
        return f"{to!r} is not a square (A1 to H8)"
    here = state.pieces[CHARACTERS.index(p)]
    if state.artwork == here:
        return f"{NAMES[p]} is on the Artwork and cannot get any closer"
    return (
        f"{NAMES[p]} cannot end on {coord(sq)}: a move is a step, jumps or a "
        "Secret Passage to a vacant square closer to the Artwork"
    )


def explain_challenge(state: State, seat: int, target: int, c: str) -> str:
    """Why ``seat`` may not challenge ``target`` to be character ``c``."""
    if c not in CHARACTERS:
        return f"{c!r} is not a character: one of {', '.join(CHARACTERS)}"
    if target == seat:
        return "you cannot challenge yourself"
    if not 1 <= target <= state.players:
        return f"there is no seat {target}"
    return f"seat {target} is out of the round"


def explain_swap(state: State, seat: int, a: str, b: str) -> str:
    """Why ``seat`` may not swap pieces ``a`` and ``b``."""
    for c in (a, b):
        if c not in CHARACTERS:
            return f"{c!r} is not a character: one of {', '.join(CHARACTERS)}"
    if state.swaps[seat - 1] == 0:
        return "you have no Swap tokens left (two per game)"
    if a == b:
        return "a swap needs two different pieces"
    return "name the two pieces in the order of the character list"


# -- carrying out actions ------------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a legal action of ``seat``."""
    state.acted += 1
    match action:
        case Place(at=at):
            return do_place(state, seat, parse_coord(at))
        case Choose(character=c):
            return do_choose(state, seat, c)
        case Move(piece=p, to=to):
            return do_move(state, seat, p, parse_coord(to))
        case Challenge(seat=target, character=c):
            return do_challenge(state, seat, target, c)
        case Swap(first=a, second=b):
            return do_swap(state, seat, a, b)
    raise TypeError(f"not a Museum Heist action: {action!r}")


def label(seat: int) -> str:
    return f"Seat {seat}"


def do_place(state: State, seat: int, sq: int) -> list[Event]:
    state.artwork = sq
    state.supply -= 1
    state.phase = CHOOSE
    return [Event.public(f"{label(seat)} places the Artwork on {coord(sq)}", "place", at=coord(sq))]


def do_choose(state: State, seat: int, character: str) -> list[Event]:
    state.chosen[seat - 1] = character
    state.chose_at[seat - 1] = state.acted
    events = [
        Event.private([seat], f"You choose {NAMES[character]}", "choose", character=character),
        Event.others([seat], state.players, f"{label(seat)} has chosen a character", "chosen"),
    ]
    if all(state.chosen):
        events.extend(begin_turns(state))
    return events


def begin_turns(state: State) -> list[Event]:
    """Everyone has chosen: note the pieces resting on passages, the starter plays."""
    state.phase = PLAY
    # Ruling: "the youngest player starts" is seat 1 (State.starter's default).
    state.turn = state.starter
    # Ruling: "begins a round" is read once everyone has chosen.
    state.rested = [c for c, sq in zip(CHARACTERS, state.pieces, strict=True) if sq in PASSAGE_SET]
    return [
        Event.public(
            f"Round {state.round}: everyone has chosen; {label(state.starter)} starts",
            "round",
            round=state.round,
        )
    ]


def next_turn(state: State) -> None:
    """Pass the turn clockwise (rising seat numbers) to the next seat still in."""
    seat = state.turn
    for _ in range(state.players):
        seat = seat % state.players + 1
        if not state.out[seat - 1]:
            state.turn = seat
            return


def do_move(state: State, seat: int, character: str, to: int) -> list[Event]:
    index = CHARACTERS.index(character)
    start = state.pieces[index]
    state.pieces[index] = to
    if character in state.rested:
        state.rested.remove(character)
    state.moves.append((seat, character, start, to))
    events = [
        Event.public(
            f"{label(seat)} moves {NAMES[character]} from {coord(start)} to {coord(to)}",
            "move",
            seat=seat,
            piece=character,
            **{"from": coord(start)},
            to=coord(to),
        )
    ]
    if to != state.artwork:
        next_turn(state)
        return events
    if state.chosen[seat - 1] != character:
        # Ruling: any piece may go onto the Artwork; only the mover's own collects.
        # Whoever lands their own character must show it, so landing another piece
        # tells everyone the mover is not that character.
        state.ruled_out[seat - 1].append(character)
        events.append(
            Event.public(
                f"{NAMES[character]} stands on the Artwork, but it is not {label(seat)}'s "
                "character: nobody collects",
                "blocked",
            )
        )
        next_turn(state)
        return events
    return events + land_own(state, seat, character)


def land_own(state: State, seat: int, character: str) -> list[Event]:
    """Rules 1a-1c: the mover shows their card; so does every other seat still in the
    round that chose the same character. One such opponent collects; none or several,
    and the mover does."""
    # Ruling: players out of the round take no part (they neither show nor count).
    twins = [s for s in in_round(state) if s != seat and state.chosen[s - 1] == character]
    winner = twins[0] if len(twins) == 1 else seat
    revealed = {s: character for s in [seat, *twins]}
    # Everyone still in who did not show the card is known not to hold it.
    for s in in_round(state):
        if s not in revealed:
            state.ruled_out[s - 1].append(character)
    state.public.extend(s for s in revealed if s not in state.public)
    if not twins:
        why = "nobody else chose it, so they collect the Artwork (rule 1a)"
    elif len(twins) == 1:
        why = f"{label(twins[0])} chose it too and collects the Artwork (rule 1b)"
    else:
        names = ", ".join(label(s) for s in twins)
        why = f"{names} chose it too; with two or more twins the mover collects (rule 1c)"
    text = f"{label(seat)} shows {NAMES[character]}: {why}"
    event = Event.public(text, "reveal", cards={str(s): c for s, c in revealed.items()})
    return [event, *end_round(state, winner, "artwork", revealed)]


def do_challenge(state: State, seat: int, target: int, character: str) -> list[Event]:
    actual = state.chosen[target - 1]
    said = f"{label(seat)} says {label(target)} is {NAMES[character]}"
    state.challenges.append((seat, target, character, actual == character))
    if actual == character:
        state.public.append(target)
        revealed = {target: actual}
        event = Event.public(
            f"{said}: right, {label(target)} shows the card and {label(seat)} collects",
            "challenge",
            right=True,
            cards={str(target): actual},
        )
        return [event, *end_round(state, seat, "challenge", revealed)]
    state.out[seat - 1] = True
    state.shown[seat - 1].append(target)
    state.ruled_out[target - 1].append(character)
    events = [
        Event.public(f"{said}: wrong, {label(seat)} is out of the round", "challenge", right=False),
        Event.private(
            [seat],
            f"{label(target)} shows you {NAMES[actual]}",
            "shown",
            seat=target,
            character=actual,
        ),
    ]
    left = in_round(state)
    if len(left) == 1:
        events.append(Event.public(f"Only {label(left[0])} is left with a secret identity", "last"))
        return events + end_round(state, left[0], "last", {})
    next_turn(state)
    return events


def do_swap(state: State, seat: int, first: str, second: str) -> list[Event]:
    a, b = CHARACTERS.index(first), CHARACTERS.index(second)
    state.pieces[a], state.pieces[b] = state.pieces[b], state.pieces[a]
    state.swaps[seat - 1] -= 1
    # Ruling: a swap is not a move (it collects nothing), and a swapped piece has left
    # the passage it began the round on.
    state.rested = [c for c in state.rested if c not in (first, second)]
    text = f"{label(seat)} spends a Swap token: {NAMES[first]} and {NAMES[second]} change places"
    next_turn(state)
    return [Event.public(text, "swap", first=first, second=second)]


def end_round(state: State, winner: int, how: str, revealed: dict[int, str]) -> list[Event]:
    """Give ``winner`` the Artwork token; end the game or set up the next round."""
    state.tokens[winner - 1] += 1
    # What each seat was shown alone stays in its view after the round (its history
    # says so too), so the reset below takes nothing from a seat it has seen.
    shown = [{s: state.chosen[s - 1] for s in seen} for seen in state.shown]
    ruled = {s: list(r) for s, r in enumerate(state.ruled_out, start=1) if r}
    state.last = RoundEnd(
        state.round, winner, how, dict(revealed), shown, list(state.challenges), ruled
    )
    state.rounds.append(
        PastRound(
            tuple(state.chose_at),
            tuple(revealed.items()),
            tuple(tuple(seen.items()) for seen in shown),
            tuple((s, tuple(r)) for s, r in ruled.items()),
        )
    )
    events = [
        Event.public(
            f"{label(winner)} collects the Artwork of round {state.round} "
            f"({state.tokens[winner - 1]} of {tokens_to_win(state.players)})",
            "collect",
            seat=winner,
        )
    ]
    if state.tokens[winner - 1] >= tokens_to_win(state.players):
        state.phase = OVER
        state.winner = winner
        events.append(Event.public(f"{label(winner)} wins the game", "over", seat=winner))
        return events
    # Next round: the pieces stay, cards go back to the hands unseen. Ruling: the player
    # to the winner's right is the seat before it, as play passes clockwise.
    state.round += 1
    state.artwork = -1
    state.phase = PLACE
    state.starter = winner
    state.turn = (winner - 2) % state.players + 1
    state.chosen = [""] * state.players
    state.chose_at = [0] * state.players
    state.out = [False] * state.players
    state.public = []
    state.shown = [[] for _ in range(state.players)]
    state.ruled_out = [[] for _ in range(state.players)]
    state.rested = []
    state.moves = []
    state.challenges = []
    events.append(
        Event.public(
            f"Round {state.round}: {label(state.turn)} places the Artwork", "next", seat=state.turn
        )
    )
    return events


def outcome(state: State) -> Outcome | None:
    """The winner once someone has the tokens they need."""
    if state.phase != OVER:
        return None
    need = tokens_to_win(state.players)
    return Outcome(
        side=label(state.winner),
        winners=(state.winner,),
        reason="artwork",
        summary=f"{label(state.winner)} collected {need} Artwork tokens in {state.round} rounds",
        figures={"rounds": state.round, "tokens": list(state.tokens)},
    )
