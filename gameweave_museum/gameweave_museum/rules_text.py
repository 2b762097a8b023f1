"""The Museum Job's rules for players, by topic (what ``rules`` shows in a terminal).

Written for someone at their first game: short topics, each answering one
question a newcomer asks ("what can a guard see?", "why did the alarm go off?").
The facts are the rules' own (``rules.py``, ``sight.py``); the full rulebook is
the documentation page ``docs/titles/museum/index.md``.
"""

from __future__ import annotations

from types import MappingProxyType

_OVERVIEW = """\
**One Thief against the night watch of the Quayside Palace.**

Seat 1 is the **Thief**, playing in secret. Every other seat is **Security**, one
team sharing three guards (G1, G2, G3), seven cameras and the monitors in the
Security Office (`::` on the map).

- The Thief wins by leaving through an open exit carrying loot worth **4 or more**.
- Security wins by ending a guard's move on the Thief's square, or by keeping the
  Thief inside until **dawn** (18 rounds).

Each round the Thief acts once, then the guards move one after another. Security
never sees the Thief: it only learns what its guards and cameras catch, and every
such clue stays on the map as evidence.

Topics: `rules actions`, `rules moving`, `rules guards`, `rules cameras`,
`rules crown`, `rules cuts`, `rules exits`, `rules dawn`, `rules evidence`,
`rules map`."""

_ACTIONS = """\
What each choice in the menu means (SQUARE is a square such as `K7`, EXIT the
square of an exit, GUARD a guard's number, SEAT a seat's).

The Thief, once per round:

- `enter EXIT`: your first move: break in through the exit on EXIT, which stays open.
- `walk SQUARE`: move to SQUARE, up to 4 steps away (2 while carrying anything heavy).
- `walk SQUARE cut`: walk to SQUARE, then cut the camera or breaker there.
- `walk SQUARE escape`: walk onto the open exit on SQUARE and leave (loot worth 4 or more).
- `hold`: stay where you are and do nothing.
- `lift`: take the piece from the case you are standing on.
- `pick`: open the locked exit you are standing on.
- `cut`: cut the camera or breaker you are standing on.
- `escape`: leave through the open exit you are standing on (loot worth 4+).

Security:

- `post GUARD SQUARE seat SEAT`: before the heist, put guard GUARD on the post at
  SQUARE, run by seat SEAT.
- `guard GUARD SQUARE`: move guard GUARD to SQUARE, up to 3 steps away (staying put
  counts as a move). When a guard is asked for, the square alone (`D4`) is enough."""

_MOVING = """\
Steps are counted square by square, sideways or up and down (never diagonally),
around walls (`##`): nobody walks through them.

- The Thief walks up to **4 steps** a round, and never onto or through a guard.
- **Heavy** pieces (the two crowns, the tapestry and the bronze ferryman) slow the
  Thief to **2 steps** a round from the moment one is in the satchel. The
  placards under the map say which pieces are heavy.
- A guard moves up to **3 steps**. A guard that ends its move on the Thief's square
  catches them; walking past or through that square catches nobody."""

_GUARDS = """\
A guard sees along its own row and its own column, as far as the first wall.

- After each guard's move, if the Thief stands anywhere in that line of sight, the
  Thief is **spotted**: Security learns the square (a `?` Last Seen mark).
- The Thief is also checked at the end of each Thief turn, against every guard.
- A guard standing on an open exit locks it again; on a cut camera, repairs it;
  on a dark breaker, switches it back on. The cut then goes on the map as evidence.
- A guard that can see an empty case brings the theft to light.
- A guard standing in the Security Office (`::`) watches the monitors: see
  `rules cameras`."""

