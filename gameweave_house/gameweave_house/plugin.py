"""Makes The House Job known to Gameweave (the ``gameweave`` entry point ``house``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameweave_core import hookimpl

from .title import HouseJob


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(HouseJob())
