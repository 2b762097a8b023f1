"""Makes Sealed Bids known to Gameweave (the ``gameweave`` entry point)."""

from collections.abc import Callable
from typing import Any

from gameweave_core import hookimpl

from .title import SealedBid


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(SealedBid())
