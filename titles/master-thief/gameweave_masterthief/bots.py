"""The bots of Master Thief. A bot sees only its seat's observation (view and
legal actions), never the state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gameweave_core import Bot, BotFactory, Observation, Rng

from .actions import (
    Discard,
    Drop,
    EndTurn,
    Escape,
    Grip,
    Latch,
    Lift,
    Pass,
    PlayUtility,
    Raid,
    Snoop,
    Stash,
    Stay,
    Surrender,
    Swipe,
    Trip,
    Vote,
)
from .cards import CALLING, CALLING_BONUS, MUSEUM

#: Cards the bot keeps longest when it must discard (first goes first).
DISCARD_ORDER = (
    "Snoop",
    "Deep Pockets",
    "Getaway Car",
    "Smoke Pellet",
    "Stash",
    "Raid",
    "Trip",
    "Grip",
    "Lift",
    "Latch",
    "Swipe",
)


def worth(item: str, calling: str) -> int:
    """What an item is worth to a thief with this Calling Card."""
    card = MUSEUM[item]
    bonus = CALLING_BONUS if card.category in CALLING[calling].categories else 0
    return card.bmc + bonus


class HeuristicBot:
    """Stashes its best items, swipes and raids the richest rival, grips and latches
    whenever it can, averts Security when a Strike would hurt, and escapes when time
    or Security run short, or when it carries a good haul."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        view = observation.view
        me = observation.seat
        calling = view["calling"]
        mine = view["seats"][me - 1]

        def value(item: str) -> int:
            return worth(item, calling)

        kinds = {type(a) for a in legal}
        if Vote in kinds:  # start over when the Heist left this thief behind
            behind = max(estimate(s) for s in view["seats"] if s["seat"] != me) > sum(
                value(i["name"]) for i in mine["carried"]
            )
            return Vote(behind or len(view["strikes"]) >= 2)
        if Grip in kinds:
            return Grip()
        if Latch in kinds:
            # Let a thief leave with less than this one holds: keep the Latch.
            escaper = view["seats"][view["window"]["actor"] - 1]
            mine_now = sum(value(i["name"]) for i in [*mine["carried"], *mine["stashed"]])
            return Latch() if estimate(escaper) >= mine_now else Pass()
        if Surrender in kinds:
            danger = len(view["strikes"]) + 1 >= view["strikes_to_end"]
            cheapest = min(
                (a for a in legal if isinstance(a, Surrender)), key=lambda a: value(a.item)
            )
            if danger and not self.wins_if_caught(view, mine, value):
                return cheapest
            return Pass()
        if Discard in kinds:
            return min(
                (a for a in legal if isinstance(a, Discard)),
                key=lambda a: DISCARD_ORDER.index(a.card),
            )
        if Drop in kinds:
            return min((a for a in legal if isinstance(a, Drop)), key=lambda a: value(a.item))
        if Escape in kinds:
            return Escape() if self.should_escape(view, mine, value) else Stay()
        if EndTurn in kinds:
            return self.play(view, me, legal, value)
        return legal[0]

    def wins_if_caught(
        self, view: Mapping[str, Any], mine: Mapping[str, Any], value: Callable[[str], int]
    ) -> bool:
        """Whether the game ending now (thieves inside keep only their stash) leaves
        this thief ahead of every rival, as far as it can tell."""
        kept = sum(value(i["name"]) for i in mine["stashed"])
        best = 0.0
        for s in view["seats"]:
            if s["seat"] == mine["seat"]:
                continue
            best = max(best, estimate({**s, "status": "caught"} if s["status"] == "in" else s))
        return kept > best

    def should_escape(
        self, view: Mapping[str, Any], mine: Mapping[str, Any], value: Callable[[str], int]
    ) -> bool:
        """Escape when a Strike or the end of the deck is near (staying risks the
        Carried items), or when the haul beats every rival's by a margin."""
        seats = view["seats"]
        haul = sum(value(i["name"]) for i in [*mine["carried"], *mine["stashed"]])
        rivals = [s for s in seats if s["seat"] != mine["seat"]]
        best = max((estimate(s) for s in rivals), default=0)
        inside = [s for s in rivals if s["status"] == "in"]
        if not inside:  # everyone else is out: take every turn while behind
            return haul > best
        late = view["deck"] <= 3 * (len(inside) + 1) + 2
        risky = len(view["strikes"]) + 1 >= view["strikes_to_end"]
        return haul >= best + 8 or ((late or risky) and haul >= best - 4)

    def play(
        self, view: Mapping[str, Any], me: int, legal: Any, value: Callable[[str], int]
    ) -> Any:
        seats = view["seats"]

        def rival_worth(s: int, item: str) -> float:
            return estimate(
                {**seats[s - 1], "stashed": [], "carried": [{"name": item, **_face(item)}]}
            )

        swipes = [a for a in legal if isinstance(a, Swipe)]
        if swipes:
            # A Swipe is worth the item to this thief plus its worth to the loser.
            return max(swipes, key=lambda a: value(a.item) + rival_worth(a.target, a.item))
        raids = [a for a in legal if isinstance(a, Raid)]
        if raids:
            return max(raids, key=lambda a: len(seats[a.target - 1]["stashed"]))
        trips = [a for a in legal if isinstance(a, Trip)]
        if trips:
            return max(trips, key=lambda a: rival_worth(a.target, a.item))
        stashes = [a for a in legal if isinstance(a, Stash)]
        if stashes:
            return max(stashes, key=lambda a: value(a.item))
        carried = len(seats[me - 1]["carried"])
        if PlayUtility("Smoke Pellet") in legal and carried >= 2:
            return PlayUtility("Smoke Pellet")
        if PlayUtility("Getaway Car") in legal and self.should_escape(view, seats[me - 1], value):
            return PlayUtility("Getaway Car")  # only worth it on the turn it leaves
        if PlayUtility("Deep Pockets") in legal and carried >= seats[me - 1]["carry_limit"]:
            return PlayUtility("Deep Pockets")
        snoops = [a for a in legal if isinstance(a, Snoop)]
        if snoops:
            return snoops[0]
        safe = len(view["strikes"]) + 1 < view["strikes_to_end"]
        # A Lift that finds Security ends the turn with no escape: not when leaving.
        leaving = self.should_escape(view, seats[me - 1], value)
        if Lift() in legal and safe and view["deck"] > 12 and not leaving:
            return Lift()
        return EndTurn()


