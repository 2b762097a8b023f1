"""Master Thief's rules for players, by topic (what ``rules`` shows in a terminal).

Short topics for someone at their first game; the facts are the rules' own
(``rules.py``, ``cards.py``), the full page is ``docs/titles/masterthief/index.md``.
"""

from __future__ import annotations

from types import MappingProxyType

_OVERVIEW = """\
**Everyone robs the same museum. The most Black Market Credits (BMC) wins.**

You hold a secret hand of **Thief Cards** and a secret **Calling Card**, which
gives +2 BMC for each item of its two categories you finish with. The **Museum**
is a face-down pile of items, Charmed Items and Security.

Each turn: **steal** the top Museum card (draw the Thief Cards it shows), play
Thief Cards, then come down to 4 cards and 4 Carried items and **stay** or
**escape**. Escape with everything you have; if the game ends while you are inside
you are caught and keep only your **Stashed** items.

Topics: `rules actions`, `rules cards`, `rules answers`, `rules security`,
`rules ending`."""

_ACTIONS = """\
Type an action as the menu writes it, or its start (`swipe 2 ruby`). In the list,
SEAT is a seat number, ITEM an item's name and CARD a Thief Card's name:

- `steal`: take the top Museum card (the Heist, each turn's start, a tie-break).
- `swipe SEAT ITEM`: play Swipe, take that Carried item from Seat SEAT.
- `stash ITEM`: play Stash, turn your Carried item face down.
- `raid SEAT`: play Raid, take a random Stashed item from Seat SEAT.
- `trip SEAT ITEM`: play Trip, Seat SEAT drops that item into the Museum.
- `snoop SEAT`: play Snoop, see Seat SEAT's Calling Card (only you see it).
- `lift`: play Lift, steal one more Museum card.
- `play CARD`: put a Utility face up until your next turn.
- `grip`: stop the Swipe, Raid or Trip aimed at you.
- `latch`: stop the escape under way.
- `pass`: let it go (no Reaction, no item surrendered).
- `surrender ITEM`: give up a Carried item to avert the Security.
- `vote abandon`: the Jury of Thieves: abandon the Heist that rang an alarm.
- `vote continue`: the Jury of Thieves: go on with the Heist.
- `end turn`: stop playing cards.
- `discard CARD`: come down to the hand limit.
- `drop ITEM`: come down to the carrying limit.
- `stay`: the turn is over; you stay inside.
- `escape`: show your Calling Card and leave with everything."""

_CARDS = """\
- **Actions** (Swipe, Stash, Raid, Trip, Snoop, Lift): your turn only, never two
  of the same title in one turn.
- **Reactions** (Grip, Latch): only on other thieves' turns, as many as you like.
- **Utilities** (Smoke Pellet, Deep Pockets, Getaway Car): stay face up until your
  next turn begins.
- **Charmed Items** work only while Carried: The Scream (4 Strikes end the game),
  Amber (hand limit 5), Golden Scarab (carry 5), Sabre-Tooth Fang (draw 1 more),
  Mask of Many Faces (2 of a title per turn), Marble Cherub (avert with anything)."""

_ANSWERS = """\
When a Swipe, Raid or Trip is aimed at you, you are asked: `grip` stops it,
`pass` lets it happen. When someone escapes, every other thief inside with cards
is asked: one `latch` keeps them in. You are asked even without the card, so the
question gives nothing away; answers stay secret until everyone has answered."""

_SECURITY = """\
Stealing Security ends your turn. Starting with you and going the other way round
the table, thieves carrying an item of its category may `surrender` one: item and
Security go back into the Museum. Otherwise it is a **Strike**. The third Strike
ends the game at once; in the opening Heist the Jury of Thieves first votes
whether to start the deal over instead (a majority must `vote abandon`)."""

_ENDING = """\
The game ends when everyone is out, at the third Strike, or when a steal needs more
Thief Cards than the deck holds. Thieves still inside are caught: only their
stash counts. The last thief inside gets one more turn, then must escape. Ties:
the tied thieves steal once more at the same time, and the richer card wins."""

#: Topic -> text; the first is the overview, ``actions`` explains each choice.
TOPICS = MappingProxyType(
    {
        "overview": _OVERVIEW,
        "actions": _ACTIONS,
        "cards": _CARDS,
        "answers": _ANSWERS,
        "security": _SECURITY,
        "ending": _ENDING,
    }
)
