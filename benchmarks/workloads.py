"""Gameweave's own workloads, run by ``worker.py`` in the project's environment.

Each factory returns ``step(i) -> units``; step ``i`` plays the game seeded
``seed + i``, so two workloads given the same seed play the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameweave_core import Match, MatchLog, RandomBot, Rng, default_registry, derive_seed
from gameweave_core.runner import BotSeat, play_out, run_bots


def _title(name: str) -> Any:
    return default_registry().title(name)


# -- framework overhead: the same random games, bare rules vs Match ----------------


def bare_random(title: str, players: int, seed: int = 0) -> Callable[[int], int]:
    """Random games through the title's own functions only: no Match, no log, no
    validation. Mirrors :func:`match_random` draw for draw. Units: actions."""
    t = _title(title)
    config = t.check_config(players, {})
    setup, awaiting, legal_actions, apply = t.setup, t.awaiting, t.legal_actions, t.apply

    def step(i: int) -> int:
        game_seed = seed + i
        rng = Rng(game_seed)
        state = setup(players, config, rng)
        bots = {s: Rng(derive_seed(game_seed, f"bot:{s}")) for s in range(1, players + 1)}
        n = 0
        while True:
            seats = awaiting(state)
            if not seats:
                return n
            seat = seats[0]
            apply(state, seat, bots[seat].choice(legal_actions(state, seat)), rng)
            n += 1

    return step


def match_random(title: str, players: int, seed: int = 0) -> Callable[[int], int]:
    """The same random games through :class:`Match` and the core's bot runner (seat
    checks, legality, log, events, the bots' observations). Units: actions."""
    t = _title(title)
    limit = t.max_actions

    def step(i: int) -> int:
        game_seed = seed + i
        match = Match(t, players, game_seed)
        bots = {
            s: BotSeat(RandomBot(), Rng(derive_seed(game_seed, f"bot:{s}")), "random")
            for s in range(1, players + 1)
        }
        run_bots(match, bots, limit)
        return match.step

    return step


def same_games(title: str, players: int, seed: int = 0, games: int = 20) -> dict[str, Any]:
    """Untimed proof that :func:`bare_random` and :func:`match_random` play the same
    games: equal action counts and equal final states (digests), game by game."""
    from gameweave_core.log import digest

    t = _title(title)
    config = t.check_config(players, {})
    total = 0
    for i in range(games):
        game_seed = seed + i
        rng = Rng(game_seed)
        state = t.setup(players, config, rng)
        bots = {s: Rng(derive_seed(game_seed, f"bot:{s}")) for s in range(1, players + 1)}
        n = 0
        while seats := t.awaiting(state):
            seat = seats[0]
            t.apply(state, seat, bots[seat].choice(t.legal_actions(state, seat)), rng)
            n += 1
        match = Match(t, players, game_seed)
        run_bots(
            match,
            {
                s: BotSeat(RandomBot(), Rng(derive_seed(game_seed, f"bot:{s}")))
                for s in range(1, players + 1)
            },
            t.max_actions,
        )
        if match.step != n or match.digest() != digest(t.snapshot(state)):
            raise AssertionError(
                f"{title} seed {game_seed}: bare rules and Match played different games "
                f"({n} vs {match.step} actions)"
            )
        total += n
    return {"games": games, "actions": total}


# -- whole games ---------------------------------------------------------------------


def whole_games(title: str, players: int, bot: str | None, seed: int = 0) -> Callable[[int], int]:
    """Complete games through ``play_out`` with ``bot`` in every seat (``None``: the
    title's default bot). Units: games; actions are reported as an extra."""
    _title(title)
    actions = 0

    def step(i: int) -> int:
        nonlocal actions
        match = play_out(
            Match.create(title, players, seed + i, registry=default_registry()),
            dict.fromkeys(range(1, players + 1), bot),
        )
        actions += match.step
        return 1

    def extra() -> dict[str, Any]:
        nonlocal actions
        out, actions = {"actions": actions}, 0
        return out

    step.extra = extra  # type: ignore[attr-defined]
    return step


def default_bot(title: str) -> str:
    return str(_title(title).default_bot)


# -- replay with verification ----------------------------------------------------------


