"""Replayable match logs in TOML.

A log is a header (format, title and its version, players, seed, random generator,
the distribution that supplied the title, options) and the ordered actions, each
with the digest of the state it led to. It is written with tomli-w and read with
tomllib through the log reader's own cattrs converter, and stays easy to read and
edit by hand::

    format = 1
    title = "museum"
    title_version = "3"
    players = 2
    seed = 1234
    generator = 2
    ...

    [[actions]]
    index = 1
    seat = 1
    digest = "9c1e4b0a7f3d2e61"

    [actions.action]
    type = "enter"
    exit = "X3"

A log is untrusted input: before tomllib sees it, :meth:`MatchLog.from_toml`
refuses text that is too large, too deeply nested or holds an absurdly long
integer, each with a one-line :class:`LogError`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import tomli_w

from .actions import drop_none, make_converter
from .errors import CutLog, LogError
from .rng import DEFAULT_GENERATOR, LEGACY_GENERATOR, check_generator

if TYPE_CHECKING:
    from .registry import TitleEntry

#: The log reader's own converter (each title's codec has another).
_converter = make_converter()

#: The log format this core writes and reads.
FORMAT_VERSION = 1

#: The largest log read, in characters of text (a log of 10,000 actions is about 1 MB).
MAX_LOG_CHARS = 32 * 1024 * 1024
#: How deeply arrays and inline tables may nest (a log needs 4 or 5 levels).
MAX_NESTING = 50
#: The most digits an integer may have (a seed has 19).
MAX_DIGITS = 100

#: TOML strings and comments, which may hold brackets and digits freely.
_STRINGS_AND_COMMENTS = re.compile(
    # Each branch starts with its own character, and a basic string's body is read
    # a run at a time: twice as fast as the plain alternation on a long log.
    r'"(?:""[\s\S]*?"""|[^"\\\n]*(?:\\.[^"\\\n]*)*")|'
    r"'(?:''[\s\S]*?'''|[^'\n]*')|#[^\n]*"
)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_LONG_NUMBER = re.compile(rf"[0-9][0-9_]{{{MAX_DIGITS},}}")


@attrs.frozen
class LogEntry:
    """One submitted action: its 1-based index, the seat, the action's JSON form,
    and the digest of the state right after it."""

    index: int
    seat: int
    action: dict[str, Any]
    digest: str | None = None
    #: Set on the last entry of a log saved after the title raised on it.
    error: str | None = None


@attrs.frozen
class MatchLog:
    """A whole log: header and actions."""

    title: str
    title_version: str
    players: int
    seed: int
    distribution: str = "unknown"
    distribution_version: str = ""
    config: dict[str, Any] = attrs.field(factory=dict)
    actions: list[LogEntry] = attrs.field(factory=list)
    format: int = FORMAT_VERSION
    #: The random generator the match used (see :mod:`gameweave_core.rng`); by
    #: default the one new matches use. A log file without the field was recorded
    #: with the legacy one, generator 1, and reads as such.
    generator: int = DEFAULT_GENERATOR
    #: Who sat in each seat, by seat number (``"1"``): ``"human"``, or
    #: ``"bot:NAME"`` with the bot's name. Written by ``gameweave play`` so that
    #: ``--resume`` seats everyone again as they were; ``None`` (left out of the
    #: file) when the writer did not say, as in logs written before the field.
    #: Replays ignore it.
    seats: dict[str, str] | None = None

    def to_toml(self) -> str:
        data = drop_none(_converter.unstructure(self))
        # Header first, actions last, so a person reads the log top to bottom.
        actions = data.pop("actions")
        config = data.pop("config")
        generator = data.pop("generator")
        header = {"format": data.pop("format")}
        for key in ("title", "title_version", "players", "seed"):
            header[key] = data.pop(key)
        # Logs of the legacy generator stay as they were written before the field.
        if generator != LEGACY_GENERATOR:
            header["generator"] = generator
        ordered = {**header, **data, "config": config, "actions": actions}
        return tomli_w.dumps(ordered)

    def compatibility(self, entry: TitleEntry) -> str | None:
        """How the installed title ``entry`` differs from the one this log was
        recorded with, in one line, or ``None`` when rules version and distribution
        are the same. A changed rules version comes first: the replay may diverge.

        For example ``"recorded with museum 3 (gameweave-museum 1.0.0), installed
        museum 4 (gameweave-museum 1.1.0): the rules changed"``.
        """
        recorded = _described(
            self.title, self.title_version, self.distribution, self.distribution_version
        )
        installed = _described(
            entry.title.name, entry.title.version, entry.distribution, entry.distribution_version
        )
        if self.title_version != entry.title.version:
            return f"recorded with {recorded}, installed {installed}: the rules changed"
        if (self.distribution, self.distribution_version) != (
            entry.distribution,
            entry.distribution_version,
        ):
            return f"recorded with {recorded}, installed {installed}: another distribution"
        return None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_toml(), encoding="utf-8")

    @classmethod
    def from_toml(cls, text: str, source: str = "<log>") -> MatchLog:
        """Read a log, or raise :class:`LogError` naming ``source`` and what is wrong.

        The limits (:data:`MAX_LOG_CHARS`, :data:`MAX_NESTING`, :data:`MAX_DIGITS`)
        are checked before the text is parsed.
        """
        problem = _beyond_limits(text)
        if problem is not None:
            raise LogError(source, problem)
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
            # The limits above keep RecursionError and int() limits away; kept as a
            # safety net so a log can never crash a reader with a traceback.
            raise LogError(source, f"not valid TOML ({_first_line(exc)})") from None
        fmt = data.get("format")
        if fmt != FORMAT_VERSION:
            raise LogError(
                source, f"unknown log format {fmt!r}; this Gameweave reads format {FORMAT_VERSION}"
            )
        data.setdefault("generator", LEGACY_GENERATOR)
        try:
            check_generator(data["generator"])
        except ValueError as exc:
            raise LogError(source, str(exc)) from None
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise LogError(source, "'actions' must be an array of tables")
        entries = []
        for pos, raw in enumerate(raw_actions, start=1):
            try:
                entry = _converter.structure(raw, LogEntry)
            except Exception as exc:
                if pos == len(raw_actions):
                    # Fields missing from the last entry only: the file was cut there.
                    raise CutLog(source, cut_short(exc), pos) from None
                raise LogError(source, f"malformed entry ({_first_line(exc)})", pos) from None
            if entry.index != pos:
                raise LogError(
                    source, f"entry out of order: expected index {pos}, found {entry.index}", pos
                )
            problem = _failure_problem(entry, last=pos == len(raw_actions))
            if problem is not None:
                raise LogError(source, problem, pos)
            entries.append(entry)
        header = {k: v for k, v in data.items() if k != "actions"}
        try:
            log = _converter.structure({**header, "actions": []}, cls)
        except Exception as exc:
            raise LogError(source, f"malformed header ({_first_line(exc)})") from None
        if log.seats is not None:
            problem = seats_problem(log.seats, log.players)
            if problem is not None:
                raise LogError(source, problem)
        return attrs.evolve(log, actions=entries)

    @classmethod
    def load(cls, path: str | Path) -> MatchLog:
        """Read a log file (see :meth:`from_toml`). At most :data:`MAX_LOG_CHARS`
        bytes are read, whatever the path names: a regular file larger than that is
        refused before it is read, and a device, pipe or FIFO that goes on (such as
        ``/dev/zero``) as soon as it has given one byte more."""
        try:
            with open(path, "rb") as file:
                found = os.fstat(file.fileno())
                if stat.S_ISREG(found.st_mode) and found.st_size > MAX_LOG_CHARS:
                    raise LogError(str(path), _too_large(found.st_size, "bytes"))
                # Only a regular file's size is known beforehand: read one byte past
                # the bound, which tells a log at the bound from a longer stream.
                data = file.read(MAX_LOG_CHARS + 1)
            if len(data) > MAX_LOG_CHARS:
                raise LogError(
                    str(path),
                    f"too large (more than {MAX_LOG_CHARS:,} bytes; a log may have at "
                    f"most {MAX_LOG_CHARS:,})",
                )
            # Newlines as a text-mode read gives them (\r\n and \r become \n).
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise LogError(str(path), f"cannot read: {exc}") from None
        return cls.from_toml(text, source=str(path))


