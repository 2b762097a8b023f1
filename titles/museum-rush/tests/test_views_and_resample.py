"""Views as allow-lists, and the resample hook (the kit's automatic twins rely on it)."""

from __future__ import annotations

import copy

from gameweave_museumrush import MuseumRush, rules, views
from gameweave_museumrush.actions import End, Pass, Rob
from gameweave_museumrush.resample import resample
from helpers import act, card_of, deck_top, give, seed_where, table

from gameweave_core import Rng

TITLE = MuseumRush()


def test_another_seats_item_is_a_count_not_a_card() -> None:
    """Items go into the hand unseen by others: they see a purple card, not which."""
    state = table(3, turn=3)
    lure = card_of("lure")
    deck_top(state, lure)
    events = act(state, 3, End(False))
    mine = views.view(state, 1)["you"]["hand"]
    assert [c["id"] for c in mine] == [lure]
    for seat in (2, 3, None):
        v = views.view(state, seat)
        assert v["thieves"][0]["items"] == 1 and v["thieves"][0]["known"] == []
        assert "Lure" not in " ".join(e.text for e in events if e.visible_to(seat))


def test_a_robbed_card_is_seen_by_the_two_thieves_only() -> None:
    """Steal from Another Thief: the card changes hands in front of the two of them."""
    state = table(3, at=("B2", "B2", "G4"), guards=["G2"])
    give(state, 2, card_of("lure"))
    act(state, 1, Rob(2))

    def robber_wins(seed: int) -> bool:
        s = copy.deepcopy(state)
        rules.apply(s, 2, Pass(), Rng(seed))
        return bool(s.hands[0])

    act(state, 2, Pass(), seed_where(robber_wins))
    assert state.hands[0] == [card_of("lure")]
    assert views.view(state, 2)["thieves"][0]["known"][0]["name"] == "Lure"
    for seat in (3, None):
        entry = views.view(state, seat)["thieves"][0]
        assert entry["known"] == [] and entry["items"] == 1


def test_owl_draw_is_the_owls_alone() -> None:
    state = table(turn=2, first_game=False)
    state.thief = ["The Owl", "The Cat"]
    deck_top(state, card_of("lure"), card_of("disable"))
    act(state, 2, End(False))
    assert len(views.view(state, 1)["you"]["drawn"]) == 2
    assert "drawn" not in views.view(state, 2)["you"]


def test_buyers_and_unshown_stashes_are_private_until_the_end() -> None:
    state = rules.setup(3, {}, Rng(4))
    v = views.view(state, 1)
    assert "buyer" in v["you"] and all("buyer" not in t for t in v["thieves"])
    assert all("stash" not in t for t in v["thieves"])


def test_resample_keeps_the_view_and_redraws_the_rest() -> None:
    """Resample: the seat's view is unchanged; other hands, the deck, face-down
    cards, Buyers and Stashes are redrawn; same generator, same draw."""
    state = table(3, turn=3, first_game=False)
    give(state, 2, card_of("lure", 2), card_of("takedown"))
    give(state, 1, card_of("disable"))
    before = TITLE.snapshot(state)
    changed = 0
    for k in range(10):
        drawn = resample(state, 1, Rng(k))
        assert TITLE.snapshot(state) == before
        assert views.view(drawn, 1) == views.view(state, 1)
        assert TITLE.snapshot(resample(state, 1, Rng(k))) == TITLE.snapshot(drawn)
        assert drawn.hands[0] == state.hands[0] and drawn.buyer[0] == state.buyer[0]
        changed += sorted(drawn.hands[1]) != sorted(state.hands[1])
        changed += drawn.deck != state.deck
    assert changed >= 10


def test_resample_depends_only_on_what_the_seat_knows() -> None:
    """ADDENDUM: two states seat 1 cannot tell apart (seat 2 holds a Lure in one
    and a Disable in the other, the deck the other way round) give equal draws."""
    base = table(turn=1)
    lure, disable = card_of("lure"), card_of("disable")
    a = copy.deepcopy(base)
    give(a, 2, lure)
    b = copy.deepcopy(base)
    i, j = b.deck.index(lure), b.deck.index(disable)
    b.deck[i], b.deck[j] = disable, lure
    give(b, 2, disable)
    assert views.view(a, 1) == views.view(b, 1)
    assert TITLE.snapshot(a) != TITLE.snapshot(b)
    for k in range(5):
        assert TITLE.snapshot(resample(a, 1, Rng(k))) == TITLE.snapshot(resample(b, 1, Rng(k)))
