"""One automatic twin played beside the real match: the spine it forks from, the
copies of a match, a generator with one draw changed, and :class:`_TwinRun`, which
steps both and compares every surface until the seat tells them apart."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ..errors import TitleError
from ..ismcts import IsmctsBot, SearchOptions
from ..match import Match
from ..registry import Registry
from ..rng import Rng, derive_seed
from ..title import Title
from .play import kit_bots
from .probes import _perturbed, _Probes
from .twins import (
    REPLAYED,
    RESAMPLED,
    RESAMPLED_OWN,
    SURFACES,
    TwinStats,
    _bump,
    _who,
    difference,
    refusal,
    surfaces,
)
from .watch import _doing


def _position(rng: Rng) -> Any:
    """Where a generator is in its stream (to see whether a step drew from it)."""
    legacy = rng._legacy
    return legacy.getstate() if legacy is not None else (rng._next_block, rng._pos)


#: Twins per match in which every bot's choice and the search's hint are compared
#: (each a search from two positions: the costliest check).
CHOICES = 6


def _spine(
    title: Title[Any],
    players: int,
    seed: int,
    config: Mapping[str, Any] | None,
    bot: Any = None,
) -> tuple[Match, _Probes, list[int]]:
    """A match played by random legal actions (like :func:`random_match`) or, given
    ``bot`` (a factory), by that bot in every seat; the probes (a few legal actions
    of every awaited seat at every step, and their near misses); and the steps
    before which the rules drew chance (a die, a card taken at random)."""
    match = Match(title, players, seed, config)
    # Built once here and shared by every copy and replay of the spine (its twins).
    _ = match.observation_spec
    rng = Rng(derive_seed(seed, "kit"))
    bots = {s: bot(s, players) for s in range(1, players + 1)} if bot is not None else {}
    to_json = title.codec.to_json
    probes = _Probes()
    chance: list[int] = []
    while match.awaiting:
        if match.step >= title.max_actions:
            raise AssertionError(f"{title.name} did not end within max_actions={title.max_actions}")
        for s in match.awaiting:
            legal = match.legal_actions(s)
            for act in rng.sample(legal, min(2, len(legal))):
                as_json = to_json(act)
                for probe in [as_json, *_perturbed(as_json)]:
                    probes.add(probe)
        seat = rng.choice(match.awaiting)
        _doing(f"{title.name}: random play, seat {seat}")
        before = _position(match._rng)
        if bots:
            match.take_bot_turn(seat, bots[seat], rng)
        else:
            match.submit(seat, rng.choice(match.legal_actions(seat)))
        if _position(match._rng) != before:
            chance.append(match.step - 1)
    return match, probes, chance


def _copy(base: Match) -> Match:
    """A match as ``base`` stands now (same log, history, state and generator
    position) sharing nothing that changes: copied directly where the core runs as
    plain Python, replayed from the log where it is compiled."""
    try:
        twin = copy.copy(base)
        twin._rng = copy.copy(base._rng)
    except TypeError:  # a compiled Match or Rng
        return base.at(base.step)
    twin._state = base.title.copy_state(base._state)
    twin._log = list(base._log)
    twin._events = list(base._events)
    twin._lines = {}
    # The same state has the same legal actions: the copy starts with the ones
    # worked out already (legal actions are costly in some titles, and every twin
    # and every step tried in moved.py submits to a fresh copy).
    twin._legal = dict(base._legal)
    return twin


def _around(base: Match, state: Any, rng: Rng | None = None) -> Match:
    """``base`` as it stands (same log, history and generator state), with ``state``
    in place of its own and, if given, ``rng`` as its generator from now on: a twin
    match, which cannot be saved as a log."""
    twin = _copy(base)
    twin._state = state
    if rng is not None:
        twin._rng = rng
    twin._awaiting = None
    twin._legal.clear()
    return twin


class _OneDrawChanged:
    """A generator that draws what ``rng`` draws, except its draw number ``which``
    (counting from 0), which comes out otherwise: the twin of a chance step whose
    other outcomes (the dice everyone sees) stay as they were while one (the card
    taken at random) may differ. Only plain-Python matches take it."""

    def __init__(self, rng: Rng, which: int, shift: int = 1) -> None:
        self._rng = rng
        self._left = which
        self._shift = shift
        self.seed = rng.seed
        self.generator = rng.generator

    def _changed(self) -> bool:
        self._left -= 1
        return self._left == -1

    def randbelow(self, n: int) -> int:
        value = self._rng.randbelow(n)
        return (value + self._shift) % n if self._changed() else value

    def randrange(self, stop: int) -> int:
        return self.randbelow(stop)

    def randint(self, low: int, high: int) -> int:
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        value = self._rng.random()
        return (value + 0.5) % 1.0 if self._changed() else value

    def word(self) -> int:
        value = self._rng.word()
        return value ^ 1 if self._changed() else value

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        self._rng.shuffle(items)
        if self._changed() and len(items) > 1:
            items[0], items[1] = items[1], items[0]

    def sample(self, items: Sequence[Any], k: int) -> list[Any]:
        drawn = self._rng.sample(items, k)
        if self._changed() and len(drawn) > 1:
            drawn[0], drawn[1] = drawn[1], drawn[0]
        return drawn

    def fork(self, label: str) -> Rng:
        return self._rng.fork(label)


def _twin_bots(title: Title[Any], registry: Registry | None) -> dict[str, Any]:
    """The bots whose choices twins must share (every bot but the search, which
    the hint check runs in full), as the kit runs them."""
    if registry is None:
        registry = Registry()
        registry.add_title(title)
    return {name: f for name, f in kit_bots(registry, title).items() if name != "ismcts"}


def _hint(match: Match, seat: int, seed: int) -> dict[str, Any]:
    """What the search bot makes of ``seat``'s position, as ``gameweave play``'s
    ``hint`` does (the title's search settings, at the kit's cheap budget): the
    action it recommends and every root action's visits and mean reward."""
    title = match.title
    options = SearchOptions.for_title(
        title, seat, match.players, iterations=4, rollout_limit=12, budget=None
    )
    result = IsmctsBot(title, seat, match.players, options).search(match.observe(seat), Rng(seed))
    to_json = title.codec.to_json
    return {
        "action": to_json(result.action),
        "choices": [[to_json(c.action), c.visits, round(c.mean, 9)] for c in result.choices],
    }


