"""The ``gameweave`` command: thin typer commands over the session modules.

Every error is one line on stderr and a non-zero exit: 2 when the command line or
the input file is wrong (unknown title, bad ``--players``, unreadable log), 1 when
something fails while running (a game raised, a replay diverged).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Annotated, Any, NoReturn

import attrs
import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from gameweave_core import (
    DigestMismatch,
    GameweaveError,
    IllegalAction,
    LogError,
    Match,
    MatchLog,
    Registry,
    TitleError,
    default_registry,
    seat_bots,
)
from gameweave_core.rng import MAX_SEED, fresh_seed

from . import replay as replaying
from . import scaffold
from .commands import ChosenExecutor, add_plugin_commands, with_executor_options
from .helptext import plain_help
from .play import (
    NoSeatChosen,
    SeatPlan,
    Session,
    ask_seat,
    default_log_path,
    parse_seats,
    plan_from_record,
    seats_record,
)
from .render import error, make_console
from .simulate import (
    InlineExecutor,
    Interrupted,
    LogFolder,
    SimulationResult,
    describe_error,
    ignore_interrupts,
    log_name,
    simulate,
)

app = typer.Typer(
    name="gameweave",
    help="Play, replay and simulate Gameweave titles: turn-based games with hidden information.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help (click's layout, see helptext.py): it fits 80 columns uncropped.
    rich_markup_mode=None,
)


def _print_version(wanted: bool) -> None:
    """``gameweave --version``: Gameweave's version and every installed title's."""
    if not wanted:
        return
    from gameweave_core import __version__

    typer.echo(f"gameweave {__version__}")
    reg = registry()
    entries = reg.entries()
    if not entries:
        typer.echo("no titles installed")
    for e in entries:
        source = f"{e.distribution} {e.distribution_version}".strip()
        typer.echo(f"{e.title.name} {e.title.version} ({e.title.display_name}), from {source}")
    raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print Gameweave's version and each installed title's (rules version, "
            "distribution and its version), then exit.",
            callback=_print_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Play, replay and simulate Gameweave titles: turn-based games with hidden information."""


def fail(message: object, code: int = 1) -> NoReturn:
    """Print one error line to stderr and exit with ``code``."""
    error(str(message))
    raise typer.Exit(code)


def registry() -> Registry:
    """The installed titles (a plugin that fails to load is a one-line error)."""
    try:
        return default_registry()
    except GameweaveError as exc:
        fail(exc, 1)


def complete_title(incomplete: str) -> list[str]:
    """Shell completion of title names."""
    try:
        names = default_registry().names()
    except Exception:
        return []
    return [n for n in names if n.startswith(incomplete)]


OPTION_HELP = (
    "A title option, KEY=VALUE (repeatable). VALUE is read as TOML when it can be "
    "(take=2000, deck=['AS','TD']), else as text. 'gameweave games --json' lists "
    "each title's options."
)


