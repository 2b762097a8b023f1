"""Bluff: a small bluffing game built on the core's chained reactions
(:mod:`gameweave_core.chain`), the worked example of docs/reference/reactions.md.

Two to four players each hold two face-down role cards from a deck of five Dukes and
five Captains, and start with two coins. On a turn a player takes one action:

- **income**: one coin; nothing is claimed, so nothing can be answered;
- **tax**: three coins, claiming a Duke;
- **steal**: up to two coins from another player, claiming a Captain;
- **coup**: pay seven coins and make another player lose a card (a player holding
  ten coins or more must coup).

Any other player may challenge a claim. If the claimant holds the role, they show
it, shuffle it into the deck and draw a new card, and the challenger loses a card;
if not, the claimant loses a card and the action fails. A steal that survives its
challenge may be blocked by its target, claiming a Captain; the block may be
challenged in turn, and a block that stands stops the steal. A player losing a card
chooses which, and it is turned face up; a player with no card left is out. The
last player in wins; after 24 turns the most cards win, then the most coins.

The whole game is one file: the state, the actions, the rules as functions, and a
:class:`~gameweave_core.title.ModuleTitle` that takes its methods from this module.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from gameweave_core import (
    Bag,
    Event,
    GameFacts,
    IntRange,
    ListOf,
    Maybe,
    ModuleTitle,
    OneOf,
    Outcome,
    Record,
    Rng,
    Schema,
    action,
    action_tag,
    chain,
    values,
)
from gameweave_core.reactions import PASS, seats_from, who_to_ask

from . import bluff  # this very module: the title names it (game=), and mypy checks it

ROLES = ("captain", "duke")
COPIES = 5
TURNS = 24
#: What each claiming action claims.
CLAIMS = {"tax": "duke", "steal": "captain", "block": "captain"}


# -- actions -----------------------------------------------------------------------


@action("income")
@attrs.frozen
class Income:
    """Take one coin."""


@action("tax")
@attrs.frozen
class Tax:
    """Take three coins, claiming a Duke."""


@action("steal")
@attrs.frozen
class Steal:
    """Take up to two coins from ``target``, claiming a Captain."""

    target: int = values(lambda players, config: range(1, players + 1))


@action("coup")
@attrs.frozen
class Coup:
    """Pay seven coins: ``target`` loses a card."""

    target: int = values(lambda players, config: range(1, players + 1))


@action("challenge")
@attrs.frozen
class Challenge:
    """Call the claim on the table a bluff."""


@action("block")
@attrs.frozen
class Block:
    """Stop the steal aimed at you, claiming a Captain."""


@action("pass")
@attrs.frozen
class Pass:
    """Let the claim on the table stand."""


@action("lose")
@attrs.frozen
class Lose:
    """Turn ``role``, one of your face-down cards, face up: it is lost."""

    role: str = values(ROLES)


ACTIONS = (Income, Tax, Steal, Coup, Challenge, Block, Pass, Lose)


# -- state -------------------------------------------------------------------------


@attrs.define
class State:
    """The whole table, secrets included."""

    players: int
    hands: list[list[str]]  # face-down cards per seat: secret to the others
    deck: list[str]  # face down: secret to everyone
    coins: list[int]
    lost: list[list[str]]  # face-up cards per seat
    turn: int = 1
    turns: int = 0  # turns played
    called: list[list[int]] = attrs.field(factory=list)  # challenges: [challenger, claimant]
    pending: chain.Chain = attrs.field(factory=chain.Chain)


def alive(state: State, seat: int) -> bool:
    return bool(state.hands[seat - 1])


def others(state: State, seat: int) -> list[int]:
    """The other players still in, from the seat's left."""
    return [s for s in seats_from(seat, state.players)[1:] if alive(state, s)]


# -- rules -------------------------------------------------------------------------


