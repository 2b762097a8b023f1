"""The House Job's rules for players, by topic (what ``rules`` shows in a terminal and
the rules panel in the browser).

Short topics for a first job. The figures come from the rules' own constants and the
roles topic is built from the role and card tables in ``roles.py``, the texts the
player cards show, so the two cannot disagree. The full rules are the documentation
page ``docs/titles/house/index.md``; the project's readings of them, ``rulings.md``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from .roles import ABILITIES, ROLES, TIMING_TEXT
from .state import MIN_BET, OPENING_TAKE, TABLE_MAX

_OVERVIEW = f"""\
**A crew of two to four against the house, one deck, one shared pile of chips.**

The crew plays blackjack together. Every bet comes from the **Take**, one pile of
chips the whole crew shares ({OPENING_TAKE:,} to start), and every win goes back
to it: nobody has chips of their own, and the crew wins or loses together.

- Each seat drafts a **role**: three single-use ability cards and a passive that
  is always on.
- The job is one pass through one 52-card deck, never reshuffled between rounds.
  When the deck can no longer deal a round, the job ends. If a round's own hits
  run it dry, the discard is shuffled back in so that round can finish, and that
  round is the job's last (`rules ending`).
- The crew **takes the house** if the Take ends above where it opened.

Topics: `rules actions`, `rules round`, `rules roles`, `rules levers`,
`rules payouts`, `rules ending`, `rules table`."""

_ACTIONS = f"""\
What each choice in the menu means.

- `draft ROLE`: take ROLE for the whole job (`rules roles` says what each does).
- `+10`: push 10 chips from the Take onto your box (`+10 extra`: onto your Extra Box).
- `+50`: push 50 chips onto your box.
- `+100`: push 100 chips onto your box; one box holds at most {TABLE_MAX}.
- `deal`: Deal me in, the end of your betting turn (with at least {MIN_BET} on your box).
- `mark BOX`: as the caller, make box BOX the Mark: it pays 2:1 and loses double.
- `no mark`: at The Call's pause, leave every box unmarked.
- `heavy`: as the caller, call the Heavy (once a job): every bet counts double.
- `hit`: take another card.
- `stand`: keep your total; your hand is done.
- `double`: double your bet, take exactly one more card and stand.
- `split`: split a pair into two hands, each with its own bet.
- `cold feet`: walk the hand out for half its bet back (only with a Ghost at the table).
- `play CARD`: play one of your ability cards. A card with a target names it:
  `box N` a box, `card N` a card in it (counted from 1, left to right), `mine N` one
  of your own cards (Palm), `for N` the chips (Back the Play). The table numbers
  the cards when you hold such a card.
- `next`: Next round; whoever presses it calls the new round and bets first."""

_ROUND = f"""\
A round goes the same way every time.

1. **Bet.** The caller bets first, then round the table. Push chips from the Take
   onto your box (at least {MIN_BET}, at most {TABLE_MAX}), play any cards that go
   before the deal, then `deal`. A seat the Take can't cover sits the round out.
2. **Deal.** Every box gets two cards face up; the house gets one face up and a
   **hole card** face down. If the house has blackjack it shows it at once and the
   round is over.
3. **Play.** Seat by seat: `hit`, `stand`, `double`, `split`, `cold feet` and your
   ability cards. Over 21 is a bust; 21 stands by itself.
4. **The house plays.** It turns the hole card and draws to 17 or more, but only
   when some hand still stands against it.
5. **Settle.** Every hand against the house's final hand; chips go to or from the
   Take. The results stay on the table until the next deal.
6. **Next round.** The seat after the caller presses `next` and calls the new round."""


def _roles() -> str:
    parts = [
        "Every role has a **passive**, always on, and three **ability cards**, each "
        "played once a job. When a card may be played:",
        "",
        *[f"- {text}" for text in TIMING_TEXT.values()],
    ]
    for role in ROLES.values():
        parts += [
            "",
            f"**The {role.name}**: {role.passive_name} (passive). {role.passive_text}",
            "",
        ]
        for card in role.cards:
            info = ABILITIES[card]
            parts.append(f"- **{info.name}** ({TIMING_TEXT[info.timing]}): {info.text}")
    return "\n".join(parts)


_LEVERS = """\
Two levers cost no card. Only the round's **caller** uses them, on their betting turn.

