"""Makes Museum Rush known to Gameweave (the ``museumrush`` entry point)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameweave_core import hookimpl

from .title import MuseumRush


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(MuseumRush())