_CAMERAS = """\
Each camera (`c1` to `c7`) covers up to five squares along its row and column,
stopping at walls; never the square it hangs on.

Cameras only matter while **someone watches the monitors**, that is while a guard
stands in the Security Office. Then:

- a working camera that covers the Thief's square spots the Thief;
- a camera that was cut, or a wing whose breaker is off, shows as a dead feed and
  goes on the map as evidence;
- an empty case a working camera covers is noticed.

On your screen, the squares the monitors are watching right now are marked with
`+` (and shaded, where colours are shown). With nobody in the Office the cameras
record nothing at all."""

_CROWN = """\
The two crowns sit in the vault cases (`V`) of the North wing, worth 4 and 3.

The vault has its own alarm, powered by the **North wing's breaker**. Lift a crown
while that breaker is on and the alarm goes off at once: Security learns the
vault was robbed and sees the Thief standing at it (Spotted, whoever watches).

Cut the North breaker first and the vault stays silent. A guard who switches the
breaker back on restores the alarm. The crowns are heavy, too: see `rules moving`."""

_CUTS = """\
The Thief can cut a **camera** or a **breaker** by standing on it (`cut`), or at
the end of a walk (`walk K7 cut`).

- A cut camera stops covering its squares.
- A cut breaker blacks out its wing: every camera in that wing goes blind. The
  North breaker also powers the vault alarm (see `rules crown`).

Cutting is quiet, but not secret for ever: a guard who ends a move on the camera
or breaker repairs it and reveals the cut, and the monitors show a dead feed as
soon as someone watches them. If the monitors see a feed die in the very round it
was cut, the Thief is still standing there and is spotted."""

_EXITS = """\
The palace has seven exits: three doors (`D`), three windows (`W`) and a
skylight (`S`). All are locked when the night begins.

- The Thief chooses one in secret and forces it open to get in; it stays open.
- `pick` opens another locked exit the Thief stands on.
- To win, the Thief walks onto an open exit carrying loot worth **4 or more** and
  escapes (`walk A8 escape`, or `escape` when already there).
- A guard who stands on an open exit locks it and leaves a Forced Exit mark, so
  Security learns where the Thief got in or meant to get out."""

_DAWN = """\
The night lasts **18 rounds**; the dawn track in the header counts down.

When the eighteenth round ends with the Thief still inside, Security wins. The
Thief needs time to reach the loot and then an open exit, slowed by anything
heavy, so plan the way out before the way in.

When the night ends, whoever won, every seat sees everything the Thief did: the
way in, the route, the satchel and the cuts."""

_EVIDENCE = """\
Security never sees the Thief, only clues, and keeps every clue on the map:

- **Last Seen** `?`: where and when the Thief was spotted, and by what.
- **Empty frame** `x`: a case found empty, with the round its piece went.
- **Cut camera** and **dark breaker**: with the rounds the cut could have happened in.
- **Alarm**: the vault alarm went off.
- **Forced Exit**: an exit a guard found open.

A lift is not noticed at once: the case looks full until the end of the Thief's
next turn, unless a guard or a watched camera sees it empty sooner."""

_MAP = """\
How to read the map (columns A to T, rows 1 to 14; a square is named like `K7`):

- `G1` `G2` `G3`: the guards. `@`: you, on the Thief's screen only.
- `?`: where the Thief was last seen. `c1` to `c7`: cameras.
- `V`: a vault case (a crown). `C`: a display case. `x`: an empty frame.
- `B`: a breaker. `P`: a guard post. `D`, `W`, `S`: door, window, skylight.
- `::`: the Security Office. `##`: a wall. `.`: floor.
- `+` (after a symbol, or alone on the floor): a square the monitors watch now."""

#: Topic -> text; the first is the overview, ``actions`` explains each choice.
TOPICS = MappingProxyType(
    {
        "overview": _OVERVIEW,
        "actions": _ACTIONS,
        "moving": _MOVING,
        "guards": _GUARDS,
        "cameras": _CAMERAS,
        "crown": _CROWN,
        "cuts": _CUTS,
        "exits": _EXITS,
        "dawn": _DAWN,
        "evidence": _EVIDENCE,
        "map": _MAP,
    }
)
