"""The maintainers' commands: a title's traceback and debugger at the failing step,
the whole state, two logs compared, logs of other rules, logs that cannot be
laundered or read, logs that would not replay, test-only options, --version."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pexpect
import pytest
from typer.testing import CliRunner, Result

from gameweave_cli.app import app
from gameweave_core import Match, MatchLog, Registry, __version__, default_registry, play_out
from gameweave_sealedbid.title import SealedBid, State

from .buggy import GlobalRandomBid, PlantedBug, RulesV1, RulesV2
from .conftest import add_titles


def invoke(runner: CliRunner, *args: object, input: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


def one_error_line(result: Result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.fixture
def crash(installed: Any, runner: CliRunner, tmp_path: Path) -> Path:
    """A log saved by ``play`` when Planted Bug raised on its third reveal (action 6
    of two players), with the distribution a child process sees it from."""
    add_titles(installed, PlantedBug(), distribution="gameweave-buggy", version="1.0.0")
    log = tmp_path / "crash.toml"
    result = invoke(runner, "play", "plantedbug", "--seed", 4, "--seat", "1=bot", "--log", log)
    assert result.exit_code == 1, result.output
    assert "ZeroDivisionError: division by zero" in result.stderr
    assert "(add --traceback or --pdb to see where)" in result.stderr
    record = MatchLog.load(log)
    assert len(record.actions) == 6 and record.actions[-1].error is not None
    return log


# -- the title's traceback and the whole state -------------------------------------------


def test_verify_says_where_to_look_in_one_line(crash: Any, runner: CliRunner) -> None:
    result = invoke(runner, "replay", crash, "--verify")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{crash}: action 6: plantedbug raised on action 6" in line
    assert "ZeroDivisionError: division by zero" in line
    assert "--traceback or --pdb" in line


def test_traceback_is_the_titles_own_at_the_failing_step(crash: Any, runner: CliRunner) -> None:
    result = invoke(runner, "replay", crash, "--verify", "--traceback")
    assert result.exit_code == 1
    err = result.stderr
    assert err.startswith("Traceback (most recent call last):")
    # The frame of the planted bug and its line, then the one-line error last.
    assert "buggy.py" in err and "in apply" in err
    assert "share = state.lot / (state.sold - 2)" in err
    assert "ZeroDivisionError: division by zero" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: {crash}: action 6: plantedbug raised on action 6")
    assert "--traceback or --pdb" not in last


def test_traceback_of_a_log_that_verifies_is_quiet(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "fine.toml"
    play_out(Match.create("sealedbid", 2, 5, registry=default_registry())).save(log)
    result = invoke(runner, "replay", log, "--verify", "--traceback")
    assert result.exit_code == 0 and result.stderr == ""
    assert "verified; 10 actions" in result.stdout


def test_state_is_the_whole_snapshot_at_a_step(
    crash: Any, runner: CliRunner, installed: Any
) -> None:
    match = Match.load(crash, upto=5, registry=default_registry())
    result = invoke(runner, "replay", crash, "--to", 5, "--state")
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert state == json.loads(json.dumps(match.snapshot()))
    # Secrets a seat's view never holds: the sealed bid and the lots to come.
    assert state["bids"] == {"1": match.snapshot()["bids"][1]}
    assert state["deck"] and "deck" not in match.view(1)
    # The hint about the failing action goes to stderr: stdout stays JSON.
    assert "Action 6 made the title raise" in result.stderr


def test_json_holds_the_state_only_when_asked(crash: Any, runner: CliRunner) -> None:
    plain = json.loads(invoke(runner, "replay", crash, "--to", 3, "--json").stdout)
    assert "state" not in plain
    both = json.loads(
        invoke(runner, "replay", crash, "--to", 3, "--json", "--state", "--as", 1).stdout
    )
    assert both["seat"] == 1 and both["view"] == plain["view"] | {"my_bid": both["view"]["my_bid"]}
    assert both["state"] == json.loads(
        json.dumps(Match.load(crash, upto=3, registry=default_registry()).snapshot())
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--verify", "--as", "2"], "--verify checks the whole log; leave out --as"),
        (["--verify", "--state"], "--verify checks the whole log; leave out --state"),
        (["--pdb"], "--pdb needs --verify"),
        (["--to", "3", "--pdb", "--json"], "--pdb is interactive"),
        (["--step", "--state"], "--step is interactive; leave out --state"),
        (["--state", "--as", "1"], "--state prints the whole state, not a seat's view"),
        (["--diff", "x.toml", "--verify"], "--diff compares two whole logs; leave out --verify"),
    ],
)
def test_options_that_do_not_go_together_are_one_usage_line(
    crash: Any, runner: CliRunner, args: Any, message: Any
) -> None:
    result = invoke(runner, "replay", crash, *args)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert message in line and "cannot" not in line


# -- the debugger (a real terminal) -----------------------------------------------------


def spawn_replay(env: Any, *args: object) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "gameweave_cli", "replay", *map(str, args)],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
    )


def test_pdb_opens_post_mortem_in_the_titles_frame(crash: Any, buggy_env: Any) -> None:
    child = spawn_replay(buggy_env, crash, "--verify", "--pdb")
    child.expect(r"buggy\.py\(\d+\)apply\(\)")
    child.expect(r"-> share = state\.lot / \(state\.sold - 2\)")
    child.expect_exact("(Pdb) ")
    child.sendline("p state.sold, seat, action")
    child.expect(r"\(2, 2, Bid\(coins=\d+\)\)")
    child.expect_exact("(Pdb) ")
    child.sendline("q")
    child.expect("error: .*action 6: plantedbug raised on action 6")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_pdb_with_to_stops_before_the_next_action(crash: Any, buggy_env: Any) -> None:
    record = MatchLog.load(crash)
    child = spawn_replay(buggy_env, crash, "--to", 2, "--pdb")
    child.expect(r"break_before\(\)")
    child.expect_exact("(Pdb) ")
    child.sendline("p match.step, state['sold'], sorted(state['bids'])")
    child.expect_exact("(2, 1, [])")
    child.expect_exact("(Pdb) ")
    child.sendline("p next_action")
    child.expect_exact(f"Bid(coins={record.actions[2].action['coins']})")
    child.expect_exact("(Pdb) ")
    child.sendline("c")  # continuing applies action 3
    child.expect_exact(f"{crash}: action 3 applied; the match is at step 3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_continuing_into_the_failing_action_lands_post_mortem(crash: Any, buggy_env: Any) -> None:
    child = spawn_replay(buggy_env, crash, "--to", 5, "--pdb")
    child.expect_exact("(Pdb) ")
    child.sendline("c")
    child.expect(r"-> share = state\.lot / \(state\.sold - 2\)")
    child.expect_exact("(Pdb) ")
    child.sendline("q")
    child.expect("error: .*action 6: plantedbug raised on action 6")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


# -- two logs compared ----------------------------------------------------------------------


def branch(match: Match, step: int) -> Match:
    """A match with ``match``'s first ``step - 1`` actions, another legal action at
    ``step`` (the same seat), then played out by random bots."""
    other = match.at(step - 1)
    seat, recorded = match.actions()[step - 1]
    choice = next(a for a in other.legal_json(seat) if a != recorded)
    other.submit(seat, choice)
    return play_out(other)


def test_diff_names_the_first_step_and_diffs_both_states(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    a = play_out(Match.create("sealedbid", 2, 31, registry=default_registry()))
    b = branch(a, 4)
    a_path, b_path = tmp_path / "a.toml", tmp_path / "b.toml"
    a.save(a_path)
    b.save(b_path)
    result = invoke(runner, "replay", a_path, "--diff", b_path)
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert out.startswith(f"{a_path} and {b_path} first differ at step 4: the actions differ")
    a_bid, b_bid = a.actions()[3][1]["coins"], b.actions()[3][1]["coins"]
    assert f"action 4, seat {a.actions()[3][0]}: bid {a_bid}" in out
    assert f"action 4, seat {b.actions()[3][0]}: bid {b_bid}" in out
    assert f"--- {a_path} (step 4)" in out and f"+++ {b_path} (step 4)" in out
    # The unified diff holds exactly the lines of the two snapshots that differ.
    a_state = json.dumps(a.at(4).snapshot(), indent=2, sort_keys=True).splitlines()
    b_state = json.dumps(b.at(4).snapshot(), indent=2, sort_keys=True).splitlines()
    removed = [ln[1:] for ln in out.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    added = [ln[1:] for ln in out.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert removed and added
    assert all(ln in a_state for ln in removed) and all(ln in b_state for ln in added)
    assert sorted(set(a_state) - set(b_state)) == sorted(set(removed) - set(added))


def test_diff_of_a_log_with_itself_and_with_its_beginning(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    a = play_out(Match.create("sealedbid", 2, 32, registry=default_registry()))
    a_path, short = tmp_path / "a.toml", tmp_path / "short.toml"
    a.save(a_path)
    a.at(6).save(short)
    same = invoke(runner, "replay", a_path, "--diff", a_path)
    assert same.exit_code == 0
    assert "agree: the same 10 actions reach the same states" in same.stdout
    prefix = invoke(runner, "replay", a_path, "--diff", short)
    assert prefix.exit_code == 1
    assert f"agree on their first 6 actions; {a_path} goes on to action 10" in prefix.stdout


def test_diff_of_another_seed_differs_from_the_start(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    paths = []
    for seed in (1, 2):
        match = Match.create("sealedbid", 2, seed, registry=default_registry())
        paths.append(tmp_path / f"s{seed}.toml")
        match.save(paths[-1])
    # The test needs two seeds that deal differently (they do: the lots are shuffled).
    assert (
        Match.create("sealedbid", 2, 1, registry=default_registry()).digest()
        != Match.create("sealedbid", 2, 2, registry=default_registry()).digest()
    )
    result = invoke(runner, "replay", *paths[:1], "--diff", paths[1])
    assert result.exit_code == 1
    assert "first differ at step 0: the matches start apart (seed: 1 vs 2)" in result.stdout


def test_diff_needs_two_logs_of_one_title(crash: Any, runner: CliRunner, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    Match.create("sealedbid", 2, 1, registry=default_registry()).save(other)
    result = invoke(runner, "replay", crash, "--diff", other)
    assert result.exit_code == 2
    assert "--diff compares two logs of one title" in one_error_line(result)


# -- logs of other rules --------------------------------------------------------------------


def recorded_with_v1(tmp_path: Path) -> tuple[Path, int]:
    """A finished game of Revised Bids recorded with rules 1, in which the third
    lot is won (so rules 2 part from it there); returns the log and that action."""
    v1 = Registry()
    v1.add_title(RulesV1(), "gameweave-tests", "0")
    for seed in range(100):
        match = play_out(Match.create("revised", 2, seed, registry=v1), registry=v1)
        third = match.at(6)
        if third.snapshot()["coins"] != match.at(5).snapshot()["coins"]:
            path = tmp_path / "v1.toml"
            match.save(path)
            return path, 6
    raise AssertionError("no seed in 0-99 sells the third lot")  # pragma: no cover


def test_a_log_of_other_rules_says_so_then_verifies(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log, diverges = recorded_with_v1(tmp_path)
    add_titles(installed, RulesV2())
    note = f"note: {log} was recorded with revised 1, installed 2: the rules changed; verifying…"
    for args in ([], ["--verify"]):
        result = invoke(runner, "replay", log, *args)
        assert result.exit_code == 1, result.output
        lines = result.stderr.strip().splitlines()
        assert lines[0] == note
        assert lines[1].startswith(f"error: verify failed at action {diverges}: {log}:")
        assert len(lines) == 2
    # Up to the divergence, the old log still shows, after the note.
    early = invoke(runner, "replay", log, "--to", diverges - 1)
    assert early.exit_code == 0 and early.stderr.strip() == note
    assert f"step {diverges - 1} of 10" in early.stdout


def test_resume_refuses_a_log_of_other_rules(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log, _ = recorded_with_v1(tmp_path)
    record = MatchLog.load(log)
    short = tmp_path / "short.toml"
    attrs.evolve(record, actions=record.actions[:3]).save(short)
    add_titles(installed, RulesV2())
    before = short.read_text()
    result = invoke(runner, "play", "--resume", short)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "recorded with revised 1 from gameweave-tests 0; installed: revised 2 from" in line
    assert "resumed only with the rules and distribution it started with" in line
    assert short.read_text() == before


# -- logs that cannot be laundered or read -------------------------------------------------


@pytest.fixture
def saved_game(installed: Any, runner: CliRunner, tmp_path: Path) -> Path:
    """A two-player game quit after seat 1 typed two bids (seat 2 is a bot)."""
    log = tmp_path / "saved.toml"
    result = invoke(
        runner, "play", "sealedbid", "--seed", 9, "--log", log, input="bid 1\nbid 1\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert [e.seat for e in MatchLog.load(log).actions].count(1) == 2
    return log


def rewrite(path: Path, edit: Any) -> str:
    """Edit a log's entries as a person with an editor could; returns the new text."""
    record = MatchLog.load(path)
    record = attrs.evolve(record, actions=[edit(e) for e in record.actions])
    record.save(path)
    return path.read_text()


