"""The core's API reference as one Markdown file kept in the repository.

``docs/reference/api.md`` is written from the code's signatures and docstrings, so
that the reference reads anywhere Markdown does (an editor, a code host), not only
in the built site. Run this after changing a public signature or docstring::

    .venv/bin/python docs/_ext/apiref.py

``tests/docs/test_api_reference.py`` renders it afresh and fails, naming this
command, when the file in the repository differs.
"""

from __future__ import annotations

import enum
import functools
import importlib
import inspect
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sphinx.pycode import ModuleAnalyzer

DOCS = Path(__file__).resolve().parents[1]
#: Where the file goes.
TARGET = DOCS / "reference" / "api.md"
#: The command that writes it, for the test's message.
COMMAND = ".venv/bin/python docs/_ext/apiref.py"

#: The modules, in the order a title's author meets them.
MODULES = (
    "gameweave_core.title",
    "gameweave_core.protocols",
    "gameweave_core.actions",
    "gameweave_core.events",
    "gameweave_core.outcome",
    "gameweave_core.match",
    "gameweave_core.space",
    "gameweave_core.observation",
    "gameweave_core.facts",
    "gameweave_core.worlds",
    "gameweave_core.rng",
    "gameweave_core.bots",
    "gameweave_core.runner",
    "gameweave_core.reactions",
    "gameweave_core.chain",
    "gameweave_core.registry",
    "gameweave_core.hooks",
    "gameweave_core.log",
    "gameweave_core.errors",
    "gameweave_core.ismcts",
    "gameweave_core.testing",
)

HEADER = """\
# The API in one page

This page is generated from the code of `gameweave_core` (its signatures and
docstrings) and kept in the repository, so that it reads in an editor or on a code
host as well as in the built site. It is regenerated with

```sh
{command}
```

and `make test` fails when it is out of date. The other reference pages explain the
same API with examples.

"""

# Sphinx roles (:class:`~a.B`, :meth:`text <a.b>`) become plain code spans.
_ROLE_WITH_TEXT = re.compile(r":[a-z]+:`([^`<]+?)\s*<[^`>]+>`")
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_DOUBLE = re.compile(r"``(.+?)``", re.S)
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _short(target: str) -> str:
    return target.rsplit(".", 1)[-1] if target.startswith("gameweave_core.") else target


