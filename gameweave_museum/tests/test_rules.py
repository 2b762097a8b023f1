"""One test per rule of The Museum Job, each on a small hand-made position.

Every test names the rule it checks; breaking that rule in ``rules.py`` makes it
fail. The positions are on the Quayside Palace (see ``scenario.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from scenario import PLAN, case_index, guard, kinds, scenario, sq, stay_all, texts, thief

from gameweave_core import Match, Outcome, Rng
from gameweave_core.runner import play_out
from gameweave_museum import MuseumJob, rules
from gameweave_museum.actions import (
    Cut,
    Enter,
    Escape,
    Hold,
    Lift,
    MoveGuard,
    Pick,
    Post,
    Walk,
)
from gameweave_museum.floorplan import coord
from gameweave_museum.sight import camera_working
from gameweave_museum.state import ENTRY, OVER, SECURITY, THIEF

TITLE = MuseumJob()


def walks(state: Any) -> set[str]:
    return {a.to for a in rules.legal_actions(state, 1) if isinstance(a, Walk)}


# -- the table and setup -------------------------------------------------------------


def test_crowns_go_into_the_vault_cases_and_the_rest_are_dealt() -> None:
    deals = set()
    for seed in range(12):
        state = rules.setup(2, {}, Rng(seed))
        vault = [state.display[c.index] for c in PLAN.cases if c.vault]
        assert [PLAN.collection[a].name for a in vault] == [
            "Crown of the Estuary",
            "Harbourmaster's Crown",
        ]
        display = [state.display[c.index] for c in PLAN.cases if not c.vault]
        assert sorted(display) == [i for i, a in enumerate(PLAN.collection) if not a.vault]
        deals.add(tuple(display))
    assert len(deals) > 6, "the display cases must be shuffled by the match generator"


def test_the_night_starts_with_dawn_at_18_everything_working_and_locked() -> None:
    match = Match(TITLE, 3, 5)
    view = match.view(None)
    assert view["dawn"] == 18 and view["round"] == 1
    assert all(c["status"] == "working" for c in view["cameras"])
    assert all(b["status"] == "on" for b in view["breakers"])
    assert match.awaiting == (2,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lowest_security_seat_makes_the_setup_choices(players: Any) -> None:
    match = Match(TITLE, players, 1)
    for guard_number in (1, 2, 3):
        assert match.awaiting == (2,)
        act = next(a for a in match.legal_actions(2) if a.guard == guard_number)
        match.submit(2, act)
    assert match.awaiting == (1,)


def _post_all(players: int, seats: list[int]) -> Match:
    match = Match(TITLE, players, 1)
    for number, seat in enumerate(seats, start=1):
        options = [a for a in match.legal_actions(2) if a.seat == seat]
        assert options, f"guard {number} cannot go to seat {seat}"
        match.submit(2, options[0])
    return match


def test_with_one_security_player_they_run_all_three_guards() -> None:
    match = Match(TITLE, 2, 1)
    assert {a.seat for a in match.legal_actions(2)} == {2}


def test_with_two_security_players_one_runs_two_and_the_other_one() -> None:
    match = _post_all(3, [2, 2])
    assert {a.seat for a in match.legal_actions(2)} == {3}, "seat 3 must get the last guard"
    match = _post_all(3, [3, 2])
    assert {a.seat for a in match.legal_actions(2)} == {2, 3}


def test_with_three_security_players_each_runs_one() -> None:
    match = _post_all(4, [3])
    assert {a.seat for a in match.legal_actions(2)} == {2, 4}
    match.submit(2, next(a for a in match.legal_actions(2) if a.seat == 4))
    assert {a.seat for a in match.legal_actions(2)} == {2}


def test_guards_go_on_free_posts_only() -> None:
    match = Match(TITLE, 2, 1)
    first = match.legal_actions(2)[0]
    match.submit(2, first)
    assert first.at not in {a.at for a in match.legal_actions(2)}
    assert {a.at for a in match.legal_actions(2)} < {coord(p) for p in PLAN.posts}
    taken = Post(2, first.at, 2)
    assert "already posted" in _reason(match.state, 2, taken)


def test_the_thief_forces_one_exit_secretly_and_starts_there() -> None:
    histories = set()
    for e in PLAN.exits:
        match = _post_all(2, [2, 2, 2])
        assert match.state.phase == ENTRY
        match.submit(1, Enter(coord(e.square)))
        mine = match.view(1)["thief"]
        assert mine["at"] == mine["entry"] == coord(e.square)
        assert mine["open_exits"] == [coord(e.square)]
        histories.add((tuple(match.history(2)), tuple(match.history(None))))
        assert "thief" not in match.view(2)
    assert len(histories) == 1, "Security must be told nothing about the entry"


# -- the round -------------------------------------------------------------------------


def test_the_security_turn_awaits_the_seat_running_each_guard_in_order() -> None:
    state = scenario(players=4)
    thief(state, Hold())
    assert state.phase == SECURITY
    for number, seat in ((1, 2), (2, 3), (3, 4)):
        assert rules.awaiting(state) == (seat,)
        guard(state, number, coord(state.guards[number - 1]))
    assert state.phase == THIEF and rules.awaiting(state) == (1,)


def test_dawn_falls_by_one_at_the_end_of_each_round() -> None:
    state = scenario()
    thief(state, Hold())
    assert state.dawn == 18
    stay_all(state)
    assert state.dawn == 17 and state.round == 2


def test_dawn_breaking_after_round_18_is_a_hard_stop_and_security_wins() -> None:
    state = scenario(round=18)
    assert state.dawn == 1
    thief(state, Hold())
    stay_all(state)
    assert state.phase == OVER and state.ended == "dawn"
    assert rules.awaiting(state) == ()
    assert _outcome(state).winners == (2,)


# -- the Thief's turn ------------------------------------------------------------------------


def test_walk_reaches_up_to_four_steps_of_walking_distance() -> None:
    state = scenario(thief="A14")
    reach = walks(state)
    assert "E14" in reach and "A12" in reach
    assert "F14" not in reach, "five steps away"


def test_walking_distance_goes_around_walls() -> None:
    state = scenario(thief="D6", guards=("J4", "S7", "K12"))
    # F6 is two squares away across the wall E6, but six steps of walking.
    assert "F6" not in walks(state)
    assert "F8" in walks(state)


def test_carrying_anything_heavy_cuts_the_walk_to_two() -> None:
    state = scenario(thief="A14", taken={"N13": 1})  # the Tapestry is heavy
    assert walks(state) == {"B14", "C14", "A13", "A12", "B13"}


def test_light_artifacts_do_not_slow_the_thief() -> None:
    state = scenario(thief="A14", taken={"G13": 1})  # the Sapphire Compass is light
    assert "E14" in walks(state)


def test_the_thief_never_walks_onto_a_guard() -> None:
    state = scenario(thief="A12", guards=("C12", "B7", "S7"))
    assert "C12" not in walks(state)


def test_the_thief_never_walks_through_a_guard() -> None:
    # The only way from the West wing's C8 into the Court within four steps is
    # the doorway E8; a guard standing in it closes the way.
    open_way = scenario(thief="C8", guards=("J4", "S7", "K12"))
    assert "G8" in walks(open_way)
    blocked = scenario(thief="C8", guards=("E8", "S7", "K12"))
    assert "G8" not in walks(blocked) and "F8" not in walks(blocked)


def test_walk_then_cut_cuts_the_camera_arrived_at() -> None:
    state = scenario(thief="A12", guards=("J4", "B7", "S7"))
    thief(state, Walk("E12", "cut"))
    assert state.thief == sq("E12") and state.cut_cameras == {6: 1}


def test_cut_on_arrival_is_offered_only_at_a_camera_or_breaker() -> None:
    state = scenario(thief="A12")
    cuts = {a.to for a in rules.legal_actions(state, 1) if getattr(a, "then", "") == "cut"}
    assert cuts == {"E12", "A10"}  # camera 6, and the West breaker by B11


def test_hold_stays_put() -> None:
    state = scenario(thief="A14")
    thief(state, Hold())
    assert state.thief == sq("A14") and state.route[-1] == sq("A14")


def test_lift_needs_the_thief_on_a_case_with_its_artifact() -> None:
    state = scenario(thief="H13")
    assert Lift() not in rules.legal_actions(state, 1)
    state = scenario(thief="G13")
    thief(state, Lift())
    assert rules.satchel_value(PLAN, state) == 3
    assert state.taken == {case_index("G13"): 1}
    stay_all(state)
    assert Lift() not in rules.legal_actions(state, 1), "the case is empty now"


def test_lift_is_not_offered_together_with_a_walk() -> None:
    # Lifting takes the whole turn on the square where the turn began.
    state = scenario(thief="H13")
    thief(state, Walk("G13"))
    assert state.taken == {}


def test_pick_opens_a_locked_exit_the_thief_stands_on() -> None:
    state = scenario(thief="J14", entry="D14")
    thief(state, Pick())
    assert sq("J14") in state.open_exits
    stay_all(state)
    assert Pick() not in rules.legal_actions(state, 1), "already open"


def test_cut_while_standing_on_a_breaker_blinds_its_wing() -> None:
    state = scenario(thief="T13", guards=("J4", "B7", "S7"))
    thief(state, Cut())
    assert state.cut_breakers == {"South": 1}
    cam7 = PLAN.cameras[6]
    assert not camera_working(state, cam7)


def test_a_cut_camera_cannot_be_cut_again() -> None:
    state = scenario(thief="E12")
    thief(state, Cut())
    stay_all(state)
    assert Cut() not in rules.legal_actions(state, 1)


def test_escape_needs_an_open_exit_and_a_satchel_worth_four() -> None:
    state = scenario(thief="D14", entry="D14", taken={"G13": 1})  # worth 3
    assert Escape() not in rules.legal_actions(state, 1)
    state = scenario(thief="D14", entry="D14", taken={"G13": 1, "D1": 1})  # worth 4
    thief(state, Escape())
    assert state.phase == OVER and _outcome(state).winners == (1,)


def test_escape_is_refused_through_a_locked_exit() -> None:
    state = scenario(thief="J14", entry="D14", taken={"G13": 1, "D1": 1})
    assert Escape() not in rules.legal_actions(state, 1)
    assert "not standing on an open exit" in _reason(state, 1, Escape())


def test_walk_then_escape_leaves_through_the_open_exit_arrived_at() -> None:
    state = scenario(thief="A14", entry="D14", taken={"G13": 1, "D1": 1})
    thief(state, Walk("D14", "escape"))
    assert state.ended == "escape"


def test_escaping_ends_the_heist_before_anyone_looks() -> None:
    # A guard watches the river row, but the Thief is already gone.
    state = scenario(
        thief="C14", entry="D14", guards=("J4", "B7", "K14"), taken={"G13": 1, "D1": 1}
    )
    thief(state, Walk("D14", "escape"))
    assert kinds(state, "last_seen") == [] and state.ended == "escape"


# -- end of the Thief's turn: sight ----------------------------------------------------------


def test_a_guard_sees_the_thief_along_its_row() -> None:
    state = scenario(thief="A12", guards=("J4", "B7", "K12"))
    thief(state, Walk("C12"))
    [seen] = kinds(state, "last_seen")
    assert (seen.square, seen.round, seen.how) == (sq("C12"), 1, "guard 3")


def test_a_guard_sees_along_its_column() -> None:
    state = scenario(thief="K14", guards=("J4", "B7", "K12"))
    thief(state, Hold())
    assert [e.how for e in kinds(state, "last_seen")] == ["guard 3"]


def test_guards_do_not_see_diagonally() -> None:
    state = scenario(thief="J13", guards=("H4", "B7", "K12"))
    thief(state, Hold())
    assert kinds(state, "last_seen") == []


def test_walls_stop_a_guards_sight() -> None:
    # K12 looks north into the wall K11; the Court beyond is out of sight.
    state = scenario(thief="K10", guards=("J4", "B7", "K12"))
    thief(state, Hold())
    assert kinds(state, "last_seen") == []


def test_spotted_is_a_photograph_not_a_catch() -> None:
    state = scenario(thief="A12", guards=("J4", "B7", "K12"))
    thief(state, Walk("C12"))
    assert state.phase == SECURITY and state.ended == ""


def test_cameras_report_only_while_a_guard_is_in_the_office() -> None:
    state = scenario(thief="A12", guards=("J4", "B7", "S7"))
    thief(state, Walk("C12"))  # in camera 6's view
    assert kinds(state, "last_seen") == []
    state = scenario(thief="A12", guards=("J8", "B7", "S7"))  # J8 is in the Office
    thief(state, Walk("C12"))
    assert [e.how for e in kinds(state, "last_seen")] == ["camera 6"]


def test_a_camera_never_sees_its_own_square() -> None:
    state = scenario(thief="A12", guards=("J8", "B7", "S7"))
    thief(state, Walk("E12"))
    assert kinds(state, "last_seen") == []


def test_a_camera_watches_five_squares_and_no_further() -> None:
    state = scenario(thief="J13", guards=("K8", "B7", "S7"))
    thief(state, Walk("J12"))  # five squares east of camera 6 (E12)
    assert [e.how for e in kinds(state, "last_seen")] == ["camera 6"]
    state = scenario(thief="K13", guards=("K8", "B7", "S7"))
    thief(state, Walk("K14"))
    assert kinds(state, "last_seen") == []
    assert sq("K12") not in PLAN.cameras[5].coverage


def test_a_cut_camera_sees_nothing() -> None:
    state = scenario(thief="E12", guards=("J8", "B7", "S7"))
    state.cut_cameras[6] = 0
    state.dead_cameras.append(6)
    thief(state, Walk("C12"))
    assert kinds(state, "last_seen") == []


def test_a_dark_wing_blinds_its_cameras() -> None:
    state = scenario(thief="E12", guards=("J8", "B7", "S7"))
    state.cut_breakers["South"] = 0
    state.dark_wings.append("South")
    thief(state, Walk("C12"))
    assert kinds(state, "last_seen") == []


# -- thefts --------------------------------------------------------------------------------


def test_lifting_is_silent_and_the_case_shows_the_artifact_for_the_round() -> None:
    match_state = scenario(thief="G13", guards=("J4", "B7", "S7"))
    events = thief(match_state, Lift())
    assert texts(events, 2) == ["The Thief takes a turn"]
    stay_all(match_state)
    placard = next(p for p in TITLE.view(match_state, 2)["placards"] if p["case"] == "G13")
    assert placard["status"] == "on display"


def test_a_theft_comes_off_at_the_end_of_the_thiefs_next_turn() -> None:
    state = scenario(thief="G13", guards=("J4", "B7", "S7"), round=3)
    thief(state, Lift())
    stay_all(state)
    thief(state, Walk("I13"))
    [frame] = kinds(state, "empty_frame")
    assert (frame.square, frame.round) == (sq("G13"), 3)
    placard = next(p for p in TITLE.view(state, None)["placards"] if p["case"] == "G13")
    assert placard == {**placard, "status": "gone", "taken_round": 3}


def test_an_empty_case_in_a_guards_sight_after_its_move_comes_to_light() -> None:
    state = scenario(thief="N13", guards=("J4", "B7", "H14"), round=2)
    state.taken[case_index("G13")] = 2  # lifted this round; the Thief has moved on
    state.phase = SECURITY
    guard(state, 1, "J4")
    guard(state, 2, "B7")
    assert kinds(state, "empty_frame") == [], "H14 does not look at G13"
    guard(state, 3, "G14")  # G14 looks straight up at the case G13
    [frame] = kinds(state, "empty_frame")
    assert frame.square == sq("G13") and frame.round == 2


def test_an_empty_case_a_working_camera_sees_comes_to_light_while_the_office_is_manned() -> None:
    state = scenario(thief="A14", guards=("J4", "J6", "S7"), round=4)
    state.taken[case_index("D1")] = 4  # camera 1 (D2) looks straight at D1
    state.phase = SECURITY
    guard(state, 1, "J4")
    assert kinds(state, "empty_frame") == [], "nobody on the monitors yet"
    guard(state, 2, "J7")  # into the Office: the monitors are read
    [frame] = kinds(state, "empty_frame")
    assert (frame.square, frame.round) == (sq("D1"), 4)


def test_the_satchel_never_loses_value() -> None:
    lifted = 0
    for seed in range(6):
        match = Match(TITLE, 2, seed)
        play_out(match)
        best = 0
        for step in match.steps():
            value = rules.satchel_value(PLAN, step.state)
            assert value >= best
            lifted += value > best
            best = value
    assert lifted, "the games played must include thefts"


# -- the vault ----------------------------------------------------------------------------


def test_lifting_a_crown_with_the_north_wing_powered_sets_off_the_alarm() -> None:
    state = scenario(thief="I1", guards=("J8", "B7", "S7"), round=5)
    events = thief(state, Lift())
    [alarm] = kinds(state, "alarm")
    assert (alarm.square, alarm.round) == (sq("I1"), 5)
    assert state.revealed == {case_index("I1"): 5}, "the crown comes off at once"
    assert [e.how for e in kinds(state, "last_seen")] == ["vault alarm"]
    assert any("alarm" in t for t in texts(events, 2))


def test_with_the_north_breaker_cut_the_vault_is_quiet() -> None:
    state = scenario(thief="I1", guards=("J4", "B7", "S7"), round=5)
    state.cut_breakers["North"] = 3
    thief(state, Lift())
    assert kinds(state, "alarm") == [] and state.revealed == {}
    stay_all(state)
    thief(state, Hold())
    assert state.revealed == {case_index("I1"): 5}, "it comes off at the end of the next turn"


def test_crowns_are_heavy() -> None:
    state = scenario(thief="I1", guards=("J4", "B7", "S7"))
    state.cut_breakers["North"] = 1
    thief(state, Lift())
    assert rules.walk_range(PLAN, state) == 2


# -- guards -------------------------------------------------------------------------------


def test_a_guard_moves_up_to_three_steps_and_walls_block() -> None:
    state = scenario(thief="A14", guards=("K12", "B7", "S7"))
    thief(state, Hold())
    moves = {a.to for a in rules.legal_actions(state, 2)}
    assert {"K12", "N12", "H12", "K14", "J13"} <= moves
    assert "O12" not in moves, "four steps"
    assert "K10" not in moves, "behind the wall K11: four steps round by J11"


def test_staying_put_is_a_legal_guard_move() -> None:
    state = scenario(guards=("K12", "B7", "S7"))
    thief(state, Hold())
    assert MoveGuard(1, "K12") in rules.legal_actions(state, 2)


def test_a_guard_ending_on_the_thief_catches_them() -> None:
    state = scenario(thief="L14", guards=("K12", "B7", "S7"))
    thief(state, Hold())
    guard(state, 1, "L14")
    assert state.phase == OVER and state.ended == "catch"
    assert _outcome(state).winners == (2,)


def test_walking_through_the_thiefs_square_catches_nobody() -> None:
    # From M12 to M14 the only 2-step way is through M13, where the Thief stands.
    state = scenario(thief="M13", guards=("M12", "B7", "S7"))
    thief(state, Hold())
    guard(state, 1, "M14")
    assert state.ended == ""


def test_two_guards_never_end_on_one_square() -> None:
    state = scenario(guards=("K12", "L12", "S7"))
    thief(state, Hold())
    assert MoveGuard(1, "L12") not in rules.legal_actions(state, 2)
    assert MoveGuard(1, "M12") in rules.legal_actions(state, 2), "but they pass each other"


def test_a_guard_who_sees_the_thief_after_moving_spots_them() -> None:
    state = scenario(thief="A14", guards=("K12", "B7", "S7"))
    thief(state, Hold())
    guard(state, 1, "K14")
    assert [e.how for e in kinds(state, "last_seen")] == ["guard 1"]


def test_a_guard_on_an_open_exit_locks_it_and_leaves_a_forced_exit_marker() -> None:
    state = scenario(thief="A12", guards=("K12", "B7", "S7"), entry="J14", round=2)
    thief(state, Hold())
    guard(state, 1, "J14")
    assert sq("J14") not in state.open_exits
    [marker] = kinds(state, "forced_exit")
    assert (marker.square, marker.round) == (sq("J14"), 2)


def test_a_guard_on_a_locked_exit_finds_nothing() -> None:
    state = scenario(thief="A12", guards=("K12", "B7", "S7"), entry="D14")
    thief(state, Hold())
    guard(state, 1, "J14")
    assert kinds(state, "forced_exit") == []


def test_a_guard_on_a_cut_breaker_resets_it_and_the_cut_goes_on_the_map() -> None:
    state = scenario(thief="A14", guards=("Q13", "B7", "S7"), round=6)
    state.cut_breakers["South"] = 3
    thief(state, Hold())
    guard(state, 1, "T13")
    assert "South" not in state.cut_breakers
    [dark] = kinds(state, "dark")
    assert (dark.square, dark.since, dark.round) == (sq("T13"), 1, 6)


def test_a_guard_on_a_cut_camera_repairs_it() -> None:
    state = scenario(thief="A14", guards=("H12", "B7", "S7"), round=4)
    state.cut_cameras[6] = 2
    thief(state, Hold())
    guard(state, 1, "E12")
    assert state.cut_cameras == {}
    [cut] = kinds(state, "cut_camera")
    assert (cut.square, cut.since, cut.round) == (sq("E12"), 1, 4)


# -- the monitors -----------------------------------------------------------------------------


def test_the_monitors_find_a_dead_feed_with_the_rounds_it_could_have_happened_in() -> None:
    state = scenario(thief="A14", guards=("J8", "B7", "S7"), round=5)
    state.confirmed["camera 6"] = 2  # last seen working in round 2
    state.cut_cameras[6] = 3
    thief(state, Hold())
    [cut] = kinds(state, "cut_camera")
    assert (cut.since, cut.round) == (3, 5)
    assert 6 in state.dead_cameras and 6 in state.cut_cameras, "found, not repaired"


def test_a_feed_cut_this_round_shows_the_thief_caught_cutting() -> None:
    state = scenario(thief="C12", guards=("J8", "B7", "S7"), round=5)
    thief(state, Walk("E12", "cut"))
    [seen] = kinds(state, "last_seen")
    assert (seen.square, seen.how) == (sq("E12"), "caught cutting")


def test_the_monitors_find_a_dark_wing() -> None:
    state = scenario(thief="Q13", guards=("J4", "B7", "S7"), round=3)
    thief(state, Walk("T13", "cut"))
    assert kinds(state, "dark") == [], "nobody is watching the monitors"
    state.guards[0] = sq("J6")
    guard(state, 1, "J7")
    [dark] = kinds(state, "dark")
    assert dark.square == sq("T13") and dark.round == 3
    assert [e.how for e in kinds(state, "last_seen")] == ["caught cutting"]


def test_the_monitors_are_read_after_every_guard_move() -> None:
    state = scenario(thief="A12", guards=("J4", "B7", "S7"), round=2)
    thief(state, Walk("C12"))
    assert kinds(state, "last_seen") == []
    guard(state, 1, "J7")  # into the Office: camera 6 shows C12
    assert [e.how for e in kinds(state, "last_seen")] == ["camera 6"]


def test_a_dead_feed_is_found_only_once() -> None:
    state = scenario(thief="A14", guards=("J8", "B7", "S7"), round=5)
    state.cut_cameras[6] = 3
    thief(state, Hold())
    stay_all(state)
    thief(state, Hold())
    assert len(kinds(state, "cut_camera")) == 1


def test_the_window_starts_after_the_last_time_the_feed_was_seen_working() -> None:
    state = scenario(thief="C13", guards=("J8", "B7", "S7"), round=2)
    thief(state, Hold())  # the monitors show camera 6 working in round 2
    stay_all(state)
    state.guards[0] = sq("J4")  # nobody on the monitors for a while
    thief(state, Walk("E12", "cut"))
    stay_all(state)
    thief(state, Walk("B13"))
    state.guards[0] = sq("J6")
    stay_guards = state.guards[1:]
    guard(state, 1, "J7")
    [cut] = kinds(state, "cut_camera")
    assert (cut.since, cut.round) == (3, 4)
    assert stay_guards == state.guards[1:]


# -- views and history ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "act", [Walk("B14"), Hold(), Pick(), Walk("E12", "cut")], ids=["walk", "hold", "pick", "cut"]
)
def test_every_thief_turn_reads_the_same_to_security_and_spectators(act: Any) -> None:
    state = scenario(thief="D14" if isinstance(act, Pick) else "A12", entry="J14")
    if isinstance(act, Walk) and act.to == "B14":
        state.thief = sq("A14")
    events = thief(state, act)
    for seat in (2, None):
        assert texts(events, seat)[0] == "The Thief takes a turn"
        assert all("Thief takes" in t or "Spotted" in t for t in texts(events, seat))


def test_security_and_spectator_views_never_hold_the_thiefs_secrets() -> None:
    match = Match(TITLE, 3, 11)
    play_out(match, {1: "random", 2: "random", 3: "random"})
    for step in match.steps():
        for seat in (2, 3, None):
            view = step.view(seat)
            assert "thief" not in view
            if not step.is_over:
                assert "reveal" not in view
        if step.step > 8:
            break


def test_when_the_heist_ends_everything_the_thief_did_becomes_public() -> None:
    state = scenario(thief="M14", guards=("N12", "B7", "S7"), entry="J14")
    thief(state, Walk("N14"))
    guard(state, 1, "N14")
    for seat in (2, None):
        reveal = TITLE.view(state, seat)["reveal"]
        assert reveal["route"] == ["J14", "M14", "N14"]
        assert reveal["entry"] == "J14" and reveal["at"] == "N14"


# -- rulings (docs/titles/museum/rulings.md) ---------------------------------------------


def test_ruling_a_cut_camera_in_a_dark_wing_is_found_once_the_power_is_back() -> None:
    state = scenario(thief="A14", guards=("J8", "B7", "Q13"), round=5)
    state.cut_cameras[6] = 2
    state.cut_breakers["South"] = 3
    thief(state, Hold())
    assert [e.kind for e in state.evidence] == ["dark"], "the dark wing hides the cut camera"
    guard(state, 1, "J8")
    guard(state, 2, "B7")
    guard(state, 3, "T13")  # resets the South breaker; the monitors are read again
    cut = kinds(state, "cut_camera")
    assert [(c.square, c.since, c.round) for c in cut] == [(sq("E12"), 1, 5)]


def test_ruling_a_guard_standing_on_a_working_camera_confirms_it() -> None:
    state = scenario(thief="A14", guards=("H12", "B7", "S7"), round=2)
    thief(state, Hold())
    guard(state, 1, "E12")  # camera 6 is fine: Security knows it worked in round 2
    stay_all(state)
    thief(state, Hold())
    guard(state, 1, "H12")
    state.cut_cameras[6] = 3  # cut after the guard left, in round 3
    stay_all(state)
    state.guards[0] = sq("J6")
    thief(state, Hold())
    guard(state, 1, "J7")  # the monitors find it in round 4
    [cut] = kinds(state, "cut_camera")
    assert (cut.since, cut.round) == (3, 4)


def test_ruling_a_repaired_camera_can_be_cut_again() -> None:
    state = scenario(thief="C12", guards=("H12", "B7", "S7"))
    thief(state, Walk("E12", "cut"))
    state.thief = sq("E13")  # (stepped aside, so the repairing guard catches nobody)
    guard(state, 1, "E12")
    assert state.cut_cameras == {}
    state.guards[0] = sq("H12")
    stay_all(state)
    state.thief = sq("E13")
    thief(state, Walk("E12", "cut"))
    assert state.cut_cameras == {6: 2}


def test_ruling_a_relocked_exit_can_be_picked_again() -> None:
    state = scenario(thief="A12", guards=("K12", "B7", "S7"), entry="J14")
    thief(state, Hold())
    guard(state, 1, "J14")
    stay_all(state)
    state.guards[0] = sq("K12")
    state.thief = sq("J14")
    thief(state, Pick())
    assert sq("J14") in state.open_exits


def test_ruling_a_walk_must_leave_the_square() -> None:
    state = scenario(thief="A14")
    assert Walk("A14") not in rules.legal_actions(state, 1)
    assert "already there" in _reason(state, 1, Walk("A14"))


def test_ruling_escape_takes_nothing_off_the_board() -> None:
    state = scenario(thief="C14", entry="D14", taken={"G13": 1, "D1": 1}, round=3)
    thief(state, Walk("D14", "escape"))
    assert kinds(state, "empty_frame") == []


@pytest.mark.parametrize(
    ("act", "words"),
    [
        (Walk("K4"), "more than 4 steps"),
        (Walk("E4"), "is a wall"),
        (Walk("B7"), "a guard stands on B7"),
        (Walk("B14", "cut"), "nothing at B14 you can cut"),
        (Lift(), "not standing on a case"),
        (Pick(), "not standing on an exit"),
        (Escape(), "not standing on an open exit"),
        (MoveGuard(1, "K12"), "not guard"),
    ],
)
def test_illegal_thief_actions_say_why_in_one_line(act: Any, words: Any) -> None:
    state = scenario(thief="A14")
    reason = _reason(state, 1, act)
    assert words in reason and "\n" not in reason


def test_illegal_guard_moves_say_why_without_mentioning_the_thief() -> None:
    state = scenario(thief="L12", guards=("K12", "B7", "S7"))
    thief(state, Hold())
    cases = {
        MoveGuard(2, "K13"): "guard 1's move",
        MoveGuard(1, "B7"): "another guard stands on B7",
        MoveGuard(1, "K11"): "is a wall",
        MoveGuard(1, "P12"): "more than 3 steps",
    }
    for act, words in cases.items():
        reason = _reason(state, 2, act)
        assert words in reason and "L12" not in reason and "Thief" not in reason


def test_the_spectator_sees_exactly_what_security_sees() -> None:
    match = Match(TITLE, 3, 4)
    play_out(match, {1: "random", 2: "random", 3: "random"})
    for step in match.steps():
        security = {k: v for k, v in step.view(2).items() if k != "you"}
        spectator = {k: v for k, v in step.view(None).items() if k != "you"}
        assert security == spectator
        assert step.history(2) == step.history(3) == step.history(None)
        if step.step > 20:
            break


def _reason(state: Any, seat: int, act: Any) -> str:
    """The rules' reason for refusing ``act``; a refusal always has one."""
    reason = rules.explain_illegal(state, seat, act)
    assert reason is not None, f"{act} has no reason to be refused"
    return reason


def _outcome(state: Any) -> Outcome:
    result = TITLE.outcome(state)
    assert result is not None, "the game is not over"
    return result
