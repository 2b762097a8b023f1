"""Bots for The House Job. They read only their seat's view and legal actions.

``basic`` plays textbook basic strategy for a dealer standing on every 17 (with Cold
Feet as surrender), bets by The Count, and spends its role's cards and the caller's
levers by simple rules of thumb. ``basic-noabilities`` plays the same hands and bets
but never plays an ability card, the Mark, the Heavy or The Call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import Observation, Rng
from gameweave_core.bots import BotFactory

from . import actions as A
from .cards import VALUES, total

#: The order bots draft roles in: the cards that move the most chips first.
DRAFT_PREFERENCE = ("inside_man", "ghost", "sleight", "lookout", "bagman")


def up_value(card: str) -> int:
    v = VALUES[card[0]]
    return 11 if v == 1 else v


def basic_move(cards: Sequence[str], up: int, can_double: bool, can_split: bool) -> str:
    """Basic strategy against a dealer standing on all 17s: hit, stand, double or split."""
    if can_split and len(cards) == 2 and cards[0][0] == cards[1][0]:
        r = VALUES[cards[0][0]]
        split = {
            1: True,
            8: True,
            10: False,
            9: up in (2, 3, 4, 5, 6, 8, 9),
            7: up <= 7,
            6: up <= 6,
            5: False,
            4: up in (5, 6),
            3: up <= 7,
            2: up <= 7,
        }[r]
        if split:
            return "split"
    pts, soft = total(list(cards))
    two = len(cards) == 2 and can_double
    if soft:
        if pts >= 19:
            return "stand"
        if pts == 18:
            if two and 3 <= up <= 6:
                return "double"
            return "stand" if up in (2, 7, 8) or up <= 8 else "hit"
        if two and (
            (pts == 17 and 3 <= up <= 6)
            or (pts in (15, 16) and 4 <= up <= 6)
            or (pts in (13, 14) and 5 <= up <= 6)
        ):
            return "double"
        return "hit"
    if pts >= 17:
        return "stand"
    if pts >= 13:
        return "stand" if up <= 6 else "hit"
    if pts == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    if pts == 11 and two and up <= 10:
        return "double"
    if pts == 10 and two and up <= 9:
        return "double"
    if pts == 9 and two and 3 <= up <= 6:
        return "double"
    return "hit"


def wants_cold_feet(cards: Sequence[str], up: int, exposed: bool) -> bool:
    """Surrender like a textbook (16 v 9-A, 15 v 10), wider when the Mark or the
    Heavy multiplies what a loss costs."""
    pts, soft = total(list(cards))
    if soft or len(cards) != 2:
        return False
    if exposed:
        return (14 <= pts <= 16 and up >= 9) or (pts in (15, 16) and up >= 7)
    return (pts == 16 and up >= 9) or (pts == 15 and up == 10)


def find(legal: Sequence[Any], kind: type, **fields: Any) -> Any:
    for act in legal:
        if isinstance(act, kind) and all(getattr(act, k) == v for k, v in fields.items()):
            return act
    return None


def ability_plays(legal: Sequence[Any], card: str) -> list[A.Ability]:
    return [a for a in legal if isinstance(a, A.Ability) and a.card == card]


class BasicBot:
    """Basic strategy, Count-led bets and (unless ``abilities`` is off) cards and levers."""

    def __init__(self, abilities: bool = True) -> None:
        self.abilities = abilities

    def act(self, obs: Observation, rng: Rng) -> Any:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], A.Draft):
            open_roles = {a.role: a for a in legal}
            return next(open_roles[r] for r in DRAFT_PREFERENCE if r in open_roles)
        if isinstance(legal[0], A.NextRound):
            return legal[0]
        view = obs.view
        phase = view["phase"]
        if phase == "call":
            return self.call_stop(view, legal)
        if phase == "bet":
            return self.bet(view, obs.seat, legal)
        return self.play(view, obs.seat, legal)

    # -- betting ------------------------------------------------------------------

    def target_bet(self, view: Mapping[str, Any]) -> int:
        take = int(view["take"])
        unit = max(10, (take // 20) // 10 * 10)
        reading = view.get("count", {}).get("reading", "EVEN")
        if reading == "RICH":
            unit *= 2
        elif reading == "THIN":
            unit = max(10, unit // 2 // 10 * 10)
        return unit

    def bet(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> Any:
        rich = view.get("count", {}).get("reading") == "RICH"
        if self.abilities:
            # the deck will likely not see another round after this one
            late = view["deck"]["left"] < 6 * (len(view["crew"]) + 1)
            heavy = find(legal, A.Heavy)
            if heavy is not None and (rich or late):
                return heavy
            if (
                view["caller"] == seat
                and not view["levers"]["mark"]
                and self.double_bag_ready(view)
            ):
                mark = find(legal, A.Mark, box=seat)
                if mark is not None:
                    return mark
            for play in ability_plays(legal, "the_call"):
                if not view["levers"]["mark"] and self.double_bag_ready(view):
                    return play
            for play in ability_plays(legal, "extra_box"):
                if rich or late:
                    return play
        boxes = [b for b in view["boxes"] if b["seat"] == seat]
        for b in boxes:
            want = self.target_bet(view) if not b["extra"] else 10
            have = b["hands"][0]["bet"]
            ref = b["id"] if b["extra"] else None
            for step in (100, 50, 10):
                if have + step <= want:
                    chip = find(legal, A.Chips, amount=step, box=ref)
                    if chip is not None:
                        return chip
        deal = find(legal, A.DealMeIn)
        if deal is not None:
            return deal
        return next(a for a in legal if isinstance(a, A.Chips))

    def double_bag_ready(self, view: Mapping[str, Any]) -> bool:
        return any(
            c["key"] == "double_bag" and not c["spent"] for s in view["crew"] for c in s["cards"]
        )

    def call_stop(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if self.abilities:
            best = None
            for b in view["boxes"]:
                cards = b["hands"][0]["cards"] if b["hands"] else []
                if not cards:  # a box opened at The Call gets its cards after it
                    continue
                score = up_value(cards[0])
                if score >= 10 and (best is None or score > best[0]):
                    best = (score, b["id"])
            if best is not None:
                mark = find(legal, A.Mark, box=best[1])
                if mark is not None:
                    return mark
        return find(legal, A.NoMark) or legal[0]

    # -- playing ------------------------------------------------------------------

    def play(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> Any:
        where = view["playing"]
        box = next(b for b in view["boxes"] if b["id"] == where["box"])
        hand = box["hands"][where["hand"]]
        cards = hand["cards"]
        dealer = view["dealer"]
        up = up_value(dealer["cards"][0])
        pts, soft = total(cards)
        exposed = box["marked"] or view["levers"]["heavy"]
        if self.abilities:
            play = self.spend(view, seat, legal, box, hand, up)
            if play is not None:
                return play
        if box["vanish"]:
            # Vanish refunds a bust, so a stiff hand is hit, never walked out: walking
            # out would spend half the bet and leave the card nothing to cover.
            if pts < 17 and not (soft and pts >= 18):
                return A.Hit()
        elif find(legal, A.ColdFeet) and wants_cold_feet(cards, up, exposed):
            return find(legal, A.ColdFeet)
        # A face-up hole card (Rooftop) tells the whole story once the house stands.
        if not dealer["hole_down"] and len(dealer["cards"]) >= 2:
            dpts = dealer["points"]
            if dpts >= 17:
                return A.Hit() if pts < dpts and pts < 21 else A.Stand()
        face_up = view["deck"]["face_up"]
        if face_up:
            after = total([*cards, face_up[0]])[0]
            if after <= 21 and (after > pts or (soft and pts < 17)) and (after >= 17 or pts < 12):
                return A.Hit()
            if after > 21 and pts >= 12:
                return A.Stand()
        move = basic_move(
            cards, up, find(legal, A.Double) is not None, find(legal, A.Split) is not None
        )
        if move == "double" and find(legal, A.Double) is None:
            move = "hit"
        return {"hit": A.Hit(), "stand": A.Stand(), "double": A.Double(), "split": A.Split()}[move]

    def spend(
        self,
        view: Mapping[str, Any],
        seat: int,
        legal: Sequence[Any],
        box: Mapping[str, Any],
        hand: Mapping[str, Any],
        up: int,
    ) -> Any:
        cards = hand["cards"]
        pts, soft = total(cards)
        stiff = not soft and 12 <= pts <= 16
        strong_up = up >= 7
        # Inside Man: The Nod is best set early against a strong upcard.
        for play in ability_plays(legal, "the_nod"):
            if strong_up or view.get("tell") == "HIGH":
                return play
        for play in ability_plays(legal, "slow_hand"):
            if up <= 6 and pts >= 17 and view.get("tell") == "HIGH":
                return play
        # Bagman: Double Bag once a Marked box looks good; back a strong box.
        for play in ability_plays(legal, "double_bag"):
            marked = [b for b in view["boxes"] if b["marked"]]
            if marked:
                h = marked[0]["hands"][0]
                if h["status"] == "blackjack" or (h["cards"] and 18 <= h["points"] <= 21):
                    return play
        backing = ability_plays(legal, "back_the_play")
        if backing and up <= 6:
            good = [
                b
                for b in view["boxes"]
                if b["hands"][0]["status"] in ("stood", "waiting", "playing")
                and b["hands"][0]["points"] >= 19
            ]
            if good:
                want = max(10, view["take"] // 4)
                options = [a for a in backing if a.box == good[0]["id"] and (a.amount or 0) <= want]
                if options:
                    return max(options, key=lambda a: a.amount or 0)
        for play in ability_plays(legal, "short_change"):
            if play.box == box["id"] and stiff and strong_up:
                return play
        # Lookout: see the hole card on a stiff hand; look at the deck when it helps.
        for play in ability_plays(legal, "rooftop"):
            if stiff:
                return play
        for play in ability_plays(legal, "long_glass"):
            if stiff and not view["deck"]["face_up"]:
                return play
        # Sleight: pull a good card to the top, or fix a stiff hand.
        loads = ability_plays(legal, "the_load")
        if loads and pts < 17:
            face_up = view["deck"]["face_up"]
            for play in loads:
                after = total([*cards, face_up[play.index or 0]])[0]
                if 17 <= after <= 21 and total([*cards, face_up[0]])[0] not in range(17, 22):
                    return play
        if stiff and strong_up:
            palm = self.pick_palm(view, seat, legal)
            if palm is not None:
                return palm
            cut = self.pick_false_cut(legal, box, cards)
            if cut is not None:
                return cut
            # Ghost: drop a card to get out of the stiff range, or start again.
            drops = ability_plays(legal, "the_drop")
            if drops:
                best = max(drops, key=lambda a: drop_value(cards, a.index or 0))
                if drop_value(cards, best.index or 0) > 0:
                    return best
            for play in ability_plays(legal, "alibi"):
                return play
            for play in ability_plays(legal, "vanish"):
                if play.box == box["id"]:
                    return play
        return None

    def pick_palm(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> Any:
        own = next((b for b in view["boxes"] if b["seat"] == seat and not b["extra"]), None)
        if own is None:
            return None
        mine = own["hands"][0]["cards"]
        for play in ability_plays(legal, "palm"):
            other = next(b for b in view["boxes"] if b["id"] == play.box)
            theirs = other["hands"][0]["cards"]
            a, b = list(mine), list(theirs)
            a[play.mine or 0], b[play.index or 0] = b[play.index or 0], a[play.mine or 0]
            pa, pb = total(a)[0], total(b)[0]
            before_b = total(theirs)[0]
            if 18 <= pa <= 21 and pb <= 21 and (pb >= before_b or pb >= 18):
                return play
        return None

    def pick_false_cut(
        self, legal: Sequence[Any], box: Mapping[str, Any], cards: Sequence[str]
    ) -> Any:
        plays = [a for a in ability_plays(legal, "false_cut") if a.box == box["id"]]
        if box["extra"] or not plays:
            return None
        best = max(plays, key=lambda a: replace_odds(cards, a.index or 0))
        return best if replace_odds(cards, best.index or 0) > 0.4 else None


RANK_WEIGHTS = [(v, 4 if v != 10 else 16) for v in range(1, 11)]


def replace_odds(cards: Sequence[str], index: int) -> float:
    """The chance a fresh card in place of ``cards[index]`` lands the hand on 17-21."""
    rest = [c for i, c in enumerate(cards) if i != index]
    good = 0
    for v, w in RANK_WEIGHTS:
        card = {1: "A", 10: "T"}.get(v, str(v)) + "S"
        if 17 <= total([*rest, card])[0] <= 21:
            good += w
    return good / 52


def drop_value(cards: Sequence[str], index: int) -> float:
    """How much better a hand is after dropping ``cards[index]`` (positive: worth it)."""
    rest = [c for i, c in enumerate(cards) if i != index]
    pts, soft = total(rest)
    if 17 <= pts <= 21:
        return 2.0
    if pts <= 11 and not soft:
        return 1.0
    return 0.0


BOTS: dict[str, BotFactory] = {
    "basic": lambda seat, players: BasicBot(abilities=True),
    "basic-noabilities": lambda seat, players: BasicBot(abilities=False),
}


def search_defaults(seat: int, players: int) -> dict[str, Any]:
    """How the ``ismcts`` bot searches a crew seat (see ``docs/bots.md``): random
    rollouts still end rounds with real wins and busts to learn from, and at 160
    iterations a decision takes a tenth of a CPU second at two seats. The basic bot
    never varies its move, so it cannot propose candidates."""
    return {"iterations": 160}