def _failure_problem(entry: LogEntry, *, last: bool) -> str | None:
    """What is wrong with an entry recording a failure (``error``), or ``None``.

    The title raised on that action, so the match went no further (nothing can
    follow it) and reached no state (there is no digest of one): a log saying
    otherwise was edited.
    """
    if entry.error is None:
        return None
    if not last:
        return "only the last entry may record a failure (error): nothing follows one"
    if entry.digest is not None:
        return "an entry recording a failure has no digest: the title raised before any state"
    return None


def seats_problem(seats: Mapping[str, str], players: int) -> str | None:
    """What is wrong with a log's ``seats`` table for ``players`` seats, or ``None``:
    each key is a seat number, each value ``"human"`` or ``"bot:NAME"``."""
    for key, kind in seats.items():
        if not key.isdigit() or not 1 <= int(key) <= players:
            return f"the seats table names seat {key!r}, not 1 to {players}"
        if kind != "human" and not kind.startswith("bot:"):
            return f"seat {key} is {kind!r}; a seat is 'human' or 'bot:NAME'"
    return None


def _described(title: str, version: str, distribution: str, distribution_version: str) -> str:
    source = f"{distribution} {distribution_version}".strip()
    return f"{title} {version} ({source})"


def _too_large(size: int, unit: str) -> str:
    return f"too large ({size:,} {unit}; a log may have at most {MAX_LOG_CHARS:,})"


def _beyond_limits(text: str) -> str | None:
    """Why ``text`` is refused before parsing, or ``None``.

    tomllib recurses once per nested array or inline table (thousands of ``[``
    exhaust the stack) and Python refuses to convert integers of more than 4,300
    digits; neither should ever reach a reader as a traceback.
    """
    if len(text) > MAX_LOG_CHARS:
        return _too_large(len(text), "characters")
    bare = _STRINGS_AND_COMMENTS.sub('""', text)
    if _LONG_NUMBER.search(bare):
        return f"an integer with more than {MAX_DIGITS} digits"
    # Depth counts every opening bracket not yet closed (a table header such as
    # [[actions]] counts 2 for a moment): a bound on what tomllib would recurse.
    depth = 0
    for char in _NOT_BRACKETS.sub("", bare):
        if char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return f"too deeply nested (more than {MAX_NESTING} levels)"
        elif depth:
            depth -= 1
    return None


def cut_short(exc: BaseException) -> str:
    """Why the last entry of a log is refused as cut short (``exc``: what reading it
    raised): the log cannot be read to its end."""
    return (
        f"the log ends mid-entry: this last entry is incomplete ({_first_line(exc)}); "
        "was the file cut short? It cannot be read"
    )


def _first_line(exc: BaseException) -> str:
    import cattrs

    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc))
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def digest(snapshot: Any) -> str:
    """A short stable fingerprint of a state snapshot (JSON-ready data)."""
    blob = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), default=_default)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"cannot digest {type(value).__name__}")
