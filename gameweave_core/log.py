"""Replayable match logs in TOML.

A log is a header (format, title and its version, the distribution that supplied
it, players, seed, options) and the ordered actions, each with the digest of the
state it led to. It is written with tomli-w and read with tomllib through the
log reader's own cattrs converter, and stays easy to read and edit by hand::

    format = 1
    title = "museum"
    ...
    actions = [
        { index = 1, seat = 1, action = { type = "enter", exit = "X3" }, digest = "9c1e..." },
    ]
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from .actions import drop_none, make_converter
from .errors import LogError

#: The log reader's own converter (each title's codec has another).
_converter = make_converter()

#: The log format this core writes and reads.
FORMAT_VERSION = 1


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

    def to_toml(self) -> str:
        data = drop_none(_converter.unstructure(self))
        # Header first, actions last, so a person reads the log top to bottom.
        actions = data.pop("actions")
        config = data.pop("config")
        ordered = {"format": data.pop("format"), **data, "config": config, "actions": actions}
        return tomli_w.dumps(ordered)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_toml(), encoding="utf-8")

    @classmethod
    def from_toml(cls, text: str, source: str = "<log>") -> MatchLog:
        """Read a log, or raise :class:`LogError` naming ``source`` and what is wrong."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise LogError(source, f"not valid TOML ({exc})") from None
        fmt = data.get("format")
        if fmt != FORMAT_VERSION:
            raise LogError(
                source, f"unknown log format {fmt!r}; this Gameweave reads format {FORMAT_VERSION}"
            )
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise LogError(source, "'actions' must be an array of tables")
        entries = []
        for pos, raw in enumerate(raw_actions, start=1):
            try:
                entry = _converter.structure(raw, LogEntry)
            except Exception as exc:
                raise LogError(source, f"malformed entry ({_first_line(exc)})", pos) from None
            if entry.index != pos:
                raise LogError(
                    source, f"entry out of order: expected index {pos}, found {entry.index}", pos
                )
            entries.append(entry)
        header = {k: v for k, v in data.items() if k != "actions"}
        try:
            log = _converter.structure({**header, "actions": []}, cls)
        except Exception as exc:
            raise LogError(source, f"malformed header ({_first_line(exc)})") from None
        return attrs.evolve(log, actions=entries)

    @classmethod
    def load(cls, path: str | Path) -> MatchLog:
        """Read a log file (see :meth:`from_toml`)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise LogError(str(path), f"cannot read: {exc}") from None
        return cls.from_toml(text, source=str(path))


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