def _face(item: str) -> dict[str, Any]:
    return {"bmc": MUSEUM[item].bmc, "category": MUSEUM[item].category}


def estimate(seat: Mapping[str, Any]) -> float:
    """A rival's worth as the table sees it: its items, with its Calling Card's bonus
    when the card is known, else the bonus's average (2 categories of 6)."""
    items = [*seat["stashed"]]
    if seat["status"] != "caught":
        items += seat["carried"]
    calling = seat.get("calling")
    total = 0.0
    for entry in items:
        if calling is not None:
            total += worth(entry["name"], calling)
        else:
            total += entry["bmc"] + CALLING_BONUS * 2 / 6
    return total


def heuristic(seat: int, players: int) -> Bot:
    """The :data:`~gameweave_core.bots.BotFactory` of :class:`HeuristicBot`."""
    return HeuristicBot()


#: The title's own bots by name (the core adds ``random``).
BOTS: dict[str, BotFactory] = {"heuristic": heuristic}


def search_defaults(seat: int, players: int) -> dict[str, Any]:
    """How the ``ismcts`` bot searches (see ``docs/bots.md``): random rollouts are
    cheap and still end in Strikes, escapes and catches worth learning from, so it
    plays them out at the core's 160 iterations (about 50 ms a decision), which
    already beats the heuristic bot."""
    return {"iterations": 160}
