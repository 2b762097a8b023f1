"""Bots for Museum Heist. Each sees only its seat's view.

The heuristic bot picks a character whose piece stands near the Artwork, lands it
when it can, reads the table's moves as evidence (a player tends to move their own
piece), challenges when that evidence points at one character and the suspect is a
move from the Artwork, and otherwise weighs each move: progress for its own piece,
a chance to land next turn, and no open door for a piece an opponent seems to hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameweave_core import Rng
from gameweave_core.bots import Bot, BotFactory, Observation

from .actions import Challenge, Choose, Move, Place, Swap
from .board import CHARACTERS, distance2, parse_coord
from .movement import reaches

#: Weight of one observed move of a piece by a seat, against a prior of 1 per character.
EVIDENCE = 3.0
#: A suspect this likely is challenged when its piece can land next turn.
CHALLENGE_WHEN_THREAT = 0.45
#: A suspect this likely is challenged at any time.
CHALLENGE_ANYWAY = 0.75


def beliefs(view: Mapping[str, Any], seat: int) -> dict[int, dict[str, float]]:
    """For each other seat still in the round, how likely each character is."""
    out_seats = set(view["out"])
    known = {int(s): c for s, c in view["known"].items()}
    counts: dict[int, dict[str, int]] = {}
    for m in view["moves"]:
        counts.setdefault(m["seat"], {}).setdefault(m["piece"], 0)
        counts[m["seat"]][m["piece"]] += 1
    result: dict[int, dict[str, float]] = {}
    for other in range(1, view["players"] + 1):
        if other == seat or other in out_seats:
            continue
        if other in known:
            result[other] = {known[other]: 1.0}
            continue
        ruled = set(view["ruled_out"].get(str(other), []))
        weights = {
            c: 1.0 + EVIDENCE * counts.get(other, {}).get(c, 0)
            for c in CHARACTERS
            if c not in ruled
        }
        total = sum(weights.values())
        result[other] = {c: w / total for c, w in weights.items()}
    return result


def _reachers(pieces: dict[str, int], artwork: int, rested: set[str]) -> set[str]:
    """Pieces that can end a move on the Artwork."""
    squares = set(pieces.values())
    out = set()
    for c, sq in pieces.items():
        if reaches(sq, squares - {sq}, artwork, c in rested):
            out.add(c)
    return out


class HeuristicBot:
    """Races its own piece, guards the Artwork, and challenges on good evidence."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = list(observation.legal)
        first = legal[0]
        if isinstance(first, Place):
            return rng.choice(legal)
        if isinstance(first, Choose):
            return self.choose(observation.view, rng)
        return self.play(observation.view, observation.seat, legal, rng)

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Choose:
        artwork = parse_coord(view["artwork"])
        pieces = sorted(
            CHARACTERS, key=lambda c: distance2(parse_coord(view["pieces"][c]), artwork)
        )
        # Near the Artwork is good, but everyone knows it: spread the picks a little.
        weights = [5, 4, 3, 2, 1, 0, 0]
        roll = rng.randrange(sum(weights))
        for c, w in zip(pieces, weights, strict=True):
            if roll < w:
                return Choose(c)
            roll -= w
        return Choose(pieces[0])

    def play(self, view: Mapping[str, Any], seat: int, legal: list[Any], rng: Rng) -> Any:
        mine = view["you"]["card"]
        artwork = parse_coord(view["artwork"])
        pieces = {c: parse_coord(sq) for c, sq in view["pieces"].items()}
        rested = set(view["rested"])
        moves = [a for a in legal if isinstance(a, Move)]
        for a in moves:
            if a.piece == mine and parse_coord(a.to) == artwork:
                return a
        belief = beliefs(view, seat)
        threat = _reachers(pieces, artwork, rested) - {mine}

        def held(piece: str) -> float:
            return max((b.get(piece, 0.0) for b in belief.values()), default=0.0)

        suspect = max(((p, s, c) for s, b in belief.items() for c, p in b.items()), default=None)
        if suspect is not None:
            p, s, c = suspect
            if p >= CHALLENGE_ANYWAY or (p >= CHALLENGE_WHEN_THREAT and c in threat):
                return Challenge(s, c)
        my_moves = sum(1 for m in view["moves"] if m["seat"] == seat and m["piece"] == mine)
        best: tuple[float, Any] | None = None
        for a in moves:
            after = dict(pieces)
            after[a.piece] = parse_coord(a.to)
            left = rested - {a.piece}
            reach = _reachers(after, artwork, left)
            score = -sum(4.0 + 8.0 * held(c) for c in reach if c != mine)
            if a.piece == mine:
                score += 0.5 * (distance2(pieces[mine], artwork) - distance2(after[mine], artwork))
                score -= 1.0 * my_moves  # moving it every turn gives the game away
            if mine in reach:
                score += 6.0
            score += rng.random()
            if best is None or score > best[0]:
                best = (score, a)
        if best is not None:
            return best[1]
        swaps = [a for a in legal if isinstance(a, Swap)]
        if swaps and rng.random() < 0.5:
            return rng.choice(swaps)
        if suspect is not None:
            return Challenge(suspect[1], suspect[2])
        return rng.choice(legal)


def heuristic_bot(seat: int, players: int) -> Bot:
    """The :data:`BotFactory` of :class:`HeuristicBot` (the default bot)."""
    return HeuristicBot()


BOTS: dict[str, BotFactory] = {"heuristic": heuristic_bot}


def search_defaults(seat: int, players: int) -> dict[str, Any]:
    """How the ``ismcts`` bot searches (see ``docs/bots.md``). Searching every
    legal move with random rollouts lost every game to the heuristic bot, and
    heuristic rollouts cost over a second a decision; so the search weighs only
    the moves the heuristic bot proposes in six tries, with cheap random
    rollouts."""
    return {"iterations": 160, "candidates": 6}