def test_resume_refuses_a_tampered_log_and_leaves_it_alone(
    saved_game: Any, runner: CliRunner
) -> None:
    # Seat 1's first bid changed by hand; the digests still tell the true game.
    first = next(e for e in MatchLog.load(saved_game).actions if e.seat == 1)
    assert first.action == {"type": "bid", "coins": 1}
    tampered = rewrite(
        saved_game,
        lambda e: (
            attrs.evolve(e, action={"type": "bid", "coins": 0}) if e.index == first.index else e
        ),
    )
    result = invoke(runner, "play", "--resume", saved_game, input="bid 1\n" * 4)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert f"{saved_game}: action {first.index}: the state now differs" in line
    assert "--resume continues only a log that verifies" in line
    assert saved_game.read_text() == tampered
    assert invoke(runner, "replay", saved_game, "--verify").exit_code == 1


def test_resume_refuses_a_log_without_digests(saved_game: Any, runner: CliRunner) -> None:
    stripped = rewrite(saved_game, lambda e: attrs.evolve(e, digest=None))
    assert "digest" not in stripped
    result = invoke(runner, "play", "--resume", saved_game, input="bid 1\n" * 4)
    assert result.exit_code == 2
    assert "action 1 has no digest, so the log cannot be verified" in one_error_line(result)
    assert saved_game.read_text() == stripped


