"""Bots for The Museum Job, playing only from their seat's observation.

Both bots read the floor plan from the view's ``board`` section (never from the
package's data) and work out its geometry once per board: walking distances,
guards' sightlines, camera coverage.

* The heuristic Thief plans a haul worth at least 4 and a way out, scores every
  legal move by how many turns it saves against how likely it is to be seen or
  caught from what the Thief can see (guards, cameras, the monitors), and cuts
  the North breaker before touching a crown.
* The heuristic Security keeps the set of squares the Thief could be on, from
  public evidence alone: it grows by a walk each Thief turn and shrinks by every
  square a guard or a watched camera saw empty; a sighting or an empty frame pins
  it down (and the rounds since are replayed). Guards then move to catch, to
  spot, to watch the monitors and to lock exits.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gameweave_core import Rng
from gameweave_core.bots import Bot, BotFactory, Observation

from .actions import Cut, Enter, Escape, Hold, Lift, Pick, Post, Walk

WALK, HEAVY_WALK, GUARD_MOVE, ESCAPE_VALUE = 4, 2, 3, 4
#: The danger of a square where the Thief would all but surely be caught.
CERTAIN = 100.0
#: The Thief's other weights: being seen, being seen after a guard's move with a
#: later guard in reach, standing in a guard's reach, and one turn of walking.
SEEN, SEEN_LATER, IN_REACH, TURN = 30.0, 12.0, 4.0, 8.0
#: Extra turns a haul is reckoned to cost per guard within 4 steps of a case in it.
NEAR_CASE = 1.5
#: How hard Security's vault guard heads for a North breaker known to be cut.
VAULT_PULL = 3.0
#: How hard Security's monitor guard heads for the Office, and the fewest squares
#: the Thief could be on for it to bother (a fresh trail is hunted instead).
MONITOR_PULL, MONITOR_MIN_BELIEF = 1.0, 6


class Geometry:
    """The floor plan of a view's ``board``, with distances and sightlines."""

    def __init__(self, board: Mapping[str, Any]) -> None:
        self.columns: str = board["columns"]
        self.width: int = board["width"]
        self.height: int = board["height"]
        walls = {self.sq(c) for c in board["walls"]}
        self.floor = [s for s in range(self.width * self.height) if s not in walls]
        self.neighbours: dict[int, list[int]] = {}
        for s in self.floor:
            r, c = divmod(s, self.width)
            near = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                n = rr * self.width + cc
                if 0 <= rr < self.height and 0 <= cc < self.width and n not in walls:
                    near.append(n)
            self.neighbours[s] = near
        self.dist = {s: self._bfs(s) for s in self.floor}
        self.sight = {s: self._line_of_sight(s, walls, 99) | {s} for s in self.floor}
        self.cameras = {c["number"]: self.sq(c["at"]) for c in board["cameras"]}
        self.coverage = {c["number"]: {self.sq(x) for x in c["covers"]} for c in board["cameras"]}
        self.camera_wing = {c["number"]: c["wing"] for c in board["cameras"]}
        self.office = {self.sq(c) for c in board["office"]}
        self.exits = [self.sq(e["at"]) for e in board["exits"]]
        self.breakers = {b["wing"]: self.sq(b["at"]) for b in board["breakers"]}
        self.cases = {self.sq(c["at"]): c["kind"] for c in board["cases"]}
        self.posts = [self.sq(p) for p in board["posts"]]
        self.center = sorted(self.office)

    def sq(self, text: str) -> int:
        return (int(text[1:]) - 1) * self.width + self.columns.index(text[0])

    def coord(self, square: int) -> str:
        r, c = divmod(square, self.width)
        return f"{self.columns[c]}{r + 1}"

    def _bfs(self, start: int) -> dict[int, int]:
        found = {start: 0}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            for n in self.neighbours[s]:
                if n not in found:
                    found[n] = found[s] + 1
                    queue.append(n)
        return found

    def _line_of_sight(self, start: int, walls: set[int], limit: int) -> set[int]:
        seen = set()
        r0, c0 = divmod(start, self.width)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = r0, c0
            for _ in range(limit):
                r, c = r + dr, c + dc
                s = r * self.width + c
                if not (0 <= r < self.height and 0 <= c < self.width) or s in walls:
                    break
                seen.add(s)
        return seen

    def within(self, starts: Iterable[int], steps: int) -> set[int]:
        """Every square within ``steps`` of any of ``starts``."""
        found = set(starts)
        frontier = list(found)
        for _ in range(steps):
            nxt = []
            for s in frontier:
                for n in self.neighbours[s]:
                    if n not in found:
                        found.add(n)
                        nxt.append(n)
            frontier = nxt
        return found


