"""Stealing from the Museum, and the Security it may turn up: the steals of a turn and
of the opening Heist, the alarms in order, averting one with a Carried item of its
category, and Strikes.
"""

from __future__ import annotations

from gameweave_core import Event, Rng
from gameweave_core.reactions import (
    is_closed,
    open_window,
    resolution,
    seats_from,
    who_to_ask,
)

from . import charms
from .cards import (
    MUSEUM,
)
from .end import end_game
from .state import (
    AVERT,
    IN,
    JURY,
    MAX_RESTARTS,
    OVER,
    PLAY,
    STEAL,
    State,
)
from .table import describe_item, draw_thief, into_museum, label
from .turns import cleanup, start_turn


def steal_one(state: State, seat: int, rng: Rng) -> list[Event]:
    """Steal the top of the Museum, draw what it shows; Security ends the turn."""
    if not state.museum:
        return [Event.public("The Museum is bare"), *end_game(state, "time", rng)]
    card = state.museum.pop()
    events = [Event.public(f"{label(seat)} steals {describe_item(card)}", "steal", card=card)]
    if charms.is_security(card):
        state.alarms.append((seat, card))
        state.alarmed = True
        return events + next_alarm(state, rng)
    need = MUSEUM[card].draw + charms.extra_draw(state, seat)
    state.carried[seat - 1].append(card)
    if need > len(state.deck):
        events.append(Event.public(f"The Thief deck cannot cover {need} cards: time runs out"))
        return events + end_game(state, "time", rng)
    events += draw_thief(state, seat, need)
    if need and not state.deck:
        state.last_turn = True
        events.append(Event.public("The Thief deck is empty: the game ends after this turn"))
    state.phase = PLAY
    return events


def heist_steal(state: State, seat: int, rng: Rng) -> list[Event]:
    """Everyone steals at once: the cards are handed out when the last thief is in."""
    state.heist_in = sorted([*state.heist_in, seat])
    events = [Event.public(f"{label(seat)} reaches into the Museum")]
    if len(state.heist_in) < state.players:
        return events
    state.heist_in = []
    worth = []
    for s in range(1, state.players + 1):
        card = state.museum.pop()
        worth.append(MUSEUM[card].bmc)
        events.append(Event.public(f"Heist: {label(s)} steals {describe_item(card)}", "steal"))
        if charms.is_security(card):
            state.alarms.append((s, card))
        else:
            state.carried[s - 1].append(card)
    # "Anyone may take the first turn": the thief with the poorest Heist steals the
    # opportunity (Security is worth 0); on a tie, the lowest seat of them.
    state.first = worth.index(min(worth)) + 1
    state.phase = STEAL  # where the game goes once the alarms are dealt with
    return events + next_alarm(state, rng)


def avert_order(state: State, puller: int, security: str) -> list[int]:
    """Who is asked to avert: from the puller, counterclockwise (down the seat
    numbers), thieves in play with a fitting Carried item. Carried items are face
    up, so asking only those who can avert reveals nothing."""
    order = [s for s in seats_from(puller, state.players, step=-1) if state.status[s - 1] == IN]
    return who_to_ask(
        order, lambda s: True, lambda s: bool(charms.averts(state, s, security)), secret=False
    )


def next_alarm(state: State, rng: Rng) -> list[Event]:
    """Open the window to avert the next pulled Security, or carry on. Every Strike
    on the way is told, however many Securities nobody can avert come in a row."""
    events: list[Event] = []
    while state.alarms:
        puller, security = state.alarms[0]
        asked = avert_order(state, puller, security)
        if asked:
            state.window = open_window(
                "security", puller, asked, sequential=True, context={"security": security}
            )
            state.phase = AVERT
            return events
        state.alarms.pop(0)
        events += strike(state, security)
        if state.phase == OVER or len(state.strikes) >= charms.strikes_to_end(state):
            return events
    return events + after_alarms(state, rng)


def strike(state: State, security: str) -> list[Event]:
    state.strikes.append(security)
    n, limit = len(state.strikes), charms.strikes_to_end(state)
    return [Event.public(f"{security} is a Security Strike ({n} of {limit})", "strike")]


def after_alarms(state: State, rng: Rng) -> list[Event]:
    """Every pulled Security dealt with: the Heist goes on to the Jury, a turn ends."""
    state.window = None
    if state.turns == 0:  # the opening Heist
        if state.strikes and state.restarts < MAX_RESTARTS:
            state.phase = JURY
            state.votes = {}
            return [Event.public("Security is alerted: the Jury of Thieves votes on the Heist")]
        return start_turn(state, state.first)
    return cleanup(state, rng)


def close_avert(state: State, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    if not is_closed(window):
        return []
    security = str(window.context["security"])
    state.alarms.pop(0)
    state.window = None
    done = resolution(window)
    if done:
        seat, item = done[0]
        state.carried[seat - 1].remove(item)
        into_museum(state, item, rng)
        into_museum(state, security, rng)
        events = [
            Event.public(
                f"{label(seat)} surrenders {item} to avert {security}; both go back into the Museum",
                "avert",
            )
        ]
    else:
        events = strike(state, security)
    if len(state.strikes) >= charms.strikes_to_end(state):
        return events
    return events + next_alarm(state, rng)
