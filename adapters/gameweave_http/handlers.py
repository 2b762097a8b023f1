"""The routes' handlers. Each reads the server from ``request.app.state`` (an
:class:`~gameweave_http.state.AppState`); :mod:`gameweave_http.routes` says which
path each answers.

The two handlers every turn hits, :func:`read_match` and :func:`submit_action`,
take the ASGI scope and the body and return the encoded reply (see
:class:`~gameweave_http.fastpath.JsonRoute`). Their work runs on the event loop
when the hub can do it without waiting, else (the hub raised :class:`Busy`,
having changed nothing) all over again in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import sys
from functools import partial
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.types import Scope

from gameweave_core import LogError, Match, MatchLog, Title, TitleError, UnknownTitle

from . import openapi
from .events import EventStream, promptly
from .hub import ApiError, Busy, LiveMatch, labels
from .search import RETRY_AFTER, AlreadySearching, PoolFull, run_search
from .state import AppState, state_of
from .wire import (
    MAX_LOG,
    Json,
    check_keys,
    json_object,
    kind,
    parse_json,
    read_json,
    read_token,
    short,
    to_json,
    too_big,
    whole,
)

log = logging.getLogger("gameweave_http")

STATIC = Path(__file__).resolve().parent / "static"
#: File types a title's web folder may serve.
WEB_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


# -- the two routes of every turn ------------------------------------------------------------


def _read(state: AppState, scope: Scope, wait: bool) -> bytes:
    hub = state.hub
    match_id = scope["path_params"]["match_id"]
    live = hub.get(match_id, wait)
    seat = hub.seat(match_id, read_token(scope, query=True), wait)
    return to_json(hub.payload(live, seat, wait))


async def read_match(scope: Scope, body: bytes | None) -> bytes:
    """``GET /api/matches/{match_id}``: the payload of the token's seat (or a
    spectator's)."""
    state = state_of(scope)
    try:
        return _read(state, scope, False)
    except Busy:
        return await run_in_threadpool(_read, state, scope, True)


def _submission(
    state: AppState, scope: Scope, body: bytes | None, wait: bool
) -> tuple[LiveMatch, int, int, Any]:
    """The match, seat, version and action of a submission, or why it is refused."""
    hub = state.hub
    match_id = scope["path_params"]["match_id"]
    live = hub.get(match_id, wait)
    token = read_token(scope)
    if token is None:
        raise ApiError(401, "acting needs the seat's token in the X-Seat-Token header")
    seat = hub.seat(match_id, token, wait)
    assert seat is not None
    if body is None:
        raise too_big()
    data = json_object(parse_json(body), "the body")
    if len(data) != 2 or "version" not in data or "action" not in data:
        check_keys(data, {"version", "action"}, "the body")
    version = whole(data.get("version"))
    if version is None:
        raise ApiError(
            400,
            f'"version" must be the match version you last saw, got {kind(data.get("version"))}',
        )
    if "action" not in data:
        raise ApiError(400, 'the body needs an "action" object, e.g. {"type": ...}')
    return live, seat, version, data["action"]


def _submit_waiting(state: AppState, scope: Scope, body: bytes | None) -> bytes:
    live, seat, version, action = _submission(state, scope, body, True)
    return to_json(state.hub.submit(live, seat, version, action))


async def submit_action(scope: Scope, body: bytes | None) -> bytes:
    """``POST /api/matches/{match_id}/actions``: apply the seat's action, commit it,
    and answer the seat's new payload."""
    state = state_of(scope)
    hub = state.hub
    try:
        live, seat, version, action = _submission(state, scope, body, False)
        index, as_json, over = hub.begin(live, seat, version, action)
    except Busy:
        return await run_in_threadpool(_submit_waiting, state, scope, body)
    # The match is changed in memory and locked: no one reads it until the
    # action is committed (or put back, if the commit fails).
    try:
        committed = state.store.commit_soon(live.id, index, seat, as_json, over)
    except Exception as exc:
        hub.finish(live, seat, exc)  # puts the match back; raises a 503
        raise
    try:
        await committed
    except asyncio.CancelledError:
        # Raised only once the commit is decided (see Commit): settle, then go.
        with contextlib.suppress(ApiError):
            hub.finish(live, seat, committed.exception(), reply=False)
        raise
    except Exception as exc:
        hub.finish(live, seat, exc)
        raise
    payload = hub.finish(live, seat, None)
    assert payload is not None
    return to_json(payload)


