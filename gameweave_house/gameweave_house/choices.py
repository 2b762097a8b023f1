"""What a seat may do now, and why it may not: the betting and calling choices, the
plays of a hand, and the one-line reason an illegal action is refused (the helpers of
:func:`~.rules.legal_actions` and :func:`~.rules.explain_illegal`).
"""

from __future__ import annotations

from typing import Any, Final

from .abilities import CARDS, listed, why_not, wrong_targets
from .actions import (
    Ability,
    Chips,
    ColdFeet,
    DealMeIn,
    Double,
    Draft,
    Heavy,
    Hit,
    Mark,
    NextRound,
    NoMark,
    Split,
    Stand,
)
from .history import crew
from .roles import ABILITIES, ROLES
from .state import (
    BET,
    CALL,
    MIN_BET,
    PLAY,
    Hand,
    State,
)

#: The chips a betting turn pushes at a time.
CHIP_STEPS: Final = (10, 50, 100)

# Actions without fields are immutable and all equal: legal_actions, which runs after
# every step, hands out one shared object of each (see docs/titles/house/compiled.md).
HIT: Final = Hit()
STAND: Final = Stand()
DOUBLE: Final = Double()
SPLIT: Final = Split()
COLD_FEET: Final = ColdFeet()
DEAL_ME_IN: Final = DealMeIn()
NO_MARK: Final = NoMark()
HEAVY: Final = Heavy()
NEXT_ROUND: Final = NextRound()
#: Chips on a seat's own box, one per step (the Extra Box's are made as needed).
OWN_CHIPS: Final = tuple(Chips(step) for step in CHIP_STEPS)
#: The Mark of each box id (seats 1 to 4, the Extra Box at most 5).
MARKS: Final = tuple(Mark(box) for box in range(6))
#: The draft of each role.
DRAFTS: Final = {role: Draft(role) for role in ROLES}


def betting_actions(state: State, seat: int) -> list[Any]:
    out: list[Any] = []
    mine = [b for b in state.boxes if b.seat == seat]
    missing = 0  # what the seat's boxes still need to reach the minimum bet
    for b in mine:
        if b.main.bet < MIN_BET:
            missing += MIN_BET - b.main.bet
    for b in mine:
        bet = b.main.bet
        gap = MIN_BET - bet if bet < MIN_BET else 0
        # chips may not eat what the seat's other boxes still need to reach 10
        room = min(state.take - (missing - gap), state.table_max(b) - bet)
        for i, step in enumerate(CHIP_STEPS):
            if step > room:
                break
            out.append(Chips(step, b.id) if b.extra else OWN_CHIPS[i])
    if not missing:
        out.append(DEAL_ME_IN)
    if seat == state.caller:
        if not state.mark:
            out.extend([MARKS[i] for i in mark_targets(state)])
        if not state.heavy_used:
            out.append(HEAVY)
    return out


def mark_targets(state: State) -> list[int]:
    """Boxes the caller may Mark: the dealt boxes at The Call's pause, else every
    seat not sitting out and the Extra Box once it is open."""
    if state.phase == CALL:
        return [b.id for b in state.boxes]
    ids = [s for s in range(1, state.players + 1) if s not in state.sitting_out]
    if state.box(state.extra_id):
        ids.append(state.extra_id)
    return ids


def playing_actions(state: State) -> list[Any]:
    box, h = state.current()
    out: list[Any] = [HIT, STAND]
    if len(h.cards) == 2 and h.hits == 0 and state.take >= h.bet:
        out.append(DOUBLE)
        if not box.extra and len(box.hands) == 1 and h.cards[0][0] == h.cards[1][0]:
            out.append(SPLIT)
    if state.has_role("ghost") and pays_cold_feet(h):
        out.append(COLD_FEET)
    return out


def pays_cold_feet(hand: Hand) -> bool:
    return hand.hits == 0 and not hand.from_split and not hand.done


def explain_bet(state: State, action: Chips | DealMeIn) -> str:
    """Why chips may not go on now, or the betting turn not end."""
    if isinstance(action, DealMeIn):
        if state.phase != BET:
            return "Deal me in ends a betting turn; it is not your betting turn"
        return f"bet at least {MIN_BET} first: push chips onto your box (+10, +50 or +100)"
    if state.phase != BET:
        return "chips go on a box only on your betting turn"
    if action.amount not in CHIP_STEPS:
        return "push chips in steps of 10, 50 or 100"
    return (
        f"{action.amount} more would pass the table maximum or what the Take can cover "
        f"(Take {state.take})"
    )


def explain_call(state: State, seat: int, action: Mark | Heavy | NoMark | NextRound) -> str:
    """Why the caller's Mark or Heavy, No Mark or Next round is refused."""
    match action:
        case Mark() | Heavy() if seat != state.caller:
            return f"only the caller ({crew(state.caller)}) calls the Mark and the Heavy"
        case Heavy():
            if state.heavy_used:
                return "the Heavy has been spent; there is one per job"
            return "the Heavy is called on the caller's betting turn"
        case Mark(box=box_id):
            if state.mark:
                return "a box is already Marked this round"
            return f"there is no box {box_id} to Mark now"
        case NoMark():
            return "No Mark is chosen only at The Call's pause in the deal"
    return "Next round comes once the round has settled"


def explain_play(state: State, action: Hit | Stand | Double | Split | ColdFeet) -> str | None:
    """Why a playing-turn action is refused (``None`` for a hit or a stand on one)."""
    if state.phase != PLAY:
        return "that is a playing-turn action; it is not your playing turn"
    match action:
        case Double():
            _, h = state.current()
            if len(h.cards) != 2 or h.hits:
                return "double only on a two-card hand before any hit"
            return f"the Take ({state.take}) can't cover a second bet of {h.bet}"
        case Split():
            box, h = state.current()
            if box.extra:
                return "the Extra Box never splits"
            if len(box.hands) > 1:
                return "this box has already split"
            if len(h.cards) != 2 or h.cards[0][0] != h.cards[1][0]:
                return "split needs two cards of the same rank"
            return f"the Take ({state.take}) can't cover a second bet of {h.bet}"
        case ColdFeet():
            if not state.has_role("ghost"):
                return "Cold Feet needs a Ghost at the table"
            return "Cold Feet only before the hand's first hit, and never after a split"
    return None


def explain_ability(state: State, seat: int, act: Ability) -> str:
    card = act.card
    info = ABILITIES.get(card)
    if info is None:
        return f"there is no ability card {card!r}; cards: {', '.join(ABILITIES)}"
    if info.role != state.role_of(seat):
        return f"{info.name} is the {ROLES[info.role].name}'s card, not yours"
    wrong = wrong_targets(act)
    if wrong:
        return wrong
    why = why_not(state, seat, card)
    if why:
        return f"{info.name} can't be played now: {why}"
    plays: list[Any] = []
    CARDS[card].targets(state, seat, plays)
    boxes = sorted({p.box for p in plays if p.box is not None})
    if act.box is not None and act.box not in boxes:
        named = listed([f"box {b}" for b in boxes], "or")
        return f"{info.name} can't name box {act.box} now; it can name {named}"
    return f"{info.name} can't be played that way now; check the card and amount"
