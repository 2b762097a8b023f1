"""Twins of the steps where hidden state moved: the kit's budget spent where leaks hide.

Every step of a match is tried with one thing changed: one of its chance draws
coming out otherwise (another card taken at random, the dice alike), or the acting
seat choosing another action of the same kind (another card dropped face down).
Where the state then differs while some seat (or the spectator) receives exactly
what it received, something moved that it was not told: the step's twin for that
seat is where a leak of it shows. Trying a step costs one action applied; only the
steps where something hidden moved are played on as twins, the rarest kinds of
step first (a robbery among many draws from the deck)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..match import Match
from ..registry import Registry
from ..rng import Rng, derive_seed
from ..title import Title
from .play import observers
from .probes import _Probes
from .twinrun import _copy, _OneDrawChanged, _Shared, _spine, _twin_bots, _TwinRun
from .twins import CHANCE, CHOICE, TwinStats, _bump

#: Twins made at a chance step by changing one of its draws: the first this many.
CHANCE_DRAWS = 4
#: The other outcomes tried for a changed draw (a whole number drawn one more, two
#: more, ... than it was), until one keeps what the seat receives the same.
CHANCE_SHIFTS = 3
#: Steps where hidden state moved whose twins are played, at most, per match (the
#: rarest kinds of step first); every step is tried.
CHANCE_STEPS = 8
#: Other actions of the kind the acting seat played tried at each step, at most.
CHOICE_TRIES = 2
#: Steps a twin of a moved step is played on, at most (a leak of what moved shows
#: at once, or when the next thing is told).
MOVED_DRIVE = 6


@attrs.define
class _Moved:
    """A step where something moved that some observers were not told."""

    step: int
    how: str
    label: str
    real: Match
    twin: Match
    alike: list[int | None]
    #: What kind of step it is (the action's kind and the kinds of event it made):
    #: the rarest kinds are played first.
    kind: str


def _kind(match: Match, step: int, act: Any) -> str:
    events = sorted({str(e.get("kind")) for o in observers(match) for e in match.events(o, step)})
    return f"{act.get('type') if isinstance(act, dict) else type(act).__name__}:{events}"


def _told_alike(real: Match, twin: Match, step: int, who: list[int | None]) -> list[int | None]:
    """The observers of ``who`` that received the same at ``step`` in both."""
    return [o for o in who if real.events(o, step) == twin.events(o, step)]


def _chance_moves(at: Match, step: int, actor: int, act: Any, real: Match) -> list[_Moved]:
    """The step with one of its first draws coming out otherwise (see
    :class:`~gameweave_core.testing.twinrun._OneDrawChanged`): for each draw, the
    first shift that keeps some observer told the same while the state differs."""
    title = real.title
    mine = title.snapshot(real._state)
    found: list[_Moved] = []
    for which in range(CHANCE_DRAWS):
        changed: _OneDrawChanged | None = None
        for shift in range(1, CHANCE_SHIFTS + 1):
            twin = _copy(at)
            changed = _OneDrawChanged(twin._rng, which, shift)
            try:
                twin._rng = changed  # type: ignore[assignment]
            except TypeError:  # a compiled match takes no generator but the core's
                return found
            twin.submit(actor, act)
            if changed._left >= 0 or title.snapshot(twin._state) == mine:
                break  # the step drew no such draw, or it changed nothing
            alike = _told_alike(real, twin, step, observers(real))
            if alike:
                how = f"chance draw {which} of the step coming out otherwise (+{shift})"
                label = f"chance:{step}:{which}:{shift}"
                found.append(_Moved(step, how, label, real, twin, alike, ""))
                break  # one twin of each draw is enough
        if changed is not None and changed._left >= 0:
            break  # no draw this far into the step: none further either
    return found


def _choice_moves(
    at: Match, step: int, actor: int, act: Any, real: Match, rng: Rng
) -> list[_Moved]:
    """The step with the acting seat choosing another legal action of the same kind,
    where the other observers are told the same and the state differs."""
    title = real.title
    to_json = title.codec.to_json
    played = to_json(act)
    others = [a for a in at.legal_actions(actor) if a != act and type(a) is type(act)]
    mine = title.snapshot(real._state)
    found: list[_Moved] = []
    for alt in rng.sample(others, min(CHOICE_TRIES, len(others))):
        twin = _copy(at)
        twin.submit(actor, alt)
        if title.snapshot(twin._state) == mine:
            continue
        alike = _told_alike(real, twin, step, [o for o in observers(real) if o != actor])
        if alike:
            how = f"seat {actor} playing {to_json(alt)} instead of {played}"
            found.append(_Moved(step, how, f"choice:{step}", real, twin, alike, ""))
            break
    return found


def _moves(spine: Match, chance: list[int], seed: int) -> list[_Moved]:
    """Every step of ``spine`` where something moved that some observer was not told,
    trying each once (one replay of the match)."""
    rng = Rng(derive_seed(seed, "moved"))
    drawn = set(chance)
    found: list[_Moved] = []
    for at in spine.steps():
        step = at.step
        if step >= spine.step:
            break
        actor, act = spine._log[step]
        real = _copy(at)
        real.submit(actor, act)
        here = _chance_moves(at, step, actor, act, real) if step in drawn else []
        here += _choice_moves(at, step, actor, act, real, rng)
        kind = _kind(real, step, spine.title.codec.to_json(act))
        for move in here:
            move.kind = kind
        found += here
    return found


def _rarest_first(moves: list[_Moved], count: int, rng: Rng) -> list[_Moved]:
    """Up to ``count`` of ``moves``: one of each kind in turn, the rarest kinds first."""
    kinds: dict[str, list[_Moved]] = {}
    for move in moves:
        kinds.setdefault(move.kind, []).append(move)
    order = sorted(kinds, key=lambda k: (len(kinds[k]), k))
    for k in order:
        rng.shuffle(kinds[k])
    chosen: list[_Moved] = []
    while len(chosen) < count and any(kinds[k] for k in order):
        for k in order:
            if kinds[k] and len(chosen) < count:
                chosen.append(kinds[k].pop())
    return sorted(chosen, key=lambda m: m.step)


def moved_twins(
    spine: Match,
    chance: list[int],
    seed: int,
    pool: _Probes,
    bots: dict[str, Any],
    drive: int,
    probes: int,
    shared: _Shared,
    steps: int = CHANCE_STEPS,
) -> TwinStats:
    """Twins of up to ``steps`` steps of ``spine`` where hidden state moved (see the
    module), for every observer told the same there, each played on for up to
    :data:`MOVED_DRIVE` steps (``drive`` if less) as any twin is."""
    made = TwinStats()
    rng = Rng(derive_seed(seed, "moved:order"))
    make: Callable[[_Moved, int | None], _TwinRun] = lambda move, seat: _TwinRun(  # noqa: E731
        spine,
        move.step,
        seat,
        Rng(derive_seed(seed, f"{move.label}:{seat}")),
        pool,
        bots,
        min(drive, MOVED_DRIVE),
        probes,
    )
    for move in _rarest_first(_moves(spine, chance, seed), steps, rng):
        for seat in move.alike:
            run = make(move, seat)
            run.shared = shared
            run.how = f"replayed for {run.who} from step {move.step} with {move.how}"
            _bump(run.stats.made, CHANCE if move.label.startswith("chance") else CHOICE)
            made.add(run.play(_copy(move.real), _copy(move.twin)))
    return made


#: The environment variable that makes the kit go deeper: a whole number, the factor
#: every check's examples (and the matches the moved-step twins are drawn from) are
#: multiplied by, for a nightly run (``make kit-deep`` sets it to 5). Unset: 1.
DEPTH_ENV = "GAMEWEAVE_KIT_DEPTH"


def depth() -> int:
    """The factor :data:`DEPTH_ENV` sets (1 when unset); a value that is not a whole
    number of at least 1 is refused in one line."""
    raw = os.environ.get(DEPTH_ENV, "").strip()
    if not raw:
        return 1
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{DEPTH_ENV} must be a whole number of at least 1, not {raw!r}")
    return value


#: Matches played by the title's own bot per example of ``test_secrets_are_kept``
#: whose moved steps are checked besides the example's own twins (bots reach what
#: random play rarely does: a robbery of a hand the table has seen).
MOVED_SPINES = 1


def check_moved_twins(
    title: Title[Any],
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    *,
    registry: Registry | None = None,
    probes: int = 3,
) -> TwinStats:
    """A match played by the title's default bot in every seat (by random legal
    actions when it has no bot of its own), and the twins of the steps of it where
    hidden state moved (see :func:`moved_twins`): the kit's cheapest look at where
    leaks hide, run on more matches than the full twins."""
    bots = _twin_bots(title, registry)
    bot = bots.get(title.default_bot) if title.default_bot != "random" else None
    spine, pool, chance = _spine(title, players, seed, config, bot)
    stats = TwinStats(bot_spines=int(bot is not None))
    stats.add(moved_twins(spine, chance, seed, pool, bots, MOVED_DRIVE, probes, _Shared(choices=0)))
    return stats
