"""Events: what happened, and who may read about it.

``apply`` returns events; the core files them in the match's history. A seat's
history is the text of the events whose audience includes it, so a title says
the same thing differently to different seats by emitting one event per audience,
e.g. ``"You walk to K7"`` to the Thief and ``"The Thief takes a turn"`` to the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attr

_EMPTY: Mapping[str, Any] = {}
#: ``object.__setattr__`` bound to an instance: how a frozen class writes its own
#: fields (attrs' generated ``__init__`` does the same; calling it bound is the quicker).
_writer: Callable[[object], Callable[[str, Any], None]] = object.__setattr__.__get__


# An attrs class like any other (frozen, compared by value, ``attrs.evolve`` works),
# spelled so that mypyc makes it a native class in the compiled build (setup.py):
# ``attrs.frozen`` stays a plain Python class there, whose fields the compiled
# ``Match`` reads by attribute lookup on every event it files and every history line
# it hands back (about 1,000 machine instructions of a House Job action through
# ``Match.submit``, benchmarks/README.md). Hence the fields named in ``these=`` (so
# that attrs leaves the ``__slots__`` alone: pure Python keeps slotted events), and
# the ``__init__`` written out (a native class compiles it; attrs' own stays
# interpreted), writing past the frozen ``__setattr__`` as attrs' does. In the
# compiled build an interpreted class cannot subclass it, nor a weak reference hold it.
@attr.s(
    these={
        "text": attr.ib(),
        "seats": attr.ib(default=None),
        "spectators": attr.ib(default=True),
        "kind": attr.ib(default=""),
        "data": attr.ib(default=_EMPTY),
    },
    init=False,
    frozen=True,
)
class Event:
    """One line of history with its audience.

    ``seats`` is ``None`` for every seat, or the set of seats that may read it.
    ``spectators`` says whether spectators (seat ``None``) may read it. ``kind`` and
    ``data`` are optional structured details for renderers, seen by the same audience.
    """

    __slots__ = ("__weakref__", "data", "kind", "seats", "spectators", "text")

    text: str
    seats: frozenset[int] | None
    spectators: bool
    kind: str
    data: Mapping[str, Any]

    def __init__(
        self,
        text: str,
        seats: frozenset[int] | None = None,
        spectators: bool = True,
        kind: str = "",
        data: Mapping[str, Any] = _EMPTY,
    ) -> None:
        write = _writer(self)
        write("text", text)
        write("seats", seats)
        write("spectators", spectators)
        write("kind", kind)
        write("data", data)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields: a native class has no slots for pickle to read.
        return (type(self), (self.text, self.seats, self.spectators, self.kind, self.data))

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
