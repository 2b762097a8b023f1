"""The errors the core raises. Every message is one line that says what is wrong."""

from __future__ import annotations


class GameweaveError(Exception):
    """Base class of every error the core raises on purpose."""


def one_line(text: str) -> str:
    """``text`` with line breaks escaped, so an error is always one line."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class IllegalAction(GameweaveError):
    """An action was refused; the match, its state and its log are unchanged.

    The message is built only from what the submitting seat may know, and is
    always one line (untrusted input quoted in it cannot break it).
    """

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class MalformedAction(IllegalAction):
    """The action could not be read at all: not an object, unknown type, bad fields."""


class NotAwaited(IllegalAction):
    """The seat submitted while the match was not waiting for it."""


class GameOver(IllegalAction):
    """The match has ended; nothing more can be submitted."""


class UnknownTitle(GameweaveError):
    """No installed title has that name."""


class ConfigError(GameweaveError):
    """A match was created with options or a number of players the title refuses."""


class PluginError(GameweaveError):
    """A plugin misbehaved while registering (for example a duplicate title name)."""


class TitleError(GameweaveError):
    """A title raised while applying a legal action: a bug in the title, not in the input.

    The match has been rolled back to the state before the action.
    """


class LogError(GameweaveError):
    """A log could not be read or replayed. Names the file and, where known, the action."""

    def __init__(self, source: str, message: str, index: int | None = None) -> None:
        self.source = source
        self.index = index
        self.message = message
        where = f"{source}: action {index}" if index is not None else source
        super().__init__(f"{where}: {message}")


class DigestMismatch(LogError):
    """Replaying a log reached a state different from the one it recorded."""


class UnseededMatch(GameweaveError):
    """A match was about to get a fresh seed while tests require every match to be
    seeded (see :data:`gameweave_core.rng.REQUIRE_SEED_ENV`)."""


class NeedsChance(BaseException):
    """Raised inside a title's ``setup`` or ``apply`` by a scripted generator (see
    :class:`gameweave_core.rng.ScriptedRng`) when the rules draw past the outcomes
    given: the match is at a chance node with ``n`` equally likely outcomes.

    A :class:`BaseException`, so that a title's own ``except Exception`` cannot
    swallow it; the core catches it and never lets it out of a match."""

    def __init__(self, n: int) -> None:
        super().__init__(f"needs chance ({n} outcomes)")
        self.n = n
