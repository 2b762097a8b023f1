"""Helpers for Master Thief's tests: stacked matches and typed actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameweave_masterthief import MasterThief

from gameweave_core import Match, Registry

TITLE = MasterThief()
#: A registry holding this title alone, so tests do not depend on other plugins.
REGISTRY = Registry()
REGISTRY.add_title(TITLE)

#: Four harmless Thief Cards, for hands a test does not care about.
FILLER = ["Deep Pockets", "Lift", "Raid", "Trip"]


def stacked(
    players: int,
    *,
    museum: Sequence[str] = (),
    hands: Sequence[Sequence[str]] = (),
    draws: Sequence[str] = (),
    calling: Sequence[str] = (),
    seed: int = 1,
) -> Match:
    """A match whose decks start with the named cards: ``hands`` are dealt to seats
    1, 2, ... (4 cards each), ``draws`` come next off the Thief deck, ``museum`` is
    the order of the first steals."""
    deck: list[str] = []
    for hand in hands:
        assert len(hand) == 4, hand
        deck += hand
    deck += draws
    config = {"museum": list(museum), "deck": deck, "calling": list(calling)}
    return Match(TITLE, players, seed, config)


def act(match: Match, seat: int, text: str) -> list[str]:
    """Submit the action typed as ``text`` for ``seat``."""
    return match.submit(seat, TITLE.parse_action(text, match.legal_actions(seat)))


def labels(match: Match, seat: int) -> list[str]:
    return [TITLE.describe_action(a) for a in match.legal_actions(seat)]


def heist(match: Match) -> None:
    """Everyone steals in the opening Heist."""
    for seat in range(1, match.players + 1):
        act(match, seat, "steal")


def state(match: Match) -> Any:
    """The match's whole state, for checks a view cannot make (tests only)."""
    return match.state


def give(
    match: Match, seat: int, *, carried: Sequence[str] = (), stashed: Sequence[str] = ()
) -> None:
    """Move Museum cards straight in front of ``seat`` (a test's shortcut)."""
    st = state(match)
    for item in [*carried, *stashed]:
        st.museum.remove(item)
    st.carried[seat - 1] += list(carried)
    st.stashed[seat - 1] = sorted([*st.stashed[seat - 1], *stashed])
    match._awaiting = None
    match._legal.clear()


def on_top(match: Match, *cards: str) -> None:
    """Put Museum ``cards`` on top of the pile, the first to be stolen first."""
    st = state(match)
    for card in cards:
        st.museum.remove(card)
    st.museum += list(reversed(cards))


def awaited(match: Match) -> tuple[int, ...]:
    """The seats awaited now (a function, so type checkers do not narrow it)."""
    return tuple(match.awaiting)