- **The Mark** (once a round): one box pays **2:1** on a win (**3:1** with the
  Bagman's Double Bag) and loses **double**. With the Lookout's The Call, the deal
  also stops after the first cards so the caller may Mark a box then.
- **The Heavy** (once a job): every bet counts **double**, win or lose, this round.
  With the Mark, the Heavy doubles first and the Mark applies on top.

The crew never owes the house: the extra losses stop when the Take is empty."""

_PAYOUTS = """\
Each hand against the house's final hand:

- **Blackjack** (an ace and a ten-card in the deal): pays 3:2, a push if the house
  has one too. A 21 made any other way is a plain 21.
- **Win** (higher, or the house busts): pays even money.
- **Push** (the same total): the bet comes back.
- **Loss** (lower, or the house has blackjack): the bet is lost.
- **Bust** (over 21): the bet is lost, even when the house busts as well.
- **Cold feet**: half the bet comes back, rounded down.

The settlement lines read box, total, result, chips: `Crew 2 20 WIN +50`. The chips
are what the hand moved beyond the bet it had already put in. Other history lines
name every card drawn: `Crew 2 hits 10♦ to 26 — bust`, `The house draws Q♣ 3♠ to
25 — bust`, `Crew 1 is dealt a blackjack (K♠ A♥)`."""

_ENDING = f"""\
- **The deck runs out.** When the deck can't deal another round (two cards a box
  and two for the house), pressing `next` ends the job.
- **The deck runs dry mid-round.** When a hit, a double or the house's draw needs a
  card and none is left, the discard is shuffled back in as a new deck (the table
  then shows `Deck 42 cards`, say, with `LAST ROUND`); the round plays out and is
  the job's last: the next `next` ends the job.
- **Broke.** A Take under {MIN_BET} after a round ends the job at once.

Either way the score is the Take: above where it opened, the crew took the house."""

#: What the table shows, as (mark, meaning): the marks the terminal draws, which the
#: browser's legend (``web/house.js``, ``LEGEND``) and the docs page ("Reading the
#: table") list in the same words; tests keep the three equal.
SYMBOLS: Final = (
    ("▒▒", "the house's hole card, face down (a striped card in the browser)"),
    ("soft", "a total that counts an ace as 11"),
    ("MARK", "the Mark's box: pays 2:1 (3:1 with Double Bag), loses double"),
    ("Vanish, Short Change", "a card covering that box this round"),
    ("backed", "chips Back the Play put on a box, beside its own bet"),
    ("PLAY NOW", "a card of yours you may play this instant; a greyed card says why not"),
    ("⏳ Pending", "set up this round, fires later"),
    (
        "[1] [2]",
        "cards a play may name, numbered in the terminal; the browser's buttons name them",
    ),
    ("The Count", "tens and aces among the unseen cards: RICH, EVEN, THIN, SPENT"),
    ("The Tell", "HIGH: the hole card is 7 to king or an ace; LOW: 2 to 6"),
    ("Crew 2", "the box of seat 2; the Extra Box is one past the last seat"),
)

_TABLE = "How the table is drawn, in the terminal and in the browser:\n\n" + "\n".join(
    f"- `{mark}`: {meaning}." for mark, meaning in SYMBOLS
)

#: Topic -> text; the first is the overview, ``actions`` explains each choice.
TOPICS: Final = MappingProxyType(
    {
        "overview": _OVERVIEW,
        "actions": _ACTIONS,
        "round": _ROUND,
        "roles": _roles(),
        "levers": _LEVERS,
        "payouts": _PAYOUTS,
        "ending": _ENDING,
        "table": _TABLE,
    }
)
