"""Twins: two matches a seat must not tell apart. What a seat receives, surface by
surface (:func:`surfaces`), where two values first differ, the author-written
:class:`Twin` and its check, and :class:`TwinStats`, what the automatic twins did."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ..errors import IllegalAction
from ..match import Match
from ..observation import ViewOutsideSchema
from ..title import Title


@attrs.frozen
class Twin:
    """Two matches a title declares indistinguishable to ``seats`` (and, if
    ``spectators``, to spectators): same players, each its own config and actions.

    Author-written twins are an extra: a title with :meth:`Title.resample
    <gameweave_core.title.Title.resample>` gets automatic twins from the kit."""

    players: int
    seed: int
    actions_a: Sequence[tuple[int, Any]]
    actions_b: Sequence[tuple[int, Any]]
    seats: Sequence[int]
    config_a: Mapping[str, Any] = attrs.field(factory=dict)
    config_b: Mapping[str, Any] = attrs.field(factory=dict)
    spectators: bool = True


# -- everything a seat receives --------------------------------------------------------

#: The surfaces the kit compares between twins, in the order it compares them.
SURFACES = (
    "view",
    "awaiting",
    "seat labels",
    "legal actions",
    "action labels",
    "history",
    "events",
    "refusals",
    "bot observation",
    "payload",
    "observation",
)


def refusal(match: Match, seat: int, action: Any) -> str:
    """The one-line message ``seat`` gets for submitting ``action`` (JSON form), or
    ``"(legal)"`` when the action is legal there (it is then not submitted)."""
    try:
        parsed = match.title.codec.from_json(action)
    except IllegalAction as exc:
        return str(exc)
    if seat in match.awaiting and parsed in match.legal_actions(seat):
        return "(legal)"
    try:
        match.submit(seat, parsed)
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError(f"{action} was accepted for seat {seat} though it is not legal")


def surfaces(
    match: Match, seat: int | None, since: int = 0, probes: Sequence[Any] = ()
) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) receives from ``match`` now, by
    surface (see :data:`SURFACES`): its view; who is awaited; every seat's label; its
    legal actions in JSON and their ``describe_action`` labels; its history lines; the
    events it may read from after step ``since`` (text, kind and data); the refusal
    message it gets for each of ``probes`` (actions in JSON form); what a bot in the
    seat is handed; and :meth:`Match.payload <gameweave_core.match.Match.payload>`, which
    the HTTP server sends. A spectator submits nothing and seats no bot."""
    title = match.title
    out: dict[str, Any] = {
        "view": match.view(seat),
        "awaiting": list(match.awaiting),
        "seat labels": [match.seat_label(s) for s in range(1, match.players + 1)],
    }
    if seat is not None:
        out["legal actions"] = match.legal_json(seat)
        out["action labels"] = [title.describe_action(a) for a in match.legal_actions(seat)]
    out["history"] = match.history(seat)
    out["events"] = match.events(seat, since)
    if seat is not None:
        out["refusals"] = [refusal(match, seat, p) for p in probes]
        seen = match.observe(seat)
        out["bot observation"] = {
            "seat": seen.seat,
            "legal": [title.codec.to_json(a) for a in seen.legal],
            "view": seen.view,
            "history": seen.history,
        }
    out["payload"] = match.payload(seat)
    if match.observation_spec is not None:
        # Encoded from the view alone, so equal views must give equal numbers. A view
        # outside the schema is test_observation_is_the_view_encoded's to report:
        # here its message stands in for the numbers.
        try:
            out["observation"] = match.observation(seat)
        except ViewOutsideSchema as exc:
            out["observation"] = f"outside the schema: {exc}"
    return out


