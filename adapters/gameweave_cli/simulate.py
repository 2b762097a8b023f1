"""Many all-bot games, spread over any :mod:`concurrent.futures` executor.

:func:`simulate` is pure apart from the executor: game ``i`` is played from the
seed ``derive_seed(seed, "game:i")``, so the numbers depend only on the seed, never
on how many processes (or which executor, or which cluster) played them. Each batch
of games is tallied where it was played (:class:`Tally`) and the client merges the
tallies as they arrive, in whatever order: the sums are exact (integers and
fractions), so the merged numbers do not depend on the order either, and the
client's memory stays flat however many games are played. Workers find the title
by name in their own registry, so a distributed executor only needs the same
plugins installed (:mod:`gameweave_dask.cluster` checks that).
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from gameweave_core import (
    GameweaveError,
    Match,
    MatchLog,
    default_registry,
    derive_seed,
    run_bots,
    seat_bots,
)
from gameweave_core.log import LogEntry

from .stats import wilson


class RunStopped(GameweaveError):
    """Raised by a batch to stop the whole run rather than fail its games (for
    instance: the worker has another build of the title)."""


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C): ``result`` holds the games that had
    finished, whose numbers are as good as any run's of that many games."""

    def __init__(self, result: SimulationResult) -> None:
        super().__init__(f"interrupted after {result.games} games")
        self.result = result


def ignore_interrupts() -> None:
    """A worker process's start: Ctrl-C is for the run, which stops its workers
    itself once it has kept what they finished (a worker that died of it would
    take its batch's games with it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Seconds between the run's looks at whether Ctrl-C was pressed while it waits
#: for its workers (see :func:`ctrl_c_noted`).
CTRL_C_LOOK = 0.1


@contextlib.contextmanager
def ctrl_c_noted() -> Iterator[threading.Event]:
    """While the block runs, Ctrl-C sets the event it yields instead of raising
    ``KeyboardInterrupt``; the run looks at the event between its waits.

    A ``KeyboardInterrupt`` raised wherever the main thread happens to be is not
    always one the run can catch: raised inside a finaliser (a Dask future's
    ``__del__``, which runs in this thread as batches finish), Python prints it
    as "Exception ignored" with a traceback and carries on, and the run would
    never stop. Only Python's own Ctrl-C handler is replaced, from the main
    thread: a program that ignores SIGINT, or answers it its own way, keeps that.
    """
    pressed = threading.Event()
    own = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if not own or threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.set())
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


@attrs.frozen
class GameSpec:
    """Everything a worker needs to play one game (small and picklable)."""

    index: int
    title: str
    players: int
    seed: int
    seats: tuple[tuple[int, str | None], ...]
    config: Mapping[str, Any] = attrs.field(factory=dict)
    keep_log: bool = False


@attrs.frozen
class GameResult:
    """How one game went: its length and outcome, or the error that stopped it.

    ``log`` holds the game's TOML log when it was asked for or the game failed.
    """

    index: int
    seed: int
    length: int
    side: str | None = None
    reason: str | None = None
    figures: Mapping[str, Any] = attrs.field(factory=dict)
    error: str | None = None
    log: str | None = None


class InlineExecutor(Executor):
    """Runs each task at once in this process (``--jobs 1``; handy for debugging)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
        return future


def describe_error(exc: BaseException) -> str:
    """``"TypeName: first line of the message"``: an exception on one line."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def log_text(match: Match) -> str:
    """The match's log as TOML; without digests if the title cannot replay itself."""
    try:
        return match.to_log().to_toml()
    except Exception:
        # to_log replays the match to compute digests; a broken title may fail
        # there too, and the actions alone still let a maintainer reproduce it.
        entries = [LogEntry(i, seat, act) for i, (seat, act) in enumerate(match.actions(), start=1)]
        if match.failed is not None:
            seat, act, message = match.failed
            entries.append(LogEntry(len(entries) + 1, seat, act, None, message))
        return MatchLog(
            title=match.title.name,
            title_version=match.title.version,
            players=match.players,
            seed=match.seed,
            distribution=match.distribution,
            distribution_version=match.distribution_version,
            config=dict(match.config),
            actions=entries,
        ).to_toml()


