"""Record a title's golden logs again, after a deliberate change of behaviour::

    python -m gameweave_core.testing.record_golden --title NAME --write tests/golden

replays every ``*.toml`` log of the folder (its seed, config and actions) under the
title as installed now and writes the log and its ``.expected.json`` afresh; with
``--record STEM --players N [--seed S] [--bots a,b,...] [--config JSON]`` it records
a new game played by the title's bots instead. Bump the title's ``version`` too.
Re-recording logs whose rules did not change writes the same bytes."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import IllegalAction, LogError, TitleError
from ..registry import default_registry
from .golden import golden_logs, record_again, record_new


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gameweave_core.testing.record_golden``: record golden logs again."""
    parser = argparse.ArgumentParser(
        prog="python -m gameweave_core.testing.record_golden",
        description="Record a title's golden logs again after a deliberate change of "
        "behaviour (bump the title's version too), or record a new one.",
    )
    parser.add_argument("--title", required=True, help="the title's name, as installed")
    parser.add_argument("--write", required=True, type=Path, help="the golden folder")
    parser.add_argument("--record", metavar="STEM", help="record a new game as STEM.toml")
    parser.add_argument("--players", type=int, help="players of the new game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the new game")
    parser.add_argument("--bots", default="", help="bots of the new game, by seat: a,b,...")
    parser.add_argument("--config", default="{}", help="options of the new game, as JSON")
    args = parser.parse_args(argv)
    registry = default_registry()
    if args.title not in registry.names():
        parser.error(f"no installed title named {args.title!r} (installed: {registry.names()})")
    try:
        if args.record:
            if args.players is None:
                parser.error("--record needs --players")
            bots = [b for b in args.bots.split(",") if b]
            config = json.loads(args.config)
            path = record_new(
                args.write, args.record, args.title, args.players, args.seed, bots, config, registry
            )
            print(f"recorded {path}")
            return 0
        logs = golden_logs(args.write)
        if not logs:
            parser.error(f"no golden log (*.toml) in {args.write}: record one with --record")
        for log in logs:
            record_again(log, args.title, registry)
            print(f"recorded {log} again")
    except (LogError, TitleError, IllegalAction, ValueError) as exc:
        print(f"golden: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
