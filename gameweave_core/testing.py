"""The conformance kit: checks any title can run in a few lines.

In a title's own tests::

    from gameweave_core.testing import TitleConformance

    class TestSealedBid(TitleConformance):
        title = SealedBid()

pytest then runs every ``test_*`` method below against the title: random legal
play always ends and never raises; a saved log replays to the same digests at
every step; views, legal actions and logs round-trip through JSON and TOML; junk,
out-of-turn and illegal actions are refused with a one-line reason and change
nothing; every bot plays whole games from its seat's observation alone; setup,
apply and every bot are deterministic and draw from no generator but the one the
core hands them, however rarely (a failure names the culprit, see
:func:`watching_randomness`); and secrets are kept: the kit builds twin matches
that a seat cannot tell apart (the match going on with other chance or other
secret choices, or around a state the title's resample hook draws) and checks
that the seat's view changes only with what it receives, that everything else it
receives follows its view, and that the resample hook, the bots and the search's
hint depend only on what it knows (see :func:`check_resampled_twins`), plus any
twins the test class declares.

The functions are usable on their own too, for titles tested another way. The kit
needs pytest and hypothesis only (the ``testing`` extra)."""

from __future__ import annotations

import copy
import enum
import itertools
import json
import os
import random
import sys
import threading
import time
import tomllib
import typing
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
import tomli_w
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from .errors import IllegalAction, TitleError
from .ismcts import IsmctsBot, SearchOptions
from .log import MatchLog
from .match import Match
from .registry import Registry, default_registry
from .rng import MAX_SEED, Rng, derive_seed
from .runner import BotSeat, run_bots
from .title import Title

#: Every seed a match may have, as a hypothesis strategy: ``@given(seed=seeds)``.
seeds = st.integers(min_value=0, max_value=MAX_SEED)

#: Arbitrary JSON, the raw material of junk actions.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def random_match(
    title: Title[Any],
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    steps: int | None = None,
) -> Match:
    """A match played by uniformly random legal actions, to the end or ``steps``."""
    match = Match(title, players, seed, config)
    rng = Rng(derive_seed(seed, "kit"))
    limit = title.max_actions
    while match.awaiting and (steps is None or match.step < steps):
        if match.step >= limit:
            raise AssertionError(f"{title.name} did not end within max_actions={limit}")
        seat = rng.choice(match.awaiting)
        legal = match.legal_actions(seat)
        assert legal, f"seat {seat} is awaited at step {match.step} but has no legal action"
        _doing(f"{title.name}: random play, seat {seat}")
        match.submit(seat, rng.choice(legal))
    return match


def snapshot_for(match: Match, seat: int | None) -> dict[str, Any]:
    """The heart of what ``seat`` receives: its view, legal actions and history
    (:func:`surfaces` gathers everything)."""
    return {
        "view": match.view(seat),
        "legal": match.legal_json(seat) if seat is not None else [],
        "history": match.history(seat),
    }


def observers(match: Match) -> list[int | None]:
    """Every seat of ``match`` in order, then ``None`` for a spectator."""
    return [*range(1, match.players + 1), None]


def check_ends(match: Match) -> None:
    """The match is over, with an outcome naming real seats."""
    result = match.outcome()
    assert result is not None, "random play stopped without an outcome"
    assert not match.awaiting, "the match has an outcome but still awaits seats"
    assert all(1 <= s <= match.players for s in result.winners), result
    json.dumps(result.to_json())


def check_replay(match: Match) -> None:
    """The saved log round-trips through TOML and replays to every recorded digest."""
    log = match.to_log()
    text = log.to_toml()
    again = MatchLog.from_toml(text)
    assert again == log, "the log changed on its way through TOML"
    registry = Registry()
    registry.add_title(match.title)
    rebuilt = Match.from_log(again, verify=True, registry=registry)
    assert rebuilt.digest() == match.digest()
    for seat in observers(match):
        assert snapshot_for(rebuilt, seat) == snapshot_for(match, seat)
    for step, entry in zip(range(1, len(log.actions) + 1), log.actions, strict=True):
        if step % 7 == 0 or step == len(log.actions):  # at() replays: sample the steps
            assert match.at(step).digest() == entry.digest, f"at({step}) disagrees with the log"


def check_round_trips(match: Match) -> None:
    """Every view, legal action and history line survives JSON and TOML, at every step."""
    codec = match.title.codec
    for state in match.steps():
        for seat in observers(state):
            payload = snapshot_for(state, seat)
            as_json = json.loads(json.dumps(payload))
            assert as_json == payload, f"the payload for seat {seat} is not plain JSON"
            as_toml = tomllib.loads(tomli_w.dumps(payload))
            assert as_toml == payload, f"the payload for seat {seat} does not survive TOML"
            events = state.events(seat)
            assert json.loads(json.dumps(events)) == events, (
                f"events for seat {seat} are not plain JSON"
            )
            for act in payload["legal"]:
                assert codec.to_json(codec.from_json(act)) == act


