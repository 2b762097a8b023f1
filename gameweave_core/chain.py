"""Chained reactions: a stack of pending claims, each answered through reaction windows.

In a bluffing game one action sets off a chain: a player claims a role to take an
action; anyone may challenge the claim; if it survives, its target may block it by
claiming a role of their own; anyone may challenge the block; a lost challenge
costs a card the loser chooses. Every one of those is an answer given in a
:class:`~gameweave_core.reactions.ReactionWindow`, and they settle innermost first:
the challenge of the block before the block, the block before the action.

A :class:`Chain` keeps that order. It is a stack of :class:`Link` objects, the most
recent on top; each link is a claim (or a choice a seat owes, like the card to
lose) with the questions still to be put about it, asked one at a time, each in a
window of its own. The title keeps the chain in its state and, after every action,
calls :func:`step` until it says a seat must act:

- :class:`Ask`: the top link's next question is due; the title names the seats to
  ask (:func:`~gameweave_core.reactions.who_to_ask`) with :func:`ask`. Nobody
  asked, or everybody passing, lets the claim go on to its next question.
- :class:`Waiting`: seats must answer; they are the title's ``awaiting``, and each
  answer is an ordinary action that the title records with :func:`answer`.
- :class:`Answered`: a question was answered by someone (the answers, passes left
  out, in the window's order); the title settles it: :func:`push` a block or the
  choice of a card, :func:`drop` a claim that failed, or nothing when the claim
  survives and goes on.
- :class:`Stands`: the top link has survived every question and is taken off the
  chain; the title carries it out (a block that stands drops the claim it blocks).

:func:`step` returns ``None`` once the chain is empty. Everything here is plain
data (seats, tags, small context mappings), so a chain snapshots, replays and
resamples like the rest of a title's state.

What is public: every field of a link (what was claimed, by whom, against whom,
which questions remain) and of its window except the answers (see
:mod:`gameweave_core.reactions`): while a simultaneous window is open, which seats
have answered is public, since they leave ``awaiting``, but what they answered is
each seat's own until the window closes. A title's view shows a seat its own
answer only, and its resample hook redraws the others'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from .reactions import ReactionWindow, open_window, resolution
from .reactions import answer as answer_window
from .reactions import awaited as awaited_window
from .reactions import is_closed as window_closed


@attrs.define
class Link:
    """One pending claim, or a choice a seat owes, on a :class:`Chain`.

    ``kind`` is the title's tag for it (``"steal"``, ``"block"``, ``"lose"``);
    ``by`` the seat that made it; ``role`` the role it claims (``""``: it claims
    none, so nothing about it can be challenged); ``target`` the seat it is aimed at
    (0: none); ``questions`` the questions still to be put about it, in order
    (``"challenge"``, ``"block"``, or the title's own); ``asking`` the question put
    now and ``window`` its window (``None`` until :func:`ask` opens it); ``context``
    whatever else the title needs to carry it out, as JSON-ready values.
    """

    kind: str
    by: int
    role: str = ""
    target: int = 0
    questions: list[str] = attrs.field(factory=list)
    asking: str = ""
    window: ReactionWindow | None = None
    context: dict[str, str | int] = attrs.field(factory=dict)


@attrs.define
class Chain:
    """The pending links, the most recent last: the one being answered now."""

    links: list[Link] = attrs.field(factory=list)


@attrs.frozen
class Ask:
    """The top link's next question is due: call :func:`ask` with the seats to ask."""

    link: Link
    question: str


@attrs.frozen
class Waiting:
    """These seats must answer the top link's question (the title's ``awaiting``)."""

    seats: tuple[int, ...]


@attrs.frozen
class Answered:
    """``question`` about ``link`` was answered: ``answers`` are ``(seat, tag)``, the
    passes left out, in the window's order. The title settles it before the next
    :func:`step`."""

    link: Link
    question: str
    answers: tuple[tuple[int, str], ...]


@attrs.frozen
class Stands:
    """``link`` survived every question and is off the chain: carry it out."""

    link: Link


#: What :func:`step` may return (``None``: the chain is empty).
Step = Ask | Waiting | Answered | Stands


def push(
    chain: Chain,
    kind: str,
    by: int,
    questions: Iterable[str],
    *,
    role: str = "",
    target: int = 0,
    context: Mapping[str, str | int] | None = None,
) -> Link:
    """Put a new link on top of the chain, its ``questions`` to be asked in order,
    and return it. It is answered before every link beneath it."""
    link = Link(kind, by, role, target, list(questions), context=dict(context or {}))
    chain.links.append(link)
    return link


def top(chain: Chain) -> Link | None:
    """The link being answered now, or ``None`` when the chain is empty."""
    return chain.links[-1] if chain.links else None


def ask(chain: Chain, seats: Iterable[int], *, sequential: bool = False) -> None:
    """Open the window of the question :class:`Ask` announced, asking ``seats`` (in
    the order their answers take effect; see
    :func:`~gameweave_core.reactions.open_window`). Asking nobody is allowed: the
    question then passes unanswered at the next :func:`step`.

    Raises ``ValueError`` when no question is due on the top link."""
    link = top(chain)
    if link is None or not link.asking or link.window is not None:
        raise ValueError("no question is due: call ask() after step() returns Ask")
    link.window = open_window(
        link.asking, link.by, list(seats), sequential=sequential, context={"kind": link.kind}
    )


def awaited(chain: Chain) -> tuple[int, ...]:
    """The seats still to answer the top link's open question (none when no
    question is open: the title then calls :func:`step`)."""
    link = top(chain)
    if link is None or link.window is None:
        return ()
    return awaited_window(link.window)


def answer(chain: Chain, seat: int, tag: str) -> None:
    """Record ``seat``'s answer to the top link's open question (``tag``, or
    :data:`~gameweave_core.reactions.PASS`).

    Raises ``ValueError`` if the seat is not asked now: the title's legal actions
    should never offer that, so it is a bug in the title."""
    link = top(chain)
    if link is None or link.window is None:
        raise ValueError(f"seat {seat} answered, but no question is open")
    answer_window(link.window, seat, tag)


def drop(chain: Chain, link: Link) -> None:
    """Take ``link`` off the chain unanswered and not carried out: a claim that
    failed its challenge, or the claim a standing block stops."""
    for index, held in enumerate(chain.links):
        if held is link:
            del chain.links[index]
            return
    raise ValueError(f"the {link.kind} of seat {link.by} is not on the chain")


def step(chain: Chain) -> Step | None:
    """What happens next on the chain, settling everything that needs no one.

    A question whose window closed with only passes lets its link go on; a link
    with no question left comes off the chain as :class:`Stands`. ``None``: the
    chain is empty."""
    while chain.links:
        link = chain.links[-1]
        if link.asking and link.window is None:
            return Ask(link, link.asking)
        if link.window is not None:
            if not window_closed(link.window):
                return Waiting(awaited_window(link.window))
            answers = tuple(resolution(link.window))
            question = link.asking
            link.asking, link.window = "", None
            if answers:
                return Answered(link, question, answers)
            continue
        if link.questions:
            link.asking = link.questions.pop(0)
            return Ask(link, link.asking)
        chain.links.pop()
        return Stands(link)
    return None


def is_idle(chain: Chain) -> bool:
    """Whether nothing is pending (the game goes on to the next turn)."""
    return not chain.links
