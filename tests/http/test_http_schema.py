"""Schemathesis against the server's own OpenAPI document, with all its checks:
generated requests, valid and invalid, never get a server error; valid ones are
accepted (or refused by the title, 422), invalid ones refused; statuses, content
types, headers and bodies of the responses are the document's; undeclared
methods get 405 with the right ``Allow``.

The generated match ids and tokens are swapped for real ones in most cases, so
the fuzzing reaches past the 404/403 checks into the action and replay handling.
"""

from __future__ import annotations

import itertools
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.limits import Limits

# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")


def _registry() -> Registry:
    from gameweave_sealedbid import plugin  # on sys.path through tests/conftest.py

    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    return reg


# Generated requests create many matches: the per-client rate of creation is no
# limit here.
APP = create_app(
    Path(tempfile.mkdtemp(prefix="gameweave-schema-")) / "m.sqlite3",
    _registry(),
    limits=Limits(creates_per_minute=1_000_000),
)
# The seat socket is a WebSocket: a request to it is only ever answered by the switch
# (tests/http/test_http_socket.py), which a server below the app makes; generated
# plain requests could only be refused.
schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP).exclude(
    path="/api/matches/{match_id}/socket"
)
# A request the document allows may still be refused by the title, 422: players
# out of a title's range, a bot for a seat past the players, an option value the
# title refuses, an action the rules forbid at this moment. The document says so
# (422 on those routes); every other check runs with its defaults.
schema.config.checks.positive_data_acceptance.expected_statuses = [
    *schema.config.checks.positive_data_acceptance.expected_statuses,
    "422",
]

_real: dict[str, Any] = {}
_turn = itertools.count()


def real_match() -> dict[str, Any]:
    """A match (one human seat, one bot) the generated cases may aim at."""
    if not _real:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient

            # No `with`: a client's lifespan would stop the app's search pool on leaving,
            # and the generated hint requests after it would meet a stopping server.
            created = (
                TestClient(APP)
                .post("/api/matches", json={"title": "sealedbid", "players": 2, "bots": [2]})
                .json()
            )
        _real.update(
            id=created["id"], token=created["seats"][0]["token"], host=created["host_token"]
        )
    return _real


def current_version(match_id: str) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        return int(TestClient(APP).get(f"/api/matches/{match_id}").json()["version"])


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_generated_requests_pass_every_check(case: Any) -> None:
    turn = next(_turn)
    # An event stream of a real match never ends: only fake ids go there.
    aimable = case.path_parameters and "match_id" in case.path_parameters
    if aimable and turn % 4 and not case.path.endswith("/events"):
        real = real_match()
        case.path_parameters["match_id"] = real["id"]
        if turn % 2 and case.headers is not None and "X-Host-Token" in case.headers:
            case.headers["X-Host-Token"] = real["host"]
            if case.path_parameters.get("seat") not in (1, 2) and turn % 3:
                case.path_parameters["seat"] = 1  # the human seat: a new link is given
        if turn % 2 and case.headers is not None and "X-Seat-Token" in case.headers:
            case.headers["X-Seat-Token"] = real["token"]
            version = case.body.get("version") if isinstance(case.body, dict) else None
            if type(version) is int:  # a wrong type stays wrong: it is what is tested
                # Up to date, so the generated action itself is what gets judged.
                case.body["version"] = current_version(real["id"])
    response = case.call_and_validate()
    assert response.status_code < 500
    if case.path.endswith("/token") and response.status_code == 200:
        _real["token"] = response.json()["token"]  # the seat's old token is no more