def test_verify_does_not_call_a_log_without_digests_verified(
    saved_game: Any, runner: CliRunner
) -> None:
    # As --resume refuses it (one definition of a valid log, test_valid_log.py).
    stripped = rewrite(saved_game, lambda e: attrs.evolve(e, digest=None) if e.index > 1 else e)
    result = invoke(runner, "replay", saved_game, "--verify")
    assert result.exit_code == 2, result.output
    assert "verified" not in result.stdout
    assert "action 2 has no digest, so the log cannot be verified" in one_error_line(result)
    assert saved_game.read_text() == stripped
    # Shown without --verify, it still replays.
    assert invoke(runner, "replay", saved_game).exit_code == 0


def test_resume_still_continues_a_log_that_verifies(saved_game: Any, runner: CliRunner) -> None:
    result = invoke(runner, "play", "--resume", saved_game, input="bid 1\n" * 5)
    assert result.exit_code == 0, result.output
    assert Match.load(saved_game, verify=True, registry=default_registry()).is_over


HEADER = 'format = 1\ntitle = "sealedbid"\ntitle_version = "1"\nplayers = 2\n'


@pytest.mark.parametrize(
    "text",
    [
        HEADER + "seed = " + "9" * 5000 + "\n",
        HEADER + "seed = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n",
        HEADER + "seed = 1\nx = " + "{ a = " * 5000 + "1" + " }" * 5000 + "\n",
    ],
    ids=["5000-digit integer", "5000 nested arrays", "5000 nested tables"],
)
def test_pathological_toml_is_one_line_exit_2(
    installed: Any, runner: CliRunner, tmp_path: Path, text: Any
) -> None:
    log = tmp_path / "bad.toml"
    log.write_text(text)
    for args in (["replay", log], ["replay", log, "--verify"], ["play", "--resume", log]):
        result = invoke(runner, *args)
        assert result.exit_code == 2, (args, result.output)
        assert str(log) in one_error_line(result)
        assert result.stdout == ""
        assert result.exception is None or isinstance(result.exception, SystemExit)