def replay_verify(title: str, players: int, games: int = 20, seed: int = 0) -> Callable[[int], int]:
    """Replay recorded logs (TOML text, as ``gameweave replay --verify`` reads them),
    checking every step's digest. Units: actions replayed."""
    texts = []
    for g in range(games):
        match = play_out(
            Match.create(title, players, seed + g, registry=default_registry()),
            dict.fromkeys(range(1, players + 1), "random"),
        )
        texts.append(match.to_log().to_toml())

    registry = default_registry()

    def step(i: int) -> int:
        log = MatchLog.from_toml(texts[i % len(texts)])
        match = Match.from_log(log, verify=True, registry=registry)
        return match.step

    return step


# -- blackjack: The House Job's engine, uniform-random play at minimum bets -------------


class MinimumBetPolicy:
    """Uniform-random play with minimum bets and no abilities spent.

    Drafts a random role; on a betting turn pushes the smallest chip once and deals
    in; in play picks uniformly among the plain blackjack choices (hit, stand,
    double, split, Cold Feet); never Marks, calls the Heavy or plays an ability
    card; presses Next round. Works from the action types' JSON tags only.
    """

    def __init__(self, title: Any) -> None:
        types = title.codec.types
        self.chips = types["chips"]
        self.deal_me_in = types["deal_me_in"]
        self.no_mark = types["no_mark"]
        self.never = frozenset(types[t] for t in ("ability", "mark", "heavy", "no_mark"))

    def choose(self, legal: Any, rng: Rng) -> Any:
        chips, deal_me_in, never = self.chips, self.deal_me_in, self.never
        plain = []
        minimum = None
        for a in legal:
            kind = type(a)
            if kind is deal_me_in:
                return a  # the minimum is on the box: deal in
            if kind is chips:
                if minimum is None and a.box is None and a.amount == 10:
                    minimum = a
            elif kind not in never:
                plain.append(a)
        if minimum is not None:  # a betting turn with nothing on the box yet
            return minimum
        if not plain:  # only at The Call's pause, which no ability here opens
            return next(a for a in legal if type(a) is self.no_mark)
        return rng.choice(plain)


def blackjack_bare(seed: int = 0, players: int = 2) -> Callable[[int], int]:
    """Hands of The House Job through its bare rules functions. Units: hands (settled
    boxes: one per seat dealt in, as no Extra Box is ever bought)."""
    t = _title("house")
    policy = MinimumBetPolicy(t)
    choose, deal_me_in = policy.choose, policy.deal_me_in
    config = t.check_config(players, {})
    setup, awaiting, legal_actions, apply = t.setup, t.awaiting, t.legal_actions, t.apply

    def step(i: int) -> int:
        rng = Rng(seed + i)
        bot = Rng(derive_seed(seed + i, "bot"))
        state = setup(players, config, rng)
        hands = 0
        while True:
            seats = awaiting(state)
            if not seats:
                return hands
            seat = seats[0]
            act = choose(legal_actions(state, seat), bot)
            if type(act) is deal_me_in:
                hands += 1
            apply(state, seat, act, rng)

    return step


def blackjack_match(seed: int = 0, players: int = 2) -> Callable[[int], int]:
    """The same hands through :class:`Match` (the policy acts on its observation)."""
    t = _title("house")
    policy = MinimumBetPolicy(t)
    choose, deal_me_in = policy.choose, policy.deal_me_in

    def step(i: int) -> int:
        match = Match(t, players, seed + i)
        bot = Rng(derive_seed(seed + i, "bot"))
        hands = 0
        while True:
            seats = match.awaiting
            if not seats:
                return hands
            seat = seats[0]
            act = choose(match.observe(seat).legal, bot)
            if type(act) is deal_me_in:
                hands += 1
            match.submit(seat, act)

    return step


def blackjack_check(games: int = 50, seed: int = 0, players: int = 2) -> dict[str, Any]:
    """Untimed check of the hand count: the boxes on the table at every settlement
    (read from the events and the state) equal the deal-ins counted by the workload,
    no ability or lever is ever played, and Match plays the same hands."""
    t = _title("house")
    policy = MinimumBetPolicy(t)
    bare, through_match = blackjack_bare(seed, players), blackjack_match(seed, players)
    config = t.check_config(players, {})
    counted = settled = actions = 0
    for i in range(games):
        rng = Rng(seed + i)
        bot = Rng(derive_seed(seed + i, "bot"))
        state = t.setup(players, config, rng)
        while seats := t.awaiting(state):
            act = policy.choose(t.legal_actions(state, seats[0]), bot)
            if type(act) in policy.never:
                raise AssertionError(f"the policy played {act!r}")
            events = t.apply(state, seats[0], act, rng)
            actions += 1
            if any(e.kind == "settled" for e in events):
                settled += len(state.boxes)
        n = bare(i)
        if through_match(i) != n:
            raise AssertionError(f"seed {seed + i}: Match and bare rules dealt different hands")
        counted += n
    if counted != settled:
        raise AssertionError(f"counted {counted} hands but {settled} boxes were settled")
    return {"games": games, "hands": counted, "actions": actions}


