"""The log-format page explains every field a log can hold."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from gameweave_core.log import LogEntry, MatchLog

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "log-format.md"


def described_terms() -> set[str]:
    """The definition-list terms of the page: lines like ``\\`seed\\``` or
    ``\\`distribution\\`, \\`distribution_version\\```."""
    text = PAGE.read_text(encoding="utf-8")
    terms: set[str] = set()
    for term_line in re.findall(r"^(`[^\n]+)\n: ", text, re.MULTILINE):
        terms.update(re.findall(r"`([a-z_]+)`", term_line))
    return terms


def test_every_log_field_is_described() -> None:
    fields = {f.name for f in attrs.fields(MatchLog)} | {f.name for f in attrs.fields(LogEntry)}
    missing = sorted(fields - described_terms())
    assert not missing, f"docs/reference/log-format.md does not describe: {', '.join(missing)}"
