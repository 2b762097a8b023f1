""":class:`TitleConformance`, the whole kit as one test class a title subclasses."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from ..errors import IllegalAction
from ..registry import Registry, default_registry
from ..space import enumerable
from ..title import Title
from .algorithms import (
    check_action_space,
    check_explicit_chance,
    check_game_info,
    check_information_states,
    check_observations,
    check_worlds,
    not_checked,
)
from .determinism import (
    check_apply_deterministic,
    check_bots_deterministic,
    check_secrets_checked,
    check_setup_deterministic,
)
from .golden import check_golden_folder
from .moved import depth
from .play import (
    check_bots,
    check_ends,
    check_refused,
    check_replay,
    check_round_trips,
    json_values,
    random_match,
    seeds,
)
from .resampled import check_resampled_twins
from .twins import Twin, TwinStats, check_indistinguishable
from .watch import watching_randomness


def _kit(examples: int, shrink: bool = True) -> settings:
    # Derandomized: the kit draws the same examples on every run, so CI is stable
    # (a deeper run draws more, the first ones the same).
    # Checks whose examples are only seeds skip shrinking: a smaller seed is not a
    # simpler game, and each try replays whole matches.
    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
    return settings(
        max_examples=examples * depth(),
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
    #: The folder of the title's golden logs (``*.toml``, each with its
    #: ``.expected.json``), usually ``Path(__file__).parent / "golden"``: every log in
    #: it must play the same (see :mod:`gameweave_core.testing.golden`). ``None``: the
    #: title has none, and the kit says so in one line.
    golden: ClassVar[Path | None] = None

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

    def test_resampled_worlds_are_consistent(self) -> None:
        """Every world the title's ``resample_world`` draws reproduces, replayed,
        everything the seat received (see :mod:`gameweave_core.worlds`). A title whose
        resample gives only a state is named in one line: whether its draws could
        have happened is not checked."""
        if getattr(self.title, "resample_world", None) is None:
            pytest.skip(
                f"not checked: {self.title.name}'s resample gives a state only, so whether "
                "a history could lead to its draws is not checked (offer resample_world)"
            )

        @_kit(max(2, self.examples // 4), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_worlds(random_match(self.title, players, seed, self.config))

        run()

    def test_actions_enumerate(self) -> None:
        """Every legal action of every state visited has a number, and back."""
        reason = enumerable(self.title)
        if reason is not None:
            pytest.skip(f"not checked: {reason}")

        @_kit(max(2, self.examples // 4), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_action_space(random_match(self.title, players, seed, self.config))

        run()

    def test_observation_is_the_view_encoded(self) -> None:
        """Every view of every seat is inside the view schema, and encodes alone
        (the twins of test_secrets_are_kept compare the observations too)."""
        title = self.title
        full = title.check_config(title.min_players, dict(self.config))
        if title.view_schema(title.min_players, full) is None:
            pytest.skip(f"not checked: {title.name} declares no view_schema, so no observation")

        @_kit(max(2, self.examples // 4), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_observations(random_match(self.title, players, seed, self.config))

        run()

    def test_explicit_chance_replays_the_seeded_match(self) -> None:
        """Chance as chance nodes gives the seeded match, state for state; clones
        are independent; information states agree."""

        # Each example plays its match three times over (explicit, clones, recall).
        @_kit(max(2, self.examples // 8), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_explicit_chance(self.title, players, seed, self.config)

        run()

    def test_information_states_recall(self) -> None:
        @_kit(max(2, self.examples // 8), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_information_states(random_match(self.title, players, seed, self.config))

        run()

    def test_game_facts_hold(self) -> None:
        """The declared facts and utilities hold in random matches; what the title
        does not declare is named in one line (shown with pytest -rP)."""
        title = self.title
        missing = not_checked(title, title.min_players, self.config)
        if missing:
            print(f"{title.name}: not checked: {missing}")

        @_kit(max(2, self.examples // 4), shrink=False)
        @given(players=self._players(), seed=seeds)
        def run(players: int, seed: int) -> None:
            check_game_info(random_match(self.title, players, seed, self.config))

        run()

    def test_golden_logs_play_the_same(self) -> None:
        """Every recorded playthrough in the ``golden`` folder replays to the same
        digests, and every seat's final view, legal actions and history equal the
        recorded ones (see :func:`~gameweave_core.testing.golden.check_golden_folder`)."""
        if self.golden is None:
            pytest.skip(
                f"not checked: {self.title.name} names no golden folder (set golden = "
                "Path(__file__).parent / 'golden' and record logs: see testing.golden)"
            )
        check_golden_folder(Path(self.golden), self.title.name, self.registry())
