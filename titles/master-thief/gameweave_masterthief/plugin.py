"""Makes Master Thief known to Gameweave (the ``masterthief`` entry point)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameweave_core import hookimpl

from .title import MasterThief


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(MasterThief())
