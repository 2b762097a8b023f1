"""The issue's own nine bugs, in a Liar's Dice title like the one that found them.

Sealed Bids (test_kit_mutations.py) draws all its chance in ``setup``; Liar's Dice
re-rolls dice during play, out of the other seats' sight. Its bug "re-rolled dice
announced publicly in round 2" is caught only by twins that go on with a generator
of their own: the last test shows twins that share the real generator miss it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from gameweave_core import Event, Rng, Title
from gameweave_core.bots import Bot, BotFactory, Observation
from gameweave_core.testing import TitleConformance, check_resampled_twins

from .liarsdice import Bid, LiarsDice, Reroll, State
from .test_kit_mutations import kit_failure


class TestLiarsDiceConformance(TitleConformance):
    """The unmodified title passes the whole kit, with no written twins."""

    title = LiarsDice()


def dice(state: State, seat: int) -> str:
    return " ".join(map(str, state.dice[seat - 1]))


class AllDiceInEveryView(LiarsDice):
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "dice": [list(h) for h in state.dice]}


class DiceInBidLine(LiarsDice):
    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        if isinstance(action, Bid):
            return [attrs.evolve(events[0], text=f"{events[0].text} (holding {dice(state, seat)})")]
        return events


class RerollShownInRoundTwo(LiarsDice):
    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        if isinstance(action, Reroll) and state.round >= 2:
            told = f"Seat {seat} re-rolls: {dice(state, seat)}"
            return [attrs.evolve(e, text=told) if e.kind == "reroll" else e for e in events]
        return events


class DiceInSeatLabel(LiarsDice):
    def seat_label(self, state: State, seat: int) -> str:
        return f"Player {seat} ({dice(state, seat)})"


class TrueCountInReason(LiarsDice):
    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        reason = super().explain_illegal(state, seat, action)
        if reason and state.bid is not None:
            really = sum(d == state.bid[1] for hand in state.dice for d in hand)
            return f"{reason} (there are really {really})"
        return reason


class DiceInEventData(LiarsDice):
    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        if isinstance(action, Bid):
            return [attrs.evolve(events[0], data={"dice": list(state.dice[seat - 1])})]
        return events


class RandomInSetup(LiarsDice):
    def setup(self, players: int, config: Any, rng: Rng) -> State:
        state = super().setup(players, config, rng)
        state.dice = [sorted(random.randint(1, 6) for _ in hand) for hand in state.dice]
        return state


class RandomInApply(LiarsDice):
    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        if isinstance(action, Reroll):
            state.dice[seat - 1] = sorted(random.randint(1, 6) for _ in range(3))
        return events


class Reckless:
    def act(self, observation: Observation, rng: Rng) -> Any:
        return random.choice(list(observation.legal))


def reckless(seat: int, players: int) -> Bot:
    return Reckless()


class RandomInBot(LiarsDice):
    def bots(self) -> dict[str, BotFactory]:
        return {"bold": reckless}


#: What the kit names when a title draws from Python's global generator.
RANDOM = "the global random module (random."

#: (the issue's bug, the wrapped title, the kit check that must fail, what it must name)
BUGS: list[tuple[str, type[Title[Any]], str, Sequence[str]]] = [
    ("all dice in every view", AllDiceInEveryView, "test_secrets_are_kept", ["view"]),
    ("bidder's dice in the bid line", DiceInBidLine, "test_secrets_are_kept", ["by its history"]),
    ("re-roll told in round 2", RerollShownInRoundTwo, "test_secrets_are_kept", ["by its history"]),
    ("dice in seat_label", DiceInSeatLabel, "test_secrets_are_kept", ["by its seat labels"]),
    ("true count in a reason", TrueCountInReason, "test_secrets_are_kept", ["by its refusals"]),
    ("dice in event data", DiceInEventData, "test_secrets_are_kept", ["by its events"]),
    ("global random in setup", RandomInSetup, "test_setup_is_deterministic", ["setup", RANDOM]),
    ("global random in apply", RandomInApply, "test_apply_is_deterministic", ["apply", RANDOM]),
    ("global random in a bot", RandomInBot, "test_bots_are_deterministic", ["bot 'bold'", RANDOM]),
]


@pytest.mark.parametrize(("bug", "wrapped", "check", "words"), BUGS, ids=[b[0] for b in BUGS])
def test_the_kit_catches_each_bug_of_the_issue(
    bug: str, wrapped: type[Title[Any]], check: str, words: Sequence[str]
) -> None:
    message = kit_failure(wrapped(), check)
    print(f"{bug}: {message.splitlines()[0]}")  # the table in the report (pytest -rP)
    for word in [*words, "step"]:
        assert word in message, f"{bug}: {word!r} is not named in: {message}"


def leaks_found(title: Title[Any], own_generators: float) -> int:
    """How many of 12 random matches' resampled twins catch a leak in ``title``
    (without the replayed twins, which always have a generator of their own, nor
    the twins drawn to go deeper, some of which share the generator)."""
    found = 0
    for seed in range(12):
        try:
            check_resampled_twins(
                title,
                2 + seed % 3,
                seed,
                own_generators=own_generators,
                replayed=False,
                deeper=False,
                by_bots=0.0,
            )
        except AssertionError:
            found += 1
    return found


def test_a_leak_of_chance_drawn_after_the_fork_needs_twins_with_their_own_generator() -> None:
    leaky = RerollShownInRoundTwo()
    assert leaks_found(leaky, own_generators=0.0) == 0
    assert leaks_found(leaky, own_generators=0.5) > 0
    assert leaks_found(LiarsDice(), own_generators=0.5) == 0
