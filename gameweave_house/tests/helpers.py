"""Shared helpers for The House Job's tests: stacked decks and scripted tables."""

from __future__ import annotations

from typing import Any

from gameweave_core import Match
from gameweave_house import HouseJob
from gameweave_house.cards import stacked

TITLE = HouseJob()

ROLE_SETS = {
    2: ("lookout", "ghost"),
    3: ("lookout", "ghost", "bagman"),
    4: ("lookout", "sleight", "ghost", "bagman"),
}


def table(
    roles: tuple[str, ...] | list[str],
    top: tuple[str, ...] | list[str] = (),
    take: int = 1000,
    seed: int = 7,
) -> Match:
    """A match whose seats drafted ``roles`` in seat order, with the deck's first cards
    ``top`` (draw order) and the rest in fresh-deck order."""
    m = Match(TITLE, len(roles), seed, {"deck": stacked(*top), "take": take})
    for seat, role in enumerate(roles, start=1):
        m.submit(seat, {"type": "draft", "role": role})
    return m


def bet_all(m: Match, bets: dict[int, int] | list[int]) -> None:
    """Every seat in betting order pushes its bet (in steps of 10) and presses Deal me in."""
    amounts = bets if isinstance(bets, dict) else dict(enumerate(bets, start=1))
    while m.view(None)["phase"] == "bet":
        seat = m.awaiting[0]
        push(m, seat, amounts[seat])
        m.submit(seat, {"type": "deal_me_in"})


def push(m: Match, seat: int, amount: int, box: int | None = None) -> None:
    for step in (100, 50, 10):
        while amount >= step:
            act: dict[str, Any] = {"type": "chips", "amount": step}
            if box is not None:
                act["box"] = box
            m.submit(seat, act)
            amount -= step


def ability(m: Match, seat: int, card: str, **fields: Any) -> list[str]:
    return m.submit(seat, {"type": "ability", "card": card, **fields})


def do(m: Match, seat: int, kind: str, **fields: Any) -> list[str]:
    return m.submit(seat, {"type": kind, **fields})


def box(m: Match, box_id: int) -> dict[str, Any]:
    return next(b for b in m.view(None)["boxes"] if b["id"] == box_id)


def take(m: Match) -> int:
    return int(m.view(None)["take"])


def last_lines(m: Match, n: int = 12) -> list[str]:
    return m.history(None)[-n:]


def order(
    hands: list[tuple[str, str]],
    up: str,
    hole: str,
    then: tuple[str, ...] | list[str] = (),
    extra: tuple[str, ...] = (),
) -> list[str]:
    """The draw order of a round: first cards, upcard, second cards, the Extra Box's
    two, the hole card, then ``then`` (hits, the dealer's draws...)."""
    return [*(h[0] for h in hands), up, *(h[1] for h in hands), *extra, hole, *then]


def dealt(
    roles: tuple[str, ...] | list[str],
    hands: list[tuple[str, str]],
    up: str,
    hole: str,
    then: tuple[str, ...] | list[str] = (),
    bets: list[int] | None = None,
    take: int = 1000,
) -> Match:
    """A table past its first deal: ``bets`` (default 100 each) are in and the cards
    are out as given."""
    m = table(roles, order(hands, up, hole, then), take=take)
    bet_all(m, bets or [100] * len(roles))
    return m
