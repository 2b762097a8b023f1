"""Records the Master Thief golden logs under tests/golden/ (run by hand).

    cd titles/master-thief && ../../.venv/bin/python tests/make_golden.py

writes the logs; then ``GAMEWEAVE_UPDATE_GOLDEN=1 ../../.venv/bin/pytest
tests/test_golden.py`` records what each seat saw. Re-record only after a deliberate
change of behaviour, and bump ``MasterThief.version``.
"""

from __future__ import annotations

from pathlib import Path

from helpers import REGISTRY, TITLE, stacked

from gameweave_core import Match, default_registry, play_out

GOLDEN = Path(__file__).resolve().parent / "golden"

#: Three thieves, typed by hand, on stacked decks: the Heist, a Swipe answered by a
#: Grip, a Stash, Security averted by turns, an escape stopped by a Latch
#: that fails (the latched thief stays, its Calling Card shown).
HAND = [
    (1, "steal"),
    (2, "steal"),
    (3, "steal"),
    (1, "steal"),
    (1, "swipe 2 Ruby Sceptre"),
    (2, "grip"),
    (1, "stash Astrolabe"),
    (1, "end turn"),
    (1, "stay"),
    (2, "steal"),
    (2, "surrender Ruby Sceptre"),
    (3, "steal"),
    (3, "end turn"),
    (3, "discard down"),
    (3, "escape"),
    (1, "latch"),
    (2, "pass"),
]


def record_hand() -> Match:
    match = stacked(
        3,
        museum=[
            "Astrolabe",
            "Ruby Sceptre",
            "Opal Brooch",
            "T-Rex Skull",
            "Laser Snare",
            "Dodo Egg",
        ],
        hands=[
            ["Swipe", "Stash", "Latch", "Lift"],
            ["Grip", "Raid", "Trip", "Deep Pockets"],
            ["Getaway Car", "Smoke Pellet", "Snoop", "Stash"],
        ],
        calling=["The Looter", "The Cat Burglar", "The Collector"],
        seed=7,
    )
    for seat, text in HAND:
        if text == "discard down":  # the first card in the menu, to the hand limit
            while match.view(seat)["phase"] == "cleanup":
                match.submit(seat, match.legal_actions(seat)[0])
            continue
        match.submit(seat, TITLE.parse_action(text, match.legal_actions(seat)))
    return match


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    record_hand().save(GOLDEN / "masterthief-3p-by-hand.toml")
    random2 = Match.create("masterthief", 2, 31, registry=default_registry())
    play_out(random2, {1: "random", 2: "random"}, REGISTRY)
    random2.save(GOLDEN / "masterthief-2p-random-bots.toml")
    heuristic4 = Match.create("masterthief", 4, 2026, registry=default_registry())
    play_out(heuristic4, None, REGISTRY)
    heuristic4.save(GOLDEN / "masterthief-4p-heuristic-bots.toml")
    mixed6 = Match.create("masterthief", 6, 606, registry=default_registry())
    play_out(mixed6, {1: "random", 3: "random", 5: "random"}, REGISTRY)
    mixed6.save(GOLDEN / "masterthief-6p-mixed-bots.toml")


if __name__ == "__main__":
    main()
