"""``simulate --cluster``, added through the ``register_commands`` hook.

The ``gameweave.commands`` entry point ``dask`` names this module. The option is there
even without Dask, so that using it says in one line which extra to install.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

from gameweave_core.hooks import hookimpl
from gameweave_core.registry import TitleEntry

from .cluster import open_cluster

#: The option's help, as ``gameweave simulate --help`` shows it.
HELP = (
    "Play the games on a Dask cluster: its scheduler's address (tcp://HOST:8786), "
    "or local[:N] for N worker processes here; needs gameweave[dask]"
)


def open_executor(address: str, entry: TitleEntry) -> tuple[Executor, int]:
    """The cluster ``--cluster address`` names, and how many games it plays at once."""
    executor = open_cluster(address, entry)
    return executor, executor.threads


@hookimpl
def register_commands(cli: Any) -> None:
    """Add ``simulate --cluster``."""
    cli.executor_option("cluster", HELP, open_executor)
