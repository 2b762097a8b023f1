"""A title's actions, numbered: field domains and the action space.

A title makes its actions enumerable by giving each field of its ``@action``
classes a domain, the values the field can take, with :func:`values`::

    @action("walk")
    @attrs.frozen
    class Walk:
        to: str = values(SQUARES)                      # a fixed list
        then: str | None = values(SQUARES, none=True, default=None)

    @action("bid")
    @attrs.frozen
    class Bid:
        coins: int = values(range(0, 21))              # a range
        suit: Suit = values(Suit)                      # an Enum's members
        target: int = values(lambda players, config: range(1, players + 1))

A domain is a finite collection of hashable values (a ``range``, a list, a tuple,
an :class:`enum.Enum` class), or a function of the player count and the match's
options that returns one. ``none=True`` adds ``None`` as a value (first, before
the others). A class without fields is one action.

From the domains the core derives the :class:`ActionSpace` of a title for a
player count and options: every action of every kind, the kinds in the order of
the title's ``actions`` (``ACTIONS``), each kind's actions in the order of its
fields' product (the first declared field varying slowest, each field's values in
the domain's order). The numbering is stable for a title version, player count
and options. A space may hold actions that are never legal; the legal ones at a
moment are :meth:`gameweave_core.Match.legal_mask`.

A title whose fields' joint values are few among their product (a move between
adjacent squares only) may instead list every action itself with the optional
hook ``action_list(players, config)``; its order is then the numbering.

An action whose value depends on the moment (going all-in: the amount is the
whole stake, any number) is listed in ``action_list`` as a :class:`Relative`: one
number that stands for the action ``make(view)`` builds from the acting seat's
view. Such a space numbers and decodes with the view (``index(act, view)``,
``action(number, view)``); :class:`~gameweave_core.Match` passes it.

A field without a domain makes the title not enumerable: :func:`action_space`
raises :class:`NotEnumerable` naming the field, and the adapters that need
numbers refuse the title with that line rather than number it wrongly.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .actions import action_tag
from .errors import GameweaveError

if TYPE_CHECKING:
    from .title import Title

#: The key under which :func:`values` stores a field's domain in attrs metadata.
DOMAIN_KEY = "gameweave.domain"

#: What :func:`values` accepts: the values, or a function of the player count and
#: the options that returns them.
DomainSource = Iterable[Any] | type[enum.Enum] | Callable[[int, Mapping[str, Any]], Iterable[Any]]


class NotEnumerable(GameweaveError):
    """A title's actions cannot be numbered: a field has no declared domain, a
    domain is not finite, or an action is not in the declared domains. The message
    is one line naming the title, the action kind and the field."""


@attrs.frozen
class Domain:
    """The declared values of one action field (what :func:`values` stores).

    ``source`` is the collection, Enum class or function given to :func:`values`;
    ``none`` says whether ``None`` is one of the values (then it comes first).
    """

    source: Any
    none: bool = False

    def resolve(self, players: int, config: Mapping[str, Any]) -> tuple[Any, ...]:
        """The field's values, in order, for ``players`` seats and ``config``."""
        src = self.source
        if isinstance(src, type) and issubclass(src, enum.Enum):
            found: tuple[Any, ...] = tuple(src)
        elif callable(src) and not isinstance(src, (range, list, tuple)):
            found = tuple(src(players, config))
        else:
            found = tuple(src)
        return ((None,) if self.none else ()) + found


def values(source: DomainSource, *, none: bool = False, **field: Any) -> Any:
    """An attrs field whose values are ``source``: the domain of an action field.

    ``source`` is a finite collection (``range(0, 21)``, a list or tuple of
    values), an :class:`enum.Enum` class (its members), or a function
    ``(players, config) -> values`` for a list that depends on the player count and
    options. ``none=True`` makes ``None`` a value too (listed first). Other
    keywords go to :func:`attrs.field` as they are (``default=None``,
    ``validator=...``)::

        to: str = values(SQUARES)
        box: int | None = values(range(1, 5), none=True, default=None)
    """
    metadata = dict(field.pop("metadata", None) or {})
    metadata[DOMAIN_KEY] = Domain(source, none)
    return attrs.field(metadata=metadata, **field)


def domain_of(field: attrs.Attribute[Any]) -> Domain | None:
    """The domain declared on an attrs field with :func:`values`, or ``None``."""
    found = field.metadata.get(DOMAIN_KEY)
    return found if isinstance(found, Domain) else None


