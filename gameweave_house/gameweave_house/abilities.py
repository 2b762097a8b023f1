"""The fifteen ability cards as one table of entries: for each card, every way to play
it now (its targets), why it cannot be played when it has none, and what it does.

A card's timing (``roles.ABILITIES``) and whether it is spent are checked here once
for every card; each entry only knows its own targets and effect. The rules call
:func:`add_plays` for the legal actions, :func:`why_not` for refusals and the crew's
card list, and :func:`play_card` to carry a play out.
"""

from __future__ import annotations

from typing import ClassVar, Final

from gameweave_core import Event, Rng

from .actions import Ability
from .cards import label, labels, points
from .deck import draw, turn_up
from .history import box_id_name, box_name, crew, describe, line
from .roles import ABILITIES, BEFORE_DEAL, DEALT, ROLES
from .state import BET, CALL, DRAFT, MIN_BET, OVER, PLAY, Box, Hand, State

#: Amounts Back the Play offers (and the whole Take, for going all-in).
BACKING_STEPS: Final = (10, 50, 100, 250, 500, 1000)


#: Each card played with no target (Long Glass, Alibi...).
PLAIN: Final = {card: Ability(card) for card in ABILITIES}
#: Each card played on a box alone (Vanish, Short Change), by box id: the seats 1 to
#: 4 and the Extra Box at most 5. Cheaper than the cache below (no key to build).
ON_BOX: Final = {card: tuple(Ability(card, box) for box in range(6)) for card in ABILITIES}
#: How many plays with a target the cache keeps before it starts afresh (Back the
#: Play's amounts follow the Take).
PLAYS_KEPT: Final = 20_000
_PLAYS: Final[dict[tuple[str, int | None, int | None, int | None, int | None], Ability]] = {}


def play(
    card: str,
    box: int | None = None,
    index: int | None = None,
    mine: int | None = None,
    amount: int | None = None,
) -> Ability:
    """The action playing ``card`` so. Legal actions are listed after every step and
    the same plays recur, so equal plays share one (immutable) object."""
    if index is None and amount is None:
        if box is None:
            return PLAIN[card]
        if mine is None:
            return ON_BOX[card][box]
    key = (card, box, index, mine, amount)
    act = _PLAYS.get(key)
    if act is None:
        if len(_PLAYS) >= PLAYS_KEPT:
            _PLAYS.clear()
        act = _PLAYS[key] = Ability(card, box, index, mine, amount)
    return act


# -- what a bust and a changed hand set off -----------------------------------------------


def bust(state: State, box: Box, hand: Hand) -> list[Event]:
    """``hand`` busts: Vanish saves its bet, and the Sleight's Palmed turns the next
    face-down deck card up when the hand is the Sleight's own."""
    hand.bust = hand.done = True
    if box.id in state.vanish:
        hand.saved = True
    if not box.extra and state.role_of(box.seat) == "sleight" and state.face_down > 0:
        card = turn_up(state, 1)
        return [line(f"Palmed — the next deck card turns face up: {labels(card)}")]
    return []


def after_change(state: State, box: Box, hand: Hand, name: str) -> list[Event]:
    """A hand's cards changed by an ability: bust over 21, stand on 21."""
    p = hand.points
    if p > 21:
        return [line(f"{name} is over 21 at {p} — bust"), *bust(state, box, hand)]
    if p == 21 and not hand.done:
        hand.done = True
        return [line(f"{name} reaches 21 and stands")]
    return []


def open_boxes(state: State) -> list[int]:
    """Boxes a card may name while betting: every seat not sitting out, and the
    Extra Box once it is open."""
    ids = [s for s in range(1, state.players + 1) if s not in state.sitting_out]
    if state.box(state.extra_id):
        ids.append(state.extra_id)
    return ids


# -- the cards ------------------------------------------------------------------------------


