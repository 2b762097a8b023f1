"""The resample hook: Thief histories Security cannot tell from the real one.

Whole games are played by the heuristic bots and by random play; at their steps
the hook draws a history for Security and the spectator, and the tests hold it
to the contract: the seat's view, legal actions, labels and refusals are the
same; the drawn history, replayed as a match beside the real one, gives Security
the same views and history at every step; the draws really vary where the
evidence leaves room, and agree where it pins the Thief down.
"""

from __future__ import annotations

import copy
from functools import cache

import pytest
from scenario import scenario

from gameweave_core import Match, Rng, derive_seed
from gameweave_core.testing import check_worlds
from gameweave_core.worlds import World, resampled_world
from gameweave_museum import MuseumJob, resample, rules, views
from gameweave_museum.actions import Cut, Enter, Hold, Lift, MoveGuard, Pick, Walk
from gameweave_museum.bots import heuristic_bot
from gameweave_museum.floorplan import coord, quayside_palace
from gameweave_museum.state import SECURITY, THIEF, State

TITLE = MuseumJob()
PLAN = quayside_palace()
#: (players, seed, bots): "heuristic" or "random" for every seat.
GAMES = [(p, s, b) for b in ("heuristic", "random") for p, s in ((2, 1), (3, 2), (4, 3), (2, 4))]


def play(players: int, seed: int, bots: str) -> Match:
    match = Match(TITLE, players, seed)
    rng = Rng(derive_seed(seed, "test bots"))
    players_bots = {s: heuristic_bot(s, players) for s in range(1, players + 1)}
    while match.awaiting:
        seat = match.awaiting[0]
        if bots == "heuristic":
            act = players_bots[seat].act(match.observe(seat), rng)
        else:
            act = rng.choice(match.legal_actions(seat))
        match.submit(seat, act)
    return match


@cache
def games() -> list[Match]:
    return [play(*game) for game in GAMES]


def hidden_steps(match: Match, every: int = 1) -> list[Match]:
    """The match as it stood at every ``every``-th step while the Thief is hidden."""
    out = []
    for step in match.steps():
        if step.step % every == 0 and step.state.phase in (THIEF, SECURITY):
            out.append(copy.deepcopy(step))
    return out


def seats(match: Match) -> list[int | None]:
    return [*range(2, match.players + 1), None]


def test_a_resampled_state_looks_the_same_to_the_seat_it_was_drawn_for() -> None:
    checked = 0
    for match in games():
        for at in hidden_steps(match, every=3):
            state: State = at.state
            before = TITLE.snapshot(state), copy.deepcopy(state.trail)
            for seat in seats(match):
                seed = derive_seed(at.step, f"seat {seat}")
                drawn = TITLE.resample(state, seat, Rng(seed))
                assert (TITLE.snapshot(state), state.trail) == before, "the input changed"
                assert drawn is not state
                assert TITLE.view(drawn, seat) == TITLE.view(state, seat)
                for other in range(1, match.players + 1):
                    assert views.seat_label(drawn, other) == views.seat_label(state, other)
                    if other != 1:
                        legal = rules.legal_actions(state, other)
                        assert rules.legal_actions(drawn, other) == legal
                        assert views.has_secrets(drawn, other) == views.has_secrets(state, other)
                if seat is not None:
                    for probe in (Walk("K7"), MoveGuard(1, "A1"), MoveGuard(3, "K7"), Enter("A8")):
                        assert rules.explain_illegal(drawn, seat, probe) == rules.explain_illegal(
                            state, seat, probe
                        )
                again = TITLE.resample(state, seat, Rng(seed))
                assert TITLE.snapshot(again) == TITLE.snapshot(drawn), "not deterministic"
                checked += 1
    assert checked > 300


def test_every_draw_agrees_with_the_evidence_without_falling_back_to_the_truth() -> None:
    """``draw`` returns ``None`` only when no draw of ATTEMPTS agreed (then the hook
    copies the real state); in these games that never happens."""
    for match in games():
        for at in hidden_steps(match, every=3):
            assert resample.draw(at.state, Rng(at.step)) is not None, f"step {at.step}"


