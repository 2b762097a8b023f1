"""What each route does. An API handler takes the request's ASGI scope and its body
(structured into the route's class of :mod:`gameweave_http.bodies`, or ``None``)
and returns its answer (see :class:`~gameweave_http.pipeline.Endpoint`); it reads
the server from the scope (an :class:`~gameweave_http.state.AppState`).
:mod:`gameweave_http.routes` says which path each answers. Refusals are raised
(:mod:`gameweave_http.refusals`) and answered by the pipeline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import secrets
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import attrs
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.types import Scope

from gameweave_core import (
    CutLog,
    DigestMismatch,
    LogError,
    Match,
    MatchLog,
    Registry,
    Title,
    UnknownTitle,
)

from .bodies import CreateMatch, Empty, ReplayLog, Submit, meta
from .events import EventStream
from .frames import accept_key, valid_key
from .hub import LiveMatch, labels, off_loop
from .limits import REPLAY_UNIT
from .pipeline import UPGRADE, Reply, header, refuse_foreign_origin
from .refusals import (
    BadBody,
    BadLog,
    DevOnly,
    NoSuchMatch,
    NoSuchTitle,
    NotHost,
    NotNow,
    NoToken,
    NotUpgraded,
    SearchFailed,
    ServerFull,
    TooMany,
    Unplayable,
)
from .search import RETRY_AFTER, AlreadySearching, PoolFull, run_search
from .sockets import SeatSocket
from .state import AppState, state_of
from .wire import client_address, read_token, short, to_json

log = logging.getLogger("gameweave_http")

STATIC = Path(__file__).resolve().parent / "static"
#: File types a title's web folder may serve.
WEB_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


# -- the routes of every turn ------------------------------------------------------------------


async def read_match(scope: Scope, body: None) -> bytes:
    """``GET /api/matches/{match_id}``: the payload of the token's seat (or a
    spectator's)."""
    hub = state_of(scope).hub
    live = await hub.get(scope["path_params"]["match_id"])
    return await hub.payload(live, hub.seat(live.id, read_token(scope, query=True)))


def seat_token(scope: Scope, what: str) -> str:
    """The seat token of a request that acts for a seat, or the refusal."""
    token = read_token(scope)
    if token is None:
        raise NoToken(f"{what} needs the seat's token in the X-Seat-Token header")
    return token


async def submit_action(scope: Scope, body: Submit) -> bytes:
    """``POST /api/matches/{match_id}/actions``: apply the seat's action, commit it,
    and answer the seat's new payload."""
    hub = state_of(scope).hub
    live = await hub.get(scope["path_params"]["match_id"])
    seat = hub.seat(live.id, seat_token(scope, "acting"))
    assert seat is not None
    return await hub.submit(live, seat, body.version, body.action)


async def watched(
    scope: Scope,
) -> tuple[AppState, LiveMatch, int | None, Callable[[], bool] | None]:
    """The match and seat an event stream or a seat socket watches (the token in
    the query; none: a spectator), and the check of that token (``None`` for a
    spectator, see :func:`still_seated`). A title that cannot build the payload is
    refused now (503), not mid-stream."""
    state = state_of(scope)
    hub = state.hub
    live = await hub.get(scope["path_params"]["match_id"])
    token = read_token(scope, query=True)
    seat = hub.seat(live.id, token)
    await hub.payload(live, seat)
    check = None if token is None else still_seated(state, live.id, token, seat)
    return state, live, seat, check


async def events(scope: Scope, body: None) -> EventStream:
    """``GET /api/matches/{match_id}/events``: the seat's payload after every change
    (see :class:`~gameweave_http.events.EventStream`)."""
    state, live, seat, check = await watched(scope)
    # Refused when the match, this client or the server holds as many as it may.
    changed = asyncio.Event()
    entry = state.listeners.add(
        live.id, seat, live.match.players, client_address(scope), changed.set
    )
    return EventStream(
        state.hub,
        live,
        seat,
        entry,
        changed,
        on_close=partial(state.listeners.remove, live.id, entry),
        still_valid=check,
    )


