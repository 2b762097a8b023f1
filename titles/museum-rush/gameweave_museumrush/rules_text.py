"""Museum Rush's rules for players, by topic (what ``rules`` shows in a terminal).

Short topics for a first game; the facts are the rules' own (``rules.py``,
``cards.py``), the full page is ``docs/titles/museumrush/index.md``.
"""

from __future__ import annotations

from types import MappingProxyType

from .terminal import ABBREVIATIONS

_OVERVIEW = """\
**Break into the museum, steal, get out before the last Clock. Biggest Take wins.**

The museum is a grid of rooms 7 wide and 4 deep: columns `A` to `G` across, rows
`1` to `4` down, so rooms are named `A1` to `G4`. Red rooms hold Loot face up and
more cards face down; High Security rooms hold a Rare Treasure behind a lock code.
Guards walk towards noisy thieves.

Each turn: **draw** a Search card, **move** up to 3 rooms, make one **steal**,
then **end** the turn, or **escape** from a Way Out.

Topics: `rules actions`, `rules board`, `rules guards`, `rules items`,
`rules ending`."""

_ACTIONS = """\
Type an action as the menu writes it (a card is named by its number, which the
menu shows beside its name):

- `breakin ROOM`: put your thief on ROOM, a free edge room (at the start, or after being busted).
- `move ROOM`: step to ROOM, a neighbouring room.
- `loot`: steal the face-up Loot in your room.
- `crack`: roll 3 dice at your room's lock; matched digits get Unlock tokens.
- `rob SEAT`: try to steal a random card from Seat SEAT's thief in your room.
- `raid`: spend keys on the Vault (2) or the Lost & Found (1), then pick cards.
- `pick CARD`: take that card from the Vault or the Lost & Found.
- `done`: take no more cards.
- `lure GUARD 0 ROOM`: play a Lure: Guard GUARD moves to ROOM.
- `lure -1 SEAT ROOM`: play a Lure: Seat SEAT's thief moves to ROOM.
- `takedown`: knock out the Guard that found you and take its key.
- `disable ROOM`: play a Disable on the Camera in ROOM.
- `trap ROOM`: set a Booby Trap in ROOM, a free neighbouring room.
- `control ROOM`: from the Control Room, disable the Camera in ROOM.
- `security GUARD ROOM`: from the Security Room, move Guard GUARD to ROOM.
- `shop`: at the Gift Shop, draw one more Search card.
- `stash CARD`: hide that Loot or Treasure in your Stash room, for good.
- `usekeys`: cover the lock's missing digits with your keys.
- `keep CARD`: busted, the one card you keep (with your keys).
- `choose CARD`: the Owl's gift: the Search card you keep of the two.
- `drop CARD`: put that card down (a hand of 8 or more goes down to 7).
- `go ROOM`: slip away from the Guard to ROOM, a neighbouring room.
- `route GUARD PATH`: as the Guard mover, walk Guard GUARD along PATH (rooms joined
  by `-`).
- `place ROOM`: put the new Guard on ROOM, a room next to where it was found.
- `wayout ROOM`: put the Way Out beside ROOM (when two edges are as near).
- `pass`: play nothing (when found by a Guard: roll to slip away; when a Guard
  stops next to you after a steal: let the next card be turned).
- `end`: end your turn.
- `escape`: leave the museum from a Way Out, for good."""


def _board() -> str:
    rooms = ", ".join(f"`{code}` {name}" for name, code in ABBREVIATIONS.items())
    return f"""\
The terminal draws each room in ten characters: three letters for the room, what
lies face up on it, then who is there after a space.

- `L3`: Loot worth $3M face up. `R7`: a Rare Treasure worth $7M. `C`: a Camera.
  `-`: nothing face up.
- `#2`: a lock with 2 digits still to cover; `*`: the lock is open.
- `G1`: Guard 1, numbered as the actions name it (`G1G2`: two Guards). `T`: a Booby
  Trap. `W`: a Way Out.
- `@2`: Seat 2's thief (`@13`: Seats 1 and 3). So `ASIL1 @2` is the Asian Art room,
  Loot worth $1M, Seat 2's thief standing there.

The rooms: {rooms}."""


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
        "board": _board(),
        "guards": _GUARDS,
        "items": _ITEMS,
        "ending": _ENDING,
    }
)
