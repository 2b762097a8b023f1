"""Museum Rush for 2-4 players, as a Gameweave title.

Thieves break into a museum laid out at random from 28 Room tiles, steal Loot and
crack the locks of Rare Treasures while Guards close in, and must get out before
the Clock cards run out. The biggest Take wins.
"""

from .title import MuseumRush

__all__ = ["MuseumRush"]

__version__ = "0.1.0"
