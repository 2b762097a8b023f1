"""A seat learns only through what reaches it (the conformance kit's view criterion):
whatever a view comes to show that a seat could not work out before, an event it
reads says; and what an event tells, the view keeps."""

from __future__ import annotations

from helpers import FILLER, act, heist, stacked, state

from gameweave_core import Match, Rng


def events_of(match: Match, watcher: int | None, kind: str) -> list[dict[str, object]]:
    return [e for e in match.events(watcher) if e.get("kind") == kind]


def test_a_restart_tells_each_thief_its_new_hand_and_calling_card() -> None:
    """[Beginning the Game] "decide as a group to abandon the heist and start over":
    everything is dealt again, and each thief is told what it now holds."""
    match = stacked(3, museum=["Laser Snare", "Dodo Egg", "Astrolabe"])
    heist(match)
    for seat in (1, 2, 3):
        act(match, seat, "vote abandon")
    st = state(match)
    for seat in (1, 2, 3):
        (dealt,) = events_of(match, seat, "dealt")
        assert dealt["data"] == {"hand": st.hands[seat - 1], "calling": st.calling[seat - 1]}
    assert events_of(match, None, "dealt") == []  # spectators are told nothing of it


def test_an_escaped_thiefs_discarded_cards_are_named_to_all() -> None:
    """[Escaping the Museum] "Discard your Thief Cards": face up, so the event that
    says so names them."""
    match = stacked(
        3,
        museum=["Astrolabe", "Opal Brooch", "Ruby Sceptre", "T-Rex Skull"],
        hands=[FILLER],
    )
    heist(match)
    act(match, 1, "steal")
    act(match, 1, "end turn")
    act(match, 1, "escape")
    act(match, 3, "pass")
    act(match, 2, "pass")
    (escaped,) = events_of(match, None, "escaped")
    assert escaped["data"] == {"discarded": sorted(FILLER)}


def test_who_snooped_whom_stays_in_every_view() -> None:
    """Snoop is played in the open: the table keeps seeing whose card was looked at."""
    match = stacked(
        3,
        museum=["Astrolabe", "Opal Brooch", "Ruby Sceptre", "T-Rex Skull"],
        hands=[["Snoop", "Lift", "Stash", "Stash"]],
    )
    heist(match)
    act(match, 1, "steal")
    act(match, 1, "snoop 2")
    for watcher in (1, 2, 3, None):
        assert match.view(watcher)["seats"][0]["snooped"] == [2]


def test_what_a_caught_thief_carried_stays_in_sight_at_the_end() -> None:
    """[End of the Game] thieves still inside are caught and drop what they carry
    back into the Museum: the views keep what each dropped."""
    match = stacked(2, museum=["Astrolabe", "Opal Brooch", "Ruby Sceptre"])
    heist(match)
    st = state(match)
    carried = [list(c) for c in st.carried]
    from gameweave_masterthief.rules import end_game

    end_game(st, "time", Rng(0))
    match._awaiting = None
    for watcher in (1, 2, None):
        seats = match.view(watcher)["seats"]
        assert [[i["name"] for i in s.get("caught_with", [])] for s in seats] == carried