# -- where the time goes -------------------------------------------------------------------


_ROOT = str(Path(__file__).resolve().parent.parent).replace("\\", "/") + "/"


def _area(filename: str) -> str:
    path = filename.replace("\\", "/")
    for marker, area in (
        ("gameweave_core/match.py", "core: Match"),
        ("gameweave_core/runner.py", "core: bot runner"),
        ("gameweave_core/bots.py", "core: bot runner"),
        ("gameweave_core/events.py", "core: events"),
        ("gameweave_core/rng.py", "core: rng"),
        ("gameweave_core/", "core: other"),
        ("gameweave_museum/", "title rules"),
        ("gameweave_house/", "title rules"),
        ("random.py", "stdlib random"),
        ("benchmarks/", "benchmark loop"),
    ):
        if marker in path:
            return area
    if "attrs generated" in path:
        return "attrs-generated methods"
    return "other"


def profile_split(
    fn: str, kwargs: dict[str, Any], games: int = 200, top: int = 10
) -> dict[str, Any]:
    """Profile ``games`` steps of the workload ``fn`` (a factory in this module):
    the share of time per area (core, title, ...) and the hottest functions."""
    import cProfile
    import pstats

    step = globals()[fn](**kwargs)
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(games):
        step(i)
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values()) or 1.0
    areas: dict[str, float] = {}
    rows = []
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in raw.items():
        area = _area(filename)
        areas[area] = areas.get(area, 0.0) + tottime
        short = filename.replace("\\", "/").removeprefix(_ROOT)
        rows.append((tottime, f"{short}:{line}({name})", ncalls, cumtime))
    rows.sort(reverse=True)
    return {
        "areas": {k: v / total for k, v in sorted(areas.items(), key=lambda kv: -kv[1])},
        "top": [
            {"function": f, "share": t / total, "calls": n, "cumulative_share": c / total}
            for t, f, n, c in rows[:top]
        ],
    }


def installed_titles() -> list[str]:
    """The names of the titles installed in this environment."""
    return sorted(default_registry().names())


def compiled_modules() -> list[str]:
    """The project's modules this environment would import compiled (extension
    modules rather than ``.py`` files), found without importing them."""
    import importlib
    import importlib.util
    import pkgutil

    names = []
    for package in ("gameweave_core", "gameweave_house", "gameweave_museum"):
        pkg = importlib.import_module(package)
        for info in pkgutil.iter_modules(pkg.__path__, package + "."):
            spec = importlib.util.find_spec(info.name)
            if spec is not None and not str(spec.origin).endswith(".py"):
                names.append(info.name)
    return sorted(names)


# -- simulate on a Dask cluster against a process pool -------------------------------


def simulate_on(title: str, how: str, games: int, seed: int = 1) -> Callable[[int], int]:
    """``simulate`` of the same ``games`` games (one run per step) through a pool of two
    forked processes (``how="pool"``, as ``--jobs 2``) or a ``LocalCluster`` of two
    worker processes (``how="cluster"``, as ``--cluster local:2``). Each step starts
    the pool or cluster, plays the games, and stops it, so that nothing idles beside
    the other contender; the extras time the games alone: ``games_wall``, and
    ``games_cpu``, the CPU time of this process (the client, and a local cluster's
    scheduler), with ``json``, the results, to check that both print the same."""
    import json
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    from gameweave_cli.simulate import simulate
    from gameweave_dask.cluster import open_cluster

    if how not in ("pool", "cluster"):
        raise ValueError(f"how={how!r}: pool or cluster")
    entry = default_registry().entry(title)
    last: dict[str, Any] = {}

    def step(i: int) -> int:
        executor: Any
        if how == "pool":
            executor = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
            executor.submit(int).result()  # both workers forked now, as the CLI does
        else:
            executor = open_cluster("local:2", entry)
        with executor:
            t0, c0 = time.perf_counter(), time.process_time()
            result = simulate(title, games, entry.title.min_players, seed, {}, executor, window=4)
            last["games_wall"] = time.perf_counter() - t0
            last["games_cpu"] = time.process_time() - c0
        last["json"] = json.dumps(result.to_json())
        return games

    step.extra = lambda: dict(last)  # type: ignore[attr-defined]
    return step
