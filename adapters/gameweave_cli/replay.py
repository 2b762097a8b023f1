"""Rebuilding a match from its log: show it, step through it, verify it, debug it,
compare it with another log."""

from __future__ import annotations

import difflib
import json
import traceback
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from gameweave_core import (
    CutLog,
    GameweaveError,
    IllegalAction,
    LogError,
    Match,
    MatchLog,
    TitleError,
)
from gameweave_core.log import LogEntry
from gameweave_core.registry import Registry, TitleEntry

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


def rebuild(
    log: MatchLog,
    source: str,
    upto: int,
    *,
    registry: Registry,
    verify: bool = False,
) -> Match:
    """The match after ``upto`` actions (raises :class:`LogError` naming the action)."""
    return Match.from_log(log, upto=upto, verify=verify, source=source, registry=registry)


def verify(log: MatchLog, source: str, registry: Registry) -> Match:
    """The match once the installed rules have reproduced every step of ``log``
    (:meth:`Match.verified <gameweave_core.match.Match.verified>`, the one
    definition of a valid log, for ``replay --verify`` and ``play --resume``
    alike); raises :class:`LogError` at the first step they do not.

    An action recorded as having made the title raise is re-applied too: if it
    still raises, the replay fails there, which is the reproduction a maintainer
    wants.
    """
    return Match.verified(log, registry=registry, source=source)


def failure_code(exc: LogError) -> int:
    """The exit code of a log that does not verify: 1 when an action no longer
    replays as recorded, 2 when the log cannot be read (a file cut mid-entry among
    them: its last entry names where) or verified at all."""
    return 1 if exc.index is not None and not isinstance(exc, CutLog) else 2


def not_resumed(log: MatchLog, exc: LogError, source: str) -> str:
    """Why ``play --resume`` refuses ``log``, after the reason ``exc`` gives."""
    last = log.actions[-1] if log.actions else None
    if last is not None and last.error is not None and exc.index == last.index:
        # A record of a bug: kept as it is, for whoever fixes it.
        return (
            "--resume does not play on past a failure of the title (see it with: gameweave "
            f"replay {source} --verify --traceback; to play on from before it, delete the "
            "last [[actions]] entry of a copy of the log and resume the copy)"
        )
    return "--resume continues only a log that verifies"


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
    console.print(render_view(match, seat, width=console.width))
    if history:
        console.print(Text("History:", style="bold"))
        print_history(console, match.history(seat), empty="  (nothing yet)")
    outcome = match.outcome()
    if outcome is not None:
        console.print(Text(outcome_text(outcome), style="bold"))
    elif match.awaiting:
        waiting = ", ".join(seat_name(match, s) for s in match.awaiting)
        console.print(Text(f"Awaiting {waiting}"))


STEP_HELP = "Enter or n: next step, b: back, a number: go to that step, q: quit, help: more"

#: What ``help`` prints while stepping through a replay.
STEP_HELP_LONG = """\
Stepping through a replay, one action at a time, as the seat chosen with --as sees it.
  Enter, n, next     the next step (the screen shows the match after it)
  b, p, back, prev   the step before
  a number           go straight to that step (0: before the first action)
  help, ?            this text
  q, quit            leave (so does Ctrl-D)
Each screen ends with what that step showed the seat ("Step N:")."""


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
    redraw = True
    while True:
        if redraw:
            show(console, current, seat, total, history=False)
            new = [e["text"] for e in current.events(seat, since=step - 1)] if step else []
            if new:
                console.print(Text(f"Step {step}:", style="bold"))
                print_history(console, new)
        redraw = True
        try:
            answer = read(f"[{step}/{total}] Enter: next, b: back, N: go to step N, q, help > ")
        except EOFError:
            return
        answer = answer.strip().lower()
        if answer in ("q", "quit", "exit"):
            return
        if answer in ("help", "h", "?"):
            console.print(Text(STEP_HELP_LONG))
            redraw = False
            continue
        if answer in ("", "n", "next"):
            target = step + 1
        elif answer in ("p", "b", "prev", "back"):
            target = step - 1
        elif answer.isdigit():
            target = int(answer)
        else:
            console.print(Text(f"'{answer}' is not a step command: {STEP_HELP}", style="red"))
            redraw = False
            continue
        if not 0 <= target <= total:
            console.print(Text(f"there is no step {target}: steps are 0 to {total}", style="red"))
            redraw = False
            continue
        step = target
        current = full.at(step)


# -- versions --------------------------------------------------------------------


def _recorded(log: MatchLog) -> str:
    source = f"{log.distribution} {log.distribution_version}".strip()
    return f"{log.title} {log.title_version} from {source}"


def _installed(entry: TitleEntry) -> str:
    source = f"{entry.distribution} {entry.distribution_version}".strip()
    return f"{entry.title.name} {entry.title.version} from {source}"


def version_note(log: MatchLog, entry: TitleEntry, source: str) -> str | None:
    """What ``replay`` says first when ``log`` was recorded with other rules or
    another distribution than the installed ones, or ``None`` when they match."""
    title = entry.title
    if log.title_version != title.version:
        return (
            f"{source} was recorded with {log.title} {log.title_version}, installed "
            f"{title.version}: the rules changed; verifying…"
        )
    if (log.distribution, log.distribution_version) != (
        entry.distribution,
        entry.distribution_version,
    ):
        return (
            f"{source} was recorded with {_recorded(log)}; installed: {_installed(entry)}; "
            "verifying…"
        )
    return None


