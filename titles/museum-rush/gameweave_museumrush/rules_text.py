"""Museum Rush's rules for players, by topic (what ``rules`` shows in a terminal).

Short topics for a first game; the facts are the rules' own (``rules.py``,
``cards.py``), the full page is ``docs/titles/museumrush/index.md``.
"""

from __future__ import annotations

from types import MappingProxyType

_OVERVIEW = """\
**Break into the museum, steal, get out before the last Clock. Biggest Take wins.**

The museum is a 4 x 7 grid of rooms (`A1` to `G4`). Red rooms hold Loot face up and
more cards face down; High Security rooms hold a Rare Treasure behind a lock code.
Guards walk towards noisy thieves.

Each turn: **draw** a Search card, **move** up to 3 rooms, make one **steal**,
then **end** the turn, or **escape** from a Way Out.

Topics: `rules actions`, `rules guards`, `rules items`, `rules ending`."""

_ACTIONS = """\
Type an action as the menu writes it:

- `breakin A1`: put your thief on a free edge room (at the start, or after being busted).
- `move B2`: step to a neighbouring room.
- `loot`: steal the face-up Loot in your room.
- `crack`: roll 3 dice at your room's lock; matched digits get Unlock tokens.
- `rob 2`: try to steal a random card from seat 2's thief in your room.
- `raid`: spend keys on the Vault (2) or the Lost & Found (1), then `pick` cards.
- `lure 3 0 C2`: play a Lure, Guard 3 to C2 (`lure -1 2 C2`: seat 2's thief).
- `takedown`: knock out the Guard that found you and take its key.
- `disable C2`: play a Disable on the Camera in C2.
- `trap C2`: set a Booby Trap in a free neighbouring room.
- `pass`: play nothing (when found by a Guard: roll to slip away; when a Guard
  stops next to you after a steal: let the next card be turned).
- `route 1 B2-B3`: as the Guard mover, walk Guard 1 along that way.
- `end`: end your turn. `escape`: leave the museum from a Way Out, for good."""

_GUARDS = """\
Stealing, failing a lock, robbing, a Camera or a Booby Trap sends the **nearest
Guard 2 rooms towards you** by a shortest way; the player on your right picks
among equal ways (the Joker picks for himself).

A Guard reaching you: play `takedown` or `lure`, or roll one die: more than the
Loot and Treasures you hold and you slip to a neighbouring room; otherwise you are
**busted**: keep one card and your keys, lose the rest, and break in again next
turn. Each Guard in your room finds you in turn. Nobody is caught in the Gents or
the Ladies."""

_ITEMS = """\
- **Disable**: remove a Camera that sees you.
- **Lure**: move a Guard or thief next to you one room (the Ventriloquist: up to 3).
- **Take Down**: a Guard that found you leaves the game; you get its key.
- **Booby Trap**: set in a free neighbouring room while moving; a Guard walking in
  is knocked out and leaves a key; a thief walking in loses a random card.

The Control Room disables any Camera, the Security Room moves any Guard a room,
the Gift Shop gives an extra draw: once a turn each, if you start or pass there."""

_ENDING = """\
The game stops at once on the 4th Clock (2 players), 5th (3) or 6th (4). Thieves
still inside roll one die per room to the nearest exit (and per Guard and trap on
the way): each 0, 1 or 2 costs a card. Your Take: Loot and Treasures in hand, your
stashed card, $2M per piece your Buyer wants. Items break a tie."""

TOPICS = MappingProxyType(
    {
        "overview": _OVERVIEW,
        "actions": _ACTIONS,
        "guards": _GUARDS,
        "items": _ITEMS,
        "ending": _ENDING,
    }
)
