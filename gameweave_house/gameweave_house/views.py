"""What a seat may know, built by allow-list from the state.

The crew shares everything except the undealt deck's order and the dealer's hole
card while it is face down, so every seat (and a spectator) gets the same table;
a seat's view adds only ``you``. Nothing here is ``None``: views go through TOML.
"""

from __future__ import annotations

from typing import Any

from .abilities import why_not
from .cards import count_reading, high_low, points, total
from .deck import can_deal_round, face_up
from .history import box_id_name, box_name
from .roles import ABILITIES, ROLES, TIMING_TEXT
from .state import BET, DRAFT, MIN_BET, OVER, PLAY, Box, Hand, Settled, State


def hand_status(state: State, box: Box, index: int, hand: Hand) -> str:
    if not hand.cards:
        return "betting"
    if hand.natural:
        return "blackjack"
    if hand.walked:
        return "walked"
    if hand.bust:
        return "bust"
    if hand.done:
        return "stood"
    if state.phase == PLAY and state.boxes[state.cur_box] is box and state.cur_hand == index:
        return "playing"
    return "waiting"


def hand_view(state: State, box: Box, index: int, hand: Hand) -> dict[str, Any]:
    pts, soft = total(hand.cards)
    return {
        "cards": list(hand.cards),
        "bet": hand.bet,
        "points": pts,
        "soft": soft and pts < 21,
        "status": hand_status(state, box, index, hand),
        "doubled": hand.doubled,
        "split": hand.from_split,
        "hits": hand.hits,
    }


def box_view(state: State, box: Box) -> dict[str, Any]:
    return {
        "id": box.id,
        "seat": box.seat,
        "name": box_name(box),
        "extra": box.extra,
        "table_max": state.table_max(box),
        "backed": box.backed,
        "marked": state.mark == box.id,
        "vanish": box.id in state.vanish,
        "short_change": box.id in state.short_change,
        "hands": [hand_view(state, box, i, h) for i, h in enumerate(box.hands)],
    }


def crew_view(state: State, seat: int) -> dict[str, Any]:
    key = state.roles[seat - 1]
    out: dict[str, Any] = {
        "seat": seat,
        "role": key,
        "sitting_out": seat in state.sitting_out,
    }
    if not key:
        out.update(role_name="", cards=[])
        return out
    role = ROLES[key]
    spent = state.spent[seat - 1]
    cards = []
    for card in role.cards:
        info = ABILITIES[card]
        reason = why_not(state, seat, card)
        cards.append(
            {
                "key": card,
                "name": info.name,
                "timing": info.timing,
                "when": TIMING_TEXT[info.timing],
                "text": info.text,
                "spent": card in spent,
                "playable": not reason,
                "reason": reason,
            }
        )
    out.update(
        role_name=role.name,
        passive={"key": role.passive, "name": role.passive_name, "text": role.passive_text},
        cards=cards,
    )
    return out


def settled_view(last: Settled) -> dict[str, Any]:
    """The round that settled last: the dealer's final hand and each line's result."""
    return {
        "round": last.round,
        "dealer": {"cards": list(last.dealer), "points": points(last.dealer)},
        "results": [
            {
                "name": r.name,
                "cards": list(r.cards),
                "points": r.points,
                "result": r.result,
                "chips": r.chips,
            }
            for r in last.results
        ],
        "take": last.take,
    }


def role_view(key: str) -> dict[str, Any]:
    """What a role does, for the seat drafting: its passive and its three cards."""
    role = ROLES[key]
    return {
        "key": key,
        "name": role.name,
        "summary": role.summary,
        "passive": {"key": role.passive, "name": role.passive_name, "text": role.passive_text},
        "cards": [
            {
                "key": card,
                "name": ABILITIES[card].name,
                "timing": ABILITIES[card].timing,
                "when": TIMING_TEXT[ABILITIES[card].timing],
                "text": ABILITIES[card].text,
            }
            for card in role.cards
        ],
    }


