"""Fails unless ``gameweave games --json`` (read from stdin) lists the given titles.

``make tutorial`` pipes the command into this script inside the fresh environment it
built, to prove the tutorial plugin is found through its entry point alone.
"""

from __future__ import annotations

import json
import sys


def main(wanted: list[str]) -> int:
    raw = sys.stdin.read()
    try:
        names = {row["name"] for row in json.loads(raw)}  # a list of {"name": ...}
    except (ValueError, KeyError, TypeError) as exc:
        print(f"cannot read the title list ({exc!r}): {raw[:200]!r}", file=sys.stderr)
        return 1
    missing = sorted(set(wanted) - names)
    if missing:
        listed = ", ".join(sorted(names)) or "none"
        print(f"not listed: {', '.join(missing)}; listed: {listed}", file=sys.stderr)
        return 1
    print(f"listed: {', '.join(sorted(names))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
