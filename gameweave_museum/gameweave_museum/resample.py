"""The resample hook: a Thief history Security cannot tell from the real one.

Security and spectators see everything but the Thief: where they broke in, the
squares they stood on, what they lifted that has not come off the board yet,
the exits they picked and the cuts nobody has found. :func:`resample` draws all
of that afresh, as a whole history consistent with every observation Security
has had, and rebuilds the state by replaying it through the rules. The Thief
sees everything, so for the Thief (and before the break-in, and after the end)
the state is only copied.

How a history is drawn:

1. **Where the Thief could be, round by round.** The public evidence pins some
   rounds to a square: a Last Seen token (however it was made), and a theft
   (the Thief stood on the case the round before the lift and in its round).
   Every other round the Thief stood on a square no check of that round saw
   (``State.trail.watched``) and no guard stood on. Squares are bits of an int,
   so the sets and the walks between them (4 steps, 2 once something heavy was
   lifted, around walls and guards) are a few shifts per step.
2. **What the evidence says they did.** A Forced Exit means the exit was opened
   since the last guard stood on it: by the entry, or a pick (two rounds on the
   exit). A cut found by the monitors or a guard happened in its window, on the
   camera's or breaker's square, in the very round it was found exactly when the
   Thief was caught cutting. A crown that came off without the alarm means the
   North breaker was cut before it; one with the alarm means it was not. Each
   such fact is an *obligation* with a list of ways to meet it (a round and
   squares); the ways still possible are tried in a random order, and the first
   that leaves a consistent route (the sets of step 1 worked out again, forward
   and backward, with it pinned) is kept.
3. **The route.** The last square is drawn among the possible ones, then each
   earlier one among the possible squares from which the next is a legal walk.
4. **What nobody saw.** Where the route allows it, the Thief may also have made
   moves that left no trace yet: a lift in the latest round, a pick of an exit no
   guard has stood on since, a cut no check has followed. Each is taken with
   probability 1/2.
5. **Check.** The actions are replayed from the start with the same guard
   moves, and every public part of the result (evidence, thefts, feeds, checks,
   guards, the trail) must equal the real state's; the replay is the state
   returned. A draw that fails (rare: an unfound North cut meeting a crown, an
   extra move that clashes) is drawn again; after :data:`ATTEMPTS` failures the
   real state is copied, so the result is always a state the seat cannot tell
   apart (the tests measure how rarely that happens).

Where this is not the exact posterior: the posterior depends on how the Thief
plays, which no one knows; the closest neutral choice is uniform over consistent
histories. This draw is not exactly uniform: step 3 chooses each square
uniformly among those possible given the next one (not weighted by how many
routes pass through it), obligations are met by a uniformly drawn way, and the
hidden extras of step 4 each have probability 1/2. Hidden cuts are drawn only
after the monitors were last read (a camera in a wing already dark could also
have been cut under the monitors' eyes, unseen: such cuts are not drawn), and a
hidden lift only in a round the Thief was not seen.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from functools import cache
from typing import Any

import attrs

from gameweave_core import Rng
from gameweave_core.worlds import World, shuffle_outcomes

from .actions import THEN_CUT, Cut, Enter, Hold, Lift, MoveGuard, Pick, Post, Walk
from .floorplan import WIDTH, FloorPlan, coord, parse_coord, quayside_palace
from .rules import THIEF_SEAT, apply, can_cut, walk_targets
from .state import DAWN, ENTRY, GUARDS, HEAVY_WALK, OVER, POSTING, THIEF, WALK, State

#: Draws tried before the real state is copied instead.
ATTEMPTS = 8
#: Draws (of the ATTEMPTS) that may add the hidden extras of step 4.
WITH_EXTRAS = 6
#: A round that has no end.
NEVER = 1 << 30


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A state ``seat`` cannot tell apart from ``state``, with the Thief's secrets
    redrawn from ``rng`` (see the module docstring); ``state`` is not changed."""
    if seat == THIEF_SEAT or state.phase in (POSTING, ENTRY, OVER):
        return copy.deepcopy(state)
    drawn = draw(state, rng)
    return copy.deepcopy(state) if drawn is None else drawn[1]