async def seat_socket(scope: Scope, body: None) -> SeatSocket:
    """``GET /api/matches/{match_id}/socket``, asking to upgrade: the seat socket,
    payloads pushed and moves taken on one WebSocket (see
    :mod:`~gameweave_http.sockets`). Refused as any request is, before the switch."""
    switch = scope.get(UPGRADE)
    if (
        switch is None
        or scope["method"] != "GET"
        or (header(scope, b"upgrade") or "").lower() != "websocket"
    ):
        raise NotUpgraded(
            "the seat socket is a WebSocket: open ws://HOST/api/matches/ID/socket?token=... "
            "(without WebSockets, read the event stream and POST each move)"
        )
    if header(scope, b"sec-websocket-version") != "13":
        raise NotUpgraded("the seat socket speaks WebSocket version 13 (Sec-WebSocket-Version: 13)")
    key = (header(scope, b"sec-websocket-key") or "").encode("latin-1")
    if not valid_key(key):
        raise BadBody("a WebSocket handshake needs a Sec-WebSocket-Key: 16 bytes in base64")
    refuse_foreign_origin(scope, state_of(scope).settings)
    state, live, seat, check = await watched(scope)
    socket = SeatSocket(
        state.hub,
        live,
        seat,
        switch=switch,
        accept=accept_key(key),
        path=scope["path"],
        still_valid=check,
    )
    # A socket is an event stream: refused when the match, this client or the
    # server holds as many as it may.
    entry = state.listeners.add(
        live.id, seat, live.match.players, client_address(scope), socket.changed
    )
    socket.on_close = partial(state.listeners.remove, live.id, entry)
    return socket


def still_seated(
    state: AppState, match_id: str, token: str, seat: int | None
) -> Callable[[], bool]:
    """Whether ``token`` is still ``seat``'s: a seat's event stream asks before each
    chunk and ends once its token is reissued, so an old link learns nothing new.
    The tokens of a match are replaced as a whole when one is reissued, so while
    they are the same object nothing was: no hash per event."""
    store = state.store
    known = store.tokens_of(match_id)

    def check() -> bool:
        nonlocal known
        now = store.tokens_of(match_id)
        if now is not None and now is known:
            return True
        known = now
        return store.seat_for(match_id, token) == seat

    return check


async def hint(scope: Scope, body: Empty) -> bytes:
    """``POST /api/matches/{match_id}/hint``: what the search would play for the
    token's seat now, from that seat's observation only, and how sure it is.
    Searched in the search pool, off the event loop. The client's limits (hints
    a minute, hints at once) and the pool's room are asked first, before the
    match is looked at: a client asking without pause is refused at the least
    cost to the server."""
    state = state_of(scope)
    hub = state.hub
    token = seat_token(scope, "a hint")
    live = await hub.get(scope["path_params"]["match_id"])
    seat = hub.seat(live.id, token)
    assert seat is not None
    client = client_address(scope)
    wait = state.hints.take(client)
    if wait is not None:
        raise TooMany(
            f"this client asked for {state.hints.per_minute} hints in the last minute, the "
            "most it may; try again later",
            retry_after=max(1, round(wait + 0.5)),
        )
    pool = hub.search
    if pool is not None:
        with pool_refusals():
            pool.admit_hint(live.id, seat, client)
    job = await hub.hint_job(live, seat)
    try:
        if pool is None:
            found = await off_loop(run_search, job, hub.registry)
        else:
            with pool_refusals():
                future = pool.submit(job, hint=True, client=client)
            found = await asyncio.wrap_future(future)
    except (ServerFull, TooMany):
        raise
    except Exception as exc:
        log.error("match %s: the hint for seat %d failed", live.id, seat, exc_info=exc)
        raise SearchFailed("the search for a hint failed (see the server log)") from None
    return to_json(found)


