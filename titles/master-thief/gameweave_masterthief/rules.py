"""The rules of Master Thief, as pure functions of the state.

Setup deals 4 Thief Cards and a secret Calling Card to each thief; the Museum is a
face-down pile. The opening Heist: everyone steals one Museum card at once. Then
turns go round the table: steal from the Museum (and draw the Thief Cards the item
shows), play Actions and Utilities, end the turn within the hand and carrying limits,
then stay or escape. Opponents answer out of turn with Reactions (Grip, Latch) in
reaction windows (:mod:`gameweave_core.reactions`); Security is averted by turns
with a Carried item of its category, else it is a Strike. Three Strikes or a Thief
deck that cannot cover a draw end the game; thieves still inside are caught and
keep only their Stashed items. The most Black Market Credits wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import ConfigError, Event, Outcome, Rng
from gameweave_core.reactions import (
    PASS,
    answer,
    awaited,
    is_closed,
    open_window,
    resolution,
    seats_from,
    who_to_ask,
)

from . import charms
from .actions import (
    Discard,
    Drop,
    EndTurn,
    Escape,
    Grip,
    Latch,
    Lift,
    Pass,
    PlayUtility,
    Raid,
    Snoop,
    Stash,
    Stay,
    Steal,
    Surrender,
    Swipe,
    Trip,
    Vote,
)
from .cards import (
    ACTION,
    CALLING,
    CALLING_BONUS,
    CALLING_CARDS,
    MUSEUM,
    MUSEUM_CARDS,
    THIEF,
    UTILITY,
    thief_deck,
)
from .state import (
    AVERT,
    CAUGHT,
    CLEANUP,
    ESCAPED,
    HAND_DEALT,
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
    TIEBREAK,
    State,
)

# -- setup ---------------------------------------------------------------------------


def check_config(players: int, config: Mapping[str, Any]) -> dict[str, Any]:
    """The options, checked. ``museum``, ``deck`` and ``calling`` (for tests only)
    stack the top of a deck: the named cards come first, in that order (the Thief
    deck's first cards are dealt 4 to each seat in turn), the rest are shuffled."""
    decks = {
        "museum": [c.name for c in MUSEUM_CARDS],
        "deck": thief_deck(),
        "calling": [c.name for c in CALLING_CARDS],
    }
    for key, full in decks.items():
        top = config[key]
        if not isinstance(top, list) or not all(isinstance(c, str) for c in top):
            raise ConfigError(f"{key} must be a list of card names")
        left = list(full)
        for card in top:
            if card not in left:
                raise ConfigError(f"{key}: no (more) {card!r} in that deck")
            left.remove(card)
    return dict(config)


def stacked(full: list[str], top: Sequence[str], rng: Rng) -> list[str]:
    """A deck with ``top`` first and the rest shuffled, as a list drawn from its end."""
    rest = list(full)
    for card in top:
        rest.remove(card)
    rng.shuffle(rest)
    return [*rest[::-1], *reversed(top)]


def setup(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    """Shuffle the three decks apart, deal 4 Thief Cards and 1 Calling Card each."""
    museum = stacked([c.name for c in MUSEUM_CARDS], config.get("museum", ()), rng)
    deck = stacked(thief_deck(), config.get("deck", ()), rng)
    calling = stacked([c.name for c in CALLING_CARDS], config.get("calling", ()), rng)[::-1]
    hands = [sorted(deck.pop() for _ in range(HAND_DEALT)) for _ in range(players)]
    return State(
        players=players,
        museum=museum,
        deck=deck,
        hands=hands,
        calling=calling[:players],
        spare_calling=sorted(calling[players:]),
        carried=[[] for _ in range(players)],
        stashed=[[] for _ in range(players)],
        utilities=[[] for _ in range(players)],
        status=[IN] * players,
        revealed=[False] * players,
        snooped=[[] for _ in range(players)],
    )


# -- who acts ------------------------------------------------------------------------


def in_play(state: State) -> list[int]:
    return [s for s in range(1, state.players + 1) if state.status[s - 1] == IN]


def awaiting(state: State) -> Sequence[int]:
    """The seats whose action is needed now (several in the Heist, a Jury, a Latch
    window or a tie-break; none once the game is over)."""
    phase = state.phase
    if phase == HEIST:
        return tuple(s for s in range(1, state.players + 1) if s not in state.heist_in)
    if phase in (AVERT, REACT) and state.window is not None:
        return awaited(state.window)
    if phase == JURY:
        return tuple(s for s in in_play(state) if s not in state.votes)
    if phase == OVERFLOW:
        return (state.overflow[0],)
    if phase == TIEBREAK:
        return tuple(s for s in state.tied if s not in state.tie_in)
    if phase == OVER:
        return ()
    return (state.turn,)


def legal_actions(state: State, seat: int) -> Sequence[Any]:
    """Every action ``seat`` may take now (empty when it is not awaited)."""
    if seat not in awaiting(state):
        return ()
    phase = state.phase
    hand = state.hands[seat - 1]
    if phase in (HEIST, STEAL, TIEBREAK):
        return [Steal()]
    if phase == JURY:
        return [Vote(False), Vote(True)]
    if phase == AVERT:
        security = str(state.window.context["security"])  # type: ignore[union-attr]
        return [*(Surrender(i) for i in charms.averts(state, seat, security)), Pass()]
    if phase == REACT:
        card = "Grip" if state.window.trigger != "escape" else "Latch"  # type: ignore[union-attr]
        react: list[Any] = [Grip() if card == "Grip" else Latch()] if card in hand else []
        return [*react, Pass()]
    if phase == OVERFLOW:
        return [Drop(i) for i in sorted(set(state.carried[seat - 1]))]
    if phase == CLEANUP:
        if len(hand) > charms.hand_limit(state, seat):
            return [Discard(c) for c in sorted(set(hand))]
        return [Drop(i) for i in sorted(set(state.carried[seat - 1]))]
    if phase == LEAVE:
        return [Escape()] if state.final_turn else [Stay(), Escape()]
    return [*card_plays(state, seat), EndTurn()]


def may_play(state: State, seat: int, card: str) -> bool:
    """Whether ``seat`` may play ``card`` now by the hand and the same-title rule."""
    return (
        card in state.hands[seat - 1]
        and THIEF[card].kind in (ACTION, UTILITY)
        and state.played.count(card) < charms.same_title_allowed(state, seat)
    )


def targets(state: State, seat: int) -> list[int]:
    """Opponents still in the Museum whose items an opponent's card may reach."""
    return [s for s in in_play(state) if s != seat and not charms.protected(state, s)]


def card_plays(state: State, seat: int) -> list[Any]:
    """The Thief Cards ``seat`` may play in its turn, with every choice of target."""
    out: list[Any] = []
    others = targets(state, seat)
    if may_play(state, seat, "Swipe"):
        out += [Swipe(t, i) for t in others for i in sorted(set(state.carried[t - 1]))]
    if may_play(state, seat, "Stash"):
        out += [Stash(i) for i in sorted(set(state.carried[seat - 1]))]
    if may_play(state, seat, "Raid"):
        out += [Raid(t) for t in others if state.stashed[t - 1]]
    if may_play(state, seat, "Trip"):
        out += [Trip(t, i) for t in others for i in sorted(set(state.carried[t - 1]))]
    if may_play(state, seat, "Snoop"):
        out += [Snoop(t) for t in in_play(state) if t != seat and not knows_calling(state, seat, t)]
    if may_play(state, seat, "Lift") and state.museum:
        out.append(Lift())
    for card in ("Smoke Pellet", "Deep Pockets", "Getaway Car"):
        if may_play(state, seat, card):
            out.append(PlayUtility(card))
    return out


def knows_calling(state: State, seat: int, other: int) -> bool:
    """Whether ``seat`` has seen ``other``'s Calling Card."""
    return seat == other or state.revealed[other - 1] or other in state.snooped[seat - 1]


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why a well-formed action is refused, in words the seat may read."""
    target = getattr(action, "target", None)
    if target is not None and not 1 <= target <= state.players:
        return f"there is no seat {target}"
    for field in ("item", "card"):
        name = getattr(action, field, None)
        if name is not None and name not in (MUSEUM if field == "item" else THIEF):
            return f"there is no card called {name!r}"
    card = {
        Swipe: "Swipe",
        Stash: "Stash",
        Raid: "Raid",
        Trip: "Trip",
        Snoop: "Snoop",
        Lift: "Lift",
    }.get(type(action))
    if isinstance(action, PlayUtility):
        card = action.card
        if THIEF[card].kind != UTILITY:
            return f"{card} is not a Utility"
    if isinstance(action, (Grip, Latch)) and state.phase == PLAY and state.turn == seat:
        return "Reactions are played on opponents' turns; on your own they have no effect"
    why = why_not_card(state, seat, card, target) if card is not None else None
    if why is not None:
        return why
    if isinstance(action, Discard) and action.card not in state.hands[seat - 1]:
        return f"you hold no {action.card}"
    if isinstance(action, (Drop, Surrender)) and action.item not in state.carried[seat - 1]:
        return f"you do not carry {action.item}"
    if isinstance(action, Surrender) and state.window is not None:
        return f"{action.item} cannot avert {state.window.context.get('security', 'this')}"
    if isinstance(action, Escape) and state.phase == LEAVE and state.alarmed:
        return "Security ended your turn: you cannot escape now"
    return None


def why_not_card(state: State, seat: int, card: str, target: int | None) -> str | None:
    """Why ``seat`` may not play the Thief Card ``card`` (at ``target``) now, or None."""
    if state.phase != PLAY:
        return "Thief Cards are played after your steal, before you end your turn"
    if card not in state.hands[seat - 1]:
        return f"you hold no {card}"
    if state.played.count(card) >= charms.same_title_allowed(state, seat):
        return f"you have already played {card} this turn (no 2 of the same title)"
    if target is not None and (target == seat or target not in in_play(state)):
        return f"seat {target} is not an opponent in the Museum"
    if target is not None and charms.protected(state, target):
        return f"seat {target}'s Smoke Pellet keeps its items out of reach"
    return None


# -- carrying out actions -------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out one legal action; return what happened, each line for its audience."""
    match action:
        case Steal():
            events = do_steal(state, seat, rng)
        case Swipe() | Raid() | Trip() | Stash() | Snoop() | Lift() | PlayUtility():
            events = play_card(state, seat, action, rng)
        case Grip() | Latch():
            events = do_react(state, seat, action, rng)
        case Pass():
            events = do_pass(state, seat, rng)
        case Surrender(item=item):
            events = do_surrender(state, seat, item, rng)
        case Vote(abandon=abandon):
            events = do_vote(state, seat, abandon, rng)
        case EndTurn():
            events = do_end_turn(state, seat, rng)
        case Discard(card=card):
            events = do_discard(state, seat, card, rng)
        case Drop(item=item):
            events = do_drop(state, seat, item, rng)
        case Stay():
            events = do_stay(state, seat, rng)
        case Escape():
            events = do_escape(state, seat, rng)
        case _:
            raise TypeError(f"not a Master Thief action: {action!r}")
    if not state.ended and len(state.strikes) >= charms.strikes_to_end(state):
        events += abandon_heist(state, rng) if state.turns == 0 else end_game(state, "strikes", rng)
    return events


def play_card(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a Thief Card played after the steal (a Reaction is not one)."""
    match action:
        case Swipe(target=target, item=item):
            return do_targeted(state, seat, "Swipe", target, item, rng)
        case Raid(target=target):
            return do_targeted(state, seat, "Raid", target, "", rng)
        case Trip(target=target, item=item):
            return do_targeted(state, seat, "Trip", target, item, rng)
        case Stash(item=item):
            return do_stash(state, seat, item)
        case Snoop(target=target):
            return do_snoop(state, seat, target)
        case Lift():
            return do_lift(state, seat, rng)
        case PlayUtility(card=card):
            return do_utility(state, seat, card)
    raise TypeError(f"not a Master Thief card: {action!r}")


def label(seat: int) -> str:
    return f"Seat {seat}"


def describe_item(name: str) -> str:
    card = MUSEUM[name]
    if card.kind == "Security":
        return f"{name} (Security: avert with {card.category})"
    return f"{name} ({card.category}, {card.bmc} BMC)"


def into_museum(state: State, card: str, rng: Rng) -> None:
    """A card goes back into the disorderly pile, somewhere."""
    state.museum.insert(rng.randrange(len(state.museum) + 1), card)


def draw_thief(state: State, seat: int, count: int) -> list[Event]:
    drawn = [state.deck.pop() for _ in range(count)]
    state.hands[seat - 1] = sorted(state.hands[seat - 1] + drawn)
    if not drawn:
        return []
    return [
        Event.private([seat], f"You draw {', '.join(sorted(drawn))}", "draw", cards=sorted(drawn)),
        Event.others(
            [seat], state.players, f"{label(seat)} draws {count} Thief Cards", "draw", count=count
        ),
    ]


def do_steal(state: State, seat: int, rng: Rng) -> list[Event]:
    if state.phase == HEIST:
        return heist_steal(state, seat, rng)
    if state.phase == TIEBREAK:
        return tie_steal(state, seat, rng)
    return steal_one(state, seat, rng)


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


def do_surrender(state: State, seat: int, item: str, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    answer(window, seat, item)
    return close_avert(state, rng)


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


def do_vote(state: State, seat: int, abandon: bool, rng: Rng) -> list[Event]:
    """The Jury of Thieves: a majority of those in play abandons the Heist."""
    state.votes[seat] = abandon
    events = [
        Event.private([seat], f"You vote to {'abandon' if abandon else 'go on with'} the Heist"),
        Event.others([seat], state.players, f"{label(seat)} has voted"),
    ]
    voters = in_play(state)
    if len(state.votes) < len(voters):
        return events
    yes = sum(state.votes.values())
    tally = f"{yes} of {len(voters)} vote to abandon"
    state.votes = {}
    if 2 * yes > len(voters):
        state.jury_result = f"The Jury abandons the Heist ({tally})"
        return [*events, Event.public(state.jury_result, "jury"), *restart(state, rng)]
    state.jury_result = f"The Jury goes on with the Heist ({tally})"
    return [*events, Event.public(state.jury_result, "jury"), *start_turn(state, state.first)]


def abandon_heist(state: State, rng: Rng) -> list[Event]:
    """The opening Heist left the Strikes that end the game: start over at once.

    Ruling ("decide as a group to abandon the heist and start over"): every thief
    would be caught with nothing before a single turn, so no table would go on and
    no vote is needed. It does not use up one of the Jury's restarts: a fresh deal
    sets off three Strikes seldom, so the game still gets going."""
    state.jury_result = "Three Strikes in the Heist: the heist is abandoned and started over"
    event = Event.public(state.jury_result, "jury")
    return [event, *restart(state, rng, counted=False)]


def restart(state: State, rng: Rng, counted: bool = True) -> list[Event]:
    """Start over: everything is shuffled and dealt again (``counted``: by the Jury)."""
    fresh = setup(state.players, {}, rng)
    fresh.restarts = state.restarts + (1 if counted else 0)
    fresh.jury_result = state.jury_result
    for field in State.__attrs_attrs__:
        setattr(state, field.name, getattr(fresh, field.name))
    # Each thief learns its new hand and Calling Card: a seat learns only by events.
    dealt = [
        Event.private(
            [s],
            f"You are dealt {', '.join(state.hands[s - 1])}; your Calling Card is "
            f"{state.calling[s - 1]}",
            "dealt",
            hand=list(state.hands[s - 1]),
            calling=state.calling[s - 1],
        )
        for s in range(1, state.players + 1)
    ]
    return [
        Event.public("Everything is shuffled and dealt again; a new Heist begins", "restart"),
        *dealt,
    ]


# -- a turn --------------------------------------------------------------------------


def start_turn(state: State, seat: int) -> list[Event]:
    """Begin ``seat``'s turn: its Utilities go, then it must steal."""
    state.turn = seat
    state.turns += 1
    state.played = []
    state.alarmed = False
    state.phase = STEAL
    gone = state.utilities[seat - 1]
    state.utilities[seat - 1] = []
    state.discard += gone
    events = [Event.public(f"{label(seat)}'s turn", "turn", seat=seat)]
    if gone:
        events.append(Event.public(f"{label(seat)} discards {', '.join(gone)} from play"))
    if len(in_play(state)) == 1:
        state.final_turn = True
        events.append(Event.public(f"{label(seat)} is the last thief inside: a final turn"))
    return events


def spend(state: State, seat: int, card: str) -> None:
    state.hands[seat - 1].remove(card)
    state.discard.append(card)
    if state.turn == seat and state.phase == PLAY:
        state.played.append(card)


def do_targeted(
    state: State, seat: int, card: str, target: int, item: str, rng: Rng
) -> list[Event]:
    """Swipe, Raid or Trip: the target may answer with Grip first."""
    spend(state, seat, card)
    what = f" {item}" if item else " a Stashed item"
    events = [
        Event.public(
            f"{label(seat)} plays {card} on {label(target)}:{what}",
            "play",
            card=card,
            target=target,
        )
    ]
    hand = state.hands[target - 1]
    # Whether the target holds a Grip is secret: it is asked whenever it holds any card.
    asked = who_to_ask([target], lambda s: bool(hand), lambda s: "Grip" in hand, secret=True)
    state.window = open_window(card.lower(), seat, asked, context={"target": target, "item": item})
    state.phase = REACT
    if not asked:  # an empty hand, as everyone can see: nothing to answer with
        return events + resolve_targeted(state, rng)
    return events


def resolve_targeted(state: State, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    state.window = None
    state.phase = PLAY
    seat, target, item = window.actor, int(window.context["target"]), str(window.context["item"])
    card = {"swipe": "Swipe", "raid": "Raid", "trip": "Trip"}[window.trigger]
    if card == "Raid":
        pile = state.stashed[target - 1]
        item = pile[rng.randrange(len(pile))]
    if resolution(window):
        events = [Event.public(f"{label(target)} plays Grip: the {card} is stopped", "grip")]
        if card == "Raid":  # a gripped item is Carried again
            state.stashed[target - 1].remove(item)
            state.carried[target - 1].append(item)
            events.append(Event.public(f"{label(target)}'s gripped {item} is Carried again"))
            if len(state.carried[target - 1]) > charms.carry_limit(state, target):
                state.overflow.append(target)
                state.phase = OVERFLOW
        return events
    if card == "Swipe":
        state.carried[target - 1].remove(item)
        state.carried[seat - 1].append(item)
        return [Event.public(f"{label(seat)} takes {item} from {label(target)}", "take")]
    if card == "Raid":
        state.stashed[target - 1].remove(item)
        state.carried[seat - 1].append(item)
        text = f"{label(seat)} raids {describe_item(item)} from {label(target)}'s stash"
        return [Event.public(text, "take")]
    state.carried[target - 1].remove(item)
    into_museum(state, item, rng)
    return [Event.public(f"{label(target)} drops {item} into the Museum", "drop")]


def do_stash(state: State, seat: int, item: str) -> list[Event]:
    spend(state, seat, "Stash")
    state.carried[seat - 1].remove(item)
    state.stashed[seat - 1] = sorted([*state.stashed[seat - 1], item])
    return [Event.public(f"{label(seat)} plays Stash: {item} is Stashed", "play", card="Stash")]


def do_snoop(state: State, seat: int, target: int) -> list[Event]:
    spend(state, seat, "Snoop")
    state.snooped[seat - 1] = sorted([*state.snooped[seat - 1], target])
    seen = state.calling[target - 1]
    return [
        Event.public(f"{label(seat)} plays Snoop on {label(target)}'s Calling Card", "play"),
        Event.private([seat], f"{label(target)}'s Calling Card is {seen}", "snoop", card=seen),
    ]


def do_lift(state: State, seat: int, rng: Rng) -> list[Event]:
    spend(state, seat, "Lift")
    events = [Event.public(f"{label(seat)} plays Lift", "play", card="Lift")]
    return events + steal_one(state, seat, rng)


def do_utility(state: State, seat: int, card: str) -> list[Event]:
    state.hands[seat - 1].remove(card)
    state.played.append(card)
    state.utilities[seat - 1].append(card)
    return [Event.public(f"{label(seat)} puts {card} into play", "play", card=card)]


def do_react(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    card = "Grip" if isinstance(action, Grip) else "Latch"
    answer(window, seat, card)
    events = [Event.private([seat], f"You play {card}")]
    return events + close_react(state, rng)


def do_pass(state: State, seat: int, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    answer(window, seat, PASS)
    if state.phase == AVERT:
        return [
            Event.public(f"{label(seat)} does not avert the Security"),
            *close_avert(state, rng),
        ]
    return [Event.private([seat], "You let it go"), *close_react(state, rng)]


def close_react(state: State, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    if not is_closed(window):
        return []
    for s, card in resolution(window):
        state.hands[s - 1].remove(card)
        state.discard.append(card)
    if window.trigger == "escape":
        return resolve_escape(state, rng)
    return resolve_targeted(state, rng)


def do_end_turn(state: State, seat: int, rng: Rng) -> list[Event]:
    return [Event.public(f"{label(seat)} ends the turn"), *cleanup(state, rng)]


def cleanup(state: State, rng: Rng) -> list[Event]:
    """Down to the limits; then stay or escape (not after Security, unless final)."""
    seat = state.turn
    state.phase = CLEANUP
    if len(state.hands[seat - 1]) > charms.hand_limit(state, seat):
        return []
    if len(state.carried[seat - 1]) > charms.carry_limit(state, seat):
        return []
    if state.alarmed and not state.final_turn:
        return next_turn(state, rng)
    state.phase = LEAVE
    return []


def do_discard(state: State, seat: int, card: str, rng: Rng) -> list[Event]:
    state.hands[seat - 1].remove(card)
    state.discard.append(card)
    return [Event.public(f"{label(seat)} discards {card}", "discard"), *cleanup(state, rng)]


def do_drop(state: State, seat: int, item: str, rng: Rng) -> list[Event]:
    state.carried[seat - 1].remove(item)
    into_museum(state, item, rng)
    events = [Event.public(f"{label(seat)} drops {item} into the Museum", "drop")]
    if state.phase == OVERFLOW:
        if len(state.carried[seat - 1]) <= charms.carry_limit(state, seat):
            state.overflow.pop(0)
            if not state.overflow:
                state.phase = PLAY
        return events
    return events + cleanup(state, rng)


def do_stay(state: State, seat: int, rng: Rng) -> list[Event]:
    return [Event.public(f"{label(seat)} stays in the Museum"), *next_turn(state, rng)]


def do_escape(state: State, seat: int, rng: Rng) -> list[Event]:
    """Reveal the Calling Card; opponents holding cards may answer with Latch."""
    state.revealed[seat - 1] = True
    card = state.calling[seat - 1]
    events = [
        Event.public(f"{label(seat)} reveals {card} and tries to escape", "escape", card=card)
    ]
    getaway = "Getaway Car" in state.utilities[seat - 1]
    order = [s for s in seats_from(seat, state.players)[1:] if state.status[s - 1] == IN]
    # Who holds a Latch is secret: every opponent with cards in hand is asked.
    asked = who_to_ask(
        order,
        lambda s: bool(state.hands[s - 1]) and not getaway,
        lambda s: "Latch" in state.hands[s - 1],
        secret=True,
    )
    state.window = open_window("escape", seat, asked)
    state.phase = REACT
    if not asked:
        return events + resolve_escape(state, rng)
    return events


def resolve_escape(state: State, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    state.window = None
    seat = window.actor
    latched = resolution(window)
    if latched:
        who = ", ".join(label(s) for s, _ in latched)
        events = [Event.public(f"Latch! {who} stops {label(seat)}'s escape", "latch")]
        return events + next_turn(state, rng)
    state.status[seat - 1] = ESCAPED
    state.escapes.append(seat)
    gone = state.hands[seat - 1] + state.utilities[seat - 1]
    state.discard += gone
    state.hands[seat - 1], state.utilities[seat - 1] = [], []
    # The cards go face up onto the discard: the event carries them (its data).
    escaped = Event.public(
        f"{label(seat)} escapes from the Museum", "escaped", discarded=sorted(gone)
    )
    return [escaped, *next_turn(state, rng)]


def next_turn(state: State, rng: Rng) -> list[Event]:
    """The next thief clockwise still inside takes a turn, unless the game is over."""
    if state.last_turn:
        return end_game(state, "time", rng)
    inside = in_play(state)
    if not inside:
        return end_game(state, "escapes", rng)
    for s in [*seats_from(state.turn, state.players)[1:], state.turn]:
        if s in inside:
            return start_turn(state, s)
    raise AssertionError("unreachable: a thief is inside")


# -- the end -------------------------------------------------------------------------


def end_game(state: State, reason: str, rng: Rng) -> list[Event]:
    """Strikes or time: thieves still inside drop their Carried items and are caught."""
    state.ended = reason
    state.window = None
    state.alarms = []
    events = []
    why = {"strikes": "Security Strikes", "time": "Time is up", "escapes": "Everyone is out"}
    events.append(Event.public(f"{why[reason]}: the game is over", "end", reason=reason))
    state.caught_with = [[] for _ in range(state.players)]
    for s in in_play(state):
        state.status[s - 1] = CAUGHT
        state.revealed[s - 1] = True
        state.caught_with[s - 1] = list(state.carried[s - 1])
        # Dropped into the disorderly pile like any card going back: each at a random
        # place, so a tie-break steal cannot hand out what everyone just saw dropped.
        for item in state.carried[s - 1]:
            into_museum(state, item, rng)
        state.carried[s - 1] = []
        events.append(
            Event.public(f"{label(s)} is caught ({state.calling[s - 1]}); only the stash counts")
        )
    state.scores = [score(state, s) for s in range(1, state.players + 1)]
    for s in range(1, state.players + 1):
        state.revealed[s - 1] = True
    shown = ", ".join(f"{label(s)} {state.scores[s - 1]}" for s in range(1, state.players + 1))
    events.append(Event.public(f"Final Black Market Credits: {shown}", "scores"))
    top = max(state.scores)
    best = [s for s in range(1, state.players + 1) if state.scores[s - 1] == top]
    return events + settle(state, best)


def score(state: State, seat: int) -> int:
    """Black Market Credits: the items kept, +2 for each of the Calling Card's kinds."""
    kept = list(state.stashed[seat - 1])
    if state.status[seat - 1] == ESCAPED:
        kept += state.carried[seat - 1]
    favoured = CALLING[state.calling[seat - 1]].categories
    return sum(
        MUSEUM[i].bmc + (CALLING_BONUS if MUSEUM[i].category in favoured else 0) for i in kept
    )


def settle(state: State, best: list[int]) -> list[Event]:
    """One winner, or a tie-break steal while the Museum holds a card for each."""
    if len(best) == 1 or len(state.museum) < len(best):
        state.winners = best
        state.phase = OVER
        return []
    state.tied, state.tie_in, state.phase = best, [], TIEBREAK
    names = ", ".join(label(s) for s in best)
    return [Event.public(f"A tie between {names}: one last steal, all at once", "tie")]


def tie_steal(state: State, seat: int, rng: Rng) -> list[Event]:
    state.tie_in = sorted([*state.tie_in, seat])
    events = [Event.public(f"{label(seat)} reaches into the Museum one last time")]
    if len(state.tie_in) < len(state.tied):
        return events
    state.tie_steals = {}
    for s in state.tied:
        card = state.museum.pop()
        state.tie_steals[s] = card
        events.append(Event.public(f"Tie-break: {label(s)} steals {describe_item(card)}", "steal"))
    top = max(MUSEUM[c].bmc for c in state.tie_steals.values())
    best = [s for s in state.tied if MUSEUM[state.tie_steals[s]].bmc == top]
    for card in state.tie_steals.values():
        into_museum(state, card, rng)
    return events + settle(state, best)


def outcome(state: State) -> Outcome | None:
    """Once everyone has escaped or been caught: the most BMC is the Master Thief."""
    if state.phase != OVER:
        return None
    winners = tuple(state.winners)
    side = label(winners[0]) if len(winners) == 1 else "tie"
    top = state.scores[winners[0] - 1]
    return Outcome(
        side=side,
        winners=winners,
        reason=state.ended,
        summary=f"{side} is the Master Thief with {top} BMC"
        if len(winners) == 1
        else f"{', '.join(label(s) for s in winners)} share the win with {top} BMC",
        figures={
            "bmc": list(state.scores),
            "strikes": len(state.strikes),
            "turns": state.turns,
            "escapes": len(state.escapes),
        },
    )