def resample_world(state: State, seat: int | None, rng: Rng) -> World:
    """The history of a state ``seat`` cannot tell from ``state``, as a world the
    core replays and checks (:mod:`gameweave_core.worlds`): the display's shuffle
    as it was (the display is public), and the Thief's actions of a history drawn
    as :func:`resample` draws it, each at the step the Thief took it. For the
    Thief (and before the break-in, and after the end) the world is the real one:
    nothing is hidden from the seat then. ``state`` is not changed."""
    plan = quayside_palace()
    shuffled = [i for i, art in enumerate(plan.collection) if not art.vault]
    # The display cases, in order, took the shuffled pieces from the front.
    placed = [state.display[c] for c, case in enumerate(plan.cases) if not case.vault]
    chance = tuple(shuffle_outcomes(shuffled, placed + [i for i in shuffled if i not in placed]))
    if seat == THIEF_SEAT or state.phase in (POSTING, ENTRY, OVER):
        return World(chance)
    drawn = draw(state, rng)
    if drawn is None:
        return World(chance)
    return World(chance, dict(zip(thief_steps(len(drawn[0])), drawn[0], strict=True)))


def thief_steps(count: int) -> list[int]:
    """The steps of the Thief's first ``count`` actions: the posts come first, then
    the entry, then each round the Thief's action and one move per guard."""
    entry = GUARDS + 1
    return [entry + (k and 1 + (k - 1) * (GUARDS + 1)) for k in range(count)]


def draw(state: State, rng: Rng) -> tuple[list[Any], State] | None:
    """A Thief history Security cannot tell from the real one: the Thief's actions
    (the entry first, then one a round) and the state they lead to with the real
    guard moves; ``None`` if no draw of :data:`ATTEMPTS` agreed with the evidence.

    ``state`` must be in the Thief's or the Security turn."""
    plan = quayside_palace()
    rounds = len(state.route) - 1
    if len(state.trail.guards) != GUARDS * (rounds + (state.phase == THIEF)) + state.turn:
        raise ValueError(
            "this state has no trail of Security's checks (it was not reached by the "
            "rules from setup), so no history can be drawn for it"
        )
    facts = Facts.read(plan, state)
    want = public_part(state)
    for attempt in range(ATTEMPTS):
        actions = draw_history(plan, facts, rng, extras=attempt < WITH_EXTRAS)
        if actions is None:
            continue
        candidate = replay(plan, state, actions)
        if candidate is not None and public_part(candidate) == want:
            return actions, candidate
    return None


def public_part(state: State) -> tuple[Any, ...]:
    """Everything in the state that Security knows (the view is built from it)."""
    return (
        state.players,
        state.display,
        state.phase,
        state.round,
        state.dawn,
        state.turn,
        state.guards,
        state.guard_seats,
        state.turn_start,
        state.evidence,
        state.revealed,
        state.dead_cameras,
        state.dark_wings,
        state.confirmed,
        state.ended,
        state.trail,
    )


# -- squares as bits ------------------------------------------------------------


@attrs.frozen
class Masks:
    """Masks of the floor plan for walking a set of squares one step."""

    floor: int
    not_first_column: int
    not_last_column: int
    exits: int


@cache
def masks(plan: FloorPlan) -> Masks:
    squares = range(len(plan.neighbours))
    return Masks(
        floor=sum(1 << sq for sq in plan.floor),
        not_first_column=sum(1 << sq for sq in squares if sq % WIDTH != 0),
        not_last_column=sum(1 << sq for sq in squares if sq % WIDTH != WIDTH - 1),
        exits=sum(1 << e.square for e in plan.exits),
    )


def spread(b: Masks, squares: int, steps: int, open_squares: int) -> int:
    """Every square within ``steps`` walking steps of ``squares``, stepping only
    onto ``open_squares`` (the floor without walls and guards)."""
    for _ in range(steps):
        squares = (
            squares
            | ((squares << 1) & b.not_first_column)
            | ((squares >> 1) & b.not_last_column)
            | (squares << WIDTH)
            | (squares >> WIDTH)
        ) & open_squares
    return squares


