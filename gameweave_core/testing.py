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
apply and every bot are deterministic (a failure names the culprit); and secrets
are kept: from the title's resample hook the kit builds twin matches that a seat
cannot tell apart and compares every surface the seat receives (see
:func:`check_resampled_twins`), plus any twins the test class declares.

The functions are usable on their own too, for titles tested another way. The kit
needs pytest and hypothesis only (the ``testing`` extra)."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
import tomli_w
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from .errors import IllegalAction, TitleError
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


# -- automatic twins, from the resample hook ------------------------------------------


@attrs.define
class TwinStats:
    """What :func:`check_resampled_twins` did: twins drawn, how many of them differ
    from the real state at all (a twin equal to the real match proves nothing),
    comparisons of every surface (one per twin and step), and twins ended because
    the seat's views came to differ (it had legitimately told the worlds apart)."""

    twins: int = 0
    redrawn: int = 0
    comparisons: int = 0
    told_apart: int = 0

    def add(self, other: TwinStats) -> None:
        self.twins += other.twins
        self.redrawn += other.redrawn
        self.comparisons += other.comparisons
        self.told_apart += other.told_apart


def _perturbed(action: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Near misses of a legal action: each whole-number field one more, one less, -1."""
    out: list[dict[str, Any]] = []
    for key, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out.extend({**action, key: v} for v in (value + 1, value - 1, -1))
    return out


def _spine(
    title: Title[Any], players: int, seed: int, config: Mapping[str, Any] | None
) -> tuple[Match, list[dict[str, Any]]]:
    """A random legal match (like :func:`random_match`) and a pool of probe actions:
    a few legal actions of every awaited seat at every step, and their near misses."""
    match = Match(title, players, seed, config)
    rng = Rng(derive_seed(seed, "kit"))
    to_json = title.codec.to_json
    pool: dict[str, dict[str, Any]] = {}
    while match.awaiting:
        if match.step >= title.max_actions:
            raise AssertionError(f"{title.name} did not end within max_actions={title.max_actions}")
        for s in match.awaiting:
            legal = match.legal_actions(s)
            for act in rng.sample(legal, min(2, len(legal))):
                as_json = to_json(act)
                for probe in [as_json, *_perturbed(as_json)]:
                    pool.setdefault(json.dumps(probe, sort_keys=True), probe)
        seat = rng.choice(match.awaiting)
        match.submit(seat, rng.choice(match.legal_actions(seat)))
    return match, list(pool.values())


def _around(base: Match, state: Any, rng: Rng | None = None) -> Match:
    """``base`` replayed to its current step (same log, history and generator state),
    with ``state`` in place of its own and, if given, ``rng`` as its generator from
    now on: a twin match, which cannot be saved as a log."""
    twin = base.at(base.step)
    twin._state = state
    if rng is not None:
        twin._rng = rng
    twin._awaiting = None
    twin._legal.clear()
    return twin


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
) -> TwinStats:
    """Automatic twins: secrecy checked from the title's :meth:`~Title.resample` hook.

    A random legal match is played; at ``forks`` random steps, for every seat and
    the spectator, ``resample`` draws a state that seat cannot tell from the real one
    and the kit builds a twin match around it: the same log and history, and the
    same generator state or, for a share ``own_generators`` of the twins, a generator
    of its own (so chance drawn later differs too). The seat's view must be equal in both (else the view
    shows something the seat has not observed, or resample changed something it
    knows). Then both matches are driven on for up to ``drive`` steps: the seat
    itself plays the same action in both; another seat plays the same action, or a
    third of the time any action legal in the twin (what it does may be its secret).
    After each step, while the seat's views are equal, every other surface it
    receives (see :func:`surfaces`; ``probes`` sampled illegal or out-of-turn actions
    for the refusals) must be equal too; once its views differ the seat has
    legitimately told the worlds apart and that twin ends. The resample hook must
    also leave its input untouched and give the same state from the same generator.
    """
    spine, pool = _spine(title, players, seed, config)
    rng = Rng(derive_seed(seed, "twins"))
    stats = TwinStats()
    steps = sorted({rng.randrange(spine.step + 1) for _ in range(forks)})
    for fork in steps:
        for seat in observers(spine):
            stats.add(
                _one_twin(
                    spine,
                    fork,
                    seat,
                    Rng(derive_seed(seed, f"twin:{fork}:{seat}")),
                    pool,
                    drive,
                    probes,
                    own_generators,
                )
            )
    return stats


def _one_twin(
    spine: Match,
    fork: int,
    seat: int | None,
    rng: Rng,
    pool: list[Any],
    drive: int,
    probes: int,
    own_generators: float,
) -> TwinStats:
    title = spine.title
    who = _who(seat)
    stats = TwinStats(twins=1)
    real = spine.at(fork)
    state = real._state
    before = title.snapshot(state)
    seed = derive_seed(rng.seed, "resample")
    drawn = title.resample(state, seat, Rng(seed))
    assert title.snapshot(state) == before, (
        f"{title.name}: resample for {who} at step {fork} changed the state it was given"
    )
    assert drawn is not state, f"{title.name}: resample returned the state it was given"
    again = title.snapshot(title.resample(state, seat, Rng(seed)))
    assert title.snapshot(drawn) == again, (
        f"{title.name}: resample for {who} at step {fork} is not deterministic: one state and "
        f"one generator gave different states ({difference(title.snapshot(drawn), again)})"
    )
    stats.redrawn += title.snapshot(drawn) != before
    # Half the twins go on with the real match's generator state, so later chance
    # agrees and the worlds stay alike for longer; the other half with a generator
    # of their own, so chance drawn after the fork (a hidden card dealt, dice
    # re-rolled out of sight) differs too, and a leak of it can show.
    fresh = rng.random() < own_generators
    own = Rng(derive_seed(rng.seed, "generator"), real.generator) if fresh else None
    twin = _around(real, drawn, own)
    last = ""
    while True:
        shown = rng.sample(pool, min(probes, len(pool))) if seat is not None else []
        mine, theirs = surfaces(real, seat, fork, shown), surfaces(twin, seat, fork, shown)
        if mine["view"] != theirs["view"]:
            diff = difference(mine["view"], theirs["view"])
            assert real.step > fork, (
                f"{title.name}: {who}'s view differs between the match and the state resample "
                f"drew for {who} at step {fork} ({diff}): the view shows something {who} has "
                f"not observed (a leak), or resample changed something {who} knows"
            )
            stats.told_apart += 1
            return stats
        stats.comparisons += 1
        for name in SURFACES:
            if name in mine and mine[name] != theirs[name]:
                raise AssertionError(
                    f"{title.name}: {who} can tell a resampled twin from the real match at "
                    f"step {real.step} by its {name}, while its views are equal "
                    f"({difference(mine[name], theirs[name])}); twin drawn at step {fork}"
                    f"{last}"
                )
        if not real.awaiting or real.step - fork >= drive:
            return stats
        actor = rng.choice(real.awaiting)
        act = rng.choice(real.legal_actions(actor))
        other = act
        if actor != seat:
            legal = twin.legal_actions(actor)
            assert legal, (
                f"{title.name}: seat {actor} is awaited at step {twin.step} of a twin drawn "
                f"by resample for {who} at step {fork} but has no legal action"
            )
            if act not in legal or rng.random() < 1 / 3:
                other = rng.choice(legal)
        to_json = title.codec.to_json
        last = f"; last action: seat {actor} {to_json(act)}"
        if other != act:
            last += f" (in the twin {to_json(other)})"
        real.submit(actor, act)
        try:
            twin.submit(actor, other)
        except TitleError as exc:
            raise AssertionError(
                f"{title.name}: the rules raised in a twin drawn by resample for {who} at step "
                f"{fork} (is the drawn state consistent?): {exc}"
            ) from exc


# -- determinism that names the culprit ------------------------------------------------

_CULPRIT = "does it use the global random module or the clock?"


def check_setup_deterministic(
    title: Title[Any], players: int, seed: int, config: Mapping[str, Any] | None = None
) -> None:
    """Two ``setup`` calls with one seed give equal snapshots."""
    full = title.check_config(players, dict(config or {}))
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
    names ``apply``, the step and the action."""
    check_setup_deterministic(title, players, seed, config)
    a, b = Match(title, players, seed, config), Match(title, players, seed, config)
    rng = Rng(derive_seed(seed, "kit"))
    while a.awaiting:
        if a.step >= title.max_actions:
            raise AssertionError(f"{title.name} did not end within max_actions={title.max_actions}")
        seat = rng.choice(a.awaiting)
        act = rng.choice(a.legal_actions(seat))
        a.submit(seat, act)
        b.submit(seat, act)
        what = f"at step {a.step} (seat {seat}, action {title.codec.to_json(act)})"
        sa, sb = a.snapshot(), b.snapshot()
        assert sa == sb, (
            f"{title.name}: apply is not deterministic {what}: equal states and generators "
            f"gave different states ({difference(sa, sb)}): {_CULPRIT}"
        )
        for s in observers(a):
            ea, eb = a.events(s, a.step - 1), b.events(s, b.step - 1)
            assert ea == eb, (
                f"{title.name}: apply is not deterministic {what}: equal states and generators "
                f"gave different events for {_who(s)} ({difference(ea, eb)}): {_CULPRIT}"
            )


