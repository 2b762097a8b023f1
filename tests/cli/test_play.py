"""``gameweave play``: all-bot games, typed turns, hot-seat hand-over, logs, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gameweave_cli.app import app
from gameweave_cli.play import parse_seats
from gameweave_core import Match, MatchLog, default_registry

from .conftest import ClumsyBid, FragileBid, OpenBid, PlainBid, ThreeFails, add_titles, seed_where

ALL_BOTS = ["--seat", "1=bot", "--seat", "2=bot"]


def play(runner: CliRunner, *args: str, input: str | None = None) -> Any:
    return runner.invoke(app, ["play", *args], input=input)


def test_all_bot_game_plays_to_the_end_unattended(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "game.toml"
    result = play(runner, "sealedbid", "--seed", "5", "--seat", "1=bot", "--log", str(log))
    assert result.exit_code == 0, result.output
    out = result.stdout
    # The spectator's history: public reveals, never a private "You bid".
    assert out.count("Bids revealed:") == 5
    assert "You bid" not in out
    assert "Game over:" in out
    assert out.index("Bids revealed") < out.index("Game over:")
    assert f"Log saved to {log}" in out
    replayed = Match.load(log, verify=True, registry=default_registry())
    assert replayed.is_over
    outcome = replayed.outcome()
    assert outcome is not None and outcome.summary in out
    assert replayed.history(None) == [
        line.strip() for line in out.splitlines() if line.startswith("  ")
    ]


def test_all_bot_games_are_reproducible_from_the_seed(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    logs = [tmp_path / "a.toml", tmp_path / "b.toml"]
    outs = [
        play(runner, "sealedbid", "--seed", "42", *ALL_BOTS, "--log", str(p)).stdout for p in logs
    ]
    assert outs[0].replace("a.toml", "") == outs[1].replace("b.toml", "")
    assert logs[0].read_text() == logs[1].read_text()
    other = tmp_path / "c.toml"
    play(runner, "sealedbid", "--seed", "43", *ALL_BOTS, "--log", str(other))
    assert other.read_text() != logs[0].read_text()


def test_default_log_goes_under_gameweave_logs(
    installed: Any, runner: CliRunner, cd_tmp: Any
) -> None:
    result = play(runner, "sealedbid", "--seed", "1", "--seat", "1=bot")
    assert result.exit_code == 0
    (path,) = (cd_tmp / "gameweave-logs").iterdir()
    assert path.name.startswith("sealedbid-") and path.name.endswith("-1.toml")
    assert f"Log saved to {Path('gameweave-logs') / path.name}" in result.stdout
    assert MatchLog.load(path).seed == 1


def test_named_bots_and_players(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "g.toml"
    args = ["sealedbid", "-p", "3", "--seed", "8", "--seat", "1=bot:random"]
    result = play(runner, *args, "--seat", "3=bot:thrifty", "--log", str(log))
    assert result.exit_code == 0, result.output
    record = MatchLog.load(log)
    assert record.players == 3 and len(record.actions) == 15


def test_human_turns_by_menu_number_and_typed_action(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "h.toml"
    # The menu counts from 0, as the bids do: item 3 is "bid 3"; then typed bids;
    # junk and illegal bids are refused.
    moves = "3\nbid 99\nbogus\n30\nbid 2\nbid 1\nbid 1\nbid 0\n"
    result = play(runner, "sealedbid", "--seed", "3", "--log", str(log), input=moves)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Not accepted: you hold" in out and "cannot bid 99" in out
    assert "Not accepted: cannot read 'bogus'" in out
    assert "Not accepted: there is no action 30: the menu runs from 0 to " in out
    assert "Game over:" in out
    record = MatchLog.load(log)
    mine = [e.action["coins"] for e in record.actions if e.seat == 1]
    assert mine == [3, 2, 1, 1, 0]  # refused input changed nothing
    assert len(record.actions) == 10
    Match.load(log, verify=True, registry=default_registry())


def test_help_history_show_and_save(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "s.toml"
    script = "help\nbid 5\nhistory\nshow\nsave\nquit\n"
    result = play(runner, "sealedbid", "--seed", "3", "--log", str(log), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "map, show" in out  # help
    assert out.count("You bid 5 on the") >= 2  # once as it happened, once in history
    assert f"Saved to {log}" in out
    assert f"Game saved to {log}" in out
    assert f"Continue with:\n  gameweave play --resume {log}\n" in out
    assert len(MatchLog.load(log).actions) == 3  # bot, me, bot


def test_end_of_input_saves_like_quit(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "eof.toml"
    result = play(runner, "sealedbid", "--seed", "3", "--log", str(log), input="bid 1\n")
    assert result.exit_code == 0
    assert f"Game saved to {log}" in result.stdout
    assert [e.seat for e in MatchLog.load(log).actions] == [2, 1, 2]


def test_resume_continues_a_saved_game(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "r.toml"
    play(runner, "sealedbid", "--seed", "9", "--log", str(log), input="bid 2\nquit\n")
    before = MatchLog.load(log).actions
    result = play(runner, "--resume", str(log), input="bid 1\nbid 1\nbid 1\nbid 1\n")
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.stdout
    after = MatchLog.load(log)
    assert after.actions[: len(before)] == before
    assert [e.action["coins"] for e in after.actions if e.seat == 1] == [2, 1, 1, 1, 1]
    assert Match.load(log, verify=True, registry=default_registry()).is_over


def test_hot_seat_hands_over_between_humans(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "hot.toml"
    script = "\nbid 13\n\nbid 4\n\nquit\n"
    result = play(
        runner, "sealedbid", "--seed", "3", "--seat", "2=human", "--log", str(log), input=script
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    to_one = "Pass to seat 1 (Bidder 1) and press Enter"
    to_two = "Pass to seat 2 (Bidder 2) and press Enter"
    assert out.index(to_one) < out.index(to_two)
    # Seat 2's screen, up to its prompt: it knows seat 1 bid, never how much.
    screen = out[out.index(to_two) : out.index("seat 2 (Bidder 2)> ")]
    assert "Seat 1 seals a bid" in screen
    assert "You bid" not in screen and "bid: 13" not in screen
    # Back to seat 1 after the reveal.
    assert out.index(to_one, out.index(to_two)) > out.index("Bids revealed: seat 1 13, seat 2 4")
    assert [e.action["coins"] for e in MatchLog.load(log).actions] == [13, 4]


def test_no_hand_over_when_no_seat_holds_secrets(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, OpenBid())
    args = ["openbid", "--seed", "3", "--seat", "2=human", "--log", str(tmp_path / "o.toml")]
    result = play(runner, *args, input="bid coins=1\nbid coins=2\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Pass to" not in result.stdout
    assert "seat 2 (Seat 2)> " in result.stdout  # seat 2 did play from the same terminal


def test_one_human_gets_no_hand_over(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    result = play(runner, "sealedbid", "--seed", "3", "--log", str(tmp_path / "x"), input="quit\n")
    assert "Pass to" not in result.stdout


def test_generic_fallbacks_for_a_title_without_renderer_or_parser(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, PlainBid())
    log = tmp_path / "plain.toml"
    script = '1\n{"type": "bid", "coins": 2}\nbid coins=1\n{"type": "bid"\n1\nbid coins=0\n'
    result = play(runner, "plainbid", "--seed", "3", "--log", str(log), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "lot: " in out and "coins: 20, 20" in out and "sealed: 2" in out  # view as text
    assert "1. bid coins=0" in out  # the menu from the JSON form
    assert "Not accepted: not valid JSON" in out
    assert [e.action["coins"] for e in MatchLog.load(log).actions if e.seat == 1] == [
        0,
        2,
        1,
        0,
        0,
    ]


def test_a_title_that_raises_saves_the_log_and_says_how_to_replay(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    fragile = FragileBid()
    add_titles(installed, fragile)
    log = tmp_path / "crash.toml"
    seed = str(seed_where(fragile, True))
    result = play(runner, "fragilebid", "--seed", seed, *ALL_BOTS, "--log", str(log))
    assert result.exit_code == 1
    assert "ZeroDivisionError" in result.stderr
    assert f"reproduce with: gameweave replay {log} --verify" in result.stderr
    record = MatchLog.load(log)
    assert len(record.actions) == 2
    assert "the auctioneer divided by zero" in (record.actions[-1].error or "")
    verify = runner.invoke(app, ["replay", str(log), "--verify"])
    assert verify.exit_code == 1
    assert f"{log}: action 2:" in verify.stderr and "divided by zero" in verify.stderr
    shown = runner.invoke(app, ["replay", str(log)])
    assert shown.exit_code == 0, shown.output
    assert "step 1 of 2" in shown.stdout
    assert "Action 2 made the title raise when this log was saved" in shown.stdout
    data = json.loads(runner.invoke(app, ["replay", str(log), "--json"]).stdout)
    assert data["step"] == 1 and data["steps"] == 2
    assert data["recorded_error"]["action"] == 2
    assert "divided by zero" in data["recorded_error"]["error"]


def test_a_title_whose_setup_raises_is_one_error_line(
    installed: Any, runner: CliRunner, cd_tmp: Any
) -> None:
    add_titles(installed, ThreeFails())
    result = play(runner, "threefails", "-p", "3", "--seed", "1")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: threefails raised while setting up the match: IndexError: no third paddle"
    )
    assert play(runner, "threefails", "--seed", "1", "--seat", "1=bot").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch"], "no title named 'nosuch' is installed; installed: sealedbid"),
        (["sealedbid", "-p", "7"], "Sealed Bids takes 2 to 4 players, not 7"),
        (["sealedbid", "--seed", "-1"], "--seed must be between 0 and"),
        (["sealedbid", "--seed", "1", "--seat", "3=human"], "this game has seats 1 to 2"),
        (
            ["sealedbid", "--seed", "1", "--seat", "1=robot"],
            "a seat is 'human', 'bot' or 'bot:NAME'",
        ),
        (
            ["sealedbid", "--seed", "1", "--seat", "human"],
            "write it as N=human, N=bot or N=bot:NAME",
        ),
        (
            ["sealedbid", "--seed", "1", "--seat", "2=bot:deep"],
            "sealedbid has no bot 'deep'; bots: ismcts, random, thrifty",
        ),
        ([], "name a title to play"),
        (["--resume", "missing.toml"], "missing.toml: cannot read"),
    ],
)
def test_play_errors_are_one_line(
    installed: Any, runner: CliRunner, cd_tmp: Any, args: Any, message: Any
) -> None:
    result = play(runner, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]
    assert not (cd_tmp / "gameweave-logs").exists()


def test_resume_refuses_a_different_title_or_new_seed(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "r.toml"
    play(runner, "sealedbid", "--seed", "9", "--log", str(log), input="quit\n")
    wrong = play(runner, "plainbid", "--resume", str(log))
    assert wrong.exit_code == 2
    assert "is a game of 'sealedbid', not 'plainbid'" in wrong.stderr
    seeded = play(runner, "--resume", str(log), "--seed", "3")
    assert seeded.exit_code == 2
    assert "come from the log" in seeded.stderr


def test_parse_seats_defaults_and_overrides() -> None:
    plan = parse_seats([], 3)
    assert plan.humans == {1} and plan.bots == {2: None, 3: None}
    plan = parse_seats(["1=bot:random", "3=human", "2=bot"], 3)
    assert plan.humans == {3} and plan.bots == {1: "random", 2: None}


def test_a_log_path_that_cannot_be_written_is_refused_up_front(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    result = play(runner, "sealedbid", "--seed", "1", "--log", str(tmp_path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"error: cannot write the log to {tmp_path}" in result.stderr


def test_long_menus_are_cut_and_menu_lists_all(
    installed: Any, runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("gameweave_cli.play.MENU_LIMIT", 5)
    log = tmp_path / "m.toml"
    result = play(runner, "sealedbid", "--seed", "3", "--log", str(log), input="menu\n20\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    first_screen = out[: out.index("seat 1 (Bidder 1)> ")]
    # Counted from 0 as the bids are: the fifth entry is 4. bid 4.
    assert "4. bid 4" in first_screen and "5. bid 5" not in first_screen
    assert "... and 16 more: type 'menu' to list them all" in first_screen
    assert "20. bid 20" in out[len(first_screen) :]
    assert [e.action["coins"] for e in MatchLog.load(log).actions if e.seat == 1] == [20]


def test_hot_seat_game_ends_on_a_public_screen(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "end.toml"
    turns = "".join(f"\nbid {a}\n\nbid {b}\n" for a, b in [(3, 2), (1, 4), (5, 0), (2, 2), (1, 1)])
    args = ["sealedbid", "--seed", "3", "--seat", "2=human", "--log", str(log)]
    result = play(runner, *args, input=turns)
    assert result.exit_code == 0, result.output
    out = result.stdout
    end = out[out.index("the end after 10 actions, as a spectator sees it") :]
    assert "You bid" not in end and "(you)" not in end
    assert "Game over:" in end and "Bids revealed: seat 1 1, seat 2 1" in end
    assert Match.load(log, verify=True, registry=default_registry()).is_over


def test_the_log_is_current_whenever_a_human_is_asked(installed: Any, tmp_path: Path) -> None:
    from gameweave_cli.play import Session
    from gameweave_cli.render import make_console
    from gameweave_core import seat_bots

    match = Match.create("sealedbid", 2, 3, registry=default_registry())
    log = tmp_path / "live.toml"
    seen: list[int] = []
    moves = iter(["bid 1", "bid 2", "quit"])

    def read(prompt: str) -> str:
        seen.append(len(MatchLog.load(log).actions))  # what a kill -9 would leave
        return next(moves)

    session = Session(match, frozenset({1}), seat_bots(match, {2: None}), log, make_console(), read)
    assert session.run() == 0
    assert seen == [1, 3, 5]


def test_a_title_whose_drawing_fails_still_plays(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, ClumsyBid())
    log = tmp_path / "clumsy.toml"
    result = play(runner, "clumsybid", "--seed", "3", "--log", str(log), input="bid 4\n2\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "(clumsybid could not draw this view: KeyError: 'crest')" in out
    assert "coins: 20, 20" in out  # the generic view instead
    assert "2. bid coins=1" in out  # the JSON form labels the menu
    assert "Not accepted: clumsybid could not read that (AttributeError: no parser)" in out
    assert [e.action for e in MatchLog.load(log).actions if e.seat == 1] == [
        {"type": "bid", "coins": 1}
    ]
    shown = runner.invoke(app, ["replay", str(log), "--as", "1"])
    assert shown.exit_code == 0 and "could not draw this view" in shown.stdout


def test_the_compact_menu_names_each_entry_once_within_the_width() -> None:
    from gameweave_cli.render import compact_menu

    labels = [f"walk {c}{r}" for c in "ABCDEFG" for r in range(1, 5)]
    labels += ["walk A10 cut", "hold", "lift", "guard 1 C4", "guard 1 D5", "enter A8"]
    entries = [(n, None, label) for n, label in enumerate(labels, start=1)]
    for width in (40, 80, 120):
        lines = compact_menu(entries, width)
        assert all(len(line) < width for line, _ in lines)
        assert sum(count for _, count in lines) == len(labels)
        text = " ".join(line for line, _ in lines)
        numbers = [int(n) for n in re.findall(r"(\d+)\. ", text)]
        assert numbers == list(range(1, len(labels) + 1))  # each once, in menu order
    shown = [line for line, _ in compact_menu(entries, 80)]
    assert shown[0].startswith("walk ") and " 1. A1  2. A2" in shown[0]
    assert "29. walk A10 cut" not in " ".join(shown) and "29. A10 cut" in " ".join(shown)
    assert any(line.startswith("guard 1 ") and "32. C4  33. D5" in line for line in shown)
    assert any("30. hold  31. lift" in line for line in shown)
