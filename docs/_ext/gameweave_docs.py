"""Pages generated from the code at build time, so they cannot drift from it.

On ``builder-inited`` this extension writes Markdown (and one TOML log) into
``docs/_generated/``; hand-written pages pull them in with MyST's ``{include}``
and ``{literalinclude}``:

- ``cli.md``: every command of the typer app, read through ``typer.main.get_command``;
- ``http.md``: every route of the HTTP API, from ``gameweave_http.routes.schema()``;
- ``sealedbid-log.toml`` and ``sealedbid-*.json``: a real match of the tutorial
  title played by its bots, its log and what two seats receive;
- ``benchmarks.md``: ``benchmarks/results.md`` when the benchmarks have written it,
  otherwise how to produce it.

It also adds the ``gameweave-svg`` directive, which calls a picture function of a
title (``module:function``) and shows the SVG it returns.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.directives.other import TocTree
from sphinx.util import docname_join, logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.matching import patfilter

logger = logging.getLogger(__name__)

#: Where the generated files go, relative to the documentation's source folder.
GENERATED = "_generated"
#: The match shown on the log-format page: fixed, so the page is the same every build.
EXAMPLE_SEED = 2026
EXAMPLE_PLAYERS = 3

_PUNCTUATION = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~^&$%@=:;\"'])")


def escape(text: str) -> str:
    """``text`` safe as plain Markdown: every ASCII punctuation mark backslashed."""
    return _PUNCTUATION.sub(r"\\\1", text)


def code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds."""
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


#: Option names in help text (``--seed``, ``-p``), shown as code.
_OPTION = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)")


def escape_prose(text: str) -> str:
    """Like :func:`escape`, but option names such as ``--seed`` become code spans."""
    parts = _OPTION.split(text)
    return "".join(code(p) if i % 2 else escape(p) for i, p in enumerate(parts))


def paragraphs(text: str | None) -> str:
    """Help text as escaped Markdown paragraphs (click's ``\\f`` cut honoured)."""
    if not text:
        return ""
    text = inspect.cleandoc(text.split("\f")[0])
    blocks = [" ".join(b.split()) for b in re.split(r"\n\s*\n", text) if b.strip()]
    return "\n\n".join(escape_prose(b) for b in blocks)


# -- the command line ---------------------------------------------------------------


# Typer builds click-style command objects (recent typer ships its own copy of
# click), so these helpers go by the click interface rather than click's classes.


def _context(command: Any, path: list[str]) -> Any:
    return command.make_context(" ".join(path), [], resilient_parsing=True)


def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands") and hasattr(command, "get_command")


def _walk(command: Any, path: list[str]) -> Iterable[tuple[list[str], Any]]:
    yield path, command
    if _is_group(command):
        ctx = _context(command, path)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not getattr(sub, "hidden", False):
                yield from _walk(sub, [*path, name])


def _param_line(param: Any, ctx: Any) -> str:
    """One bullet: the parameter as ``--help`` declares it, and its help text."""
    record = param.get_help_record(ctx)
    if record is None:  # plain click arguments carry no help record
        record = (param.human_readable_name, getattr(param, "help", None) or "")
    declared, help_text = record
    kind = "argument" if param.param_type_name == "argument" else "option"
    if param.required and "required" not in help_text:
        help_text = f"{help_text} [required]".strip()
    default = param.default
    if (
        not param.required
        and getattr(param, "show_default", True)
        and "default" not in help_text
        and default is not None
        and not callable(default)
        and not getattr(param, "is_flag", False)
        and default != []
        and default != ()
    ):
        shown = " ".join(map(str, default)) if isinstance(default, (list, tuple)) else default
        help_text = f"{help_text} [default: {shown}]".strip()
    line = f"- {code(declared)} ({kind})"
    text = paragraphs(help_text).replace("\n\n", " ")
    return f"{line}: {text}" if text else line


