"""A title hosted for the peers' APIs: its numbered actions, encoded views, utilities
and facts, reached only through the core's public API (as the CLI and server do).

Both adapters (:mod:`.pettingzoo`, :mod:`.openspiel`) build on :class:`Host`; it is
the one place that knows the core's names, so that the adapters stay thin.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

from gameweave_core import (
    ActionSpace,
    GameweaveError,
    Match,
    NotEnumerable,
    ObservationSpec,
    Registry,
    Rng,
    Title,
    action_space,
    default_registry,
    game_info,
)


class NotHostable(GameweaveError):
    """A title the adapters cannot host, with the one-line reason: its actions are not
    numbered, its views have no declared schema, or it states no facts (chance,
    simultaneous choices, utilities)."""


def resolve(title: str | Title[Any], registry: Registry | None = None) -> Title[Any]:
    """The title named ``title`` in ``registry`` (default: the installed titles), or
    ``title`` itself when it is a title object."""
    if isinstance(title, Title):
        return title
    if not isinstance(title, str):
        raise TypeError(f"a title is an installed title's name or a Title, not {title!r}")
    return (registry or default_registry()).title(title)


def _table(cls: type) -> tuple[Callable[[Any], Any] | None, dict[Any, int]]:
    """How the numbers of ``cls``'s actions are looked up: a frozen attrs class whose
    equality and hash attrs generated from its fields is looked up by those fields'
    values (one C call makes the key, and comparing it costs no Python call, where
    the action itself is hashed and compared by Python functions); any other class by
    the action itself."""
    key = None
    if attrs.has(cls):
        fields = [f for f in attrs.fields(cls) if f.eq]
        generated = all(
            getattr(getattr(cls, name), "__code__", None) is not None
            and getattr(cls, name).__code__.co_filename.startswith("<attrs generated")
            for name in ("__eq__", "__hash__")
        )
        if fields and generated and all(f.eq_key is None for f in fields):
            key = operator.attrgetter(*(f.name for f in fields))
    return key, {}


#: Up to this many legal actions, the mask is set one by one (measured on tic-tac-toe:
#: NumPy's fancy indexing of a list of 7 took 2.7 times as long as a loop).
_FEW = 32


class _Legal:
    """A seat's legal actions at one step of one match, with their numbers."""

    __slots__ = ("legal", "match", "numbers", "ordered", "seat", "step")

    def __init__(
        self, match: Match, step: int, seat: int, legal: Sequence[Any], numbers: list[int]
    ) -> None:
        self.match, self.step, self.seat, self.legal = match, step, seat, legal
        self.numbers = numbers
        self.ordered: list[int] | None = None


