"""Schemathesis against the server's own OpenAPI document: generated requests,
valid and invalid, never get a server error, and responses match the document.

The generated match ids and tokens are swapped for real ones in most cases, so
the fuzzing reaches past the 404/403 checks into the action and replay handling.
"""

from __future__ import annotations

import itertools
import tempfile
import warnings
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from gameweave_core import Registry
from gameweave_http.app import create_app


def _registry() -> Registry:
    from gameweave_sealedbid import plugin  # on sys.path through tests/conftest.py

    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    return reg


APP = create_app(Path(tempfile.mkdtemp(prefix="gameweave-schema-")) / "m.sqlite3", _registry())
schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP)

_real: dict[str, Any] = {}
_turn = itertools.count()


def real_match() -> dict[str, Any]:
    """A match (one human seat, one bot) the generated cases may aim at."""
    if not _real:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient

            with TestClient(APP) as c:
                created = c.post(
                    "/api/matches", json={"title": "sealedbid", "players": 2, "bots": [2]}
                ).json()
        _real.update(id=created["id"], token=created["seats"][0]["token"])
    return _real


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_generated_requests_get_no_server_error(case: Any) -> None:
    turn = next(_turn)
    # An event stream of a real match never ends: only fake ids go there.
    aimable = case.path_parameters and "match_id" in case.path_parameters
    if aimable and turn % 4 and not case.path.endswith("/events"):
        real = real_match()
        case.path_parameters["match_id"] = real["id"]
        if turn % 2 and case.headers is not None and "X-Seat-Token" in case.headers:
            case.headers["X-Seat-Token"] = real["token"]
            if isinstance(case.body, dict) and "version" in case.body:
                # Up to date, so the generated action itself is what gets judged.
                live = APP.state.hub.get(real["id"])
                case.body["version"] = live.match.step
    response = case.call_and_validate(
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ]
    )
    assert response.status_code < 500
