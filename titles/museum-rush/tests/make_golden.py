"""Records the Museum Rush golden logs under tests/golden/ (run by hand).

    cd titles/museum-rush && ../../.venv/bin/python tests/make_golden.py

writes the logs; then ``GAMEWEAVE_UPDATE_GOLDEN=1 ../../.venv/bin/pytest
tests/test_golden.py`` records what each seat saw. Re-record only after a deliberate
change of behaviour, and bump ``MuseumRush.version``.
"""

from __future__ import annotations

from pathlib import Path

from gameweave_core import Match, default_registry, play_out

GOLDEN = Path(__file__).resolve().parent / "golden"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    two = Match.create("museumrush", 2, 11, registry=default_registry())
    play_out(two, {1: "heuristic", 2: "random"})
    two.save(GOLDEN / "museumrush-2p-heuristic-vs-random.toml")
    three = Match.create("museumrush", 3, 2026, registry=default_registry())
    play_out(three)
    three.save(GOLDEN / "museumrush-3p-heuristic-bots.toml")
    four = Match.create("museumrush", 4, 7, {"first_game": True}, registry=default_registry())
    play_out(four, {s: "random" for s in range(1, 5)})
    four.save(GOLDEN / "museumrush-4p-first-game-random-bots.toml")


if __name__ == "__main__":
    main()
