"""The generic terminal rendering of a view (titles without ``render_text``)."""

from __future__ import annotations

from gameweave_cli.render import view_lines


def test_every_kind_of_value_is_shown() -> None:
    view = {
        "phase": "bet",
        "min_bet": 10,
        "open": True,
        "role": "",
        "cards": [],
        "hand": ["A♠", "10♥"],
        "levers": {"mark": 2, "call": False},
        "crew": [{"seat": 1, "name": "Crew 1"}, {}],
        "grid": [[1, 2], [3]],
    }
    assert view_lines(view) == [
        "phase: bet",
        "min bet: 10",
        "open: yes",
        "role: (none)",
        "cards: (none)",
        "hand: A♠, 10♥",
        "levers:",
        "  mark: 2",
        "  call: no",
        "crew:",
        "  - seat: 1",
        "    name: Crew 1",
        "  - (empty)",
        "grid:",
        "  - [1, 2]",
        "  - [3]",
    ]