def fingerprint(match: Match) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged."""
    return (
        match.step,
        match.digest(),
        match.awaiting,
        tuple(len(match.history(s)) for s in observers(match)),
    )


def check_refused(match: Match, seat: Any, action: Any) -> str:
    """Submitting must raise :class:`IllegalAction` with a one-line reason and change
    nothing. Returns the reason."""
    before = fingerprint(match)
    with pytest.raises(IllegalAction) as caught:
        match.submit(seat, action)
    reason = str(caught.value)
    assert reason and "\n" not in reason, f"reason must be one line: {reason!r}"
    assert fingerprint(match) == before, "a refused action changed the match"
    return reason


# -- randomness the core did not hand out ----------------------------------------------


class UnseededDraw(Exception):
    """Raised into a title (or bot) that draws from a generator the core did not hand
    it, or reads the clock, while the kit watches (see :func:`watching_randomness`).
    Whatever the title does with it, the kit then fails naming the draw."""


#: Modules whose own use of a clock or a random generator is nobody's business here:
#: the test runners (hypothesis times its draws), logging (which stamps each record)
#: and tempfile (which names files).
_BYSTANDERS = ("hypothesis", "_hypothesis", "_pytest", "pytest", "pluggy", "logging", "tempfile")
#: Modules passed over when looking for who drew: the random module's own methods and
#: this module's wrappers.
_PASSED_OVER = frozenset({"random", __name__})
#: The clocks of the time module a title or bot must not read.
_CLOCKS = (
    "time",
    "time_ns",
    "monotonic",
    "monotonic_ns",
    "perf_counter",
    "perf_counter_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
)
#: The draws every Python generator is built on: refusing them refuses ``shuffle``,
#: ``choice``, ``randint``, ``sample``, ``uniform`` and the rest, of the global
#: generator and of any other ``random.Random`` or ``SystemRandom``.
_DRAWS = ("random", "getrandbits", "randbytes")
#: Where a draw from the project's own generator goes in (for :func:`only_generator`).
_RNG_DRAWS = ("word", "randbelow", "randrange", "randint", "random", "choice", "shuffle", "sample")


def _drawer() -> tuple[str, str] | None:
    """Who is drawing: the random module's function it called (empty if none) and
    ``file:line in function`` of the first frame outside the random module and this
    one; ``None`` when that frame is a bystander module's."""
    frame: Any = sys._getframe(2)
    entry = ""
    while frame is not None and frame.f_globals.get("__name__") in _PASSED_OVER:
        if frame.f_globals.get("__name__") == "random":
            entry = frame.f_code.co_name
        frame = frame.f_back
    if frame is None:
        return None
    module = str(frame.f_globals.get("__name__", ""))
    if module.split(".")[0] in _BYSTANDERS:
        return None
    where = f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} in {frame.f_code.co_name}"
    return entry, where


def _match_step() -> str:
    """`` at step N`` when a :class:`Match` applying an action is on the stack (the
    plain-Python build; a compiled match shows no frames)."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        me = frame.f_locals.get("self")
        if isinstance(me, Match) and frame.f_code.co_name in ("_apply", "_submit", "take_bot_turn"):
            return f" at step {me.step + 1}"
        frame = frame.f_back
    return ""


class _Watch:
    """The patches behind :func:`watching_randomness`, applied once however deeply
    the kit nests its watches, and what they caught."""

    def __init__(self) -> None:
        self.depth = 0
        self.doing = ""
        self.caught: list[str] = []
        self._undo: list[tuple[Any, str, Any]] = []
        #: The thread the kit runs the title in: the patches are process-wide, and
        #: another thread (an event loop left by an earlier test, a server's) may read
        #: the clock meanwhile without being the title's doing.
        self.thread: int | None = None

    def watching(self) -> bool:
        """Whether the caller runs in the thread being watched."""
        return threading.get_ident() == self.thread

    def refuse(self, what: str, drawer: tuple[str, str]) -> None:
        entry, caller = drawer
        doing = self.doing if " step " in self.doing else self.doing + _match_step()
        self.caught.append(f"{doing}: {what.format(entry=entry)} (called from {caller})")
        raise UnseededDraw(f"the conformance kit refuses {what.format(entry=entry)} here")

    def _patch(self, owner: Any, name: str, wrapper: Any) -> None:
        self._undo.append((owner, name, owner.__dict__.get(name, _ABSENT)))
        setattr(owner, name, wrapper)

    def _refusing(self, what: str, original: Any, method: bool) -> Any:
        watch = self
        name = getattr(original, "__name__", "draw")

        if method:

            def refused_method(obj: Any, *args: Any, **kwargs: Any) -> Any:
                if not watch.watching():
                    return original(obj, *args, **kwargs)
                drawer = _drawer()
                if drawer is not None:
                    drawer = (drawer[0] or name, drawer[1])
                    shared = obj is getattr(random, "_inst", None)
                    watch.refuse(
                        "the global random module (random.{entry})" if shared else what, drawer
                    )
                return original(obj, *args, **kwargs)

            return refused_method

        def refused(*args: Any, **kwargs: Any) -> Any:
            if not watch.watching():
                return original(*args, **kwargs)
            drawer = _drawer()
            if drawer is not None:
                watch.refuse(what, drawer)
            return original(*args, **kwargs)

        return refused

    def start(self) -> None:
        self.thread = threading.get_ident()
        for name in _DRAWS:
            # The module's functions are bound to the global generator; the classes'
            # methods cover every other generator and the module's Python methods.
            if hasattr(random, name):
                what = f"the global random module (random.{name})"
                self._patch(random, name, self._refusing(what, getattr(random, name), False))
            for cls in (random.Random, random.SystemRandom):
                if hasattr(cls, name):
                    what = f"a generator the core did not hand out ({cls.__name__}.{{entry}})"
                    self._patch(cls, name, self._refusing(what, getattr(cls, name), True))
        self._patch(os, "urandom", self._refusing("os.urandom", os.urandom, False))
        for name in _CLOCKS:
            if hasattr(time, name):
                what = f"the clock (time.{name})"
                self._patch(time, name, self._refusing(what, getattr(time, name), False))

    def stop(self) -> None:
        self.thread = None
        while self._undo:
            owner, name, before = self._undo.pop()
            if before is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, before)


_ABSENT = object()
_WATCH = _Watch()


@contextmanager
def watching_randomness(doing: str) -> Iterator[None]:
    """While the block runs, any draw from Python's global ``random`` module, from any
    other ``random.Random`` or ``SystemRandom``, ``os.urandom`` or a clock of the
    ``time`` module (``time.time``, ``perf_counter``, ...) is refused: the title gets
    :class:`UnseededDraw` and, when the block ends, the kit fails naming ``doing``,
    the step when a match is applying an action, the draw and the line that made it.
    So a draw is caught the first time it happens, however rarely, even when it
    would not have changed the result. Calls from pytest, hypothesis, logging and
    tempfile pass, and so do calls from other threads (the patches are process-wide;
    the title runs in the thread that opened the watch). Draws the watch cannot see: a name imported from ``random`` or
    ``time`` before the block (``from random import random``), ``datetime.now``."""
    watch = _WATCH
    if watch.depth == 0:
        watch.start()
    watch.depth += 1
    outer, watch.doing = watch.doing, doing
    mark = len(watch.caught)
    try:
        yield
    finally:
        watch.depth -= 1
        watch.doing = outer
        caught = watch.caught[mark:]
        if watch.depth == 0:
            watch.stop()
            watch.caught.clear()
        if caught:
            # Raised here, it replaces whatever the title made of the refusal.
            raise AssertionError(
                f"{caught[0]}: titles and bots draw only from the Rng the core hands them "
                "and never read the clock"
            )


def _doing(what: str) -> None:
    """Say what the kit is doing now, for a refusal's message (inside a watch)."""
    if _WATCH.depth:
        _WATCH.doing = what


