"""Rebuilding a match from its log: show it, step through it, verify it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from gameweave_core import LogError, Match, MatchLog

from .render import outcome_text, print_history, render_view, seat_name


def usable_actions(log: MatchLog) -> tuple[int, str | None]:
    """How many actions of ``log`` replay normally, and the recorded error if the
    last one is an action the title raised on when the log was saved."""
    if log.actions and log.actions[-1].error is not None:
        return len(log.actions) - 1, log.actions[-1].error
    return len(log.actions), None


def parse_seat(text: str, players: int) -> int | None:
    """``--as``: a seat number or ``spectator`` (``None``)."""
    if text.strip().lower() == "spectator":
        return None
    try:
        seat = int(text)
    except ValueError:
        raise ValueError(f"--as takes a seat number or 'spectator', not {text!r}") from None
    if not 1 <= seat <= players:
        raise ValueError(f"--as {seat}: this match has seats 1 to {players}")
    return seat


def rebuild(log: MatchLog, source: str, upto: int, *, verify: bool = False) -> Match:
    """The match after ``upto`` actions (raises :class:`LogError` naming the action)."""
    return Match.from_log(log, upto=upto, verify=verify, source=source)


def verify(log: MatchLog, source: str) -> Match:
    """Re-apply every action, comparing digests; raises at the first divergence.

    An action recorded as having made the title raise is re-applied too: if it
    still raises, the replay fails there, which is the reproduction a maintainer
    wants.
    """
    match = Match.from_log(log, verify=True, source=source)
    if match.step != len(log.actions):  # pragma: no cover - from_log applies all
        raise LogError(source, "not every action was replayed")
    return match


def payload(match: Match, seat: int | None, total: int, source: str) -> dict[str, Any]:
    """The JSON of ``replay --json``: the seat's payload plus where in the log it is."""
    return {"log": source, "step": match.step, "steps": total, **match.payload(seat)}


def show(
    console: Console, match: Match, seat: int | None, total: int, *, history: bool = True
) -> None:
    """The match as ``seat`` sees it: header, view, history and the outcome if over."""
    console.print(
        Rule(
            Text(
                f"{match.title.display_name}, step {match.step} of {total}, "
                f"as {seat_name(match, seat)}"
            )
        )
    )
    console.print(render_view(match, seat))
    if history:
        console.print(Text("History:", style="bold"))
        print_history(console, match.history(seat), empty="  (nothing yet)")
    outcome = match.outcome()
    if outcome is not None:
        console.print(Text(outcome_text(outcome), style="bold"))
    elif match.awaiting:
        waiting = ", ".join(seat_name(match, s) for s in match.awaiting)
        console.print(Text(f"Awaiting {waiting}"))


STEP_HELP = "Enter or n: next step, p: previous, a number: go to that step, q: quit"


def step_through(
    console: Console,
    full: Match,
    seat: int | None,
    start: int,
    read: Callable[[str], str],
) -> None:
    """Walk the replay forward and back, showing each step as ``seat`` sees it."""
    total = full.step
    step = start
    current = full.at(step)
    console.print(Text(STEP_HELP, style="dim"))
    while True:
        show(console, current, seat, total, history=False)
        new = [e["text"] for e in current.events(seat, since=step - 1)] if step else []
        if new:
            console.print(Text(f"Step {step}:", style="bold"))
            print_history(console, new)
        try:
            answer = read(f"[{step}/{total}] > ").strip().lower()
        except EOFError:
            return
        if answer in ("q", "quit", "exit"):
            return
        if answer in ("", "n", "next"):
            target = step + 1
        elif answer in ("p", "b", "prev", "back"):
            target = step - 1
        elif answer.isdigit():
            target = int(answer)
        else:
            console.print(Text(f"'{answer}' is not a step command: {STEP_HELP}", style="red"))
            continue
        if not 0 <= target <= total:
            console.print(Text(f"there is no step {target}: steps are 0 to {total}", style="red"))
            continue
        step = target
        current = full.at(step)