def squares_of(mask: int) -> list[int]:
    """The squares set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- what Security knows, read once per call ----------------------------------------


@attrs.frozen
class Way:
    """One way to meet an obligation: the Thief's action in ``round`` (``"pick"``,
    ``"cut"`` or ``""`` for the entry), standing on ``square`` then (and the round
    before, for a pick). ``not_entry``: the exit cannot also have been the entry
    (it would have been open already)."""

    round: int
    square: int
    action: str
    not_entry: bool = False


@attrs.define
class Facts:
    """The public facts about the Thief's history, as constraints."""

    rounds: int  # Thief turns taken so far (the route has rounds + 1 squares)
    allowed: list[int]  # per round 0..rounds: squares the Thief may have stood on
    blocked: list[int]  # per round 1..rounds (index round): guards at the Thief's turn
    walk: list[int]  # per round (index round): how far the Thief could walk
    actions: dict[int, tuple[str, int]]  # round -> action the evidence fixes
    obligations: list[list[Way]]
    checked: dict[int, list[int]]  # square -> rounds a guard stood on it at a check
    monitored: list[bool]  # per round (index round - 1)
    latest_spotted: bool  # whether the Thief was seen in the latest round
    crown_rounds: list[int]  # rounds a crown was lifted (publicly)
    emptied: set[int]  # squares of the cases whose theft has come to light

    @classmethod
    def read(cls, plan: FloorPlan, state: State) -> Facts:
        b = masks(plan)
        rounds = len(state.route) - 1
        trail = state.trail
        # Guard squares at each Thief turn, and the squares guards checked each round.
        blocked = [0] * (rounds + 1)
        checked: dict[int, list[int]] = {}
        moves = trail.guards
        for r in range(1, rounds + 1):
            # Posts, then three moves a round: the guards at turn r stood where the
            # moves of round r - 1 (or the posts) put them.
            blocked[r] = sum(1 << sq for sq in moves[GUARDS * (r - 1) : GUARDS * r])
            for sq in moves[GUARDS * r : GUARDS * (r + 1)]:
                checked.setdefault(sq, []).append(r)
        pins: dict[int, int] = {}
        actions: dict[int, tuple[str, int]] = {}
        spotted_rounds: set[int] = set()
        caught: set[tuple[int, int]] = set()
        alarms: set[int] = set()
        for ev in state.evidence:
            if ev.kind == "last_seen":
                pins[ev.round] = ev.square
                spotted_rounds.add(ev.round)
                if ev.how == "caught cutting":
                    caught.add((ev.square, ev.round))
            elif ev.kind == "alarm":
                alarms.add(ev.round)
        heavy_from = NEVER
        crown_rounds = []
        for case_index, lifted in state.revealed.items():
            case = plan.cases[case_index]
            pins[lifted] = pins[lifted - 1] = case.square
            actions[lifted] = ("lift", case.square)
            if plan.collection[state.display[case_index]].heavy:
                heavy_from = min(heavy_from, lifted + 1)
            if case.vault:
                crown_rounds.append(lifted)
        walk = [HEAVY_WALK if r >= heavy_from else WALK for r in range(rounds + 1)]
        # Exits: the first guard check that found an exit shut rules it out as the entry.
        first_closed = 0
        obligations: list[list[Way]] = []
        forced = {(ev.square, ev.round) for ev in state.evidence if ev.kind == "forced_exit"}
        for ex in plan.exits:
            previous = 0
            for r in sorted(set(checked.get(ex.square, []))):
                if (ex.square, r) in forced:
                    first = previous == 0
                    ways = [
                        Way(k, ex.square, "pick", not_entry=first)
                        for k in range(max(previous + 1, 2), r + 1)
                    ]
                    if previous == 0:
                        ways.append(Way(0, ex.square, ""))
                    obligations.append(ways)
                elif previous == 0:
                    first_closed |= 1 << ex.square
                previous = r
        # Cuts found: in their window, on their square; in the round found if caught.
        north = plan.breakers.get("North", -1)
        windows_north: list[tuple[int, int, int]] = []
        for ev in state.evidence:
            if ev.kind not in ("cut_camera", "dark"):
                continue
            if (ev.square, ev.round) in caught:
                actions[ev.round] = ("cut", ev.square)
                cut_rounds = [ev.round]
            else:
                cut_rounds = list(range(ev.since, ev.round))
            if ev.square == north:
                reset = min((r for r in checked.get(north, []) if r >= ev.round), default=NEVER)
                windows_north.append((ev.since, ev.round, reset))
                cut_rounds = [
                    k for k in cut_rounds if _north_ok(k, reset, crown_rounds, alarms, ev.since)
                ]
            if (ev.square, ev.round) not in caught:
                obligations.append([Way(k, ev.square, "cut") for k in cut_rounds])
        # A crown lifted quietly needs the North breaker cut; if no found cut covers
        # it, the cut is one nobody has found yet (after every check that would have).
        uncovered = [
            lifted
            for lifted in crown_rounds
            if lifted not in alarms
            and not any(since <= lifted <= reset for since, _, reset in windows_north)
        ]
        if uncovered:
            looked = [*checked.get(north, []), *alarms]
            looked += [r for r in range(1, rounds + 1) if trail.monitored[r - 1]]
            low = max([*looked, 0]) + 1
            obligations.append([Way(k, north, "cut") for k in range(low, min(uncovered))])
        allowed = [b.exits & ~first_closed]
        for r in range(1, rounds + 1):
            allowed.append(b.floor & ~trail.watched[r - 1] & ~blocked[r])
        for r, sq in pins.items():
            allowed[r] = 1 << sq  # seen there: the round's checks saw it, of course
        return cls(
            rounds=rounds,
            allowed=allowed,
            blocked=blocked,
            walk=walk,
            actions=actions,
            obligations=obligations,
            checked=checked,
            monitored=list(trail.monitored),
            latest_spotted=rounds in spotted_rounds,
            crown_rounds=crown_rounds,
            emptied={plan.cases[c].square for c in state.revealed},
        )


