"""Who leaves first in heuristic-against-random games (run by hand, not a test).

    cd titles/master-thief && ../../.venv/bin/python tests/bot_figures.py 500

plays seeds 0 to N-1 at two players, the heuristic bot in seat 1 then in seat 2,
and prints its wins split by which bot escaped first (the balance page quotes it).
"""

from __future__ import annotations

import sys
from collections import Counter

from helpers import REGISTRY, TITLE, state

from gameweave_core import Match, play_out


def main(games: int) -> None:
    tally: Counter[tuple[str, bool]] = Counter()
    for seed in range(games):
        for h in (1, 2):
            match = Match(TITLE, 2, seed)
            play_out(match, {h: "heuristic", 3 - h: "random"}, REGISTRY)
            result = match.outcome()
            assert result is not None
            escapes = state(match).escapes
            first = "nobody" if not escapes else ("heuristic" if escapes[0] == h else "random")
            tally[(first, result.winners == (h,))] += 1
    for first in ("heuristic", "random", "nobody"):
        won, lost = tally[(first, True)], tally[(first, False)]
        print(f"{first} escaped first: heuristic won {won} of {won + lost}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