class Card:
    """One ability card's rules; each card below is a subclass, with one instance in
    :data:`CARDS`. (Classes rather than a table of functions: the compiled build
    calls a method of a native class directly, a function in a table through Python.)"""

    #: Why the card cannot be played when its timing allows it but it has no target.
    unplayable: ClassVar[str] = ""
    #: The fields of :class:`~gameweave_house.actions.Ability` a play of it names
    #: (``box``, ``index``, ``mine``, ``amount``); none for a card with no target.
    fields: ClassVar[tuple[str, ...]] = ()

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        """Append every way ``seat`` may play the card now to ``out`` (timing and
        spending aside: :func:`add_plays` checks those for every card)."""
        raise NotImplementedError

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        """Carry a legal play out; returns its history lines."""
        raise NotImplementedError


# -- the Lookout ---------------------------------------------------------------------------


class LongGlass(Card):
    unplayable = "no face-down cards left on the deck"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if state.face_down > 0:
            out.append(play("long_glass"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        cards = turn_up(state, 3)
        return [line(f"{crew(seat)} plays Long Glass — face up on the deck: {labels(cards)}")]


class Rooftop(Card):
    unplayable = "the hole card is already face up"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if len(state.dealer) == 2 and not state.hole_up:
            out.append(play("rooftop"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.hole_up = True
        return [
            line(
                f"{crew(seat)} plays Rooftop — the hole card is {label(state.dealer[1])}; "
                f"the house has {points(state.dealer)}"
            )
        ]


class TheCall(Card):
    unplayable = "a box is already Marked, or The Call is already in play"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if not state.mark and not state.call:
            out.append(play("the_call"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.call = True
        return [line(f"{crew(seat)} plays The Call — the deal will stop for the Mark")]


# -- the Sleight ---------------------------------------------------------------------------


class FalseCut(Card):
    unplayable = "no main box it can work on"
    fields = ("box", "index")

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        for b in state.boxes:
            if not b.extra and b.live_main:
                for i in range(len(b.main.cards)):
                    out.append(play("false_cut", box=b.id, index=i))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        box = state.box(act.box or 0)
        assert box is not None and act.index is not None
        h = box.main
        old = h.cards[act.index]
        state.discard.append(old)
        new, events = draw(state, rng)
        h.cards[act.index] = new
        target = box_name(box)
        events.append(
            line(
                f"{crew(seat)} plays False Cut on {target} — {label(old)} out, {label(new)} in: "
                f"{describe(h)}"
            )
        )
        return events + after_change(state, box, h, target)


class Palm(Card):
    unplayable = "needs your live main box and a crewmate's"
    fields = ("box", "mine", "index")

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        own = state.seat_box(seat)
        if own is None or not own.live_main:
            return
        for b in state.boxes:
            if b.seat != seat and not b.extra and b.live_main:
                for mine in range(len(own.main.cards)):
                    for theirs in range(len(b.main.cards)):
                        out.append(play("palm", box=b.id, index=theirs, mine=mine))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        own = state.seat_box(seat)
        other = state.box(act.box or 0)
        assert own is not None and other is not None
        assert act.index is not None and act.mine is not None
        mine, theirs = own.main.cards[act.mine], other.main.cards[act.index]
        own.main.cards[act.mine], other.main.cards[act.index] = theirs, mine
        events = [
            line(
                f"{crew(seat)} plays Palm — swaps {label(mine)} for {box_name(other)}'s "
                f"{label(theirs)}: {describe(own.main)} and {describe(other.main)}"
            )
        ]
        events += after_change(state, own, own.main, box_name(own))
        return events + after_change(state, other, other.main, box_name(other))


class TheLoad(Card):
    unplayable = "needs at least two face-up deck cards"
    fields = ("index",)

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        for i in range(1, state.shown):  # the top card (0) is already on top
            out.append(play("the_load", index=i))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        assert act.index is not None
        card = state.deck.pop(len(state.deck) - 1 - act.index)
        state.deck.append(card)
        return [line(f"{crew(seat)} plays The Load — {label(card)} moves to the top")]


# -- the Ghost -----------------------------------------------------------------------------


class Vanish(Card):
    unplayable = "no box left for it to cover"
    fields = ("box",)

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if state.phase == BET:
            for i in open_boxes(state):
                if i not in state.vanish:
                    out.append(play("vanish", box=i))
        else:
            for b in state.boxes:
                if b.id not in state.vanish and any(h.live for h in b.hands):
                    out.append(play("vanish", box=b.id))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.vanish.append(act.box or 0)
        return [line(f"{crew(seat)} plays Vanish on {box_id_name(state, act.box or 0)}")]


class TheDrop(Card):
    unplayable = "the hand has only one card"
    fields = ("index",)

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        _, h = state.current()
        if len(h.cards) >= 2:
            for i in range(len(h.cards)):
                out.append(play("the_drop", index=i))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        box, h = state.current()
        assert act.index is not None
        card = h.cards.pop(act.index)
        state.discard.append(card)
        target = box_name(box, state.cur_hand)
        events = [
            line(f"{crew(seat)} plays The Drop — {label(card)} off, {target} on {describe(h)}")
        ]
        return events + after_change(state, box, h, target)


class Alibi(Card):
    unplayable = "nothing to discard"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        out.append(play("alibi"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        box, h = state.current()
        state.discard.extend(h.cards)
        old = labels(h.cards)
        first, events = draw(state, rng)
        second, said = draw(state, rng)
        events += said
        h.cards = [first, second]
        target = box_name(box, state.cur_hand)
        events.append(
            line(f"{crew(seat)} plays Alibi — {old} out, {labels(h.cards)} in: {describe(h)}")
        )
        return events + after_change(state, box, h, target)


# -- the Bagman ----------------------------------------------------------------------------


class DoubleBag(Card):
    unplayable = "already in play"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if not state.double_bag:
            out.append(play("double_bag"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.double_bag = True
        return [line(f"{crew(seat)} plays Double Bag — the Mark pays 3:1 this round")]


class ShortChange(Card):
    unplayable = "no box left for it to cover"
    fields = ("box",)

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if state.phase == BET:
            for i in open_boxes(state):
                if i not in state.short_change:
                    out.append(play("short_change", box=i))
        else:
            for b in state.boxes:
                if b.id not in state.short_change and b.live_main:
                    out.append(play("short_change", box=b.id))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.short_change.append(act.box or 0)
        return [line(f"{crew(seat)} plays Short Change on {box_id_name(state, act.box or 0)}")]


class BackThePlay(Card):
    unplayable = "only before your first hit, with chips in the Take"
    fields = ("box", "amount")

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        own = state.seat_box(seat)
        if own is None or own.main.hits or not state.take:
            return
        amounts = [a for a in BACKING_STEPS if a <= state.take]
        if state.take not in amounts:
            amounts.append(state.take)  # all-in
        for b in state.boxes:
            if b.live_main:
                for a in amounts:
                    out.append(play("back_the_play", box=b.id, amount=a))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        box = state.box(act.box or 0)
        assert box is not None and act.amount is not None
        box.backed += act.amount
        state.take -= act.amount
        return [
            line(
                f"{crew(seat)} plays Back the Play — {act.amount} backed on {box_name(box)}; "
                f"Take {state.take}"
            )
        ]


# -- the Inside Man ------------------------------------------------------------------------


class SlowHand(Card):
    unplayable = "already in play"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if not state.slow_hand:
            out.append(play("slow_hand"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.slow_hand = True
        return [line(f"{crew(seat)} plays Slow Hand — the house stands on 16 this round")]


class TheNod(Card):
    unplayable = "already set"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        if not state.nod:
            out.append(play("the_nod"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        state.nod = True
        return [line(f"{crew(seat)} plays The Nod — the house takes one more when it stands")]


class ExtraBox(Card):
    unplayable = "the Take can't cover a second box"

    def targets(self, state: State, seat: int, out: list[object]) -> None:
        own = state.seat_box(seat)
        shortfall = max(0, MIN_BET - own.main.bet) if own else MIN_BET
        if state.take >= MIN_BET + shortfall:  # the Extra Box's 10 and the seat's own
            out.append(play("extra_box"))

    def effect(self, state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
        box = Box(id=state.extra_id, seat=seat, extra=True)
        box.main.bet = MIN_BET
        state.take -= MIN_BET
        state.boxes.append(box)
        return [line(f"{crew(seat)} plays Extra Box — a second box opens with {MIN_BET}")]


# -- the table -----------------------------------------------------------------------------

CARDS: Final[dict[str, Card]] = {
    "long_glass": LongGlass(),
    "rooftop": Rooftop(),
    "the_call": TheCall(),
    "false_cut": FalseCut(),
    "palm": Palm(),
    "the_load": TheLoad(),
    "vanish": Vanish(),
    "the_drop": TheDrop(),
    "alibi": Alibi(),
    "double_bag": DoubleBag(),
    "short_change": ShortChange(),
    "back_the_play": BackThePlay(),
    "slow_hand": SlowHand(),
    "the_nod": TheNod(),
    "extra_box": ExtraBox(),
}


# -- using the table -----------------------------------------------------------------------


#: Each role's cards with their timing and rules, in the role's order.
ROLE_CARDS: Final = {
    key: tuple((card, ABILITIES[card].timing, CARDS[card]) for card in role.cards)
    for key, role in ROLES.items()
}


def add_plays(state: State, seat: int, out: list[object]) -> None:
    """Append every ability play open to ``seat`` on its betting or playing turn."""
    barred = DEALT if state.phase == BET else BEFORE_DEAL
    spent = state.spent[seat - 1]
    for card, timing, entry in ROLE_CARDS[state.roles[seat - 1]]:
        if timing != barred and card not in spent:
            entry.targets(state, seat, out)


def timing_reason(state: State, seat: int, timing: str) -> str:
    """Why the timing forbids a card now, or ``""`` when it allows it."""
    if state.phase == OVER:
        return "the job is over"
    if state.phase == DRAFT:
        return "the job has not started"
    if state.phase == CALL:
        return "the deal is paused for the caller's Mark"
    if state.turn != seat or state.phase not in (BET, PLAY):
        return "not your turn"
    if timing == BEFORE_DEAL and state.phase != BET:
        return "before the deal only — your betting turn"
    if timing == DEALT and state.phase != PLAY:
        return "needs cards on the table — your playing turn"
    return ""


def why_not(state: State, seat: int, card: str) -> str:
    """``""`` when ``seat`` may play ``card`` now, else why not (crew-safe words)."""
    if card in state.spent[seat - 1]:
        return "spent"
    why = timing_reason(state, seat, ABILITIES[card].timing)
    if why:
        return why
    plays: list[object] = []
    CARDS[card].targets(state, seat, plays)
    return "" if plays else CARDS[card].unplayable


#: What each field of a play names, in refusals.
FIELD_WORDS: Final = {
    "box": "a box",
    "mine": "one of your own cards",
    "index": "a card",
    "amount": "an amount",
}


def listed(words: list[str], last: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def wrong_targets(act: Ability) -> str:
    """Why ``act`` names the wrong kind of target for its card (a target the card
    does not take, or one it needs left out), or ``""`` when the kinds fit."""
    takes = CARDS[act.card].fields
    given = {"box": act.box, "mine": act.mine, "index": act.index, "amount": act.amount}
    extra = [FIELD_WORDS[f] for f, v in given.items() if v is not None and f not in takes]
    wants = listed([FIELD_WORDS[f] for f in takes]) if takes else "no target"
    name = ABILITIES[act.card].name
    if extra:
        return f"{name} takes {wants}, not {listed(extra, 'or')}"
    if any(given[f] is None for f in takes):
        return f"{name} needs {wants}"
    return ""


def play_card(state: State, seat: int, act: Ability, rng: Rng) -> list[Event]:
    """Spend the card ``act`` plays and carry the play out."""
    state.spent[seat - 1].append(act.card)
    return CARDS[act.card].effect(state, seat, act, rng)
