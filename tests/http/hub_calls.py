"""Calling the hub, whose methods are coroutines, from a synchronous test: each
call runs in an event loop of its own, in a thread of its own (the browser tests'
Playwright keeps an event loop running in the main thread)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(call: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
    """The result of ``call`` (a coroutine of the hub), awaited to its end."""
    out: list[T] = []
    failed: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(call))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join(timeout)
    if failed:
        raise failed[0]
    assert out, f"the hub's call did not finish within {timeout} s"
    return out[0]
