"""Any installed Gameweave title as an OpenSpiel game and a PettingZoo environment.

Install the ``rl`` extra (``pip install 'gameweave[rl]'``), then:

- :func:`gameweave_rl.pettingzoo.env` (AEC) and :func:`gameweave_rl.pettingzoo.parallel_env`;
- :func:`gameweave_rl.openspiel.load_game`, and ``pyspiel.load_game("gameweave_<name>")``
  once :mod:`gameweave_rl.openspiel` is imported.

A title is hosted when it numbers its actions, declares its view schema and states
its game facts; any other is refused with :class:`NotHostable` and a one-line reason.
This module imports neither PettingZoo nor OpenSpiel: each submodule imports its own.
"""

from __future__ import annotations

from ._host import Host, NotHostable, host, resolve

__all__ = ["Host", "NotHostable", "host", "resolve"]