@contextlib.contextmanager
def pool_refusals() -> Iterator[None]:
    """The search pool's refusals of a hint as the API's: no room (503), this seat's
    or this client's hints already under way (429)."""
    try:
        yield
    except PoolFull as exc:
        raise ServerFull(str(exc), retry_after=RETRY_AFTER) from None
    except AlreadySearching as exc:
        raise TooMany(str(exc), retry_after=RETRY_AFTER) from None


# -- titles and matches ----------------------------------------------------------------------


async def titles(scope: Scope, body: None) -> bytes:
    """``GET /api/titles``: the installed titles and the options players may choose."""
    registry = state_of(scope).registry
    out = []
    for entry in registry.entries():
        t = entry.title
        item: dict[str, Any] = {
            "name": t.name,
            "display_name": t.display_name,
            "summary": t.summary,
            "min_players": t.min_players,
            "max_players": t.max_players,
            "version": t.version,
            "bots": sorted(registry.bots(t)),
            "default_bot": t.default_bot,
            "config": dict(t.offered_options()),
            "distribution": entry.distribution,
        }
        url = renderer_url(t)
        if url:
            item["renderer"] = url
        # Worked out once per title (a few matches set up), off the event loop.
        roles = _ROLES.get((t.name, t.version))
        if roles is None:
            roles = await off_loop(seat_roles, t)
        if roles:
            item["seat_labels"] = roles
        out.append(item)
    return to_json(out)


#: Title (name, version) -> its seats' labels at the start, by player count.
_ROLES: dict[tuple[str, str], dict[str, list[str]]] = {}


def seat_roles(title: Title[Any]) -> dict[str, list[str]]:
    """How a new match of ``title`` names its seats, for each player count (so the
    lobby can name the roles before the match exists). A count whose labels depend
    on the seed (two seeds disagree) or whose setup fails is left out: the lobby
    then says only "seat N"."""
    key = (title.name, title.version)
    if key not in _ROLES:
        found: dict[str, list[str]] = {}
        for players in range(title.min_players, min(title.max_players, 16) + 1):
            try:
                a, b = (Match(title, players, seed) for seed in (0, 1))
                labels = [a.seat_label(s) for s in range(1, players + 1)]
                if labels == [b.seat_label(s) for s in range(1, players + 1)]:
                    found[str(players)] = labels
            except Exception:  # a title that refuses defaults at this count
                continue
        _ROLES[key] = found
    return _ROLES[key]


async def title_rules(scope: Scope, body: None) -> bytes:
    """``GET /api/titles/{name}/rules``: the title's rules for players, by topic
    (``Title.rules_text``; the first topic is the overview)."""
    registry = state_of(scope).registry
    name = scope["path_params"]["name"]
    try:
        title = registry.title(name)
    except UnknownTitle:
        raise NoSuchTitle(f"no title named {short(name)!r} is installed") from None
    topics = title.rules_text()
    if not topics:
        raise NoSuchTitle(f"{name} ships no rules text: see its documentation")
    return to_json(
        {
            "title": title.name,
            "topics": [{"name": str(k), "text": str(v)} for k, v in topics.items()],
        }
    )


async def server_info(scope: Scope, body: None) -> bytes:
    """``GET /api/server``: how this server was started, for the lobby."""
    return to_json({"dev": state_of(scope).settings.dev})


async def list_matches(scope: Scope, body: None) -> bytes:
    """``GET /api/matches``: the newest matches, public facts only."""
    return to_json(await off_loop(state_of(scope).store.summaries))


