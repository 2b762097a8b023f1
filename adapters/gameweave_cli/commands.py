"""Commands that plugins bring: the ``register_commands`` hook's side in the CLI.

The command line knows no adapter by name. When it starts, it calls the
``register_commands`` hook (:mod:`gameweave_core.hooks`) of the plugins named by the
``gameweave.commands`` entry points with a :class:`CommandLine`: the HTTP adapter adds
``serve`` there, the Dask module ``simulate --cluster``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Annotated, Any

import attrs
import pluggy
import typer

from gameweave_core import hooks
from gameweave_core.registry import TitleEntry

#: ``opener(value, entry)``: the executor to play ``entry``'s games on and how many games
#: it plays at once (``simulate`` keeps twice that many in flight), or a
#: :class:`~gameweave_core.errors.GameweaveError` saying in one line why it cannot.
ExecutorOpener = Callable[[str, TitleEntry], tuple[Executor, int]]


@attrs.frozen
class ExecutorOption:
    """``simulate --NAME VALUE``: play the games on ``opener(VALUE, entry)``."""

    name: str
    help: str
    opener: ExecutorOpener


@attrs.frozen
class ChosenExecutor:
    """The executor option a ``simulate`` command line gave, with its value."""

    option: ExecutorOption
    value: str

    @property
    def flag(self) -> str:
        """The option as typed: ``--cluster``."""
        return f"--{self.option.name}"


@attrs.define
class CommandLine:
    """What ``register_commands`` receives: the ``gameweave`` app to add commands to."""

    app: typer.Typer
    executors: list[ExecutorOption] = attrs.Factory(list)

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[Any], Any]:
        """Decorate a function as the command ``name`` (as ``typer.Typer.command``)."""
        return self.app.command(name, **kwargs)

    def executor_option(self, name: str, help: str, opener: ExecutorOpener) -> None:
        """Add ``simulate --NAME VALUE``, playing the games on ``opener(VALUE, entry)``."""
        if any(e.name == name for e in self.executors):
            raise ValueError(f"two plugins add the simulate option --{name}")
        self.executors.append(ExecutorOption(name, help, opener))


def with_executor_options(
    command: Callable[..., None], options: list[ExecutorOption]
) -> Callable[..., None]:
    """``command``, whose parameter ``executor`` takes a :class:`ChosenExecutor` or
    ``None``, with an option of its own for each of ``options`` in its place.

    Typer reads a command's options from its signature, so the signature is built
    here: the command's own parameters, then one ``--NAME VALUE`` per option.
    """
    signature = inspect.signature(command, eval_str=True)
    own = [p for p in signature.parameters.values() if p.name != "executor"]
    by_param = {o.name.replace("-", "_"): o for o in options}
    added = [
        inspect.Parameter(
            param,
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[str | None, typer.Option(f"--{o.name}", help=o.help)],
        )
        for param, o in by_param.items()
    ]

    def run(**kwargs: Any) -> None:
        chosen = [
            ChosenExecutor(o, value)
            for param, o in by_param.items()
            if (value := kwargs.pop(param, None)) is not None
        ]
        if len(chosen) > 1:
            flags = " and ".join(c.flag for c in chosen)
            raise typer.BadParameter(f"{flags} exclude each other")
        command(**kwargs, executor=chosen[0] if chosen else None)

    functools.update_wrapper(run, command)
    del run.__wrapped__  # type: ignore[attr-defined]  # typer must read the new signature
    run.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in [*own, *added]} | {"return": None}
    return run


def add_plugin_commands(app: typer.Typer, plugins: list[object] | None = None) -> CommandLine:
    """Call every command plugin's ``register_commands`` with ``app``.

    ``plugins`` replaces the installed ones (the ``gameweave.commands`` entry points).
    """
    pm = pluggy.PluginManager(hooks.PROJECT)
    pm.add_hookspecs(hooks)
    if plugins is None:
        pm.load_setuptools_entrypoints(hooks.COMMANDS_GROUP)
    else:
        for plugin in plugins:
            pm.register(plugin)
    cli = CommandLine(app)
    pm.hook.register_commands(cli=cli)
    return cli
