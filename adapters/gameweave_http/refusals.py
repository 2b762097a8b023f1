"""Why the server refuses a request: one class per reason, raised where the reason
is found (the hub, the request reader, the limits), each with a one-line message.

None of them knows HTTP: the status each is answered with is decided in one place,
the table :data:`gameweave_http.errors.STATUS`, which the OpenAPI document reads
too. A refusal changes nothing: whatever raised it had not changed anything yet.
"""

from __future__ import annotations

from gameweave_core.errors import one_line


class Refusal(Exception):
    """A request the server will not carry out; :attr:`message` says why."""

    #: Seconds after which the same request may succeed (a ``Retry-After``), for
    #: every refusal of the class unless one says otherwise; ``None``: no advice.
    retry_after: int | None = None

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        self.message = one_line(message)
        super().__init__(self.message)
        if retry_after is not None:
            self.retry_after = retry_after


# -- the request itself ----------------------------------------------------------------


class BadBody(Refusal):
    """Malformed request or action: the body is not the JSON the route takes."""


class BodyTooLarge(Refusal):
    """The body is larger than the server reads."""


class NotJson(Refusal):
    """The body is not declared as JSON (``Content-Type: application/json``)."""


class CrossSite(Refusal):
    """An ``Origin`` that is not the server's: a page of another site."""


class TooSlow(Refusal):
    """The request (its head, or its body) was not received in time."""

    retry_after = 1


class NotUpgraded(Refusal):
    """The seat socket asked for without switching to a WebSocket (version 13)."""


class HeadTooLarge(Refusal):
    """The request head (request line and headers) is larger than the server reads."""


class NotHttp(Refusal):
    """The request is not valid HTTP/1.1."""


class UnknownHost(Refusal):
    """A ``Host`` this server does not serve (see ``gameweave serve --allowed-host``)."""


# -- who is asking ---------------------------------------------------------------------


class NoToken(Refusal):
    """No seat token (or host token) where the route needs one."""


class NotSeated(Refusal):
    """The token belongs to no seat of this match."""


class NotHost(Refusal):
    """Not the match's host token."""


class DevOnly(Refusal):
    """A chosen seed or a test-only option, on a server not in development mode."""


# -- what is asked for -----------------------------------------------------------------


class NoSuchMatch(Refusal):
    """No such match."""


class NoSuchTitle(Refusal):
    """No such title, or no such file or rules text of a title."""


class StaleVersion(Refusal):
    """The client saw another version of the match than the one it is at."""


class NotNow(Refusal):
    """Not possible in the match's present state (a bot's seat, not the seat's turn,
    the match over or not yet over, a match from before host tokens)."""


class Unplayable(Refusal):
    """Options, seats or a seed the title refuses, or a seat number out of range."""


class NotSearchable(Refusal):
    """The title cannot be searched (no resample hook), so it gives no hints."""


class BadLog(Refusal):
    """A log that does not read or replay."""


# -- what the server holds -------------------------------------------------------------


class TooMany(Refusal):
    """This client asks too much: too many matches created or logs replayed, event
    streams of one match or of this client, bots-only search matches under way, or
    hints at once (see ``Retry-After``)."""

    retry_after = 10


class ServerFull(Refusal):
    """The server holds all it may: connections, requests answered at once, event
    streams, searches, bots-only search matches under way (see ``Retry-After``)."""

    retry_after = 1


class Stopping(Refusal):
    """The server stopped while answering (see ``Retry-After``)."""

    retry_after = 10


class Unavailable(Refusal):
    """The match's stored rows are damaged or do not replay, or its title is not
    installed; other matches are not affected."""

    retry_after = 3600


class NotStored(Refusal):
    """The store failed to write (a full disk, say): nothing changed."""

    retry_after = 30


class TitleFailed(Refusal):
    """The title failed (a bug in the title); nothing changed."""


class SearchFailed(Refusal):
    """A search failed (see the server log)."""


#: Refusals of a request the hub looks up a match for; routes that take a match id
#: list these (the OpenAPI document says each one's status).
MATCH_LOOKUP: tuple[type[Refusal], ...] = (NoSuchMatch, Unavailable)
