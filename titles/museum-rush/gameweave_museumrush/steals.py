"""The Steal Actions: Loot from a tile, a lock cracked (with dice, then keys), a card
taken from another thief, the Vault or the Lost & Found raided; and why a thief may
not try a lock or a pile."""

from __future__ import annotations

from typing import Any

from gameweave_core import Event, Rng

from .actions import Crack, Done, Pick, Raid, Rob, StealLoot, UseKeys
from .cards import CARDS, HIGH, LOOT, LOST, RARE, ROOMS, VAULT
from .hands import back, check_limit, roll, take_public, unseen_move
from .queries import bit, label, name, room_kind, room_name, thieves_on, unlocked
from .state import State, Task


def act(state: State, seat: int, action: Any, task: Task | None, rng: Rng) -> list[Event]:
    """Carry out a legal Steal Action of ``seat``, or its answer to one (``task``)."""
    match action:
        case StealLoot():
            return do_steal_loot(state, seat)
        case Crack():
            return do_crack(state, seat, rng)
        case Rob(seat=other):
            return do_rob(state, seat, other)
        case Raid():
            return do_raid(state, seat)
        case UseKeys():
            assert task is not None
            return do_use_keys(state, seat, task.room)
        case Pick(card=c):
            assert task is not None
            return do_pick(state, seat, c, task)
        case Done():
            return [Event.public(f"{label(seat)} takes no more cards")]
    raise TypeError(f"not a Museum Rush Steal Action: {action!r}")


def can_crack(state: State, seat: int) -> str | None:
    """Why ``seat`` may not try the lock of its tile, or None."""
    here = state.pos[seat - 1]
    if room_kind(state, here) != HIGH:
        return "you are not in a High Security room"
    if unlocked(state, here):
        return "this lock is already cracked"
    for other in thieves_on(state, here):
        if other != seat and state.cracked_at[other - 1] == here:
            return f"I was here first: {label(other)} tried this lock last turn and is still here"
    return None


def can_raid(state: State, seat: int) -> str | None:
    """Why ``seat`` may not break into the Vault or Lost & Found here, or None."""
    here = state.pos[seat - 1]
    room = room_name(state, here)
    if room == VAULT:
        need, pile = 2, state.vault
    elif room == LOST:
        need, pile = 1, state.lost
    else:
        return "you are not in the Vault or the Lost & Found"
    if state.keys[seat - 1] < need:
        return f"the {room} needs {need} key(s); you have {state.keys[seat - 1]}"
    if not pile:
        return f"the {room} is empty"
    return None


def do_steal_loot(state: State, seat: int) -> list[Event]:
    tile = state.pos[seat - 1]
    card = state.grid[tile].cards.pop(0)
    state.grid[tile].up = False
    take_public(state, seat, card)
    state.stolen = True
    state.tasks[0:0] = [
        Task("alert", seat),
        Task("react", seat, room=tile),
        Task("turnover", room=tile),
    ]
    check_limit(state, seat)
    return [Event.public(f"{label(seat)} steals {name(card)}", "steal", card=card)]


def do_crack(state: State, seat: int, rng: Rng) -> list[Event]:
    """Roll 3 dice; each uncovered digit matched by a die takes an Unlock token."""
    tile = state.pos[seat - 1]
    state.stolen = True
    state.cracked_at[seat - 1] = tile
    t = state.grid[tile]
    code = ROOMS[t.room].code
    dice = roll(rng, 3)
    state.rolls.append((seat, "crack", dice))
    spare = list(dice)
    for i, digit in enumerate(code):
        if not t.covered[i] and int(digit) in spare and state.supply > 0:
            spare.remove(int(digit))
            t.covered[i] = True
            state.supply -= 1
    events = [
        Event.public(
            f"{label(seat)} rolls {' '.join(map(str, dice))} at the lock {code}: "
            f"{sum(t.covered)} of {len(code)} digits covered",
            "crack",
            dice=dice,
        )
    ]
    if all(t.covered):
        return events + cracked(state, seat, tile)
    missing = t.covered.count(False)
    if state.keys[seat - 1] >= missing:
        state.tasks.insert(0, Task("keys", seat, room=tile, n=missing))
        return events
    events.append(Event.public("Not cracked"))
    state.tasks.insert(0, Task("alert", seat))
    return events


