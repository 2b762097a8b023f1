"""Master Thief: thieves in a museum steal, swipe, stash and escape.

Each thief holds a secret hand of Thief Cards and a secret Calling Card; the
Museum is a face-down pile. Opponents answer out of turn with Reactions (Grip,
Latch), the opening Heist is a simultaneous steal, and the game ends on Security
Strikes, on the Thief deck running out, or when everyone has escaped.
"""

from .title import MasterThief

__version__ = "0.1.0"

__all__ = ["MasterThief", "__version__"]
