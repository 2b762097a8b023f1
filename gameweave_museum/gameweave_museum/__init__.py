"""The Museum Job: a hidden-movement heist for 2-4 players, as a Gameweave title.

One player is the Thief, moving unseen through the Quayside Palace; the others are
Security, with three guards, seven cameras and a Security Office, working out where
the Thief is from the evidence left behind.
"""

from .title import MuseumJob

__all__ = ["MuseumJob"]

__version__ = "0.1.0"
