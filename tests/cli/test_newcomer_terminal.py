"""A newcomer's first hour at the terminal (issue 31): the rules shown whole at
80 columns, hot seats resumed as they were, screens that fit 80 x 24, and the
small things that cost a first game (the menu's numbers, Ctrl-D and Ctrl-C at the
first question, a hint that weighs the choices, words a person reads).

The terminal tests read the screen through a terminal emulator (``screen.py``)
and save what it showed to ``test-output/terminal/``.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

from gameweave_cli.app import app
from gameweave_cli.hint import hint_text, search_hint
from gameweave_cli.play import HOW_TO_PLAY, Session, help_lines
from gameweave_cli.render import compact_menu, fold, menu, render_view
from gameweave_cli.teach import explain_choices, rules_page, topics_of
from gameweave_core import Match, MatchLog, Rng, Title, default_registry, seat_bots
from gameweave_core.ismcts import SearchOptions
from gameweave_core.registry import ENV_LOAD_PLUGINS
from gameweave_sealedbid.title import SealedBid

from .conftest import add_titles
from .screen import Terminal, plain

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
def all_titles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Title[Any]]]:
    """Every title a user has: the installed ones and the tutorial's."""
    monkeypatch.delenv(ENV_LOAD_PLUGINS, raising=False)
    default_registry.cache_clear()
    try:
        reg = default_registry()
        found = [reg.title(name) for name in reg.names()]
        tutorial = [] if "sealedbid" in reg.names() else [SealedBid()]
        yield [*found, *tutorial]
    finally:
        default_registry.cache_clear()


def installed_env(*plugins: str) -> dict[str, str]:
    """A child's environment that loads these installed plugins, at the
    terminal's own size (no COLUMNS)."""
    return {ENV_LOAD_PLUGINS: ",".join(plugins)}


def words(text: str) -> list[str]:
    """The words of a text, Markdown's marks and bullets aside."""
    return re.findall(r"[A-Za-z0-9$£]+", text)


def in_order(wanted: list[str], found: list[str]) -> str | None:
    """The first of ``wanted`` missing from ``found`` read in order, or None."""
    at = 0
    for word in wanted:
        try:
            at = found.index(word, at) + 1
        except ValueError:
            return " ".join(wanted[max(0, wanted.index(word) - 5) : wanted.index(word) + 1])
    return None


# -- 1. the rules, whole, at the terminal's width ------------------------------------------


def test_rules_in_a_game_at_80x24_show_every_word(tmp_path: Path) -> None:
    """Issue 31.1: ``rules`` cut every bullet at the terminal's width. The House
    Job's longest topic, paged at 80 x 24, now shows every word, folded at words."""
    from gameweave_house.rules_text import TOPICS

    term = Terminal(
        ["play", "house", "--seed", "4", "--seat", "2=bot", "--log", str(tmp_path / "h.toml")],
        installed_env("house"),
    )
    term.expect(r"\(Crew 1[^>]*\)> ")
    term.send("rules roles")
    pages = 0
    while term.expect([r"-- more: Enter for the next page", r"\(Crew 1[^>]*\)> "]) == 0:
        if pages == 0:
            term.save("rules-house-roles-80x24")
        pages += 1
        term.send("")
    shown = plain(term.raw)
    shown = shown[shown.rindex("The House Job: roles") :]
    assert pages >= 1  # a long topic is paged
    missing = in_order(words(TOPICS["roles"]), words(shown))
    assert missing is None, f"not shown: ...{missing}"
    for row in term.screen() + term.scrolled_off():
        assert len(row) <= 80
    term.send("quit")
    assert term.finish() == 0


