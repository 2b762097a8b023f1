"""Museum Heist for 2-4 players, as a Gameweave title.

Seven character pieces share one board and anyone may move any of them. Each
round every player secretly becomes one of the seven characters; whoever brings
their own character onto the Artwork, or unmasks a rival by naming their
character, collects the Artwork token. Three tokens win (four with two players).
"""

from .title import MuseumHeist

__all__ = ["MuseumHeist"]

__version__ = "0.1.0"
