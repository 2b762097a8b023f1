"""Worlds a seat cannot tell from the real one, given as a history the core can check.

A title's ``resample`` hook returns a *state*, and nothing generic can tell whether
some history could have led to it: a resample that deals a played card back into a
hand, or gives a suit to a seat that has shown it holds none, passes every check
that looks only at what the seat knows now. A **world** is given instead as what
made the match: the chance outcomes of every draw from the start (each the outcome
``randbelow(n)`` gave, as in :meth:`Match.explicit
<gameweave_core.match.Match.explicit>`) and, where other seats chose in secret, the
actions they might have chosen. The core replays the real match's actions with those
outcomes and choices and accepts the world only if the seat receives at every step
exactly what it received in the real match: the same view and the same events. The
state the replay ends in is then a state the seat cannot tell from the real one, by
construction.

A title offers worlds with the hook ``resample_world(state, seat, rng) -> World``
(beside ``resample``, which it can keep for speed); :func:`resampled_world` replays
and checks one, and the conformance kit checks every title that has the hook.
:func:`shuffle_outcomes` gives the outcomes that make :meth:`Rng.shuffle
<gameweave_core.rng.Rng.shuffle>` put a list in a chosen order: a deal the title
picked becomes chance outcomes; :func:`sample_outcomes` does the same for
:meth:`Rng.sample <gameweave_core.rng.Rng.sample>` (a :meth:`Rng.choice
<gameweave_core.rng.Rng.choice>`'s outcome is the index of the item chosen).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import attrs

from .errors import GameweaveError, IllegalAction, TitleError
from .match import Match

__all__ = [
    "InconsistentWorld",
    "World",
    "resampled_world",
    "sample_outcomes",
    "shuffle_outcomes",
]


@attrs.frozen
class World:
    """A world given as its history.

    ``chance`` is every chance outcome from the start of the match, in the order the
    rules draw them (setup first). ``choices`` maps a step number (1 for the first
    action) to the action another seat took there in this world, for choices the seat
    did not see; every other step keeps the real match's action."""

    chance: tuple[int, ...]
    choices: Mapping[int, Any] = attrs.field(factory=dict)


class InconsistentWorld(GameweaveError):
    """A world that does not reproduce what the seat received (one line: the step and
    what differs)."""


def shuffle_outcomes(items: Sequence[Hashable], arranged: Sequence[Hashable]) -> list[int]:
    """The chance outcomes that make ``Rng.shuffle(items)`` leave ``arranged``.

    The shuffle swaps position ``i`` (from the last down to 1) with position
    ``randbelow(i + 1)``; walking the same way, each outcome is where the item that
    must end at ``i`` stands then. ``arranged`` must hold the same items."""
    if sorted(map(repr, items)) != sorted(map(repr, arranged)):
        raise ValueError("shuffle_outcomes: the arranged items are not the items shuffled")
    work = list(items)
    out: list[int] = []
    for i in range(len(work) - 1, 0, -1):
        j = work.index(arranged[i], 0, i + 1)
        out.append(j)
        work[i], work[j] = work[j], work[i]
    return out


def sample_outcomes(items: Sequence[Hashable], chosen: Sequence[Hashable]) -> list[int]:
    """The chance outcomes that make ``Rng.sample(items, len(chosen))`` return
    ``chosen``, in its order.

    The sample swaps position ``i`` (from the first up) with position
    ``i + randbelow(len(items) - i)``; walking the same way, each outcome is how far
    past ``i`` the item that must come ``i``-th stands then. ``chosen`` must be
    distinct items of ``items``."""
    work = list(items)
    out: list[int] = []
    for i, item in enumerate(chosen):
        try:
            j = work.index(item, i)
        except ValueError:
            raise ValueError(
                f"sample_outcomes: {item!r} is not among the items left to sample"
            ) from None
        out.append(j - i)
        work[i], work[j] = work[j], work[i]
    return out


def resampled_world(real: Match, seat: int | None, world: World) -> Match:
    """Replay ``real`` (a :class:`~gameweave_core.match.Match`) in ``world``, as
    explicit chance, and return the replayed match if ``seat`` (``None``: a
    spectator) receives at every step what it received in ``real``; else raise
    :class:`InconsistentWorld` naming the first step that differs and how.

    The seat's own actions are never replaced. The real match is replayed beside the
    world from its log, so ``real`` itself is not touched."""
    title = real.title
    to_json = title.codec.to_json
    truth = real.fresh()
    dream = Match.explicit(title, real.players, real.config)
    outcomes = list(world.chance)
    used = 0

    def feed(step: int) -> None:
        nonlocal used
        while dream.is_chance_node:
            if used == len(outcomes):
                raise InconsistentWorld(
                    f"the world gives {len(outcomes)} chance outcomes, but step {step} draws more"
                )
            try:
                dream.apply_chance(outcomes[used])
            except IllegalAction as exc:
                raise InconsistentWorld(f"step {step}: chance outcome {used}: {exc}") from None
            used += 1

    def compare(step: int) -> None:
        seen, dreamt = truth.view(seat), dream.view(seat)
        if dreamt != seen:
            raise InconsistentWorld(
                f"{_who(seat)}'s view differs at step {step} ({_where(seen, dreamt)})"
            )
        if dream.events(seat, step - 1) != truth.events(seat, step - 1):
            mine = [e["text"] for e in truth.events(seat, step - 1)]
            theirs = [e["text"] for e in dream.events(seat, step - 1)]
            raise InconsistentWorld(
                f"{_who(seat)} is told otherwise at step {step} ({mine} in the match, "
                f"{theirs} in the world)"
            )

    feed(0)
    compare(0)
    for step, (actor, action) in enumerate(real.actions(), start=1):
        chosen = world.choices.get(step, action)
        if not isinstance(chosen, dict):
            chosen = to_json(chosen)
        if actor == seat and chosen != action:
            raise InconsistentWorld(f"the world changes {_who(seat)}'s own action at step {step}")
        try:
            dream.submit(actor, chosen)
        except (IllegalAction, TitleError) as exc:
            raise InconsistentWorld(
                f"step {step}: seat {actor}'s {chosen} is refused in the world ({exc})"
            ) from None
        feed(step)
        truth.submit(actor, action)
        compare(step)
    if used != len(outcomes):
        raise InconsistentWorld(
            f"the world gives {len(outcomes)} chance outcomes and the match draws {used}"
        )
    return dream


def _where(seen: Any, dreamt: Any, path: str = "") -> str:
    """Where two views first differ, and how: the path of keys and indexes down to
    the first differing value, with that value in the match and in the world."""
    if isinstance(seen, dict) and isinstance(dreamt, dict):
        for key in sorted(seen.keys() | dreamt.keys(), key=str):
            if key not in seen or key not in dreamt:
                has = "the match" if key in seen else "the world"
                return f"{path}[{key!r}] is only in {has}'s view"
            if seen[key] != dreamt[key]:
                return _where(seen[key], dreamt[key], f"{path}[{key!r}]")
    if isinstance(seen, list) and isinstance(dreamt, list) and len(seen) == len(dreamt):
        for i, (a, b) in enumerate(zip(seen, dreamt, strict=True)):
            if a != b:
                return _where(a, b, f"{path}[{i}]")
    return f"{path or 'the view'}: {_short(seen)} in the match, {_short(dreamt)} in the world"


def _short(value: Any, most: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"
