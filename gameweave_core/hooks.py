"""The plugin hooks. Gameweave has three; a test fails if one is undocumented.

A plugin is a module (or any object) with functions marked ``@hookimpl``, made
known through an entry point in the ``gameweave`` group::

    [project.entry-points.gameweave]
    dice = "gameweave_dice.plugin"

A plugin that adds commands to the ``gameweave`` command line is found through the
:data:`COMMANDS_GROUP` entry points instead, so that the command line starts without
importing every installed title.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

#: The pluggy project name, also the entry-point group.
PROJECT = "gameweave"

#: The plugins that ship inside the ``gameweave`` distribution itself, by plugin
#: name: every :class:`~gameweave_core.registry.Registry` registers them through the
#: same hooks as an installed plugin (unless made with ``bundled=False``), so the
#: registry knows none of them by name. ``ismcts`` offers the search bot for every
#: title that can resample.
BUNDLED_PLUGINS: dict[str, str] = {"ismcts": "gameweave_core.ismcts"}

#: The entry-point group of the plugins that implement :func:`register_commands`.
COMMANDS_GROUP = "gameweave.commands"

hookspec = pluggy.HookspecMarker(PROJECT)
#: Mark a plugin's hook implementations with this.
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_titles(register: Callable[[Any], None]) -> None:
    """Register the titles a plugin supplies.

    Call ``register(title)`` once per :class:`~gameweave_core.title.Title` instance.
    Two plugins registering the same ``title.name`` is an error naming both
    distributions; nothing is renamed silently.
    """


@hookspec
def register_bots(register: Callable[[str, str, Any], None]) -> None:
    """Register bots for titles, including titles of other plugins.

    Call ``register(title_name, bot_name, factory)`` where ``factory(seat, players)``
    returns an object with ``act(observation, rng)``. A title's own bots come from
    :meth:`Title.bots <gameweave_core.title.Title.bots>`; this hook lets a separate
    distribution add more without touching the title.

    A bot that plays any title (a search) is registered once, with
    ``register.every_title(bot_name, make)``: ``make(title)`` returns the factory
    for that title, or ``None`` where the bot cannot play it. The core's own search
    bot, ``ismcts``, comes this way (see :data:`BUNDLED_PLUGINS`). ``register`` is a
    :class:`~gameweave_core.registry.BotRegistrar`.
    """


@hookspec
def register_commands(cli: Any) -> None:
    """Add commands (and ``simulate`` executors) to the ``gameweave`` command line.

    ``cli`` is a :class:`gameweave_cli.commands.CommandLine`. ``cli.command(name)``
    decorates a function as a command, exactly as ``typer.Typer.command`` does;
    ``cli.executor_option(name, help, opener)`` adds ``simulate --NAME VALUE``, which
    plays the games on the executor ``opener(value, entry)`` returns (with how many
    games it plays at once). Adapters and
    extras bring their own commands this way: the HTTP adapter's ``serve`` (only
    where the ``http`` extra's packages are installed) and the Dask module's
    ``simulate --cluster``; the command line itself imports no adapter.

    The CLI calls this hook once, when it starts, on the plugins of the
    :data:`COMMANDS_GROUP` entry points.
    """