async def hint(request: Request) -> Response:
    """``POST /api/matches/{match_id}/hint``: what the search would play for the
    token's seat now, from that seat's observation only, and how sure it is.
    Searched in the search pool, off the event loop."""
    state = state_of(request.scope)
    hub = state.hub
    match_id = request.path_params["match_id"]
    token = read_token(request.scope)
    if token is None:
        raise ApiError(401, "a hint needs the seat's token in the X-Seat-Token header")
    data = json_object(await read_json(request), "the body")
    check_keys(data, set(), "the body")
    live = await promptly(hub.get, match_id)
    seat = await promptly(hub.seat, match_id, token)
    assert seat is not None
    job = await promptly(hub.hint_job, live, seat)
    pool = hub.search
    try:
        if pool is None:
            found = await run_in_threadpool(run_search, job, hub.registry)
        else:
            try:
                future = pool.submit(job, hint=True)
            except PoolFull as exc:
                raise ApiError(503, str(exc), retry_after=RETRY_AFTER) from None
            except AlreadySearching as exc:
                raise ApiError(429, str(exc), retry_after=RETRY_AFTER) from None
            found = await asyncio.wrap_future(future)
    except ApiError:
        raise
    except Exception as exc:
        log.error("match %s: the hint for seat %d failed", live.id, seat, exc_info=exc)
        raise ApiError(
            503, "the search for a hint failed (see the server log)", retry_after=RETRY_AFTER
        ) from None
    return Json(found)


# -- titles and matches ----------------------------------------------------------------------


async def titles(request: Request) -> Response:
    """``GET /api/titles``: the installed titles and the options players may choose."""
    registry = state_of(request.scope).registry
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
            roles = await run_in_threadpool(seat_roles, t)
        if roles:
            item["seat_labels"] = roles
        out.append(item)
    return Json(out)


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


async def title_rules(request: Request) -> Response:
    """``GET /api/titles/{name}/rules``: the title's rules for players, by topic
    (``Title.rules_text``; the first topic is the overview)."""
    registry = state_of(request.scope).registry
    name = request.path_params["name"]
    try:
        title = registry.title(name)
    except UnknownTitle:
        raise ApiError(404, f"no title named {short(name)!r} is installed") from None
    topics = title.rules_text()
    if not topics:
        raise ApiError(404, f"{name} ships no rules text: see its documentation")
    return Json(
        {
            "title": title.name,
            "topics": [{"name": str(k), "text": str(v)} for k, v in topics.items()],
        }
    )


async def server_info(request: Request) -> Response:
    """``GET /api/server``: how this server was started, for the lobby."""
    return Json({"dev": state_of(request.scope).settings.dev})


async def matches(request: Request) -> Response:
    """``/api/matches``: :func:`list_matches` (GET, HEAD) or :func:`create_match` (POST)."""
    if request.method == "POST":
        return await create_match(request)
    return await list_matches(request)


async def list_matches(request: Request) -> Response:
    """``GET /api/matches``: the newest matches, public facts only."""
    found = await run_in_threadpool(state_of(request.scope).store.summaries)
    return Json(found)


CREATE_FIELDS = {"title", "players", "seed", "config", "bots"}


async def create_match(request: Request) -> Response:
    """``POST /api/matches``: a new match and a secret link per human seat."""
    state = state_of(request.scope)
    data = json_object(await read_json(request), "the body")
    check_keys(data, CREATE_FIELDS, "the body")
    client = request.scope.get("client")
    wait = state.creates.take(str(client[0]) if client else "")
    if wait is not None:
        raise ApiError(
            429,
            f"this client created {state.creates.per_minute} matches in the last minute, "
            "the most it may; try again later",
            retry_after=max(1, round(wait + 0.5)),
        )
    name = data.get("title")
    if not isinstance(name, str):
        raise ApiError(400, f'"title" must be a string naming a title, got {kind(name)}')
    players = whole(data.get("players"))
    if players is None:
        raise ApiError(400, f'"players" must be a whole number, got {kind(data.get("players"))}')
    seed = data.get("seed")
    if seed is not None and (seed := whole(seed)) is None:
        raise ApiError(400, f'"seed" must be a whole number, got {kind(data.get("seed"))}')
    config = data.get("config", {})
    if not isinstance(config, dict):
        raise ApiError(400, f'"config" must be an object, got {kind(config)}')
    bots = bot_seats(data.get("bots", {}))
    if not state.settings.dev:
        refuse_secrets_known(state, name, seed, config)
    host_token = secrets.token_urlsafe(24)
    create = partial(state.hub.create, host_token=host_token)
    live, tokens = await promptly(create, name, players, seed, config, bots)
    base = state.settings.public_url or bound_url(request.scope)
    with live.lock:
        # The seats as a spectator's payload names them.
        seat_labels = {s: live.match.seat_label(s) for s in range(1, live.match.players + 1)}
        version = live.match.step
    seats = []
    for s, label in seat_labels.items():
        item: dict[str, Any] = {"seat": s, "label": label}
        if s in live.bots:
            item["bot"] = live.bots[s].name
        else:
            item["token"] = tokens[s]
            item["url"] = f"{base}/play/{live.id}#token={tokens[s]}"
        seats.append(item)
    body = {
        "id": live.id,
        "title": live.match.title.name,
        "players": live.match.players,
        "version": version,
        "seats": seats,
        "spectator_url": f"{base}/play/{live.id}",
        "host_token": host_token,
    }
    return Json(body, status_code=201)