def do_use_keys(state: State, seat: int, tile: int) -> list[Event]:
    t = state.grid[tile]
    missing = t.covered.count(False)
    state.keys[seat - 1] -= missing
    t.covered = [True] * len(t.covered)
    events = [Event.public(f"{label(seat)} uses {missing} key(s) to finish the code")]
    return events + cracked(state, seat, tile)


def cracked(state: State, seat: int, tile: int) -> list[Event]:
    """Cracked: the Rare Treasure into the hand, the Guard, the next card."""
    t = state.grid[tile]
    events = [Event.public(f"The lock of the {room_name(state, tile)} is cracked", "open")]
    if t.up and t.cards and CARDS[t.cards[0]].kind in (RARE, LOOT):
        card = t.cards.pop(0)
        t.up = False
        take_public(state, seat, card)
        events.append(Event.public(f"{label(seat)} steals {name(card)}", "steal", card=card))
    state.tasks[0:0] = [
        Task("alert", seat),
        Task("react", seat, room=tile),
        Task("turnover", room=tile),
    ]
    check_limit(state, seat)
    return events


def do_rob(state: State, seat: int, other: int) -> list[Event]:
    state.stolen = True
    state.tasks.insert(0, Task("defend", other, n=seat))
    return [Event.public(f"{label(seat)} tries to steal from {label(other)}", "rob")]


def finish_rob(state: State, thief: int, victim: int, rng: Rng) -> list[Event]:
    """Both roll a die; the higher takes a random card from the other (ties: the
    thief whose turn it is). Then the nearest Guard comes for the thief."""
    a, b = roll(rng, 2)
    state.rolls.append((thief, "rob", [a, b]))
    winner, loser = (thief, victim) if a >= b else (victim, thief)
    events = [
        Event.public(
            f"{label(thief)} rolls {a}, {label(victim)} rolls {b}: {label(winner)} wins",
            "robroll",
            dice=[a, b],
        )
    ]
    state.tasks.insert(0, Task("alert", thief))
    hand = state.hands[loser - 1]
    if hand:
        card = hand[rng.randrange(len(hand))]
        unseen_move(state, hand, card, bit(winner) | bit(loser))
        hand.remove(card)
        state.hands[winner - 1].append(card)
        took = f"{label(winner)} takes {name(card)}"
        events.append(Event.private([winner, loser], took, "took", card=card))
        taken = f"{label(winner)} takes a card from {label(loser)}"
        # The others see the card's back change hands: the data says which.
        events.append(Event.others([winner, loser], state.players, taken, "took", back=back(card)))
        check_limit(state, winner)
    return events


def do_raid(state: State, seat: int) -> list[Event]:
    tile = state.pos[seat - 1]
    room = room_name(state, tile)
    need = 2 if room == VAULT else 1
    state.keys[seat - 1] -= need
    state.supply += need
    state.stolen = True
    pile = state.vault if room == VAULT else state.lost
    for c in pile:
        state.knows[c] |= bit(seat)
    state.tasks[0:0] = [Task("pick", seat, room=tile, n=3), Task("alert", seat)]
    return [
        Event.public(f"{label(seat)} uses {need} key(s) to break into the {room}"),
        Event.private(
            [seat],
            "Inside: " + ", ".join(name(c) for c in sorted(pile)),
            "pile",
            cards=sorted(pile),
        ),
    ]


def do_pick(state: State, seat: int, card: int, task: Task) -> list[Event]:
    pile = state.vault if room_name(state, task.room) == VAULT else state.lost
    unseen_move(state, pile, card, bit(seat))
    pile.remove(card)
    state.hands[seat - 1].append(card)
    if task.n > 1 and pile:
        state.tasks.insert(0, Task("pick", seat, room=task.room, n=task.n - 1))
    check_limit(state, seat)
    return [
        Event.private([seat], f"You take {name(card)}", "take", card=card),
        Event.others([seat], state.players, f"{label(seat)} takes a card"),
    ]
