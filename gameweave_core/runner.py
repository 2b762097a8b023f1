"""Driving bots: seats played by the computer, each from its own view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attr

from .bots import Bot
from .match import Match
from .rng import Rng, derive_seed

if TYPE_CHECKING:
    from .registry import Registry


# attr.s(auto_attribs=True) rather than attrs.define: mypyc compiles this spelling
# into a native class (see setup.py).
@attr.s(auto_attribs=True, slots=True)
class BotSeat:
    """A bot and its own generator, seeded from the match seed and the seat."""

    bot: Bot
    rng: Rng
    name: str = "bot"


def seat_bots(
    match: Match, names: Mapping[int, str | None], registry: Registry | None = None
) -> dict[int, BotSeat]:
    """Bots for the given seats by name (``None``: the title's default bot)."""
    from .registry import default_registry

    reg = registry if registry is not None else default_registry()
    seats = {}
    for seat, name in names.items():
        factory = reg.bot(match.title, name)
        seats[seat] = BotSeat(
            bot=factory(seat, match.players),
            rng=Rng(derive_seed(match.seed, f"bot:{seat}")),
            name=name or match.title.default_bot,
        )
    return seats


def run_bots(match: Match, bots: Mapping[int, BotSeat], limit: int | None = None) -> int:
    """Let bots act until the match is over or awaits only seats without a bot.

    When several bot seats are awaited at once (simultaneous choices) they act in
    seat order. Returns the number of actions taken. ``limit`` bounds the actions:
    a title that never ends is a bug the caller should hear about.
    """
    return match._run_bots(bots, limit)


def play_out(
    match: Match, names: Mapping[int, str | None] | None = None, registry: Registry | None = None
) -> Match:
    """Play a match to the end with bots in every seat (default bots unless named)."""
    chosen: dict[int, str | None] = {s: None for s in range(1, match.players + 1)}
    chosen.update(names or {})
    bots = seat_bots(match, chosen, registry)
    run_bots(match, bots, limit=match.title.max_actions)
    return match
