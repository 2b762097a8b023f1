"""Proof that the conformance kit catches real bugs (issue 12, item 8).

Each bug of the issue's table is injected into the tutorial title by WRAPPING it (a
subclass; no file is edited), with no author-written twins, and the kit must fail
with a message naming the surface and the step. The Liar's Dice bugs map onto
Sealed Bids as the table below says (the dice are the sealed bids and the lot deck):

====================================================  =========================================
Liar's Dice bug                                       Sealed Bids analogue
====================================================  =========================================
all dice in every seat's view                         every sealed bid in every view
bidder's dice in the public bid line                  the amount in the public "seals a bid" line
re-rolled dice announced publicly in round 2          from lot 2 on, the next hidden lot in a
                                                      public line
dice in ``seat_label``                                a seat's sealed bid in its label
true dice count in an ``explain_illegal`` reason      the highest sealed bid in the reason
dice in a public event's ``data``                     the amount in the public event's data
global ``random`` in ``setup``                        the deck shuffled with ``random``
global ``random`` in ``apply``                        lots to come reshuffled with ``random``
global ``random`` in a bot                            the thrifty bot bids with ``random``
====================================================  =========================================

The same nine bugs, in a Liar's Dice title like the issue's (dice re-rolled during
play), are in test_kit_liarsdice.py. The same leaks injected into the shipped titles
are tests/shipped/test_kit_on_shipped_titles.py (the core's tests use the core's own
test titles only).
"""

from __future__ import annotations

import copy
import random
import re
import types
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

from gameweave_core import Event, Rng, Title
from gameweave_core.bots import Bot, BotFactory, Observation
from gameweave_core.testing import TitleConformance
from gameweave_core.worlds import World
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.actions import Bid
from gameweave_sealedbid.bots import ThriftyBot
from gameweave_sealedbid.state import State

from . import ohhell, pickpocket
from .ohhell import OhHell
from .ohhell import State as HellState
from .pickpocket import GUARDS, Pickpocket
from .pickpocket import State as PickState

# -- the nine bugs, in the tutorial title -----------------------------------------------


class BidsInEveryView(SealedBid):
    """Every seat's sealed bid in every view."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        bids = {str(s): b for s, b in sorted(state.bids.items())}
        return {**super().view(state, seat), "bids": bids}


class BidInPublicLine(SealedBid):
    """The bid amount in the public 'seals a bid' line."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        plain = f"Seat {seat} seals a bid"
        return [
            attrs.evolve(e, text=f"{plain} of {action.coins}") if e.text == plain else e
            for e in events
        ]


class NextLotInRoundTwo(SealedBid):
    """From the second lot on, each sealed bid's public line names the next hidden lot."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = list(super().apply(state, seat, action, rng))
        if state.sold >= 1 and state.bids and state.deck:  # lot 2 on, between sales
            events.append(Event.public(f"The auctioneer hints: {state.deck[0]} points next"))
        return events


class BidInSeatLabel(SealedBid):
    """A seat's sealed bid in its label (every seat and spectator reads every label)."""

    def seat_label(self, state: State, seat: int) -> str:
        label = super().seat_label(state, seat)
        return f"{label} (bid {state.bids[seat]})" if seat in state.bids else label


class HighestBidInReason(SealedBid):
    """The highest sealed bid in the reason an over-bid is refused."""

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        reason = super().explain_illegal(state, seat, action)
        if reason and state.bids:
            return f"{reason} (the best sealed bid is only {max(state.bids.values())})"
        return reason


class BidInEventData(SealedBid):
    """The amount in the data of the public 'seals a bid' event (its text is fine)."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        plain = f"Seat {seat} seals a bid"
        return [
            attrs.evolve(e, kind="sealed", data={"coins": action.coins}) if e.text == plain else e
            for e in events
        ]


class RandomInSetup(SealedBid):
    """The lot deck shuffled with the global random module."""

    def setup(self, players: int, config: Any, rng: Rng) -> State:
        state = super().setup(players, config, rng)
        random.shuffle(state.deck)
        return state


class RandomInApply(SealedBid):
    """The lots to come reshuffled with the global random module after each sale."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = list(super().apply(state, seat, action, rng))
        if not state.bids:  # a lot was just sold
            random.shuffle(state.deck)
        return events