#: A seat number in a path: ASCII digits only.
_SEAT = re.compile(r"[0-9]{1,6}")


async def reissue_token(request: Request) -> Response:
    """``POST /api/matches/{match_id}/seats/{seat}/token``: a new secret link for a
    human seat, asked for with the match's host token (``X-Host-Token``); the
    seat's previous token stops working at once."""
    state = state_of(request.scope)
    store = state.store
    match_id = request.path_params["match_id"]
    raw_seat = request.path_params["seat"]
    host = request.headers.get("x-host-token")
    if not host:
        raise ApiError(
            401, "a new seat link needs the match's host token in the X-Host-Token header"
        )
    data = json_object(await read_json(request), "the body")
    check_keys(data, set(), "the body")
    if not _SEAT.fullmatch(raw_seat):
        raise ApiError(422, f"the seat must be a seat number, got {short(raw_seat)!r}")
    seat = int(raw_seat)
    seating = await run_in_threadpool(store.seating, match_id) if len(match_id) <= 64 else None
    if seating is None:
        raise ApiError(404, f"no match with id {short(match_id)!r}")
    if seating.host_hash is None:
        raise ApiError(
            409, f"match {match_id} was created before host tokens: its links cannot be reissued"
        )
    if not seating.is_host(host):
        raise ApiError(403, f"that is not the host token of match {match_id}")
    if not 1 <= seat <= seating.players:
        raise ApiError(422, f"there is no seat {seat}: seats are 1 to {seating.players}")
    if seat in seating.bots:
        raise ApiError(422, f"seat {seat} is played by a bot: it has no link")
    token = secrets.token_urlsafe(24)
    await run_in_threadpool(store.reissue, match_id, seat, token)
    # Wake the match's event streams: the old link's ends at once, saying so.
    state.listeners.notify(match_id)
    base = state.settings.public_url or bound_url(request.scope)
    return Json({"seat": seat, "token": token, "url": f"{base}/play/{match_id}#token={token}"})


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
    """Refuse (403) a client-chosen seed or a test-only option: outside development
    mode, the server alone decides what is hidden."""
    if seed is not None:
        raise ApiError(403, f'a chosen "seed" {_DEV_ONLY}')
    try:
        title = state.registry.title(name)
    except UnknownTitle:
        return  # the hub answers that (404), naming the installed titles
    fixed = sorted(set(config) & title.test_only_options)
    if fixed:
        raise ApiError(403, f"the option {short(fixed[0])!r} is for tests only: it {_DEV_ONLY}")


#: A seat number as a key of ``"bots"``: ASCII digits only (``str.isdigit`` also
#: takes "²", which ``int`` refuses).
_SEAT_KEY = re.compile(r"[0-9]{1,6}")


def bot_seats(raw: Any) -> dict[int, str | None]:
    """``"bots"`` of a create request: ``[2, 3]`` or ``{"2": "random", "3": null}``."""
    if isinstance(raw, list):
        seats = [whole(s) for s in raw]
        if None in seats:
            raise ApiError(400, '"bots" must list seat numbers, e.g. [2, 3]')
        return dict.fromkeys(s for s in seats if s is not None)
    if isinstance(raw, dict):
        out: dict[int, str | None] = {}
        for key, name in raw.items():
            if not _SEAT_KEY.fullmatch(key):
                raise ApiError(400, f'"bots" keys must be seat numbers, got {short(key)!r}')
            if name is not None and not isinstance(name, str):
                raise ApiError(400, f'"bots" values must be bot names or null, got {kind(name)}')
            out[int(key)] = name or None
        return out
    raise ApiError(400, f'"bots" must be an array of seats or an object, got {kind(raw)}')


async def events(scope: Scope) -> EventStream:
    """``GET /api/matches/{match_id}/events``: the seat's payload after every change
    (see :class:`~gameweave_http.events.EventStream`)."""
    state = state_of(scope)
    match_id = scope["path_params"]["match_id"]
    live = await promptly(state.hub.get, match_id)
    token = read_token(scope, query=True)
    seat = await promptly(state.hub.seat, match_id, token)
    listeners = state.listeners
    entry = listeners.add(live.id)  # or a 429/503 when there are too many
    check = None if token is None else partial(still_seated, state, live.id, token, seat)
    return EventStream(
        state.hub,
        live,
        seat,
        entry,
        on_close=partial(listeners.remove, live.id, entry),
        still_valid=check,
    )