def test_a_drawn_history_replays_beside_the_real_match_to_the_same_views() -> None:
    """The drawn Thief actions, played with the real guard moves, give Security and
    the spectator the same view and history as the real match at every step, and
    end in the very state the hook returned."""
    kinds: set[str] = set()
    for match in games():
        for at in hidden_steps(match, every=9):
            drawn = resample.draw(at.state, Rng(derive_seed(match.seed, f"replay {at.step}")))
            assert drawn is not None
            thief_actions, state = drawn
            kinds.update(type(a).__name__ for a in thief_actions)
            kinds.update("walk cut" for a in thief_actions if isinstance(a, Walk) and a.then)
            mine = iter(thief_actions)
            twin = Match(TITLE, match.players, match.seed)
            real = match.fresh()
            for seat, act in at.actions():
                real.submit(seat, act)
                twin.submit(seat, next(mine) if seat == 1 else act)
                for who in seats(match):
                    assert twin.view(who) == real.view(who), f"step {real.step}, seat {who}"
                    assert twin.history(who) == real.history(who)
            assert next(mine, None) is None, "the draw has more Thief actions than the match"
            assert TITLE.snapshot(twin.state) == TITLE.snapshot(state)
    # The games are rich enough that draws pick, cut and lift, not only walk.
    assert {"Lift", "Hold"} <= kinds and ("Cut" in kinds or "walk cut" in kinds), kinds


def test_the_games_hold_the_evidence_the_obligations_are_about() -> None:
    """Otherwise the tests above would not exercise forced exits, found cuts and
    thefts."""
    found: set[str] = set()
    for match in games():
        found.update(ev.kind for ev in match.state.evidence)
    assert {"forced_exit", "empty_frame", "last_seen"} <= found, found
    assert found & {"cut_camera", "dark"}, found


def test_draws_spread_over_the_squares_the_evidence_allows() -> None:
    spread = 0
    for match in games():
        for at in hidden_steps(match, every=5):
            state: State = at.state
            squares = {
                TITLE.resample(state, 2, Rng(derive_seed(at.step, f"draw {i}"))).thief
                for i in range(8)
            }
            latest = len(state.route) - 1
            sighted = {ev.square for ev in state.evidence if ev.kind == "last_seen"}
            seen_now = [
                ev.square
                for ev in state.evidence
                if ev.kind == "last_seen" and ev.round == latest and latest > 0
            ]
            if seen_now:
                assert squares == {seen_now[-1]}, "a sighting this round pins the Thief"
            spread += len(squares) >= 3
            assert squares <= {sq for sq in PLAN.floor} - (set(state.guards) - sighted)
    assert spread >= 20


def test_before_any_check_every_exit_may_be_the_entry() -> None:
    match = games()[0].at(4)  # three posts and the entry
    assert match.state.phase == THIEF and match.state.round == 1
    entries = {TITLE.resample(match.state, None, Rng(i)).entry for i in range(60)}
    assert entries == {e.square for e in PLAN.exits}


def test_hidden_picks_and_cuts_are_drawn_where_nothing_saw_them() -> None:
    """With nobody on the monitors and no guard coming by, a Thief who stood on a
    camera might have cut it, and one seen holding on a door might have picked
    it: some draws do, some do not."""
    match = Match(TITLE, 2, 5)
    for guard, post in ((1, "J4"), (2, "B7"), (3, "K12")):
        match.submit(2, next(a for a in match.legal_actions(2) if (a.guard, a.at) == (guard, post)))
    match.submit(1, Enter("Q14"))
    # Seen by guard 3 (at K12, along row 12) on camera 7's square, unseen on the
    # way, then seen by guard 1 (at J4, down column J) at the door J14 and holding.
    for act in (Walk("P12"), Walk("N14"), Walk("J14"), Hold()):
        match.submit(1, act)
        for i in range(3):
            match.submit(2, MoveGuard(i + 1, coord(match.state.guards[i])))
    state: State = match.state
    seen = [(ev.kind, coord(ev.square), ev.round) for ev in state.evidence]
    assert seen == [("last_seen", "P12", 1), ("last_seen", "J14", 3), ("last_seen", "J14", 4)]
    drawn = [TITLE.resample(state, None, Rng(i)) for i in range(80)]
    cuts = [bool(d.cut_cameras or d.cut_breakers) for d in drawn]
    picks = [len(d.open_exits) > 1 for d in drawn]
    assert any(cuts) and not all(cuts)
    assert any(picks) and not all(picks)
    for d in drawn:
        assert d.route[1] == PLAN.cameras[6].square and d.route[3:] == [d.thief] * 2


def test_the_replay_legality_check_agrees_with_the_rules() -> None:
    """``thief_may`` stands in for listing every legal action during the replay."""
    compared = 0
    for match in games()[:4]:
        for at in hidden_steps(match, every=4):
            state: State = at.state
            if state.phase != THIEF:
                continue
            legal = rules.thief_actions(PLAN, state)
            acts = [Hold(), Lift(), Pick(), Cut()]
            acts += [Walk(coord(sq), then) for sq in PLAN.floor for then in (None, "cut")]
            for act in acts:
                assert resample.thief_may(PLAN, state, act) == (act in legal), act
                compared += 1
    assert compared > 5000


