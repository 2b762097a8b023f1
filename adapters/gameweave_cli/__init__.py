"""Gameweave's command line: list, play, replay, simulate and serve any installed title.

The CLI is an adapter: it reaches every title only through
:class:`~gameweave_core.match.Match`, so a third-party title that ships no terminal
renderer or parser still plays, with generic fallbacks.
"""

__all__: list[str] = []