def pending(state: State) -> list[dict[str, str]]:
    """Effects set up this round that have not fired yet."""
    if state.phase not in (BET, PLAY, "call"):
        return []
    out = []
    if state.mark:
        rate = "3:1" if state.double_bag else "2:1"
        out.append(
            {
                "key": "mark",
                "text": f"The Mark on {box_id_name(state, state.mark)} — pays {rate}, loses double",
            }
        )
    if state.heavy:
        out.append({"key": "heavy", "text": "The Heavy — every bet counts double both ways"})
    if state.call and not state.dealer:
        out.append({"key": "the_call", "text": "The Call — the deal stops for the caller's Mark"})
    if state.double_bag:
        out.append({"key": "double_bag", "text": "Double Bag — the Mark pays 3:1"})
    for b in state.vanish:
        out.append(
            {"key": "vanish", "text": f"Vanish on {box_id_name(state, b)} — a bust comes back"}
        )
    for b in state.short_change:
        out.append(
            {
                "key": "short_change",
                "text": f"Short Change on {box_id_name(state, b)} — a loss pushes at settlement",
            }
        )
    if state.slow_hand:
        out.append({"key": "slow_hand", "text": "Slow Hand — the house stands on 16"})
    if state.nod:
        out.append({"key": "the_nod", "text": "The Nod — fires when the house plays"})
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (or a spectator, ``None``) sees it."""
    dealer = state.dealer if state.hole_up else state.dealer[:1]
    pts, soft = total(dealer)
    out: dict[str, Any] = {
        "phase": state.phase,
        "round": state.round,
        "caller": state.caller,
        "turn": 0 if state.phase == OVER else state.turn,
        "take": state.take,
        "opening": state.opening,
        "min_bet": MIN_BET,
        "deck": {
            "left": len(state.deck),
            "face_up": face_up(state),
            "discard": len(state.discard),
        },
        "dealer": {
            "cards": list(dealer),
            "hole_down": state.hole_down,
            "points": pts,
            "soft": soft and pts < 21,
        },
        "levers": {
            "mark": state.mark,
            "heavy": state.heavy,
            "heavy_spent": state.heavy_used,
            "call": state.call,
        },
        "boxes": [box_view(state, b) for b in state.boxes],
        "crew": [crew_view(state, s) for s in range(1, state.players + 1)],
        "pending": pending(state),
        "last_round": state.last_round or not can_deal_round(state),
    }
    if state.has_role("lookout"):
        # The Count reads every card the crew has not seen: the deck and a face-down
        # hole card (reading the deck alone would give the hole card away).
        unseen = state.deck + state.dealer[1:2] if state.hole_down else state.deck
        rich, left, reading = count_reading(unseen)
        out["count"] = {"tens_and_aces": rich, "cards": left, "reading": reading}
    if state.has_role("inside_man") and len(state.dealer) >= 2:
        out["tell"] = high_low(state.dealer[1])
    if state.phase == PLAY:
        out["playing"] = {"box": state.boxes[state.cur_box].id, "hand": state.cur_hand}
    if state.last is not None:
        # Kept from settlement to the next deal: a seat whose crewmate pressed Next
        # round at once still sees how the round ended while it bets.
        out["settled"] = settled_view(state.last)
    if state.phase == DRAFT:
        out["roles_open"] = [r for r in ROLES if r not in state.roles]
        out["roles"] = [role_view(r) for r in out["roles_open"]]
    if state.phase == OVER:
        out["ended"] = state.ended
        out["took_the_house"] = state.take > state.opening
    if seat is not None:
        out["you"] = seat
    return out


def seat_label(state: State, seat: int) -> str:
    """``"Crew 2 (Ghost)"`` once the seat has drafted, ``"Crew 2"`` before."""
    role = state.roles[seat - 1]
    return f"Crew {seat} ({ROLES[role].name})" if role else f"Crew {seat}"


def has_secrets(state: State, seat: int) -> bool:
    """Crewmates hide nothing from each other: hot-seat play needs no screen."""
    return False
