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
play), are in test_kit_liarsdice.py. Each leak is also injected into both shipped
titles (The Museum Job: the Thief's square; The House Job: the bottom card of the
deck, which nobody has seen). Those run once the title has its resample hook and
skip, saying so, until then.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest

from gameweave_core import Event, Rng, Title
from gameweave_core.bots import Bot, BotFactory, Observation
from gameweave_core.testing import TitleConformance
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.actions import Bid
from gameweave_sealedbid.state import State

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


#: (bug, the wrapped title, the kit check that must fail, words its message must hold)
BUGS: list[tuple[str, type[Title[Any]], str, Sequence[str]]] = [
    ("all secrets in every view", BidsInEveryView, "test_secrets_are_kept", ["view"]),
    ("bid in the public line", BidInPublicLine, "test_secrets_are_kept", ["by its history"]),
    ("round-2 secret announced", NextLotInRoundTwo, "test_secrets_are_kept", ["by its history"]),
    ("secret in seat_label", BidInSeatLabel, "test_secrets_are_kept", ["by its seat labels"]),
    ("secret in explain_illegal", HighestBidInReason, "test_secrets_are_kept", ["by its refusals"]),
    ("secret in event data", BidInEventData, "test_secrets_are_kept", ["by its events"]),
    ("global random in setup", RandomInSetup, "test_setup_is_deterministic", ["setup is not"]),
    ("global random in apply", RandomInApply, "test_apply_is_deterministic", ["apply is not"]),
    ("global random in a bot", RandomInBot, "test_bots_are_deterministic", ["bot 'thrifty'"]),
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


# -- each leak in both shipped titles ---------------------------------------------------


def thief_square(state: Any) -> Any:
    return state.thief


def bottom_card(state: Any) -> Any:
    # The deck is drawn from the front; the cards past ``shown`` are unseen.
    return state.deck[-1] if len(state.deck) > state.shown else ""


#: Per shipped title: its module, its class, and the secret a leak gives away.
SHIPPED = {
    "museum": ("gameweave_museum.title", "MuseumJob", thief_square),
    "house": ("gameweave_house.title", "HouseJob", bottom_card),
}


def leaky(base: type[Title[Any]], kind: str, secret: Callable[[Any], Any]) -> Title[Any]:
    """``base`` with one leak of ``secret(state)``, of the given kind."""

    def view(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        return {**super(type(self), self).view(state, seat), "leak": secret(state)}

    def base_apply(self: Any, state: Any, seat: int, action: Any, rng: Rng) -> list[Event]:
        # Through super(), not base.apply(self, ...): a title's methods may be its
        # rules functions themselves (a ModuleTitle binds them with staticmethod).
        return list(super(type(self), self).apply(state, seat, action, rng))

    def apply_line(self: Any, state: Any, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = base_apply(self, state, seat, action, rng)
        return [*events, Event.public(f"Psst: {secret(state)}")]

    def apply_later(self: Any, state: Any, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = base_apply(self, state, seat, action, rng)
        if state.round >= 2:
            events.append(Event.public(f"Psst: {secret(state)}"))
        return events

    def apply_data(self: Any, state: Any, seat: int, action: Any, rng: Rng) -> list[Event]:
        events = base_apply(self, state, seat, action, rng)
        return [*events, Event.public("Nothing to see", "psst", secret=secret(state))]

    def seat_label(self: Any, state: Any, seat: int) -> str:
        return f"{super(type(self), self).seat_label(state, seat)} [{secret(state)}]"

    def explain_illegal(self: Any, state: Any, seat: int, action: Any) -> str | None:
        reason = super(type(self), self).explain_illegal(state, seat, action) or "not now"
        return f"{reason} [{secret(state)}]"

    leaks: dict[str, dict[str, Any]] = {
        "view": {"view": view},
        "public line": {"apply": apply_line},
        "later-round line": {"apply": apply_later},
        "event data": {"apply": apply_data},
        "seat label": {"seat_label": seat_label},
        "refusal reason": {"explain_illegal": explain_illegal},
    }
    wrapped: type[Title[Any]] = type(f"Leaky{base.__name__}", (base,), leaks[kind])
    return wrapped()


LEAKS = {
    "view": "view",
    "public line": "by its history",
    "later-round line": "by its history",
    "event data": "by its events",
    "seat label": "by its seat labels",
    "refusal reason": "by its refusals",
}


def shipped_class(shipped: str) -> type[Title[Any]]:
    """The shipped title's class, imported only now (the titles are distributions of
    their own, installed beside the core in the project's environment)."""
    module_name, class_name, _ = SHIPPED[shipped]
    base: type[Title[Any]] = getattr(importlib.import_module(module_name), class_name)
    assert base().can_resample, f"{module_name}.{class_name} must have its resample hook"
    return base


@pytest.mark.parametrize("shipped", sorted(SHIPPED))
def test_the_unmodified_shipped_titles_pass_without_written_twins(shipped: str) -> None:
    kit = type("Kit", (TitleConformance,), {"title": shipped_class(shipped)()})()
    kit.test_secrets_are_kept()


@pytest.mark.parametrize("kind", sorted(LEAKS))
@pytest.mark.parametrize("shipped", sorted(SHIPPED))
def test_each_leak_in_each_shipped_title_is_caught(shipped: str, kind: str) -> None:
    base = shipped_class(shipped)
    secret = SHIPPED[shipped][2]
    message = kit_failure(leaky(base, kind, secret), "test_secrets_are_kept")
    print(f"{shipped}, {kind}: {message.splitlines()[0]}")
    for word in (LEAKS[kind], "step"):
        assert word in message, f"{shipped}, {kind}: {word!r} is not named in: {message}"
