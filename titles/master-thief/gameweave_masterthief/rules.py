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

This module is the way in: the title's entry points (``setup``, ``awaiting``,
``legal_actions``, ``explain_illegal``, ``apply``, ``outcome``) and the actions a
seat takes (``do_<kind>``). The rest is cut by concept: :mod:`~.table` (who is in
play, names, the card moves all of them make), :mod:`~.choices` (what a thief may
play), :mod:`~.alarms` (stealing and the Security it turns up), :mod:`~.turns` (a
turn's start, its clean-up, the next turn) and :mod:`~.end` (the end and the score).
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
from .alarms import close_avert, heist_steal, steal_one
from .cards import (
    CALLING_CARDS,
    MUSEUM,
    MUSEUM_CARDS,
    THIEF,
    UTILITY,
    thief_deck,
)
from .choices import card_plays, knows_calling, why_not_card
from .end import end_game, tie_steal
from .state import (
    AVERT,
    CLEANUP,
    ESCAPED,
    HAND_DEALT,
    HEIST,
    IN,
    JURY,
    LEAVE,
    OVER,
    OVERFLOW,
    PLAY,
    REACT,
    STEAL,
    TIEBREAK,
    State,
)
from .table import describe_item, in_play, into_museum, label, spend
from .turns import cleanup, next_turn, start_turn

#: The way in: the title's entry points, and what the title's other modules (views,
#: resample) and tests ask of the rules.
__all__ = [
    "apply",
    "awaiting",
    "check_config",
    "end_game",
    "explain_illegal",
    "knows_calling",
    "legal_actions",
    "outcome",
    "setup",
]

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
    if not state.ended and state.phase != JURY and fatal_strikes(state):
        events += jury_on_the_heist(state) if state.turns == 0 else end_game(state, "strikes", rng)
    return events


def fatal_strikes(state: State) -> bool:
    """Whether the Strikes standing end the game (three, or four with The Scream)."""
    return len(state.strikes) >= charms.strikes_to_end(state)


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


def do_steal(state: State, seat: int, rng: Rng) -> list[Event]:
    if state.phase == HEIST:
        return heist_steal(state, seat, rng)
    if state.phase == TIEBREAK:
        return tie_steal(state, seat, rng)
    return steal_one(state, seat, rng)


def do_surrender(state: State, seat: int, item: str, rng: Rng) -> list[Event]:
    window = state.window
    assert window is not None
    answer(window, seat, item)
    return close_avert(state, rng)


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
    fatal = fatal_strikes(state)
    if 2 * yes > len(voters):
        state.jury_result = f"The Jury abandons the Heist ({tally})"
        # A Heist that ended the game is started over without using up a restart:
        # the Jury's two restarts are for Heists a table could have played on.
        return [
            *events,
            Event.public(state.jury_result, "jury"),
            *restart(state, rng, counted=not fatal),
        ]
    state.jury_result = f"The Jury goes on with the Heist ({tally})"
    if fatal:
        return [*events, Event.public(state.jury_result, "jury"), *end_game(state, "strikes", rng)]
    return [*events, Event.public(state.jury_result, "jury"), *start_turn(state, state.first)]


def jury_on_the_heist(state: State) -> list[Event]:
    """The opening Heist left the Strikes that end the game: the Jury of Thieves
    votes whether to abandon it and start over, or to go on, which ends the game at
    once with every thief caught.

    Ruling ("decide as a group to abandon the heist and start over. See: CALLING A
    JURY OF THIEVES"): the group decides, as the rulebook says, even here. The vote
    is offered whatever restarts the Jury has used, and abandoning this Heist does
    not use one up."""
    state.phase = JURY
    state.votes = {}
    return [
        Event.public(
            f"{len(state.strikes)} Strikes in the Heist: the Jury of Thieves votes to abandon it "
            "and start over, or to go on, which ends the game at once",
            "jury",
        )
    ]


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


# -- the end -------------------------------------------------------------------------


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
