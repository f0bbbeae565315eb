"""The HTTP API's routes (see :mod:`cherki.server.app` for the list): each finds the
:class:`~cherki.server.service.Server` (``app.state.server``) and the table, and hands it
what the client asked; heavy work goes to the server's heavy requests' process."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Literal

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from cherki.bots import levels_for
from cherki.bots.shipped import shipped_players
from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.core.options import Option
from cherki.games import GAMES
from cherki.i18n import DEFAULT, choice_key, normalise, option_key, preset_key, words
from cherki.server import chat
from cherki.server import origin as reach
from cherki.server.service import Server
from cherki.server.settings import MAX_HANDS, MAX_PACE, MAX_TIMER, MAX_WAIT, MIN_TIMER, SeatPlan
from cherki.server.store import FINISHED
from cherki.server.stored import record_job, replay_job, replay_json
from cherki.server.tables import Table
from cherki.server.words import said

router = APIRouter()

#: The most seats any game takes (Balik Satu's 20); each game checks its own bounds.
MAX_SEATS = max(g.players[1] for g in GAMES.values())


class SeatIn(BaseModel):
    kind: Literal["human", "bot"]
    level: str | None = Field(default=None, max_length=16)


class TableIn(BaseModel):
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=40)
    seats: list[SeatIn] = Field(min_length=2, max_length=MAX_SEATS)
    hands: int = Field(default=1, ge=1, le=MAX_HANDS)
    timer: int | None = Field(default=None, ge=MIN_TIMER, le=MAX_TIMER)
    #: whether the lobby lists the table for anyone to watch (off: only its links reach it)
    listed: bool = False
    #: whether people may ask for a hint (None: off at a table that plays for money)
    hints: bool | None = None
    #: seconds between the bots' actions while a person watches (None: 0.8)
    bot_pace: float | None = Field(default=None, ge=0, le=MAX_PACE)
    #: whether the next hand waits for every person's "next hand" (None: yes)
    pause: bool | None = None


class SettingsIn(BaseModel):
    """The settings the host changes (those left out stay as they are)."""

    hints: bool | None = None
    bot_pace: float | None = Field(default=None, ge=0, le=MAX_PACE)
    pause: bool | None = None
    #: 0: no turn timer
    timer: int | None = Field(default=None, ge=0, le=MAX_TIMER)
    #: seconds the table plays on with none of its people there, before it pauses
    wait: int | None = Field(default=None, ge=0, le=MAX_WAIT)


class NameIn(BaseModel):
    name: str = Field(max_length=40)


class ChatIn(BaseModel):
    #: whether the table's spectators read its chat
    spectators: bool


class TakeSeat(BaseModel):
    token: str = Field(max_length=64)
    name: str = Field(max_length=40)


def _kind(option: Option) -> str:
    """``bool``, ``choice``, ``int`` or ``text``: which input a form gives the option."""
    if option.kind is bool:
        return "bool"
    if option.choices:
        return "choice"
    return "int" if option.kind is int else "text"


def games_json(lang: str = DEFAULT) -> list[dict[str, JSON]]:
    """What the lobby offers for each game, its presets' and options' titles and
    descriptions in ``lang`` (the catalogues' ``preset.*`` and ``option.*``: see
    :func:`cherki.i18n.option_key`)."""
    w = words(lang)
    out: list[dict[str, JSON]] = []
    for g in GAMES.values():
        out.append(
            {
                "name": g.name,
                "title": g.title,
                "players": list(g.players),
                "default_players": g.default_players,
                "presets": [
                    {
                        "name": p.name,
                        "title": w.t(preset_key(g.name, p.name, "title")),
                        "summary": w.t(preset_key(g.name, p.name, "about")),
                        "sources": p.sources,
                    }
                    for p in g.presets
                ],
                "default_preset": g.default_preset().name,
                "options": [
                    {
                        "name": o.name,
                        "title": w.t(option_key(g.name, o.name, "title")),
                        "summary": w.t(option_key(g.name, o.name, "about")),
                        "kind": _kind(o),
                        "type": o.type_name,
                        "choices": list(o.choices),
                        "labels": [w.t(choice_key(o.name, c)) for c in o.choices],
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                        "optional": o.optional,
                        "default": getattr(g.default_preset().rules, o.name, o.default),
                    }
                    for o in g.options
                ],
                "levels": list(levels_for(g.name)),
                # the table sizes a learned model ships for (the lobby offers it only there)
                "learned_players": shipped_players(g.name),
            }
        )
    return out


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def address(request: Request) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client is not None else "unknown"


@router.get("/api/games", response_model=None)
async def games(lang: str | None = None) -> list[dict[str, JSON]]:
    """The games (``?lang=ms``: their presets' and options' words in that language; one
    cherki does not speak: English)."""
    return games_json(normalise(lang) or DEFAULT)


@router.post("/api/tables", response_model=None)
async def create(body: TableIn, request: Request, lang: str | None = None) -> dict[str, JSON]:
    srv = _server(request)
    if srv.tables.playing >= srv.limits.live_tables:
        raise HTTPException(429, "this server holds as many tables as it can: try later")
    refused = srv.gate.refuse_table(address(request))
    if refused is not None:
        raise HTTPException(429, refused)
    plans = [SeatPlan(s.kind, s.level) for s in body.seats]
    try:
        table_id, tokens, host = await asyncio.to_thread(
            partial(
                srv.tables.create,
                body.game,
                body.preset,
                dict(body.options),
                plans,
                body.hands,
                body.timer,
                body.listed,
                hints=body.hints,
                bot_pace=body.bot_pace,
                pause=body.pause,
            )
        )
    except CherkiError as err:
        raise HTTPException(400, said(err, normalise(lang) or DEFAULT)) from None
    srv.tables.live[table_id].wake(srv.thinker)
    srv.listing_changed()
    made: dict[str, JSON] = {
        "table": table_id,
        "seats": {str(s): t for s, t in tokens.items()},
        "links": {str(s): f"/seat/{t}" for s, t in tokens.items()},
        "watch": f"/ws/watch/{table_id}",
        "watch_page": f"/watch/{table_id}",
        "host": host,
        "host_page": f"/host/{host}",
    }
    if srv.public:
        made |= reach.absolute_links(srv.public, made)
        made["host_page_url"] = srv.public + f"/host/{host}"
    return made


@router.get("/api/tables", response_model=None)
async def listing(request: Request) -> list[dict[str, JSON]]:
    return await _server(request).listing()


@router.post("/api/seats", response_model=None)
async def take(body: TakeSeat, request: Request) -> dict[str, JSON]:
    srv = _server(request)
    try:
        table_id, seat = await asyncio.to_thread(srv.store.seat_of, body.token)
        table = await srv.find(table_id)  # first: another process may own it (it answers)
        table_id, seat = await asyncio.to_thread(srv.store.take_seat, body.token, body.name)
    except CherkiError as err:
        raise HTTPException(400, str(err)) from None
    async with table.lock:
        table.rename(seat, body.name.strip())
        table.tell()
    srv.listing_changed()
    return {"table": table_id, "seat": seat}


@router.get("/api/seat/{token}", response_model=None)
async def seat_info(token: str, request: Request) -> dict[str, JSON]:
    store = _server(request).store

    def look() -> dict[str, JSON]:
        table_id, seat = store.seat_of(token)
        info = store.table(table_id)
        return {
            "table": table_id,
            "seat": seat,
            "game": info.game,
            "name": info.seats[seat].name,
            "status": info.status,
        }

    try:
        return await asyncio.to_thread(look)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None


# -- the host's link ----------------------------------------------------------------------------
@router.get("/api/host/{token}", response_model=None)
async def host_info(token: str, request: Request) -> dict[str, JSON]:
    """The host's view of a table: every seat with its link and name."""
    try:
        return await asyncio.to_thread(_server(request).host_view, token)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None