async def create_match(scope: Scope, body: CreateMatch) -> Reply:
    """``POST /api/matches``: a new match and a secret link per human seat."""
    state = state_of(scope)
    wait = state.creates.take(client_address(scope))
    if wait is not None:
        raise TooMany(
            f"this client created {state.creates.per_minute} matches in the last minute, "
            "the most it may; try again later",
            retry_after=max(1, round(wait + 0.5)),
        )
    if not state.settings.dev:
        refuse_secrets_known(state, body.title, body.seed, body.config)
    host_token = secrets.token_urlsafe(24)
    live, tokens = await state.hub.create(
        body.title,
        body.players,
        body.seed,
        body.config,
        body.bots,
        host_token=host_token,
        client=client_address(scope),
    )
    base = state.settings.public_url or bound_url(scope)
    seat_labels, version = await state.hub.seats(live)
    seats = []
    for s, label in seat_labels.items():
        item: dict[str, Any] = {"seat": s, "label": label}
        if s in live.bots:
            item["bot"] = live.bots[s].name
        else:
            item["token"] = tokens[s]
            item["url"] = f"{base}/play/{live.id}#token={tokens[s]}"
        seats.append(item)
    created = {
        "id": live.id,
        "title": live.match.title.name,
        "players": live.match.players,
        "version": version,
        "seats": seats,
        "spectator_url": f"{base}/play/{live.id}",
        "host_token": host_token,
    }
    return Reply(to_json(created), status=201)


#: A seat number in a path: ASCII digits only.
_SEAT = re.compile(r"[0-9]{1,6}")


async def reissue_token(scope: Scope, body: Empty) -> bytes:
    """``POST /api/matches/{match_id}/seats/{seat}/token``: a new secret link for a
    human seat, asked for with the match's host token (``X-Host-Token``); the
    seat's previous token stops working at once."""
    state = state_of(scope)
    store = state.store
    match_id = scope["path_params"]["match_id"]
    raw_seat = scope["path_params"]["seat"]
    host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"x-host-token"), "")
    if not host:
        raise NoToken("a new seat link needs the match's host token in the X-Host-Token header")
    if not _SEAT.fullmatch(raw_seat):
        raise Unplayable(f"the seat must be a seat number, got {short(raw_seat)!r}")
    seat = int(raw_seat)
    seating = await off_loop(store.seating, match_id) if len(match_id) <= 64 else None
    if seating is None:
        raise NoSuchMatch(f"no match with id {short(match_id)!r}")
    if seating.host_hash is None:
        raise NotNow(
            f"match {match_id} was created before host tokens: its links cannot be reissued"
        )
    if not seating.is_host(host):
        raise NotHost(f"that is not the host token of match {match_id}")
    if not 1 <= seat <= seating.players:
        raise Unplayable(f"there is no seat {seat}: seats are 1 to {seating.players}")
    if seat in seating.bots:
        raise Unplayable(f"seat {seat} is played by a bot: it has no link")
    token = secrets.token_urlsafe(24)
    await off_loop(store.reissue, match_id, seat, token)
    # Wake the match's event streams: the old link's ends at once, saying so.
    state.listeners.notify(match_id)
    base = state.settings.public_url or bound_url(scope)
    return to_json({"seat": seat, "token": token, "url": f"{base}/play/{match_id}#token={token}"})


def bound_url(scope: Scope) -> str:
    """The base URL of the address a request reached, as the server's socket has
    it (never the ``Host`` header, which the client writes)."""
    scheme = scope.get("scheme", "http")
    server = scope.get("server")
    if not server:
        return f"{scheme}://localhost"
    host, port = server[0], server[1]
    if ":" in host:
        host = f"[{host}]"  # IPv6
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


#: Why a server refuses to let a client fix the hidden information.
_DEV_ONLY = "would let whoever creates the match know every secret; the server allows it only in development mode (gameweave serve --dev)"


def refuse_secrets_known(state: AppState, name: str, seed: Any, config: dict[str, Any]) -> None:
    """Refuse a client-chosen seed or a test-only option: outside development mode,
    the server alone decides what is hidden."""
    if seed is not None:
        raise DevOnly(f'a chosen "seed" {_DEV_ONLY}')
    try:
        title = state.registry.title(name)
    except UnknownTitle:
        return  # the hub refuses that, naming the installed titles
    fixed = sorted(set(config) & title.test_only_options)
    if fixed:
        raise DevOnly(f"the option {short(fixed[0])!r} is for tests only: it {_DEV_ONLY}")