def render_cli(app: Any, prog: str = "gameweave") -> str:
    """Markdown for every command of a typer app (or a click command), in the
    order the app lists them, each with its help, usage, arguments and options,
    as the app's own ``--help`` states them."""
    try:
        import typer.main

        root = typer.main.get_command(app) if isinstance(app, typer.Typer) else app
    except ImportError:
        root = app
    out: list[str] = []
    for path, command in _walk(root, [prog]):
        ctx = _context(command, path)
        out.append(f"## {code(' '.join(path))}\n")
        help_text = paragraphs(command.help or command.short_help)
        if help_text:
            out.append(help_text + "\n")
        usage = " ".join(command.collect_usage_pieces(ctx))
        out.append("```text\n" + f"{' '.join(path)} {usage}".rstrip() + "\n```\n")
        params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
        if params:
            out.extend(_param_line(p, ctx) for p in params)
            out.append("")
        if len(path) == 1 and _is_group(command):
            names = [
                n
                for n in command.list_commands(ctx)
                if not getattr(command.get_command(ctx, n), "hidden", False)
            ]
            if names:
                out.append("Commands: " + ", ".join(code(n) for n in names) + ".\n")
    return "\n".join(out).rstrip() + "\n"


# -- the HTTP API ---------------------------------------------------------------------

_METHODS = ("get", "post", "put", "patch", "delete")


def _schema_type(schema: Mapping[str, Any] | None) -> str:
    if not schema:
        return "any"
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_schema_type(schema.get('items'))}"
    if "enum" in schema:
        return f"{kind}, one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    return str(kind)