def parse_options(specs: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` flags as a config mapping; ``ValueError`` (one line)
    for a flag that is not KEY=VALUE or a key given twice."""
    import tomllib

    options: dict[str, Any] = {}
    for spec in specs:
        key, sep, text = spec.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--option {spec!r}: write it as KEY=VALUE, e.g. take=2000")
        if key in options:
            raise ValueError(f"--option {key} is given twice")
        try:
            options[key] = tomllib.loads(f"value = {text.strip()}")["value"]
        except tomllib.TOMLDecodeError:
            options[key] = text  # plain words need no quotes
    return options


def check_seed(seed: int | None) -> None:
    """Refuse a seed a log could not store (TOML integers are signed 64-bit)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        fail(f"--seed must be between 0 and {MAX_SEED}, got {seed}", 2)


# -- games ----------------------------------------------------------------------


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List the installed titles."""
    entries = registry().entries()
    if as_json:
        rows = [
            {
                "name": e.title.name,
                "display_name": e.title.display_name,
                "min_players": e.title.min_players,
                "max_players": e.title.max_players,
                "version": e.title.version,
                "distribution": e.distribution,
                # The options players choose, with their defaults; test-only ones
                # (which fix hidden information) are not offered, though --option
                # still takes them.
                "options": e.title.offered_options(),
            }
            for e in entries
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    console = make_console()
    if not entries:
        console.print(
            "No titles are installed. Install one with pip, e.g. "
            "'pip install gameweave-museum', then run 'gameweave games' again."
        )
        return
    table = Table("Name", "Title", "Players", "Rules", "From", title="Installed titles")
    for e in entries:
        t = e.title
        source = f"{e.distribution} {e.distribution_version}".strip()
        table.add_row(t.name, t.display_name, f"{t.min_players}-{t.max_players}", t.version, source)
    console.print(table)


# -- rules ----------------------------------------------------------------------


@app.command()
def rules(
    title: Annotated[
        str,
        typer.Argument(
            help="The title whose rules to read (see 'gameweave games').",
            autocompletion=complete_title,
            show_default=False,
        ),
    ],
    topic: Annotated[
        str | None,
        typer.Argument(help="One topic, e.g. actions [default: the overview]", show_default=False),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every topic, one after another.")] = False,
) -> None:
    """Read a title's rules, by topic, before (or without) playing it: the same
    text as 'rules' and 'rules TOPIC' during a game."""
    from .teach import NoRules, RulesFailed, rules_page, topics_of

    try:
        found = registry().title(title)
    except GameweaveError as exc:
        fail(exc, 2)
    if every and topic:
        fail("--all prints every topic; leave out TOPIC", 2)
    command = f"gameweave rules {found.name}"
    console = make_console()
    try:
        names = list(topics_of(found)) if every else [topic or ""]
        pages = [rules_page(found, name, command=command) for name in names]
    except RulesFailed as exc:
        fail(exc, 1)
    except NoRules as exc:
        typer.echo(str(exc))
        return
    except KeyError as exc:
        fail(exc.args[0], 2)
    for page in pages:
        typer.echo("\n".join(page.lines(console)))


# -- play -----------------------------------------------------------------------


@app.command()
def play(
    title: Annotated[
        str | None,
        typer.Argument(
            help="The title to play (see 'gameweave games'); optional with --resume.",
            autocompletion=complete_title,
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players [default: fewest]")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the match [default: random]")] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            help="Who plays a seat: N=human, N=bot or N=bot:NAME (repeatable). "
            "Default: at a terminal you are asked which seat is yours; otherwise seat 1 "
            "is human; the other seats are the title's default bot.",
        ),
    ] = None,
    log: Annotated[
        Path | None, typer.Option(help="Where to write the log [default: ./gameweave-logs/...]")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the game saved in this log, with everyone seated as the log "
            "says (a --seat given as well overrides that seat)."
        ),
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Play a game in the terminal, against bots or with others at the same keyboard."""
    reg = registry()
    check_seed(seed)
    try:
        options = parse_options(option or [])
    except ValueError as exc:
        fail(exc, 2)
    seated: SeatPlan | None = None  # who sits where, when the log says
    if resume is not None:
        if options:
            fail("--option: a resumed game keeps the options it was saved with", 2)
        match, record = _resume(resume, title, players, seed)
        log_path = log or resume
        if record.seats is not None:
            try:
                seated = plan_from_record(record.seats, match.players, str(resume))
            except ValueError as exc:
                fail(exc, 2)
    else:
        if title is None:
            fail("name a title to play (see 'gameweave games') or give --resume LOG", 2)
        try:
            entry = reg.entry(title)
            count = players if players is not None else entry.title.min_players
            match = Match.create(title, count, seed, options, registry=reg)
        except GameweaveError as exc:
            fail(exc, 2)
        except Exception as exc:
            # Not the user's fault: the title's setup has a bug.
            fail(f"{title} raised while setting up the match: {describe_error(exc)}", 1)
        log_path = log or default_log_path(match.title.name, match.seed)
    console = make_console()
    if (
        not seat
        and seated is None
        and match.players > 1
        and sys.stdin.isatty()
        and console.is_terminal
    ):
        # A person at a terminal chooses a side; pipes and tests keep seat 1.
        seat = _chosen_seat(match, console)
    try:
        plan = parse_seats(seat or [], match.players, seated)
        bots = seat_bots(match, plan.bots, reg)
    except (GameweaveError, ValueError) as exc:
        fail(exc, 2)
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        if log_path.is_dir():
            raise IsADirectoryError(f"{log_path} is a folder")
    except OSError as exc:
        fail(f"cannot write the log to {log_path}: {exc}", 2)
    session = Session(match, plan.humans, bots, log_path, console, seats=seats_record(plan, bots))
    code = session.run()
    if code:
        raise typer.Exit(code)


def _chosen_seat(match: Match, console: Any) -> list[str]:
    """Ask which seat the person at the terminal plays: the ``--seat`` flags of
    the answer. Nothing has started yet, so Ctrl-D or Ctrl-C ends the command in
    one line, with no log written."""
    try:
        chosen = ask_seat(match, console)
    except NoSeatChosen:
        print()  # the question's line ends where the person pressed Ctrl-D
        typer.echo("No seat chosen: no game started.")
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        print()
        typer.echo("Interrupted: no game started.")
        raise typer.Exit(130) from None
    return [f"{chosen}=human"] + ([] if chosen == 1 else ["1=bot"])


def load_log(path: Path) -> MatchLog:
    """Read a log or exit 2 with one line: a file that cannot be read or parsed,
    however pathological (deeply nested arrays, enormous integers), is bad input."""
    try:
        return MatchLog.load(path)
    except LogError as exc:
        fail(exc, 2)
    except (ValueError, RecursionError, MemoryError) as exc:
        # The core bounds what it parses; this is the CLI's own guard.
        fail(f"{path}: cannot be read as a log ({describe_error(exc)})", 2)


def _resume(
    path: Path, title: str | None, players: int | None, seed: int | None
) -> tuple[Match, MatchLog]:
    """The match saved in ``path``, once every digest in it has been checked, and
    the log it came from."""
    if players is not None or seed is not None:
        fail("--players and --seed come from the log when resuming; leave them out", 2)
    log = load_log(path)
    if title is not None and title != log.title:
        fail(f"{path} is a game of {log.title!r}, not {title!r}", 2)
    reg = registry()
    try:
        entry = reg.entry(log.title)
    except GameweaveError as exc:
        fail(f"{path}: {exc}", 2)
    refusal = replaying.resume_refusal(log, entry, str(path))
    if refusal is not None:
        fail(refusal, 2)
    # A log is continued only if it verifies, as replay --verify says (one
    # definition): otherwise resuming would rewrite a tampered log into one that
    # verifies, or a record of a failure into a game without it.
    try:
        return replaying.verify(log, str(path), reg), log
    except LogError as exc:
        fail(f"{exc}; {replaying.not_resumed(log, exc, str(path))}", replaying.failure_code(exc))


# -- replay ---------------------------------------------------------------------


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="A log written by play, simulate or serve.")],
    to: Annotated[
        int | None, typer.Option("--to", help="Show the match after this many actions.")
    ] = None,
    as_: Annotated[
        str, typer.Option("--as", help="Whose eyes: a seat number or 'spectator'.")
    ] = "spectator",
    step: Annotated[bool, typer.Option("--step", help="Walk forward and back.")] = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Re-apply every action and compare state digests; exit 1 at the first divergence.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print view and history as JSON.")] = (
        False
    ),
    state: Annotated[
        bool,
        typer.Option(
            "--state",
            help="Print the whole state (the title's snapshot, every secret included) as "
            "JSON; with --json, add it as 'state'. For maintainers.",
        ),
    ] = False,
    show_traceback: Annotated[
        bool,
        typer.Option("--traceback", help="When the title raises, print its full traceback."),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option(
            "--pdb",
            help="With --verify: open the debugger where the title raises. With --to N: "
            "stop before action N+1 with match, state and next_action in scope.",
        ),
    ] = False,
    diff: Annotated[
        Path | None,
        typer.Option(
            "--diff",
            help="Another log of the same title: show the first step where the two differ "
            "(action or digest) and both whole states there as a diff.",
        ),
    ] = None,
) -> None:
    """Rebuild a match from its log and show it as one seat sees it.

    Exit codes: 0 fine, 1 the log no longer replays (an action is refused, raises,
    or reaches a different state) or, with --diff, the logs differ, 2 the command
    line is wrong or a log cannot be read.
    """
    reg = registry()
    _check_replay_options(to, as_, step, verify, as_json, state, debug, show_traceback, diff)
    source = str(log)
    record = load_log(log)
    if diff is not None:
        _diff(record, source, load_log(diff), str(diff), reg)
        return
    try:
        entry = reg.entry(record.title)
    except GameweaveError as exc:
        fail(f"{source}: {exc}", 2)
    note = replaying.version_note(record, entry, source)
    if note is not None:
        print(f"note: {note}", file=sys.stderr)
    failure = _Failure(show_traceback, debug)
    if verify:
        _verify(record, source, as_json, failure, reg)
        return
    try:
        seat = replaying.parse_seat(as_, record.players)
    except ValueError as exc:
        fail(exc, 2)
    total = len(record.actions)
    usable, recorded_error = replaying.usable_actions(record)
    if to is not None and not 0 <= to <= total:
        fail(f"--to {to}: {log} has actions 0 to {total}", 2)
    upto = usable if to is None else to
    try:
        # A log of other rules is checked as far as it is shown.
        match = replaying.rebuild(
            record,
            source,
            max(upto, usable) if step else upto,
            verify=note is not None,
            registry=reg,
        )
    except LogError as exc:
        failure.report(exc)
    if debug:
        _break_before(match, record, source, failure)
        return
    console = make_console()
    if step:
        replaying.step_through(console, match, seat, upto, input)
    elif as_json:
        data = replaying.payload(match, seat, total, source)
        if state:
            data["state"] = replaying.state_data(match)
        if recorded_error is not None:
            data["recorded_error"] = {"action": total, "error": recorded_error}
        typer.echo(json.dumps(data, indent=2))
    elif state:
        typer.echo(replaying.state_json(match))
    else:
        replaying.show(console, match, seat, total)
    if recorded_error is not None and match.step == usable and not as_json:
        # --state prints JSON on stdout: keep it clean for jq and friends.
        out = make_console(stderr=True) if state else console
        out.print(
            Text(
                f"Action {total} made the title raise when this log was saved "
                f"({recorded_error}); re-apply it with: gameweave replay {log} --verify "
                "(add --traceback or --pdb to see where)",
                style="yellow",
            )
        )


def _check_replay_options(
    to: int | None,
    as_: str,
    step: bool,
    verify: bool,
    as_json: bool,
    state: bool,
    debug: bool,
    show_traceback: bool,
    diff: Path | None,
) -> None:
    """One usage line for options that do not go together."""

    def given(pairs: list[tuple[str, bool]]) -> str:
        return ", ".join(name for name, on in pairs if on)

    if diff is not None:
        extra = given(
            [
                ("--to", to is not None),
                ("--as", as_ != "spectator"),
                ("--step", step),
                ("--verify", verify),
                ("--json", as_json),
                ("--state", state),
                ("--pdb", debug),
                ("--traceback", show_traceback),
            ]
        )
        if extra:
            fail(f"--diff compares two whole logs; leave out {extra}", 2)
    if verify:
        extra = given(
            [
                ("--to", to is not None),
                ("--as", as_ != "spectator"),
                ("--step", step),
                ("--state", state),
            ]
        )
        if extra:
            fail(f"--verify checks the whole log; leave out {extra}", 2)
    extra = given([("--json", as_json), ("--state", state), ("--pdb", debug)])
    if step and extra:
        fail(f"--step is interactive; leave out {extra}", 2)
    if debug and not verify and to is None:
        fail("--pdb needs --verify (stop where the title raises) or --to N (stop before N+1)", 2)
    if debug and (as_json or state):
        fail("--pdb is interactive; leave out --json and --state", 2)
    if state and as_ != "spectator" and not as_json:
        fail("--state prints the whole state, not a seat's view; leave out --as (or add --json)", 2)


@attrs.frozen
class _Failure:
    """How a replay that fails is reported: one line, after the title's traceback
    (``--traceback``) or a post-mortem debugger session (``--pdb``) if asked."""

    show_traceback: bool
    debug: bool

    def report(self, exc: LogError) -> NoReturn:
        cause = replaying.title_exception(exc)
        if cause is not None and self.show_traceback:
            sys.stderr.write(replaying.format_traceback(cause))
        if cause is not None and self.debug:
            replaying.post_mortem(cause)
        code = replaying.failure_code(exc)
        if isinstance(exc, DigestMismatch):
            fail(f"verify failed at action {exc.index}: {exc}", code)
        if cause is not None and not (self.show_traceback or self.debug):
            fail(f"{exc} (see where with --traceback or --pdb)", code)
        fail(exc, code)


def _break_before(match: Match, record: MatchLog, source: str, failure: _Failure) -> None:
    """``--to N --pdb``: the debugger before action N+1, which continuing applies."""
    step = match.step
    entry = record.actions[step] if step < len(record.actions) else None
    seat = entry.seat if entry is not None else None
    next_action: Any = None
    if entry is not None:
        try:
            next_action = match.title.codec.from_json(entry.action)
        except GameweaveError:
            next_action = entry.action  # submit refuses it with the reason
    try:
        replaying.break_before(match, seat, next_action)
    except TitleError as exc:
        wrapped = LogError(source, str(exc), step + 1)
        wrapped.__cause__ = exc.__cause__ or exc
        failure.report(wrapped)
    except IllegalAction as exc:
        fail(LogError(source, f"refused: {exc}", step + 1), 1)
    if entry is not None:
        typer.echo(f"{source}: action {step + 1} applied; the match is at step {match.step}")


def _verify(record: MatchLog, source: str, as_json: bool, failure: _Failure, reg: Registry) -> None:
    try:
        match = replaying.verify(record, source, reg)
    except LogError as exc:
        if isinstance(exc, DigestMismatch) and failure.debug:
            error(
                f"action {exc.index} raised nothing but reached another state: stop before "
                f"it with --to {(exc.index or 1) - 1} --pdb"
            )
        failure.report(exc)
    # Verified: every action carries its digest, and every one was compared.
    checked = sum(1 for e in record.actions if e.digest is not None)
    if as_json:
        out = {"log": source, "verified": True, "actions": match.step, "checked": checked}
        typer.echo(json.dumps({**out, "digest": match.digest()}))
    else:
        typer.echo(
            f"{source}: verified; {match.step} actions of {record.title} replay to "
            f"the recorded state ({checked} digests checked)"
        )


def _diff(a: MatchLog, a_source: str, b: MatchLog, b_source: str, reg: Registry) -> None:
    """``replay A --diff B``: the first step where two logs of one title part."""
    if a.title != b.title:
        fail(
            f"{a_source} is a game of {a.title!r} and {b_source} of {b.title!r}; "
            "--diff compares two logs of one title",
            2,
        )
    if a.title_version != b.title_version:
        print(
            f"note: {a_source} was recorded with {a.title} {a.title_version}, {b_source} "
            f"with {b.title_version}",
            file=sys.stderr,
        )
    try:
        found = replaying.first_difference(a, b, a_source, b_source, reg)
    except LogError as exc:
        fail(exc, 1 if exc.index is not None else 2)
    if isinstance(found, replaying.Agreement):
        if found.a_steps == found.b_steps:
            typer.echo(
                f"{a_source} and {b_source} agree: the same {found.a_steps} actions reach "
                "the same states"
            )
            return
        longer, more = (
            (a_source, found.a_steps)
            if found.a_steps > found.b_steps
            else (b_source, found.b_steps)
        )
        shared = min(found.a_steps, found.b_steps)
        typer.echo(
            f"{a_source} and {b_source} agree on their first {shared} actions; "
            f"{longer} goes on to action {more}"
        )
        raise typer.Exit(1)
    lines = [
        f"{a_source} and {b_source} first differ at step {found.step}: " + "; ".join(found.reasons)
    ]
    width = max(len(a_source), len(b_source))
    for name, entry, match in (
        (a_source, found.a_entry, found.a),
        (b_source, found.b_entry, found.b),
    ):
        if entry is not None:
            now = match.digest()
            digest = f"digest {entry.digest}" if entry.digest else "no digest recorded"
            if entry.digest != now:
                digest += f"; the installed rules reach {now}"
            lines.append(
                f"  {name:<{width}}  action {entry.index}, {replaying.describe_entry(match, entry)}"
                f"  ({digest})"
            )
    lines.append(f"The whole state after step {found.step} (- {a_source}, + {b_source}):")
    diff_lines = replaying.state_diff(found, a_source, b_source)
    lines.extend(diff_lines or ["  (the snapshots are equal; only the recorded digests differ)"])
    typer.echo("\n".join(lines))
    raise typer.Exit(1)


# -- simulate -------------------------------------------------------------------


def simulate_command(
    title: Annotated[
        str, typer.Argument(help="The title to simulate.", autocompletion=complete_title)
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="How many games.")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game [default: fewest]")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the whole run [default: random, printed]")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Worker processes [default: every core]")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option("--seat", help="The bot of a seat: N=NAME (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    save_logs: Annotated[
        Path | None, typer.Option("--save-logs", help="Write every game's log to this folder.")
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    *,
    executor: ChosenExecutor | None = None,
) -> None:
    """Play many all-bot games and tabulate who wins, how long and how games end.

    The numbers depend only on --seed, never on --jobs or where the games are played
    (an executor option a plugin adds, such as the Dask module's --cluster).
    """
    reg = registry()
    check_seed(seed)
    try:
        entry = reg.entry(title)
    except GameweaveError as exc:
        fail(exc, 2)
    count = players if players is not None else entry.title.min_players
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers < 1:
        fail(f"--jobs must be at least 1, got {workers}", 2)
    if games < 1:
        fail(f"--games must be at least 1, got {games}", 2)
    try:
        seats = _bot_seats(seat or [])
        options = parse_options(option or [])
    except ValueError as exc:
        fail(exc, 2)
    run_seed = fresh_seed() if seed is None else seed
    stderr = make_console(stderr=True)
    progress = Progress(
        TextColumn(f"{entry.title.display_name}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=stderr,
        transient=True,
        disable=not stderr.is_terminal,  # no bar (nor stray newline) in pipes and files
    )
    pool: Any
    chosen = executor
    if chosen is not None:
        if jobs is not None:
            fail(f"--jobs and {chosen.flag} exclude each other: {chosen.flag} plays the games", 2)
        try:
            pool, workers = chosen.option.opener(chosen.value, entry)
        except GameweaveError as exc:
            fail(exc, 2)
    else:
        pool = InlineExecutor() if workers == 1 else _process_pool(min(workers, games))
    interrupted = False
    try:
        with progress, pool:
            task = progress.add_task("games", total=games)
            result = simulate(
                title,
                games,
                count,
                run_seed,
                seats,
                pool,
                config=options,
                keep_logs=save_logs is not None,
                log_sink=None if save_logs is None else LogFolder(save_logs, title, run_seed),
                window=2 * workers,
                on_progress=lambda n: progress.advance(task, n),
                registry=reg,
            )
    except Interrupted as stop:
        # Ctrl-C: the games that finished are still a run, reported as one.
        result, interrupted = stop.result, True
        error(f"interrupted after {result.games} of {games} games: the numbers below are theirs")
    except (GameweaveError, ValueError) as exc:
        fail(exc, 2)
    logs = _write_logs(result, save_logs)
    if as_json:
        data = result.to_json()
        for failure in data["failures"]:
            failure["log"] = str(logs[failure["game"]])
        if interrupted:
            data["interrupted"] = {"asked": games}
        typer.echo(json.dumps(data, indent=2))
    else:
        _print_table(result, entry.title.display_name)
    for failed in result.failures:
        path = logs[failed.index]
        error(f"game {failed.index} (seed {failed.seed}) failed: {failed.error}")
        error(f"reproduce with: gameweave replay {path} --verify (add --traceback or --pdb)")
    if interrupted:
        raise typer.Exit(130)
    if result.failures:
        raise typer.Exit(1)


def _process_pool(workers: int) -> Any:
    """A started pool of ``workers`` processes, made before any thread exists."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # On Linux, fork: a worker starts with the title already imported instead of
    # paying a fresh interpreter's start-up (about 0.3 s each). A fork taken while
    # another thread holds a lock can hang the child, so every worker is forked
    # here, before the progress bar's thread and the pool's own thread exist: with
    # fork, the pool starts all its workers at the first submit. Elsewhere fork is
    # unsafe or missing (and so it is if a plugin has started a thread already), and
    # fresh interpreters find the title in their own registry.
    alone = threading.active_count() == 1
    method = "fork" if sys.platform == "linux" and alone else "spawn"
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=ignore_interrupts,
    )
    pool.submit(int).result()
    return pool


def _bot_seats(specs: list[str]) -> dict[int, str | None]:
    seats: dict[int, str | None] = {}
    for spec in specs:
        number, sep, name = spec.partition("=")
        if not sep or not number.strip().isdigit() or not name.strip():
            raise ValueError(f"--seat {spec!r}: write it as N=BOTNAME, e.g. 2=random")
        seats[int(number)] = name.strip().removeprefix("bot:")
    return seats


def _write_logs(result: SimulationResult, folder: Path | None) -> dict[int, Path]:
    """Write the kept logs (all with --save-logs, else only failed games')."""
    target = folder if folder is not None else Path("gameweave-logs")
    written: dict[int, Path] = {}
    for r in result.results:
        if r.log is None:
            continue
        target.mkdir(parents=True, exist_ok=True)
        name = log_name(result.title, result.seed, r.index)
        path = target / name
        path.write_text(r.log, encoding="utf-8")
        written[r.index] = path
    return written


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _print_table(result: SimulationResult, display_name: str) -> None:
    console = make_console()
    seats = ", ".join(f"{s}={name}" for s, name in sorted(result.seats.items()))
    console.print(
        Text(
            f"{display_name}: {result.games} games, {result.players} players, "
            f"seed {result.seed}, bots {seats}"
        )
    )
    finished = result.tally.finished
    wins = Table("Side", "Wins", "Rate", "95% interval", title=f"Wins ({finished} finished)")
    for s in result.sides():
        wins.add_row(s.side, str(s.wins), _pct(s.rate), f"{_pct(s.low)} – {_pct(s.high)}")
    console.print(wins)
    ends = Table("How it ended", "Games", "Share")
    for reason, n in result.reasons().items():
        ends.add_row(reason or "(no reason)", str(n), _pct(n / finished))
    console.print(ends)
    figures = result.figures()
    if figures:
        table = Table("Figure", "Mean")
        for name, value in figures.items():
            table.add_row(name, f"{value:.3f}")
        console.print(table)
    mean_length = result.mean_length()
    if mean_length is not None:
        console.print(Text(f"Mean game length: {mean_length:.1f} actions"))
    if result.failures:
        console.print(Text(f"{len(result.failures)} game(s) failed; see below", style="red"))


# -- commands the plugins bring (serve), simulate with their executors, new -----

_plugins = add_plugin_commands(app)
app.command("simulate")(with_executor_options(simulate_command, _plugins.executors))
app.command("new")(scaffold.new)


def main() -> None:
    """The console script ``gameweave`` (also ``python -m gameweave_cli``)."""
    plain_help(typer.main.get_command(app))(prog_name="gameweave")