def setup(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    """Deal two cards each from the shuffled deck (or from ``deck``, a test option
    giving the cards in the order dealt: seat 1's two, seat 2's, ..., then the deck)."""
    deck = list(config["deck"])
    if not deck:
        deck = [role for role in ROLES for _ in range(COPIES)]
        rng.shuffle(deck)
    hands = [sorted(deck[2 * i : 2 * i + 2]) for i in range(players)]
    return State(players, hands, deck[2 * players :], [2] * players, [[] for _ in hands])


def is_over(state: State) -> bool:
    return sum(alive(state, s) for s in range(1, state.players + 1)) <= 1 or state.turns >= TURNS


def awaiting(state: State) -> Sequence[int]:
    if is_over(state):
        return ()
    return chain.awaited(state.pending) if state.pending.links else (state.turn,)


def legal_actions(state: State, seat: int) -> Sequence[Any]:
    if seat not in awaiting(state):
        return ()
    link = chain.top(state.pending)
    if link is not None:
        answers = {"challenge": [Challenge(), Pass()], "block": [Block(), Pass()]}
        lose = [Lose(role) for role in sorted(set(state.hands[seat - 1]))]
        return answers.get(link.asking, lose)
    coins, targets = state.coins[seat - 1], others(state, seat)
    coups: list[Any] = [Coup(t) for t in targets] if coins >= 7 else []
    if coins >= 10:
        return coups
    steals = [Steal(t) for t in targets if state.coins[t - 1]]
    return [Income(), Tax(), *steals, *coups]


def apply(state: State, seat: int, act: Any, rng: Rng) -> list[Event]:
    """A turn's action goes on the chain as a link with its questions; an answer is
    recorded in the open window; then the chain is carried on."""
    events: list[Event] = []
    match act:
        case Income() | Tax() | Steal():
            kind = action_tag(act)
            target = act.target if isinstance(act, Steal) else 0
            questions = {"tax": ["challenge"], "steal": ["challenge", "block"]}.get(kind, [])
            chain.push(
                state.pending, kind, seat, questions, role=CLAIMS.get(kind, ""), target=target
            )
            events.append(Event.public(f"Seat {seat} {announce(kind, target)}", kind))
        case Coup(target=target):
            state.coins[seat - 1] -= 7
            chain.push(state.pending, "coup", seat, [], target=target)
            events.append(Event.public(f"Seat {seat} pays 7 to launch a coup on seat {target}"))
        case Challenge() | Block() | Pass():
            chain.answer(state.pending, seat, PASS if isinstance(act, Pass) else action_tag(act))
            events.append(Event.private([seat], f"You {answer_words(act)}"))
        case Lose(role=role):
            chain.answer(state.pending, seat, role)
    return events + drive(state, rng)


def drive(state: State, rng: Rng) -> list[Event]:
    """Carry the chain on until a seat must answer; once it is empty, the next turn."""
    events: list[Event] = []
    while (now := chain.step(state.pending)) is not None:
        match now:
            case chain.Waiting():
                return events
            case chain.Ask(link=link, question=question):
                chain.ask(state.pending, asked(state, link, question))
            case chain.Answered(link=link, question="challenge", answers=((challenger, _), *_)):
                events += settle_challenge(state, link, challenger, rng)
            case chain.Answered(link=link, question="block", answers=((blocker, _), *_)):
                chain.push(state.pending, "block", blocker, ["challenge"], role="captain")
                events.append(Event.public(f"Seat {blocker} blocks, claiming a Captain", "block"))
            case chain.Answered(link=link, question="lose", answers=((loser, role), *_)):
                state.hands[loser - 1].remove(role)
                state.lost[loser - 1].append(role)
                events.append(Event.public(f"Seat {loser} loses a {role.title()}", "lose"))
            case chain.Stands(link=link):
                events += carry_out(state, link)
    next_turn(state)
    return events


def asked(state: State, link: chain.Link, question: str) -> list[int]:
    """Who is asked ``question`` about ``link``: every other player still in may
    challenge; only the target may block, and only the loser chooses a card. Who
    holds a Captain is secret, so the target is asked whether or not it holds one."""
    if question == "challenge":
        return others(state, link.by)
    if question == "block":
        return who_to_ask([link.target], lambda s: alive(state, s), lambda s: True, secret=True)
    return [link.by]


def settle_challenge(state: State, link: chain.Link, challenger: int, rng: Rng) -> list[Event]:
    """The first challenger in the window's order calls the claim; the loser of the
    challenge owes a card, and a claim shown to be a bluff is dropped."""
    claimant = link.by
    hand = state.hands[claimant - 1]
    state.called.append([challenger, claimant])
    events = [Event.public(f"Seat {challenger} challenges seat {claimant}", "challenge")]
    if link.role in hand:
        hand.remove(link.role)
        state.deck.append(link.role)
        rng.shuffle(state.deck)
        drawn = state.deck.pop()
        hand.append(drawn)
        hand.sort()
        events.append(Event.public(f"Seat {claimant} shows a {link.role.title()} and draws anew"))
        events.append(Event.private([claimant], f"You draw a {drawn.title()}"))
        loser = challenger
    else:
        events.append(Event.public(f"Seat {claimant} was bluffing"))
        chain.drop(state.pending, link)
        loser = claimant
    chain.push(state.pending, "lose", loser, ["lose"])
    return events


def carry_out(state: State, link: chain.Link) -> list[Event]:
    """A link that survived every question takes effect."""
    by, target = link.by, link.target
    if link.kind == "income":
        state.coins[by - 1] += 1
    elif link.kind == "tax":
        state.coins[by - 1] += 3
    elif link.kind == "steal" and alive(state, by):
        taken = min(2, state.coins[target - 1])
        state.coins[target - 1] -= taken
        state.coins[by - 1] += taken
        return [Event.public(f"Seat {by} takes {taken} from seat {target}")]
    elif link.kind == "block":
        blocked = chain.top(state.pending)
        assert blocked is not None, "a block stands on the steal it blocks"
        chain.drop(state.pending, blocked)
        return [Event.public(f"Seat {by}'s block stands: the steal fails")]
    elif link.kind == "coup" and alive(state, target):
        chain.push(state.pending, "lose", target, ["lose"])
    return []


def next_turn(state: State) -> None:
    """The chain is settled: the turn passes to the next player still in."""
    state.turns += 1
    if not is_over(state):
        state.turn = (others(state, state.turn) or [state.turn])[0]


def announce(kind: str, target: int) -> str:
    return {
        "income": "takes income",
        "tax": "claims a Duke to collect tax",
        "steal": f"claims a Captain to steal from seat {target}",
    }[kind]


def answer_words(act: Any) -> str:
    return {Challenge: "challenge", Block: "block", Pass: "pass"}[type(act)]


def outcome(state: State) -> Outcome | None:
    if not is_over(state):
        return None
    seats = range(1, state.players + 1)
    best = max((len(state.hands[s - 1]), state.coins[s - 1]) for s in seats)
    winners = tuple(s for s in seats if (len(state.hands[s - 1]), state.coins[s - 1]) == best)
    reason = "last one in" if sum(alive(state, s) for s in seats) == 1 else "turns"
    side = f"Seat {winners[0]}" if len(winners) == 1 else "tie"
    return Outcome(side=side, winners=winners, reason=reason, summary=f"{side} wins ({reason})")


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Coins, face-up cards, how many face-down cards each seat holds, the seat's own
    hand, every challenge made, and the chain: every claim, and of an open question
    who is asked, who has answered and the seat's own answer (never another seat's
    before it closes)."""
    out: dict[str, Any] = {
        "turn": state.turn,
        "turns_left": TURNS - state.turns,
        "coins": list(state.coins),
        "cards": [len(h) for h in state.hands],
        "lost": [list(lost) for lost in state.lost],
        "deck": len(state.deck),
        "chain": [public_link(link, seat) for link in state.pending.links],
        "challenges": [list(c) for c in state.called],
    }
    if seat is not None:
        out["hand"] = list(state.hands[seat - 1])
    return out


#: The most coins a seat can hold: 9 at the start of its turn (10 must coup), plus a tax.
MOST_COINS = 12
#: The deepest chain: a steal, its block, a challenge of the block's loser's card, ...
DEEPEST = 6


def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
    """The shape of :func:`view`."""
    seat = IntRange(1, players)
    seats = range(1, players + 1)
    link = Record(
        kind=OneOf(("income", "tax", "steal", "coup", "block", "lose")),
        by=seat,
        role=OneOf(("", *ROLES)),
        target=IntRange(0, players),
        asking=OneOf(("", "challenge", "block", "lose")),
        asked=Maybe(ListOf(seat, max_len=players)),
        answered=Maybe(Bag(seats)),
        mine=Maybe(OneOf((PASS, "challenge", "block", *ROLES))),
    )
    return Record(
        turn=seat,
        turns_left=IntRange(0, TURNS),
        coins=ListOf(IntRange(0, MOST_COINS), length=players),
        cards=ListOf(IntRange(0, 2), length=players),
        lost=ListOf(Bag(ROLES, max_count=2), length=players),
        deck=IntRange(0, len(ROLES) * COPIES),
        chain=ListOf(link, max_len=DEEPEST),
        # Each turn's claim and a block of it may each be challenged once.
        challenges=ListOf(ListOf(seat, length=2), max_len=2 * TURNS),
        hand=Maybe(Bag(ROLES, max_count=2)),
    )


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """The deck of ten is shuffled at the start and after each claim shown true (a
    shuffle of ten draws from 10 first); challenges are answered at once."""
    deck = len(ROLES) * COPIES
    return GameFacts(
        max_chance_outcomes=deck,
        max_chance_nodes=(deck - 1) * (1 + 2 * TURNS),
        simultaneous=True,
    )


def public_link(link: chain.Link, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": link.kind, "by": link.by, "role": link.role}
    out["target"], out["asking"] = link.target, link.asking
    if link.window is not None:
        out["asked"] = list(link.window.order)
        out["answered"] = sorted(link.window.answers)
        if seat in link.window.answers:
            out["mine"] = link.window.answers[seat]
    return out


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """Redraws the other seats' face-down cards and the deck from the cards the seat
    has not seen (uniformly: what players claimed is no proof of what they hold),
    and the other seats' answers in an open window. Everything public stays."""
    drawn = copy.deepcopy(state)
    mine = state.hands[seat - 1] if seat is not None else []
    pool = [role for role in ROLES for _ in range(COPIES)]
    for card in mine + [c for lost in state.lost for c in lost]:
        pool.remove(card)
    rng.shuffle(pool)
    for s in range(1, state.players + 1):
        if s != seat:
            size = len(state.hands[s - 1])
            drawn.hands[s - 1], pool = sorted(pool[:size]), pool[size:]
    drawn.deck = pool
    link = chain.top(drawn.pending)
    if link is not None and link.window is not None and link.asking != "lose":
        for s in sorted(link.window.answers):
            if s != seat:  # its answer: a pass, or the question's own answer
                link.window.answers[s] = rng.choice([PASS, link.asking])
    return drawn


# The rules are this module's own functions: the title names this module.
class Bluff(ModuleTitle[State], game=bluff):
    """Bluff: claims, blocks and challenges, settled innermost first."""

    name = "bluff"
    display_name = "Bluff"
    min_players = 2
    max_players = 4
    max_actions = TURNS * 12
    default_config: ClassVar[Mapping[str, Any]] = {"deck": []}
    test_only_options = frozenset({"deck"})