class RandomThrifty:
    """The thrifty bot, drawing with the global random module."""

    def act(self, observation: Observation, rng: Rng) -> Bid:
        view = observation.view
        coins = view["coins"][observation.seat - 1]
        return Bid(max(0, min(coins, view["lot"] + random.randint(-1, 2))))


def random_thrifty(seat: int, players: int) -> Bot:
    return RandomThrifty()


class RandomInBot(SealedBid):
    def bots(self) -> dict[str, BotFactory]:
        return {"thrifty": random_thrifty}


#: What the kit names when a title or bot draws from Python's global generator.
RANDOM = "the global random module (random."

#: (bug, the wrapped title, the kit check that must fail, words its message must hold)
BUGS: list[tuple[str, type[Title[Any]], str, Sequence[str]]] = [
    ("all secrets in every view", BidsInEveryView, "test_secrets_are_kept", ["view"]),
    ("bid in the public line", BidInPublicLine, "test_secrets_are_kept", ["by its history"]),
    ("round-2 secret announced", NextLotInRoundTwo, "test_secrets_are_kept", ["by its history"]),
    ("secret in seat_label", BidInSeatLabel, "test_secrets_are_kept", ["by its seat labels"]),
    ("secret in explain_illegal", HighestBidInReason, "test_secrets_are_kept", ["by its refusals"]),
    ("secret in event data", BidInEventData, "test_secrets_are_kept", ["by its events"]),
    ("global random in setup", RandomInSetup, "test_setup_is_deterministic", ["setup", RANDOM]),
    ("global random in apply", RandomInApply, "test_apply_is_deterministic", ["apply", RANDOM]),
    (
        "global random in a bot",
        RandomInBot,
        "test_bots_are_deterministic",
        ["bot 'thrifty'", RANDOM],
    ),
]


def messages(exc: BaseException) -> Iterator[str]:
    """The messages of an exception and of any it groups (hypothesis may group a
    failure it could not reproduce)."""
    yield str(exc)
    for inner in getattr(exc, "exceptions", ()):
        yield from messages(inner)


def kit_failure(title: Title[Any], check: str) -> str:
    """Run one check of the kit on ``title``; the message it failed with."""
    kit = type("Kit", (TitleConformance,), {"title": title})()
    try:
        getattr(kit, check)()
    except BaseException as exc:  # AssertionError, or hypothesis's group of them
        if isinstance(exc, (KeyboardInterrupt, pytest.skip.Exception)):
            raise
        return "\n".join(messages(exc))
    raise AssertionError(f"the kit's {check} passed on {type(title).__name__}")


@pytest.mark.parametrize(("bug", "wrapped", "check", "words"), BUGS, ids=[row[0] for row in BUGS])
def test_the_kit_catches_the_bug_and_names_surface_and_step(
    bug: str, wrapped: type[Title[Any]], check: str, words: Sequence[str]
) -> None:
    message = kit_failure(wrapped(), check)
    print(f"{bug}: {message.splitlines()[0]}")  # the table in the report (pytest -rP)
    for word in [*words, "step"]:
        assert word in message, f"{bug}: {word!r} is not named in: {message}"


@pytest.mark.parametrize("check", sorted({row[2] for row in BUGS}))
def test_the_unmodified_tutorial_title_passes(check: str) -> None:
    kit = type("Kit", (TitleConformance,), {"title": SealedBid()})()
    getattr(kit, check)()


def test_a_title_with_secrets_and_no_way_to_check_them_fails() -> None:
    class NoHook(SealedBid):
        resample = Title.resample  # as if never written

    assert not NoHook().can_resample
    message = kit_failure(NoHook(), "test_secrets_are_kept")
    assert "has secrets (has_secrets is true for seat 1 at step 0)" in message
    assert "implement Title.resample" in message and "twins()" in message


# -- the kinds of bug the kit took on trust before issue 25 ------------------------------
#
# Each kind is injected into the tutorial title and into Pickpocket (pickpocket.py: a
# hidden hand, a secret deck, a reaction window), by wrapping. The kit checks that
# catch them: the view criterion (a view that changes while everything the seat
# received and did is the same), the resample contract (one seed, one draw from
# worlds the seat cannot tell apart), the watch on unseeded randomness, and
# refusals probed for every kind of action and at the edges of the seat's own.


@attrs.define
class NotedState(State):
    """Sealed Bids' state with one more field, for the mutants that keep a note."""

    note: list[int] = attrs.field(factory=list)


