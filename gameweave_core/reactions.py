"""Reaction windows: seats answering out of turn, for any title.

Some games let players act during someone else's turn: a card played to stop a
theft, a challenge to a claim, a vote. The core already lets a title's
``awaiting(state)`` name several seats at once; a reaction window is the small
piece of state that says who is asked, who has answered, and in what order the
answers take effect. A title keeps a :class:`ReactionWindow` in its state while
one is open and calls the pure functions below from its rules:

- :func:`who_to_ask` picks the seats to ask, keeping secret who holds an answer;
- :func:`open_window` opens the window;
- :func:`awaited` gives the seats still to answer (the title's ``awaiting``);
- :func:`answer` records an answer or a pass (from the title's ``apply``);
- :func:`is_closed` says when every answer is in (or, in a sequential window,
  when a seat has taken it);
- :func:`resolution` lists the answers that were not passes, in the window's
  order, for the title to carry out.

Each answer is an ordinary action of the title submitted by the answering seat,
so the match log records it and a replay is exact. The window holds only plain
data (seats, short tags, a small context mapping), so it snapshots like the rest
of a title's state.

Two kinds of window:

- *simultaneous* (the default): every asked seat answers, in any order, without
  seeing the others' answers first; the answers then resolve in ``order``;
- *sequential*: the seats are asked one at a time in ``order`` and the first seat
  that does not pass closes the window (like averting a danger by turns).

Privacy: a seat that cannot answer is not asked, but only when everybody can tell
it cannot (its hand is empty, the card is public). If asking only the seats that
really hold an answer would tell the table who holds one, every seat that *might*
answer is asked, and each may pass: see :func:`who_to_ask`.

What a window shows: ``trigger``, ``actor``, ``order`` and ``sequential`` are public
(the awaited seats are in every payload), and so is which seats have answered
(they leave ``awaiting``). What a seat answered in an open *simultaneous* window is
its own until the window closes: a title's view shows a seat its own answer only,
and its resample hook redraws the others'. In a *sequential* window every answer
before the last is a pass, public as it happens. ``context`` is the title's, public
when it holds only what the opening action made public.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

#: The answer recorded for a seat that lets the moment go.
PASS = "pass"


@attrs.define
class ReactionWindow:
    """One open chance to answer an action out of turn.

    ``trigger`` names what is being answered (a short tag of the title's choosing,
    such as ``"swipe"``); ``actor`` is the seat whose action opened the window;
    ``order`` lists the seats asked, in the order their answers take effect;
    ``answers`` maps each seat that has answered to its answer's tag (:data:`PASS`
    for a pass); ``context`` holds whatever the title needs to carry the action out
    afterwards (its target, an item), as JSON-ready values.
    """

    trigger: str
    actor: int
    order: list[int]
    sequential: bool = False
    answers: dict[int, str] = attrs.field(factory=dict)
    context: dict[str, str | int] = attrs.field(factory=dict)


def seats_from(first: int, players: int, step: int = 1) -> list[int]:
    """Every seat from 1 to ``players``, starting at ``first`` and going round the
    table by ``step`` (1: up the seat numbers, -1: down them)."""
    if not 1 <= first <= players:
        raise ValueError(f"seat {first} is not a seat of a {players}-seat table")
    return [(first - 1 + step * i) % players + 1 for i in range(players)]


def who_to_ask(
    candidates: Iterable[int],
    might_answer: Callable[[int], bool],
    holds_answer: Callable[[int], bool],
    *,
    secret: bool,
) -> list[int]:
    """The seats to ask, in the order of ``candidates``.

    ``might_answer(seat)`` says whether the seat could answer as far as *everyone*
    can tell (public information only: it is in play, its hand is not empty, no
    public effect forbids it). ``holds_answer(seat)`` says whether it really holds a
    playable answer (which may be secret). When ``secret`` is true, the holdings are
    hidden from the table, so asking only the holders would reveal them: every seat
    that might answer is asked and may pass. When it is false (the answers are
    public, like face-up items), only the holders are asked.
    """
    public = [s for s in candidates if might_answer(s)]
    if secret:
        return public
    return [s for s in public if holds_answer(s)]


def open_window(
    trigger: str,
    actor: int,
    asked: Sequence[int],
    *,
    sequential: bool = False,
    context: Mapping[str, str | int] | None = None,
) -> ReactionWindow:
    """A new window asking ``asked`` (in resolution order) to answer ``actor``.

    Raises ``ValueError`` if a seat is asked twice."""
    if len(set(asked)) != len(asked):
        raise ValueError(f"a seat is asked twice: {list(asked)}")
    return ReactionWindow(trigger, actor, list(asked), sequential, {}, dict(context or {}))


def taken(window: ReactionWindow) -> list[int]:
    """The seats that answered with something other than a pass, in ``order``."""
    return [s for s in window.order if window.answers.get(s, PASS) != PASS]


def awaited(window: ReactionWindow) -> tuple[int, ...]:
    """The seats still to answer (none once the window is closed).

    A simultaneous window awaits every asked seat that has not answered; a
    sequential one awaits the first of them in ``order``, until a seat takes it."""
    if is_closed(window):
        return ()
    waiting = tuple(s for s in window.order if s not in window.answers)
    return waiting[:1] if window.sequential else waiting


def is_closed(window: ReactionWindow) -> bool:
    """Whether every answer the window needs is in."""
    if window.sequential and taken(window):
        return True
    return all(s in window.answers for s in window.order)


def answer(window: ReactionWindow, seat: int, tag: str) -> None:
    """Record ``seat``'s answer (``tag``, or :data:`PASS`).

    Raises ``ValueError`` if the seat is not awaited by the window: the title's
    legal actions should never offer that, so it is a bug in the title."""
    if seat not in awaited(window):
        raise ValueError(f"seat {seat} is not asked to answer {window.trigger} now")
    window.answers[seat] = tag


def resolution(window: ReactionWindow) -> list[tuple[int, str]]:
    """The answers that were not passes, as ``(seat, tag)`` in the window's order:
    the order in which the title carries them out. Call it once the window is
    closed."""
    if not is_closed(window):
        raise ValueError(f"the {window.trigger} window still awaits seats {list(awaited(window))}")
    return [(s, window.answers[s]) for s in taken(window)]
