"""Records the Museum Heist golden logs under tests/golden/ (run by hand).

    cd titles/museum-heist && ../../.venv/bin/python tests/make_golden.py

writes the logs; then ``GAMEWEAVE_UPDATE_GOLDEN=1 ../../.venv/bin/pytest
tests/test_golden.py`` records what each seat saw. Re-record only after a deliberate
change of behaviour, and bump ``MuseumHeist.version``.
"""

from __future__ import annotations

from pathlib import Path

from gameweave_core import Match, default_registry, play_out

GOLDEN = Path(__file__).resolve().parent / "golden"

#: Three players, typed by hand. Round 1: the Granny steps onto the passage B7 and
#: goes on to G2, and a swap; then the Guard jumps the Granny onto the Artwork, and as
#: two players chose the Guard the other one collects (rule 1b). Round 2: seat 2
#: places the Artwork; two wrong challenges (each card shown to the challenger alone)
#: leave seat 1 the last with a secret identity. Round 3: seat 3 is to place.
HAND = [
    (1, "choose guard"),
    (2, "choose artist"),
    (3, "choose guard"),
    (1, "move guard G5"),
    (2, "move artist F1"),
    (3, "swap artist boy"),
    (1, "move guard G4"),
    (2, "move granny G2"),
    (3, "move guard G3"),
    (1, "move guard G1"),
    (2, "place E5"),
    (1, "choose artist"),
    (2, "choose duchess"),
    (3, "choose granny"),
    (3, "challenge 2 tourist"),
    (1, "move artist C5"),
    (2, "challenge 1 boy"),
]


def record_hand() -> Match:
    match = Match.create("museumheist", 3, 7, registry=default_registry())
    for seat, text in HAND:
        match.submit(seat, match.title.parse_action(text, match.legal_actions(seat)))
    return match


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    record_hand().save(GOLDEN / "museumheist-3p-by-hand.toml")
    random2 = Match.create("museumheist", 2, 31, registry=default_registry())
    play_out(random2, {1: "random", 2: "random"})
    random2.save(GOLDEN / "museumheist-2p-random-bots.toml")
    heuristic4 = Match.create("museumheist", 4, 2026, registry=default_registry())
    play_out(heuristic4)
    heuristic4.save(GOLDEN / "museumheist-4p-heuristic-bots.toml")


if __name__ == "__main__":
    main()