def test_a_state_not_reached_by_the_rules_is_refused_in_one_line() -> None:
    state = scenario()  # built by hand: no trail of Security's checks
    with pytest.raises(ValueError, match="no trail of Security's checks") as caught:
        TITLE.resample(state, 2, Rng(1))
    assert "\n" not in str(caught.value)
    copied = TITLE.resample(state, 1, Rng(1))  # the Thief sees it all: a copy
    assert copied is not state and TITLE.snapshot(copied) == TITLE.snapshot(state)


# -- the same draws as worlds the core checks (gameweave_core.worlds) -----------------


def test_every_world_the_hook_draws_is_accepted_by_the_core() -> None:
    """The kit's own check (``check_worlds``) on the heuristic and the random games:
    every world drawn for Security, the spectator and the Thief replays to what
    the seat was told, step by step."""
    for match in games():
        check_worlds(match, steps=8)


def test_the_thief_actions_of_a_world_stand_at_the_steps_the_thief_took() -> None:
    for match in games():
        steps = [i for i, (seat, _) in enumerate(match.actions(), start=1) if seat == 1]
        assert resample.thief_steps(len(steps)) == steps


def test_worlds_differ_from_the_real_match_in_where_the_thief_went() -> None:
    """A world that always replayed the real Thief would pass the core's check: the
    worlds drawn here put the Thief elsewhere in most draws, and only where the
    evidence pins the Thief down do they agree with the real route."""
    differ = same = 0
    for match in games():
        for at in hidden_steps(match, every=7):
            for i in range(3):
                world = TITLE.resample_world(at.state, 2, Rng(derive_seed(at.step, f"w {i}")))
                replayed = resampled_world(at, 2, world)
                if replayed.state.route != at.state.route:
                    differ += 1
                else:
                    same += 1
    assert differ > 3 * same, (differ, same)


def test_the_thief_and_a_match_before_the_break_in_get_the_real_world() -> None:
    match = games()[0]
    for at, seat in ((match.at(match.step // 2), 1), (match.at(3), 2), (match, None)):
        world = TITLE.resample_world(at.state, seat, Rng(1))
        assert world.choices == {}
        assert resampled_world(at, seat, world).state.route == at.state.route


class Blind(MuseumJob):
    """A mutant: its worlds walk the Thief anywhere the guards did not stand, as if
    no camera or guard had looked at the squares it saw empty."""

    def resample_world(self, state: State, seat: int | None, rng: Rng) -> World:
        real = TITLE.resample_world(state, seat, rng)
        if not real.choices:
            return real
        facts = resample.Facts.read(PLAN, state)
        floor = resample.masks(PLAN).floor
        for r in range(1, facts.rounds + 1):
            if facts.allowed[r] & (facts.allowed[r] - 1):  # not pinned by a sighting
                facts.allowed[r] = floor & ~facts.blocked[r]
        actions = resample.draw_history(PLAN, facts, rng, extras=False)
        if actions is None:
            return real
        return World(
            real.chance, dict(zip(resample.thief_steps(len(actions)), actions, strict=True))
        )


def test_a_world_that_ignores_what_security_saw_empty_fails_the_check() -> None:
    blind = Blind()
    failures = []
    for match in games():
        twin = Match(blind, match.players, match.seed)
        for seat, act in match.actions():
            twin.submit(seat, act)
        with pytest.raises(AssertionError, match="could not have happened") as caught:
            check_worlds(twin, steps=8)
        failures.append(str(caught.value))
    assert all("museum: the world resample_world drew for" in f for f in failures), failures


def test_the_world_ends_in_the_state_resample_draws_with_the_same_generator() -> None:
    """The search bot keeps calling ``resample``; its draw is the state the checked
    world replays to, so the core's check of the worlds covers the bot's draws."""
    compared = 0
    for match in games()[::2]:
        for at in hidden_steps(match, every=11):
            for seat in seats(match):
                seed = derive_seed(at.step, f"same {seat}")
                world = TITLE.resample_world(at.state, seat, Rng(seed))
                replayed = resampled_world(at, seat, world).state
                drawn = TITLE.resample(at.state, seat, Rng(seed))
                assert TITLE.snapshot(replayed) == TITLE.snapshot(drawn), f"step {at.step}"
                compared += 1
    assert compared >= 20
