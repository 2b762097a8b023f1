"""The base Title's check_config refuses an option of the wrong kind, in one line,
before a title's own checks (which then only see values of the kind they expect)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import pytest

from gameweave_core import ConfigError, Event, Match, Outcome, Rng, Title, action


@action("wait")
@attrs.frozen
class Wait:
    pass


class Options(Title[dict[str, Any]]):
    """A title with one option of every kind, whose own check_config would crash on a
    value of the wrong kind (as a title's would: it trusts the kind)."""

    name = "options"
    display_name = "Options"
    min_players = 1
    max_players = 2
    actions = (Wait,)
    default_config: ClassVar[Mapping[str, Any]] = {
        "rounds": 3,
        "pace": 1.5,
        "fast": False,
        "name": "plain",
        "deck": [],
        "house": {},
        "anything": None,
    }

    def check_config(self, players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        full = super().check_config(players, config)
        if full["rounds"] < 1 or not all(isinstance(c, str) for c in full["deck"]):
            raise ConfigError("rounds: at least 1; deck: card names")
        return full

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        return {"config": dict(config)}

    def awaiting(self, state: dict[str, Any]) -> Sequence[int]:
        return ()

    def legal_actions(self, state: dict[str, Any], seat: int) -> Sequence[Any]:
        return []

    def apply(self, state: dict[str, Any], seat: int, act: Any, rng: Rng) -> list[Event]:
        return []

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {}

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome(side="none", winners=(), reason="over", summary="over")


TITLE = Options()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": "3"}, "option 'rounds' must be a whole number, not text ('3')"),
        ({"rounds": 2.5}, "option 'rounds' must be a whole number, not a number (2.5)"),
        ({"rounds": True}, "option 'rounds' must be a whole number, not true or false (True)"),
        ({"pace": "fast"}, "option 'pace' must be a number, not text ('fast')"),
        ({"pace": False}, "option 'pace' must be a number, not true or false (False)"),
        ({"fast": 1}, "option 'fast' must be true or false, not a whole number (1)"),
        ({"fast": "yes"}, "option 'fast' must be true or false, not text ('yes')"),
        ({"name": 7}, "option 'name' must be text, not a whole number (7)"),
        ({"deck": "AS"}, "option 'deck' must be a list, not text ('AS')"),
        ({"deck": {"AS": 1}}, "option 'deck' must be a list, not a table ({'AS': 1})"),
        ({"house": [1]}, "option 'house' must be a table, not a list ([1])"),
        (
            {"deck": "x" * 60},
            "option 'deck' must be a list, not text ('" + "x" * 36 + "...)",
        ),
    ],
)
def test_an_option_of_the_wrong_kind_is_refused_in_one_line(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        TITLE.check_config(1, options)
    assert str(caught.value) == message
    # a match refuses it the same way, before the title's own checks or setup run
    with pytest.raises(ConfigError, match="^option "):
        Match(TITLE, 1, 0, options)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"rounds": 5},
        {"pace": 2},  # a whole number where a number is expected
        {"pace": 0.25},
        {"fast": True},
        {"name": ""},
        {"deck": ["AS", "TD"]},
        {"deck": ("AS",)},
        {"house": {"take": 10}},
        {"anything": "at all"},  # a default of None says nothing of the kind
        {"anything": [1, 2]},
    ],
)
def test_options_of_the_right_kind_pass_to_the_title(options: dict[str, Any]) -> None:
    full = TITLE.check_config(2, options)
    assert full == {**Options.default_config, **options}


def test_the_title_s_own_check_still_runs_after_the_kinds_are_right() -> None:
    with pytest.raises(ConfigError, match="rounds: at least 1"):
        TITLE.check_config(1, {"rounds": 0})
    with pytest.raises(ConfigError, match="deck: card names"):
        TITLE.check_config(1, {"deck": [1, 2]})  # a list: its items are the title's to check


def test_the_player_count_and_unknown_options_come_first() -> None:
    with pytest.raises(ConfigError, match="takes 1 to 2 players, not 3"):
        TITLE.check_config(3, {"rounds": "x"})
    with pytest.raises(ConfigError, match="unknown option"):
        TITLE.check_config(1, {"speed": 1, "rounds": "x"})


def test_the_tutorial_title_gets_the_refusal_its_docs_show() -> None:
    from gameweave_sealedbid import SealedBid

    with pytest.raises(ConfigError) as caught:
        Match(SealedBid(), 2, 0, {"lots": 5})
    assert str(caught.value) == "option 'lots' must be a list, not a whole number (5)"
