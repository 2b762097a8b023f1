"""Many all-bot games, spread over any :mod:`concurrent.futures` executor.

:func:`simulate` is pure apart from the executor: game ``i`` is played from the
seed ``derive_seed(seed, "game:i")`` and the results are gathered in game order,
so the numbers depend only on the seed, never on how many processes (or which
executor) played them. Workers find the title by name in their own registry, so a
distributed executor only needs the same plugins installed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

import attrs

from gameweave_core import Match, MatchLog, default_registry, derive_seed, run_bots, seat_bots
from gameweave_core.log import LogEntry

from .stats import mean, wilson


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
        header = MatchLog(
            title=entry.title.name,
            title_version=entry.title.version,
            players=spec.players,
            seed=spec.seed,
            distribution=entry.distribution,
            distribution_version=entry.distribution_version,
            config=dict(spec.config),
        )
        return GameResult(
            spec.index, spec.seed, 0, error=f"setup: {describe_error(exc)}", log=header.to_toml()
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


@attrs.frozen
class SimulationResult:
    """The games of one simulation, in game order, and the numbers drawn from them."""

    title: str
    players: int
    seed: int
    seats: Mapping[int, str]
    results: tuple[GameResult, ...]
    #: The title's options every game was played with (defaults filled in).
    config: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def finished(self) -> list[GameResult]:
        return [r for r in self.results if r.error is None]

    @property
    def failures(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    def sides(self) -> list[SideWins]:
        """Each side that won a game, most wins first; rates are over finished games."""
        done = self.finished
        counts = Counter(r.side for r in done if r.side is not None)
        out = []
        for side, wins in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            low, high = wilson(wins, len(done))
            out.append(SideWins(side, wins, wins / len(done), low, high))
        return out

    def reasons(self) -> dict[str, int]:
        """How the finished games ended (``Outcome.reason``), most common first."""
        counts = Counter(r.reason or "" for r in self.finished)
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def mean_length(self) -> float | None:
        """Mean number of actions of a finished game."""
        return mean([float(r.length) for r in self.finished])

    def figures(self) -> dict[str, float]:
        """The mean of each numeric figure over the finished games that report it."""
        values: dict[str, list[float]] = {}
        for r in self.finished:
            for name, value in numeric_figures(r.figures).items():
                values.setdefault(name, []).append(value)
        return {name: m for name, vals in values.items() if (m := mean(vals)) is not None}

    def to_json(self) -> dict[str, Any]:
        """Every number of the table, as one JSON-ready object."""
        lengths = [r.length for r in self.finished]
        return {
            "title": self.title,
            "players": self.players,
            "seed": self.seed,
            "seats": {str(s): name for s, name in sorted(self.seats.items())},
            "config": dict(self.config),
            "games": self.games,
            "finished": len(self.finished),
            "failed": len(self.failures),
            "sides": [attrs.asdict(s) for s in self.sides()],
            "mean_length": self.mean_length(),
            "min_length": min(lengths) if lengths else None,
            "max_length": max(lengths) if lengths else None,
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
    ``on_progress(n)`` is called as each batch of ``n`` games completes.
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
    specs = [
        GameSpec(
            index=i,
            title=title,
            players=players,
            seed=derive_seed(seed, f"game:{i}"),
            seats=tuple(sorted(chosen.items())),
            config=full_config,
            keep_log=keep_logs,
        )
        for i in range(1, games + 1)
    ]
    size = batch or max(1, min(50, math.ceil(games / 64)))
    batches = [specs[i : i + size] for i in range(0, len(specs), size)]
    # At most ``window`` batches are queued at once, so progress is reported as
    # games finish even with an executor that runs each task as it is submitted.
    limit = window or len(batches)
    queue = iter(batches)
    pending: dict[Future[list[GameResult]], list[GameSpec]] = {}
    results: list[GameResult] = []
    while True:
        for chunk in queue:
            pending[executor.submit(play_batch, chunk)] = chunk
            if len(pending) >= limit:
                break
        if not pending:
            break
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            chunk = pending.pop(future)
            try:
                results.extend(future.result())
            except Exception as exc:
                # The worker itself died (or the task could not be sent): the
                # games are lost but the run still reports them.
                message = f"worker failed: {describe_error(exc)}"
                results.extend(GameResult(s.index, s.seed, 0, error=message) for s in chunk)
            if on_progress is not None:
                on_progress(len(chunk))
    results.sort(key=lambda r: r.index)
    return SimulationResult(title, players, seed, chosen, tuple(results), full_config)
