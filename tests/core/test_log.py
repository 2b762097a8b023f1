"""TOML logs: round trips, hand edits and every way a log can be wrong."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameweave_core import DigestMismatch, LogError, Match, MatchLog, play_out
from gameweave_core.log import LogEntry
from gameweave_core.testing import random_match
from gameweave_sealedbid import SealedBid


@pytest.fixture
def played(sealed_registry: Any) -> Match:
    match = Match.create("sealedbid", 3, seed=4, registry=sealed_registry)
    return play_out(match, registry=sealed_registry)


def test_a_log_reads_like_a_document(played: Match) -> None:
    text = played.to_log().to_toml()
    assert text.startswith('format = 1\ntitle = "sealedbid"\n')
    data = tomllib.loads(text)
    assert data["distribution"] == "gameweave-sealedbid"
    assert data["distribution_version"] == "1.0.0"
    assert data["players"] == 3 and data["seed"] == 4
    first = data["actions"][0]
    assert set(first) == {"index", "seat", "action", "digest"}
    assert first["action"]["type"] == "bid"


def test_save_and_load_rebuild_the_same_match(
    played: Match, tmp_path: Path, sealed_registry: Any
) -> None:
    path = tmp_path / "game.toml"
    played.save(path)
    again = Match.load(path, verify=True, registry=sealed_registry)
    assert again.digest() == played.digest()
    assert again.history(2) == played.history(2)
    half = Match.load(path, upto=4, registry=sealed_registry)
    assert half.step == 4
    assert half.digest() == played.at(4).digest()


def _edit(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "edited.toml"
    path.write_text(text)
    return path


def test_a_hand_edited_action_is_named_by_verify(
    played: Match, tmp_path: Path, sealed_registry: Any
) -> None:
    log = played.to_log()
    entries = list(log.actions)
    # Seat 1's sealed bid is part of the state until the reveal, so changing it
    # must change the digest right there.
    first = entries[0]
    bid = first.action["coins"]
    entries[0] = LogEntry(1, first.seat, {"type": "bid", "coins": 0 if bid else 1}, first.digest)
    path = _edit(tmp_path, MatchLog(**{**_fields(log), "actions": entries}).to_toml())
    with pytest.raises(DigestMismatch) as caught:
        Match.load(path, verify=True, registry=sealed_registry)
    assert str(caught.value).startswith(f"{path}: action 1: the state now differs")
    Match.load(path, registry=sealed_registry)  # without --verify it still loads


def _fields(log: MatchLog) -> dict[str, Any]:
    import attrs

    return {f.name: getattr(log, f.name) for f in attrs.fields(MatchLog)}


@pytest.mark.parametrize(
    ("mutate", "says"),
    [
        (lambda t: t.replace("format = 1", "format = 9"), "unknown log format 9"),
        (
            lambda t: t.replace('title = "sealedbid"', 'title = "chess"'),
            "no title named 'chess' is installed; installed: sealedbid",
        ),
        (lambda t: t[: len(t) // 2], "not valid TOML"),
        (lambda t: t.replace("players = 3", "players = 9"), "takes 2 to 4 players, not 9"),
        (lambda t: t.replace("seed = 4", 'seed = "four"'), "malformed header"),
        (lambda t: t.replace("index = 2,", "index = 5,"), "action 2: entry out of order"),
        (
            lambda t: t.replace("seat = 2,", "seat = 1,", 1),
            "action 2: refused: seat 1 is not awaited",
        ),
        (
            lambda t: t.replace('type = "bid"', 'type = "fold"', 1),
            "action 1: refused: unknown action type 'fold'",
        ),
        (lambda t: t.replace("coins = ", "coins = 99 + ", 1), "not valid TOML"),
    ],
)
def test_broken_logs_give_one_line_naming_file_and_action(
    played: Any, tmp_path: Path, sealed_registry: Any, mutate: Any, says: Any
) -> None:
    text = played.to_log().to_toml()
    path = _edit(tmp_path, mutate(text))
    with pytest.raises(LogError) as caught:
        Match.load(path, verify=True, registry=sealed_registry)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert says in message
    assert "\n" not in message


def test_an_illegal_action_in_a_log_is_named(
    played: Any, tmp_path: Path, sealed_registry: Any
) -> None:
    text = played.to_log().to_toml()
    # "coins = 50N": a first bid far beyond the 20 coins held
    path = _edit(
        tmp_path, text.replace('{ type = "bid", coins = ', '{ type = "bid", coins = 50', 1)
    )
    with pytest.raises(LogError, match=r"action 1: refused: you hold 20 coins and cannot bid 50"):
        Match.load(path, registry=sealed_registry)


def test_a_missing_file_is_one_line(tmp_path: Path, sealed_registry: Any) -> None:
    with pytest.raises(LogError, match="nowhere.toml: cannot read"):
        Match.load(tmp_path / "nowhere.toml", registry=sealed_registry)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    players=st.integers(2, 4),
    config=st.just({}),
)
def test_logs_round_trip_through_toml(seed: Any, players: Any, config: Any) -> None:
    log = random_match(SealedBid(), players, seed, config).to_log()
    assert MatchLog.from_toml(log.to_toml()) == log


# -- the random generator --------------------------------------------------------------


def test_a_log_records_its_generator_and_replays_with_it(sealed_registry: Any) -> None:
    from gameweave_core.rng import GENERATOR

    match = play_out(
        Match.create("sealedbid", 3, seed=4, registry=sealed_registry, generator=GENERATOR),
        registry=sealed_registry,
    )
    text = match.to_log().to_toml()
    assert f"\ngenerator = {GENERATOR}\n" in text
    again = Match.from_log(MatchLog.from_toml(text), verify=True, registry=sealed_registry)
    assert again.generator == GENERATOR and again.digest() == match.digest()


def test_a_log_without_a_generator_replays_with_the_legacy_one(sealed_registry: Any) -> None:
    from gameweave_core.rng import GENERATOR, LEGACY_GENERATOR

    legacy = play_out(
        Match.create("sealedbid", 3, seed=4, registry=sealed_registry, generator=LEGACY_GENERATOR),
        registry=sealed_registry,
    )
    text = legacy.to_log().to_toml()
    assert "generator" not in text  # written exactly as before the field existed
    log = MatchLog.from_toml(text)
    assert log.generator == LEGACY_GENERATOR
    Match.from_log(log, verify=True, registry=sealed_registry)
    # Read with the other generator, the same actions reach other states.
    other = attrs.evolve(log, generator=GENERATOR)
    with pytest.raises(LogError):
        Match.from_log(other, verify=True, registry=sealed_registry)


def test_an_unknown_generator_is_one_line(played: Match) -> None:
    lines = [ln for ln in played.to_log().to_toml().splitlines() if not ln.startswith("generator")]
    text = "\n".join(lines).replace("seed = 4\n", "seed = 4\ngenerator = 9\n")
    with pytest.raises(LogError) as caught:
        MatchLog.from_toml(text, "x.toml")
    assert str(caught.value) == (
        "x.toml: unknown random generator 9: this Gameweave knows 1, 2 "
        "(a newer Gameweave may have written it)"
    )


# -- hostile logs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tail", "says"),
    [
        ("x = " + "[" * 5000 + "]" * 5000, "too deeply nested (more than 50 levels)"),
        ("x = " + "[" * 5000, "too deeply nested (more than 50 levels)"),
        ("x = " + "{ a = " * 5000 + "1" + " }" * 5000, "too deeply nested (more than 50 levels)"),
        ("x = " + "7" * 5000, "an integer with more than 100 digits"),
        ("x = " + "7_" * 2000 + "7", "an integer with more than 100 digits"),
    ],
)
def test_pathological_toml_is_refused_in_one_line_before_parsing(
    played: Any, tmp_path: Path, tail: Any, says: Any
) -> None:
    path = tmp_path / "evil.toml"
    path.write_text(played.to_log().to_toml() + "\n" + tail + "\n")
    with pytest.raises(LogError) as caught:
        MatchLog.load(path)
    assert str(caught.value) == f"{path}: {says}"


def test_brackets_and_digits_inside_strings_and_comments_are_not_counted(played: Match) -> None:
    log = played.to_log()
    text = log.to_toml().replace(
        'title = "sealedbid"\n',
        'title = "sealedbid"\n# ' + "[" * 80 + "9" * 200 + "\n",
    )
    assert MatchLog.from_toml(text) == log
    failed = attrs.evolve(
        log,
        actions=[
            *log.actions[:-1],
            attrs.evolve(log.actions[-1], digest=None, error="[" * 80 + "9" * 200),
        ],
    )
    assert MatchLog.from_toml(failed.to_toml()) == failed


def test_an_oversized_log_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gameweave_core import log as log_module

    monkeypatch.setattr(log_module, "MAX_LOG_CHARS", 1000)
    path = tmp_path / "big.toml"
    path.write_text("format = 1\n" + "# padding\n" * 200)
    with pytest.raises(
        LogError, match=r"big.toml: too large \(2,011 bytes; a log may have at most 1,000\)"
    ):
        MatchLog.load(path)
    with pytest.raises(LogError, match=r"too large \(2,011 characters"):
        MatchLog.from_toml(path.read_text())


# -- compatibility -----------------------------------------------------------------------


def test_compatibility_says_what_changed_since_the_recording(
    played: Match, sealed_registry: Any
) -> None:
    entry = sealed_registry.entry("sealedbid")
    log = played.to_log()
    assert log.compatibility(entry) is None
    newer = attrs.evolve(entry, title=type("Newer", (SealedBid,), {"version": "99"})())
    assert log.compatibility(newer) == (
        f"recorded with sealedbid {log.title_version} (gameweave-sealedbid 1.0.0), "
        "installed sealedbid 99 (gameweave-sealedbid 1.0.0): the rules changed"
    )
    moved = attrs.evolve(entry, distribution="gameweave-auctions", distribution_version="2.0")
    assert log.compatibility(moved) == (
        f"recorded with sealedbid {log.title_version} (gameweave-sealedbid 1.0.0), "
        f"installed sealedbid {log.title_version} (gameweave-auctions 2.0): another distribution"
    )


# -- one definition of a valid log (replay --verify and play --resume share it) --------


def failed_last(log: MatchLog, **fields: Any) -> MatchLog:
    last = attrs.evolve(log.actions[-1], **{"digest": None, "error": "ValueError: x", **fields})
    return attrs.evolve(log, actions=[*log.actions[:-1], last])


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda log: attrs.evolve(
                log,
                actions=[attrs.evolve(log.actions[0], digest=None, error="E"), *log.actions[1:]],
            ),
            "action 1: only the last entry may record a failure",
        ),
        (
            lambda log: failed_last(log, digest=log.actions[-1].digest),
            "an entry recording a failure has no digest",
        ),
        (
            lambda log: attrs.evolve(log, seats={"0": "human"}),
            "the seats table names seat '0', not 1 to 3",
        ),
        (
            lambda log: attrs.evolve(log, seats={"1": "robot"}),
            "seat 1 is 'robot'; a seat is 'human' or 'bot:NAME'",
        ),
    ],
    ids=["failure not last", "failure with a digest", "no such seat", "no such kind"],
)
def test_a_log_that_contradicts_itself_is_refused_when_read(
    played: Match, edit: Any, message: str
) -> None:
    with pytest.raises(LogError, match=message):
        MatchLog.from_toml(edit(played.to_log()).to_toml())


def test_verified_needs_every_digest_and_no_recorded_failure(
    played: Match, sealed_registry: Any
) -> None:
    log = played.to_log()
    assert Match.verified(log, registry=sealed_registry).digest() == played.digest()
    stripped = attrs.evolve(log, actions=[attrs.evolve(e, digest=None) for e in log.actions])
    Match.from_log(stripped, verify=True, registry=sealed_registry)  # replays, unchecked
    with pytest.raises(LogError, match="action 1 has no digest, so the log cannot be verified"):
        Match.verified(stripped, registry=sealed_registry)
    # The last action applies under these rules: the recorded failure is not reproduced.
    failed = failed_last(log)
    with pytest.raises(LogError, match="recorded as making the title raise") as raised:
        Match.verified(failed, registry=sealed_registry)
    assert raised.value.index == len(log.actions)