class Noting(SealedBid):
    def setup(self, players: int, config: Any, rng: Rng) -> State:
        state = super().setup(players, config, rng)
        return NotedState(**{f.name: getattr(state, f.name) for f in attrs.fields(State)})

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, NotedState)
        return {**super().view(state, seat), "note": list(state.note)}


class TellsWhatComesAfter(Noting):
    """View leak after a random draw: when a lot comes up from the hidden deck, the
    view notes (and keeps) whether the lot after it is worth more."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        if not state.bids and state.deck:  # a lot was sold and the next came up
            assert isinstance(state, NotedState)
            state.note = [int(state.deck[0] > state.lot)]
        return list(events)


class RanksTheSealedBids(Noting):
    """View leak of a secret choice: the view lists the seats that have bid, kept in
    the order of their sealed amounts."""

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        assert isinstance(state, NotedState)
        state.note = sorted(state.bids, key=lambda s: (state.bids[s], s))
        return list(events)


class KeepsTheSealedBids(SealedBid):
    """resample from the true state: the lots to come are drawn again, the other
    seats' sealed bids are kept as they truly are."""

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        drawn = super().resample(state, seat, rng)
        drawn.bids = dict(state.bids)
        return drawn


class ShufflesTheDeckWhereItLies(SealedBid):
    """resample depending on the true order: the lots to come are shuffled in place
    (The House Job's bug), so the true order shows through every draw."""

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        drawn = super().resample(state, seat, rng)
        drawn.deck = list(state.deck)
        rng.shuffle(drawn.deck)
        return drawn


class Whim:
    """The thrifty bot, which now and then (one decision in twelve) bids on a whim
    drawn from the global random module."""

    def act(self, observation: Observation, rng: Rng) -> Bid:
        if rng.random() < 1 / 12:
            coins = observation.view["coins"][observation.seat - 1]
            return Bid(random.randint(0, coins))
        return ThriftyBot().act(observation, rng)


class WhimInABot(SealedBid):
    def bots(self) -> dict[str, BotFactory]:
        return {"thrifty": lambda seat, players: Whim()}


#: A generator of the bot's own, seeded once when the module is imported.
OWN_GENERATOR = random.Random(2024)


class OwnTies:
    """The thrifty bot drawing from a generator of its own instead of the one the
    match hands it."""

    def act(self, observation: Observation, rng: Rng) -> Bid:
        return ThriftyBot().act(observation, Rng(OWN_GENERATOR.getrandbits(32)))


class OwnGeneratorInABot(SealedBid):
    def bots(self) -> dict[str, BotFactory]:
        return {"thrifty": lambda seat, players: OwnTies()}


class HighestBidAtTheEdge(SealedBid):
    """A rare refusal leak: from the second lot on, a seat holding 10 coins or more
    that bids exactly one coin more than it holds, on a lot worth 7 or more, is
    refused naming the highest sealed bid (the kit before issue 25, trying three
    refusals drawn from every action seen in the match, missed it)."""

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        reason = super().explain_illegal(state, seat, action)
        coins = state.coins[seat - 1]
        edge = isinstance(action, Bid) and action.coins == coins + 1
        rare = state.lot >= 7 and coins >= 10 and state.sold >= 1
        if reason and edge and rare and state.bids:
            return f"{reason} (the best sealed bid is {max(state.bids.values())})"
        return reason


class ForgetsOnlyTheTakenCard(Pickpocket):
    """View leak after a random transfer (Museum Rush's): when a card is taken at
    random, the table forgets that card only, so its view of the victim's hand
    drops exactly the card that left."""

    def apply(self, state: PickState, seat: int, action: Any, rng: Rng) -> list[Event]:
        before = list(state.knows)
        events = super().apply(state, seat, action, rng)
        for e in events:
            if e.kind == "took" and e.seats is not None:  # thief and victim saw the card
                state.knows[:] = before
                state.knows[e.data["card"]] = sum(1 << s for s in e.seats)
        return events


class KeepsTheTrueHands(Pickpocket):
    """resample from the true state: the deck is drawn again, the hands are kept."""

    def resample(self, state: PickState, seat: int | None, rng: Rng) -> PickState:
        drawn = copy.deepcopy(state)
        drawn.deck = sorted(state.deck)
        rng.shuffle(drawn.deck)
        return drawn


class DealsFromTheTrueOrder(Pickpocket):
    """resample depending on the true order: the unknown cards are shuffled as they
    lie instead of from a fixed order."""

    def resample(self, state: PickState, seat: int | None, rng: Rng) -> PickState:
        return pickpocket.resample(state, seat, rng, canonical=False)