def _draw(title: Title[Any], state: Any, seat: int | None, seed: int, who: str, step: int) -> Any:
    """The snapshot of what ``resample`` draws for ``seat`` from ``state`` with one
    seed, checking that it leaves ``state`` untouched and returns a new object."""
    before = title.snapshot(state)
    _doing(f"{title.name}: resample for {who} at step {step}")
    drawn = title.resample(state, seat, Rng(seed))
    assert title.snapshot(state) == before, (
        f"{title.name}: resample for {who} at step {step} changed the state it was given"
    )
    assert drawn is not state, f"{title.name}: resample returned the state it was given"
    return drawn


@attrs.define
class _Shared:
    """What every twin of one spine shares: the bot choices and hints left to compare
    (a search is not cheap), and what the real match showed each seat at each step.
    The real match of every twin plays the spine's own actions, so at a given step
    it is the same match whichever twin it goes beside; its surfaces but the events
    (read since the fork) and the refusals (of probes each twin draws) are worked
    out once per step and seat and kept here (most of the kit's time was the real
    side's surfaces, worked out again beside every twin)."""

    choices: int = CHOICES
    real: dict[tuple[int, int | None], dict[str, Any]] = attrs.field(factory=dict)

    def surfaces(
        self, real: Match, seat: int | None, since: int, probes: Sequence[Any]
    ) -> dict[str, Any]:
        """:func:`surfaces` of the real match (at the spine's step ``real.step``)."""
        key = (real.step, seat)
        kept = self.real.get(key)
        if kept is None:
            kept = self.real[key] = surfaces(real, seat, real.step)
        out = dict(kept)
        out["events"] = real.events(seat, since)
        if seat is not None:
            out["refusals"] = [refusal(real, seat, p) for p in probes]
        return out