# -- logs and replays ------------------------------------------------------------------------


async def match_log(scope: Scope, body: None) -> Reply:
    """``GET /api/matches/{match_id}/log``: the TOML log of a finished match."""
    hub = state_of(scope).hub
    live = await hub.get(scope["path_params"]["match_id"])
    text = await hub.log_text(live)
    filename = f"gameweave-{live.match.title.name}-{live.id}.toml"
    return Reply(
        text.encode(),
        media=b"application/toml",
        headers=[(b"content-disposition", f'attachment; filename="{filename}"'.encode())],
    )


def read_log(text: str) -> MatchLog:
    """A log sent to the replay route, or the one-line refusal saying what is wrong
    (the request is well formed: its log's content is refused).

    Besides :class:`LogError`, a TOML document can make the parser itself fail:
    nesting deeper than Python's recursion limit, an integer longer than Python
    converts from text; both are the sender's fault, never the server's."""
    try:
        return MatchLog.from_toml(text, source="the log")
    except LogError as exc:
        # Chained: the verify route tells a log cut mid-entry (CutLog) from the rest.
        raise BadLog(str(exc)) from exc
    except RecursionError:
        raise BadLog("the log is not valid TOML: it is nested too deeply") from None
    except ValueError as exc:
        raise BadLog(f"the log is not valid TOML: {short(str(exc))}") from None


async def replay(scope: Scope, body: ReplayLog) -> bytes:
    """``POST /api/replay``: a log replayed to a step, seen as a seat or a spectator.
    Limited per client like creation, a log counting once per started
    :data:`~gameweave_http.limits.REPLAY_UNIT` bytes: its replay's work grows with it."""
    registry = state_of(scope).registry
    _take_replay(scope, body.log)

    def run() -> dict[str, Any]:
        log = read_log(body.log)
        total = len(log.actions)
        upto = total if body.step is None else body.step
        if not 0 <= upto <= total:
            raise BadLog(f"step must be between 0 and {total}, got {upto}")
        match = Match.from_log(log, upto=upto, registry=registry, source="the log")
        seat = body.seat
        if seat is not None and not 1 <= seat <= match.players:
            raise BadLog(f"there is no seat {seat}: seats are 1 to {match.players}")
        payload = match.payload(seat)
        payload["labels"] = labels(match, seat)
        return {
            "steps": total,
            "step": upto,
            "actions": [{"index": e.index, "seat": e.seat} for e in log.actions],
            "payload": payload,
        }

    return to_json(await off_loop(run))


@attrs.frozen
class VerifyLog:
    """The body of ``POST /api/replay/verify``: a log to verify, every action
    applied again and every digest compared. (Kept beside its route, which alone
    reads it.)"""

    log: str = attrs.field(
        metadata=meta(
            "The text of a TOML match log.",
            must="must be the text of a TOML log",
            schema={"minLength": 1},
        )
    )


def _take_replay(scope: Scope, log: str) -> None:
    """Count a replay of ``log`` against this client's replays a minute, or refuse it."""
    state = state_of(scope)
    wait = state.replays.take(client_address(scope), math.ceil(len(log) / REPLAY_UNIT) or 1)
    if wait is not None:
        raise TooMany(
            f"this client replayed as many logs in the last minute as it may "
            f"({state.replays.per_minute}, a log counting once per started "
            f"{REPLAY_UNIT // 1024} KiB); try again later",
            retry_after=max(1, round(wait + 0.5)),
        )


