"""ModuleTitle: a title assembled from its modules by name, and the JSON route the core
owns in front of every title's parse_action."""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gameweave_core import ConfigError, MalformedAction, Match, ModuleTitle, Rng, Title
from gameweave_core.testing import random_match
from gameweave_sealedbid import SealedBid, actions, bots, resample, rules, terminal, views
from gameweave_sealedbid.title import Bid, State


def module(name: str, **functions: Any) -> types.ModuleType:
    """A module holding ``functions``, as a title's rules module would."""
    made = types.ModuleType(name)
    for key, value in functions.items():
        setattr(made, key, value)
    return made


def same(a: object, b: object) -> bool:
    """Whether ``a`` is the very object ``b`` (mypy cannot see that a bound module
    function is the method it declares)."""
    return a is b


def test_each_method_is_the_module_function_itself_with_no_call_in_between() -> None:
    title = SealedBid()
    # The very function objects: calling the method calls the module's function.
    assert same(title.apply, rules.apply) and same(SealedBid.apply, rules.apply)
    assert same(title.awaiting, rules.awaiting)
    assert same(title.legal_actions, rules.legal_actions)
    assert same(title.view, views.view) and same(title.resample, resample.resample)
    assert same(title.describe_action, terminal.describe_action)
    assert title.actions == actions.ACTIONS and title.bots() is bots.BOTS
    assert SealedBid.module_bindings["apply"] == "gameweave_sealedbid.rules.apply"
    assert SealedBid.module_bindings["bots"] == "gameweave_sealedbid.bots.BOTS"
    # parse_action is written in the class, so no module supplies it.
    assert "parse_action" not in SealedBid.module_bindings
    assert title.can_resample


def test_a_module_title_plays_like_the_relay_it_replaces() -> None:
    match = random_match(SealedBid(), 3, seed=8)
    assert match.is_over and match.to_log().to_toml()


def test_a_method_written_in_the_class_or_a_subclass_wins_over_the_modules() -> None:
    class Loud(SealedBid):
        def seat_label(self, state: State, seat: int) -> str:
            return f"BIDDER {seat}"

    class Louder(Loud, rules=rules, views=views):
        """Names the modules again: what Loud wrote still wins, the rest is rebound."""

    match = Match(Louder(), 2, seed=1)
    assert match.seat_label(2) == "BIDDER 2"
    assert same(Louder.apply, rules.apply)
    assert "seat_label" not in Louder.module_bindings


def test_two_modules_with_different_functions_of_one_name_are_refused() -> None:
    other = module("other_views", view=lambda state, seat: {})
    with pytest.raises(TypeError, match="views.view and other_views.view differ; write view"):

        class Clash(ModuleTitle[State], rules=rules, views=views, more=other):
            name = "clash"

    # The same function re-exported by a second module is no clash.
    again = module("again", view=views.view)

    class Fine(ModuleTitle[State], rules=rules, views=views, more=again):
        name = "fine"

    assert same(Fine.view, views.view)


def test_a_module_that_supplies_nothing_or_no_module_is_refused() -> None:
    with pytest.raises(TypeError, match=r"module helpers \(extra=\) defines none of setup"):

        class Idle(ModuleTitle[State], rules=rules, extra=module("helpers", helper=len)):
            name = "idle"

    with pytest.raises(TypeError, match="rules= must be a module, not dict"):

        class NotAModule(ModuleTitle[State], rules={"setup": rules.setup}):  # type: ignore[arg-type]
            name = "notamodule"


def test_a_function_that_cannot_take_the_protocols_arguments_is_refused_at_once() -> None:
    # Sealed Bids' terminal.parse_action(text) reads one argument; the core passes two.
    with pytest.raises(TypeError, match=r"terminal.parse_action\(text.*cannot be called as "):

        class Unwritten(ModuleTitle[State], rules=rules, views=views, terminal=terminal):
            name = "unwritten"

    with pytest.raises(TypeError, match=r"cannot be apply"):

        class NotCallable(ModuleTitle[State], rules=module("r", apply=3)):
            name = "notcallable"


def test_a_rule_no_module_supplies_leaves_the_title_abstract() -> None:
    class Partial(ModuleTitle[State], views=views):
        name = "partial"

    with pytest.raises(TypeError, match="abstract"):
        Partial()


def test_a_modules_check_config_runs_after_the_base_check() -> None:
    seen: list[Mapping[str, Any]] = []

    def check_config(players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        seen.append(config)
        if config["lots"] and len(config["lots"]) != 5:
            raise ConfigError("five lots, please")
        return dict(config)

    class Checked(ModuleTitle[State], rules=module("checks", check_config=check_config)):
        name = "checked"
        display_name = "Checked"
        min_players, max_players = 2, 4
        default_config = {"lots": []}  # noqa: RUF012
        setup = staticmethod(rules.setup)
        awaiting = staticmethod(rules.awaiting)
        legal_actions = staticmethod(rules.legal_actions)
        apply = staticmethod(rules.apply)
        view = staticmethod(views.view)
        outcome = staticmethod(rules.outcome)
        actions = actions.ACTIONS

    title = Checked()
    # The base check refuses first: the module never sees a wrong kind or count.
    with pytest.raises(ConfigError, match="must be a list"):
        title.check_config(2, {"lots": 5})
    with pytest.raises(ConfigError, match="takes 2 to 4 players"):
        title.check_config(5, {})
    assert seen == []
    with pytest.raises(ConfigError, match="five lots"):
        title.check_config(2, {"lots": [1, 2]})
    # ... and receives the defaults filled in.
    assert title.check_config(2, {}) == {"lots": []} and seen[-1] == {"lots": []}


def test_every_title_reads_the_json_form_before_its_own_notation() -> None:
    title = SealedBid()
    legal = [Bid(0), Bid(1)]
    assert title.read_action('  {"type": "bid", "coins": 1}', legal) == Bid(1)
    assert title.read_action("bid 1", legal) == Bid(1)  # the title's own notation
    with pytest.raises(ValueError, match="not valid JSON"):
        title.read_action('{"type": "bid", coins: 1}', legal)
    with pytest.raises(MalformedAction, match="unknown action type 'steal'"):
        title.read_action('{"type": "steal"}', legal)

    class Stubborn(SealedBid):
        """A parser that knows only its words never sees JSON at all."""

        def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
            assert not text.lstrip().startswith("{"), "JSON reached parse_action"
            return super().parse_action(text, legal)

    assert Stubborn().read_action('{"type": "bid", "coins": 0}', legal) == Bid(0)


def test_no_title_may_take_over_the_json_route() -> None:
    with pytest.raises(TypeError, match="overrides read_action, which the core owns"):

        class Rogue(SealedBid):
            def read_action(self, text: str, legal: Sequence[Any]) -> Any:
                return None

    # The base parse_action (no notation of the title's own) reads menu labels only.
    with pytest.raises(ValueError, match="cannot read"):
        Title.parse_action(SealedBid(), '{"type": "bid", "coins": 1}', [Bid(1)])


def test_search_defaults_and_rules_text_come_from_their_modules_too() -> None:
    def search_defaults(seat: int, players: int) -> Mapping[str, Any]:
        return {"iterations": seat * 10}

    topics = {"overview": "Bid in secret."}

    class Told(
        SealedBid,
        bots=module("more_bots", search_defaults=search_defaults),
        rules_text=module("words", TOPICS=topics),
    ):
        pass

    title = Told()
    assert title.search_defaults(2, 3) == {"iterations": 20}
    assert title.rules_text() is topics
    assert title.setup(2, {"lots": []}, Rng(1)).players == 2
