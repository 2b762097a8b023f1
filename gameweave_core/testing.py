"""The conformance kit: checks any title can run in a few lines.

In a title's own tests::

    from gameweave_core.testing import TitleConformance

    class TestSealedBid(TitleConformance):
        title = SealedBid()

pytest then runs every ``test_*`` method below against the title: random legal
play always ends and never raises; a saved log replays to the same digests at
every step; views, legal actions and logs round-trip through JSON and TOML; junk,
out-of-turn and illegal actions are refused with a one-line reason and change
nothing; every bot plays whole games from its seat's observation alone; and, when
the title declares them, pairs of matches indistinguishable to some seats give
those seats identical views, legal actions and history at every step.

The functions are usable on their own too, for titles tested another way.
Requires the ``dev`` extra (pytest and hypothesis).
"""

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
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from .errors import IllegalAction
from .log import MatchLog
from .match import Match
from .registry import Registry, default_registry
from .rng import MAX_SEED, Rng, derive_seed
from .runner import play_out
from .title import Title

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
    """What ``seat`` receives: its view, legal actions and history."""
    return {
        "view": match.view(seat),
        "legal": match.legal_json(seat) if seat is not None else [],
        "history": match.history(seat),
    }


def observers(match: Match) -> list[int | None]:
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
    ``spectators``, to spectators): same players, each its own config and actions."""

    players: int
    seed: int
    actions_a: Sequence[tuple[int, Any]]
    actions_b: Sequence[tuple[int, Any]]
    seats: Sequence[int]
    config_a: Mapping[str, Any] = attrs.field(factory=dict)
    config_b: Mapping[str, Any] = attrs.field(factory=dict)
    spectators: bool = True


def check_indistinguishable(title: Title[Any], twin: Twin) -> None:
    """The twin matches look the same to the twin's seats at every step."""
    a = Match(title, twin.players, twin.seed, twin.config_a)
    b = Match(title, twin.players, twin.seed, twin.config_b)
    watchers: list[int | None] = [*twin.seats, *([None] if twin.spectators else [])]

    def compare(step: int) -> None:
        for seat in watchers:
            sa, sb = snapshot_for(a, seat), snapshot_for(b, seat)
            assert sa == sb, f"seat {seat} can tell the twin matches apart at step {step}"

    compare(0)
    for step, ((seat_a, act_a), (seat_b, act_b)) in enumerate(
        zip(twin.actions_a, twin.actions_b, strict=True), start=1
    ):
        a.submit(seat_a, act_a)
        b.submit(seat_b, act_b)
        compare(step)


def check_bots(title: Title[Any], registry: Registry, players: int, seed: int) -> None:
    """Every bot of the title plays whole games in every seat without an illegal move."""
    for name in registry.bots(title):
        match = Match(title, players, seed)
        play_out(match, {s: name for s in range(1, players + 1)}, registry)
        check_ends(match)


def golden_path_expected(log_path: Path) -> Path:
    return log_path.with_name(log_path.stem + ".expected.json")


def check_golden(log_path: Path, registry: Registry | None = None) -> None:
    """A recorded playthrough still plays the same: every digest in the log matches
    and every seat's final view, legal actions and history equal the recorded ones.

    Set ``GAMEWEAVE_UPDATE_GOLDEN=1`` to record the expected file afresh after a
    deliberate change of behaviour (and bump the title's ``version``).
    """
    match = Match.load(log_path, verify=True, registry=registry)
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


def _kit(examples: int) -> settings:
    # Derandomized: the kit draws the same examples on every run, so CI is stable.
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
    )


class TitleConformance:
    """Subclass in a test module and set ``title``; pytest runs the whole kit."""

    title: ClassVar[Title[Any]]
    #: Options for the matches the kit plays.
    config: ClassVar[Mapping[str, Any]] = {}
    #: Hypothesis examples per check; raise it for a deeper run.
    examples: ClassVar[int] = 20

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

    def test_indistinguishable_matches_look_the_same(self) -> None:
        strategy = self.twins()
        if strategy is None:
            pytest.skip(f"{self.title.name} declares no indistinguishable twins")

        @_kit(self.examples)
        @given(twin=strategy)
        def run(twin: Twin) -> None:
            check_indistinguishable(self.title, twin)

        run()
