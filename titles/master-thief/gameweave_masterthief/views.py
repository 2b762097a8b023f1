"""What each seat of Master Thief may know: the views are allow-lists.

Public: the Museum's size, the Thief deck's size, the face-up discard pile, every
Carried and Stashed item (everyone sees an item stolen and turned face down), the
Utilities in play, hand sizes, Strikes, revealed Calling Cards, who has answered a
window or voted. Private to a seat: its hand, its Calling Card, the Calling Cards
it has Snooped, its own answer or vote while others still decide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from gameweave_core import Bag, Bool, IntRange, ListOf, MapOf, Maybe, OneOf, Record, Schema
from gameweave_core.reactions import PASS

from . import charms
from .actions import CARD_NAMES, ITEM_NAMES, UTILITY_NAMES
from .cards import (
    ACTION,
    ALARM,
    CALLING_BONUS,
    CALLING_CARDS,
    MUSEUM,
    MUSEUM_CARDS,
    THIEF_CARDS,
    UTILITY,
    thief_deck,
)
from .rules import awaiting, knows_calling
from .state import (
    AVERT,
    CARRY_LIMIT,
    CAUGHT,
    CLEANUP,
    ESCAPED,
    HAND_LIMIT,
    HEIST,
    IN,
    JURY,
    LEAVE,
    MAX_RESTARTS,
    OVER,
    OVERFLOW,
    PLAY,
    REACT,
    STEAL,
    STRIKES_TO_END,
    TIEBREAK,
    State,
)


def item(name: str) -> dict[str, Any]:
    card = MUSEUM[name]
    return {
        "name": name,
        "kind": card.kind,
        "category": card.category,
        "bmc": card.bmc,
        "draw": card.draw,
    }


def seat_view(state: State, who: int | None, s: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": s,
        "status": state.status[s - 1],
        "hand": len(state.hands[s - 1]),
        "carried": [item(i) for i in state.carried[s - 1]],
        "stashed": [item(i) for i in state.stashed[s - 1]],
        "utilities": list(state.utilities[s - 1]),
        # Whose Calling Card the seat has Snooped: played in the open, kept in sight.
        "snooped": list(state.snooped[s - 1]),
        "carry_limit": charms.carry_limit(state, s),
        "hand_limit": charms.hand_limit(state, s),
    }
    if (who is not None and knows_calling(state, who, s)) or state.revealed[s - 1]:
        out["calling"] = state.calling[s - 1]
    if state.caught_with and state.caught_with[s - 1]:
        # What a thief caught at the end dropped back into the Museum, as all saw it.
        out["caught_with"] = [item(i) for i in state.caught_with[s - 1]]
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """All that ``seat`` (``None``: a spectator) may know, built up field by field."""
    out: dict[str, Any] = {
        "players": state.players,
        "phase": state.phase,
        "turn": state.turn,
        "turns": state.turns,
        "awaiting": list(awaiting(state)),
        "museum": len(state.museum),
        "deck": len(state.deck),
        "discard": dict(sorted(Counter(state.discard).items())),
        "strikes": list(state.strikes),
        "strikes_to_end": charms.strikes_to_end(state),
        "played": list(state.played),
        "seats": [seat_view(state, seat, s) for s in range(1, state.players + 1)],
        "restarts": state.restarts,
    }
    for flag in ("last_turn", "final_turn", "alarmed"):
        if getattr(state, flag):
            out[flag] = True
    if state.jury_result:
        out["jury"] = state.jury_result
    if state.heist_in:
        out["heist_in"] = list(state.heist_in)
    if state.alarms:
        puller, security = state.alarms[0]
        out["security"] = {"card": item(security), "pulled_by": puller}
    window = state.window
    if window is not None:
        out["window"] = {
            "trigger": window.trigger,
            "actor": window.actor,
            "asked": list(window.order),
            "answered": sorted(window.answers),
            **{k: v for k, v in sorted(window.context.items()) if v != ""},
        }
        if seat is not None and seat in window.answers:
            out["window"]["mine"] = window.answers[seat]
    if state.votes:
        out["voted"] = sorted(state.votes)
        if seat is not None and seat in state.votes:
            out["my_vote"] = state.votes[seat]
    if state.tied:
        out["tied"] = list(state.tied)
        out["tie_in"] = list(state.tie_in)
        if state.tie_steals:
            out["tie_steals"] = {str(s): c for s, c in sorted(state.tie_steals.items())}
    if state.ended:
        out["scores"] = list(state.scores)
        out["ended"] = state.ended
    if state.phase == OVER:
        out["winners"] = list(state.winners)
    if seat is not None:
        out["you"] = seat
        out["hand"] = list(state.hands[seat - 1])
        out["calling"] = state.calling[seat - 1]
    return out


def seat_label(state: State, seat: int) -> str:
    """How people call a seat: the same for everyone, whatever the state."""
    return f"Seat {seat}"


def has_secrets(state: State, seat: int) -> bool:
    """Every thief has a hand and a Calling Card to hide."""
    return True


# -- the views' shape, for the core's observation encoder -----------------------------

#: Every phase, as the view names it.
PHASES = (HEIST, AVERT, JURY, STEAL, PLAY, REACT, OVERFLOW, CLEANUP, LEAVE, TIEBREAK, OVER)
#: What opens a reaction window (``window.trigger``).
TRIGGERS = ("security", "swipe", "raid", "trip", "escape")
#: How a game ends (``ended``).
ENDINGS = ("strikes", "time", "escapes")
#: A bound on the turns of a match: each turn takes an action, and a match ends
#: within ``MasterThief.max_actions`` (6000) actions (the kit checks both).
MAX_TURNS = 6000
#: The most a thief can hold in hand: the hand limit (5 with Amber) at the end of
#: its last turn, then 4 from the turn's steal (3 and Sabre-Tooth Fang's 1) and 3
#: more from each of two Lifts (Mask of Many Faces), a Lift itself spent. Cards come
#: into a hand on no other seat's turn. The schema leaves room above that.
MAX_HAND = 20
#: The most copies of one Thief Card title (a hand holds no more of one).
MAX_COPIES = max(c.copies for c in THIEF_CARDS)
#: Thief Cards played in a turn: Actions and Utilities, each title twice at most.
PLAYABLE = tuple(c.name for c in THIEF_CARDS if c.kind in (ACTION, UTILITY))
#: The most Black Market Credits a thief can score: every item kept, each of its
#: Calling Card's two categories paying the bonus on its 5 items.
MAX_SCORE = sum(c.bmc for c in MUSEUM_CARDS) + CALLING_BONUS * 2 * 5


def jury_sentences(players: int) -> tuple[str, ...]:
    """Every way the view's ``jury`` line can read: the Heist abandoned on three
    Strikes, or the Jury's verdict with its tally (every thief votes: all are still
    in the Museum in the Heist). Its wording is the rules'; the tests play it."""
    abandon = [y for y in range(players + 1) if 2 * y > players]
    go_on = [y for y in range(players + 1) if 2 * y <= players]
    return (
        "Three Strikes in the Heist: the heist is abandoned and started over",
        *(f"The Jury abandons the Heist ({y} of {players} vote to abandon)" for y in abandon),
        *(f"The Jury goes on with the Heist ({y} of {players} vote to abandon)" for y in go_on),
    )