async def still_seated(state: AppState, match_id: str, token: str, seat: int | None) -> bool:
    """Whether ``token`` is still ``seat``'s: a seat's event stream asks before each
    chunk and ends once its token is reissued, so an old link learns nothing new."""
    store = state.store
    if store.tokens_cached(match_id):
        return store.seat_for(match_id, token) == seat
    return await run_in_threadpool(store.seat_for, match_id, token) == seat


# -- logs and replays ------------------------------------------------------------------------


async def match_log(request: Request) -> Response:
    """``GET /api/matches/{match_id}/log``: the TOML log of a finished match."""
    state = state_of(request.scope)
    match_id = request.path_params["match_id"]
    live = await run_in_threadpool(state.hub.get, match_id)

    def build() -> str:
        with live.lock:
            if not live.match.is_over:
                raise ApiError(
                    409,
                    "the match is not over: its log reveals every seat's secrets, "
                    "so it is given out only at the end",
                )
            try:
                return live.match.to_log().to_toml()
            except TitleError as exc:
                # The title replays this match differently: a log of it would not
                # replay, so none is given out (the detail goes to the server log).
                log.error("match %s: no log given out: %s", live.id, exc)
                raise ApiError(
                    503,
                    f"the log of match {live.id} does not replay with the installed "
                    f"{live.match.title.name} (a bug in the title), so it is not given out",
                ) from None

    text = await run_in_threadpool(build)
    filename = f"gameweave-{live.match.title.name}-{live.id}.toml"
    return Response(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def read_log(text: str) -> MatchLog:
    """A log sent to the replay route, or a 422 saying in one line what is wrong
    (the request is well formed: its log's content is refused).

    Besides :class:`LogError`, a TOML document can make the parser itself fail:
    nesting deeper than Python's recursion limit, an integer longer than Python
    converts from text; both are the sender's fault, never the server's."""
    try:
        return MatchLog.from_toml(text, source="the log")
    except LogError as exc:
        raise ApiError(422, str(exc)) from None
    except RecursionError:
        raise ApiError(422, "the log is not valid TOML: it is nested too deeply") from None
    except ValueError as exc:
        raise ApiError(422, f"the log is not valid TOML: {short(str(exc))}") from None


async def replay(request: Request) -> Response:
    """``POST /api/replay``: a log replayed to a step, seen as a seat or a spectator."""
    registry = state_of(request.scope).registry
    data = json_object(await read_json(request, MAX_LOG), "the body")
    check_keys(data, {"log", "step", "seat"}, "the body")
    text = data.get("log")
    if not isinstance(text, str):
        raise ApiError(400, f'"log" must be the text of a TOML log, got {kind(text)}')
    step = data.get("step")
    if step is not None and (step := whole(step)) is None:
        raise ApiError(400, f'"step" must be a whole number, got {kind(data.get("step"))}')
    seat = data.get("seat")
    if seat is not None and (seat := whole(seat)) is None:
        raise ApiError(400, f'"seat" must be a seat number or null, got {kind(data.get("seat"))}')

    def run() -> dict[str, Any]:
        log = read_log(text)
        total = len(log.actions)
        upto = total if step is None else step
        if not 0 <= upto <= total:
            raise ApiError(422, f"step must be between 0 and {total}, got {upto}")
        try:
            match = Match.from_log(log, upto=upto, registry=registry, source="the log")
        except LogError as exc:
            raise ApiError(422, str(exc)) from None
        if seat is not None and not 1 <= seat <= match.players:
            raise ApiError(422, f"there is no seat {seat}: seats are 1 to {match.players}")
        payload = match.payload(seat)
        payload["labels"] = labels(match, seat)
        return {
            "steps": total,
            "step": upto,
            "actions": [{"index": e.index, "seat": e.seat} for e in log.actions],
            "payload": payload,
        }

    return Json(await run_in_threadpool(run))


async def schema(request: Request) -> Response:
    """``GET /api/openapi.json``: the OpenAPI document of this server."""
    registry = state_of(request.scope).registry
    actions: dict[str, type] = {}
    for name in registry.names():
        actions.update(registry.title(name).codec.types)
    return Json(openapi.schema(registry.names(), actions))


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
        raise ApiError(404, f"no title named {short(name)!r} is installed") from None
    main = renderer_file(title)
    if main is None:
        raise ApiError(404, f"{name} ships no browser renderer")
    path = main if wanted == "renderer.js" else (main.parent / wanted).resolve()
    kind_ = WEB_TYPES.get(path.suffix)
    if not path.is_relative_to(main.parent) or kind_ is None or not path.is_file():
        raise ApiError(404, f"{name} has no web file {short(wanted)!r}")
    return FileResponse(path, media_type=kind_, headers={"Cache-Control": "no-cache"})


async def page(request: Request, name: str) -> Response:
    """A page of the browser client, from the static folder (the routes bind ``name``)."""
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
