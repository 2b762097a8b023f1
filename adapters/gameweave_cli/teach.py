"""A title's rules at the terminal: its topics as pages (``rules`` in ``play`` and
``gameweave rules TITLE``), and what each choice on offer means (a newcomer's
first prompts).

Both read ``Title.rules_text``: topics in light Markdown. A list item of the
``actions`` topic opening with a typed form in backticks explains the choices
that begin with the same word; words of the form in capitals are placeholders
(``guard N SQUARE``), which the explanation fills in from a choice on offer, so
that what it says matches the choice beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from rich.console import Console
from rich.markdown import Markdown
from rich.rule import Rule
from rich.text import Text

from .render import fold


class NoRules(Exception):
    """The title has no rules text, or it failed (the message says which, in one
    line)."""


class RulesFailed(NoRules):
    """The title's rules text raised: a bug of the title, said in one line."""


def topics_of(title: Any) -> dict[str, str]:
    """The title's rules topics in order, or :class:`NoRules` saying why there are none."""
    try:
        topics = dict(title.rules_text() or {})
    except Exception as exc:  # a bug in the title's rules text must not end a game
        raise RulesFailed(
            f"{title.name} could not give its rules ({type(exc).__name__}: {exc})"
        ) from None
    if not topics:
        raise NoRules(
            f"{title.display_name} has no rules text; its distribution's README or "
            "documentation has the rules"
        )
    return topics


def find_topic(names: Sequence[str], wanted: str) -> str | None:
    """The topic ``wanted`` names: the same word whatever its case, else the one
    topic it begins (``guard`` for ``guards``), else ``None``."""
    key = wanted.strip().lower()
    exact = [n for n in names if n.lower() == key]
    if exact:
        return exact[0]
    starts = [n for n in names if n.lower().startswith(key) or key.startswith(n.lower())]
    return starts[0] if len(starts) == 1 else None


@attrs.frozen
class Page:
    """One topic of a title's rules, ready to print: its heading, the topic's
    text and a footer naming the other topics."""

    heading: str
    text: str
    footer: str

    def lines(self, console: Console) -> list[str]:
        """The page as the terminal shows it, in lines no wider than ``console``
        (Markdown rendered with the console's colours, trailing spaces dropped)."""
        with console.capture() as captured:
            console.print(Rule(Text(self.heading)))
            console.print(Markdown(self.text))
            if self.footer:
                for row in fold(self.footer, console.width):
                    console.print(Text(row, style="dim"))
        return [line.rstrip() for line in captured.get().rstrip("\n").split("\n")]


def rules_page(title: Any, topic: str = "", *, command: str = "rules") -> Page:
    """The page of ``topic`` (the overview when empty), or :class:`NoRules` (no
    rules text) or ``KeyError`` (no such topic; its message lists the topics).
    ``command`` is how the footer tells the reader to open another topic."""
    topics = topics_of(title)
    names = list(topics)
    chosen = find_topic(names, topic) if topic else names[0]
    if chosen is None:
        raise KeyError(f"no rules topic {topic!r}; the topics are: {', '.join(names)}")
    rest = [n for n in names if n != chosen]
    text = topics[chosen]
    if all(f"{command} {n}" in text for n in rest):
        # The page lists the other topics as they are typed (an overview's
        # "Topics:" line, in the game): a footer would list them a second time.
        return Page(f"{title.display_name}: {chosen}", text, "")
    footer = f"Rules topics: {', '.join(rest)} (type {command} TOPIC, e.g. {command} {names[-1]})"
    return Page(f"{title.display_name}: {chosen}", text, footer)


# -- what each choice on offer means -----------------------------------------------------

#: Markdown's marks, which the one-line explanations leave out.
_MARKS = re.compile(r"\*\*|`")


def _placeholder(word: str) -> bool:
    """Whether a word of a typed form stands for a value: a word in capitals
    (``N``, ``SQUARE``), where an example such as ``K7`` has a digit."""
    return word.isalpha() and word.isupper()


def action_items(guide: str) -> list[tuple[list[str], str]]:
    """The list items of an ``actions`` topic that open with a typed form in
    backticks: (the form's words, the rest of the item with its next lines joined)."""
    items: list[tuple[list[str], str]] = []
    text: list[str] | None = None

    def close() -> None:
        if text is not None:
            whole = " ".join(text)
            form, _, meaning = whole[1:].partition("`")
            items.append((form.split(), meaning))

    for line in guide.splitlines():
        stripped = line.strip()
        if stripped.startswith("- `"):
            close()
            text = [stripped[2:]]
        elif text is not None and stripped and line[:1].isspace():
            text.append(stripped)
        else:
            close()
            text = None
    close()
    return items


def _exact(form: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the choice ``words`` is written as the typed ``form``: as many
    words, each the form's own or in place of a placeholder."""
    return len(form) == len(words) and all(
        _placeholder(f) or f.lower() == w.lower() for f, w in zip(form, words, strict=True)
    )


def fit(form: Sequence[str], words: Sequence[str]) -> int:
    """How well the typed ``form`` explains the choice ``words``: 3 written as the
    form; 2 the same first word and the same last word, where the form has three
    words or more and ends in a word that is not a placeholder (``walk SQUARE
    cut``); 1 the same first word; 0 not at all."""
    if not form or not words or form[0].lower() != words[0].lower():
        return 0
    if _exact(form, words):
        return 3
    last = form[-1]
    if len(form) >= 3 and last.isalpha() and not _placeholder(last):
        return 2 if len(words) > 1 and words[-1].lower() == last.lower() else 0
    return 1


def _filled(form: Sequence[str], words: Sequence[str], meaning: str) -> tuple[str, str]:
    """The form and its meaning with each placeholder replaced by the value the
    choice ``words`` has in its place (when the two have as many words)."""
    shown = " ".join(form)
    if not _exact(form, words):
        return shown, meaning
    values = {f: w for f, w in zip(form, words, strict=True) if _placeholder(f)}
    for name, value in values.items():
        meaning = re.sub(rf"\b{re.escape(name)}\b", value, meaning)
    return " ".join(words), meaning


def explain_choices(title: Any, labels: Sequence[str]) -> list[str]:
    """What each kind of choice in ``labels`` means, one line each, in the order
    of the title's ``actions`` rules topic: each choice is explained by the item
    that fits it best (see :func:`fit`), and an item written as a choice on offer
    is shown with that choice's values in place of its placeholders; Markdown's
    marks are left out."""
    try:
        topics: Mapping[str, str] = title.rules_text() or {}
        guide = str(topics.get("actions", ""))
    except Exception:
        return []
    items = action_items(guide)
    chosen: dict[int, list[str]] = {}
    for label in labels:
        words = label.split()
        scores = [fit(form, words) for form, _ in items]
        best = max(scores, default=0)
        if best:
            at = scores.index(best)
            if at not in chosen or (best == 3 and not _exact(items[at][0], chosen[at])):
                chosen[at] = words
    out = []
    for at in sorted(chosen):
        form, meaning = items[at]
        shown, said = _filled(form, chosen[at], meaning)
        out.append(_MARKS.sub("", f"{shown}{said}"))
    return out


__all__ = [
    "NoRules",
    "Page",
    "RulesFailed",
    "action_items",
    "explain_choices",
    "find_topic",
    "fit",
    "rules_page",
    "topics_of",
]