def _short(value: Any, width: int = 100) -> str:
    text = json.dumps(value, default=repr) if not isinstance(value, str) else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def difference(a: Any, b: Any, path: str = "") -> str:
    """Where ``a`` and ``b`` first differ, as ``"path: a vs b"`` (short)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            where = f"{path}[{key!r}]"
            if key not in a:
                return f"{where}: absent vs {_short(b[key])}"
            if key not in b:
                return f"{where}: {_short(a[key])} vs absent"
            if a[key] != b[key]:
                return difference(a[key], b[key], where)
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return difference(x, y, f"{path}[{index}]")
        if len(a) != len(b):
            return f"{path or 'the list'}: {len(a)} items vs {len(b)}"
    return f"{path or 'the value'}: {_short(a)} vs {_short(b)}"


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


def check_indistinguishable(title: Title[Any], twin: Twin) -> None:
    """The twin matches look the same to the twin's seats at every step, on every
    surface (see :func:`surfaces`)."""
    a = Match(title, twin.players, twin.seed, twin.config_a)
    b = Match(title, twin.players, twin.seed, twin.config_b)
    watchers: list[int | None] = [*twin.seats, *([None] if twin.spectators else [])]

    def compare(step: int) -> None:
        for seat in watchers:
            sa, sb = surfaces(a, seat), surfaces(b, seat)
            for name, value in sa.items():
                assert value == sb[name], (
                    f"{_who(seat)} can tell the twin matches apart at step {step} by its "
                    f"{name} ({difference(value, sb[name])})"
                )

    compare(0)
    for step, ((seat_a, act_a), (seat_b, act_b)) in enumerate(
        zip(twin.actions_a, twin.actions_b, strict=True), start=1
    ):
        a.submit(seat_a, act_a)
        b.submit(seat_b, act_b)
        compare(step)


# -- automatic twins, from the resample hook and from the match's own history -----------

#: How a twin is made (the kit's report counts them by these names).
RESAMPLED = "resampled"
RESAMPLED_OWN = "resampled, own generator"
REPLAYED = "replayed, own generator"
CHANCE = "replayed, one chance draw changed"
CHOICE = "replayed, one choice changed"


def _bump(counts: dict[Any, int], key: Any, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


@attrs.define
class TwinStats:
    """What :func:`check_resampled_twins` did.

    ``twins`` drawn, ``made`` how (by the names :data:`RESAMPLED`,
    :data:`RESAMPLED_OWN`, :data:`REPLAYED`); ``redrawn`` resampled twins that differ
    from the real state at all (a twin equal to it proves nothing) and ``varied``
    forks where two seeds drew different states; ``comparisons`` of every surface
    (one per twin and step); ``told_apart`` twins ended because the seat received
    something different (and its views then differed), by the surface that told it
    (``ended``, which also counts twins that reached the end of the match or stayed
    alike for the whole drive) and by how many steps after the fork (``depth``);
    ``draws`` resample draws checked against a twin's with the same seed;
    ``choices`` bot choices and ``hints`` searches compared between twins;
    ``deeper`` twins drawn because most twins ended early; ``bot_spines`` matches
    played by the title's bot rather than at random."""

    twins: int = 0
    made: dict[str, int] = attrs.field(factory=dict)
    redrawn: int = 0
    varied: int = 0
    comparisons: int = 0
    told_apart: int = 0
    ended: dict[str, int] = attrs.field(factory=dict)
    depth: dict[int, int] = attrs.field(factory=dict)
    draws: int = 0
    choices: int = 0
    hints: int = 0
    deeper: int = 0
    bot_spines: int = 0

    def add(self, other: TwinStats) -> None:
        for field in attrs.fields(TwinStats):
            mine, theirs = getattr(self, field.name), getattr(other, field.name)
            if isinstance(mine, dict):
                for key, value in theirs.items():
                    _bump(mine, key, value)
            else:
                setattr(self, field.name, mine + theirs)

    def report(self, name: str) -> str:
        """What the twins did, in a few lines (printed by ``test_secrets_are_kept``)."""
        made = ", ".join(f"{n} {how}" for how, n in sorted(self.made.items()))
        ended = ", ".join(f"{n} {why}" for why, n in sorted(self.ended.items()))
        depth = " ".join(f"{d}:{n}" for d, n in sorted(self.depth.items()))
        return (
            f"{name}: {self.twins} twins ({made}; {self.redrawn} resampled ones differing "
            f"from the real state, {self.varied} forks where two seeds drew differently), "
            f"{self.comparisons} comparisons of every surface\n"
            f"  ended: {ended}\n"
            f"  told apart after (steps:twins): {depth or '-'}\n"
            f"  {self.draws} resample draws, {self.choices} bot choices and {self.hints} "
            f"hints compared between twins; {self.deeper} twins drawn to go deeper; "
            f"{self.bot_spines} matches played by the title's bot"
        )