class GreedyOnAWhim:
    """Pickpocket's bot, which now and then (one decision in twelve) plays a legal
    action drawn from the global random module."""

    def __init__(self, seat: int) -> None:
        self.bot = pickpocket.Greedy(seat)

    def act(self, observation: Observation, rng: Rng) -> Any:
        if rng.random() < 1 / 12:
            return random.choice(list(observation.legal))
        return self.bot.act(observation, rng)


class WhimInPickpocketsBot(Pickpocket):
    def bots(self) -> dict[str, BotFactory]:
        return {"greedy": lambda seat, players: GreedyOnAWhim(seat)}


#: A project generator of the bot's own, made when the module is imported.
TIES = Rng(7)


class GreedyWithItsOwnTies:
    """Pickpocket's bot breaking ties with a generator of its own (a project ``Rng``,
    made once), not the one it is handed."""

    def __init__(self, seat: int) -> None:
        self.bot = pickpocket.Greedy(seat)

    def act(self, observation: Observation, rng: Rng) -> Any:
        return self.bot.act(observation, TIES)


class OwnRngInPickpocketsBot(Pickpocket):
    def bots(self) -> dict[str, BotFactory]:
        return {"greedy": lambda seat, players: GreedyWithItsOwnTies(seat)}


class NamesTheGuards(Pickpocket):
    """A rare refusal leak: once a Guard has been spent, a draw tried during a pick
    (a kind of action few refusals are drawn from) is refused naming who still
    holds a Guard (the kit before issue 25 missed it)."""

    def explain_illegal(self, state: PickState, seat: int, action: Any) -> str | None:
        if isinstance(action, pickpocket.Draw) and state.window is not None and state.discard:
            holders = [s for s, h in enumerate(state.hands, 1) if any(c in GUARDS for c in h)]
            return f"wait for the pick to end (Guards are held by {holders})"
        return super().explain_illegal(state, seat, action)


