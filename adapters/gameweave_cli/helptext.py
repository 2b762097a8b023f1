"""The command line's ``--help`` in the plain, classic form, at any terminal width.

Typer's own help draws boxed tables that crop long option names at 80 columns
(``--forwarded-allow-i…``), shows every flag's type (``--dev <bool>``) and wraps
required arguments in braces (``{title}``). Help here is click's plain layout: an
option too long for its column gets a line of its own, flags show both spellings
(``--dev / --no-dev``), a value is named by its kind (``--port INTEGER``) and an
argument by its name (``gameweave rules [OPTIONS] TITLE [TOPIC]``).

:func:`plain_help` applies that to a command tree once typer has built it; the
classes below change only how a parameter is *shown*, never how it is parsed.
"""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

from typer.core import TyperArgument, TyperOption

#: How a value is named in help, by the Python type typer read it as.
KINDS: dict[Any, str] = {int: "INTEGER", float: "NUMBER", str: "TEXT", Path: "PATH"}


class _ShownArgument(TyperArgument):
    """An argument shown by its name in capitals: ``TITLE``, ``[TOPIC]``."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        return name if self.required else f"[{name}]"

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


class _ShownOption(TyperOption):
    """An option whose value is named by its metavar (or its kind); a flag by itself."""

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None
        return self.metavar


def _kind(param: TyperOption) -> str:
    annotation: Any = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if typing.get_origin(annotation) is list:
        annotation = typing.get_args(annotation)[0]
    return KINDS.get(annotation, "VALUE")


def plain_help(command: Any) -> Any:
    """Show ``command`` (typer's click command) and every command under it in
    click's plain help layout. (Typer carries its own copy of click, so the tree is
    walked by its attributes, not by click's classes.)"""
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.metavar = param.metavar or (param.name or "value").upper()
            param.__class__ = _ShownArgument  # how it is shown; parsing is the parent's
        elif isinstance(param, TyperOption):
            if not (param.is_flag or param.count) and param.metavar is None:
                param.metavar = _kind(param)
            param.__class__ = _ShownOption
    for sub in getattr(command, "commands", {}).values():
        plain_help(sub)
    return command
