"""Match: turn checks, refusals, atomicity, audiences, replay."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from gameweave_core import (
    GameOver,
    IllegalAction,
    LogEntry,
    LogError,
    MalformedAction,
    Match,
    NotAwaited,
    Registry,
    Rng,
    TitleError,
    UnknownTitle,
)
from gameweave_core.log import digest
from gameweave_core.testing import fingerprint, random_match
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.title import Bid


@pytest.fixture
def match() -> Match:
    return Match(SealedBid(), 3, seed=11)


def test_same_seed_same_actions_same_game_byte_for_byte() -> None:
    a = random_match(SealedBid(), 4, seed=99)
    b = random_match(SealedBid(), 4, seed=99)
    assert a.to_log().to_toml() == b.to_log().to_toml()
    for seat in (1, 2, 3, 4, None):
        assert json.dumps(a.payload(seat)) == json.dumps(b.payload(seat))


def test_different_seeds_deal_different_lots() -> None:
    lots = {Match(SealedBid(), 2, seed=s).view(None)["lot"] for s in range(30)}
    assert len(lots) > 3


def test_submit_accepts_canonical_json_and_objects(match: Match) -> None:
    match.submit(1, {"type": "bid", "coins": 3})
    match.submit(2, Bid(4))
    assert match.step == 2
    assert match.actions() == [(1, {"type": "bid", "coins": 3}), (2, {"type": "bid", "coins": 4})]


def test_seat_not_awaited_names_who_is(match: Match) -> None:
    for seat in (1, 2, 3):
        match.submit(seat, Bid(0)) if seat != 2 else None
    with pytest.raises(NotAwaited, match=r"seat 1 is not awaited: waiting for seat 2 \(Bidder 2\)"):
        match.submit(1, Bid(1))


def test_illegal_action_reason_is_the_titles_and_changes_nothing(match: Match) -> None:
    before = fingerprint(match)
    with pytest.raises(IllegalAction, match="you hold 20 coins and cannot bid 21"):
        match.submit(1, {"type": "bid", "coins": 21})
    assert fingerprint(match) == before


@pytest.mark.parametrize(
    ("junk", "says"),
    [
        ("bid 3", "must be a JSON object"),
        ({"coins": 3}, 'needs a "type"'),
        ({"type": "raise", "coins": 3}, "unknown action type 'raise'; this title knows: bid"),
        ({"type": "bid"}, "required field missing"),
        ({"type": "bid", "coins": "3"}, "expected int"),
        ({"type": "bid", "coins": True}, "expected int"),
        ({"type": "bid", "coins": 3, "extra": 1}, "extra fields found"),
    ],
)
def test_malformed_actions_are_refused_in_one_line(match: Match, junk: Any, says: Any) -> None:
    before = fingerprint(match)
    with pytest.raises(MalformedAction) as caught:
        match.submit(1, junk)
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)
    assert fingerprint(match) == before


@pytest.mark.parametrize("seat", [0, 4, -1, "1", None, True])
def test_unknown_seats_are_refused(match: Match, seat: Any) -> None:
    with pytest.raises(IllegalAction, match="there is no seat"):
        match.submit(seat, Bid(1))


def test_a_finished_match_takes_nothing() -> None:
    done = random_match(SealedBid(), 2, seed=5)
    assert done.is_over
    with pytest.raises(GameOver, match="the match is over"):
        done.submit(1, Bid(0))


class Exploding(SealedBid):
    """Raises half-way through applying a bid of 13: a title bug."""

    name = "exploding"

    def apply(self, state: Any, seat: Any, action: Any, rng: Any) -> Any:
        state.coins[seat - 1] -= 1  # damage first, then fail
        if action.coins == 13:
            raise ZeroDivisionError("boom")
        state.coins[seat - 1] += 1
        return super().apply(state, seat, action, rng)


def test_a_title_that_raises_is_rolled_back_and_the_failure_logged() -> None:
    match = Match(Exploding(), 2, seed=3)
    match.submit(1, Bid(2))
    before = fingerprint(match)
    with pytest.raises(TitleError, match="exploding raised on action 2 .* ZeroDivisionError: boom"):
        match.submit(2, Bid(13))
    assert fingerprint(match) == before
    assert match.view(None)["coins"] == [20, 20]
    log = match.to_log()
    assert log.actions[-1].error == "ZeroDivisionError: boom"
    assert log.actions[-1].digest is None
    match.submit(2, Bid(1))  # the match goes on


def test_history_respects_audiences(match: Match) -> None:
    match.submit(1, Bid(7))
    assert match.history(1) == [f"You bid 7 on the {match.view(1)['lot']}-point lot"]
    assert match.history(2) == ["Seat 1 seals a bid"]
    assert match.history(None) == ["Seat 1 seals a bid"]
    assert "7" not in json.dumps(match.payload(2)["view"])
    assert match.view(1)["my_bid"] == 7


def test_events_carry_their_step_and_filter_by_since(match: Match) -> None:
    for seat in (1, 2, 3):
        match.submit(seat, Bid(seat))
    reveal = [e for e in match.events(None) if e.get("kind") == "reveal"]
    assert reveal == [
        {
            "step": 3,
            "kind": "reveal",
            "text": "Bids revealed: seat 1 1, seat 2 2, seat 3 3",
            "data": {"bids": {"1": 1, "2": 2, "3": 3}},
        }
    ]
    assert all(e["step"] > 2 for e in match.events(2, since=2))


def test_payload_gives_legal_actions_only_to_the_seat_itself(match: Match) -> None:
    assert len(match.payload(1)["legal"]) == 21
    assert match.payload(None)["legal"] == []
    match.submit(1, Bid(1))
    assert match.payload(1)["legal"] == []


def test_at_and_steps_rebuild_earlier_positions() -> None:
    full = random_match(SealedBid(), 3, seed=21)
    digests = [m.digest() for m in full.steps()]
    assert len(digests) == full.step + 1
    for step in (0, 1, 5, full.step):
        assert full.at(step).digest() == digests[step]
    with pytest.raises(ValueError, match="step must be between 0 and"):
        full.at(full.step + 1)


def test_config_is_checked() -> None:
    from gameweave_core import ConfigError

    with pytest.raises(ConfigError, match="takes 2 to 4 players, not 5"):
        Match(SealedBid(), 5)
    with pytest.raises(ConfigError, match="unknown option"):
        Match(SealedBid(), 2, config={"speed": 2})
    with pytest.raises(ConfigError, match="options must map names to values, not be a list"):
        Match(SealedBid(), 2, 1, [1, 2])  # type: ignore[arg-type]


def test_history_stays_right_when_seats_ask_at_different_times() -> None:
    played = random_match(SealedBid(), 3, seed=8)
    fresh = played.fresh()
    for step, (seat, act) in enumerate(played.actions(), start=1):
        fresh.submit(seat, act)
        if step % 4 == 0:
            fresh.history(1)  # seat 1 reads now and then; the others only at the end
    watchers: tuple[int | None, ...] = (1, 2, 3, None)
    for watcher in watchers:
        expected = [e["text"] for e in played.events(watcher)]
        assert fresh.history(watcher) == expected == played.history(watcher)
    fresh.history(2).append("scribbled")  # a caller's copy, not the match's lines
    assert "scribbled" not in fresh.history(2)


def test_history_is_rebuilt_after_a_rollback() -> None:
    match = Match(Exploding(), 2, seed=3)
    match.submit(1, Bid(2))
    seen = match.history(2)
    with pytest.raises(TitleError):
        match.submit(2, Bid(13))
    assert match.history(2) == seen
    match.submit(2, Bid(1))
    # The sale, then the next lot announced (Sealed Bids tells the table each lot).
    assert match.history(2)[-2].startswith(("Seat 2 wins", "Seat 1 wins", "A tie"))
    assert match.history(2)[-1].endswith("lot comes up")


def test_legal_actions_are_fresh_dicts_each_time(match: Match) -> None:
    first = match.legal_json(1)
    first[0]["coins"] = 999
    assert match.legal_json(1)[0] == {"type": "bid", "coins": 0}


def test_a_replayed_title_failure_keeps_the_titles_exception_as_its_cause(
    sealed_registry: Any,
) -> None:
    match = Match(Exploding(), 2, seed=3)
    match.submit(1, Bid(2))
    registry = Registry()
    registry.add_title(Exploding())
    log = attrs.evolve(
        match.to_log(),
        actions=[*match.to_log().actions, LogEntry(2, 2, {"type": "bid", "coins": 13})],
    )
    with pytest.raises(LogError, match="action 2: exploding raised") as caught:
        Match.from_log(log, registry=registry)
    assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert "\n" not in str(caught.value)


def test_the_old_names_still_work_and_say_they_are_deprecated(match: Match) -> None:
    match.submit(1, Bid(3))
    with pytest.warns(DeprecationWarning, match="Match.step"):
        assert match.version == match.step == 1
    with pytest.warns(DeprecationWarning, match="legal_actions"):
        assert list(match.legal(2)) == list(match.legal_actions(2))
    assert match.legal_json(2) == [SealedBid().codec.to_json(a) for a in match.legal_actions(2)]
    assert all(isinstance(a, Bid) for a in match.legal_actions(2))


def test_snapshot_is_the_titles_whole_state(match: Match) -> None:
    match.submit(1, Bid(3))
    assert match.snapshot() == match.title.snapshot(match.state)
    assert digest(match.snapshot()) == match.digest()
    assert json.dumps(match.snapshot())  # JSON-ready data


def test_a_title_name_instead_of_a_title_is_refused_in_one_line() -> None:
    with pytest.raises(TypeError) as caught:
        Match("sealedbid", 3)  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message
    assert message == (
        "Match() takes a Title object, not str 'sealedbid'; "
        "to start an installed title by name use "
        "Match.create('sealedbid', ..., registry=default_registry())"
    )


def test_an_observation_reads_the_seats_own_view_history_and_draws(match: Match) -> None:
    from gameweave_core import Rng

    seat = match.awaiting[0]
    observation = match.observe(seat)
    assert observation.view == match.view(seat)
    assert observation.history == match.history(seat)
    drawn = observation.resample(Rng(5))
    # A draw is a fresh state the seat cannot tell from the real one.
    assert SealedBid().view(drawn, seat) == match.view(seat)
    assert drawn is not match.state


def test_state_is_the_live_state_for_tests_and_cannot_be_replaced(match: Match) -> None:
    match.submit(1, Bid(3))
    assert match.state.bids == {1: 3}  # the secret bid: for tests, never for a seat
    assert match.title.snapshot(match.state) == match.snapshot()
    with pytest.raises(AttributeError):
        match.state = SealedBid().setup(3, {"lots": []}, Rng(1))  # type: ignore[misc]
    assert match.state.bids == {1: 3}


def test_a_title_by_name_is_found_among_the_installed_ones_unless_a_registry_is_given(
    sealed_registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script names an installed title and nothing more (as it did before registries
    were passed around); an explicit registry always wins."""
    import gameweave_core.match as match_module

    empty = Registry()
    monkeypatch.setattr(match_module, "default_registry", lambda: sealed_registry)
    named = Match.create("sealedbid", 2, seed=1)
    assert named.distribution == "gameweave-sealedbid"
    assert Match.from_log(named.to_log()).distribution == "gameweave-sealedbid"
    with pytest.raises(UnknownTitle, match="sealedbid"):
        Match.create("sealedbid", 2, seed=1, registry=empty)
    with pytest.raises(LogError, match="sealedbid"):
        Match.from_log(named.to_log(), registry=empty)
    # A title object needs none; the registry, when given, names its distribution.
    title = sealed_registry.title("sealedbid")
    assert Match.create(title, 2, seed=1).distribution == "unknown"
    assert Match.create(title, 2, seed=1, registry=sealed_registry).distribution == (
        "gameweave-sealedbid"
    )
