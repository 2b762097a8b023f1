"""``gameweave serve`` hands over to the HTTP adapter's ``serve``."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gameweave_cli.app import app


def test_serve_calls_the_http_adapter(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    fake = types.ModuleType("gameweave_http.server")
    fake.serve = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gameweave_http.server", fake)
    # Whether these ports are free on this machine is not what is tested here.
    monkeypatch.setattr("gameweave_http.commands.listen_refusal", lambda host, port: None)
    result = runner.invoke(app, ["serve"])
    assert result.exit_code == 0, result.output
    assert calls == [{"host": "127.0.0.1", "port": 8000}]  # the server's own default db
    args = ["serve", "--host", "0.0.0.0", "--port", "9001", "--db", "m.sqlite"]
    assert runner.invoke(app, args).exit_code == 0
    assert calls[1] == {"host": "0.0.0.0", "port": 9001, "db": Path("m.sqlite")}
    assert runner.invoke(app, ["serve", "--access-log", "--fsync"]).exit_code == 0
    assert calls[2] == {"host": "127.0.0.1", "port": 8000, "access_log": True, "fsync": True}
    assert runner.invoke(app, ["serve", "--no-access-log"]).exit_code == 0
    assert calls[3] == {"host": "127.0.0.1", "port": 8000, "access_log": False}


def test_serve_exists_exactly_where_the_http_extra_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The HTTP adapter brings ``serve`` through ``register_commands``: with the
    extra's packages it is a command, without any one of them there is none."""
    import importlib.util

    import typer

    from gameweave_cli.commands import add_plugin_commands
    from gameweave_http import commands

    def names(app: typer.Typer) -> list[str | None]:
        return [c.name for c in app.registered_commands]

    with_extra = typer.Typer()
    add_plugin_commands(with_extra, plugins=[commands])
    assert names(with_extra) == ["serve"]
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "uvicorn" else real(name, *a),
    )
    assert commands.missing_packages() == ["uvicorn"]
    without = typer.Typer()
    add_plugin_commands(without, plugins=[commands])
    assert names(without) == []


def test_serve_names_a_bad_option_before_a_busy_port(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --port P --limit nonsense=3`` on a busy port says what is wrong with the
    limit (the port is looked at only once the options are good)."""
    import socket

    calls = []
    fake = types.ModuleType("gameweave_http.server")
    fake.serve = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gameweave_http.server", fake)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = runner.invoke(app, ["serve", "--port", port, "--limit", "nonsense=3"])
        assert result.exit_code == 2
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("error: --limit:") and "nonsense" in line, line
        bad_url = ["serve", "--port", port, "--public-url", "games.example.org"]
        result = runner.invoke(app, bad_url)
        assert result.exit_code == 2
        assert result.stderr.startswith("error: --public-url must start with http://")
        # Good options on the busy port: now the port is what is wrong.
        result = runner.invoke(app, ["serve", "--port", port, "--limit", "streams=5"])
        assert result.exit_code == 1
        assert f"port {port} is in use" in result.stderr
    assert calls == []


def test_the_real_server_takes_the_arguments_serve_passes() -> None:
    import inspect

    import pytest

    server = pytest.importorskip("gameweave_http.server")
    params = inspect.signature(server.serve).parameters
    assert {"host", "port", "db", "access_log", "fsync"} <= set(params)
    assert {"public_url", "limits", "allowed_hosts", "forwarded_allow_ips"} <= set(params)
    assert params["db"].default is not inspect.Parameter.empty  # omitted without --db


def test_serve_on_a_port_in_use_is_one_line_before_anything_starts(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    calls = []
    fake = types.ModuleType("gameweave_http.server")
    fake.serve = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gameweave_http.server", fake)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert result.stdout == ""  # no "serving on" line
    assert result.stderr.strip().splitlines() == [
        f"error: port {port} is in use on 127.0.0.1; choose another with --port"
    ]
    assert calls == []
    assert runner.invoke(app, ["serve", "--port", "70000"]).exit_code == 2
    # Once the port is free again, serve goes ahead.
    assert runner.invoke(app, ["serve", "--port", str(port)]).exit_code == 0
    assert calls == [{"host": "127.0.0.1", "port": port}]


def test_serve_passes_allowed_hosts_and_trusted_proxies(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30, points 3 and 4: the names the server answers to and the proxies it
    trusts reach the server; without them, none is trusted (the server's default)."""
    calls = []
    fake = types.ModuleType("gameweave_http.server")
    fake.serve = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gameweave_http.server", fake)
    monkeypatch.setattr("gameweave_http.commands.listen_refusal", lambda host, port: None)
    args = ["serve", "--allowed-host", "games.local", "--allowed-host", "[::1]"]
    args += ["--forwarded-allow-ips", "127.0.0.1, 10.0.0.0/8"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert calls[0]["allowed_hosts"] == ["games.local", "[::1]"]
    assert calls[0]["forwarded_allow_ips"] == ["127.0.0.1", "10.0.0.0/8"]
    assert runner.invoke(app, ["serve", "--forwarded-allow-ips", "*"]).exit_code == 0
    assert calls[1]["forwarded_allow_ips"] == ["*"]
    for bad in (
        ["--allowed-host", "http://games.local/"],
        ["--allowed-host", "a b"],
        ["--forwarded-allow-ips", "proxy.example"],
        ["--forwarded-allow-ips", ","],
    ):
        result = runner.invoke(app, ["serve", *bad])
        assert result.exit_code == 2, (bad, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {bad[0]}"), lines
    assert len(calls) == 2  # nothing started on bad input