# -- logs that would not replay are not saved ---------------------------------------------


def test_play_refuses_to_save_a_log_that_would_not_replay(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, GlobalRandomBid())
    log = tmp_path / "g.toml"
    state = random.getstate()
    try:
        random.seed(2026)
        result = invoke(
            runner, "play", "globalrandom", "--seed", 3, "--seat", "1=bot", "--log", log
        )
    finally:
        random.setstate(state)
    assert result.exit_code == 1, result.output
    line = one_error_line(result)
    assert "the log was not saved, as it would not replay" in line
    assert "globalrandom" in line
    assert not log.exists()
    # The same game with a title that keeps to its rng is saved and verifies.
    fine = tmp_path / "fine.toml"
    ok = invoke(runner, "play", "sealedbid", "--seed", 3, "--seat", "1=bot", "--log", fine)
    assert ok.exit_code == 0 and Match.load(fine, verify=True, registry=default_registry()).is_over


def test_a_human_is_warned_once_and_quit_saves_nothing(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, GlobalRandomBid())
    log = tmp_path / "h.toml"
    state = random.getstate()
    try:
        random.seed(7)
        moves = "bid 1\nbid 1\nbid 1\nsave\nquit\n"
        result = invoke(runner, "play", "globalrandom", "--seed", 3, "--log", log, input=moves)
    finally:
        random.setstate(state)
    assert result.exit_code == 1
    assert result.stdout.count("Warning: the log was not saved, as it would not replay") == 1
    assert "Not accepted: the log was not saved" in result.stdout  # the 'save' command
    line = one_error_line(result)
    assert "the log was not saved, as it would not replay" in line
    # What an autosave wrote before the first reveal still stands, and verifies.
    saved = re.search(rf"{re.escape(str(log))} holds the game as saved at step (\d+)", line)
    assert saved is not None
    assert Match.load(log, verify=True, registry=default_registry()).step == int(saved.group(1)) < 6