_GEOMETRY: dict[str, Geometry] = {}


def geometry(view: Mapping[str, Any]) -> Geometry:
    """The geometry of the view's board, worked out once per board per process."""
    board = view["board"]
    key = f"{board['name']}/{len(board['walls'])}/{len(board['cameras'])}"
    geo = _GEOMETRY.get(key)
    if geo is None:
        geo = _GEOMETRY[key] = Geometry(board)
    return geo


def _watching(view: Mapping[str, Any], geo: Geometry, guards: Sequence[int]) -> set[int]:
    """Squares working cameras show while ``guards`` stand where they do."""
    if not any(g in geo.office for g in guards):
        return set()
    out: set[int] = set()
    for cam in view["cameras"]:
        if cam["status"] == "working":
            out |= geo.coverage[cam["number"]]
    return out


# -- the Thief ------------------------------------------------------------------------


class ThiefBot:
    """Plans a haul and a way out, and moves where the guards are not looking."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = observation.legal
        view = observation.view
        geo = geometry(view)
        if isinstance(legal[0], Enter):
            return self.enter(view, geo, legal, rng)
        for act in legal:
            if isinstance(act, Escape) or (isinstance(act, Walk) and act.then == "escape"):
                return act
        me = view["thief"]
        here = geo.sq(me["at"])
        guards = [geo.sq(g["at"]) for g in view["guards"]]
        cut_wings = {b["wing"] for b in me["cut_breakers"]}
        cut_cams = {c["number"] for c in me["cut_cameras"]}
        cams_alive = {
            n: cov
            for n, cov in geo.coverage.items()
            if n not in cut_cams and geo.camera_wing[n] not in cut_wings
        }
        danger = self.danger_map(geo, guards, cams_alive)
        speed = me.get("walk", WALK)
        if me["satchel_value"] >= ESCAPE_VALUE:
            open_exits = {geo.sq(e) for e in me["open_exits"]}
            goals = {e: (0.0 if e in open_exits else 1.0) for e in geo.exits}
            on_exit = here in goals and here not in open_exits
            if on_exit and danger.get(here, 0) < CERTAIN and Pick() in legal:
                return Pick()
            action_there: Any = None
        else:
            goal, action_there = self.next_goal(view, geo, here, cut_wings, rng)
            if goal == here and action_there in legal and danger.get(here, 0) < CERTAIN:
                return action_there
            goals = {goal: 0.0}
        best: Any = Hold()
        best_score = self.score(geo, here, goals, speed, danger) - 0.5  # a little push
        for act in legal:
            if not isinstance(act, Walk) or act.then == "escape":
                continue
            to = geo.sq(act.to)
            if act.then == "cut" and not (to in goals and isinstance(action_there, Cut)):
                continue  # cutting on the way only pays for the vault's breaker
            score = self.score(geo, to, goals, speed, danger)
            if act.then == "cut":
                score += 8
            score += rng.random() * 0.5
            if score > best_score:
                best, best_score = act, score
        return best

    def enter(self, view: Mapping[str, Any], geo: Geometry, legal: Sequence[Any], rng: Rng) -> Any:
        """Break in where the quickest haul starts, away from the guards' eyes."""
        guards = [geo.sq(g["at"]) for g in view["guards"]]
        scored = []
        for act in legal:
            ex = geo.sq(act.exit)
            haul = self.best_haul(view, geo, ex, {ex}, set(), 0, False, set(), rng)
            cost = haul[0] if haul is not None else 99.0
            if any(ex in geo.sight[g] for g in guards):
                cost += 4  # spotted before the first move
            scored.append((cost + rng.random() * 1.5, act))
        return min(scored, key=lambda x: x[0])[1]

    def next_goal(
        self,
        view: Mapping[str, Any],
        geo: Geometry,
        here: int,
        cut_wings: set[str],
        rng: Rng,
    ) -> tuple[int, Any]:
        """The first stop of the quickest haul worth 4 that ends outside, and what
        to do there (cut the North breaker, or lift)."""
        me = view["thief"]
        heavy = any(a["heavy"] for a in me["carrying"])
        open_exits = {geo.sq(e) for e in me["open_exits"]}
        taken = {s["case"] for s in me["satchel"]}
        value = me["satchel_value"]
        haul = self.best_haul(view, geo, here, open_exits, cut_wings, value, heavy, taken, rng)
        if haul is None:
            return self.way_out(geo, here, sorted(open_exits), HEAVY_WALK if heavy else WALK)
        return haul[1], haul[2]

    def best_haul(
        self,
        view: Mapping[str, Any],
        geo: Geometry,
        here: int,
        open_exits: set[int],
        cut_wings: set[str],
        value: int,
        heavy: bool,
        taken: set[str],
        rng: Rng,
    ) -> tuple[float, int, Any] | None:
        """The cheapest plan of one or two pieces that makes the satchel worth 4,
        cutting the North breaker before a crown, then leaving: its cost in turns
        and its first stop (square and action)."""
        guards = [geo.sq(g["at"]) for g in view["guards"]]
        pieces = [p for p in view["placards"] if p["case"] not in taken and p["status"] != "gone"]

        def turns(a: int, b: int, speed: int) -> int:
            return -(-geo.dist[a].get(b, 99) // speed)

        def leave(at: int, speed: int) -> int:
            return min(turns(at, e, speed) + (e not in open_exits) for e in geo.exits)

        best: tuple[float, int, Any] | None = None
        for first in pieces:
            seconds: list[Any] = [None]
            if value + first["value"] < ESCAPE_VALUE:
                seconds = [
                    q
                    for q in pieces
                    if q is not first and value + first["value"] + q["value"] >= ESCAPE_VALUE
                ]
            for second in seconds:
                at, speed, cost = here, HEAVY_WALK if heavy else WALK, 0.0
                stop: tuple[int, Any] | None = None
                north_cut = "North" in cut_wings
                for piece in (first, second):
                    if piece is None:
                        continue
                    case = geo.sq(piece["case"])
                    if piece["kind"] == "vault" and not north_cut:
                        breaker = geo.breakers["North"]
                        cost += turns(at, breaker, speed)
                        stop = stop or (breaker, Cut())
                        at, north_cut = breaker, True
                    cost += turns(at, case, speed) + 1
                    stop = stop or (case, Lift())
                    # Cases near guards are where the Thief gets seen.
                    cost += NEAR_CASE * sum(1 for g in guards if geo.dist[g].get(case, 99) <= 4)
                    at = case
                    if piece["heavy"]:
                        speed = HEAVY_WALK
                cost += leave(at, speed) + rng.random() * 0.5
                if stop is not None and (best is None or cost < best[0]):
                    best = (cost, *stop)
        return best

    def way_out(
        self, geo: Geometry, here: int, open_exits: list[int], speed: int
    ) -> tuple[int, Any]:
        d = geo.dist[here]
        best = None
        for e in geo.exits:
            turns = -(-d.get(e, 99) // speed) + (0 if e in open_exits else 1)
            if best is None or turns < best[0]:
                best = (turns, e)
        assert best is not None
        exit_sq = best[1]
        return exit_sq, (Escape() if exit_sq in open_exits else Pick())

    def danger_map(
        self, geo: Geometry, guards: Sequence[int], cams: Mapping[int, set[int]]
    ) -> dict[int, float]:
        """How bad it is to end the turn on each square.

        Seen at the end of the turn with a guard able to reach the square is all
        but a catch; seen by a guard after its move with a later guard in reach is
        likely one; merely seen gives the square away; in a guard's reach is a
        small risk of being walked into blind.
        """
        reach = [{s for s, k in geo.dist[g].items() if k <= GUARD_MOVE} for g in guards]
        seen_now: set[int] = set()
        for g in guards:
            seen_now |= geo.sight[g]
        if any(g in geo.office for g in guards):
            for cov in cams.values():
                seen_now |= cov
        danger: dict[int, float] = {}
        for s in seen_now:
            danger[s] = SEEN
            if any(s in r for r in reach):
                danger[s] = CERTAIN
        for i in range(len(guards)):
            watched_after: set[int] = set()
            for s in reach[i]:
                watched_after |= geo.sight[s]
            later = set().union(*reach[i + 1 :]) if i + 1 < len(reach) else set()
            for s in watched_after & later:
                danger[s] = danger.get(s, 0) + SEEN_LATER
        for r in reach:
            for s in r:
                danger[s] = danger.get(s, 0) + IN_REACH
        return danger

    def score(
        self,
        geo: Geometry,
        at: int,
        goals: Mapping[int, float],
        speed: int,
        danger: Mapping[int, float],
    ) -> float:
        d = geo.dist[at]
        turns = min(d.get(g, 99) / speed + extra for g, extra in goals.items())
        return -turns * TURN - danger.get(at, 0)


# -- Security ------------------------------------------------------------------------------


class SecurityBot:
    """Tracks where the Thief could be and moves guards to close in."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.geo: Geometry | None = None
        #: Per round: squares some guard or watched camera saw empty that round.
        self.cleared: dict[int, set[int]] = {}
        self.pinned: dict[int, int] = {}
        #: Per round: where each guard (by index) stood once it had moved that round.
        #: It stood there through the next Thief turn too, so it clears both rounds.
        self.final: dict[int, dict[int, int]] = {}

    # -- setup ----------------------------------------------------------------

    def post(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        geo = geometry(view)
        # Vault and court posts first; each guard to the Security seat with fewest.
        counts: dict[int, int] = {}
        for g in view["guards"]:
            counts[g["seat"]] = counts.get(g["seat"], 0) + 1
        order = sorted(geo.posts, key=lambda p: geo.dist[p].get(geo.center[0], 99))
        for post in order:
            options = [a for a in legal if geo.sq(a.at) == post]
            if options:
                return min(options, key=lambda a: (counts.get(a.seat, 0), a.seat))
        return rng.choice(legal)

    # -- belief ---------------------------------------------------------------

    def update(self, view: Mapping[str, Any], geo: Geometry) -> set[int]:
        """The squares the Thief could be on now."""
        rnd = view["round"]
        guards = [geo.sq(g["at"]) for g in view["guards"]]
        heavy_from = min(
            (p["taken_round"] for p in view["placards"] if p["status"] == "gone" and p["heavy"]),
            default=99,
        )
        # Positive evidence: where the Thief was at the end of a round.
        for ev in view["evidence"]:
            # (An empty frame's round is the round of the lift, made standing there.)
            if ev["kind"] in ("last_seen", "alarm", "empty_frame"):
                self.pinned[ev["round"]] = geo.sq(ev["at"])
        moved = view["guard_to_move"] - 1 if view["phase"] == "security" else 0
        for index, g in enumerate(guards):
            if index < moved:
                self.final.setdefault(rnd, {})[index] = g
            self.final.setdefault(rnd - 1, {})[index] = geo.sq(view["guards"][index]["from"])
        for r, positions in self.final.items():
            for g in positions.values():
                for cleared_round in (r, r + 1):
                    self.cleared.setdefault(cleared_round, set()).update(geo.sight[g])
        self.cleared.setdefault(rnd, set()).update(_watching(view, geo, guards))
        self.clear_by_monitors(view, geo)
        belief = set(geo.exits)  # the Thief starts the night on one of the exits
        for r in range(1, rnd + 1):
            if r in self.pinned:
                belief = {self.pinned[r]}
                continue
            speed = HEAVY_WALK if r > heavy_from else WALK
            belief = geo.within(belief, speed) - self.cleared.get(r, set())
            if not belief:
                # Something we assumed was wrong: start again from everywhere unseen.
                belief = set(geo.floor) - self.cleared.get(r, set())
        return belief

    def clear_by_monitors(self, view: Mapping[str, Any], geo: Geometry) -> None:
        """Squares watched cameras showed empty in earlier rounds.

        A guard that ended a round in the Office had the monitors read then and at
        the end of the next Thief turn. Every camera showed its squares, except
        one that may have been dead then: a cut camera or dark wing found later
        whose window reaches back that far is left out.
        """
        rnd = view["round"]
        dead_since: dict[int, int] = {}
        dark_since: dict[str, int] = {}
        for ev in view["evidence"]:
            if ev["kind"] == "cut_camera":
                dead_since[ev["camera"]] = min(dead_since.get(ev["camera"], 99), ev["since"])
            elif ev["kind"] == "dark":
                dark_since[ev["wing"]] = min(dark_since.get(ev["wing"], 99), ev["since"])
        for r, positions in self.final.items():
            if len(positions) < 3 or not any(g in geo.office for g in positions.values()):
                continue
            for number, cover in geo.coverage.items():
                wing = geo.camera_wing[number]
                if min(dead_since.get(number, 99), dark_since.get(wing, 99)) <= r + 1:
                    continue
                for watched_round in (r, r + 1):
                    if watched_round <= rnd:
                        self.cleared.setdefault(watched_round, set()).update(cover)

    # -- guard moves ------------------------------------------------------------

    def act(self, observation: Observation, rng: Rng) -> Any:
        legal = observation.legal
        view = observation.view
        if isinstance(legal[0], Post):
            return self.post(view, legal, rng)
        geo = geometry(view)
        belief = self.update(view, geo)
        n = len(belief)
        index = view["guard_to_move"] - 1
        guards = [geo.sq(g["at"]) for g in view["guards"]]
        others = [g for i, g in enumerate(guards) if i != index]
        office_taken = any(g in geo.office for g in others)
        crowns_home = any(p["kind"] == "vault" and p["status"] != "gone" for p in view["placards"])
        breaker = geo.breakers.get("North")
        north_dark = any(b["wing"] == "North" and b["status"] == "dark" for b in view["breakers"])
        # The guard nearest the North breaker looks after the vault; of the others,
        # the one nearest the Office watches the monitors while the trail is cold.
        vault_guard = 0
        if breaker is not None:
            vault_guard = min(
                range(len(guards)), key=lambda i: geo.dist[guards[i]].get(breaker, 99)
            )
        office_dist = [min(geo.dist[g].get(o, 99) for o in geo.office) for g in guards]
        monitor_guard = min(
            (i for i in range(len(guards)) if i != vault_guard), key=lambda i: office_dist[i]
        )
        watched = set()
        for cam in view["cameras"]:
            if cam["status"] == "working":
                watched |= geo.coverage[cam["number"]]
        on_monitors = len(watched & belief) / n if n else 0.0
        forced = {geo.sq(e["at"]) for e in view["evidence"] if e["kind"] == "forced_exit"}
        haul = sum(p["value"] for p in view["placards"] if p["status"] == "gone")
        near_belief = geo.within(belief, 4) if n < 60 else set(geo.floor)
        best, best_score = legal[0], float("-inf")
        for act in legal:
            to = geo.sq(act.to)
            score = 0.0
            if to in belief:
                score += 100.0 / n
            seen = geo.sight[to]
            score += 40.0 * len(seen & belief) / n
            # Stay close to where the Thief could be, to pounce after a sighting.
            reach = sum(1 for s in belief if geo.dist[to].get(s, 99) <= GUARD_MOVE)
            score += 12.0 * reach / n
            dmin = min((geo.dist[to].get(s, 99) for s in belief), default=0)
            score -= 0.4 * dmin
            if index == monitor_guard and n > MONITOR_MIN_BELIEF:
                score -= MONITOR_PULL * min(geo.dist[to].get(o, 99) for o in geo.office)
                if to in geo.office:
                    score += 6.0 + 20.0 * on_monitors
            elif to in geo.office and not office_taken and n > MONITOR_MIN_BELIEF:
                score += 6.0
            if to in geo.exits and to not in forced:
                score += 2.0 + (3.0 if haul >= ESCAPE_VALUE else 0.0)
                if to in near_belief:
                    score += 2.0
            if crowns_home and breaker is not None and index == vault_guard:
                # Keep the vault alarm powered: with the North wing dark this guard
                # goes to reset the breaker before a crown can walk out quietly.
                pull = VAULT_PULL if north_dark else 0.3
                score -= pull * geo.dist[to].get(breaker, 20)
            score += rng.random() * 0.3
            if score > best_score:
                best, best_score = act, score
        self.final.setdefault(view["round"], {})[index] = geo.sq(best.to)
        return best


def heuristic_bot(seat: int, players: int) -> Bot:
    """The heuristic bot for either side: the Thief in seat 1, Security elsewhere."""
    return ThiefBot() if seat == 1 else SecurityBot(seat)


#: The title's bots by name (the core adds ``"random"``).
BOTS: dict[str, BotFactory] = {"heuristic": heuristic_bot}


def search_defaults(seat: int, players: int) -> dict[str, Any]:
    """How the ``ismcts`` bot searches each side (see ``docs/bots.md``).

    A Thief who walks at random almost never gets out, so random rollouts teach
    the Thief's search nothing: it rolls out with the heuristic bots and weighs
    only the moves the heuristic Thief itself would make in a few tries (a
    decision the heuristic is sure of costs no search at all). Security searches
    best with the core's random rollouts: random Thieves still get caught and
    reach dawn, and held to the heuristic guards' moves its search did worse
    (the Thief won 72 of 100 games against it).
    """
    if seat == 1:
        return {"rollout": "heuristic", "iterations": 40, "candidates": 6}
    return {"iterations": 160}


__all__ = ["BOTS", "Geometry", "SecurityBot", "ThiefBot", "heuristic_bot", "search_defaults"]
