"""Actions and their one canonical JSON form.

A title declares each kind of action as a small frozen attrs class marked with
:func:`action`, which gives it a type tag::

    @action("walk")
    @attrs.frozen
    class Walk:
        to: str
        then: str | None = None

On the wire, in logs, from bots and in tests an action is a JSON object whose
``"type"`` is the tag and whose other keys are the fields: ``{"type": "walk",
"to": "K7"}``. Fields left at ``None`` are left out, because TOML has no null.
:class:`ActionCodec` converts both ways through its own strict cattrs converter
(one converter per use, as cattrs advises: a hook one title registers can never
change how another title's actions or the core's logs are read).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import attrs
import cattrs

from .errors import MalformedAction

A = TypeVar("A", bound=type)

#: How many distinct actions' JSON forms one codec remembers.
_JSON_CACHE_SIZE = 8192

#: The attribute :func:`action` sets on a class: its type tag.
TAG_ATTRIBUTE = "__action_type__"


def action(tag: str) -> Callable[[A], A]:
    """Mark an attrs class as an action whose canonical ``"type"`` is ``tag``."""

    def mark(cls: A) -> A:
        if not attrs.has(cls):
            raise TypeError(f"@action({tag!r}) needs an attrs class; decorate with @attrs.frozen")
        if "type" in attrs.fields_dict(cls):
            raise TypeError(f"{cls.__name__}: a field may not be called 'type'")
        setattr(cls, TAG_ATTRIBUTE, tag)
        return cls  # type: ignore[return-value]

    return mark


def action_tag(obj: object) -> str:
    """The type tag of an action instance or class."""
    tag = getattr(obj, TAG_ATTRIBUTE, None)
    if not isinstance(tag, str):
        raise TypeError(f"{obj!r} is not an @action class")
    return tag


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    # cattrs' default hooks coerce (str(5) == "5", int("7") == 7); a canonical form
    # must not accept two spellings of the same action, so primitives are checked.
    def structure(value: Any, _: Any) -> Any:
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value

    return structure


def make_converter() -> cattrs.Converter:
    """A new strict cattrs converter: primitives checked, unknown keys refused.

    Each :class:`ActionCodec` and the log reader make their own.
    """
    conv = cattrs.Converter(forbid_extra_keys=True)
    for kind in (str, int, float, bool):
        conv.register_structure_hook(kind, _strict(kind))
    return conv


#: Behind the deprecated module attribute ``converter`` (see ``__getattr__``).
_shared_converter: cattrs.Converter | None = None


def __getattr__(name: str) -> Any:
    # ``converter`` was one global converter shared by every title; it stays for one
    # release as a deprecated alias of a private one.
    if name == "converter":
        warnings.warn(
            "gameweave_core.converter is deprecated: use title.codec.converter, or "
            "make_converter() for a converter of your own",
            DeprecationWarning,
            stacklevel=2,
        )
        global _shared_converter
        if _shared_converter is None:
            _shared_converter = make_converter()
        return _shared_converter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def drop_none(value: Any) -> Any:
    """``value`` with every ``None`` left out of its dicts (TOML has no null)."""
    if isinstance(value, dict):
        return {k: drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_none(v) for v in value]
    return value


def _describe(exc: BaseException) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        messages = cattrs.transform_error(exc)
        return "; ".join(messages)
    return str(exc)


class ActionCodec:
    """Converts one title's actions to and from their canonical JSON form.

    ``converter`` is the codec's own cattrs converter (see :func:`make_converter`);
    a title may register hooks on it, and the default ``Title.snapshot`` uses it.
    """

    def __init__(self, types: Iterable[type]) -> None:
        self.converter = make_converter()
        self.types: dict[str, type] = {}
        for cls in types:
            tag = action_tag(cls)
            if tag in self.types:
                raise TypeError(f"two action classes share the type {tag!r}")
            self.types[tag] = cls
        self.classes = frozenset(self.types.values())
        self._json: dict[Any, dict[str, Any]] = {}

    def to_json(self, act: Any) -> dict[str, Any]:
        """The canonical JSON object of ``act`` (a new dict the caller may keep)."""
        # Legal actions are listed in every payload a seat receives, so the JSON of
        # an action (frozen, hence hashable) is remembered. Only flat forms are
        # cached, so handing out shallow copies can never share a nested value;
        # the cap keeps titles with huge action spaces from growing it forever.
        try:
            cached = self._json.get(act)
        except TypeError:  # an unhashable field: convert every time
            cached = None
        if cached is not None:
            return dict(cached)
        body = drop_none(self.converter.unstructure(act))
        form = {"type": action_tag(act), **body}
        if len(self._json) < _JSON_CACHE_SIZE and all(
            isinstance(v, (str, int, float, bool)) for v in body.values()
        ):
            with contextlib.suppress(TypeError):
                self._json[act] = form
                return dict(form)
        return form

    def from_json(self, data: Any) -> Any:
        """The action an untrusted JSON value describes, or :class:`MalformedAction`."""
        if not isinstance(data, Mapping):
            raise MalformedAction(
                f"an action must be a JSON object with a 'type', got {type(data).__name__}"
            )
        tag = data.get("type")
        if not isinstance(tag, str):
            example = next(iter(self.types), "...")
            raise MalformedAction(f'an action needs a "type" string, e.g. {{"type": "{example}"}}')
        cls = self.types.get(tag)
        if cls is None:
            known = ", ".join(sorted(self.types))
            raise MalformedAction(f"unknown action type {tag!r}; this title knows: {known}")
        body = {k: v for k, v in data.items() if k != "type"}
        try:
            return self.converter.structure(body, cls)
        except Exception as exc:  # cattrs raises several kinds; all mean bad input
            raise MalformedAction(f"malformed {tag!r} action: {_describe(exc)}") from None
