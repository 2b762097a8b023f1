"""How a match ended."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs


@attrs.frozen
class Outcome:
    """The end of a match.

    ``side`` names the winning side ("Thief", "Security", "crew", "house", or a seat's
    label); ``winners`` lists the winning seats (empty when nobody at the table won);
    ``reason`` is a short machine-friendly word for how it ended ("escape", "dawn");
    ``summary`` is one sentence for people; ``figures`` holds the title's final numbers
    (for example the final Take), all public once the match is over.
    """

    side: str
    winners: tuple[int, ...]
    reason: str
    summary: str
    figures: Mapping[str, Any] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "winners": list(self.winners),
            "reason": self.reason,
            "summary": self.summary,
            "figures": dict(self.figures),
        }
