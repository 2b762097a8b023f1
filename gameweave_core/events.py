"""Events: what happened, and who may read about it.

``apply`` returns events; the core files them in the match's history. A seat's
history is the text of the events whose audience includes it, so a title says
the same thing differently to different seats by emitting one event per audience,
e.g. ``"You walk to K7"`` to the Thief and ``"The Thief takes a turn"`` to the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

_EMPTY: Mapping[str, Any] = {}


@attrs.frozen
class Event:
    """One line of history with its audience.

    ``seats`` is ``None`` for every seat, or the set of seats that may read it.
    ``spectators`` says whether spectators (seat ``None``) may read it. ``kind`` and
    ``data`` are optional structured details for renderers, seen by the same audience.
    """

    text: str
    seats: frozenset[int] | None = None
    spectators: bool = True
    kind: str = ""
    data: Mapping[str, Any] = attrs.field(default=_EMPTY)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may read this event."""
        if seat is None:
            return self.spectators
        return self.seats is None or seat in self.seats

    @classmethod
    def public(cls, text: str, kind: str = "", **data: Any) -> Event:
        """An event every seat and every spectator reads."""
        return cls(text, None, True, kind, data or _EMPTY)

    @classmethod
    def private(cls, seats: Iterable[int], text: str, kind: str = "", **data: Any) -> Event:
        """An event only ``seats`` read; spectators do not."""
        return cls(text, frozenset(seats), False, kind, data or _EMPTY)

    @classmethod
    def others(
        cls, excluded: Iterable[int], players: int, text: str, kind: str = "", **data: Any
    ) -> Event:
        """An event every seat but ``excluded`` reads, spectators included."""
        hidden = set(excluded)
        seats = frozenset(s for s in range(1, players + 1) if s not in hidden)
        return cls(text, seats, True, kind, data or _EMPTY)

    def to_json(self) -> dict[str, Any]:
        """The event as its audience receives it (the audience itself is not sent)."""
        out: dict[str, Any] = {"text": self.text}
        if self.kind:
            out["kind"] = self.kind
        if self.data:
            out["data"] = dict(self.data)
        return out