async def _hosted(srv: Server, token: str) -> Table:
    try:
        table_id = await asyncio.to_thread(srv.store.host_of, token)
        return await srv.find(table_id)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None


@router.post("/api/host/{token}/seats/{seat}/name", response_model=None)
async def host_rename(token: str, seat: int, body: NameIn, request: Request) -> dict[str, JSON]:
    """The host names a person's seat; everyone at the table is told."""
    srv = _server(request)
    table = await _hosted(srv, token)
    try:
        await asyncio.to_thread(srv.store.rename_seat, table.id, seat, body.name)
    except CherkiError as err:
        raise HTTPException(400, str(err)) from None
    async with table.lock:
        table.rename(seat, body.name.strip())
        table.tell()
    return {"table": table.id, "seat": seat, "name": body.name.strip()}


@router.post("/api/host/{token}/seats/{seat}/reissue", response_model=None)
async def host_reissue(token: str, seat: int, request: Request) -> dict[str, JSON]:
    """A new link for a person's seat: the old one stops working, and whoever holds it is
    told so and disconnected."""
    srv = _server(request)
    table = await _hosted(srv, token)
    try:
        fresh = await asyncio.to_thread(srv.store.reissue, table.id, seat, token)
    except CherkiError as err:
        raise HTTPException(400, str(err)) from None
    for conn in [c for c in table.connections if c.seat == seat]:
        conn.drop("the host gave this seat a new link: ask them for it", reconnect=False)
    link = f"/seat/{fresh}"
    return {"table": table.id, "seat": seat, "link": link, "url": (srv.public or "") + link}