def _guarded(name: str, original: Any, allowed: list[Rng]) -> Any:
    """``Rng``'s method ``name`` watched by :func:`only_generator`."""
    if name == "__init__":

        def made(obj: Rng, *args: Any, **kwargs: Any) -> None:
            original(obj, *args, **kwargs)
            allowed.append(obj)

        return made

    def drawn(obj: Rng, *args: Any, **kwargs: Any) -> Any:
        if _WATCH.watching() and not any(obj is r for r in allowed):
            drawer = _drawer()
            if drawer is not None:
                what = f"a generator other than the Rng it was handed (Rng.{name}, seed {obj.seed})"
                _WATCH.refuse(what, drawer)
        return original(obj, *args, **kwargs)

    return drawn


@contextmanager
def only_generator(rng: Rng) -> Iterator[None]:
    """While a bot chooses (inside a :func:`watching_randomness` block): it may draw
    only from ``rng``, the generator it was handed, and from generators it makes
    while choosing (a search seeds its own from ``rng``). A draw from any other
    :class:`~gameweave_core.rng.Rng` (one made at import, or kept from an earlier
    call) is refused like a draw from the global ``random`` module. Checked where
    the core runs as plain Python; the compiled build's ``Rng`` cannot be watched,
    and there only the determinism check itself catches such a draw."""
    allowed = [rng]
    undo: list[tuple[str, Any]] = []
    try:
        try:
            for name in ("__init__", *_RNG_DRAWS):
                original = Rng.__dict__[name]
                setattr(Rng, name, _guarded(name, original, allowed))
                undo.append((name, original))
        except (TypeError, AttributeError):  # a compiled Rng: nothing to watch
            pass
        yield
    finally:
        for name, original in reversed(undo):
            setattr(Rng, name, original)


@attrs.frozen
class Twin:
    """Two matches a title declares indistinguishable to ``seats`` (and, if
    ``spectators``, to spectators): same players, each its own config and actions.

    Author-written twins are an extra: a title with :meth:`Title.resample
    <gameweave_core.title.Title.resample>` gets automatic twins from the kit."""

    players: int
    seed: int
    actions_a: Sequence[tuple[int, Any]]
    actions_b: Sequence[tuple[int, Any]]
    seats: Sequence[int]
    config_a: Mapping[str, Any] = attrs.field(factory=dict)
    config_b: Mapping[str, Any] = attrs.field(factory=dict)
    spectators: bool = True


# -- everything a seat receives --------------------------------------------------------

#: The surfaces the kit compares between twins, in the order it compares them.
SURFACES = (
    "view",
    "awaiting",
    "seat labels",
    "legal actions",
    "action labels",
    "history",
    "events",
    "refusals",
    "bot observation",
    "payload",
)


def refusal(match: Match, seat: int, action: Any) -> str:
    """The one-line message ``seat`` gets for submitting ``action`` (JSON form), or
    ``"(legal)"`` when the action is legal there (it is then not submitted)."""
    try:
        parsed = match.title.codec.from_json(action)
    except IllegalAction as exc:
        return str(exc)
    if seat in match.awaiting and parsed in match.legal_actions(seat):
        return "(legal)"
    try:
        match.submit(seat, parsed)
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError(f"{action} was accepted for seat {seat} though it is not legal")


def surfaces(
    match: Match, seat: int | None, since: int = 0, probes: Sequence[Any] = ()
) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) receives from ``match`` now, by
    surface (see :data:`SURFACES`): its view; who is awaited; every seat's label; its
    legal actions in JSON and their ``describe_action`` labels; its history lines; the
    events it may read from after step ``since`` (text, kind and data); the refusal
    message it gets for each of ``probes`` (actions in JSON form); what a bot in the
    seat is handed; and :meth:`Match.payload <gameweave_core.match.Match.payload>`, which
    the HTTP server sends. A spectator submits nothing and seats no bot."""
    title = match.title
    out: dict[str, Any] = {
        "view": match.view(seat),
        "awaiting": list(match.awaiting),
        "seat labels": [match.seat_label(s) for s in range(1, match.players + 1)],
    }
    if seat is not None:
        out["legal actions"] = match.legal_json(seat)
        out["action labels"] = [title.describe_action(a) for a in match.legal_actions(seat)]
    out["history"] = match.history(seat)
    out["events"] = match.events(seat, since)
    if seat is not None:
        out["refusals"] = [refusal(match, seat, p) for p in probes]
        seen = match.observe(seat)
        out["bot observation"] = {
            "seat": seen.seat,
            "legal": [title.codec.to_json(a) for a in seen.legal],
            "view": seen.view,
            "history": seen.history,
        }
    out["payload"] = match.payload(seat)
    return out


def _short(value: Any, width: int = 100) -> str:
    text = json.dumps(value, default=repr) if not isinstance(value, str) else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def difference(a: Any, b: Any, path: str = "") -> str:
    """Where ``a`` and ``b`` first differ, as ``"path: a vs b"`` (short)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            where = f"{path}[{key!r}]"
            if key not in a:
                return f"{where}: absent vs {_short(b[key])}"
            if key not in b:
                return f"{where}: {_short(a[key])} vs absent"
            if a[key] != b[key]:
                return difference(a[key], b[key], where)
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return difference(x, y, f"{path}[{index}]")
        if len(a) != len(b):
            return f"{path or 'the list'}: {len(a)} items vs {len(b)}"
    return f"{path or 'the value'}: {_short(a)} vs {_short(b)}"


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


