"""Automatic twins for a whole match (:func:`check_resampled_twins`): where to fork
them (random steps, then rare actions and chance steps when most end early) and
the twins of a chance step with one draw changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..match import Match
from ..registry import Registry
from ..rng import Rng, derive_seed
from ..title import Title
from .moved import MOVED_SPINES, check_moved_twins, depth, moved_twins
from .play import observers
from .twinrun import _copy, _Shared, _spine, _twin_bots, _TwinRun
from .twins import REPLAYED, RESAMPLED, TwinStats

#: A kind of action played at most this often in a match is rare: twins going
#: deeper fork before every play of it.
RARE = 3


def _deeper_forks(
    spine: Match, chance: list[int], used: list[int], rng: Rng
) -> tuple[list[int], list[int]]:
    """Where to fork more twins when most ended early: first just before every play
    of each rare kind of action in the spine (see :data:`RARE`) and one play of each
    other kind, the rarest kinds first (a rare action no twin reached is where a
    leak could hide: a theft, a window); then just before
    each step where the rules drew chance (a die rolled, a card taken at random:
    where a private outcome can differ while the public ones agree); then every
    other step, in a random order each. Returns the first group and the rest."""
    steps: dict[str, list[int]] = {}
    for step, (_, act) in enumerate(spine.actions()):
        steps.setdefault(str(act.get("type")), []).append(step)
    kinds = sorted(steps, key=lambda k: (len(steps[k]), k))
    rare: list[int] = []
    for kind in kinds:
        # Every play of a kind played at most three times; one of a commoner kind.
        plays = steps[kind] if len(steps[kind]) <= RARE else [rng.choice(steps[kind])]
        rare += [step for step in plays if step not in used and step not in rare]
    drawn = list(chance)
    rng.shuffle(drawn)
    rest = list(range(spine.step))
    rng.shuffle(rest)
    others: list[int] = []
    for step in [*drawn, *rest]:
        if step not in used and step not in rare and step not in others:
            others.append(step)
    return rare, others


#: How much further the kit goes when most twins end early: at most this many times
#: the comparisons the first twins made, in twins drawn at other steps.
DEEPER = 1

#: Twins ended early are those told apart (by what they received, or by another
#: seat's choice); when more than this share of a match's
#: twins are, the kit draws more (see ``check_resampled_twins``).
EARLY_SHARE = 0.5


def check_resampled_twins(
    title: Title[Any],
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    *,
    forks: int = 3,
    drive: int = 40,
    probes: int = 3,
    own_generators: float = 0.5,
    replayed: bool = True,
    deeper: bool | None = None,
    by_bots: float = 0.5,
    registry: Registry | None = None,
    moved_spines: int | None = None,
) -> TwinStats:
    """Automatic twins: secrecy checked on worlds a seat cannot tell apart.

    A match is played (the *spine*): by random legal actions or, for a share
    ``by_bots`` of the seeds, by the title's default bot in every seat when the
    title has a bot of its own (bots reach what random play rarely does: a thief
    robbing a rival whose cards the table has seen). At ``forks`` random steps, for
    every seat and the spectator, the kit builds twins of the match there: one
    around a state the title's :meth:`~Title.resample` draws for that seat (keeping
    the real generator, or for a share ``own_generators`` of them a generator of its
    own), and, with ``replayed``, one that is the real match itself going on with a
    generator of its own (a twin *history*: no resample involved). The real match
    then goes on as the spine did, for up to ``drive`` steps, and the twin with it:
    the seat itself plays the same action in both; another seat the same, or a
    third of the time any action legal in the twin (what it does may be its
    secret). After each step:

    - while the seat's views are equal, every other surface it receives (see
      :func:`surfaces`; refusals of ``probes`` kinds of illegal action, one each,
      and of the edges of its own legal actions) must be equal too;
    - when its views come to differ, what it received at that step (the events it
      may read, text, kind and data) must differ too: a view that changes though
      everything the seat received and did is the same tells it something nobody
      told it. Then the seat has told the worlds apart and the twin ends. (In a
      replayed twin, a step where another seat's choice was swapped and the seat
      received something different ends the twin: that choice was not secret.)

    Where a twin's state differs from the real one while the seat cannot tell them
    apart, ``resample`` with one seed must draw the same state from either (the draw
    depends only on what the seat knows), and every bot of the title (``registry``:
    where to find them) and the search's hint must choose alike with one seed. The
    hook must also leave its input untouched, give the same state from the same
    seed, differ from the real state now and then and vary with the seed.

    Replayed twins with one chance draw changed, or another choice of the acting
    seat, are made too where hidden state moved (see
    :mod:`~gameweave_core.testing.moved`; up to :data:`CHANCE_STEPS` steps, and as
    many in each of ``moved_spines`` more matches played by the title's bot: by
    default one, times the kit's depth). With ``deeper``, when more than half the
    twins end early (told apart), more are drawn (before rare actions first, then
    before chance steps, then anywhere) until they have made :data:`DEEPER` times
    the comparisons of the first ones. ``deeper`` unset: only in a deeper run (a
    :data:`~gameweave_core.testing.moved.DEPTH_ENV` above 1), as the moved-step
    twins now go where these went (chance steps, rare actions) for less.
    """
    if deeper is None:
        # Measured on the shipped titles: the deeper twins were a quarter to a third
        # of test_secrets_are_kept's CPU time and, with the moved-step twins in
        # place, caught no mutant of the kit's mutation tests that the rest missed.
        deeper = depth() > 1
    bots = _twin_bots(title, registry)
    spine_bot = bots.get(title.default_bot) if title.default_bot != "random" else None
    played = spine_bot is not None and Rng(derive_seed(seed, "spine")).random() < by_bots
    spine, pool, chance = _spine(title, players, seed, config, spine_bot if played else None)
    rng = Rng(derive_seed(seed, "twins"))
    stats = TwinStats(bot_spines=int(played))
    shared = _Shared()  # by every twin of the match
    steps = sorted({rng.randrange(spine.step + 1) for _ in range(forks)})

    # The spine as it stood at every step, from one replay (made when first needed):
    # twins fork at many steps, and replaying the match from the start for each was
    # much of the kit's time on long matches.
    stood: list[Match] = []

    def at(fork: int) -> Match:
        if not stood:
            stood.extend(_copy(m) for m in spine.steps())
        return stood[fork]

    def twins_at(fork: int, label: str, own: float, draws: int = 1, calm: int = 0) -> TwinStats:
        made = TwinStats()
        base = at(fork)
        for seat in observers(spine):
            kinds = [f"{RESAMPLED}:{n}" for n in range(draws)] if title.can_resample else []
            if replayed and fork < spine.step:
                kinds.append(REPLAYED)
            for kind in kinds:
                run = _TwinRun(
                    spine,
                    fork,
                    seat,
                    Rng(derive_seed(seed, f"{label}:{kind}:{fork}:{seat}")),
                    pool,
                    bots,
                    drive,
                    probes,
                    calm=calm,
                    shared=shared,
                )
                if kind == REPLAYED:
                    made.add(run.play(*run.replayed(base)))
                else:
                    made.add(run.play(*run.resampled(base, own)))
        return made

    for fork in steps:
        stats.add(twins_at(fork, "twin", own_generators))
    if replayed:
        stats.add(moved_twins(spine, chance, seed, pool, bots, drive, probes, shared))
    early = sum(n for why, n in stats.ended.items() if why.startswith("told apart"))
    if deeper and early > EARLY_SHARE * stats.twins:
        budget = DEEPER * stats.comparisons
        extra = TwinStats()
        rare, others = _deeper_forks(spine, chance, steps, rng)
        for fork in [*rare, *others]:
            if extra.comparisons >= budget:
                break
            # The resampled twins share the real generator here: the replayed ones
            # already bring other chance, and shared chance keeps public outcomes
            # (dice) alike while private ones (which card) may still differ. Before
            # a rare action, three are drawn for each seat and none swaps another
            # seat's choice for three steps, so the action is played in the twins.
            if fork in rare:
                extra.add(twins_at(fork, "deeper", 0.0, draws=3, calm=3))
            else:
                extra.add(twins_at(fork, "deeper", 0.0))
        extra.deeper = extra.twins
        stats.add(extra)
    # Where leaks hide: more matches played by the title's bot, whose steps where
    # hidden state moved are checked (cheaper than full twins, so more of them).
    for n in range(MOVED_SPINES * depth() if moved_spines is None else moved_spines):
        more = derive_seed(seed, f"moved spine {n}")
        stats.add(check_moved_twins(title, players, more, config, registry=registry))
    return stats
