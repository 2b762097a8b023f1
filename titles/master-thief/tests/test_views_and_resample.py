"""Secrets: each reveal reaches exactly the seats the rules say, and the resample hook
draws what a seat has not seen from what it knows alone."""

from __future__ import annotations

from gameweave_masterthief.state import State
from helpers import FILLER, REGISTRY, TITLE, act, heist, stacked, state

from gameweave_core import Match, Rng, play_out
from gameweave_core.testing import random_match


def test_drawn_thief_cards_are_seen_by_the_drawer_only() -> None:
    """[1. Steal from the Museum] the cards drawn join a secret hand; the table sees
    how many."""
    match = stacked(3, museum=["Astrolabe", "Opal Brooch", "Ruby Sceptre", "Dodo Egg"])
    heist(match)
    act(match, 1, "steal")
    mine = [line for line in match.history(1) if line.startswith("You draw ")]
    assert len(mine) == 1
    for watcher in (2, 3, None):
        assert "Seat 1 draws 3 Thief Cards" in match.history(watcher)
        assert not any(line.startswith("You draw") for line in match.history(watcher))
        assert match.view(watcher)["seats"][0]["hand"] == 7


def test_snoop_shows_the_calling_card_to_the_snooper_only() -> None:
    match = stacked(
        3,
        museum=["Astrolabe", "Opal Brooch", "Ruby Sceptre", "T-Rex Skull"],
        hands=[["Snoop", "Lift", "Stash", "Stash"]],
        calling=["The Looter", "The Collector"],
    )
    heist(match)
    act(match, 1, "steal")
    act(match, 1, "snoop 2")
    assert match.view(1)["seats"][1]["calling"] == "The Collector"
    assert "Seat 2's Calling Card is The Collector" in match.history(1)
    for watcher in (2, 3, None):
        assert "calling" not in match.view(watcher)["seats"][1] or watcher == 2
        assert not any("The Collector" in line for line in match.history(watcher))
    assert "Seat 1 plays Snoop on Seat 2's Calling Card" in match.history(3)


def test_an_escape_reveals_the_calling_card_to_everyone() -> None:
    """[Calling Cards] "Calling Cards are also revealed when a player chooses to escape"."""
    match = stacked(
        2,
        museum=["Astrolabe", "Opal Brooch", "T-Rex Skull"],
        hands=[FILLER],
        calling=["The Pickpocket"],
    )
    heist(match)
    act(match, 1, "steal")
    act(match, 1, "end turn")
    act(match, 1, "escape")
    for watcher in (2, None):
        assert match.view(watcher)["seats"][0]["calling"] == "The Pickpocket"


def test_the_other_seats_hands_and_calling_cards_are_in_no_view() -> None:
    match = Match(TITLE, 4, seed=11)
    play_out(match, {s: "random" for s in range(1, 5)}, REGISTRY)
    for step in (5, 30, 60):
        at = match.at(min(step, match.step))
        st = state(at)
        for watcher in (1, None):
            view = at.view(watcher)
            seen = st.snooped[0] if watcher == 1 else []
            for s in view["seats"]:
                assert isinstance(s["hand"], int)  # a count, never the cards
                secret = not st.revealed[s["seat"] - 1] and s["seat"] not in seen
                if s["seat"] != watcher and secret:
                    assert "calling" not in s


def snap(state_: State) -> object:
    return TITLE.snapshot(state_)


def test_resample_keeps_the_view_and_redraws_the_unseen() -> None:
    for seed in range(6):
        match = random_match(TITLE, 2 + seed % 4, seed, steps=15 + 7 * seed)
        st = state(match)
        for seat in [*range(1, match.players + 1), None]:
            drawn = TITLE.resample(st, seat, Rng(seed))
            assert TITLE.view(drawn, seat) == TITLE.view(st, seat)
            if seat is not None:
                assert drawn.hands[seat - 1] == st.hands[seat - 1]
                assert drawn.calling[seat - 1] == st.calling[seat - 1]
            assert sorted(drawn.museum) == sorted(st.museum)
            others = sorted(
                c for s in range(1, match.players + 1) if s != seat for c in st.hands[s - 1]
            ) + sorted(st.deck)
            again = sorted(
                c for s in range(1, match.players + 1) if s != seat for c in drawn.hands[s - 1]
            ) + sorted(drawn.deck)
            assert sorted(others) == sorted(again)
        decks = {tuple(TITLE.resample(st, 1, Rng(k)).deck) for k in range(5)}
        assert len(decks) > 1


def test_resample_depends_only_on_what_the_seat_knows() -> None:
    """The API's addendum: twins a seat cannot tell apart resample to equal states."""
    for seed in range(8):
        match = random_match(TITLE, 2 + seed % 5, seed, steps=10 + 9 * seed)
        st = state(match)
        for seat in [*range(1, match.players + 1), None]:
            twin = TITLE.resample(st, seat, Rng(1000 + seed))
            for k in range(3):
                a = TITLE.resample(st, seat, Rng(k))
                b = TITLE.resample(twin, seat, Rng(k))
                assert snap(a) == snap(b), (seed, seat, k)


def test_a_snooped_calling_card_stays_put_when_resampled() -> None:
    match = stacked(
        3,
        museum=["Astrolabe", "Opal Brooch", "Ruby Sceptre", "T-Rex Skull"],
        hands=[["Snoop", "Lift", "Stash", "Stash"]],
        calling=["The Looter", "The Collector"],
    )
    heist(match)
    act(match, 1, "steal")
    act(match, 1, "snoop 2")
    st = state(match)
    thirds = set()
    for k in range(20):
        drawn = TITLE.resample(st, 1, Rng(k))
        assert drawn.calling[:2] == ["The Looter", "The Collector"]
        thirds.add(drawn.calling[2])
    assert len(thirds) > 1 and not thirds & {"The Looter", "The Collector"}