def _north_ok(k: int, reset: int, crowns: list[int], alarms: set[int], since: int) -> bool:
    """Whether a North cut in round ``k``, in effect until ``reset``, agrees with
    every crown lift: quiet ones need it in effect, ones with the alarm need it not."""
    for lifted in crowns:
        in_effect = k < lifted <= reset
        if lifted in alarms and in_effect:
            return False
        if lifted not in alarms and since <= lifted <= reset and not in_effect:
            return False
    return True


# -- drawing a history ---------------------------------------------------------------


def sweep(b: Masks, facts: Facts, allowed: list[int]) -> tuple[list[int], list[int]]:
    """Per round, the squares some route reaches by then (forward) and the squares
    from which a route goes on to the present (backward); a square in both lies
    on a route consistent with everything."""
    rounds = facts.rounds
    forward = [allowed[0]]
    for r in range(1, rounds + 1):
        open_squares = b.floor & ~facts.blocked[r]
        forward.append(spread(b, forward[-1], facts.walk[r], open_squares) & allowed[r])
    backward = [0] * (rounds + 1)
    backward[rounds] = allowed[rounds]
    for r in range(rounds, 0, -1):
        open_squares = b.floor & ~facts.blocked[r]
        backward[r - 1] = spread(b, backward[r], facts.walk[r], open_squares) & allowed[r - 1]
    return forward, backward


def _fits(way: Way, forward: list[int], backward: list[int], slots: dict[int, Any]) -> bool:
    bit = 1 << way.square
    if way.action and way.round in slots:
        return False
    rounds = [way.round - 1, way.round] if way.action == "pick" else [way.round]
    return all(forward[r] & backward[r] & bit for r in rounds)


def draw_history(plan: FloorPlan, facts: Facts, rng: Rng, extras: bool) -> list[Any] | None:
    """The Thief's actions (the entry first, then one per round) of a history
    drawn as the module docstring says, or ``None`` if this draw ran into a
    corner."""
    b = masks(plan)
    allowed = list(facts.allowed)
    slots: dict[int, tuple[str, int]] = dict(facts.actions)
    forward, backward = sweep(b, facts, allowed)
    if not forward[-1]:
        return None
    for ways in facts.obligations:
        possible = [w for w in ways if _fits(w, forward, backward, slots)]
        rng.shuffle(possible)
        for way in possible:
            pinned = list(allowed)
            pinned[way.round] &= 1 << way.square
            if way.action == "pick":
                pinned[way.round - 1] &= 1 << way.square
            if way.not_entry:
                pinned[0] &= ~(1 << way.square)
            swept = sweep(b, facts, pinned)
            # Only the entry rule can leave no route (the pins alone always fit).
            if swept[0][-1]:
                allowed, (forward, backward) = pinned, swept
                if way.action:
                    slots[way.round] = (way.action, way.square)
                break
        else:
            return None
    route = [rng.choice(squares_of(forward[-1]))]
    for r in range(facts.rounds, 0, -1):
        open_squares = b.floor & ~facts.blocked[r]
        came_from = spread(b, 1 << route[-1], facts.walk[r], open_squares)
        route.append(rng.choice(squares_of(forward[r - 1] & came_from)))
    route.reverse()
    return list(_actions(plan, facts, route, slots, rng, extras))