class Host:
    """One title for one player count and options, ready for an adapter.

    Everything a seat is given comes from :meth:`observe` (its view, encoded),
    :meth:`mask` (its legal actions) and :meth:`info_string` (its own actions and
    what it was shown): never from the match's state.
    """

    def __init__(self, title: Title[Any], players: int, config: Mapping[str, Any]) -> None:
        self.title = title
        self.players = players
        full = title.check_config(players, dict(config))
        self.config: dict[str, Any] = full
        try:
            self.space: ActionSpace = action_space(title, players, full)
        except NotEnumerable as error:
            raise NotHostable(str(error)) from None
        spec = title.observation_spec(players, full)
        if spec is None:
            raise NotHostable(
                f"{title.name} declares no view schema (view_schema), so its views "
                "cannot be encoded as observations"
            )
        self.spec: ObservationSpec = spec
        info = game_info(title, players, full)
        if not info.declared:
            raise NotHostable(
                f"{title.name} states no game facts (game_facts): whether it uses "
                "chance, lets seats choose at once, and its utilities' kind and bounds"
            )
        self.info = info
        self.size = self.space.size
        self.obs_size = spec.size
        self.obs_low = np.zeros(spec.size, np.float32)
        self.obs_high = np.ones(spec.size, np.float32)
        self.simultaneous = bool(info.simultaneous)
        self.uses_chance = bool(info.uses_chance)
        self.max_chance_outcomes = int(info.max_chance_outcomes or 0)
        self.min_utility = float(info.min_utility)
        self.max_utility = float(info.max_utility)
        self.sum_kind = {
            "zero_sum": "zero",
            "constant_sum": "constant",
            "general_sum": "general",
            "identical": "identical",
        }[info.utility]
        self.utility_sum: float | None = 0.0 if info.utility == "zero_sum" else info.utility_sum
        self.max_game_length = int(info.max_length)
        # A title that declares no seat ever has secrets (tic-tac-toe) is a game of
        # perfect information for OpenSpiel.
        self.hidden_information = not info.perfect_information
        # Each action's number, looked up once: per action class, by the action
        # (frozen attrs classes) or by its fields (see _table).
        self._tables: dict[type, tuple[Callable[[Any], Any] | None, dict[Any, int]]] = {}
        self._last: _Legal | None = None

    # -- matches ---------------------------------------------------------------------

    def new_match(self, seed: int) -> Match:
        """A match of this title, its chance drawn from ``seed``."""
        return Match(self.title, self.players, seed, self.config)

    def new_explicit(self, recall: bool = False) -> Match:
        """A match whose every random draw waits as a chance node (see
        :meth:`chance_outcomes`): the match OpenSpiel plays; with ``recall``, it keeps
        its seats' information states step by step."""
        return Match.explicit(self.title, self.players, self.config, recall=recall)

    def clone(self, match: Match) -> Match:
        """An independent copy of ``match`` at the same point."""
        return match.clone()

    def chance_pending(self, match: Match) -> bool:
        """Whether ``match`` waits for a chance outcome."""
        return match.is_chance_node

    def chance_outcomes(self, match: Match) -> list[tuple[int, float]]:
        """The outcomes of the pending draw and their probabilities."""
        return match.chance_outcomes()

    def resolve_chance(self, match: Match, outcome: int) -> None:
        """Give the pending draw its ``outcome``."""
        match.apply_chance(outcome)

    def resampled(self, match: Match, seat: int, seed: int) -> Match:
        """A copy of ``match`` in a state ``seat`` cannot tell from its own, drawn by
        the title's resample hook from ``Rng(seed)``."""
        return match.resampled(seat, Rng(seed))

    # -- what a seat is given --------------------------------------------------------

    @staticmethod
    def in_setup(match: Match) -> bool:
        """Whether ``match`` is at a chance node of its setup: nobody has seen anything
        yet (a seat's observation is then all zeros, its strings empty)."""
        return match.step == 0 and match.is_chance_node

    def observe(self, match: Match, seat: int) -> NDArray[np.float32]:
        """``seat``'s view, encoded: the observation."""
        if self.in_setup(match):
            return np.zeros(self.obs_size, np.float32)
        return self.encode(match.view(seat))

    def encode(self, view: Any) -> NDArray[np.float32]:
        """``view`` encoded by the title's view schema: the numbers of
        ``spec.encode(view)``, written by the spec's compiled plan straight into a
        NumPy array (a view is mostly zeros: setting its few hundred numbers in
        place beats building a list and converting it, or collecting them to set
        at once). A view the schema does not cover is refused by ``spec.encode``,
        which names the place (:class:`~gameweave_core.ViewOutsideSchema`)."""
        out = np.zeros(self.obs_size, np.float32)
        try:
            self.spec.encoder(view, out, 0)
        except Exception:
            return np.asarray(self.spec.encode(view), dtype=np.float32)
        return out

    def mask(self, match: Match, seat: int) -> NDArray[np.int8]:
        """1 at the number of each action ``seat`` may take now, else 0."""
        out = np.zeros(self.size, np.int8)
        numbers = self._legal(match, seat).numbers
        if len(numbers) > _FEW:
            out[numbers] = 1
        else:  # converting a short list for NumPy costs more than setting each
            for number in numbers:
                out[number] = 1
        return out

    def _legal(self, match: Match, seat: int) -> _Legal:
        """``seat``'s legal actions now with their numbers, kept for the step: a
        trainer's step asks for the mask, then submits a number, and OpenSpiel asks
        for legal actions many times per state."""
        legal = match.legal_actions(seat)
        last = self._last
        # The match keeps one legal-actions object per seat until its next action:
        # the same object, match and step mean the same numbers.
        if (
            last is not None
            and last.legal is legal
            and last.match is match
            and last.step == match.step
            and last.seat == seat
        ):
            return last
        numbers = self._number_all(match, seat, legal)
        last = self._last = _Legal(match, match.step, seat, legal, numbers)
        return last

    def legal_numbers(self, match: Match, seat: int) -> list[int]:
        """The numbers of ``seat``'s legal actions, in the order of its legal actions."""
        return list(self._legal(match, seat).numbers)

    def _number_all(self, match: Match, seat: int, legal: Sequence[Any]) -> list[int]:
        if not legal:
            return []
        tables = self._tables
        found = []
        # Two passes on purpose: this one is the common case (every action already in
        # its class's table), kept free of the fallback's checks because it runs at
        # every step of an environment; a miss starts over in the loop below, which
        # fills the tables and numbers actions made from the view.
        try:
            for act in legal:
                cls = type(act)
                entry = tables.get(cls)
                if entry is None:
                    entry = tables[cls] = _table(cls)
                key, table = entry
                found.append(table[act if key is None else key(act)])
            return found
        except KeyError:
            pass
        index = self.space.index
        view = match.view(seat) if self.space.relative else None
        found = []
        for act in legal:
            cls = type(act)
            entry = tables.get(cls)
            if entry is None:
                entry = tables[cls] = _table(cls)
            key, table = entry
            k = act if key is None else key(act)
            number = table.get(k)
            if number is None:
                try:
                    # Numbered without the view: the action's number for good.
                    number = table[k] = index(act)
                except NotEnumerable:
                    if view is None:
                        raise
                    # A number standing for an action made from the seat's view
                    # (an all-in): not remembered, it depends on the view.
                    number = index(act, view)
            found.append(number)
        return found

    def legal_indices(self, match: Match, seat: int) -> list[int]:
        """The numbers of ``seat``'s legal actions, in increasing order."""
        found = self._legal(match, seat)
        if found.ordered is None:
            found.ordered = sorted(found.numbers)
        return list(found.ordered)

    def view_string(self, match: Match, seat: int) -> str:
        """``seat``'s view, in canonical JSON: the observation string."""
        if self.in_setup(match):
            return ""
        return json.dumps(match.view(seat), sort_keys=True, separators=(",", ":"))

    def state_string(self, match: Match) -> str:
        """A string identifying the match's state, for OpenSpiel's tables (never shown
        to a seat): the spectator's view and the state's digest; in the setup's
        draws, the outcomes drawn so far."""
        if self.in_setup(match):
            return f"setup, chance outcomes so far: {match.chance_draws}"
        view = json.dumps(match.view(None), sort_keys=True, separators=(",", ":"))
        return f"{view}\n{match.digest()}"

    @property
    def info_size(self) -> int:
        """The size of the information-state tensor: the observation, then per action
        number how often the seat took it, then how often it took an action numbered
        from its view at the time (an all-in: its number depended on that view)."""
        return self.obs_size + self.size + 1

    def info_tensor(self, match: Match, seat: int) -> NDArray[np.float32]:
        """``seat``'s information-state tensor (see :attr:`info_size`), each count
        divided by the title's most actions in a match."""
        out = np.zeros(self.info_size, np.float32)
        if self.in_setup(match):
            return out
        out[: self.obs_size] = self.encode(match.view(seat))
        # The seat's own actions: what it did is part of what it knows.
        from_json, base = self.title.codec.from_json, self.obs_size
        index = self.space.index
        scale = 1.0 / max(1, self.max_game_length)
        for who, data in match.actions():
            if who != seat:
                continue
            act = from_json(data)
            cls = type(act)
            entry = self._tables.get(cls)
            if entry is None:
                entry = self._tables[cls] = _table(cls)
            key, table = entry
            k = act if key is None else key(act)
            number = table.get(k)
            if number is None:
                try:
                    number = table[k] = index(act)
                except NotEnumerable:
                    number = self.size  # numbered from the view it was taken in
            out[base + number] += scale
        return out

    def info_string(self, match: Match, seat: int) -> str:
        """``seat``'s information state: its own actions and everything it was shown,
        in the core's canonical form (perfect recall)."""
        if self.in_setup(match):
            return ""
        return match.information_state(seat)

    # -- acting ----------------------------------------------------------------------

    def submit(self, match: Match, seat: int, number: Any) -> None:
        """``seat`` takes the action numbered ``number``; one the seat may not take
        now is refused in one line (:class:`ValueError`) and changes nothing."""
        if isinstance(number, np.integer):
            number = int(number)
        if type(number) is int:
            found = self._legal(match, seat)
            try:
                act = found.legal[found.numbers.index(number)]
            except ValueError:
                pass
            else:
                # The very object of the legal actions: the match finds it by identity.
                match.submit(seat, act)
                return
        # Not a legal number now: the space and the match say what is wrong.
        space = self.space
        try:
            act = space.action(number, match.view(seat) if space.relative else None)
            match.submit(seat, act)
        except (GameweaveError, ValueError) as error:
            raise ValueError(str(error)) from None

    def is_legal(self, match: Match, seat: int, number: Any) -> bool:
        """Whether ``seat`` may take the action numbered ``number`` now."""
        if isinstance(number, np.integer):
            number = int(number)
        if type(number) is not int or not 0 <= number < self.size:
            return False
        return number in self._legal(match, seat).numbers

    def apply(self, match: Match, number: int) -> None:
        """Apply OpenSpiel's action ``number``: the pending draw's outcome at a chance
        node, else the action of that number for the first awaited seat."""
        if self.chance_pending(match):
            self.resolve_chance(match, number)
        else:
            self.submit(match, match.awaiting[0], number)

    def describe(self, number: int) -> str:
        """The action numbered ``number``, in words (an action made from a seat's view
        is named by its number)."""
        try:
            return self.title.describe_action(self.space.action(number))
        except (ValueError, NotEnumerable):
            return f"action {number}"

    def number(self, match: Match, seat: int, act: Any) -> int:
        """The number of ``act``, an action ``seat`` may take now."""
        legal = list(match.legal_actions(seat))
        return self.legal_numbers(match, seat)[legal.index(act)]

    def utilities(self, match: Match) -> Sequence[float]:
        """Each seat's utility at the end (seat 1 first)."""
        found = match.utilities()
        if found is None:
            raise ValueError("the match is not over: it has no utilities yet")
        return [float(u) for u in found]


def host(
    title: str | Title[Any],
    players: int | None,
    options: Mapping[str, Any],
    registry: Registry | None = None,
) -> Host:
    """Host ``title`` for ``players`` seats (default: its fewest) and ``options``."""
    found = resolve(title, registry)
    return Host(found, found.min_players if players is None else players, options)
