"""Golden logs: recorded playthroughs that must play the same, byte for byte.

:func:`check_golden` checks one log; :class:`~gameweave_core.testing.TitleConformance`
checks every log of a title's golden folder. Recording them again, after a
deliberate change of behaviour, is a command: see
:mod:`gameweave_core.testing.record_golden`."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import LogError
from ..log import MatchLog
from ..match import Match
from ..registry import Registry, default_registry
from ..runner import play_out
from .play import observers, snapshot_for


def golden_path_expected(log_path: Path) -> Path:
    """Where the expected file of the golden log at ``log_path`` is."""
    return log_path.with_name(log_path.stem + ".expected.json")


def check_golden(log_path: Path, registry: Registry | None = None) -> None:
    """A recorded playthrough still plays the same: every digest in the log matches
    and every seat's final view, legal actions and history equal the recorded ones.

    Set ``GAMEWEAVE_UPDATE_GOLDEN=1`` to record the expected file afresh after a
    deliberate change of behaviour (and bump the title's ``version``).
    """
    match = Match.load(log_path, verify=True, registry=registry or default_registry())
    got = _expected(match)
    expected_path = golden_path_expected(log_path)
    if os.environ.get("GAMEWEAVE_UPDATE_GOLDEN") == "1" or not expected_path.exists():
        expected_path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        if os.environ.get("GAMEWEAVE_UPDATE_GOLDEN") != "1":
            raise AssertionError(f"recorded {expected_path}; commit it and run again")
    expected = json.loads(expected_path.read_text())
    assert json.loads(json.dumps(got)) == expected, f"{log_path.name} no longer plays the same"


def golden_logs(folder: Path) -> list[Path]:
    """The golden logs of ``folder``: every ``*.toml`` in it, by name."""
    return sorted(folder.glob("*.toml"))


def check_golden_folder(folder: Path, title: str, registry: Registry | None = None) -> int:
    """Every golden log in ``folder`` plays the same (see :func:`check_golden`), and
    every one is a log of ``title``. Fails naming each log that does not, after
    trying them all; returns how many were checked. A folder with no log fails:
    a golden folder emptied by mistake must not pass."""
    logs = golden_logs(folder)
    assert logs, (
        f"{title}: no golden log (*.toml) in {folder}: record some with "
        f"python -m gameweave_core.testing.record_golden --title {title} --write {folder} --record ..."
    )
    failed = []
    for log in logs:
        named = MatchLog.load(log).title
        if named != title:
            failed.append(f"{log.name}: a log of {named!r}, not {title!r}")
            continue
        try:
            check_golden(log, registry)
        except (AssertionError, LogError) as exc:
            failed.append(f"{log.name}: {str(exc).splitlines()[0]}")
    assert not failed, (
        f"{title}: {len(failed)} of {len(logs)} golden logs no longer play the same "
        f"(after a deliberate change, record them again with {RECORD_AGAIN.format(title=title)}"
        f" and bump the title's version):\n  " + "\n  ".join(failed)
    )
    return len(logs)


#: The command that records a title's golden logs again (the messages name it).
RECORD_AGAIN = "python -m gameweave_core.testing.record_golden --title {title} --write tests/golden"


def _expected(match: Match) -> dict[str, Any]:
    got: dict[str, Any] = {
        "digest": match.digest(),
        "seats": {str(s): snapshot_for(match, s) for s in observers(match)},
    }
    outcome = match.outcome()
    if outcome is not None:
        got["outcome"] = outcome.to_json()
    return got


def write_golden(match: Match, log_path: Path) -> None:
    """Save ``match`` as a golden log at ``log_path`` with its ``.expected.json``."""
    match.save(log_path)
    text = json.dumps(_expected(match), indent=1, sort_keys=True) + "\n"
    golden_path_expected(log_path).write_text(text)


def record_again(log_path: Path, title: str, registry: Registry | None = None) -> Match:
    """Replay the log at ``log_path`` (its seed, config and actions) under the rules
    installed now, digests not compared, and write it and its expected file afresh.
    Raises :class:`~gameweave_core.errors.LogError` naming the action the rules now
    refuse (record another game then)."""
    log = MatchLog.load(log_path)
    if log.title != title:
        raise LogError(str(log_path), f"a log of {log.title!r}, not {title!r}")
    match = Match.from_log(log, registry=registry, source=str(log_path))
    write_golden(match, log_path)
    return match


def record_new(
    folder: Path,
    stem: str,
    title: str,
    players: int,
    seed: int,
    bots: Sequence[str] = (),
    config: Mapping[str, Any] | None = None,
    registry: Registry | None = None,
) -> Path:
    """Record a new golden game of ``title`` in ``folder`` as ``STEM.toml``, played
    to the end by ``bots`` (one name per seat, or fewer: the title's default bot in
    the seats left)."""
    match = Match.create(title, players, seed, config, registry=registry)
    play_out(match, {s: name for s, name in enumerate(bots, start=1)}, registry)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.toml"
    write_golden(match, path)
    return path
