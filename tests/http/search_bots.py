"""A plugin for the search tests: a search bot the test holds back, one that notes
each of its searches, and a title that cannot be searched. The server's search workers import it by its module
name (``tests/http`` is on the path they inherit), as they import any plugin."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameweave_core import Rng, Title
from gameweave_core.bots import Bot, Observation
from gameweave_core.hooks import hookimpl
from gameweave_core.ismcts import IsmctsBot, SearchOptions
from gameweave_sealedbid.title import SealedBid

#: The environment variable naming the gate file: the held bot searches until it exists.
GATE_ENV = "GAMEWEAVE_TEST_SEARCH_GATE"
#: The environment variable naming the file a traced bot appends a line to per search.
TRACE_ENV = "GAMEWEAVE_TEST_SEARCH_TRACE"


def started_file(gate: Path) -> Path:
    """The file a held bot creates once its search is under way."""
    return gate.with_name(gate.name + ".started")


class HeldSearchBot(IsmctsBot):
    """A real search bot that keeps searching (burning a CPU, as a long search
    does) until the test opens its gate, then plays the move its own seed gives."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        gate = Path(os.environ[GATE_ENV])
        started_file(gate).touch()
        burn = Rng(0)  # the seat's generator stays untouched until the real search
        while not gate.exists():
            self.search(observation, burn)
        return super().act(observation, rng)


class TracedSearchBot(IsmctsBot):
    """A short search that first appends the number of seats of its match to the
    trace file: with one worker, the file lists the searches in the order the pool
    ran them (a test tells its matches apart by their number of seats)."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        with Path(os.environ[TRACE_ENV]).open("a") as trace:
            trace.write(f"{self.players}\n")
        return super().act(observation, rng)


class BlindBids(SealedBid):
    """Sealed Bids without its resample hook: nothing can search it."""

    name = "blindbids"
    display_name = "Blind Bids"
    resample = Title.resample


def held(seat: int, players: int) -> Bot:
    return HeldSearchBot(SealedBid(), seat, players, SearchOptions(iterations=40))


def traced(seat: int, players: int) -> Bot:
    return TracedSearchBot(SealedBid(), seat, players, SearchOptions(iterations=40))


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(BlindBids())


@hookimpl
def register_bots(register: Callable[[str, str, Any], None]) -> None:
    register("sealedbid", "held", held)
    register("sealedbid", "traced", traced)