def test_the_rules_command_prints_every_title_s_rules_whole_at_80_columns(
    all_titles: list[Title[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gameweave rules TITLE --all`` (new): every title teaches its rules, the
    tutorial's too; each topic is shown whole, in lines of at most 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    reg = default_registry()
    if "sealedbid" not in reg.names():  # (installed already when an earlier test left it)
        add_titles(reg, SealedBid(), distribution="gameweave-sealedbid")
    runner = CliRunner()
    for title in all_titles:
        topics = topics_of(title)
        assert next(iter(topics)) == "overview" and "actions" in topics, title.name
        result = runner.invoke(app, ["rules", title.name, "--all"])
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert all(len(line) <= 80 for line in out.splitlines()), title.name
        for name, text in topics.items():
            assert f"{title.display_name}: {name}" in out
            missing = in_order(words(text), words(out))
            assert missing is None, f"{title.name} {name}: not shown: ...{missing}"
    one = runner.invoke(app, ["rules", "museumheist", "challenges"])
    assert one.exit_code == 0 and "out of the round" in one.stdout
    assert "Museum Heist: challenges" in one.stdout and "Museum Heist: moving" not in one.stdout
    wrong = runner.invoke(app, ["rules", "museumheist", "dice"])
    assert wrong.exit_code == 2
    assert wrong.stderr.startswith("error: no rules topic 'dice'; the topics are: overview,")
    unknown = runner.invoke(app, ["rules", "chess"])
    assert unknown.exit_code == 2 and unknown.stderr.count("\n") == 1


def test_choices_are_explained_whole_with_the_choice_beside_them(
    all_titles: list[Title[Any]],
) -> None:
    """Issue 31.1 and 31.8: an explanation under the menu showed only its item's
    first line, with raw backticks, and an example contradicting the choice beside
    it (``move guard 2 ... to D4`` under ``Guard 1 to K4``)."""
    house = next(t for t in all_titles if t.name == "house")
    (played,) = [e for e in explain_choices(house, ["play vanish box 1"]) if e.startswith("play")]
    assert "`" not in played and played.endswith(
        "The table numbers the cards when you hold such a card."
    )
    museum = next(t for t in all_titles if t.name == "museum")
    assert explain_choices(museum, ["guard 1 K4", "guard 1 K5"]) == [
        "guard 1 K4: move guard 1 to K4, up to 3 steps away (staying put counts as a move). "
        "When a guard is asked for, the square alone (D4) is enough."
    ]
    assert explain_choices(museum, ["walk C5", "walk C6 cut", "hold"])[:2] == [
        "walk C5: move to C5, up to 4 steps away (2 while carrying anything heavy).",
        "walk C6 cut: walk to C6, then cut the camera or breaker there.",
    ]


# -- 2. a hot-seat game resumed as it was seated ------------------------------------------


def resume_hint(text: str) -> str:
    found = re.findall(r"Continue with:\n  (.+)", plain(text))
    assert found, text[-400:]
    return str(found[-1]).strip()


@pytest.mark.parametrize("started", ["module", "console script"])
def test_a_hot_seat_game_resumes_with_both_people_and_the_hint_works_as_printed(
    child_env: dict[str, str], tmp_path: Path, started: str
) -> None:
    """Issue 31.2: resuming as the game said handed the other person's seat to a
    bot, which played their pending turn at once; the hint left out the seats and
    assumed an active virtual environment. The log now records who sat where, and
    the hint is a command that works as printed (here or as the README starts it)."""
    env = {k: v for k, v in child_env.items() if k != "COLUMNS"}
    executable = (
        (sys.executable, "-m", "gameweave_cli")
        if started == "module"
        else (str(Path(sys.executable).parent / "gameweave"),)
    )
    args = ["play", "sealedbid", "--seed", "21", "--seat", "2=human", "--log", "game.toml"]
    first = Terminal(args, env, cwd=tmp_path, executable=executable)
    first.expect("Pass to seat 1 \\(Bidder 1\\) and press Enter")
    first.send("")
    first.expect(r"seat 1 \(Bidder 1\)> ")
    first.send("bid 3")
    first.expect("Pass to seat 2 \\(Bidder 2\\) and press Enter")
    first.send("")
    first.expect(r"seat 2 \(Bidder 2\)> ")
    first.send("quit")
    assert first.finish() == 0
    command = resume_hint(first.raw)
    assert MatchLog.load(tmp_path / "game.toml").seats == {"1": "human", "2": "human"}

    argv = shlex.split(command)
    again = Terminal(argv[1:], env, cwd=tmp_path, executable=(argv[0],))
    # Seat 2 is still a person: the game hands the keyboard over, no bot bids.
    again.expect("Pass to seat 2 \\(Bidder 2\\) and press Enter")
    again.save(f"resume-hot-seat-{started.replace(' ', '-')}-80x24")
    again.send("")
    again.expect(r"seat 2 \(Bidder 2\)> ")
    again.send("bid 2")
    again.expect("Pass to seat 1 \\(Bidder 1\\) and press Enter")
    again.send("")
    again.expect(r"seat 1 \(Bidder 1\)> ")
    again.send("quit")
    assert again.finish() == 0
    record = MatchLog.load(tmp_path / "game.toml")
    assert [(e.seat, e.action["coins"]) for e in record.actions] == [(1, 3), (2, 2)]


def test_a_log_without_seats_still_resumes_as_before(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    """Logs written before the ``seats`` field read as ever: seat 1 is the person."""
    match = Match.create("sealedbid", 2, 5, registry=installed)
    match.submit(2, {"type": "bid", "coins": 1})
    log = tmp_path / "old.toml"
    match.to_log().save(log)
    assert "seats" not in log.read_text()
    result = runner.invoke(app, ["play", "--resume", str(log)], input="bid 4\nquit\n")
    assert result.exit_code == 0, result.output
    record = MatchLog.load(log)
    assert [e.seat for e in record.actions][:2] == [2, 1]
    assert record.seats is not None and record.seats["1"] == "human"
    assert record.seats["2"].startswith("bot:")


def test_a_log_whose_seats_are_wrong_is_refused_in_one_line(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    match = Match.create("sealedbid", 2, 5, registry=installed)
    log = tmp_path / "odd.toml"
    attrs.evolve(match.to_log(), seats={"1": "human", "2": "robot"}).save(log)
    result = runner.invoke(app, ["play", "--resume", str(log)], input="quit\n")
    assert result.exit_code == 2
    assert result.stderr == (f"error: {log}: seat 2 is 'robot'; a seat is 'human' or 'bot:NAME'\n")


# -- 6. screens that fit 80 x 24 -----------------------------------------------------------


def test_the_first_screen_after_resume_keeps_the_whole_board(tmp_path: Path) -> None:
    """Issue 31.6: the first screen after ``--resume`` printed the whole history
    and the first turns' lessons again, scrolling the column letters and the map's
    top rows away. Now the board, the menu and the prompt fit 80 x 24."""
    log = tmp_path / "museum.toml"
    moves = "enter T4\n" + "hold\n" * 6 + "quit\n"
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_LOAD_PLUGINS, "museum")
        default_registry.cache_clear()
        made = runner.invoke(app, ["play", "museum", "--seed", "3", "--log", str(log)], input=moves)
        default_registry.cache_clear()
    assert made.exit_code == 0, made.output
    assert len(MatchLog.load(log).actions) > 10  # the guards' moves: a long history

    term = Terminal(["play", "--resume", str(log)], installed_env("museum"))
    term.expect(r"seat 1 \(Thief\)> ")
    term.save("resume-museum-first-screen-80x24")
    screen = term.screen()
    text = "\n".join(screen)
    assert "    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q  R  S  T" in text
    rows = [row for row in screen if re.match(r"^ {1,2}\d{1,2} ", row)]
    assert [int(row.split()[0]) for row in rows[:14]] == list(range(1, 15))
    assert screen.index(next(r for r in screen if "The Museum Job, step" in r)) >= 0
    assert screen[-1].startswith("seat 1 (Thief)>")
    assert any("type history" in row or "Since your last look" in row for row in screen)
    term.send("quit")
    assert term.finish() == 0


def session_output(match: Match, human: int, script: list[str], tmp_path: Path) -> str:
    """A whole session on a terminal 80 columns by 24 rows: what it printed."""
    out = io.StringIO()
    console = Console(
        file=out, width=80, height=24, force_terminal=True, highlight=False, soft_wrap=False
    )
    moves = iter(script)

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        if prompt.startswith("-- more"):
            return ""
        return next(moves, "quit")

    others = {s: None for s in range(1, match.players + 1) if s != human}
    bots = seat_bots(match, others)
    session = Session(match, frozenset({human}), bots, tmp_path / "s.toml", console, read)
    session.run()
    return ANSI.sub("", out.getvalue())


@pytest.mark.slow  # every title's screens (make test runs it)
def test_every_title_s_screens_rules_help_and_hints_fit_80_columns(
    all_titles: list[Title[Any]], tmp_path: Path
) -> None:
    """No line the terminal is sent is longer than the terminal (80 columns):
    every title's screens along a seeded game (its own drawing, the menu, the first
    turns' explanations, the news), every rules topic, help and a hint."""
    for title in all_titles:
        match = Match(title, title.min_players, 7)
        rng = Rng(11)
        script = ["help", "rules", "rules actions", "hint", "menu", "history"]
        for _ in range(25):
            script.append(str(rng.randbelow(3)))
        out = session_output(match, 1, script, tmp_path)
        # (The command that carries the game on, after "Continue with:", is printed
        # whole to be copied whole; this test's folder makes it long.)
        long = [line for line in out.splitlines() if len(line) > 80 and str(tmp_path) not in line]
        assert not long, f"{title.name}: {long[:3]}"
        # Along a whole seeded game, every seat's drawing and menu, and the spectator's.
        game = Match(title, title.min_players, 8)
        while not game.is_over:
            for seat in (None, *range(1, game.players + 1)):
                drawn = ANSI.sub("", capture(render_view(game, seat, width=80)))
                assert all(len(row) <= 80 for row in drawn.splitlines()), (title.name, seat)
            seat = game.awaiting[0]
            entries = menu(game, seat)
            for line, _ in compact_menu(entries, 80):
                assert len(line) <= 80, (title.name, line)
            for said in explain_choices(title, [label for _, _, label in entries]):
                assert all(len(r) <= 80 for r in fold(said, 80, indent="    ", first="  "))
            legal = game.legal_actions(seat)
            game.submit(seat, legal[rng.randbelow(len(legal))])
        for name in topics_of(title):
            page = rules_page(title, name).lines(Console(width=80, highlight=False))
            assert all(len(row) <= 80 for row in page), (title.name, name)
    assert all(len(line) <= 80 for line in help_lines(80))
    assert all(len(line) <= 80 for line in HOW_TO_PLAY)


def capture(markup: str) -> str:
    console = Console(width=80, force_terminal=True, highlight=False, soft_wrap=False)
    with console.capture() as got:
        console.print(markup)
    return got.get()


def test_render_text_takes_the_terminal_s_width(installed: Any, tmp_path: Path) -> None:
    """Issue 28.5: ``width`` is a documented parameter of ``Title.render_text``;
    the command line passes its console's width (no signature sniffing)."""
    import inspect

    width = inspect.signature(Title.render_text).parameters["width"]
    assert width.default == 80 and "width" in (Title.render_text.__doc__ or "")

    seen: list[int] = []

    class Measured(SealedBid):
        name = "measured"

        def render_text(
            self, view: Mapping[str, Any], seat: int | None, width: int = 80
        ) -> str | None:
            seen.append(width)
            return super().render_text(view, seat, width)

    match = Match(Measured(), 2, 3)
    out = io.StringIO()
    console = Console(file=out, width=123, height=40, force_terminal=True)
    session = Session(
        match,
        frozenset({1}),
        seat_bots(match, {2: None}),
        tmp_path / "m.toml",
        console,
        lambda prompt: "quit",
    )
    session.run()
    assert seen and set(seen) == {123}


# -- 8. the small things ---------------------------------------------------------------------


def test_typing_5_bids_5(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    """Issue 31.8: Sealed Bids' menu started at 1 while its bids start at 0, so
    typing 5 bid 4. A menu that counts from 0 is numbered from 0."""
    log = tmp_path / "b.toml"
    result = runner.invoke(
        app, ["play", "sealedbid", "--seed", "3", "--log", str(log)], input="5\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "You bid 5 on the" in result.stdout
    assert [e.action["coins"] for e in MatchLog.load(log).actions if e.seat == 1] == [5]


@pytest.mark.parametrize("key", ["ctrl-d", "ctrl-c"])
def test_ctrl_d_or_ctrl_c_at_the_seat_question_starts_nothing(
    child_env: dict[str, str], tmp_path: Path, key: str
) -> None:
    """Issue 31.8: Ctrl-D at "Which seat do you want to play?" started the game;
    Ctrl-C left without a newline. Both now end the command in one line, on a line
    of its own, and no log is written."""
    env = {k: v for k, v in child_env.items() if k != "COLUMNS"}
    log = tmp_path / "none.toml"
    term = Terminal(["play", "sealedbid", "--seed", "4", "--log", str(log)], env)
    term.expect_exact("Which seat do you want to play? [1]: ")
    if key == "ctrl-d":
        term.child.sendeof()
        term.expect("No seat chosen: no game started.")
    else:
        # A signal that lands between the prompt's writing and the read is acted
        # on only at the next one (a CPython race): send another if need be.
        term.child.sendintr()
        if term.expect(["Interrupted: no game started.", pexpect.TIMEOUT], timeout=10) == 1:
            term.child.sendintr()
            term.expect("Interrupted: no game started.")
    status = term.finish()
    assert status == (0 if key == "ctrl-d" else 130)
    screen = [row for row in term.screen() if row]
    assert screen[-2].startswith("Which seat do you want to play?")
    assert screen[-1] in ("No seat chosen: no game started.", "Interrupted: no game started.")
    assert not log.exists()


def test_museum_rush_room_codes_stand_apart_from_seats_and_are_explained() -> None:
    """Issue 31.8: a room's code ran into the seat numbers on it (``ASIL1`` and
    thief 2 read ``ASIL12``), and no topic explained the codes; the overview called
    the 7 x 4 grid 4 x 7."""
    from gameweave_museumrush import rules_text
    from gameweave_museumrush.terminal import ABBREVIATIONS, render_text

    reg = default_registry()
    title = reg.title("museumrush")
    match = Match(title, 3, 5)
    rng = Rng(2)
    seen_thief = False
    while not match.is_over and match.step < 120:
        drawn = render_text(match.view(None), None, 80)
        cells = re.findall(r"[A-Za-z&]{3}[-LRC][^ ]* [^ ]*@\d+", drawn)
        for cell in cells:
            seen_thief = True
            code, people = cell.split(" ", 1)
            assert not any(ch == "@" for ch in code) and people.split("@")[1].isdigit()
        seat = match.awaiting[0]
        legal = match.legal_actions(seat)
        match.submit(seat, legal[rng.randbelow(len(legal))])
    assert seen_thief
    board = rules_text.TOPICS["board"]
    assert all(f"`{code}` {name}" in board for name, code in ABBREVIATIONS.items())
    assert "`@2`: Seat 2's thief" in board
    assert "7 wide and 4 deep" in rules_text.TOPICS["overview"]
    assert "@2=Seat 2" in render_text(match.view(None), None, 80)


def test_museum_heist_reads_a_square_or_a_piece_alone(all_titles: list[Title[Any]]) -> None:
    """Issue 31.8: The Museum Job takes ``S5`` for ``walk S5``; Museum Heist
    refused ``guard``. A single word now names the one move it can mean, or says
    which moves it could mean."""
    title = next(t for t in all_titles if t.name == "museumheist")
    match = Match(title, 2, 3)
    for seat in (1, 2):
        match.submit(seat, match.legal_actions(seat)[seat])
    seat = match.awaiting[0]
    legal = list(match.legal_actions(seat))
    moves = [a for a in legal if type(a).__name__ == "Move"]
    by_square: dict[str, list[Any]] = {}
    by_piece: dict[str, list[Any]] = {}
    for m in moves:
        by_square.setdefault(m.to, []).append(m)
        by_piece.setdefault(m.piece, []).append(m)
    one = next(sq for sq, found in by_square.items() if len(found) == 1)
    assert title.parse_action(one.lower(), legal) == by_square[one][0]
    several = next((sq for sq, found in by_square.items() if len(found) > 1), None)
    if several is not None:
        with pytest.raises(ValueError, match=f"several pieces may move to {several}: type "):
            title.parse_action(several, legal)
    piece = next(p for p, found in by_piece.items() if len(found) > 1)
    with pytest.raises(ValueError, match="may move to .*: type .* and the square"):
        title.parse_action(piece, legal)


def test_simulate_help_names_the_dask_extra(runner: CliRunner) -> None:
    """Issue 31.8: Rich took ``[dask]`` for markup and printed "needs gameweave"."""
    result = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "needs gameweave[dask]" in result.stdout


def test_ctrl_c_during_simulate_keeps_the_games_played(tmp_path: Path) -> None:
    """Issue 31.8: Ctrl-C during ``simulate --jobs 2`` left without a word; now it
    says how far the run got and prints the table of the games that finished."""
    term = Terminal(
        ["simulate", "museum", "-n", "20000", "--jobs", "2", "--seed", "1"],
        installed_env("museum"),
        columns=100,
    )
    term.expect(r"\b[1-9][0-9]*/20000")  # some games are done
    term.child.sendintr()
    term.expect(r"interrupted after (\d+) of 20000 games")
    done = int(term.child.match.group(1))
    assert 0 < done < 20000
    assert term.finish() == 130
    out = plain(term.raw)
    assert f"The Museum Job: {done} games" in out and "Wins (" in out and "How it ended" in out


def test_an_unreachable_scheduler_fails_at_once(tmp_path: Path) -> None:
    """Issue 31.8: ``--cluster tcp://127.0.0.1:1`` took Dask's whole connect timeout
    (30 s) to fail. A refused port now fails at once: with the timeout set to ten
    minutes, the run must end well within the test's bound (which only a hang
    exceeds)."""
    env = {**os.environ, ENV_LOAD_PLUGINS: "museum"}
    env["DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT"] = "600s"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gameweave_cli",
            "simulate",
            "museum",
            "-n",
            "2",
            "--seed",
            "1",
            "--cluster",
            "tcp://127.0.0.1:1",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: cannot reach the Dask scheduler at tcp://127.0.0.1:1: nothing listens on "
        "127.0.0.1:1 (is the scheduler started, on that port?)\n"
    )


def test_verify_says_the_log_may_have_been_edited(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    """Issue 31.8: a digest that does not match said "the rules diverge", where the
    log may just as well have been edited."""
    match = Match.create("sealedbid", 2, 5, registry=installed)
    for coins in (1, 2, 3):
        match.submit(1 + coins % 2, {"type": "bid", "coins": coins})
    log = tmp_path / "edited.toml"
    record = match.to_log()
    entries = list(record.actions)
    entries[1] = attrs.evolve(entries[1], digest="0123456789abcdef")
    attrs.evolve(record, actions=entries).save(log)
    result = runner.invoke(app, ["replay", str(log), "--verify"])
    assert result.exit_code == 1
    assert "this entry was edited, or the rules changed since the log was written" in result.stderr
    assert "diverge" not in result.stderr


def test_a_hint_weighs_every_choice_where_the_bots_prune(all_titles: list[Title[Any]]) -> None:
    """Issue 31.8: Museum Rush's hints almost never searched ("the only move worth
    weighing" with 28 choices): its bots search only what its heuristic proposes.
    A hint weighs every legal action."""
    title = next(t for t in all_titles if t.name == "museumrush")
    match = Match(title, 2, 11)
    rng = Rng(3)
    while True:
        seat = match.awaiting[0]
        legal = match.legal_actions(seat)
        pruned = search_hint(match, seat, SearchOptions.for_title(title, seat, 2))
        if len(legal) > 3 and pruned.iterations == 0:
            break
        match.submit(seat, legal[rng.randbelow(len(legal))])
    hint = search_hint(match, seat)
    assert hint.iterations > 0
    text = hint_text(match, seat, hint).plain
    assert "searches of worlds your seat cannot tell apart" in text
    assert "worth weighing" not in text
