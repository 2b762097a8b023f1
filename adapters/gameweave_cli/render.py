"""Drawing a seat's screen in the terminal, with generic fallbacks.

A title may ship ``render_text`` (rich markup allowed) and its own
``describe_action``; when it does not, the view is shown as indented text and the
legal actions as a numbered menu of their JSON fields. Everything drawn here comes
from a seat's view, history and legal actions as the :class:`Match` builds them.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from gameweave_core import Match, Outcome, Title

#: Menus longer than this are laid out in columns.
COLUMN_MENU = 12


#: The width assumed when the output is not a terminal (a pipe, a file, a test)
#: and COLUMNS does not say otherwise: what a default terminal has.
DEFAULT_WIDTH = 80


def make_console(*, stderr: bool = False) -> Console:
    """A console that does not guess at syntax colours and folds long lines at
    word boundaries to its width, so that no line runs past the terminal's edge
    (where the terminal itself would cut a word in two). Lines that must stay whole
    to be copied, such as a command with a path in it, are printed with
    ``soft_wrap=True``."""
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def fold(text: str, width: int, indent: str = "", first: str = "") -> list[str]:
    """Plain ``text`` folded at word boundaries into lines of at most ``width``
    columns: the first opens with ``first``, the others with ``indent``. A word
    longer than a line is cut (nothing is lost: it goes on on the next line)."""
    return textwrap.wrap(
        " ".join(text.split()),
        width=max(len(indent) + 8, width),
        initial_indent=first,
        subsequent_indent=indent,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def error(message: str) -> None:
    """Print one error line to stderr (plain text, so nothing in it is markup)."""
    text = " ".join(str(message).split("\n"))
    print(f"error: {text}", file=sys.stderr)


def seat_name(match: Match, seat: int | None) -> str:
    """``"seat 1 (Thief)"``, or ``"spectator"``."""
    if seat is None:
        return "spectator"
    return f"seat {seat} ({match.seat_label(seat)})"


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value or "(none)"
    return json.dumps(value)


def _is_flat(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value)


def view_lines(view: Mapping[str, Any], indent: int = 0) -> list[str]:
    """The generic rendering of a view: one ``key: value`` line per entry, nested
    mappings and lists indented below their key."""
    pad = "  " * indent
    lines: list[str] = []
    for key, value in view.items():
        label = str(key).replace("_", " ")
        if isinstance(value, dict):
            lines.append(f"{pad}{label}:" if value else f"{pad}{label}: (none)")
            lines.extend(view_lines(value, indent + 1))
        elif _is_flat(value):
            shown = ", ".join(_scalar(v) for v in value) if value else "(none)"
            lines.append(f"{pad}{label}: {shown}")
        elif isinstance(value, list):
            lines.append(f"{pad}{label}:")
            for item in value:
                if isinstance(item, dict):
                    inner = view_lines(item, indent + 2)
                    if inner:
                        first = inner[0].lstrip()
                        lines.append(f"{pad}  - {first}")
                        lines.extend(inner[1:])
                    else:
                        lines.append(f"{pad}  - (empty)")
                else:
                    lines.append(f"{pad}  - {_scalar(item)}")
        else:
            lines.append(f"{pad}{label}: {_scalar(value)}")
    return lines


def render_view(
    match: Match,
    seat: int | None,
    view: Mapping[str, Any] | None = None,
    *,
    width: int | None = None,
) -> str:
    """The view of ``seat`` as rich markup: the title's own drawing if it has one,
    laid out for a terminal ``width`` columns wide (``Title.render_text``'s
    ``width``; :data:`DEFAULT_WIDTH` when not given)."""
    view = match.view(seat) if view is None else view
    generic = escape("\n".join(view_lines(view)) or "(nothing to show)")
    try:
        drawn = match.title.render_text(view, seat, width=width or DEFAULT_WIDTH)
    except Exception as exc:
        # A drawing bug must not end a game: the generic form shows the same view.
        note = escape(f"({match.title.name} could not draw this view: {type(exc).__name__}: {exc})")
        return f"[dim]{note}[/dim]\n{generic}"
    return generic if drawn is None else drawn


def menu_start(labels: Sequence[str]) -> int:
    """The number of a menu's first entry: 1, or 0 when the menu is a count from
    zero (``bid 0``, ``bid 1``, ... each label ending in its place), so that the
    number typed is the number meant (``5`` bids 5, not 4)."""
    if len(labels) < 2:
        return 1
    ends = [label.rsplit(" ", 1)[-1] for label in labels]
    return 0 if all(end == str(i) for i, end in enumerate(ends)) else 1


def menu(match: Match, seat: int) -> list[tuple[int, Any, str]]:
    """The numbered menu of ``seat``'s legal actions: (number, action, label),
    numbered from :func:`menu_start`."""
    legal = match.legal_actions(seat)
    labels = [describe(match, act) for act in legal]
    start = menu_start(labels)
    return [
        (n, act, label)
        for n, (act, label) in enumerate(zip(legal, labels, strict=True), start=start)
    ]


def describe(match: Match, action: Any) -> str:
    """The title's label for an action, or its JSON form if the title's fails."""
    try:
        return match.title.describe_action(action)
    except Exception:
        return Title.describe_action(match.title, action)


def print_menu(console: Console, entries: Sequence[tuple[int, Any, str]]) -> None:
    """The whole menu, numbered, in columns when it is long."""
    items = [Text(f"{n:>3}. {label}") for n, _, label in entries]
    if len(items) > COLUMN_MENU:
        console.print(Columns(items, padding=(0, 3)))
    else:
        for item in items:
            console.print(item)


#: The widest shared opening a compact menu line names before its entries.
MENU_WORD = 16


def compact_menu(entries: Sequence[tuple[int, Any, str]], width: int) -> list[tuple[str, int]]:
    """The menu in as few lines of ``width`` columns as it takes, for a screen that
    must hold the board too: a run of actions whose labels open with the same
    words shares lines that name those words once (``walk  1. A4  2. A5 ...``,
    ``guard 2  3. C5 ...``); the other actions share lines of their own
    (``23. hold  24. lift``). Returns (line, number of entries on it), entries in
    menu order; no entry is split between lines."""
    runs: list[list[tuple[int, list[str]]]] = []
    for n, _, label in entries:
        words = label.split(" ")
        last = runs[-1][0][1] if runs else []
        if len(words) > 1 and len(last) > 1 and last[0] == words[0]:
            runs[-1].append((n, words))
        else:
            runs.append([(n, words)])
    groups: list[tuple[str, list[str]]] = []
    for run in runs:
        if len(run) == 1:
            n, words = run[0]
            item = f"{n}. {' '.join(words)}"
            if groups and groups[-1][0] == "":
                groups[-1][1].append(item)
            else:
                groups.append(("", [item]))
            continue
        # The words every label of the run opens with ("guard 1" for guard 1's moves).
        common = 1
        while all(len(w) > common + 1 and w[common] == run[0][1][common] for _, w in run):
            common += 1
        word = " ".join(run[0][1][:common])
        # A choice that is its own number (bid 5 as entry 5) needs it only once.
        groups.append(
            (
                word,
                [
                    str(n) if w[common:] == [str(n)] else f"{n}. {' '.join(w[common:])}"
                    for n, w in run
                ],
            )
        )
    indent = min(MENU_WORD, max((len(w) + 1 for w, _ in groups if w), default=0))
    lines: list[tuple[str, int]] = []
    for word, items in groups:
        if len(word) >= indent and word:
            lines.append((word, 0))  # too long to stand beside its entries
            word = ""
        line, count = f"{word:<{indent}}", 0
        for item in items:
            if count and len(line) + 2 + len(item) > width - 1:
                lines.append((line.rstrip(), count))
                line, count = " " * indent, 0
            line += ("  " if count else " " if indent else "") + item
            count += 1
        lines.append((line.rstrip(), count))
    return lines


def history_rows(lines: Sequence[str], width: int) -> list[str]:
    """History lines as the terminal shows them: indented, a long one folded
    under itself."""
    rows: list[str] = []
    for line in lines:
        rows.extend(fold(line, width, indent="    ", first="  "))
    return rows


def print_history(console: Console, lines: Sequence[str], *, empty: str = "") -> None:
    """History lines, each as plain text (titles' words are never markup)."""
    if not lines and empty:
        console.print(Text(empty, style="dim"))
    for row in history_rows(lines, console.width):
        console.print(Text(row))


def outcome_text(outcome: Outcome) -> str:
    """One line: who won and how."""
    return f"Game over: {outcome.summary} (winner: {outcome.side}; ended by {outcome.reason})"