def play_game(spec: GameSpec) -> GameResult:
    """Play one all-bot game; never raises for anything the game does."""
    registry = default_registry()
    entry = registry.entry(spec.title)
    try:
        match = Match(
            entry.title,
            spec.players,
            spec.seed,
            spec.config,
            distribution=entry.distribution,
            distribution_version=entry.distribution_version,
        )
    except Exception as exc:
        # The title's setup raised: a log with no actions reproduces that.
        return GameResult(
            spec.index, spec.seed, 0, error=f"setup: {describe_error(exc)}", log=header_log(spec)
        )
    try:
        bots = seat_bots(match, dict(spec.seats), registry)
        run_bots(match, bots, limit=entry.title.max_actions)
        outcome = match.outcome()
        if outcome is None:
            raise RuntimeError(
                f"{spec.title} awaits nobody at step {match.step} but has no outcome"
            )
    except Exception as exc:
        return GameResult(
            spec.index, spec.seed, match.step, error=describe_error(exc), log=log_text(match)
        )
    return GameResult(
        spec.index,
        spec.seed,
        match.step,
        side=outcome.side,
        reason=outcome.reason,
        figures=dict(outcome.figures),
        log=log_text(match) if spec.keep_log else None,
    )


def play_batch(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Play several games in one task (fewer round trips to the workers)."""
    return [play_game(spec) for spec in specs]


def header_log(spec: GameSpec, registry: Any = None) -> str:
    """A log with no actions (a game whose setup raised, or whose worker was lost):
    it names the title, the players, the seed and the options, from which the game
    can be played again."""
    entry = (registry if registry is not None else default_registry()).entry(spec.title)
    return MatchLog(
        title=entry.title.name,
        title_version=entry.title.version,
        players=spec.players,
        seed=spec.seed,
        distribution=entry.distribution,
        distribution_version=entry.distribution_version,
        config=dict(spec.config),
    ).to_toml()


def numeric_figures(figures: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """The numbers among a title's figures, flattened: ``take``, ``points[2]``
    (list positions count from 1, as seats do), ``score.crew``."""
    out: dict[str, float] = {}
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            out[name] = float(value)
        elif isinstance(value, Mapping):
            out.update(numeric_figures(value, f"{name}."))
        elif isinstance(value, (list, tuple)):
            out.update(numeric_figures({f"[{i}]": v for i, v in enumerate(value, 1)}, name))
    return out


@attrs.frozen
class SideWins:
    """Wins of one side with the 95% Wilson interval of its win rate."""

    side: str
    wins: int
    rate: float
    low: float
    high: float


@attrs.define
class FigureSum:
    """The exact sum of one figure over some games.

    Integers (most figures) are summed as Python ints and other finite numbers as
    fractions, so adding games in any order or grouping gives the same sum, and
    its one rounding to a float at the end equals ``math.fsum`` of the values.
    Infinities and NaN, which have no exact sum, are added as floats.
    """

    #: Where the figure was first seen: (game index, position in that game's
    #: figures). The table lists figures in this order whatever order games end in.
    first: tuple[int, int]
    count: int = 0
    whole: int = 0
    part: Fraction = Fraction(0)
    odd: float | None = None

    def add(self, value: float) -> None:
        self.count += 1
        if not math.isfinite(value):
            self.odd = value if self.odd is None else self.odd + value
        elif value.is_integer():
            self.whole += int(value)
        else:
            self.part += Fraction(value)

    def merge(self, other: FigureSum) -> None:
        self.first = min(self.first, other.first)
        self.count += other.count
        self.whole += other.whole
        self.part += other.part
        if other.odd is not None:
            self.odd = other.odd if self.odd is None else self.odd + other.odd

    def mean(self) -> float:
        if self.odd is not None:
            return self.odd
        return float(self.whole + self.part) / self.count


@attrs.define
class Tally:
    """The numbers of some games, small whatever their number, and mergeable in
    any order with the same outcome (see the module docstring)."""

    games: int = 0
    finished: int = 0
    length_sum: int = 0
    length_min: int | None = None
    length_max: int | None = None
    sides: dict[str, int] = attrs.field(factory=dict)
    reasons: dict[str, int] = attrs.field(factory=dict)
    figures: dict[str, FigureSum] = attrs.field(factory=dict)

    def add(self, result: GameResult) -> None:
        """Count one game (a failed one counts only as a game)."""
        self.games += 1
        if result.error is not None:
            return
        self.finished += 1
        self.length_sum += result.length
        self.length_min = _bound(min, self.length_min, result.length)
        self.length_max = _bound(max, self.length_max, result.length)
        if result.side is not None:
            self.sides[result.side] = self.sides.get(result.side, 0) + 1
        reason = result.reason or ""
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        for position, (name, value) in enumerate(numeric_figures(result.figures).items()):
            figure = self.figures.get(name)
            if figure is None:
                figure = self.figures[name] = FigureSum((result.index, position))
            figure.add(value)

    def merge(self, other: Tally) -> None:
        """Add the games of ``other`` to these."""
        self.games += other.games
        self.finished += other.finished
        self.length_sum += other.length_sum
        self.length_min = _bound(min, self.length_min, other.length_min)
        self.length_max = _bound(max, self.length_max, other.length_max)
        for side, n in other.sides.items():
            self.sides[side] = self.sides.get(side, 0) + n
        for reason, n in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + n
        for name, figure in other.figures.items():
            mine = self.figures.get(name)
            if mine is None:
                self.figures[name] = FigureSum(figure.first)
                mine = self.figures[name]
            mine.merge(figure)


def _bound(pick: Callable[[int, int], int], old: int | None, new: int | None) -> int | None:
    """``pick`` of two bounds, either of which may be missing (``None``)."""
    if old is None or new is None:
        return new if old is None else old
    return pick(old, new)


@attrs.frozen
class BatchReport:
    """What a worker sends back for one batch: its tally, and in full only the
    games that carry a log (every failed game; every game when logs are kept)."""

    tally: Tally
    kept: list[GameResult]


def run_batch(specs: Sequence[GameSpec]) -> BatchReport:
    """Play a batch of games and tally them where they were played."""
    tally = Tally()
    kept = []
    for spec in specs:
        result = play_game(spec)
        tally.add(result)
        if result.log is not None or result.error is not None:
            kept.append(result)
    return BatchReport(tally, kept)


def log_name(title: str, seed: int, index: int) -> str:
    """The file name of game ``index``'s log in a run of ``title`` from ``seed``."""
    return f"{title}-seed{seed}-game{index:05d}.toml"


@attrs.frozen
class LogFolder:
    """A log sink for :func:`simulate`: writes each finished game's log into
    ``folder`` as it arrives, so that the logs are not held in memory."""

    folder: Path
    title: str
    seed: int

    def path(self, index: int) -> Path:
        return self.folder / log_name(self.title, self.seed, index)

    def __call__(self, result: GameResult) -> None:
        if result.log is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path(result.index).write_text(result.log, encoding="utf-8")


@attrs.frozen
class SimulationResult:
    """The numbers of one simulation, and the games kept in full."""

    title: str
    players: int
    seed: int
    seats: Mapping[int, str]
    tally: Tally
    #: The games kept in full, in game order: every failed game, and every game
    #: when logs were asked for and no log sink took them.
    results: tuple[GameResult, ...]
    #: The title's options every game was played with (defaults filled in).
    config: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def failures(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    def sides(self) -> list[SideWins]:
        """Each side that won a game, most wins first; rates are over finished games."""
        done = self.tally.finished
        out = []
        for side, wins in sorted(self.tally.sides.items(), key=lambda kv: (-kv[1], kv[0])):
            low, high = wilson(wins, done)
            out.append(SideWins(side, wins, wins / done, low, high))
        return out

    def reasons(self) -> dict[str, int]:
        """How the finished games ended (``Outcome.reason``), most common first."""
        return dict(sorted(self.tally.reasons.items(), key=lambda kv: (-kv[1], kv[0])))

    def mean_length(self) -> float | None:
        """Mean number of actions of a finished game."""
        t = self.tally
        return float(t.length_sum) / t.finished if t.finished else None

    def figures(self) -> dict[str, float]:
        """The mean of each numeric figure over the finished games that report it,
        in the order the games report them."""
        ordered = sorted(self.tally.figures.items(), key=lambda kv: kv[1].first)
        return {name: figure.mean() for name, figure in ordered}

    def to_json(self) -> dict[str, Any]:
        """Every number of the table, as one JSON-ready object."""
        return {
            "title": self.title,
            "players": self.players,
            "seed": self.seed,
            "seats": {str(s): name for s, name in sorted(self.seats.items())},
            "config": dict(self.config),
            "games": self.games,
            "finished": self.tally.finished,
            "failed": len(self.failures),
            "sides": [attrs.asdict(s) for s in self.sides()],
            "mean_length": self.mean_length(),
            "min_length": self.tally.length_min,
            "max_length": self.tally.length_max,
            "reasons": self.reasons(),
            "figures": self.figures(),
            "failures": [
                {"game": r.index, "seed": r.seed, "error": r.error} for r in self.failures
            ],
        }


def simulate(
    title: str,
    games: int,
    players: int,
    seed: int,
    seats: Mapping[int, str | None],
    executor: Executor,
    *,
    config: Mapping[str, Any] | None = None,
    keep_logs: bool = False,
    log_sink: Callable[[GameResult], None] | None = None,
    batch: int | None = None,
    window: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    registry: Any = None,
) -> SimulationResult:
    """Play ``games`` all-bot games of ``title`` through ``executor``.

    ``seats`` names the bot of some seats (``None`` or absent: the title's default
    bot). Bad arguments raise :class:`~gameweave_core.GameweaveError` (or
    ``ValueError``) before any game starts; a game that raises is recorded as a
    failure with its log, and the others go on. Games go out in batches of
    ``batch``, at most ``window`` batches at a time (default: all at once), and
    ``on_progress(n)`` is called as each batch of ``n`` games completes. With
    ``keep_logs``, each finished game's log is handed to ``log_sink`` as its batch
    arrives (and then dropped), or without a sink kept in the result; failed games
    are always kept with their logs.
    """
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    reg = registry if registry is not None else default_registry()
    the_title = reg.title(title)
    full_config = the_title.check_config(players, dict(config or {}))
    for seat, name in seats.items():
        if not 1 <= seat <= players:
            raise ValueError(f"there is no seat {seat}: seats are 1 to {players}")
        reg.bot(the_title, name)  # an unknown bot fails now, naming the known ones
    chosen = {s: seats.get(s) or the_title.default_bot for s in range(1, players + 1)}
    seat_list = tuple(sorted(chosen.items()))

    def spec(i: int) -> GameSpec:
        return GameSpec(
            index=i,
            title=title,
            players=players,
            seed=derive_seed(seed, f"game:{i}"),
            seats=seat_list,
            config=full_config,
            keep_log=keep_logs,
        )

    # About four batches per batch slot of the window (so that the workers finish
    # together), never more than 50 games in one task.
    size = batch or max(1, min(50, math.ceil(games / max(64, 4 * (window or 0)))))
    # Batches are made as they are sent, so that the client never holds every spec.
    starts = iter(range(1, games + 1, size))
    # At most ``window`` batches are queued at once, so progress is reported as
    # games finish even with an executor that runs each task as it is submitted.
    limit = window or math.ceil(games / size)
    pending: dict[Future[BatchReport], range] = {}
    tally = Tally()
    kept: list[GameResult] = []
    try:
        with ctrl_c_noted() as pressed:
            _run_batches(
                executor,
                pressed,
                pending,
                starts,
                size,
                games,
                limit,
                spec,
                tally,
                kept,
                reg,
                log_sink,
                on_progress,
            )
    except KeyboardInterrupt:
        # Ctrl-C: the games played so far make a smaller run, not a lost one.
        for future in pending:
            future.cancel()
        kept.sort(key=lambda r: r.index)
        partial = SimulationResult(title, players, seed, chosen, tally, tuple(kept), full_config)
        raise Interrupted(partial) from None
    kept.sort(key=lambda r: r.index)
    return SimulationResult(title, players, seed, chosen, tally, tuple(kept), full_config)


def _run_batches(
    executor: Executor,
    pressed: threading.Event,
    pending: dict[Future[BatchReport], range],
    starts: Any,
    size: int,
    games: int,
    limit: int,
    spec: Callable[[int], GameSpec],
    tally: Tally,
    kept: list[GameResult],
    reg: Any,
    log_sink: Callable[[GameResult], None] | None,
    on_progress: Callable[[int], None] | None,
) -> None:
    """Send the batches, at most ``limit`` at a time, and fold each report into
    ``tally`` and ``kept`` as it arrives; ``KeyboardInterrupt`` once ``pressed``
    is set (Ctrl-C), with the reports that arrived before it folded in."""
    while True:
        if pressed.is_set():
            raise KeyboardInterrupt
        while len(pending) < limit:
            first = next(starts, None)
            if first is None:
                break
            chunk = range(first, min(first + size, games + 1))
            pending[executor.submit(run_batch, [spec(i) for i in chunk])] = chunk
        if not pending:
            break
        done, _ = wait(pending, timeout=CTRL_C_LOOK, return_when=FIRST_COMPLETED)
        for future in done:
            chunk = pending.pop(future)
            try:
                report = future.result()
            except RunStopped:
                raise
            except Exception as exc:
                # The worker itself died (or the task could not be sent): the
                # games are lost but the run still reports them, with logs that
                # name their seeds.
                message = f"worker failed: {describe_error(exc)}"
                report = run_lost(chunk, spec, message, reg)
            tally.merge(report.tally)
            for result in report.kept:
                if log_sink is not None and result.error is None:
                    log_sink(result)
                else:
                    kept.append(result)
            if on_progress is not None:
                on_progress(len(chunk))


def run_lost(
    chunk: range, spec: Callable[[int], GameSpec], message: str, registry: Any
) -> BatchReport:
    """The report of a batch whose worker was lost: every game failed with ``message``."""
    tally = Tally()
    kept = []
    for i in chunk:
        s = spec(i)
        result = GameResult(i, s.seed, 0, error=message, log=header_log(s, registry))
        tally.add(result)
        kept.append(result)
    return BatchReport(tally, kept)