def check_bots_deterministic(
    title: Title[Any],
    registry: Registry,
    players: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
) -> None:
    """Every bot of the title, made twice and run from one observation with one seed,
    chooses the same action, at every step of a random match."""
    match = Match(title, players, seed, config)
    rng = Rng(derive_seed(seed, "kit"))
    codec = title.codec
    bots = kit_bots(registry, title)
    while match.awaiting and match.step < title.max_actions:
        seat = rng.choice(match.awaiting)
        for name, factory in bots.items():
            chosen = []
            for _ in range(2):
                answer = factory(seat, players).act(
                    match.observe(seat), Rng(derive_seed(seed, f"bot:{name}:{match.step}"))
                )
                parsed = answer if type(answer) in codec.classes else codec.from_json(answer)
                chosen.append(codec.to_json(parsed))
            assert chosen[0] == chosen[1], (
                f"{title.name}: bot {name!r} is not deterministic: run twice from one "
                f"observation (seat {seat}, step {match.step}) with one seed it chose "
                f"{chosen[0]} then {chosen[1]}: {_CULPRIT}"
            )
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
            check_ends(random_match(self.title, players, seed, self.config))

        run()

    def test_replay_reproduces_every_step(self) -> None:
        @_kit(max(3, self.examples // 4))
        @given(players=self._players(), seed=seeds, stop=st.integers(0, 400))
        def run(players: int, seed: int, stop: int) -> None:
            full = random_match(self.title, players, seed, self.config)
            check_replay(full)
            check_replay(random_match(self.title, players, seed, self.config, steps=stop))

        run()

    def test_views_and_actions_round_trip(self) -> None:
        @_kit(max(2, self.examples // 8))
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
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
            match = random_match(self.title, players, seed, self.config, steps=steps)
            try:
                parsed = codec.from_json(junk)
            except IllegalAction:
                parsed = None
            if parsed is not None and isinstance(seat, int) and 1 <= seat <= players:
                assume(parsed not in match.legal_actions(seat))
            check_refused(match, seat, junk)

        run()

    def test_out_of_turn_and_illegal_actions_are_refused(self) -> None:
        codec = self.title.codec

        @_kit(self.examples * 2)
        @given(players=self._players(), seed=seeds, steps=st.integers(0, 80), data=st.data())
        def run(players: int, seed: int, steps: int, data: st.DataObject) -> None:
            match = random_match(self.title, players, seed, self.config, steps=steps)
            # Actions that were legal for someone at some step: the likeliest mistakes.
            earlier = random_match(self.title, players, data.draw(seeds), self.config)
            candidates = [
                codec.to_json(a)
                for m in earlier.steps()
                for s in m.awaiting
                for a in list(m.legal_actions(s))[:3]
            ][:200]
            assume(candidates)
            act = data.draw(st.sampled_from(candidates))
            seat = data.draw(st.integers(1, players))
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
        """Automatic twins when the title can resample, the author's twins when the
        test class declares them; a title with secrets and neither fails."""
        title = self.title
        strategy = self.twins()
        stats = TwinStats()

        @_kit(self.twin_examples or max(4, self.examples // 2), shrink=False)
        @given(players=self._players(), seed=seeds)
        def automatic(players: int, seed: int) -> None:
            check_secrets_checked(title, players, seed, self.config, has_twins=strategy is not None)
            if title.can_resample:
                stats.add(check_resampled_twins(title, players, seed, self.config))

        automatic()
        if title.can_resample:
            assert stats.redrawn, (
                f"{title.name}: resample never drew a state different from the real one, so "
                "the automatic twins proved nothing: it must redraw what a seat has not seen"
            )
            print(  # shown by pytest -rP: how much the automatic twins checked
                f"{title.name}: {stats.twins} automatic twins ({stats.redrawn} differing from "
                f"the real state), {stats.comparisons} comparisons of every surface, "
                f"{stats.told_apart} told apart by their views"
            )
        if strategy is not None:

            @_kit(self.examples)
            @given(twin=strategy)
            def written(twin: Twin) -> None:
                check_indistinguishable(title, twin)

            written()
