"""Every plugin hook is documented: a docstring, and a mention on the hook page."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from gameweave_core import hooks

HOOK_PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "hooks.md"


def hookspecs() -> dict[str, object]:
    """The functions ``gameweave_core.hooks`` marks as hook specifications."""
    marker = f"{hooks.PROJECT}_spec"  # the attribute pluggy's HookspecMarker sets
    return {
        name: obj
        for name, obj in vars(hooks).items()
        if inspect.isfunction(obj) and hasattr(obj, marker)
    }


def test_the_hookspecs_are_found() -> None:
    # Guards the finder above: if pluggy changed how it marks specs, every other
    # check here would pass on an empty set.
    assert {"register_titles", "register_bots"} <= set(hookspecs())


def test_every_hookspec_has_a_docstring() -> None:
    for name, spec in hookspecs().items():
        doc = inspect.getdoc(spec) or ""
        assert len(doc.split()) >= 8, f"hook {name} needs a docstring saying how to use it"


def test_every_hookspec_is_described_on_the_hook_page() -> None:
    page = HOOK_PAGE.read_text(encoding="utf-8")
    # The page documents the module's members through autodoc...
    assert re.search(r"\.\. automodule:: gameweave_core\.hooks\n\s+:members:\n", page)
    # ...and explains each hook in its own words, as a definition-list term.
    for name in hookspecs():
        assert re.search(rf"^`{name}`\n: \S", page, re.MULTILINE), (
            f"docs/reference/hooks.md does not describe the hook {name}"
        )