def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
    """The shape of every view of a ``players``-seat match, for the core's encoder.

    Lists the rules keep sorted (a hand, the Stashed items, who has answered) are
    bags: counts per value, nothing lost. The Carried items, the Utilities in play
    and the cards played this turn come in the order they came, which no rule
    reads: they are bags too (items are unique, so a bag is the set). Lists whose
    order matters (Strikes, who is asked in turn) keep their order.
    """
    seat = IntRange(1, players, one_hot=True)
    seat_set = Bag(range(1, players + 1), max_count=1)
    # An item as the view shows it: its name and card data (a whole card is one value).
    items = Bag([item(name) for name in ITEM_NAMES], max_count=1)
    securities = [c.name for c in MUSEUM_CARDS if c.kind == ALARM]
    callings = OneOf([c.name for c in CALLING_CARDS])
    per_seat = Record(
        seat=seat,
        status=OneOf((IN, ESCAPED, CAUGHT)),
        hand=IntRange(0, MAX_HAND),
        carried=items,
        stashed=items,
        utilities=Bag(UTILITY_NAMES, max_count=2),
        snooped=seat_set,
        carry_limit=IntRange(CARRY_LIMIT, CARRY_LIMIT + 2),
        hand_limit=IntRange(HAND_LIMIT, HAND_LIMIT + 1),
        calling=Maybe(callings),
        caught_with=Maybe(items),
    )
    window = Record(
        trigger=OneOf(TRIGGERS),
        actor=seat,
        asked=ListOf(seat, max_len=players),
        answered=seat_set,
        target=Maybe(seat),
        item=Maybe(OneOf(ITEM_NAMES)),
        security=Maybe(OneOf(securities)),
        # A seat's own answer: a pass, a Reaction, or the item it surrendered.
        mine=Maybe(OneOf((PASS, "Grip", "Latch", *ITEM_NAMES))),
    )
    return Record(
        players=IntRange(2, 6),
        phase=OneOf(PHASES),
        turn=seat,
        turns=IntRange(0, MAX_TURNS),
        awaiting=seat_set,
        museum=IntRange(0, len(MUSEUM_CARDS)),
        deck=IntRange(0, len(thief_deck())),
        discard=MapOf(CARD_NAMES, value=IntRange(1, MAX_COPIES)),
        strikes=ListOf(OneOf(securities), max_len=STRIKES_TO_END + 1),
        strikes_to_end=IntRange(STRIKES_TO_END, STRIKES_TO_END + 1),
        played=Bag(PLAYABLE, max_count=2),
        seats=ListOf(per_seat, length=players),
        restarts=IntRange(0, MAX_RESTARTS),
        last_turn=Maybe(Bool()),
        final_turn=Maybe(Bool()),
        alarmed=Maybe(Bool()),
        jury=Maybe(OneOf(jury_sentences(players))),
        heist_in=Maybe(seat_set),
        security=Maybe(Record(card=OneOf([item(name) for name in securities]), pulled_by=seat)),
        window=Maybe(window),
        voted=Maybe(seat_set),
        my_vote=Maybe(Bool()),
        tied=Maybe(seat_set),
        tie_in=Maybe(seat_set),
        tie_steals=Maybe(
            MapOf(
                [str(s) for s in range(1, players + 1)],
                value=OneOf(list(MUSEUM)),
            )
        ),
        scores=Maybe(ListOf(IntRange(0, MAX_SCORE), length=players)),
        ended=Maybe(OneOf(ENDINGS)),
        winners=Maybe(seat_set),
        you=Maybe(seat),
        hand=Maybe(Bag(CARD_NAMES, max_count=MAX_COPIES)),
        calling=Maybe(callings),
    )