@attrs.define
class _TwinRun:
    """One twin for one seat, from one fork step of the spine, played on beside the
    real match (see :func:`check_resampled_twins`)."""

    spine: Match
    fork: int
    seat: int | None
    rng: Rng
    probes: _Probes
    bots: dict[str, Any]
    drive: int
    shown: int
    stats: TwinStats = attrs.field(factory=TwinStats)
    how: str = ""
    last: str = ""
    #: Steps left at which the twin's state is compared with the real one, to check
    #: resample draws, bots and the hint there once the two states differ.
    looks: int = 3
    #: A replayed twin: the real state itself, going on with other chance.
    replay: bool = False
    #: Whether the twin's state may still be the real one (a replayed twin before its
    #: chance or choices differ: nothing to compare yet).
    same: bool = False
    #: Whether the last step played another seat's action in the twin than in the
    #: real match.
    swapped: bool = False
    #: Steps after the fork in which other seats play as they did in the spine (no
    #: choice swapped), so that the twin follows the spine into a rare action.
    calm: int = 0
    #: What the twins of this spine share (see :class:`_Shared`).
    shared: _Shared = attrs.field(factory=_Shared)

    @property
    def title(self) -> Title[Any]:
        return self.spine.title

    @property
    def who(self) -> str:
        return _who(self.seat)

    def fail(self, message: str) -> None:
        raise AssertionError(f"{self.title.name}: {message}; twin {self.how}{self.last}")

    def resampled(self, base: Match, own_generators: float) -> tuple[Match, Match]:
        """The real match at the fork (a copy of ``base``, the spine there) and a twin
        around a state resample draws there, checking the hook's contract."""
        title, seat, who, fork = self.title, self.seat, self.who, self.fork
        real = _copy(base)
        state = real._state
        seed = derive_seed(self.rng.seed, "resample")
        drawn = _draw(title, state, seat, seed, who, fork)
        mine = title.snapshot(drawn)
        again = title.snapshot(_draw(title, state, seat, seed, who, fork))
        assert mine == again, (
            f"{title.name}: resample for {who} at step {fork} is not deterministic: one state "
            f"and one generator gave different states ({difference(mine, again)})"
        )
        self.stats.redrawn += mine != title.snapshot(state)
        other = title.snapshot(_draw(title, state, seat, derive_seed(seed, "other"), who, fork))
        self.stats.varied += other != mine
        # Half the twins go on with the real match's generator state, so later chance
        # agrees and the worlds stay alike for longer; the other half with a generator
        # of their own, so chance drawn after the fork (a hidden card dealt, dice
        # re-rolled out of sight) differs too, and a leak of it can show.
        fresh = self.rng.random() < own_generators
        own = Rng(derive_seed(self.rng.seed, "generator"), real.generator) if fresh else None
        made = RESAMPLED_OWN if fresh else RESAMPLED
        _bump(self.stats.made, made)
        self.how = f"drawn by resample for {who} at step {fork}" + (
            ", with a generator of its own" if fresh else ""
        )
        return real, _around(real, drawn, own)

    def replayed(self, base: Match) -> tuple[Match, Match]:
        """The real match at the fork and a copy of it (the true state, not a drawn
        one) that goes on with a generator of its own: a twin history, whose chance
        after the fork differs, as do the other seats' choices now and then."""
        real, twin = _copy(base), _copy(base)
        twin._rng = Rng(derive_seed(self.rng.seed, "generator"), real.generator)
        _bump(self.stats.made, REPLAYED)
        self.replay = self.same = True
        self.how = f"replayed for {self.who} from step {self.fork} with a generator of its own"
        return real, twin

    def play(self, real: Match, twin: Match) -> TwinStats:
        """Compare, step, compare, ... until the seat tells the worlds apart, the
        match ends or ``drive`` steps are done."""
        stats, seat, fork = self.stats, self.seat, self.fork
        stats.twins += 1
        while True:
            if self.replay and self.seen_choice(real, twin):
                return stats
            if self.same and self.identical(real, twin):
                if not real.awaiting or real.step - fork >= self.drive:
                    _bump(stats.ended, "never differed from the real match")
                    return stats
                self.step(real, twin)
                continue
            shown = self.probes.draw(real, seat, self.shown, self.rng)
            _doing(f"{self.title.name}: comparing a twin for {self.who} at step {real.step}")
            mine = self.shared.surfaces(real, seat, fork, shown)
            theirs = surfaces(twin, seat, fork, shown)
            if mine["view"] != theirs["view"]:
                self.views_differ(real, twin, mine["view"], theirs["view"])
                return stats
            stats.comparisons += 1
            for name in SURFACES:
                if name in mine and mine[name] != theirs[name]:
                    self.fail(
                        f"{self.who} can tell a twin from the real match at step {real.step} "
                        f"by its {name}, while its views are equal "
                        f"({difference(mine[name], theirs[name])})"
                    )
            self.look(real, twin)
            if not real.awaiting:
                _bump(stats.ended, "reached the end of the match")
                return stats
            if real.step - fork >= self.drive:
                _bump(stats.ended, f"stayed alike for {self.drive} steps")
                return stats
            self.step(real, twin)

    def seen_choice(self, real: Match, twin: Match) -> bool:
        """In a replayed twin, another seat's choice was swapped at the last step and
        the seat received something different: that choice was not secret from it,
        and the twin ends (its states were alike before, so the difference comes from
        the choice; a choice told more widely than it should be is left to the
        resampled twins, which hold every difference to account)."""
        if not self.swapped:
            return False
        step = real.step
        if real.events(self.seat, step - 1) == twin.events(self.seat, step - 1):
            return False
        _bump(self.stats.ended, "told apart by another seat's choice")
        return True

    def identical(self, real: Match, twin: Match) -> bool:
        """Whether a replayed twin is still the real match (same state, same events
        at the last step), so that comparing it would prove nothing."""
        step = real.step
        told = real.events(self.seat, step - 1) != twin.events(self.seat, step - 1)
        title = self.title
        if told or title.snapshot(real._state) != title.snapshot(twin._state):
            self.same = False
        return self.same

    def views_differ(self, real: Match, twin: Match, mine: Any, theirs: Any) -> None:
        """The seat's views differ: legitimate only if what it received differed
        too, at this very step (before it, everything was equal)."""
        who, step, diff = self.who, real.step, difference(mine, theirs)
        if step == self.fork:
            self.fail(
                f"{who}'s view differs between the match and the state resample drew for "
                f"{who} at step {step} ({diff}): the view shows something {who} has not "
                f"observed (a leak), or resample changed something {who} knows"
            )
        got, got_twin = real.events(self.seat, step - 1), twin.events(self.seat, step - 1)
        if got == got_twin:
            self.fail(
                f"{who}'s view differs from a twin's at step {step} ({diff}), though "
                f"everything {who} received and did up to that step is the same in both: "
                f"the view tells {who} something no event told it (a leak, or a reveal "
                "without an event saying it)"
            )
        texts = [e["text"] for e in got] != [e["text"] for e in got_twin]
        self.stats.told_apart += 1
        _bump(self.stats.ended, f"told apart by its {'history' if texts else 'events'}")
        _bump(self.stats.depth, step - self.fork)

    def look(self, real: Match, twin: Match) -> None:
        """Where the twin's state differs from the real one while the seat cannot tell
        them apart: the same seed must draw the same state from either (resample
        depends only on what the seat knows), every bot must choose alike and the
        search's hint must be the same."""
        if self.looks <= 0:
            return
        self.looks -= 1
        title, seat, step = self.title, self.seat, real.step
        if title.snapshot(real._state) == title.snapshot(twin._state):
            return
        seed = derive_seed(self.rng.seed, f"look:{step}")
        if title.can_resample:
            a = title.snapshot(_draw(title, real._state, seat, seed, self.who, step))
            b = title.snapshot(_draw(title, twin._state, seat, seed, self.who, step))
            if a != b:
                self.fail(
                    f"resample for {self.who} depends on more than {self.who} knows: from the "
                    f"real state and from a twin's, which {self.who} cannot tell apart at step "
                    f"{step}, one seed drew different states ({difference(a, b)})"
                )
            self.stats.draws += 1
        if seat is None or seat not in real.awaiting:
            return
        self.looks = 0  # bots and the hint once per twin, a few twins a match
        if self.shared.choices <= 0:
            return
        self.shared.choices -= 1
        for name, factory in self.bots.items():
            _doing(f"{title.name}: bot {name!r} for {self.who} at step {step}")
            a = _answer(title, factory, real, seat, seed)
            b = _answer(title, factory, twin, seat, seed)
            if a != b:
                self.fail(
                    f"bot {name!r} in {self.who} chose {a} in the real match and {b} in a twin "
                    f"{self.who} cannot tell apart, at step {step}, with one seed"
                )
            self.stats.choices += 1
        if title.can_resample:
            _doing(f"{title.name}: the hint for {self.who} at step {step}")
            a, b = _hint(real, seat, seed), _hint(twin, seat, seed)
            if a != b:
                self.fail(
                    f"the hint (the ismcts search from {self.who}'s seat, with one seed) "
                    f"differs between the real match and a twin {self.who} cannot tell "
                    f"apart, at step {step} ({difference(a, b)}): resample depends on more "
                    f"than {self.who} knows"
                )
            self.stats.hints += 1

    def step(self, real: Match, twin: Match) -> None:
        """One more action in both. The real match goes on as the spine did (so a
        twin forked just before a rare action sees it played); in the twin the seat
        plays the same action, and another seat the same, or a third of the time any
        action legal in the twin (what another seat chooses may be its secret)."""
        title, rng, seat = self.title, self.rng, self.seat
        actor, act = self.spine._log[real.step]
        other = act
        if actor != seat:
            legal = twin.legal_actions(actor)
            if not legal:
                self.fail(f"seat {actor} is awaited at step {twin.step} but has no legal action")
            swap = real.step - self.fork >= self.calm and rng.random() < 1 / 3
            if act not in legal or swap:
                other = rng.choice(legal)
        self.swapped = other != act
        to_json = title.codec.to_json
        self.last = f"; last action: seat {actor} {to_json(act)}"
        if other != act:
            self.last += f" (in the twin {to_json(other)})"
        _doing(f"{title.name}: a twin for {self.who}, seat {actor}")
        real.submit(actor, act)
        try:
            twin.submit(actor, other)
        except TitleError as exc:
            self.fail(f"the rules raised in the twin (is the drawn state consistent?): {exc}")


def _answer(title: Title[Any], factory: Any, match: Match, seat: int, seed: int) -> Any:
    answer = factory(seat, match.players).act(match.observe(seat), Rng(seed))
    codec = title.codec
    return codec.to_json(answer if type(answer) in codec.classes else codec.from_json(answer))
