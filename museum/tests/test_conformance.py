"""The testing kit, run on The Museum Job, with twins for non-interference.

A twin pair differs only in what Security has not observed: the exit the Thief
forced, the squares they walked to out of every guard's sight, exits they picked
and cameras or breakers they cut that nobody has found. Guards either stay or move
where they cannot see either Thief and touch nothing the Thief may have changed,
and nobody sits in the Security Office, so nothing is revealed by a rule.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from gameweave_core import Match
from gameweave_core.testing import TitleConformance, Twin, seeds
from gameweave_museum import MuseumJob
from gameweave_museum.actions import Enter, Escape, Lift, MoveGuard, Walk
from gameweave_museum.floorplan import coord, parse_coord, quayside_palace

TITLE = MuseumJob()
PLAN = quayside_palace()


def _unseen(square: int, guards: list[int]) -> bool:
    return all(square not in PLAN.sight[g] for g in guards)


def _thief_choices(match: Match, thief: int, guards: list[int]) -> list[Any]:
    """Thief actions that cannot be noticed before the twin ends."""
    out = []
    for act in match.legal_actions(1):
        if isinstance(act, (Lift, Escape)):
            continue
        walked = isinstance(act, Walk)
        if walked and (act.then == "escape" or not _unseen(parse_coord(act.to), guards)):
            continue
        out.append(act)
    return out


@st.composite
def unseen_thieves(draw: st.DrawFn) -> Twin:
    players = draw(st.integers(2, 4))
    seed = draw(seeds)
    a, b = Match(TITLE, players, seed), Match(TITLE, players, seed)
    setup: list[tuple[int, Any]] = []
    while a.awaiting and a.legal_actions(2) and a.awaiting == (2,):
        act = draw(st.sampled_from(list(a.legal_actions(2))))
        a.submit(2, act)
        b.submit(2, act)
        setup.append((2, act))
    guards = [parse_coord(g["at"]) for g in a.view(None)["guards"]]
    hidden = [e.square for e in PLAN.exits if _unseen(e.square, guards)]
    entry_a, entry_b = draw(st.lists(st.sampled_from(hidden), min_size=2, max_size=2, unique=True))
    actions_a = [*setup, (1, Enter(coord(entry_a)))]
    actions_b = [*setup, (1, Enter(coord(entry_b)))]
    a.submit(1, Enter(coord(entry_a)))
    b.submit(1, Enter(coord(entry_b)))
    touchy = {e.square for e in PLAN.exits} | set(PLAN.office)
    touchy |= {c.square for c in PLAN.cameras} | set(PLAN.breakers.values())
    for _ in range(draw(st.integers(1, 5))):
        for match, actions in ((a, actions_a), (b, actions_b)):
            act = draw(st.sampled_from(_thief_choices(match, 1, guards)))
            match.submit(1, act)
            actions.append((1, act))
        thieves = [m.view(1)["thief"]["at"] for m in (a, b)]
        thief_squares = {parse_coord(t) for t in thieves}
        for index in range(3):
            seat = a.awaiting[0]
            safe = [
                act
                for act in a.legal_actions(seat)
                if isinstance(act, MoveGuard)
                and (to := parse_coord(act.to)) not in touchy
                and to not in thief_squares
                and all(t not in PLAN.sight[to] for t in thief_squares)
            ]
            stay = MoveGuard(index + 1, coord(guards[index]))
            act = draw(st.sampled_from(safe)) if safe else stay
            guards[index] = parse_coord(act.to)
            for match, actions in ((a, actions_a), (b, actions_b)):
                match.submit(seat, act)
                actions.append((seat, act))
    return Twin(
        players=players,
        seed=seed,
        actions_a=[(s, TITLE.codec.to_json(x)) for s, x in actions_a],
        actions_b=[(s, TITLE.codec.to_json(x)) for s, x in actions_b],
        seats=list(range(2, players + 1)),
    )


class TestMuseumConformance(TitleConformance):
    title = TITLE
    examples = 10

    def twins(self) -> st.SearchStrategy[Twin]:
        return unseen_thieves()
