"""Makes The Museum Job known to Gameweave (the ``museum`` entry point)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameweave_core import hookimpl

from .title import MuseumJob


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(MuseumJob())