@router.post("/api/host/{token}/settings", response_model=None)
async def host_settings(
    token: str, body: SettingsIn, request: Request, lang: str | None = None
) -> dict[str, JSON]:
    """The host changes the table's settings (hints, the bots' pace, the pause after a
    hand, the turn timer: 0 turns it off); everyone at the table is told. ``lang``: the
    language of a refusal."""
    srv = _server(request)
    table = await _hosted(srv, token)
    changes = body.model_dump(exclude_none=True)
    if "timer" in changes and changes["timer"] == 0:
        changes["timer"] = None
    try:
        await table.change(changes, srv.thinker)
    except CherkiError as err:
        raise HTTPException(400, said(err, normalise(lang) or DEFAULT)) from None
    srv.listing_changed()
    return {"table": table.id, "settings": table.view(None)["settings"]}


@router.post("/api/host/{token}/again", response_model=None)
async def host_again(token: str, request: Request, lang: str | None = None) -> dict[str, JSON]:
    """The host starts another match at the table (once the match is over; ``lang``: the
    language of a refusal)."""
    srv = _server(request)
    table = await _hosted(srv, token)
    try:
        await table.another(None, srv.thinker)
    except CherkiError as err:
        raise HTTPException(400, said(err, normalise(lang) or DEFAULT)) from None
    srv.listing_changed()
    return {"table": table.id, "match": table.number}


@router.post("/api/host/{token}/next", response_model=None)
async def host_next(token: str, request: Request) -> dict[str, JSON]:
    """The host deals the next hand without waiting for everyone's "next hand"."""
    srv = _server(request)
    table = await _hosted(srv, token)
    await table.deal_now(srv.thinker)
    return {"table": table.id, "hand": len(table.session.match.results)}


@router.get("/api/host/{token}/chat", response_model=None)
async def host_chat(token: str, request: Request) -> dict[str, JSON]:
    """The table's chat settings: whether its spectators read the chat."""
    table = await _hosted(_server(request), token)
    return {"table": table.id, "spectators": chat.spectators_read(table)}


@router.post("/api/host/{token}/chat", response_model=None)
async def host_chat_set(token: str, body: ChatIn, request: Request) -> dict[str, JSON]:
    """The host lets the table's spectators read its chat (or stops them); the spectators
    connected now are told."""
    srv = _server(request)
    table = await _hosted(srv, token)
    try:
        await chat.set_spectators(table, body.spectators, srv.store, srv.limits)
    except CherkiError as err:
        raise HTTPException(400, str(err)) from None
    return {"table": table.id, "spectators": chat.spectators_read(table)}