def prose(doc: str | None) -> str:
    """A docstring as Markdown: roles and double backticks as code spans, and a
    paragraph ending in ``::`` followed by an indented block as a code block."""
    if not doc:
        return ""
    text = inspect.cleandoc(doc)
    text = _ROLE_WITH_TEXT.sub(lambda m: f"`{m.group(1)}`", text)
    text = _ROLE.sub(lambda m: f"`{_short(m.group(1))}`", text)
    text = _DOUBLE.sub(lambda m: f"`{m.group(1)}`", text)
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::"):
            out.append(line.rstrip()[:-1].rstrip() or "For example:")
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i])
                i += 1
            out += ["", "```", textwrap.dedent("\n".join(block)).strip("\n"), "```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out).strip() + "\n"


def _annotation(value: Any) -> str:
    return value if isinstance(value, str) else inspect.formatannotation(value)


def signature(obj: Any, drop_self: bool = False) -> str:
    """``(a: int, b: str = 'x') -> bool`` as written in the source (no quotes round
    postponed annotations); empty when Python cannot tell."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    parts = []
    params = list(sig.parameters.values())
    if drop_self and params and params[0].name in ("self", "cls"):
        params = params[1:]
    star_done = False
    for p in params:
        if p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        stars: dict[Any, str] = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}
        name = stars.get(p.kind, "") + p.name
        if p.kind is p.VAR_POSITIONAL:
            star_done = True
        if p.annotation is not p.empty:
            name += f": {_annotation(p.annotation)}"
        if p.default is not p.empty:
            shown = _ADDRESS.sub("", repr(p.default))
            name += f" = {'...' if shown == 'NOTHING' else shown}"  # attrs: a factory
        parts.append(name)
    ret = "" if sig.return_annotation is sig.empty else f" -> {_annotation(sig.return_annotation)}"
    if inspect.isclass(obj) and ret == " -> None":
        ret = ""  # a class's signature is its __init__'s
    return f"({', '.join(parts)}){ret}"


def _order(analyzer: ModuleAnalyzer) -> dict[str, int]:
    return dict(analyzer.tagorder)


def _public(module: Any, analyzer: ModuleAnalyzer) -> list[str]:
    """The module's public names: its ``__all__``, else what it defines itself
    (classes and functions whose home it is, and constants with a ``#:`` comment)."""
    if hasattr(module, "__all__"):
        return [n for n in module.__all__ if hasattr(module, n)]
    attr_docs = analyzer.find_attr_docs()
    names = []
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        home = getattr(value, "__module__", None)
        defined_here = inspect.isclass(value) or inspect.isfunction(value)
        if (defined_here and home == module.__name__) or ("", name) in attr_docs:
            names.append(name)
    order = _order(analyzer)
    return sorted(names, key=lambda n: order.get(n, len(order)))


def _member_kind(value: Any) -> str | None:
    if isinstance(value, property | functools.cached_property):
        return "property"
    if isinstance(value, staticmethod | classmethod) or inspect.isfunction(value):
        return "method"
    return None


def _class(cls: type, analyzer: ModuleAnalyzer) -> Iterator[str]:
    attr_docs = analyzer.find_attr_docs()
    order = _order(analyzer)
    if issubclass(cls, enum.Enum):
        yield f"### class `{cls.__name__}`\n"
    else:
        yield f"### class `{cls.__name__}{signature(cls, drop_self=True)}`\n"
    bases = [b.__name__ for b in cls.__bases__ if b is not object]
    if bases:
        yield f"Bases: {', '.join(f'`{b}`' for b in bases)}\n"
    yield prose(cls.__doc__)
    members: list[tuple[int, str]] = []
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        kind = _member_kind(value)
        key = order.get(f"{cls.__name__}.{name}", len(order))
        if kind == "property":
            doc = value.__doc__ if isinstance(value, property) else value.func.__doc__
            members.append((key, f"#### `{cls.__name__}.{name}` (property)\n\n{prose(doc)}"))
        elif kind == "method":
            func = value.__func__ if isinstance(value, staticmethod | classmethod) else value
            if not func.__doc__:
                continue
            drop = not isinstance(value, staticmethod)
            head = f"#### `{cls.__name__}.{name}{signature(func, drop_self=drop)}`"
            members.append((key, f"{head}\n\n{prose(func.__doc__)}"))
        elif (cls.__name__, name) in attr_docs:
            doc = "\n".join(attr_docs[(cls.__name__, name)])
            members.append((key, f"#### `{cls.__name__}.{name}`\n\n{prose(doc)}"))
    for (cls_name, name), doc_lines in attr_docs.items():
        if cls_name == cls.__name__ and name not in vars(cls) and not name.startswith("_"):
            # Annotated without a value (metadata a subclass must set).
            key = order.get(f"{cls.__name__}.{name}", len(order))
            text = prose("\n".join(doc_lines))
            members.append((key, f"#### `{cls.__name__}.{name}`\n\n{text}"))
    for _, text in sorted(members, key=lambda m: m[0]):
        yield text


def _homes(module: Any) -> list[ModuleAnalyzer]:
    """The analyzers of the modules a package re-exports from (its submodules, the
    package itself first); a plain module's own only."""
    analyzers = [ModuleAnalyzer.for_module(module.__name__)]
    for sub in sorted(getattr(module, "__path__", [])):
        for path in sorted(Path(sub).glob("*.py")):
            if path.stem != "__init__":
                analyzers.append(ModuleAnalyzer.for_module(f"{module.__name__}.{path.stem}"))
    return analyzers


def render_module(name: str) -> str:
    """One module's section. A package that re-exports its submodules' names in
    ``__all__`` (the testing kit) is documented as one module, each name with the
    comments of the module it is defined in."""
    module = importlib.import_module(name)
    homes = _homes(module)
    analyzer = homes[0]
    by_name = {a.modname: a for a in homes}
    out = [f"## `{name}`\n", prose(module.__doc__)]
    for public in _public(module, analyzer):
        value = getattr(module, public)
        own = getattr(value, "__name__", None) == public  # not an alias like SeatArg = Any
        home = by_name.get(getattr(value, "__module__", ""), analyzer)
        constant = next((a for a in homes if ("", public) in a.find_attr_docs()), None)
        if inspect.isclass(value) and own:
            out.extend(_class(value, home))
        elif inspect.isfunction(value) and own:
            out.append(f"### `{public}{signature(value)}`\n\n{prose(value.__doc__)}")
        elif constant is not None:
            text = chr(10).join(constant.find_attr_docs()[("", public)])
            out.append(f"### `{public}`\n\n{prose(text)}")
    return "\n".join(part.rstrip() + "\n" for part in out if part.strip())


def render() -> str:
    """The whole page."""
    body = "\n".join(render_module(m) for m in MODULES)
    return HEADER.format(command=COMMAND) + body


def main() -> int:
    TARGET.write_text(render())
    print(
        f"wrote {TARGET.relative_to(Path.cwd()) if TARGET.is_relative_to(Path.cwd()) else TARGET}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
