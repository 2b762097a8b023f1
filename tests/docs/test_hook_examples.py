"""The plugin examples on the hook page work as the page says."""

from __future__ import annotations

import sys
from pathlib import Path

from gameweave_core import Match, MatchLog, Registry, play_out

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "reference" / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import extra_bots  # noqa: E402  (the example module, put on the path above)


def test_a_bot_plugin_adds_a_bot_to_another_distributions_title() -> None:
    from gameweave_sealedbid import plugin

    registry = Registry()
    registry.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    registry.add_plugin(extra_bots, "cautious-bids", "cautious-bids", "0.1")
    title = registry.title("sealedbid")
    assert set(registry.bots(title)) == {"random", "ismcts", "thrifty", "cautious"}

    match = play_out(Match(title, 3, seed=11), {s: "cautious" for s in (1, 2, 3)}, registry)
    assert match.is_over
    coins = [20, 20, 20]
    for entry in MatchLog.from_toml(match.to_log().to_toml()).actions:
        bid = entry.action["coins"]
        assert bid <= coins[entry.seat - 1] // 5  # the bot's one rule
        if entry.index % 3 == 0:  # the lot is settled: recompute who paid
            coins = list(match.at(entry.index).view(None)["coins"])