class AsksOnlyTheHolders(Pickpocket):
    """The window asks only the seats that hold a Guard, and the view shows whom it
    asked: the prompt tells the table who holds one."""

    def apply(self, state: PickState, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        window = state.window
        if isinstance(action, pickpocket.Pick) and window is not None:
            window.order = [s for s in window.order if any(c in GUARDS for c in state.hands[s - 1])]
            events += pickpocket.close(state, rng)
        return events

    def view(self, state: PickState, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        if state.window is not None:
            out["window"]["asked"] = list(state.window.order)
        return out


class NamesWhoHoldsTheSuit(OhHell):
    """A refusal that names another seat's cards, on an action whose field is a
    string: playing off-suit while holding the suit led is refused naming who else
    still holds it (Oh Hell written from the tutorial shipped this; the kit's
    near misses, whole numbers only, never reached it)."""

    def explain_illegal(self, state: HellState, seat: int, action: Any) -> str | None:
        reason = super().explain_illegal(state, seat, action)
        led = ohhell.led_suit(state)
        if reason is not None and "follow" in reason and led is not None:
            holders = [
                s
                for s, hand in enumerate(state.hands, 1)
                if s != seat and any(ohhell.suit(c) == led for c in hand)
            ]
            return f"{reason} (seats {holders} still hold {ohhell.SUIT_NAMES[led]})"
        return reason


class IgnoresShownVoids(OhHell):
    """A world that deals a seat a suit it has shown it lacks (it did not follow)."""

    def resample_world(self, state: HellState, seat: int | None, rng: Rng) -> World:
        def no_voids(state: HellState) -> dict[int, set[str]]:
            return {s: set() for s in range(1, state.players + 1)}

        real = ohhell.voids
        ohhell.voids = no_voids
        try:
            return ohhell.resample_world(state, seat, rng)
        finally:
            ohhell.voids = real


class DealsPlayedCardsBack(OhHell):
    """A world that deals the cards played this round back at random, forgetting who
    played them: a card the table saw one seat play turns up in another's hand."""

    def resample_world(self, state: HellState, seat: int | None, rng: Rng) -> World:
        chance: list[int] = []
        for plays, trump in zip(state.past_plays, state.past_trumps, strict=True):
            past = {s: [c for p, c in plays if p == s] for s in range(1, state.players + 1)}
            chance += ohhell.deal_outcomes(state.players, past, trump)
        if state.over:
            return World(tuple(chance))
        now = [p for t in [*state.tricks, state.trick] for p in t]
        mine = list(state.hands[seat - 1]) if seat is not None else []
        mine_played = [c for p, c in now if p == seat]
        pool = [c for c in ohhell.CARDS if c not in mine and c != state.trump]
        pool = [c for c in pool if c not in mine_played]
        rng.shuffle(pool)
        hands: dict[int, list[str]] = {}
        for s in range(1, state.players + 1):
            size = len(state.hands[s - 1]) + sum(1 for p, _ in now if p == s)
            hands[s] = mine_played + mine if s == seat else [pool.pop() for _ in range(size)]
        return World(tuple(chance + ohhell.deal_outcomes(state.players, hands, state.trump)))


SECRETS = "test_secrets_are_kept"
BOTS = "test_bots_are_deterministic"
WORLDS = "test_resampled_worlds_are_consistent"

#: (kind, title, the wrapped title, the kit check that must fail, words it must name);
#: every message must also name the seat (or the spectator) and the step.
NEW_BUGS: list[tuple[str, str, type[Title[Any]], str, Sequence[str]]] = [
    ("view leak after a random draw", "sealedbid", TellsWhatComesAfter, SECRETS, ["view"]),
    ("view leak of a secret choice", "sealedbid", RanksTheSealedBids, SECRETS, ["view"]),
    ("resample from the true state", "sealedbid", KeepsTheSealedBids, SECRETS, ["resample"]),
    ("resample in the true order", "sealedbid", ShufflesTheDeckWhereItLies, SECRETS, ["resample"]),
    ("global random in a rare bot branch", "sealedbid", WhimInABot, BOTS, ["bot", RANDOM]),
    ("a bot's own generator", "sealedbid", OwnGeneratorInABot, BOTS, ["bot", "generator"]),
    ("rare refusal leak", "sealedbid", HighestBidAtTheEdge, SECRETS, ["by its refusals"]),
    ("view leak after a random transfer", "pickpocket", ForgetsOnlyTheTakenCard, SECRETS, ["view"]),
    ("resample from the true state", "pickpocket", KeepsTheTrueHands, SECRETS, ["resample"]),
    ("resample in the true order", "pickpocket", DealsFromTheTrueOrder, SECRETS, ["resample"]),
    (
        "global random in a rare bot branch",
        "pickpocket",
        WhimInPickpocketsBot,
        BOTS,
        ["bot", RANDOM],
    ),
    ("a bot's own Rng", "pickpocket", OwnRngInPickpocketsBot, BOTS, ["bot", "other than the Rng"]),
    ("rare refusal leak", "pickpocket", NamesTheGuards, SECRETS, ["by its refusals"]),
    ("window asking only holders", "pickpocket", AsksOnlyTheHolders, SECRETS, ["view"]),
    (
        "refusal naming another seat's card",
        "ohhell",
        NamesWhoHoldsTheSuit,
        SECRETS,
        ["by its refusals"],
    ),
    ("resample ignoring a shown void", "ohhell", IgnoresShownVoids, WORLDS, ["resample_world"]),
    (
        "resample dealing played cards back",
        "ohhell",
        DealsPlayedCardsBack,
        WORLDS,
        ["resample_world"],
    ),
]


def rng_watchable() -> bool:
    """Whether the kit can watch draws from the project's own ``Rng`` (a compiled
    build's ``Rng`` is a native class, whose methods cannot be wrapped)."""
    return isinstance(Rng.__dict__.get("word"), types.FunctionType)


@pytest.mark.parametrize(
    ("bug", "on", "wrapped", "check", "words"), NEW_BUGS, ids=[f"{b[1]}: {b[0]}" for b in NEW_BUGS]
)
def test_the_kit_catches_each_new_kind_of_bug(
    bug: str, on: str, wrapped: type[Title[Any]], check: str, words: Sequence[str]
) -> None:
    if wrapped is OwnRngInPickpocketsBot and not rng_watchable():
        pytest.skip("the compiled build's Rng cannot be watched (the docs say so)")
    message = kit_failure(wrapped(), check)
    print(f"{on}, {bug}: {message.splitlines()[0]}")  # the table in the report (pytest -rP)
    for word in [*words, "step"]:
        assert word in message, f"{on}, {bug}: {word!r} is not named in: {message}"
    assert re.search(r"seat \d|the spectator", message), f"{on}, {bug}: no seat in: {message}"
