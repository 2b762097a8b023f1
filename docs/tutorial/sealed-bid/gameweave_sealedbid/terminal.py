"""Sealed Bids in a terminal: action labels, typed bids and the table drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import Bid


def describe_action(action: Bid) -> str:
    """The label of a bid in menus and buttons: ``bid 7``."""
    return f"bid {action.coins}"


def parse_action(text: str) -> Bid | None:
    """A bid typed as ``bid 7``, or ``None`` for anything else."""
    words = text.split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
        return Bid(int(words[1]))
    return None


def render_text(view: Mapping[str, Any], seat: int | None, width: int = 80) -> str:
    """The seat's view drawn with rich markup: built from the view, never the state.
    Its lines are short (under 50 columns), so every ``width`` of a terminal fits."""
    lines = [f"[bold]Lot for sale: {view['lot']} points[/bold] ({view['lots_left']} left)"]
    for s, (coins, points) in enumerate(zip(view["coins"], view["points"], strict=True), 1):
        mark = "  (bid sealed)" if s in view["sealed"] else ""
        you = " (you)" if s == seat else ""
        coins_said = f"{coins} coin" + ("" if coins == 1 else "s")
        points_said = f"{points} point" + ("" if points == 1 else "s")
        lines.append(f"Bidder {s}{you}: {coins_said}, {points_said}{mark}")
    if "revealed" in view:
        shown = ", ".join(f"bidder {s} {b}" for s, b in view["revealed"].items())
        lines.append(f"Last lot's bids: {shown}")
    if "my_bid" in view:
        lines.append(f"Your sealed bid: {view['my_bid']}")
    return "\n".join(lines)
