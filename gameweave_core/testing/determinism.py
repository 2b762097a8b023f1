"""Determinism that names the culprit: setup, apply and every bot give the same
result twice from the same seed, and draw from nothing but the generator they are
handed; and a title with secrets has a way for the kit to check them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..match import Match
from ..registry import Registry
from ..rng import Rng, derive_seed
from ..title import Title
from .play import kit_bots, observers, random_match
from .twins import _who, difference
from .watch import _doing, only_generator, watching_randomness

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
