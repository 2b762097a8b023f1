"""Bots for Museum Rush. Each sees only its seat's view.

The heuristic bot goes for the most valuable face-up card it can reach (Loot on an
open tile, a Rare Treasure behind a lock), steals whenever it can, keeps its best
cards when it must give some up, plays Take Down and Lure cards to stay free, and
heads for a Way Out to escape once one more Clock may end the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameweave_core import Rng
from gameweave_core.bots import Bot, BotFactory, Observation

from .actions import (
    BreakIn,
    Choose,
    Control,
    Crack,
    Disable,
    Done,
    Drop,
    End,
    Go,
    Keep,
    Lure,
    Move,
    Pass,
    Pick,
    Place,
    Raid,
    Rob,
    Route,
    Shop,
    Stash,
    StealLoot,
    TakeDown,
    UseKeys,
)
from .cards import ARCHIVE_A, ARCHIVE_B, CARDS, ENTRANCE, HIGH, VALUABLES, distance, parse_coord

#: How much an Item is worth keeping, for drops and The Owl's choice.
ITEM_KEEP = {"takedown": 3.0, "lure": 2.5, "disable": 1.5, "trap": 0.5}


def worth(card: Mapping[str, Any]) -> float:
    return float(card["value"]) if card["kind"] in VALUABLES else ITEM_KEEP.get(card["kind"], 0.0)


def travel(view: Mapping[str, Any], a: int, b: int) -> int:
    """Steps between tiles, with the Archive passage."""
    archives = [parse_coord(t["at"]) for t in view["grid"] if t["room"] in (ARCHIVE_A, ARCHIVE_B)]
    best = distance(a, b)
    if len(archives) == 2:
        x, y = archives
        best = min(best, distance(a, x) + 1 + distance(y, b), distance(a, y) + 1 + distance(x, b))
    return best


class HeuristicBot:
    """Greedy thief: the best reachable card, steal, survive, escape in time."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = list(observation.legal)
        if len(legal) == 1:
            return legal[0]
        view = observation.view
        seat = observation.seat
        me = view["thieves"][seat - 1]
        hand = view["you"]["hand"]
        by_type: dict[type, list[Any]] = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        guards = [parse_coord(g["at"]) for g in view["guards"]]
        here = parse_coord(me["at"]) if me["at"] not in ("outside", "escaped") else -1
        cards = {c["id"]: c for c in hand}
        pending = view.get("pending", {})

        # -- answers to what the rules ask
        if TakeDown in by_type:
            return by_type[TakeDown][0]
        if pending.get("kind") == "caught" and Lure in by_type:
            return max(by_type[Lure], key=lambda a: distance(parse_coord(a.to), here))
        if pending.get("kind") == "camera" and Disable in by_type:
            return by_type[Disable][0]
        if pending.get("kind") == "defend" and Lure in by_type and me["valuables"]:
            return by_type[Lure][0]
        if UseKeys in by_type:
            return UseKeys()
        if Pick in by_type:
            best = max(by_type[Pick], key=lambda a: CARDS[a.card].value)
            return best if CARDS[best.card].kind in VALUABLES or len(hand) < 6 else Done()
        if Keep in by_type:
            return max(by_type[Keep], key=lambda a: worth(cards[a.card]))
        if Drop in by_type:
            return min(by_type[Drop], key=lambda a: worth(cards[a.card]))
        if Choose in by_type:
            return max(by_type[Choose], key=lambda a: ITEM_KEEP.get(CARDS[a.card].kind, 2.0))
        if Go in by_type:
            # Slip away from Cameras first: one would call the Guard straight back (with
            # nothing to lose on the roll, The Snake could go round that loop for ever).
            cameras = {
                parse_coord(t["at"])
                for t in view["grid"]
                if t.get("top", {}).get("kind") == "camera"
            }
            return max(
                by_type[Go],
                key=lambda a: (
                    parse_coord(a.to) not in cameras,
                    min((distance(parse_coord(a.to), g) for g in guards), default=9),
                ),
            )
        if Route in by_type:
            return self.route(view, seat, by_type[Route])
        if Place in by_type:
            return max(
                by_type[Place],
                key=lambda a: (
                    distance(parse_coord(a.to if hasattr(a, "to") else a.at), here)
                    if here >= 0
                    else 0
                ),
            )
        if Pass in by_type and len(by_type) == 1:
            return Pass()
        if BreakIn in by_type:
            return min(
                by_type[BreakIn], key=lambda a: self.target_distance(view, parse_coord(a.at))
            )
        if pending:
            return legal[0] if not isinstance(legal[0], Lure) else legal[-1]
        return self.turn(view, seat, here, by_type, rng)

    def route(self, view: Mapping[str, Any], seat: int, routes: list[Any]) -> Any:
        """As the Guard mover: send the Guard where it finds the most rivals, never me."""
        spots = {
            parse_coord(t["at"]): t["seat"]
            for t in view["thieves"]
            if t["at"] not in ("outside", "escaped")
        }

        def score(a: Any) -> float:
            path = [parse_coord(p) for p in a.path.split("-") if p]
            s = 0.0
            for t in path:
                if spots.get(t) == seat:
                    s -= 5
                elif t in spots:
                    s += 2
            return s

        return max(routes, key=score)

    def target_distance(self, view: Mapping[str, Any], tile: int) -> float:
        goals = self.goals(view)
        return min((travel(view, tile, g) - 0.3 * v for g, v in goals), default=0.0)

    def goals(self, view: Mapping[str, Any]) -> list[tuple[int, float]]:
        """Tiles worth going to, with what they hold."""
        out = []
        for t in view["grid"]:
            top = t.get("top")
            if top and top["kind"] in VALUABLES:
                bonus = 0.0 if t["kind"] != HIGH else -1.5 * t["covered"].count(False)
                out.append((parse_coord(t["at"]), top["value"] + bonus))
        return out

    def turn(
        self,
        view: Mapping[str, Any],
        seat: int,
        here: int,
        by_type: dict[type, list[Any]],
        rng: Rng,
    ) -> Any:
        me = view["thieves"][seat - 1]
        carried = sum(c["value"] for c in view["you"]["hand"] if c["kind"] in VALUABLES)
        carrying = carried > 0
        # Head out once one more Clock may end the game, or a Clock sooner with a
        # good haul (the end comes without warning).
        late = view["clocks"] >= view["clocks_to_end"] - 1 or (
            view["clocks"] >= view["clocks_to_end"] - 2 and carried >= 6
        )
        if End(True) in by_type.get(End, []) and late and carrying:
            return End(True)
        if Stash in by_type:
            return max(by_type[Stash], key=lambda a: CARDS[a.card].value)
        if StealLoot in by_type:
            return StealLoot()
        if Crack in by_type:
            return Crack()
        if Raid in by_type:
            return Raid()
        if Control in by_type:
            return by_type[Control][0]
        if Shop in by_type:
            return Shop()
        if Rob in by_type and me["valuables"] < 2:
            return max(by_type[Rob], key=lambda a: view["thieves"][a.seat - 1]["valuables"])
        guards = {parse_coord(g["at"]) for g in view["guards"]}
        cameras = {
            parse_coord(t["at"]) for t in view["grid"] if t.get("top", {}).get("kind") == "camera"
        }
        if Move in by_type:
            if late and carrying:
                outs = [
                    parse_coord(t["at"])
                    for t in view["grid"]
                    if t["wayout"] or t["room"] == ENTRANCE
                ]
                best = min(
                    by_type[Move],
                    key=lambda a: min(travel(view, parse_coord(a.to), o) for o in outs),
                )
                if min(travel(view, parse_coord(best.to), o) for o in outs) < min(
                    travel(view, here, o) for o in outs
                ):
                    return best
            else:
                now = self.target_distance(view, here)

                def score(a: Any) -> float:
                    t = parse_coord(a.to)
                    danger = 4.0 * (t in guards) + 2.0 * (t in cameras)
                    return self.target_distance(view, t) + danger + 0.01 * rng.random()

                best = min(by_type[Move], key=score)
                if score(best) < now - 0.5:
                    return best
        return End(False)


def heuristic_bot(seat: int, players: int) -> Bot:
    """The :data:`BotFactory` of :class:`HeuristicBot` (the default bot)."""
    return HeuristicBot()


BOTS: dict[str, BotFactory] = {"heuristic": heuristic_bot}


def search_defaults(seat: int, players: int) -> dict[str, Any]:
    """How the ``ismcts`` bot searches (see ``docs/bots.md``): among the moves the
    heuristic bot proposes in six tries, with random rollouts. Its choices are
    rarely close, so most decisions have one candidate and cost no search."""
    return {"iterations": 160, "candidates": 6}
