"""History lines and the names they use: every line is public (the crew shares
everything), and no line names a card that is still face down.

Most lines recur from hand to hand and job to job ("Crew 1 stands on 17"), and an
:class:`~gameweave_core.Event` is immutable, so equal lines share one Event: finding
it costs less than building it (see docs/titles/house/compiled.md for the figures).
"""

from __future__ import annotations

from typing import Final

from gameweave_core import Event

from .cards import FULL_DECK, labels, rank_name, total
from .state import Box, Hand, State

#: How many distinct lines the cache keeps before it starts afresh (lines naming the
#: Take have no end of variety).
LINES_KEPT: Final = 20_000
#: Lines by kind, then by text (two lookups by string cost less than one by a tuple).
_LINES: Final[dict[str, dict[str, Event]]] = {}


def line(text: str, kind: str = "") -> Event:
    """The public history line ``text`` (of ``kind``), shared with its equals."""
    lines = _LINES.get(kind)
    if lines is None:
        lines = _LINES[kind] = {}
    event = lines.get(text)
    if event is None:
        if len(lines) >= LINES_KEPT:
            lines.clear()
        event = lines[text] = Event(text, None, True, kind)
    return event


#: "The house shows 7", by up-card (the card rides along for renderers).
UPCARDS: Final = {
    card: Event(f"The house shows {rank_name(card)}", None, True, "upcard", {"card": card})
    for card in FULL_DECK
}


def upcard_line(card: str) -> Event:
    """The line showing the dealer's up-card."""
    return UPCARDS[card]


#: "Hole card up — house has 17", by hole card, then by the house's total.
_HOLES: Final[dict[str, dict[int, Event]]] = {}


def hole_line(card: str, total: int) -> Event:
    """The line turning the hole card ``card`` up, the house at ``total``; the card
    rides along for renderers, as the up-card's does. Shared as :func:`line` shares
    its lines (a fresh Event per round cost 2% of a compiled hand)."""
    by_total = _HOLES.get(card)
    if by_total is None:
        by_total = _HOLES[card] = {}
    event = by_total.get(total)
    if event is None:
        text = f"Hole card up — house has {total}"
        event = by_total[total] = Event(text, None, True, "hole", {"card": card})
    return event


_SETTLED: Final[dict[int, Event]] = {}


def settled_line(take: int) -> Event:
    """The line closing a round's settlement, with the Take as data (shared as
    :func:`line` shares its lines)."""
    event = _SETTLED.get(take)
    if event is None:
        if len(_SETTLED) >= LINES_KEPT:
            _SETTLED.clear()
        event = _SETTLED[take] = Event(
            f"Round settled — Take {take}", None, True, "settled", {"take": take}
        )
    return event


#: "Crew 1" to "Crew 4", named once: nearly every history line names a seat.
CREW: Final = tuple(f"Crew {seat}" for seat in range(5))


def crew(seat: int) -> str:
    return CREW[seat] if 0 < seat < len(CREW) else f"Crew {seat}"


def box_name(box: Box, hand: int = 0) -> str:
    """``"Crew 2"``, ``"Crew 2 split"`` or ``"Extra Box"``."""
    if box.extra:
        return "Extra Box"
    return crew(box.seat) + " split" if hand else crew(box.seat)


def box_id_name(state: State, box_id: int) -> str:
    """``"the Extra Box"`` or ``"Crew 2's box"``."""
    return "the Extra Box" if box_id == state.extra_id else f"Crew {box_id}'s box"


def describe(h: Hand) -> str:
    """A hand's total as people say it: ``"17"``, ``"soft 17"``."""
    p, soft = total(h.cards)
    return f"soft {p}" if soft and p < 21 else str(p)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# -- lines found by their values ----------------------------------------------------------

#: The commonest lines of a hand (chips, the bet, the deal, a stand, a settlement),
#: found by the values they name: with :func:`line` alone their text was built and
#: hashed only to find an equal line already made, about a tenth of a compiled hand's
#: instructions. Each key starts with the line's kind; the text is still made in one
#: place, the first time, by the function that owns the key.
_BY_VALUES: Final[dict[tuple[object, ...], Event]] = {}


def _keep(key: tuple[object, ...], event: Event) -> Event:
    if len(_BY_VALUES) >= LINES_KEPT:
        _BY_VALUES.clear()
    _BY_VALUES[key] = event
    return event


def chips_line(seat: int, amount: int, extra: bool) -> Event:
    """The chips line: "Crew 1 puts 10 on their box" (or "on the Extra Box")."""
    key = ("chips", seat, amount, extra)
    event = _BY_VALUES.get(key)
    if event is None:
        where = "the Extra Box" if extra else "their box"
        event = _keep(key, line(f"{crew(seat)} puts {amount} on {where}", "chips"))
    return event


def bet_line(seat: int, mine: list[Box], take: int) -> Event:
    """The bet line, "Crew 1 is in for 10 — Take 990": ``seat`` deals in with its
    boxes ``mine``."""
    # One box of the seat's own is the common case; an Extra Box's line is built.
    key = ("bet", seat, mine[0].main.bet, take) if len(mine) == 1 and not mine[0].extra else None
    if key is not None:
        event = _BY_VALUES.get(key)
        if event is not None:
            return event
    bets = " and ".join([f"{b.main.bet}{' on the Extra Box' if b.extra else ''}" for b in mine])
    event = line(f"{crew(seat)} is in for {bets} — Take {take}", "bet")
    return event if key is None else _keep(key, event)


def dealt_line(box: Box) -> Event:
    """The line of a box's first two cards: "Crew 1 is dealt 10♥ 7♠ — 17", or a
    blackjack."""
    h = box.main
    # Whether it is a blackjack, and its total, follow from the two cards.
    key = ("dealt", box.seat, box.extra, h.cards[0], h.cards[1])
    event = _BY_VALUES.get(key)
    if event is None:
        if h.natural:
            text = f"{box_name(box)} is dealt a blackjack ({labels(h.cards)})"
        else:
            text = f"{box_name(box)} is dealt {labels(h.cards)} — {describe(h)}"
        event = _keep(key, line(text))
    return event


def stand_line(box: Box, hand: int, points: int) -> Event:
    """The stand line: "Crew 1 stands on 17" (hand 1: "Crew 1 split stands on 17")."""
    key = ("stand", box.seat, box.extra, hand > 0, points)
    event = _BY_VALUES.get(key)
    if event is None:
        event = _keep(key, line(f"{box_name(box, hand)} stands on {points}"))
    return event


def settle_line(name: str, points: int, said: str, chips: int) -> Event:
    """A settled hand's line, "Crew 1 17 WIN +10": its name, total, result and chips
    (a line with no result, the raise on a box, gives its name and chips alone)."""
    key = ("settle", name, points, said, chips)
    event = _BY_VALUES.get(key)
    if event is None:
        head = f"{name} {points} {said}" if said else name
        event = _keep(key, line(f"{head} {signed(chips)}", "settle"))
    return event