def _schema_block(schema: Mapping[str, Any]) -> str:
    """A schema: a link to its entry under Schemas when it is a reference."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[-1]
        return f"Schema: [{code(name)}](#{_anchor(name)}).\n"
    return _json_block(schema)


def _anchor(name: str) -> str:
    # MyST's heading slug for "### `Name`" (myst_heading_anchors in conf.py).
    return re.sub(r"[^a-z0-9_-]", "", name.lower().replace(" ", "-"))


def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, sort_keys=False) + "\n```\n"


def render_http(schema: Mapping[str, Any]) -> str:
    """Markdown for every operation of an OpenAPI document, in path order."""
    out: list[str] = []
    info = schema.get("info", {})
    if info.get("description"):
        out.append(paragraphs(info["description"]) + "\n")
    paths: Mapping[str, Any] = schema.get("paths", {})
    for path, item in paths.items():
        shared = item.get("parameters", [])
        for method in _METHODS:
            op = item.get(method)
            if op is None:
                continue
            out.append(f"## {code(method.upper() + ' ' + path)}\n")
            if op.get("summary"):
                out.append(f"**{escape(op['summary'])}**\n")
            if op.get("description"):
                out.append(paragraphs(op["description"]) + "\n")
            params = [*shared, *op.get("parameters", [])]
            if params:
                out.append("Parameters:\n")
                for p in params:
                    bits = [escape(p.get("in", "?")), escape(_schema_type(p.get("schema")))]
                    if p.get("required"):
                        bits.append("required")
                    line = f"- {code(p.get('name', '?'))} ({', '.join(bits)})"
                    desc = paragraphs(p.get("description")).replace("\n\n", " ")
                    out.append(f"{line}: {desc}" if desc else line)
                out.append("")
            body = op.get("requestBody")
            if body:
                out.append("Request body" + (" (required)" if body.get("required") else "") + ":\n")
                if body.get("description"):
                    out.append(paragraphs(body["description"]) + "\n")
                for media, content in body.get("content", {}).items():
                    out.append(f"{code(media)}\n")
                    if content.get("schema"):
                        out.append(_schema_block(content["schema"]))
            responses = op.get("responses", {})
            if responses:
                out.append("Responses:\n")
                for status, resp in responses.items():
                    desc = paragraphs(resp.get("description")).replace("\n\n", " ")
                    content = resp.get("content", {})
                    media = ", ".join(code(m) for m in content)
                    line = f"- {code(str(status))}"
                    if media:
                        line += f" ({media})"
                    refs = [
                        c["schema"]["$ref"].rsplit("/", 1)[-1]
                        for c in content.values()
                        if isinstance(c.get("schema"), Mapping) and "$ref" in c["schema"]
                    ]
                    if refs:
                        names = ", ".join(f"[{code(n)}](#{_anchor(n)})" for n in refs)
                        desc = f"{desc} ({names})" if desc else names
                    out.append(f"{line}: {desc}" if desc else line)
                out.append("")
    components = schema.get("components", {}).get("schemas", {})
    if components:
        out.append("## Schemas\n")
        for name, comp in components.items():
            out.append(f"### {code(name)}\n")
            if comp.get("description"):
                out.append(paragraphs(comp["description"]) + "\n")
            out.append(_json_block(comp))
    return "\n".join(out).rstrip() + "\n"


# -- the log example ------------------------------------------------------------------


def example_match() -> Any:
    """A whole match of the tutorial title, its seats played by its own bots."""
    from gameweave_core import Match, Registry, play_out
    from gameweave_sealedbid import SealedBid

    title = SealedBid()
    registry = Registry()
    registry.add_title(title, "gameweave-sealedbid", "1.0.0")
    match = Match(
        title,
        EXAMPLE_PLAYERS,
        EXAMPLE_SEED,
        distribution="gameweave-sealedbid",
        distribution_version="1.0.0",
    )
    return play_out(match, registry=registry)


def pretty_json(value: Any, width: int = 88, indent: int = 0) -> str:
    """JSON indented like ``json.dumps(indent=2)``, but with any list or object
    that fits in ``width`` columns kept on one line (legal-action lists get long)."""
    flat = json.dumps(value)
    if indent + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k)}: {pretty_json(v, width, indent + 2)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty_json(v, width, indent + 2) for v in value]
    if all(not isinstance(v, (dict, list)) for v in value):
        # A long list of scalars: fill lines rather than one item per line.
        lines, line = [], ""
        for v in value:
            piece = json.dumps(v)
            if line and len(pad) + len(line) + len(piece) + 2 > width:
                lines.append(pad + line.rstrip())
                line = ""
            line += piece + ", "
        lines.append(pad + line.rstrip(", "))
        return "[\n" + ",\n".join(ln.rstrip(",") for ln in lines) + "\n" + " " * indent + "]"
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def example_files() -> dict[str, str]:
    """The files the log-format and architecture pages show, by file name."""
    match = example_match()
    # Seat 1 has sealed a bid on the first lot; seat 2 has not bid yet.
    first = match.at(1)
    as_json = {
        f"sealedbid-seat{seat}.json": pretty_json(
            {"seat": seat, "view": first.view(seat), "history": first.history(seat)}
        )
        + "\n"
        for seat in (1, 2)
    }
    return {"sealedbid-log.toml": match.to_log().to_toml(), **as_json}


# -- the titles -----------------------------------------------------------------------


def _cell_code(text: str) -> str:
    # Inside a table a "|" ends the cell even in a code span, unless backslashed.
    return code(text).replace("|", "\\|")


def titles_table(registry: Any, distribution: str | Sequence[str]) -> str:
    """A Markdown table of the titles ``distribution`` registers (one name, or a
    list of them): name, players, bots (the default first) and the title's own
    one-line summary."""
    wanted = {distribution} if isinstance(distribution, str) else set(distribution)
    rows = [
        "| Title | Name | Players | Bots | What it is |",
        "| --- | --- | --- | --- | --- |",
    ]
    for entry in registry.entries():
        if entry.distribution not in wanted:
            continue
        title = entry.title
        bots = sorted(registry.bots(title), key=lambda b: (b != title.default_bot, b))
        cells = [
            escape(title.display_name),  # escape() already backslashes "|"
            _cell_code(title.name),
            f"{title.min_players}–{title.max_players}",
            ", ".join(_cell_code(b) for b in bots),
            escape(title.summary),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


# -- benchmarks -----------------------------------------------------------------------


def benchmarks_page(results: Path) -> str:
    """The benchmarks page: ``results`` (``benchmarks/results.md``, written by
    ``make bench``) when it exists, otherwise how to produce it. No numbers are
    ever made up here."""
    if results.is_file():
        text = results.read_text(encoding="utf-8").strip() + "\n"
        if not text.startswith("# "):
            text = "# Benchmarks\n\n" + text
        return text
    return (
        "# Benchmarks\n\n"
        "No benchmark results are recorded in this checkout yet. Run\n\n"
        "```sh\nmake bench\n```\n\n"
        "which writes `benchmarks/results.md`; the next documentation build shows it\n"
        "here, with the commands that reproduce each figure.\n"
    )


# -- wiring ---------------------------------------------------------------------------


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless ``path`` holds it already (keeps rebuilds incremental)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def load(spec: str) -> Any:
    """The object named by ``"module:attribute"``."""
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def generate(srcdir: Path, config: Any) -> None:
    """Write every generated page into ``srcdir/_generated``."""
    out = srcdir / GENERATED
    files: dict[str, str] = dict(example_files())
    files["benchmarks.md"] = benchmarks_page(srcdir.parent / "benchmarks" / "results.md")
    if config.gameweave_titles_from:
        from gameweave_core import default_registry

        files["titles.md"] = titles_table(default_registry(), config.gameweave_titles_from)
    if config.gameweave_cli_app:
        files["cli.md"] = render_cli(load(config.gameweave_cli_app))
    if config.gameweave_openapi:
        files["http.md"] = render_http(load(config.gameweave_openapi)())
    for name, text in files.items():
        write_if_changed(out / name, text)


def _on_builder_inited(app: Any) -> None:
    generate(Path(app.srcdir), app.config)


class SvgDirective(SphinxDirective):
    """``gameweave-svg module:function`` shows the SVG the function returns.

    Options: ``:alt:`` (required: what the picture shows), ``:kwargs:`` (a JSON
    object of keyword arguments for the function), ``:width:``.
    """

    required_arguments = 1
    option_spec = {  # noqa: RUF012 (docutils reads this class attribute)
        "alt": directives.unchanged_required,
        "kwargs": directives.unchanged,
        "width": directives.length_or_percentage_or_unitless,
    }

    def run(self) -> list[nodes.Node]:
        spec = self.arguments[0]
        if "alt" not in self.options:
            raise self.error(f"gameweave-svg {spec}: give :alt:, saying what the picture shows")
        try:
            kwargs = json.loads(self.options.get("kwargs", "{}"))
        except json.JSONDecodeError as exc:
            raise self.error(f"gameweave-svg {spec}: :kwargs: is not JSON ({exc.msg})") from None
        svg = load(spec)(**kwargs)
        if not isinstance(svg, str) or "<svg" not in svg:
            raise self.error(f"gameweave-svg {spec} returned {type(svg).__name__}, not SVG text")
        key = spec + json.dumps(kwargs, sort_keys=True)
        slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")
        write_if_changed(Path(self.env.srcdir) / GENERATED / "pictures" / f"{slug}.svg", svg)
        module = importlib.import_module(spec.partition(":")[0])
        if module.__file__:
            self.env.note_dependency(module.__file__)
        image = nodes.image(uri=f"/{GENERATED}/pictures/{slug}.svg", alt=self.options["alt"])
        if "width" in self.options:
            image["width"] = self.options["width"]
        return [image]


class OptionalGlobTocTree(TocTree):
    """``gameweave-toctree``: a ``toctree`` whose glob entries may match nothing.

    Pages other people write (each title's ``docs/titles/NAME/``) are pulled in by
    glob; until they exist Sphinx would warn that a pattern matched nothing, and
    the build runs with warnings as errors. Every other entry, and every glob that
    does match, behaves exactly as in ``toctree``.
    """

    content: StringList

    def run(self) -> list[nodes.Node]:
        if "glob" in self.options:
            found = self.env.found_docs
            kept = []
            for offset, entry in enumerate(self.content):
                pattern = entry.strip()
                is_glob = any(c in pattern for c in "*?[") and "<" not in pattern
                if is_glob and not patfilter(found, docname_join(self.env.docname, pattern)):
                    continue
                kept.append((entry, *self.content.info(offset)))
            self.content = StringList(
                [e for e, *_ in kept], items=[(src, off) for _, src, off in kept]
            )
        return super().run()


def undocumented(package: str, documented: Iterable[str]) -> list[str]:
    """The names in ``package.__all__`` that no documented Python object carries
    (as ``package.NAME`` or ``package.<module>.NAME``)."""
    names = importlib.import_module(package).__all__
    found = {
        full.rsplit(".", 1)[-1]
        for full in documented
        if full == package or full.startswith(package + ".")
    }
    return [n for n in names if n not in found]


def _check_public_api(app: Any, env: Any) -> None:
    package = app.config.gameweave_public_api
    if not package:
        return
    objects = env.get_domain("py").objects
    missing = undocumented(package, objects)
    if missing:
        logger.warning(
            "%s.__all__ names undocumented in the reference: %s", package, ", ".join(missing)
        )


def setup(app: Any) -> dict[str, Any]:
    app.add_config_value("gameweave_cli_app", "", "env")
    app.add_config_value("gameweave_openapi", "", "env")
    # Every name this package exports must be documented somewhere in the reference.
    app.add_config_value("gameweave_public_api", "", "env")
    # The distribution whose titles the titles page tabulates.
    app.add_config_value("gameweave_titles_from", "", "env", types=[str, list])
    app.add_directive("gameweave-svg", SvgDirective)
    app.add_directive("gameweave-toctree", OptionalGlobTocTree)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-check-consistency", _check_public_api)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