def _key(value: Any) -> Any:
    # A domain's values are looked up by value and by kind, so that True never
    # stands for 1 nor 1.0 for 1.
    return (type(value), value)


@attrs.frozen
class Relative:
    """An ``action_list`` entry standing for an action made from the acting seat's
    view: ``make(view)`` gives the action it stands for now, or ``None`` when it
    stands for none (then an action the list names itself wins). ``label`` names it
    in messages."""

    label: str
    make: Callable[[Mapping[str, Any]], Any]


@attrs.frozen
class _Kind:
    """One @action class in the space: where its actions start, its fields."""

    cls: type
    offset: int
    size: int
    names: tuple[str, ...]
    domains: tuple[tuple[Any, ...], ...]
    lookup: tuple[dict[Any, int], ...]
    #: Per field: how many actions one step of the field's value skips.
    strides: tuple[int, ...]


class ActionSpace:
    """Every action of a title for one player count and options, numbered.

    ``size`` is how many there are; :meth:`index` gives an action's number and
    :meth:`action` the action of a number. Built by :func:`action_space` (or
    :meth:`gameweave_core.Match.action_space`); see the module docstring for the
    order.
    """

    def __init__(self, title_name: str, kinds: Sequence[_Kind], listed: Sequence[Any] | None):
        self.title_name = title_name
        self._kinds = {k.cls: k for k in kinds}
        self._ordered = tuple(kinds)
        self._listed = tuple(listed) if listed is not None else None
        self._listed_index: dict[Any, int] = {}
        #: The numbers of the list's :class:`Relative` entries.
        self._relative: tuple[tuple[int, Relative], ...] = ()
        if self._listed is not None:
            self._relative = tuple(
                (i, a) for i, a in enumerate(self._listed) if isinstance(a, Relative)
            )
            for i, act in enumerate(self._listed):
                if isinstance(act, Relative):
                    continue
                if act in self._listed_index:
                    raise NotEnumerable(f"{title_name}: action_list lists {act!r} twice")
                self._listed_index[act] = i
            self.size = len(self._listed)
        else:
            self.size = sum(k.size for k in kinds)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<ActionSpace of {self.title_name}: {self.size} actions>"

    @property
    def relative(self) -> bool:
        """Whether some numbers stand for an action made from the view
        (:class:`Relative`): then :meth:`index`, :meth:`action` and :meth:`mask`
        need the acting seat's view."""
        return bool(self._relative)

    def index(self, act: Any, view: Mapping[str, Any] | None = None) -> int:
        """The number of ``act`` (an action object of the title), from 0 to ``size - 1``;
        ``view`` is the acting seat's view, needed only by a :attr:`relative` space.

        Raises :class:`NotEnumerable` for an action outside the declared domains
        (a title's declaration that misses a legal action is wrong, and the kit
        says so)."""
        if self._listed is not None:
            try:
                return self._listed_index[act]
            except (KeyError, TypeError):
                pass
            if view is not None:
                for number, rel in self._relative:
                    if rel.make(view) == act:
                        return number
            need = " (given no view)" if self._relative and view is None else ""
            raise NotEnumerable(
                f"{self.title_name}: {act!r} is not in the title's action_list{need}"
            )
        kind = self._kinds.get(type(act))
        if kind is None:
            raise NotEnumerable(f"{self.title_name}: {act!r} is not an action of this title")
        number = kind.offset
        for name, lookup, stride, domain in zip(
            kind.names, kind.lookup, kind.strides, kind.domains, strict=True
        ):
            value = getattr(act, name)
            try:
                position = lookup[_key(value)]
            except (KeyError, TypeError):
                shown = ", ".join(repr(v) for v in domain[:6])
                more = ", ..." if len(domain) > 6 else ""
                raise NotEnumerable(
                    f"{self.title_name}: {action_tag(act)}.{name} = {value!r} is not in "
                    f"the field's declared values ({shown}{more})"
                ) from None
            number += position * stride
        return number

    def action(self, number: int, view: Mapping[str, Any] | None = None) -> Any:
        """The action numbered ``number`` (``view``: the acting seat's view, needed
        for a number that stands for a :class:`Relative`); ``ValueError`` for a
        number outside ``range(size)`` or one that stands for no action now."""
        if type(number) is not int or not 0 <= number < self.size:
            raise ValueError(
                f"action number {number!r} is out of range: {self.title_name} numbers "
                f"its actions 0 to {self.size - 1}"
            )
        if self._listed is not None:
            found = self._listed[number]
            if isinstance(found, Relative):
                made = None if view is None else found.make(view)
                if made is None:
                    now = "needs the seat's view" if view is None else "stands for no action now"
                    raise ValueError(
                        f"action number {number} of {self.title_name} ({found.label}) {now}"
                    )
                return made
            return found
        for kind in self._ordered:
            if number < kind.offset + kind.size:
                rest = number - kind.offset
                fields = {}
                for name, stride, domain in zip(
                    kind.names, kind.strides, kind.domains, strict=True
                ):
                    position, rest = divmod(rest, stride)
                    fields[name] = domain[position]
                return kind.cls(**fields)
        raise AssertionError("unreachable: the number is below size")  # pragma: no cover

    def actions(self) -> list[Any]:
        """Every action of the space, in order (for small spaces and tests); a
        :class:`Relative` entry is listed as itself."""
        if self._listed is not None:
            return list(self._listed)
        return [self.action(i) for i in range(self.size)]

    def mask(self, legal: Iterable[Any], view: Mapping[str, Any] | None = None) -> list[int]:
        """A list of ``size`` zeros with a 1 at the number of each action of ``legal``
        (``view``: the acting seat's, for a :attr:`relative` space)."""
        out = [0] * self.size
        for act in legal:
            out[self.index(act, view)] = 1
        return out


