"""The documentation's generators (docs/_ext/gameweave_docs.py) render what the
code says: commands, routes, a real log, and the benchmark table or its absence."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import pytest
import typer
from markdown_it import MarkdownIt

from gameweave_core import MatchLog, Registry
from gameweave_core.match import Match

DOCS = Path(__file__).resolve().parents[2] / "docs"
for folder in (DOCS / "_ext", DOCS / "tutorial" / "sealed-bid"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import gameweave_docs as gd  # noqa: E402  (lives in docs/_ext, put on the path above)


def plain(markdown: str) -> str:
    """The text a reader sees once ``markdown`` is rendered (tags stripped)."""
    html: str = MarkdownIt("commonmark").renderInline(markdown)
    for entity, char in (("&quot;", '"'), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")):
        html = html.replace(entity, char)
    return html


@pytest.mark.parametrize(
    "text",
    ["*not bold* _nor this_", "a `tick`, [a](link) <b>tag</b> | pipe", r"back\slash {role}`x`"],
)
def test_escaped_text_renders_as_written(text: str) -> None:
    assert plain(gd.escape(text)) == text


def test_option_names_in_help_become_code() -> None:
    rendered = plain(gd.escape_prose("use --seed or -p, not well-known *x*"))
    assert rendered == "use <code>--seed</code> or <code>-p</code>, not well-known *x*"


def test_code_spans_hold_backticks() -> None:
    assert plain(gd.code("a`b")) == "<code>a`b</code>"


def small_app() -> typer.Typer:
    app = typer.Typer(help="A *tiny* tool.")

    @app.command()
    def deal(
        title: Annotated[str, typer.Argument(help="Which title.")],
        seed: Annotated[int, typer.Option("--seed", "-s", help="The seed.")] = 7,
        fast: Annotated[bool, typer.Option(help="Skip the animation.")] = False,
    ) -> None:
        """Deal a game.

        Longer text after a blank line.
        """

    @app.command(hidden=True)
    def secret() -> None:
        """Not for the docs."""

    @app.command()
    def show() -> None:
        """Show something."""

    return app


def test_every_visible_command_and_option_is_rendered() -> None:
    page = gd.render_cli(small_app(), prog="tool")
    assert "## `tool deal`" in page and "## `tool show`" in page
    assert "secret" not in page
    assert "Deal a game\\." in page and "Longer text after a blank line\\." in page
    assert "A \\*tiny\\* tool\\." in page  # help text is escaped, not formatted
    assert "`-s, --seed <int>` (option): The seed\\. \\[default\\: 7\\]" in page
    assert "`--fast / --no-fast` (option)" in page
    assert "(argument): Which title\\. \\[required\\]" in page
    assert "Commands: `deal`, `show`." in page


def test_the_real_cli_renders_every_command() -> None:
    from gameweave_cli.app import app

    page = gd.render_cli(app)
    command = typer.main.get_command(app)
    ctx = command.make_context("gameweave", [], resilient_parsing=True)
    names = command.list_commands(ctx)  # type: ignore[attr-defined]
    assert "games" in names
    for name in names:
        assert f"## `gameweave {name}`" in page


SCHEMA = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1", "description": "The whole API."},
    "paths": {
        "/api/things/{thing_id}": {
            "get": {
                "summary": "Read a thing",
                "parameters": [
                    {
                        "name": "thing_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The thing",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}
                        },
                    },
                    "404": {"description": "No such thing"},
                },
            },
            "post": {
                "summary": "Change a thing",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                },
                "responses": {"200": {"description": "Changed"}},
            },
        }
    },
    "components": {"schemas": {"Thing": {"type": "object", "description": "A thing."}}},
}


def test_every_route_and_response_is_rendered() -> None:
    page = gd.render_http(SCHEMA)
    assert "## `GET /api/things/{thing_id}`" in page
    assert "## `POST /api/things/{thing_id}`" in page
    assert "- `thing_id` (path, string, required)" in page
    assert "- `200` (`application/json`): The thing ([`Thing`](#thing))" in page
    assert "- `404`: No such thing" in page
    assert "Request body (required):" in page
    assert "### `Thing`" in page


def test_the_example_log_is_a_real_replayable_match() -> None:
    files = gd.example_files()
    assert files == gd.example_files()  # the same every build
    log = MatchLog.from_toml(files["sealedbid-log.toml"])
    assert (log.title, log.seed, log.players) == ("sealedbid", gd.EXAMPLE_SEED, gd.EXAMPLE_PLAYERS)
    from gameweave_sealedbid import SealedBid

    registry = Registry()
    registry.add_title(SealedBid())
    match = Match.from_log(log, verify=True, registry=registry)
    assert match.is_over


def test_only_the_bidder_sees_the_bid_in_the_example_payloads() -> None:
    files = gd.example_files()
    assert '"my_bid"' in files["sealedbid-seat1.json"]
    assert '"my_bid"' not in files["sealedbid-seat2.json"]


def test_the_benchmarks_page_shows_results_or_how_to_get_them(tmp_path: Path) -> None:
    results = tmp_path / "results.md"
    placeholder = gd.benchmarks_page(results)
    assert "make bench" in placeholder and placeholder.startswith("# Benchmarks")
    assert not any(ch.isdigit() for ch in placeholder)  # no numbers without a run
    results.write_text("| case | ops/s |\n| --- | --- |\n| replay | 1234 |\n")
    shown = gd.benchmarks_page(results)
    assert shown.startswith("# Benchmarks\n") and "| replay | 1234 |" in shown
    results.write_text("# Speed\n\ntext\n")
    assert gd.benchmarks_page(results) == "# Speed\n\ntext\n"


def test_pretty_json_is_json() -> None:
    import json

    value = {"a": list(range(60)), "b": [{"x": 1}] * 30, "c": {"d": "e"}}
    text = gd.pretty_json(value)
    assert json.loads(text) == value
    assert max(len(line) for line in text.splitlines()) <= 88


def test_the_titles_table_lists_one_distributions_titles() -> None:
    from gameweave_sealedbid import SealedBid

    class Piped(SealedBid):
        name = "pipe|name"
        display_name = "A | B"
        summary = "Odd | characters * everywhere"

    registry = Registry()
    registry.add_title(SealedBid(), "gameweave-sealedbid", "1.0.0")
    registry.add_title(Piped(), "gameweave-sealedbid", "1.0.0")
    registry.add_title(type("Other", (SealedBid,), {"name": "other"})(), "elsewhere", "1")
    table = gd.titles_table(registry, "gameweave-sealedbid")
    tokens = MarkdownIt("commonmark").enable("table").parse(table)
    cells = [t.content for t in tokens if t.type == "inline"]
    assert len(cells) == 5 * 3  # a header and two rows: the other distribution is left out
    # Rows come in name order: "pipe|name", then "sealedbid".
    row = dict(zip(cells[:5], cells[10:15], strict=True))
    assert row["Title"] == "Sealed Bids"
    assert row["Bots"].startswith("`thrifty`")  # the default bot comes first
    piped = dict(zip(cells[:5], cells[5:10], strict=True))
    assert plain(piped["Title"]) == "A | B"
    assert plain(piped["What it is"]) == "Odd | characters * everywhere"
    assert piped["Name"] == "`pipe|name`"  # the table let the escaped "|" through