# -- records and replays --------------------------------------------------------------------------
@router.get("/api/tables/{table_id}/record")
async def download(
    table_id: str, request: Request, token: str | None = None, match: int | None = None
) -> Response:
    """The record of the match in play (or of an earlier match of the table: ``match``,
    from 0, finished, so whole)."""
    srv = _server(request)
    try:
        seat = None
        if token is not None:
            owner, seat = await asyncio.to_thread(srv.store.seat_of, token)
            if owner != table_id:
                raise CherkiError("this link holds no seat at that table")
        table = await srv.find(table_id)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    number = table.number
    if match is not None and match != number and not 0 <= match < number:
        raise HTTPException(404, words(DEFAULT).t("error.no_match", played=number + 1, match=match))
    asked = number if match is None else match
    # the same record for the same viewer is worked out once per version of the table (an
    # earlier match, finished, once): read, kept to what the viewer may see and written
    # out in the heavy requests' process (server/stored.py), nothing of it here
    live = asked == number
    key = ("record", table_id, table.version if live else None, asked, seat)
    kept = srv.heavy.answer(key)
    if isinstance(kept, str):
        data = kept
    else:
        with srv.heavy.slot(address(request)):  # before any work (429/503 in words)
            players = list(table.session.match.record.players) if live else None
            status, data, version = await srv.heavy.work(
                record_job, srv.store.url, table_id, asked, seat, players
            )
        if status != 200:
            raise HTTPException(status, data)
        key = ("record", table_id, version if live else None, asked, seat)
        srv.heavy.keep(key, data)
    who = "" if seat is None else f"-seat{seat}"
    which = "" if match is None else f"-match{match + 1}"
    name = f"cherki-{table.session.game.name}-{table_id[:8]}{which}{who}.json"
    return Response(
        data,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


#: why a match still in play has no replay
STILL_PLAYED = "this table is still being played: its replay opens when the match is over"


@router.get("/api/tables/{table_id}/replay")
async def table_replay(
    table_id: str, request: Request, match: int | None = None, lang: str | None = None
) -> Response:
    """A finished match's replay: every hand face up, step by step (``match``: which of
    the table's matches, from 0; default the last. A match still in play: 403)."""
    srv = _server(request)
    await srv.current()  # a process woken from a stop looks at its leases first
    table = srv.tables.live.get(table_id)
    if table is not None and table.status != FINISHED and match in (None, table.number):
        # a match this process is playing: refused from what it holds, nothing read
        raise HTTPException(403, STILL_PLAYED)
    try:
        info = await asyncio.to_thread(srv.store.table, table_id)
        played = len(await asyncio.to_thread(srv.store.matches, table_id)) + 1
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    which = played - 1 if match is None else match
    if not 0 <= which < played:
        raise HTTPException(404, words(lang).t("error.no_match", played=played, match=match))
    if which == played - 1 and info.status != FINISHED:
        raise HTTPException(403, STILL_PLAYED)
    key = ("replay", table_id, which, normalise(lang))
    kept = srv.heavy.answer(key)
    if isinstance(kept, tuple):
        status, out = kept
    else:
        with srv.heavy.slot(address(request)):  # read and worked out in the heavy process
            status, out = await srv.heavy.work(
                replay_job, srv.store.url, table_id, which, normalise(lang)
            )
        if status in (200, 400):
            srv.heavy.keep(key, (status, out))
    if status != 200:
        raise HTTPException(status, out)
    return Response(out, media_type="application/json")


@router.post("/api/replay")
async def replay_upload(request: Request, lang: str | None = None) -> Response:
    """The frames of a record sent as the request's body (JSON, at most 1 MB), worked out
    in the heavy requests' process."""
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, "a record is UTF-8 JSON text") from None
    status, out = await _server(request).heavy.run_for(
        address(request), replay_json, text, None, normalise(lang)
    )
    if status != 200:
        raise HTTPException(status, out)
    return Response(out, media_type="application/json")
