"""The House Job in a terminal: the table drawn as text, and typed actions read back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import action_tag

from . import actions as A
from .roles import ABILITIES


def describe_action(act: Any) -> str:
    """A short label for a legal action, e.g. ``"+50"``, ``"play false cut box 2 card 1"``."""
    if isinstance(act, A.Chips):
        return f"+{act.amount}" + (" extra" if act.box is not None else "")
    if isinstance(act, A.Ability):
        words = ["play", ABILITIES[act.card].name.lower()]
        if act.box is not None:
            words += ["box", str(act.box)]
        if act.mine is not None:
            words += ["mine", str(act.mine + 1)]
        if act.index is not None:
            words += ["card", str(act.index + 1)]
        if act.amount is not None:
            words += ["for", str(act.amount)]
        return " ".join(words)
    if isinstance(act, A.Mark):
        return f"mark {act.box}"
    if isinstance(act, A.Draft):
        return f"draft {act.role.replace('_', ' ')}"
    return action_tag(act).replace("_", " ")


def parse_action(text: str, legal: Sequence[Any]) -> Any:
    for act in legal:
        if describe_action(act) == text.strip().lower():
            return act
    raise ValueError(f"cannot read {text!r}")


def render_text(view: Mapping[str, Any], seat: int | None) -> str | None:
    return None
