"""Museum Heist's rules for players, by topic: what ``rules`` shows in a terminal
(and ``gameweave rules museumheist``), and the browser's rules panel.

Short topics for a first game, in the project's own words; the facts are the
rules' own (``rules.py``, ``movement.py``, ``board.py``), the full page is
``docs/titles/museumheist/index.md`` with its rulings.
"""

from __future__ import annotations

from types import MappingProxyType

_OVERVIEW = """\
**Seven suspects walk the gallery. Each round you are secretly one of them.**

Seven pieces stand on an 8 x 8 board (columns `A` to `H`, rows `1` to `8`): the
Artist, the Duchess, the Tourist, the School Girl, the Guard, the Granny and the
Little Boy. Each round an Artwork token (`*` on the board) goes on a free square,
and every player picks one of the seven characters in secret.

On your turn, do one thing: **move** any piece closer to the Artwork, **challenge**
a player by naming their character, or spend a **Swap** token. Bring your own
character onto the Artwork without giving yourself away, and unmask the others
by watching who moves what.

The first to hold 3 Artwork tokens wins the game (4 with two players).

Topics: `rules actions`, `rules moving`, `rules passages`, `rules challenges`,
`rules winning`, `rules rounds`."""

_ACTIONS = """\
What each choice in the menu means (a piece is named by a word of its name or its
board letter: `guard`, `granny`, `G`, `N`).

- `choose CHARACTER`: at the start of a round, take CHARACTER as your secret identity.
- `place SQUARE`: put the round's Artwork on SQUARE (the winner's neighbour does).
- `move PIECE SQUARE`: move PIECE to SQUARE, ending closer to the Artwork.
- `challenge SEAT CHARACTER`: say that seat SEAT is CHARACTER. Wrong, and you are
  out of the round.
- `swap PIECE PIECE`: spend a Swap token (two a game): the two pieces trade squares.

Shorter forms work too: a piece and a square (`guard E5`), a square alone when
only one piece may go there (`E5`), a piece alone when it has one move (`guard`)."""

_MOVING = """\
A move takes **any** of the seven pieces, not only yours, and must leave it
**closer to the Artwork** than it started, as the crow flies: one square
diagonally counts as farther than one square straight.

- **A step**: to a free square next to the piece, in any of eight directions.
- **Jumps**: over a piece right next to it onto the free square just behind, and
  on from there, in any directions. Only where the jumps end has to be closer.
- A move may end on a Secret Passage and go on through it: see `rules passages`.
- Moving another piece onto the Artwork is allowed: it wins nothing, and it
  tells everyone you are not that character."""

_PASSAGES = """\
The four Secret Passages (`@` on the board) are at B2, G2, B7 and G7.

- A piece that lands on a passage, by a step or at the end of its jumps, may go
  straight on to any other free passage, or stay where it landed.
- A piece that stood on a passage when the round began, and has not moved since,
  may use the passage as its whole move.
- Either way, the move must still end closer to the Artwork."""

_CHALLENGES = """\
On your turn you may name another player still in the round and a character.

- **Right**: they show their card to everyone, and you take the Artwork.
- **Wrong**: they show their card to you alone, and you are **out of the round**:
  skipped until it ends, and nobody may challenge you.
- If that leaves one player in the round, that player takes the Artwork.

What a wrong challenge rules out is public (the board's `not:` line): the
challenged player is not the character named."""

_WINNING = """\
Move **your own** character onto the Artwork and you show your card; so does
every other player still in the round who chose the same character.

- Nobody else has it: you take the Artwork.
- Exactly one other player has it: **they** take it.
- Two or more others have it: you take it after all.

A round also ends with a right challenge, or when one player is left in it. The
first to hold 3 Artwork tokens wins the game; with two players, 4."""

_ROUNDS = """\
- Everyone holds the same seven character cards and two Swap tokens, which must
  last the whole game.
- Seat 1 starts the first round; after that, whoever won the last round starts.
  Turns go round the table in seat order.
- Between rounds the pieces stay where they are and the cards go back unseen.
  The seat before the winner in turn order places the new Artwork on a free square
  that touches no piece and is not a passage; then everyone chooses again.
- Cards nobody was shown stay secret, even after the round."""

#: Topic -> text; the first is the overview, ``actions`` explains each choice.
TOPICS = MappingProxyType(
    {
        "overview": _OVERVIEW,
        "actions": _ACTIONS,
        "moving": _MOVING,
        "passages": _PASSAGES,
        "challenges": _CHALLENGES,
        "winning": _WINNING,
        "rounds": _ROUNDS,
    }
)
