"""Sealed Bids' rules for players, by topic: what ``rules`` shows in a terminal,
``gameweave rules sealedbid`` prints, and the browser's rules panel opens."""

from __future__ import annotations

from types import MappingProxyType

from .state import LOTS, START_COINS

_OVERVIEW = f"""\
**Five lots, one at a time. Everyone bids at once, in secret. Most points wins.**

Each player starts with {START_COINS} coins. {LOTS} lots come up for sale one after
another, each worth 1 to 9 points (no two the same). For each lot every player
seals a bid, from nothing to every coin they hold; nobody sees another's bid
until the last one is in.

Then the bids are shown: the single highest bid takes the lot and pays its bid.
A tie for the highest means nobody takes the lot and nobody pays. Coins spent are
gone; the others carry on to the next lot.

Topics: `rules actions`, `rules winning`."""

_ACTIONS = """\
What each choice in the menu means:

- `bid COINS`: seal a bid of COINS coins for the lot up for sale. A losing bid
  costs nothing; a winning one is paid.

The menu counts from 0 as the bids do, so typing `5` bids 5 coins (so does `bid 5`)."""

_WINNING = """\
After the last lot, the most points wins. Equal points: the most coins left
wins. Equal coins too: those players share the win."""

#: Topic -> text; the first is the overview, ``actions`` explains each choice.
TOPICS = MappingProxyType({"overview": _OVERVIEW, "actions": _ACTIONS, "winning": _WINNING})