def check_indistinguishable(title: Title[Any], twin: Twin) -> None:
    """The twin matches look the same to the twin's seats at every step, on every
    surface (see :func:`surfaces`)."""
    a = Match(title, twin.players, twin.seed, twin.config_a)
    b = Match(title, twin.players, twin.seed, twin.config_b)
    watchers: list[int | None] = [*twin.seats, *([None] if twin.spectators else [])]

    def compare(step: int) -> None:
        for seat in watchers:
            sa, sb = surfaces(a, seat), surfaces(b, seat)
            for name, value in sa.items():
                assert value == sb[name], (
                    f"{_who(seat)} can tell the twin matches apart at step {step} by its "
                    f"{name} ({difference(value, sb[name])})"
                )

    compare(0)
    for step, ((seat_a, act_a), (seat_b, act_b)) in enumerate(
        zip(twin.actions_a, twin.actions_b, strict=True), start=1
    ):
        a.submit(seat_a, act_a)
        b.submit(seat_b, act_b)
        compare(step)


# -- automatic twins, from the resample hook and from the match's own history -----------

#: How a twin is made (the kit's report counts them by these names).
RESAMPLED = "resampled"
RESAMPLED_OWN = "resampled, own generator"
REPLAYED = "replayed, own generator"
CHANCE = "replayed, one chance draw changed"


