"""Search at the terminal: ``hint`` for a person, and a sign that a bot is thinking.

A hint is the ISMCTS bot's search run for the human's seat, from that seat's own
observation (what the match hands a bot in the seat), so it can use nothing the
seat does not know. Its generator is seeded from the step and the seat alone,
never from the match seed (which fixes the hidden cards), so the same position
gives the same hint.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.text import Text

from gameweave_core import BotSeat, Match, Rng, derive_seed
from gameweave_core.bots import Bot, Observation
from gameweave_core.ismcts import IsmctsBot, SearchOptions, SearchResult

from .render import describe, menu, seat_name

#: How many runner-up actions a hint lists after the one it recommends.
RUNNERS_UP = 2


@contextmanager
def thinking(console: Console, message: str) -> Iterator[None]:
    """Show ``message`` with a spinner while the block runs, on a terminal (gone
    once done); nothing elsewhere, so logs and pipes stay clean."""
    if not console.is_terminal:
        yield
        return
    with console.status(Text(message), spinner="dots"):
        yield


class ThinkingBot:
    """A bot whose turns show that it is thinking (for sessions with a person)."""

    def __init__(self, bot: Bot, match: Match, console: Console) -> None:
        self.bot = bot
        self.match = match
        self.console = console

    def act(self, observation: Observation, rng: Rng) -> Any:
        who = seat_name(self.match, observation.seat)
        who = who[:1].upper() + who[1:]  # "seat 2 (Bidder 2)" starts the line
        with thinking(self.console, f"{who} is thinking..."):
            return self.bot.act(observation, rng)


def thinking_bots(
    bots: Mapping[int, BotSeat], match: Match, console: Console
) -> dict[int, BotSeat]:
    """The same bots, each showing that it thinks while it chooses."""
    return {
        seat: BotSeat(ThinkingBot(b.bot, match, console), b.rng, b.name) for seat, b in bots.items()
    }


def hint_options(title: Any, seat: int, players: int) -> SearchOptions:
    """How a hint searches: as the title's ``ismcts`` bot does, but among every
    legal action. A title may prune a bot's search to the few moves its own bot
    proposes (``candidates``), which keeps bots quick; a person asking for a hint
    wants the choices on the menu weighed."""
    return SearchOptions.for_title(title, seat, players, candidates=None)


def search_hint(match: Match, seat: int, options: SearchOptions | None = None) -> SearchResult:
    """What the search would play for ``seat`` now, from the seat's observation
    (with :func:`hint_options` unless ``options`` are given)."""
    if not match.title.can_resample:
        raise ValueError(
            f"{match.title.display_name} has no resample hook, so the search cannot give hints"
        )
    if options is None:
        options = hint_options(match.title, seat, match.players)
    bot = IsmctsBot(match.title, seat, match.players, options)
    rng = Rng(derive_seed(match.step, f"hint:{seat}"))
    return bot.search(match.observe(seat), rng)


def hint_text(match: Match, seat: int, result: SearchResult) -> Text:
    """The hint as a person reads it: the menu number and label of the recommended
    action, how sure the search is (its share of the searches) and the runners-up."""
    numbers = {id(a): n for n, a, _ in menu(match, seat)}

    def label(action: Any) -> str:
        number = numbers.get(id(action))
        return f"{number}. {describe(match, action)}" if number else describe(match, action)

    if not result.iterations:
        # No search ran: one legal action, or (with options that prune) the one
        # move the title's own bot proposed among several.
        why = (
            "the only legal action"
            if len(numbers) == 1
            else f"the one move of {len(numbers)} that the title's own bot proposes; no search ran"
        )
        return Text(f"Hint: {label(result.action)} ({why})", style="cyan")
    text = Text("Hint: ", style="cyan")
    text.append(label(result.action), style="bold cyan")
    text.append(
        f", chosen in {result.share:.0%} of {result.iterations} searches of worlds your "
        f"seat cannot tell apart (average result {result.choices[0].mean:.0%})",
        style="cyan",
    )
    others = [c for c in result.choices[1 : 1 + RUNNERS_UP] if c.visits]
    if others:
        listed = "; ".join(f"{label(c.action)} {c.visits / result.iterations:.0%}" for c in others)
        text.append(f"\n  then: {listed}", style="cyan")
    return text


def show_hint(console: Console, match: Match, seat: int) -> None:
    """Search for ``seat`` and print the hint (one line saying why not, if the title
    cannot be searched)."""
    try:
        with thinking(console, "Searching from your seat's view..."):
            result = search_hint(match, seat)
    except ValueError as exc:
        console.print(Text(f"No hint: {exc}", style="red"))
        return
    console.print(hint_text(match, seat, result))
