"""Records the Museum Heist golden logs under tests/golden/ (run by hand).

    cd titles/museum-heist && ../../.venv/bin/python tests/make_golden.py

writes the logs; then ``GAMEWEAVE_UPDATE_GOLDEN=1 ../../.venv/bin/pytest
tests/test_golden.py`` records what each seat saw. Re-record only after a deliberate
change of behaviour, and bump ``MuseumHeist.version``.
"""

from __future__ import annotations

from pathlib import Path

from gameweave_core import Match, play_out

GOLDEN = Path(__file__).resolve().parent / "golden"

#: Three players, typed by hand. Round 1: the Tourist takes the passage it began on,
#: a swap, and two Tourists so the other one collects (rule 1b). Round 2: seat 3
#: places the Artwork, two wrong challenges (each card shown to the challenger alone)
#: leave seat 2 the last with a secret identity. Round 3: seat 1 is to place.
HAND = [
    (1, "choose tourist"),
    (2, "choose guard"),
    (3, "choose tourist"),
    (1, "move tourist G7"),
    (2, "move guard H7"),
    (3, "move tourist H6"),
    (1, "swap artist granny"),
    (2, "move boy E2"),
    (3, "move tourist H5"),
    (3, "place D5"),
    (1, "choose artist"),
    (2, "choose duchess"),
    (3, "choose granny"),
    (1, "challenge 2 tourist"),
    (2, "move granny C5"),
    (3, "challenge 2 granny"),
]


def record_hand() -> Match:
    match = Match.create("museumheist", 3, 7)
    for seat, text in HAND:
        match.submit(seat, match.title.parse_action(text, match.legal_actions(seat)))
    return match


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    record_hand().save(GOLDEN / "museumheist-3p-by-hand.toml")
    random2 = Match.create("museumheist", 2, 31)
    play_out(random2, {1: "random", 2: "random"})
    random2.save(GOLDEN / "museumheist-2p-random-bots.toml")
    heuristic4 = Match.create("museumheist", 4, 2026)
    play_out(heuristic4)
    heuristic4.save(GOLDEN / "museumheist-4p-heuristic-bots.toml")


if __name__ == "__main__":
    main()