def _bump(counts: dict[Any, int], key: Any, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


@attrs.define
class TwinStats:
    """What :func:`check_resampled_twins` did.

    ``twins`` drawn, ``made`` how (by the names :data:`RESAMPLED`,
    :data:`RESAMPLED_OWN`, :data:`REPLAYED`); ``redrawn`` resampled twins that differ
    from the real state at all (a twin equal to it proves nothing) and ``varied``
    forks where two seeds drew different states; ``comparisons`` of every surface
    (one per twin and step); ``told_apart`` twins ended because the seat received
    something different (and its views then differed), by the surface that told it
    (``ended``, which also counts twins that reached the end of the match or stayed
    alike for the whole drive) and by how many steps after the fork (``depth``);
    ``draws`` resample draws checked against a twin's with the same seed;
    ``choices`` bot choices and ``hints`` searches compared between twins;
    ``deeper`` twins drawn because most twins ended early; ``bot_spines`` matches
    played by the title's bot rather than at random."""

    twins: int = 0
    made: dict[str, int] = attrs.field(factory=dict)
    redrawn: int = 0
    varied: int = 0
    comparisons: int = 0
    told_apart: int = 0
    ended: dict[str, int] = attrs.field(factory=dict)
    depth: dict[int, int] = attrs.field(factory=dict)
    draws: int = 0
    choices: int = 0
    hints: int = 0
    deeper: int = 0
    bot_spines: int = 0

    def add(self, other: TwinStats) -> None:
        for field in attrs.fields(TwinStats):
            mine, theirs = getattr(self, field.name), getattr(other, field.name)
            if isinstance(mine, dict):
                for key, value in theirs.items():
                    _bump(mine, key, value)
            else:
                setattr(self, field.name, mine + theirs)

    def report(self, name: str) -> str:
        """What the twins did, in a few lines (printed by ``test_secrets_are_kept``)."""
        made = ", ".join(f"{n} {how}" for how, n in sorted(self.made.items()))
        ended = ", ".join(f"{n} {why}" for why, n in sorted(self.ended.items()))
        depth = " ".join(f"{d}:{n}" for d, n in sorted(self.depth.items()))
        return (
            f"{name}: {self.twins} twins ({made}; {self.redrawn} resampled ones differing "
            f"from the real state, {self.varied} forks where two seeds drew differently), "
            f"{self.comparisons} comparisons of every surface\n"
            f"  ended: {ended}\n"
            f"  told apart after (steps:twins): {depth or '-'}\n"
            f"  {self.draws} resample draws, {self.choices} bot choices and {self.hints} "
            f"hints compared between twins; {self.deeper} twins drawn to go deeper; "
            f"{self.bot_spines} matches played by the title's bot"
        )


def _perturbed(action: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Near misses of a legal action: each whole-number field one more, one less, -1."""
    out: list[dict[str, Any]] = []
    for key, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out.extend({**action, key: v} for v in (value + 1, value - 1, -1))
    return out


def _key(action: Mapping[str, Any]) -> str:
    return repr(sorted(action.items()))


@attrs.define
class _Probes:
    """Illegal and out-of-turn actions to submit in twins, by kind of action, so that
    every kind's refusals are tried while twins are alike, however rare the kind."""

    kinds: dict[str, list[dict[str, Any]]] = attrs.field(factory=dict)

    def add(self, action: dict[str, Any]) -> None:
        found = self.kinds.setdefault(str(action.get("type")), [])
        if all(_key(p) != _key(action) for p in found[-50:]):
            found.append(action)

    def draw(self, match: Match, seat: int | None, count: int, rng: Rng) -> list[Any]:
        """``count`` kinds, one probe each (the kinds taken in turn from a random
        start, so each comes round every few steps), and the near misses of the
        seat's own legal actions that are illegal (the edges of what it may do, where
        a reason most often says more than it should), two at most."""
        if seat is None or not self.kinds:
            return []
        names = sorted(self.kinds)
        start = rng.randrange(len(names))
        shown = [
            rng.choice(self.kinds[names[(start + i) % len(names)]])
            for i in range(min(count, len(names)))
        ]
        legal = match.legal_json(seat)
        legal_keys = {_key(a) for a in legal}
        near = rng.sample(legal, min(EDGES, len(legal)))
        edges = {_key(p): p for a in near for p in _perturbed(a) if _key(p) not in legal_keys}
        misses = [edges[k] for k in sorted(edges)]
        seen = [a for a in from_view(match, seat) if _key(a) not in legal_keys]
        return (
            shown
            + (rng.sample(misses, 2) if len(misses) > 2 else misses)
            + (rng.sample(seen, SEEN) if len(seen) > SEEN else seen)
        )


#: Actions built from what a seat's view shows that are probed at each step, at most.
SEEN = 3
#: Combinations of shown values tried per kind of action with several fields, at most.
SEEN_PER_KIND = 64


def _shown_values(view: Any, strings: set[str], numbers: set[int]) -> None:
    """Gather the text and whole numbers among the leaves of a view (and its keys)."""
    if isinstance(view, Mapping):
        for key, value in view.items():
            if isinstance(key, str):
                strings.add(key)
            _shown_values(value, strings, numbers)
    elif isinstance(view, list | tuple):
        for value in view:
            _shown_values(value, strings, numbers)
    elif isinstance(view, bool):
        return
    elif isinstance(view, int):
        numbers.add(view)
    elif isinstance(view, str):
        strings.add(view)


def _field_values(kind: Any, strings: set[str], numbers: set[int]) -> list[Any] | None:
    """The shown values a field of type ``kind`` could take (``None``: a type the
    probes cannot build, such as a nested class)."""
    options = [k for k in typing.get_args(kind) if k is not type(None)]
    if options and len(options) < len(typing.get_args(kind)):
        kind = options[0] if len(options) == 1 else kind  # ``X | None``: X
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return [m for m in kind if isinstance(m.value, str | int)]
    if kind is str:
        return sorted(strings)
    if kind is int:
        return sorted(numbers)
    return None


def from_view(match: Match, seat: int) -> list[dict[str, Any]]:
    """The seat's own actions built from the values its view shows (every card in its
    hand, every square or piece it is shown, every number on its screen), in JSON
    form, legal or not: a refusal of one of them is worded from what the seat may
    know, so twins the seat cannot tell apart must refuse it alike. A title whose
    field is a string (a card's name) is reached this way where whole-number near
    misses never go. Kinds with a field of another type are left out."""
    strings: set[str] = set()
    numbers: set[int] = set()
    _shown_values(match.view(seat), strings, numbers)
    title = match.title
    out: list[dict[str, Any]] = []
    for _, cls in sorted(title.codec.types.items()):
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # an annotation the kit cannot resolve: skip the kind
            continue
        fields = attrs.fields(cls)
        values = [_field_values(hints.get(f.name), strings, numbers) for f in fields]
        if not fields or any(v is None or not v for v in values):
            continue
        made = 0
        for combo in itertools.product(*typing.cast(list[list[Any]], values)):
            if made >= SEEN_PER_KIND:
                break
            try:
                out.append(title.codec.to_json(cls(*combo)))
            except Exception:  # the class refuses such values itself: not a probe
                continue
            made += 1
    return out


def _position(rng: Rng) -> Any:
    """Where a generator is in its stream (to see whether a step drew from it)."""
    legacy = rng._legacy
    return legacy.getstate() if legacy is not None else (rng._next_block, rng._pos)


#: Legal actions of the seat whose near misses are probed at each step, at most.
EDGES = 6
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
    twin._state = copy.deepcopy(base._state)
    twin._log = list(base._log)
    twin._events = list(base._events)
    twin._lines = {}
    twin._legal = {}
    twin._awaiting = None
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
    #: Bot choices and hints left to compare in this match (shared by its twins: a
    #: search is not cheap).
    checks: dict[str, int] = attrs.field(factory=lambda: {"choices": CHOICES})

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
            mine, theirs = surfaces(real, seat, fork, shown), surfaces(twin, seat, fork, shown)
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
        if self.checks["choices"] <= 0:
            return
        self.checks["choices"] -= 1
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


#: Twins made at a chance step by changing one of its draws: the first this many.
CHANCE_DRAWS = 4
#: The other outcomes tried for a changed draw (a whole number drawn one more, two
#: more, ... than it was), until one keeps what the seat receives the same.
CHANCE_SHIFTS = 3
#: Chance steps of a match tried that way, at most (drawn at random).
CHANCE_STEPS = 8


def _chance_twins(
    spine: Match,
    chance: list[int],
    seed: int,
    pool: _Probes,
    bots: dict[str, Any],
    drive: int,
    probes: int,
    checks: dict[str, int],
) -> TwinStats:
    """Twins of the steps where the rules drew chance (up to :data:`CHANCE_STEPS`):
    the same action with one of the step's first :data:`CHANCE_DRAWS` draws coming
    out otherwise (see :class:`_OneDrawChanged`). For every seat and the spectator
    that receives the same at that step while the state came out differently (the
    dice alike, another card taken), play goes on as in any twin; a seat told which
    outcome came has nothing to compare. Plain-Python matches only: a compiled
    match takes no generator but the core's."""
    made = TwinStats()
    rng = Rng(derive_seed(seed, "chance"))
    tried = sorted(rng.sample(chance, min(CHANCE_STEPS, len(chance))))
    at = {}
    for match in spine.steps():  # one replay gives the match at every chosen step
        if match.step in tried:
            at[match.step] = _copy(match)
    title = spine.title
    for fork in tried:
        actor, act = spine._log[fork]
        real = _copy(at[fork])
        real.submit(actor, act)
        mine = title.snapshot(real._state)
        for which in range(CHANCE_DRAWS):
            for shift in range(1, CHANCE_SHIFTS + 1):
                twin = _copy(at[fork])
                changed = _OneDrawChanged(twin._rng, which, shift)
                try:
                    twin._rng = changed  # type: ignore[assignment]
                except TypeError:  # a compiled match
                    return made
                twin.submit(actor, act)
                if changed._left >= 0 or title.snapshot(twin._state) == mine:
                    break  # the step drew no such draw, or it changed nothing
                alike = [
                    o for o in observers(spine) if real.events(o, fork) == twin.events(o, fork)
                ]
                for seat in alike:
                    label = f"chance:{fork}:{seat}:{which}:{shift}"
                    run = _TwinRun(
                        spine, fork, seat, Rng(derive_seed(seed, label)), pool, bots, drive, probes
                    )
                    run.checks = checks
                    run.how = (
                        f"replayed for {run.who} from step {fork} with chance draw {which} of "
                        f"the step coming out otherwise (+{shift})"
                    )
                    _bump(run.stats.made, CHANCE)
                    made.add(run.play(_copy(real), _copy(twin)))
                if alike:
                    break  # one twin of each draw is enough
            else:
                continue
            if changed._left >= 0:
                break  # no draw this far into the step: none further either
    return made


#: How much further the kit goes when most twins end early: at most this many times
#: the comparisons the first twins made, in twins drawn at other steps.
DEEPER = 2

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
    deeper: bool = True,
    by_bots: float = 0.5,
    registry: Registry | None = None,
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

    At steps where the rules drew chance, replayed twins with one chance draw
    changed are made too (see :class:`_OneDrawChanged`; up to :data:`CHANCE_STEPS`
    steps). With ``deeper``, when more than half the twins end early (told apart),
    more are drawn (before rare actions first, then before chance steps, then
    anywhere) until they have made :data:`DEEPER` times the comparisons of the
    first ones.
    """
    bots = _twin_bots(title, registry)
    spine_bot = bots.get(title.default_bot) if title.default_bot != "random" else None
    played = spine_bot is not None and Rng(derive_seed(seed, "spine")).random() < by_bots
    spine, pool, chance = _spine(title, players, seed, config, spine_bot if played else None)
    rng = Rng(derive_seed(seed, "twins"))
    stats = TwinStats(bot_spines=int(played))
    checks = {"choices": CHOICES}  # shared by every twin of the match
    steps = sorted({rng.randrange(spine.step + 1) for _ in range(forks)})

    def twins_at(fork: int, label: str, own: float, draws: int = 1, calm: int = 0) -> TwinStats:
        made = TwinStats()
        base = spine.at(fork)
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
                    checks=checks,
                )
                if kind == REPLAYED:
                    made.add(run.play(*run.replayed(base)))
                else:
                    made.add(run.play(*run.resampled(base, own)))
        return made

    for fork in steps:
        stats.add(twins_at(fork, "twin", own_generators))
    if replayed:
        stats.add(_chance_twins(spine, chance, seed, pool, bots, drive, probes, checks))
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
    return stats


# -- determinism that names the culprit ------------------------------------------------

_CULPRIT = "does it use the global random module or the clock?"


def check_setup_deterministic(
    title: Title[Any], players: int, seed: int, config: Mapping[str, Any] | None = None
) -> None:
    """Two ``setup`` calls with one seed give equal snapshots, and neither draws from
    a generator the core did not hand it (see :func:`watching_randomness`)."""
    full = title.check_config(players, dict(config or {}))
    with watching_randomness(f"{title.name}: setup for {players} players at step 0"):
        a = title.snapshot(title.setup(players, full, Rng(seed)))
        b = title.snapshot(title.setup(players, full, Rng(seed)))
    assert a == b, (
        f"{title.name}: setup is not deterministic: two setups for {players} players with "
        f"seed {seed} differ at step 0 ({difference(a, b)}): {_CULPRIT}"
    )


def check_apply_deterministic(
    title: Title[Any], players: int, seed: int, config: Mapping[str, Any] | None = None
) -> None:
    """Two matches with one seed, given the same random legal actions, reach equal
    states and make equal events at every step; the first step where they do not
    names ``apply``, the step and the action. No call of the title may draw from a
    generator the core did not hand it, however rarely (see
    :func:`watching_randomness`)."""
    check_setup_deterministic(title, players, seed, config)
    with watching_randomness(f"{title.name}: apply"):
        a, b = Match(title, players, seed, config), Match(title, players, seed, config)
        rng = Rng(derive_seed(seed, "kit"))
        while a.awaiting:
            if a.step >= title.max_actions:
                raise AssertionError(
                    f"{title.name} did not end within max_actions={title.max_actions}"
                )
            seat = rng.choice(a.awaiting)
            act = rng.choice(a.legal_actions(seat))
            what = f"at step {a.step + 1} (seat {seat}, action {title.codec.to_json(act)})"
            _doing(f"{title.name}: apply {what}")
            a.submit(seat, act)
            b.submit(seat, act)
            sa, sb = a.snapshot(), b.snapshot()
            assert sa == sb, (
                f"{title.name}: apply is not deterministic {what}: equal states and "
                f"generators gave different states ({difference(sa, sb)}): {_CULPRIT}"
            )
            for s in observers(a):
                ea, eb = a.events(s, a.step - 1), b.events(s, b.step - 1)
                assert ea == eb, (
                    f"{title.name}: apply is not deterministic {what}: equal states and "
                    f"generators gave different events for {_who(s)} ({difference(ea, eb)}): "
                    f"{_CULPRIT}"
                )


def check_bots_deterministic(
    title: Title[Any],
    registry: Registry,
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
) -> None:
    """Every bot of the title, made twice and run from one observation with one seed,
    chooses the same action, at every step of a random match; and while choosing it
    draws only from the generator it is handed (see :func:`watching_randomness`
    and :func:`only_generator`), however rarely."""
    match = Match(title, players, seed, config)
    rng = Rng(derive_seed(seed, "kit"))
    codec = title.codec
    bots = kit_bots(registry, title)
    with watching_randomness(f"{title.name}: a bot"):
        while match.awaiting and match.step < title.max_actions:
            seat = rng.choice(match.awaiting)
            for name, factory in bots.items():
                chosen = []
                for _ in range(2):
                    _doing(f"{title.name}: bot {name!r} for seat {seat} at step {match.step}")
                    mine = Rng(derive_seed(seed, f"bot:{name}:{match.step}"))
                    with only_generator(mine):
                        answer = factory(seat, players).act(match.observe(seat), mine)
                    parsed = answer if type(answer) in codec.classes else codec.from_json(answer)
                    chosen.append(codec.to_json(parsed))
                assert chosen[0] == chosen[1], (
                    f"{title.name}: bot {name!r} is not deterministic: run twice from one "
                    f"observation (seat {seat}, step {match.step}) with one seed it chose "
                    f"{chosen[0]} then {chosen[1]}: {_CULPRIT}"
                )
            _doing(f"{title.name}: random play, seat {seat}")
            match.submit(seat, rng.choice(match.legal_actions(seat)))


def check_secrets_checked(
    title: Title[Any],
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    *,
    has_twins: bool = False,
) -> None:
    """Fails when seats of the title have secrets (``has_secrets``) and the kit has no
    way to check them: neither the resample hook nor author-written twins."""
    if title.can_resample or has_twins:
        return
    for match in random_match(title, players, seed, config).steps():
        for seat in range(1, players + 1):
            assert not match.has_secrets(seat), (
                f"{title.name} has secrets (has_secrets is true for seat {seat} at step "
                f"{match.step}) that the kit cannot check: implement Title.resample (then "
                "the kit builds its own twins) or declare twins() in the test class"
            )


def check_bots(title: Title[Any], registry: Registry, players: int, seed: int) -> None:
    """Every bot of the title plays whole games in every seat without an illegal move."""
    for name, factory in kit_bots(registry, title).items():
        match = Match(title, players, seed)
        seats = {
            s: BotSeat(factory(s, players), Rng(derive_seed(seed, f"bot:{s}")), name)
            for s in range(1, players + 1)
        }
        run_bots(match, seats, limit=title.max_actions)
        check_ends(match)


def kit_bots(registry: Registry, title: Title[Any]) -> dict[str, Any]:
    """The title's bots as the kit runs them: a factory with a ``for_tests()``
    method (a search bot) is run at the cheap budget it returns, since the kit
    checks what a bot does, not how well it plays."""
    found: dict[str, Any] = {}
    for name, factory in registry.bots(title).items():
        cheap = getattr(factory, "for_tests", None)
        found[name] = cheap() if callable(cheap) else factory
    return found


def golden_path_expected(log_path: Path) -> Path:
    return log_path.with_name(log_path.stem + ".expected.json")


def check_golden(log_path: Path, registry: Registry | None = None) -> None:
    """A recorded playthrough still plays the same: every digest in the log matches
    and every seat's final view, legal actions and history equal the recorded ones.

    Set ``GAMEWEAVE_UPDATE_GOLDEN=1`` to record the expected file afresh after a
    deliberate change of behaviour (and bump the title's ``version``).
    """
    match = Match.load(log_path, verify=True, registry=registry or default_registry())
    got = {
        "digest": match.digest(),
        "seats": {str(s): snapshot_for(match, s) for s in observers(match)},
    }
    if match.outcome() is not None:
        got["outcome"] = match.outcome().to_json()  # type: ignore[union-attr]
    expected_path = golden_path_expected(log_path)
    if os.environ.get("GAMEWEAVE_UPDATE_GOLDEN") == "1" or not expected_path.exists():
        expected_path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        if os.environ.get("GAMEWEAVE_UPDATE_GOLDEN") != "1":
            raise AssertionError(f"recorded {expected_path}; commit it and run again")
    expected = json.loads(expected_path.read_text())
    assert json.loads(json.dumps(got)) == expected, f"{log_path.name} no longer plays the same"


def _kit(examples: int, shrink: bool = True) -> settings:
    # Derandomized: the kit draws the same examples on every run, so CI is stable.
    # Checks whose examples are only seeds skip shrinking: a smaller seed is not a
    # simpler game, and each try replays whole matches.
    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
        phases=phases,
    )


class TitleConformance:
    """Subclass in a test module and set ``title``; pytest runs the whole kit."""

    title: ClassVar[Title[Any]]
    #: Options for the matches the kit plays.
    config: ClassVar[Mapping[str, Any]] = {}
    #: Hypothesis examples per check; raise it for a deeper run.
    examples: ClassVar[int] = 20
    #: Random matches the automatic twins are drawn from (``None``: half of
    #: ``examples``, at least 4); each gives twins at 3 steps for every seat and the
    #: spectator.
    twin_examples: ClassVar[int | None] = None

    def registry(self) -> Registry:
        """The registry bots are looked up in: the installed one if it holds this
        title, else one holding only this title."""
        installed = default_registry()
        if self.title.name in installed.names() and installed.title(self.title.name) is self.title:
            return installed
        registry = Registry()
        registry.add_title(self.title)
        return registry

    def twins(self) -> st.SearchStrategy[Twin] | None:
        """Pairs of matches indistinguishable to some seats, or ``None``."""
        return None

    def _players(self) -> st.SearchStrategy[int]:
        return st.integers(self.title.min_players, self.title.max_players)

    def test_random_play_ends(self) -> None:
        @_kit(self.examples)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            with watching_randomness(f"{self.title.name}: random play"):
                check_ends(random_match(self.title, players, seed, self.config))

        run()

    def test_replay_reproduces_every_step(self) -> None:
        @_kit(max(3, self.examples // 4))
        @given(players=self._players(), seed=seeds, stop=st.integers(0, 400))
        def run(players: int, seed: int, stop: int) -> None:
            with watching_randomness(f"{self.title.name}: replay"):
                full = random_match(self.title, players, seed, self.config)
                check_replay(full)
                check_replay(random_match(self.title, players, seed, self.config, steps=stop))

        run()

    def test_views_and_actions_round_trip(self) -> None:
        @_kit(max(2, self.examples // 8))
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            with watching_randomness(f"{self.title.name}: round trips"):
                check_round_trips(random_match(self.title, players, seed, self.config))

        run()

    def test_junk_actions_are_refused(self) -> None:
        codec = self.title.codec
        tags = st.sampled_from(sorted(codec.types))
        typed = st.builds(
            lambda tag, body: {**body, "type": tag},
            tags,
            st.dictionaries(st.text(max_size=8), json_values, max_size=4),
        )

        @_kit(self.examples * 5)
        @given(
            players=self._players(),
            seed=seeds,
            steps=st.integers(0, 60),
            junk=json_values | typed,
            seat=st.integers(-1, 6) | st.none() | st.text(max_size=2),
        )
        def run(players: int, seed: int, steps: int, junk: Any, seat: Any) -> None:
            with watching_randomness(f"{self.title.name}: junk actions"):
                match = random_match(self.title, players, seed, self.config, steps=steps)
                try:
                    parsed = codec.from_json(junk)
                except IllegalAction:
                    parsed = None
                legal = match.legal_actions(seat) if seat in range(1, players + 1) else ()
            assume(parsed is None or parsed not in legal)
            with watching_randomness(f"{self.title.name}: a junk action at step {match.step}"):
                check_refused(match, seat, junk)

        run()

    def test_out_of_turn_and_illegal_actions_are_refused(self) -> None:
        codec = self.title.codec

        @_kit(self.examples * 2)
        @given(players=self._players(), seed=seeds, steps=st.integers(0, 80), data=st.data())
        def run(players: int, seed: int, steps: int, data: st.DataObject) -> None:
            name = self.title.name
            with watching_randomness(f"{name}: illegal actions"):
                match = random_match(self.title, players, seed, self.config, steps=steps)
            # Actions that were legal for someone at some step: the likeliest mistakes.
            other = data.draw(seeds)
            with watching_randomness(f"{name}: illegal actions"):
                earlier = random_match(self.title, players, other, self.config)
                candidates = [
                    codec.to_json(a)
                    for m in earlier.steps()
                    for s in m.awaiting
                    for a in list(m.legal_actions(s))[:3]
                ][:200]
            assume(candidates)
            act = data.draw(st.sampled_from(candidates))
            seat = data.draw(st.integers(1, players))
            with watching_randomness(f"{name}: an illegal action at step {match.step}"):
                if codec.from_json(act) in match.legal_actions(seat):
                    return  # legal here: nothing to refuse
                reason = check_refused(match, seat, act)
            if match.awaiting and seat not in match.awaiting:
                assert "not awaited" in reason

        run()

    def test_bots_play_from_their_view(self) -> None:
        registry = self.registry()

        @_kit(max(2, self.examples // 5))
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            with watching_randomness(f"{self.title.name}: bots playing"):
                check_bots(self.title, registry, players, seed)

        run()

    def test_setup_is_deterministic(self) -> None:
        @_kit(self.examples, shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_setup_deterministic(self.title, players, seed, self.config)

        run()

    def test_apply_is_deterministic(self) -> None:
        @_kit(max(2, self.examples // 4), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_apply_deterministic(self.title, players, seed, self.config)

        run()

    def test_bots_are_deterministic(self) -> None:
        registry = self.registry()

        @_kit(max(2, self.examples // 10), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_bots_deterministic(self.title, registry, players, seed, self.config)

        run()

    def test_secrets_are_kept(self) -> None:
        """Automatic twins (drawn by the resample hook when the title has one, and
        replayed histories always), the author's twins when the test class declares
        them; a title with secrets and neither the hook nor written twins fails."""
        title = self.title
        strategy = self.twins()
        registry = self.registry()
        stats = TwinStats()

        @_kit(self.twin_examples or max(4, self.examples // 2), shrink=False)
        @given(players=self._players(), seed=seeds)
        def automatic(players: int, seed: int) -> None:
            with watching_randomness(f"{title.name}: twins"):
                check_secrets_checked(
                    title, players, seed, self.config, has_twins=strategy is not None
                )
                stats.add(
                    check_resampled_twins(title, players, seed, self.config, registry=registry)
                )

        automatic()
        print(stats.report(title.name))  # shown by pytest -rP: what the twins checked
        if title.can_resample:
            assert stats.redrawn, (
                f"{title.name}: resample never drew a state different from the real one, so "
                "the automatic twins proved nothing: it must redraw what a seat has not seen"
            )
            assert stats.varied, (
                f"{title.name}: resample drew the same state whatever the seed, at every step "
                "tried: what a seat has not seen must be drawn from the generator it is given"
            )
        if strategy is not None:

            @_kit(self.examples)
            @given(twin=strategy)
            def written(twin: Twin) -> None:
                with watching_randomness(f"{title.name}: written twins"):
                    check_indistinguishable(title, twin)

            written()
