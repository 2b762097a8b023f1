"""What game-playing algorithms need to know about a title before a match.

A title states what the core cannot work out from its rules with the optional
hook ``game_facts(players, config) -> GameFacts``: how many outcomes its largest
random draw has, whether seats choose at once, the kind of sum of its utilities
and their bounds. The core joins them with what it derives (the size of the
action space, the observation's size, the most actions of a match) in
:class:`GameInfo`, which :func:`game_info` builds and the kit checks against
every match it plays.

Utilities come from the title's hook ``utilities(outcome, players)``; the
default gives 1 to each winner and 0 to every other seat (general-sum, from 0 to
1), which is what the default facts say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

from .space import NotEnumerable, action_space

if TYPE_CHECKING:
    from .title import Title

#: The kinds of sum utilities may have, as OpenSpiel names them.
UtilitySum = Literal["zero_sum", "constant_sum", "general_sum", "identical"]
UTILITY_SUMS: Final = ("zero_sum", "constant_sum", "general_sum", "identical")


def _check_sum(instance: Any, attribute: Any, value: Any) -> None:
    if value not in UTILITY_SUMS:
        raise ValueError(f"utility must be one of {', '.join(UTILITY_SUMS)}, not {value!r}")


@attrs.frozen
class GameFacts:
    """What a title declares about itself for a player count and options.

    - ``max_chance_outcomes``: the most outcomes one random draw of the title's
      rules has (the largest ``n`` of any ``rng.randbelow(n)`` in ``setup`` or
      ``apply``; a shuffle of 52 cards draws from 52 first); 0 when the rules
      never draw.
    - ``simultaneous``: whether several seats may be awaited at once.
    - ``utility``: the kind of sum of :meth:`~gameweave_core.Title.utilities`
      (``"zero_sum"``, ``"constant_sum"``, ``"general_sum"``, ``"identical"``),
      ``min_utility`` and ``max_utility`` their bounds, ``utility_sum`` the sum
      for ``"constant_sum"``.
    - ``max_chance_nodes``: the most random draws of one match, if known.
    - ``perfect_information``: whether every seat always sees the whole state
      (tic-tac-toe); the kit checks that no seat ever has secrets then.
    """

    max_chance_outcomes: int = 0
    simultaneous: bool = False
    utility: str = attrs.field(default="general_sum", validator=_check_sum)
    min_utility: float = 0.0
    max_utility: float = 1.0
    utility_sum: float | None = None
    max_chance_nodes: int | None = None
    perfect_information: bool = False


#: The facts of a title that declares none: no claim about chance, sequential,
#: and the default utilities (1 to winners, 0 to others).
UNDECLARED: Final = GameFacts()


@attrs.frozen
class GameInfo:
    """Everything known about a title for a player count and options.

    ``declared`` says whether the title declared its :class:`GameFacts` (if not,
    ``max_chance_outcomes`` and ``simultaneous`` are unknown, shown as ``None``).
    ``num_actions`` is the size of the action space (``None`` with the reason in
    ``not_enumerable`` when the title's actions are not numbered), also the bound
    on the legal actions at once; ``observation_size`` is ``None`` without a view
    schema; ``max_length`` is the title's ``max_actions``.
    """

    title: str
    players: int
    declared: bool
    num_actions: int | None
    not_enumerable: str | None
    observation_size: int | None
    max_chance_outcomes: int | None
    uses_chance: bool | None
    simultaneous: bool | None
    utility: str
    min_utility: float
    max_utility: float
    utility_sum: float | None
    max_length: int
    max_chance_nodes: int | None
    perfect_information: bool = False

    @property
    def dynamics(self) -> str | None:
        """``"simultaneous"``, ``"sequential"``, or ``None`` when undeclared."""
        if self.simultaneous is None:
            return None
        return "simultaneous" if self.simultaneous else "sequential"


def game_info(title: Title[Any], players: int, config: Mapping[str, Any] | None = None) -> GameInfo:
    """The :class:`GameInfo` of ``title`` for ``players`` and ``config`` (checked
    with the title's ``check_config`` first)."""
    full = title.check_config(players, dict(config or {}))
    facts = title.game_facts(players, full)
    try:
        num: int | None = action_space(title, players, full).size
        reason = None
    except NotEnumerable as exc:
        num, reason = None, str(exc)
    spec = title.observation_spec(players, full)
    known = facts is not None
    used = facts or UNDECLARED
    return GameInfo(
        title=title.name,
        players=players,
        declared=known,
        num_actions=num,
        not_enumerable=reason,
        observation_size=spec.size if spec is not None else None,
        max_chance_outcomes=used.max_chance_outcomes if known else None,
        uses_chance=used.max_chance_outcomes > 0 if known else None,
        simultaneous=used.simultaneous if known else None,
        utility=used.utility,
        min_utility=used.min_utility,
        max_utility=used.max_utility,
        utility_sum=used.utility_sum,
        max_length=title.max_actions,
        max_chance_nodes=used.max_chance_nodes,
        perfect_information=used.perfect_information,
    )
