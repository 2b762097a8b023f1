"""What game-playing algorithms are given: the numbered action space, the
observation encoded from the view, utilities, explicit chance and clones,
information states, the declared game facts, and worlds drawn by
``resample_world`` replayed against what the seat saw."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ..facts import GameInfo
from ..match import Match
from ..observation import ViewOutsideSchema
from ..rng import Rng, derive_seed
from ..space import NotEnumerable, Relative, enumerable
from ..title import Title
from ..worlds import InconsistentWorld, resampled_world
from .play import observers, random_match
from .twins import _who
from .watch import _doing

# -- what game-playing algorithms are given (issue 35) -------------------------------

#: Actions of a space whose JSON round trip the kit checks, at most (spread over it).
SPACE_SAMPLE = 200
#: Steps of a match at which a clone is made and played on beside it.
CLONES = 3


def not_checked(title: Title[Any], players: int, config: Mapping[str, Any] | None = None) -> str:
    """One line saying what the kit cannot check for ``title`` because it declares
    nothing for it (empty when it declares everything)."""
    full = title.check_config(players, dict(config or {}))
    missing = []
    reason = enumerable(title)
    if reason is not None:
        missing.append(f"actions not numbered ({reason})")
    if title.view_schema(players, full) is None:
        missing.append("no view_schema, so no observation")
    if title.game_facts(players, full) is None:
        missing.append("no game_facts, so chance bounds and dynamics unchecked")
    return "; ".join(missing)


def check_action_space(match: Match) -> int:
    """At every step of ``match`` (replayed), for every awaited seat: every legal
    action has a number in the action space, the numbers are distinct, the action
    of each number is that action (the round trip), and the legal mask marks
    exactly them; the space is the same when built again, and a spread of its
    actions (up to :data:`SPACE_SAMPLE`) round-trips through JSON. Returns how
    many legal actions were checked."""
    title = match.title
    name = title.name
    space = match.action_space
    again = match.fresh().action_space
    assert again.size == space.size, (
        f"{name}: the action space has {space.size} actions, then {again.size} built again "
        "for the same players and options: its domains must be stable"
    )
    codec = title.codec
    stride = max(1, space.size // SPACE_SAMPLE)
    listed = space.actions() if space.relative else None
    for number in range(0, space.size, stride):
        if listed is not None and isinstance(listed[number], Relative):
            continue  # stands for an action made from a view: checked in play below
        act = space.action(number)
        assert again.action(number) == act, (
            f"{name}: action number {number} is {act!r}, then {again.action(number)!r} "
            "built again: the numbering must be stable"
        )
        assert codec.from_json(codec.to_json(act)) == act, (
            f"{name}: action number {number} ({act!r}) does not round-trip through JSON: "
            "a declared value is not one the action's field takes"
        )
    checked = 0
    for m in match.steps():
        for seat in m.awaiting:
            legal = list(m.legal_actions(seat))
            where = f"{name} at step {m.step}, seat {seat}"
            view = m.view(seat) if space.relative else None
            numbers = []
            for act in legal:
                try:
                    number = space.index(act, view)
                except NotEnumerable as exc:
                    raise AssertionError(
                        f"{where}: a legal action has no number: {exc}; the field's declared "
                        "values miss it"
                    ) from None
                back = space.action(number, view)
                assert back == act, (
                    f"{where}: {codec.to_json(act)} is number {number}, whose action is "
                    f"{codec.to_json(back)}"
                )
                numbers.append(number)
            assert len(set(numbers)) == len(numbers), f"{where}: two legal actions share a number"
            mask = m.legal_mask(seat)
            assert len(mask) == space.size, f"{where}: the mask is not as long as the space"
            assert sorted(i for i, bit in enumerate(mask) if bit) == sorted(numbers), (
                f"{where}: the legal mask does not mark exactly the legal actions"
            )
            checked += len(legal)
    return checked


#: Steps of a match at which :func:`check_observations` compares the compiled encoder
#: with the schema's reference encoding: every this many (and the last).
REFERENCE_EVERY = 5


def _finite(numbers: list[float]) -> bool:
    """Every number finite and within ±1e300, in C: an observation may hold thousands
    of numbers at every step. (A sum of numbers each within ±1e300 is finite unless
    one of them is infinite or not a number.)"""
    if not numbers:
        return True
    return math.isfinite(sum(numbers)) and max(map(abs, numbers)) < 1e300


def check_observations(match: Match) -> int:
    """At every step of ``match`` (replayed), for every seat and the spectator: the
    view is inside the title's view schema (else the :class:`ViewOutsideSchema`
    line, naming the place), the observation has the spec's size, its numbers are
    finite, and it is the encoding of the view alone (two encodings of one view,
    one a copy through JSON, are equal). Returns how many were checked."""
    title = match.title
    spec = match.observation_spec
    assert spec is not None, f"{title.name} declares no view_schema"
    checked = 0
    for m in match.steps():
        for seat in observers(m):
            try:
                seen = m.observation(seat)
            except ViewOutsideSchema as exc:
                raise AssertionError(
                    f"{title.name} at step {m.step}, {_who(seat)}: {exc}; the view schema "
                    "must cover every view"
                ) from None
            assert len(seen) == spec.size, (
                f"{title.name}: an observation of {len(seen)} numbers, the spec says {spec.size}"
            )
            assert _finite(seen), f"{title.name}: a number is not finite"
            view = json.loads(json.dumps(m.view(seat)))
            again = spec.encode(view)
            assert again == seen, (
                f"{title.name} at step {m.step}, {_who(seat)}: the observation is not the "
                "encoding of the view alone"
            )
            # The core's own encoders checked against each other (a title cannot make
            # them disagree): at a sample of the steps, as the reference is slow.
            if m.step % REFERENCE_EVERY == 0 or m.step == match.step:
                assert spec.reference(view) == seen, (
                    f"{title.name} at step {m.step}, {_who(seat)}: the compiled encoder and "
                    "the schema's reference encoding disagree (a bug in the core)"
                )
            checked += 1
    return checked


def check_utilities(match: Match, info: GameInfo) -> None:
    """At the end of ``match``: one utility per seat, within the declared bounds,
    their sum of the declared kind (zero, constant, identical)."""
    name = match.title.name
    found = match.utilities()
    assert found is not None, f"{name}: the match is over but has no utilities"
    assert len(found) == match.players, f"{name}: {len(found)} utilities for {match.players} seats"
    low, high = info.min_utility, info.max_utility
    for seat, u in enumerate(found, start=1):
        assert low <= u <= high, (
            f"{name}: seat {seat}'s utility {u} is outside the declared {low} to {high}"
        )
    total = sum(found)
    if info.utility == "zero_sum":
        assert abs(total) < 1e-9, f"{name}: declared zero-sum, but utilities {found} sum to {total}"
    elif info.utility == "constant_sum":
        assert info.utility_sum is not None, f"{name}: declared constant-sum without utility_sum"
        assert abs(total - info.utility_sum) < 1e-9, (
            f"{name}: declared constant-sum {info.utility_sum}, but utilities {found} sum to "
            f"{total}"
        )
    elif info.utility == "identical":
        assert len(set(found)) == 1, f"{name}: declared identical utilities, got {found}"


def check_explicit_chance(
    title: Title[Any], players: int, seed: int, config: Mapping[str, Any] | None = None
) -> int:
    """The match ``seed`` plays by random legal actions, played again with explicit
    chance choosing at each chance node the outcome ``Rng(seed)`` draws: every step
    reaches the seeded match's state (equal digests), events and information
    states (kept step by step there, replayed here); at every chance node the
    probabilities sum to one and the outcomes are no more than the declared
    ``max_chance_outcomes`` (none at all when it is 0), the draws no more than
    ``max_chance_nodes``; the utilities are equal. Clones made at a few steps play
    on to the same end, and playing a clone never changes the match it was made
    from. Returns the number of chance nodes met."""
    seeded = random_match(title, players, seed, config)
    info = seeded.game_info
    name = title.name
    draws = Rng(seed, seeded.generator)
    explicit = Match.explicit(title, players, config, recall=True)
    nodes = 0

    def resolve(step: int) -> None:
        nonlocal nodes
        while explicit.is_chance_node:
            outcomes = explicit.chance_outcomes()
            where = f"{name}: the chance node {nodes + 1} (at step {step})"
            total = sum(p for _, p in outcomes)
            assert abs(total - 1.0) < 1e-9, f"{where}: probabilities sum to {total}"
            assert [o for o, _ in outcomes] == list(range(len(outcomes))), (
                f"{where}: outcomes are not 0 to n - 1"
            )
            bound = info.max_chance_outcomes
            if bound is not None:
                assert len(outcomes) <= bound, (
                    f"{where}: {len(outcomes)} outcomes, more than the declared "
                    f"max_chance_outcomes={bound}"
                )
            nodes += 1
            explicit.apply_chance(draws.randbelow(len(outcomes)))
        if info.max_chance_nodes is not None:
            assert nodes <= info.max_chance_nodes, (
                f"{name}: {nodes} chance draws by step {step}, more than the declared "
                f"max_chance_nodes={info.max_chance_nodes}"
            )

    resolve(0)
    clones: list[tuple[Match, int]] = []
    at = sorted(
        {Rng(derive_seed(seed, "clones")).randrange(seeded.step + 1) for _ in range(CLONES)}
    )
    for m in seeded.steps():
        step = m.step
        assert explicit.step == step
        assert explicit.digest() == m.digest(), (
            f"{name}: at step {step} the match with explicit chance differs from the seeded "
            "one: do the rules draw with rng.random(), rng.word() or rng.fork()?"
        )
        for o in observers(m):
            assert explicit.events(o, step - 1) == m.events(o, step - 1), (
                f"{name}: at step {step} {_who(o)} is told otherwise with explicit chance"
            )
        if step in at:
            clones.append((explicit.clone(), step))
        if step < seeded.step:
            seat, act = seeded._log[step]
            explicit.submit(seat, act)
            resolve(step + 1)
    for seat in range(1, players + 1):
        assert explicit.information_state(seat) == seeded.information_state(seat), (
            f"{name}: seat {seat}'s information state differs between the seeded match and "
            "the explicit one"
        )
    assert explicit.utilities() == seeded.utilities()
    end = explicit.digest()
    chosen = explicit.chance_draws
    for clone, step in clones:
        # The clone goes on with the outcomes the match chose after it was made.
        later = iter(chosen[len(clone.chance_draws) :])
        for seat, act in seeded._log[step:]:
            clone.submit(seat, act)
            while clone.is_chance_node:
                clone.apply_chance(next(later))
        assert clone.digest() == end, (
            f"{name}: a clone made at step {step} and played on as the match was ends "
            "elsewhere: Match.clone (or the title's copy_state) does not copy everything"
        )
        assert explicit.digest() == end, (
            f"{name}: playing a clone made at step {step} changed the match it was made from"
        )
    if info.max_chance_outcomes == 0:
        assert nodes == 0, f"{name} declares max_chance_outcomes=0 but its rules drew chance"
    return nodes


def check_information_states(match: Match) -> None:
    """Perfect recall: a seat's information state at each step (kept step by step)
    begins with the one of the step before; it names each of the seat's own
    actions; and it equals the one rebuilt by replaying the match."""
    title = match.title
    kept = Match(
        title, match.players, match.seed, match.config, generator=match.generator, recall=True
    )
    before = {s: kept.information_state(s) for s in range(1, match.players + 1)}
    for seat, act in match._log:
        kept.submit(seat, act)
        for s in range(1, match.players + 1):
            now = kept.information_state(s)
            assert now.startswith(before[s]), (
                f"{title.name}: seat {s}'s information state at step {kept.step} forgets what "
                "it held at the step before"
            )
            before[s] = now
        mine = json.dumps(
            ["did", kept.step, title.codec.to_json(act)],
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        assert mine in before[seat], (
            f"{title.name}: seat {seat}'s information state does not hold its own action at "
            f"step {kept.step}"
        )
    for s in range(1, match.players + 1):
        assert match.information_state(s) == before[s], (
            f"{title.name}: seat {s}'s information state kept step by step differs from "
            "the replayed one"
        )


def check_game_info(match: Match) -> None:
    """The declared facts hold over every step of ``match``: several seats awaited
    at once only if declared simultaneous, never more legal actions than the
    action space holds, the length within ``max_length``, and the utilities at the
    end (see :func:`check_utilities`)."""
    info = match.game_info
    name = match.title.name
    assert match.step <= info.max_length, f"{name}: {match.step} steps, above max_length"
    for m in match.steps():
        awaiting = m.awaiting
        if len(awaiting) > 1 and info.simultaneous is not None:
            assert info.simultaneous, (
                f"{name}: seats {list(awaiting)} are awaited at once at step {m.step}, but "
                "game_facts says the moves are sequential (simultaneous=False)"
            )
        if info.num_actions is not None:
            for seat in awaiting:
                assert len(m.legal_actions(seat)) <= info.num_actions
        if info.perfect_information:
            for seat in range(1, m.players + 1):
                assert not m.has_secrets(seat), (
                    f"{name}: declared perfect information, but seat {seat} has secrets "
                    f"at step {m.step}"
                )
    check_utilities(match, info)


#: Steps of a match at which :func:`check_worlds` draws worlds, at most (each world is
#: two replays of the match so far).
WORLD_STEPS = 6


def check_worlds(match: Match, steps: int = WORLD_STEPS) -> None:
    """Replay ``match`` and, at up to ``steps`` steps spread over it, draw a world
    with the title's ``resample_world`` for every seat and the spectator and check
    it (:func:`gameweave_core.worlds.resampled_world`): the replay must refuse none
    of the actions taken and tell the seat exactly what it was told. Fails naming
    the title, the seat, the step the world was drawn at and what is inconsistent."""
    title = match.title
    draw = title.resample_world  # type: ignore[attr-defined]
    total = match.step
    chosen = sorted({round(i * total / steps) for i in range(1, steps + 1)} - {0})
    seats: list[int | None] = [*range(1, match.players + 1), None]
    for step in chosen:
        at = match.at(step)
        for seat in seats:
            who = "the spectator" if seat is None else f"seat {seat}"
            rng = Rng(derive_seed(match.seed or 0, f"world {step} {seat}"))
            _doing(f"{title.name}: a world for {who} at step {step}")
            world = draw(at._state, seat, rng)
            try:
                resampled_world(at, seat, world)
            except InconsistentWorld as exc:
                raise AssertionError(
                    f"{title.name}: the world resample_world drew for {who} at step {step} "
                    f"could not have happened: {exc}"
                ) from None
