"""The HTTP client example on the HTTP page plays a seat as the page says."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from gameweave_core import Registry
from gameweave_http.app import create_app

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "reference" / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import http_client  # noqa: E402  (the example script, put on the path above)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_the_script_plays_seat_one_with_httpx(
    tmp_path: Path, sealed_registry: Registry, fresh_seeds: None
) -> None:
    # The script lets the server choose the seed; fresh_seeds makes that choice the
    # same on every run.
    app = create_app(tmp_path / "matches.sqlite3", sealed_registry, dev=True)
    with TestClient(app) as client:  # an httpx.Client, as the script expects
        after = http_client.play_first_choice(client)
    assert after["seat"] == 1 and after["title"] == "sealedbid"
    # The bot in seat 2 had sealed its bid first; seat 1's bid of 0 sold the lot.
    assert after["history"][0] == "Seat 2 seals a bid"
    assert after["history"][1].startswith("You bid 0 on the ")
    assert after["history"][2].startswith("Bids revealed: seat 1 0, seat 2 ")
    assert after["version"] == 3  # seat 2 bid, seat 1 bid, and seat 2 on the next lot
