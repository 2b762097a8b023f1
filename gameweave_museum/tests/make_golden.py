"""Records the Museum Job golden logs under gameweave_museum/tests/golden/ (run by hand).

    .venv/bin/python gameweave_museum/tests/make_golden.py

writes the logs; then ``GAMEWEAVE_UPDATE_GOLDEN=1 .venv/bin/pytest
gameweave_museum/tests/test_golden.py`` records what each seat saw. Re-record only after a
deliberate change of behaviour, and bump ``MuseumJob.version``.
"""

from __future__ import annotations

from pathlib import Path

from gameweave_core import Match, default_registry
from gameweave_core.runner import play_out

GOLDEN = Path(__file__).resolve().parent / "golden"

#: A two-player night typed by hand: a cut camera found by a guard, a forced exit
#: found and locked, a lift, a second lift, a picked lock and an escape.
HAND = [
    (2, "post 1 J4 seat 2"),
    (2, "post 2 K12 seat 2"),
    (2, "post 3 B7 seat 2"),
    (1, "enter Q14"),
    (1, "walk N13"),
    (2, "guard 1 J7"),
    (2, "guard 2 K12"),
    (2, "guard 3 B7"),
    (1, "lift"),
    (2, "guard 1 J7"),
    (2, "guard 2 J13"),
    (2, "guard 3 B9"),
    (1, "walk R13"),
    (2, "guard 1 J7"),
    (2, "guard 2 L14"),
    (2, "guard 3 B12"),
    (1, "walk T13 cut"),
    (2, "guard 1 J7"),
    (2, "guard 2 O14"),
    (2, "guard 3 E12"),
    (1, "walk S10"),
    (2, "guard 1 J7"),
    (2, "guard 2 Q14"),
    (2, "guard 3 H12"),
    (1, "walk R9"),
    (2, "guard 1 J7"),
    (2, "guard 2 R12"),
    (2, "guard 3 J12"),
    (1, "lift"),
    (2, "guard 1 J7"),
    (2, "guard 2 S12"),
    (2, "guard 3 J14"),
    (1, "walk R5"),
    (2, "guard 1 J8"),
    (2, "guard 2 S11"),
    (2, "guard 3 J14"),
    (1, "walk T4"),
    (2, "guard 1 K8"),
    (2, "guard 2 S9"),
    (2, "guard 3 J14"),
    (1, "pick"),
    (2, "guard 1 K8"),
    (2, "guard 2 S7"),
    (2, "guard 3 J14"),
    (1, "escape"),
]


def record_hand() -> Match:
    match = Match.create("museum", 2, 7, registry=default_registry())
    for seat, text in HAND:
        match.submit(seat, match.title.parse_action(text, match.legal_actions(seat)))
    return match


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    record_hand().save(GOLDEN / "museum-2p-by-hand.toml")
    random3 = Match.create("museum", 3, 31, registry=default_registry())
    play_out(random3, {1: "random", 2: "random", 3: "random"})
    random3.save(GOLDEN / "museum-3p-random-bots.toml")
    heuristic4 = Match.create("museum", 4, 2026, registry=default_registry())
    play_out(heuristic4)
    heuristic4.save(GOLDEN / "museum-4p-heuristic-bots.toml")


if __name__ == "__main__":
    main()
