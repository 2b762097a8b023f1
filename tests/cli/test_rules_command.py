"""``rules`` in ``gameweave play``: a title's rules text by topic, the first turns'
explanations of the choices, and the seat question."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from gameweave_cli.app import app
from gameweave_cli.play import HOW_TO_PLAY, NoSeatChosen, ask_seat, explain_choices, find_topic
from gameweave_core import Match, MatchLog
from gameweave_sealedbid.title import SealedBid

from .conftest import PlainBid, add_titles

RULES = {
    "overview": "Sealed bids for **five lots**. Topics: `rules bidding`, `rules coins`.",
    "bidding": "Everyone seals a bid at once; the highest bid takes the lot.",
    "coins": "You start with 20 coins; a bid is spent whether it wins or not.",
    "actions": "What each choice means:\n\n- `bid 3`: seal a bid of 3 coins for this lot.",
}


class RuledBid(SealedBid):
    """Sealed Bids with its rules text."""

    name = "ruledbid"
    display_name = "Ruled Bids"

    def rules_text(self) -> Mapping[str, str]:
        return RULES


class BrokenRules(SealedBid):
    """Sealed Bids whose rules text raises."""

    name = "brokenrules"
    display_name = "Broken Rules"

    def rules_text(self) -> Mapping[str, str]:
        raise KeyError("page 3")


def play(runner: CliRunner, *args: str, input: str) -> Any:
    return runner.invoke(app, ["play", *args], input=input)


@pytest.fixture
def ruled(installed: Any) -> Any:
    add_titles(installed, RuledBid(), BrokenRules())
    return installed


def test_rules_shows_the_overview_and_names_the_topics(
    ruled: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "r.toml"
    result = play(runner, "ruledbid", "--seed", "3", "--log", str(log), input="rules\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ruled Bids: overview" in out
    assert "Sealed bids for five lots" in out  # Markdown drawn, not shown raw
    assert "**" not in out
    assert "Rules topics: bidding, coins, actions (type rules TOPIC, e.g. rules actions)" in out
    assert len(MatchLog.load(log).actions) == 1  # reading the rules played nothing


def test_rules_topic_by_name_or_beginning_and_a_wrong_topic_is_one_line(
    ruled: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "t.toml"
    script = "rules coins\nRULES Bid\nrules dice\nquit\n"
    result = play(runner, "ruledbid", "--seed", "3", "--log", str(log), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "You start with 20 coins" in out
    assert "the highest bid takes the lot" in out
    # (Each line that follows a prompt starts with it: typed input is not echoed.)
    refusals = [ln.split("> ")[-1] for ln in out.splitlines() if "no rules topic" in ln]
    assert refusals == [
        "Not accepted: no rules topic 'dice'; the topics are: overview, bidding, coins, actions"
    ]
    assert len(MatchLog.load(log).actions) == 1


def test_a_title_without_rules_text_says_so_in_one_line(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    add_titles(installed, PlainBid())  # Sealed Bids has rules; this one has none
    log = tmp_path / "n.toml"
    result = play(runner, "plainbid", "--seed", "3", "--log", str(log), input="rules\nquit\n")
    assert result.exit_code == 0, result.output
    lines = [ln.split("> ")[-1] for ln in result.stdout.splitlines() if "no rules text" in ln]
    # No page of the docs that may not exist: the title's own distribution has them.
    assert lines == [
        "Plain Bids has no rules text; its distribution's README or documentation has the rules"
    ]


def test_rules_that_raise_are_refused_and_the_game_goes_on(
    ruled: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "b.toml"
    script = "rules\nbid 1\nquit\n"
    result = play(runner, "brokenrules", "--seed", "3", "--log", str(log), input=script)
    assert result.exit_code == 0, result.output
    assert "Not accepted: brokenrules could not give its rules (KeyError: 'page 3')" in (
        result.stdout
    )
    assert [e.action for e in MatchLog.load(log).actions if e.seat == 1] == [
        {"type": "bid", "coins": 1}
    ]


def test_the_first_turns_open_with_how_to_play_and_explain_the_choices(
    ruled: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "f.toml"
    script = "bid 1\nbid 1\nbid 1\nquit\n"
    result = play(runner, "ruledbid", "--seed", "3", "--log", str(log), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count(HOW_TO_PLAY[0]) == 1 and len(HOW_TO_PLAY) == 1
    # The first two turns explain each kind of choice; the third does not.
    assert out.count("bid 3: seal a bid of 3 coins for this lot.") == 2
    assert out.count("Your move, seat 1") == 4  # three bids, then quit


def test_help_lists_rules(installed: Any, runner: CliRunner, tmp_path: Path) -> None:
    result = play(
        runner, "sealedbid", "--seed", "3", "--log", str(tmp_path / "h"), input="help\nquit\n"
    )
    assert "  rules TOPIC   one topic of the rules, e.g. rules actions" in result.stdout


def test_find_topic() -> None:
    names = ["overview", "guards", "gone", "cameras"]
    assert find_topic(names, "Guards") == "guards"
    assert find_topic(names, "cam") == "cameras"
    assert find_topic(names, "camera") == "cameras"
    assert find_topic(names, "g") is None  # guards or gone: ambiguous
    assert find_topic(names, "dice") is None


def test_choices_are_explained_only_for_what_is_on_offer() -> None:
    class Guide(SealedBid):
        def rules_text(self) -> Mapping[str, str]:
            return {
                "overview": "x",
                "actions": "- `walk K7`: move.\n- `walk K7 cut`: move, then cut.\n"
                "- `hold`: wait.\n- `guard 2 D4`: move a guard.\nnot an item `walk`",
            }

    title = Guide()
    assert explain_choices(title, ["walk A4", "walk B5", "hold"]) == [
        "walk K7: move.",
        "hold: wait.",
    ]
    assert explain_choices(title, ["walk A4", "walk A10 cut"]) == [
        "walk K7: move.",
        "walk K7 cut: move, then cut.",
    ]
    assert explain_choices(title, ["guard 1 C3"]) == ["guard 2 D4: move a guard."]
    # A form written with placeholders is shown with the choice's own values.
    assert explain_choices(SealedBid(), ["bid 0", "bid 1"]) == [
        "bid 0: seal a bid of 0 coins for the lot up for sale. A losing bid costs nothing; "
        "a winning one is paid."
    ]
    assert explain_choices(PlainBid(), ["bid 1"]) == []  # no rules text, nothing to explain


def test_the_seat_question() -> None:
    match = Match(RuledBid(), 2, 3)
    console = Console(file=open("/dev/null", "w"), width=80)  # noqa: SIM115
    answers = iter(["", "2", "x", "0", "2"])
    assert ask_seat(match, console, lambda prompt: next(answers)) == 1
    assert ask_seat(match, console, lambda prompt: next(answers)) == 2
    assert ask_seat(match, console, lambda prompt: next(answers)) == 2  # after two refusals

    def eof(prompt: str) -> str:
        raise EOFError

    # Ctrl-D chooses nothing: no game starts (the command says so and stops).
    with pytest.raises(NoSeatChosen):
        ask_seat(match, console, eof)


def test_no_seat_question_when_input_is_not_a_terminal(
    installed: Any, runner: CliRunner, tmp_path: Path
) -> None:
    log = tmp_path / "p.toml"
    result = play(runner, "sealedbid", "--seed", "3", "--log", str(log), input="bid 1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Which seat" not in result.stdout
    assert [e.seat for e in MatchLog.load(log).actions] == [2, 1, 2]