def resume_refusal(log: MatchLog, entry: TitleEntry, source: str) -> str | None:
    """Why ``play --resume`` refuses ``log`` (recorded with another title version or
    distribution than the installed one), or ``None``."""
    same_rules = log.title_version == entry.title.version
    same_source = (log.distribution, log.distribution_version) == (
        entry.distribution,
        entry.distribution_version,
    )
    if same_rules and same_source:
        return None
    return (
        f"{source} was recorded with {_recorded(log)}; installed: {_installed(entry)}; "
        "a game is resumed only with the rules and distribution it started with "
        f"(replay it with: gameweave replay {source})"
    )


# -- tracebacks and the debugger ------------------------------------------------


def title_exception(exc: BaseException) -> BaseException | None:
    """The title's own exception behind a replay error (its ``__cause__`` chain),
    or ``None`` when nothing raised (a refused action, a different digest)."""
    seen: set[int] = set()
    current: BaseException | None = exc.__cause__
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if not isinstance(current, GameweaveError):
            return current
        current = current.__cause__
    return None


def format_traceback(exc: BaseException) -> str:
    """The full traceback of ``exc``, as Python prints it."""
    return "".join(traceback.format_exception(exc))


def post_mortem(exc: BaseException) -> None:
    """Open the debugger where ``exc`` was raised (pdb's post-mortem)."""
    import pdb

    pdb.post_mortem(exc.__traceback__)


def break_before(match: Match, seat: int | None, next_action: Any) -> None:
    """Stop in the debugger before ``next_action`` of ``seat`` is applied.

    The debugger stops in this function, whose locals are ``match`` (the match),
    ``state`` (the title's snapshot of the whole state) and ``next_action``
    (``None`` at the end of the log). ``continue`` applies the action; ``step``
    on the submit line walks into the title's rules.
    """
    import pdb

    state = match.snapshot()  # noqa: F841  (for the person at the debugger)
    pdb.Pdb().set_trace()
    if next_action is not None and seat is not None:
        match.submit(seat, next_action)


# -- the whole state --------------------------------------------------------------


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return repr(value)


def state_json(match: Match) -> str:
    """The whole state as indented, key-sorted JSON, as the title names its parts
    for a reader (:meth:`Match.readable_snapshot`: squares by name, not number)."""
    return json.dumps(match.readable_snapshot(), indent=2, sort_keys=True, default=_json_default)


def state_data(match: Match) -> Any:
    """The readable snapshot as plain JSON data (sets and the like turned into lists)."""
    return json.loads(json.dumps(match.readable_snapshot(), default=_json_default))


# -- comparing two logs ------------------------------------------------------------


@attrs.frozen
class Difference:
    """Where two logs of one title first part: the step, why, and both matches
    as they stand after that step."""

    step: int
    reasons: tuple[str, ...]
    a: Match
    b: Match
    a_entry: LogEntry | None = None
    b_entry: LogEntry | None = None


@attrs.frozen
class Agreement:
    """Two logs that agree on every step they share (``a_steps``/``b_steps`` long)."""

    a_steps: int
    b_steps: int


def first_difference(
    a: MatchLog, b: MatchLog, a_source: str, b_source: str, registry: Registry
) -> Difference | Agreement:
    """The first step at which ``a`` and ``b`` differ in header, seat, action or
    digest (recorded, or reached by the installed rules), replaying both side by
    side; raises :class:`LogError` if either log cannot be replayed that far."""
    a_match = Match.from_log(a, upto=0, registry=registry, source=a_source)
    b_match = Match.from_log(b, upto=0, registry=registry, source=b_source)
    if a_match.digest() != b_match.digest():
        header = [
            f"{name}: {a_value!r} vs {b_value!r}"
            for name, a_value, b_value in (
                ("players", a.players, b.players),
                ("seed", a.seed, b.seed),
                ("options", a_match.config, b_match.config),
            )
            if a_value != b_value
        ]
        why = "; ".join(header) or "the same header sets up different states"
        return Difference(0, (f"the matches start apart ({why})",), a_match, b_match)
    a_usable, _ = usable_actions(a)
    b_usable, _ = usable_actions(b)
    for ea, eb in zip(a.actions[:a_usable], b.actions[:b_usable], strict=False):
        reasons = []
        if (ea.seat, ea.action) != (eb.seat, eb.action):
            reasons.append("the actions differ")
        _apply(a_match, ea, a_source)
        _apply(b_match, eb, b_source)
        if ea.digest is not None and eb.digest is not None and ea.digest != eb.digest:
            reasons.append("the recorded digests differ")
        if a_match.digest() != b_match.digest():
            reasons.append("the installed rules reach different states")
        if reasons:
            return Difference(ea.index, tuple(reasons), a_match, b_match, ea, eb)
    return Agreement(a_usable, b_usable)


def _apply(match: Match, entry: LogEntry, source: str) -> None:
    try:
        match.submit(entry.seat, entry.action)
    except TitleError as exc:
        raise LogError(source, str(exc), entry.index) from (exc.__cause__ or exc)
    except IllegalAction as exc:
        raise LogError(source, f"refused: {exc}", entry.index) from exc


def describe_entry(match: Match, entry: LogEntry) -> str:
    """``seat 2: bid 3`` (the title's label for the action, else its JSON)."""
    title = match.title
    try:
        label = title.describe_action(title.codec.from_json(entry.action))
    except Exception:
        label = json.dumps(entry.action, sort_keys=True)
    return f"seat {entry.seat}: {label}"


def state_diff(difference: Difference, a_name: str, b_name: str) -> list[str]:
    """Both matches' whole states at the difference, as a unified diff of JSON."""
    step = difference.step
    return list(
        difflib.unified_diff(
            state_json(difference.a).splitlines(),
            state_json(difference.b).splitlines(),
            fromfile=f"{a_name} (step {step})",
            tofile=f"{b_name} (step {step})",
            lineterm="",
        )
    )