def verification(log: MatchLog, registry: Registry) -> dict[str, Any]:
    """What ``gameweave replay --verify`` finds in ``log``, as the replay page shows it.

    The core's :meth:`Match.verified <gameweave_core.match.Match.verified>` decides,
    as it does for the command: this only says where it stopped and why. ``problem``
    is ``"edited"`` (an entry no longer replays as recorded while the rules are the
    ones it was recorded with), ``"rules"`` (the same, with other rules installed),
    ``"cut"`` (the log ends mid-entry) or ``"unverifiable"`` (no step is to blame: a
    digest missing, a match that cannot start); ``good`` is how many steps were
    reproduced before it."""
    total = len(log.actions)
    try:
        entry = registry.entry(log.title)
    except UnknownTitle as exc:
        raise BadLog(str(exc)) from None
    rules = log.compatibility(entry)
    changed = rules is not None and log.title_version != entry.title.version
    try:
        match = Match.verified(log, registry=registry, source="the log")
    except LogError as exc:
        if isinstance(exc, CutLog):
            problem = "cut"
        elif exc.index is None:
            problem = "unverifiable"
        else:
            problem = "rules" if changed else "edited"
        at = exc.index
        return {
            "verified": False,
            "steps": total,
            "checked": 0,
            "good": total if at is None else at - 1,
            "at": at,
            "problem": problem,
            "mismatch": isinstance(exc, DigestMismatch),
            "message": exc.message,
            "rules": rules,
        }
    return {
        "verified": True,
        "steps": total,
        "checked": sum(1 for e in log.actions if e.digest is not None),
        "good": match.step,
        "at": None,
        "problem": None,
        "mismatch": False,
        "message": None,
        "rules": rules,
    }


async def verify(scope: Scope, body: VerifyLog) -> bytes:
    """``POST /api/replay/verify``: a log verified as ``gameweave replay --verify``
    does (every action applied again, every digest compared), saying where and why
    it stopped. Limited per client as :func:`replay` is."""
    _take_replay(scope, body.log)
    registry = state_of(scope).registry

    def run() -> dict[str, Any]:
        try:
            log = read_log(body.log)
        except BadLog as exc:
            cut = exc.__cause__
            if not isinstance(cut, CutLog):
                raise  # not a log at all: refused, saying why
            # Cut inside an entry's fields: none of the log can be read to replay.
            return {
                "verified": False,
                "steps": None,
                "checked": 0,
                "good": 0,
                "at": cut.index,
                "problem": "cut",
                "mismatch": False,
                "message": cut.message,
                "rules": None,
            }
        return verification(log, registry)

    return to_json(await off_loop(run))


async def schema(scope: Scope, body: None) -> bytes:
    """``GET /api/openapi.json``: the OpenAPI document of this server (written once,
    when the app was made: :func:`gameweave_http.routes.schema`)."""
    return state_of(scope).openapi


# -- pages and files --------------------------------------------------------------------------


def renderer_file(title: Title[Any]) -> Path | None:
    """The browser renderer a title ships, as a file in its package, or ``None``."""
    if not title.web_renderer:
        return None
    module = sys.modules.get(type(title).__module__)
    source = getattr(module, "__file__", None)
    if not source:
        return None
    base = Path(source).resolve().parent
    path = (base / title.web_renderer).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        return None
    return path


def renderer_url(title: Title[Any]) -> str | None:
    return f"/titles/{title.name}/renderer.js" if renderer_file(title) else None


async def title_file(request: Request) -> Response:
    """``GET /titles/{name}/{file}``: a file of a title's browser renderer."""
    registry = state_of(request.scope).registry
    name = request.path_params["name"]
    wanted = request.path_params["file"]
    try:
        title = registry.title(name)
    except Exception:
        raise NoSuchTitle(f"no title named {short(name)!r} is installed") from None
    main = renderer_file(title)
    if main is None:
        raise NoSuchTitle(f"{name} ships no browser renderer")
    path = main if wanted == "renderer.js" else (main.parent / wanted).resolve()
    kind_ = WEB_TYPES.get(path.suffix)
    if not path.is_relative_to(main.parent) or kind_ is None or not path.is_file():
        raise NoSuchTitle(f"{name} has no web file {short(wanted)!r}")
    return FileResponse(path, media_type=kind_, headers={"Cache-Control": "no-cache"})


async def page(request: Request, name: str) -> Response:
    """A page of the browser client, from the static folder (the routes bind ``name``)."""
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