# -- test-only options ------------------------------------------------------------------------


class StackedBid(SealedBid):
    """Sealed Bids with a test-only option that stacks the lots (hidden information)
    and an option players may choose."""

    name = "stackedbid"
    display_name = "Stacked Bids"
    default_config: ClassVar[Mapping[str, Any]] = {
        **SealedBid.default_config,
        "stack": [],
        "start_coins": 20,
    }
    test_only_options = SealedBid.test_only_options | {"stack"}

    def setup(self, players: Any, config: Any, rng: Any) -> State:
        state = super().setup(players, config, rng)
        if config["stack"]:
            state.lot, *state.deck = config["stack"]
        state.coins = [config["start_coins"]] * players
        return state


def test_games_lists_only_the_options_players_choose(installed: Any, runner: CliRunner) -> None:
    add_titles(installed, StackedBid())
    rows = {r["name"]: r for r in json.loads(invoke(runner, "games", "--json").stdout)}
    assert rows["stackedbid"]["options"] == {"start_coins": 20}
    offered = {
        k: v for k, v in SealedBid.default_config.items() if k not in SealedBid.test_only_options
    }
    assert rows["sealedbid"]["options"] == offered


def test_play_and_simulate_still_take_test_only_options(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, StackedBid())
    log = tmp_path / "stacked.toml"
    stack = "--option", "stack=[9, 8, 7, 6, 5]"
    result = invoke(
        runner, "play", "stackedbid", *stack, "--seed", 3, "--seat", "1=bot", "--log", log
    )
    assert result.exit_code == 0, result.output
    assert MatchLog.load(log).config["stack"] == [9, 8, 7, 6, 5]
    assert "the 9-point lot" in result.stdout
    sim = invoke(runner, "simulate", "stackedbid", "-n", 2, "-j", 1, "--seed", 3, "--json", *stack)
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.stdout)["config"]["stack"] == [9, 8, 7, 6, 5]


# -- gameweave --version ------------------------------------------------------------------------


def test_version_lists_gameweave_and_each_title(installed: Any, runner: CliRunner) -> None:
    add_titles(installed, PlantedBug(), distribution="gameweave-buggy", version="1.0.0")
    result = invoke(runner, "--version")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"gameweave {__version__}",
        f"plantedbug {PlantedBug.version} (Planted Bug), from gameweave-buggy 1.0.0",
        f"sealedbid {SealedBid.version} (Sealed Bids), from gameweave-sealedbid 1.0.0",
    ]


def test_version_with_no_title(
    installed: Any, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gameweave_core import default_registry

    monkeypatch.setenv("GAMEWEAVE_LOAD_PLUGINS", "")
    default_registry.cache_clear()
    result = invoke(runner, "--version")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"gameweave {__version__}", "no titles installed"]