def _actions(
    plan: FloorPlan,
    facts: Facts,
    route: list[int],
    slots: dict[int, tuple[str, int]],
    rng: Rng,
    extras: bool,
) -> Iterator[Any]:
    """The actions that walk ``route``, doing what ``slots`` say, with the hidden
    extras drawn where nothing would have seen them."""
    yield Enter(coord(route[0]))
    open_exits = {route[0]}
    cut: set[int] = set()  # squares of cameras and breakers cut and not yet put right
    last_check = {sq: max(rounds) for sq, rounds in facts.checked.items()}
    last_monitors = max((r + 1 for r, m in enumerate(facts.monitored) if m), default=0)
    north = plan.breakers.get("North", -1)
    last_crown = max(facts.crown_rounds, default=0)
    for r in range(1, facts.rounds + 1):
        here, before = route[r], route[r - 1]
        stays = here == before
        kind, _ = slots.get(r, ("", here))
        if not kind and extras and last_check.get(here, 0) < r:
            case = plan.case_at(here)
            if (
                stays
                and plan.exit_at(here) is not None
                and here not in open_exits
                and rng.random() < 0.5
            ):
                kind = "pick"
            elif (
                (plan.camera_at(here) is not None or plan.breaker_at(here) is not None)
                and here not in cut
                and last_monitors < r
                and (here != north or r > last_crown)
                and rng.random() < 0.5
            ):
                kind = "cut"
            elif (
                stays
                and case is not None
                and here not in facts.emptied
                and r == facts.rounds >= 2
                and not facts.latest_spotted
                and (not case.vault or north in cut)
                and rng.random() < 0.5
            ):
                kind = "lift"
        if kind == "lift":
            yield Lift()
        elif kind == "pick":
            open_exits.add(here)
            yield Pick()
        elif kind == "cut":
            cut.add(here)
            yield Cut() if stays else Walk(coord(here), THEN_CUT)
        else:
            yield Hold() if stays else Walk(coord(here))
        # A guard's check on a square locks its exit and puts its cut right.
        for sq in [sq for sq in open_exits | cut if r in facts.checked.get(sq, ())]:
            open_exits.discard(sq)
            cut.discard(sq)


def replay(plan: FloorPlan, state: State, actions: list[Any]) -> State | None:
    """The state after the posts, ``actions`` for the Thief and the guard moves of
    ``state``, applied by the rules; ``None`` if a Thief action is not legal or
    the heist ends on the way."""
    rng = Rng(0)  # the rules draw nothing after setup
    out = State(players=state.players, display=list(state.display), dawn=DAWN)
    moves = state.trail.guards
    for i in range(GUARDS):
        apply(out, 2, Post(i + 1, coord(moves[i]), state.guard_seats[i]), rng)
    apply(out, THIEF_SEAT, actions[0], rng)
    n = GUARDS
    for act in actions[1:]:
        if not thief_may(plan, out, act):
            return None
        apply(out, THIEF_SEAT, act, rng)
        for i in range(GUARDS):
            if out.phase == OVER or n == len(moves):
                break
            apply(out, out.guard_seats[i], MoveGuard(i + 1, coord(moves[n])), rng)
            n += 1
        if out.phase == OVER:
            return None
    return out


def thief_may(plan: FloorPlan, state: State, act: Any) -> bool:
    """Whether ``act`` is among ``rules.thief_actions`` now, for the kinds a draw
    makes, without listing every legal action (that took half of the replay)."""
    here = state.thief
    match act:
        case Walk(to=to, then=then):
            square = parse_coord(to)
            if square not in walk_targets(plan, state):
                return False
            return then is None or (then == THEN_CUT and can_cut(plan, state, square))
        case Hold():
            return True
        case Lift():
            case = plan.case_at(here)
            return case is not None and case.index not in state.taken
        case Pick():
            return plan.exit_at(here) is not None and here not in state.open_exits
        case Cut():
            return can_cut(plan, state, here)
    return False