def enumerable(title: Title[Any]) -> str | None:
    """``None`` if ``title``'s actions can be numbered, else the one-line reason
    (the field that declares no domain)."""
    if _has_action_list(title):
        return None
    for cls in title.actions:
        for field in attrs.fields(cls):
            if domain_of(field) is None:
                return (
                    f"{title.name} cannot number its actions: field {field.name!r} of "
                    f"action {action_tag(cls)!r} ({cls.__name__}) declares no values "
                    f"(declare it with gameweave_core.values(...))"
                )
    return None


#: The base class's ``action_list``, which only says it is not written (named, not
#: imported: gameweave_core.title imports this module's users, and a cycle is refused).
_BASE_ACTION_LIST = ("gameweave_core.title", "Title.action_list")


def _has_action_list(title: Title[Any]) -> bool:
    method = type(title).action_list
    written = (getattr(method, "__module__", None), getattr(method, "__qualname__", None))
    return written != _BASE_ACTION_LIST


def action_space(title: Title[Any], players: int, config: Mapping[str, Any]) -> ActionSpace:
    """The :class:`ActionSpace` of ``title`` for ``players`` seats and ``config``
    (the full options, as ``check_config`` returns them).

    Raises :class:`NotEnumerable` with the reason :func:`enumerable` gives."""
    if _has_action_list(title):
        listed = title.action_list(players, config)
        return ActionSpace(title.name, (), list(listed))
    reason = enumerable(title)
    if reason is not None:
        raise NotEnumerable(reason)
    kinds = []
    offset = 0
    for cls in title.actions:
        fields = attrs.fields(cls)
        domains = []
        for field in fields:
            domain = domain_of(field)
            assert domain is not None  # enumerable() checked
            try:
                resolved = domain.resolve(players, config)
            except Exception as exc:
                raise NotEnumerable(
                    f"{title.name}: the values of {action_tag(cls)}.{field.name} could not be "
                    f"listed: {type(exc).__name__}: {exc}"
                ) from None
            if not resolved:
                raise NotEnumerable(
                    f"{title.name}: {action_tag(cls)}.{field.name} declares no values "
                    f"for {players} players"
                )
            domains.append(resolved)
        lookups = []
        for field, resolved in zip(fields, domains, strict=True):
            lookup: dict[Any, int] = {}
            for i, v in enumerate(resolved):
                try:
                    key = _key(v)
                    if key in lookup:
                        raise NotEnumerable(
                            f"{title.name}: {action_tag(cls)}.{field.name} lists {v!r} twice"
                        )
                    lookup[key] = i
                except TypeError:
                    raise NotEnumerable(
                        f"{title.name}: {action_tag(cls)}.{field.name} has a value that "
                        f"cannot be hashed ({v!r})"
                    ) from None
            lookups.append(lookup)
        strides = []
        stride = 1
        for resolved in reversed(domains):
            strides.append(stride)
            stride *= len(resolved)
        size = stride
        kinds.append(
            _Kind(
                cls=cls,
                offset=offset,
                size=size,
                names=tuple(f.name for f in fields),
                domains=tuple(domains),
                lookup=tuple(lookups),
                strides=tuple(reversed(strides)),
            )
        )
        offset += size
    return ActionSpace(title.name, kinds, None)
