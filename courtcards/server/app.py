"""The FastAPI application: HTTP API, WebSocket play and the browser pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from courtcards.bots.base import bot_kinds
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import game_names, get_game
from courtcards.server import hints, pages
from courtcards.server.db import Store
from courtcards.server.tables import ApiError, Client, Lobby, Settings, Table, dumps

log = logging.getLogger("courtcards.server")

STATIC_DIR = Path(__file__).parent / "static"
MARK_KEYS = (("hand_number", "Hand"), ("round", "Round"), ("turn_number", "Turn"))


class SeatSpec(BaseModel):
    type: Literal["human", "bot"]
    bot: str | None = Field(None, description="Bot kind for a bot seat (see GET /api/games); default random.")
    name: str | None = None


class CreateTable(BaseModel):
    game: str = Field(description="Game name, e.g. rank.")
    players: int | None = Field(None, description="Number of players (default: the game's default).")
    options: dict[str, Any] = Field(default_factory=dict)
    preset: str | None = None
    seats: list[SeatSpec] | None = Field(None, description="One per player (default: every seat human).")
    seed: int | None = Field(None, description="Deal seed (default: random).")
    bot_delay: float = Field(0.6, ge=0, le=30, description="Seconds a server-played seat waits before moving.")
    absent_timeout: float = Field(60, ge=0, le=86400,
                                  description="Seconds a human may be disconnected before a bot stands in.")
    move_time_limit: float | None = Field(None, gt=0, le=86400,
                                          description="Seconds per decision; then the seat's bot moves.")
    hints: bool | None = Field(None, description="The Hint button (default: on when a bot has a seat).")


class JoinTable(BaseModel):
    seat: int | None = Field(None, description="Seat to take (default: the first free human seat).")
    name: str | None = Field(None, max_length=64)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _page(name: str, static_dir: Path) -> Response:
    path = static_dir / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(
        f"<!doctype html><title>courtcards</title><h1>courtcards server</h1>"
        f"<p>The browser page <code>{name}</code> is not installed. The API is at <a href='/docs'>/docs</a>.</p>"
    )


def _game_info(name: str) -> dict[str, Any]:
    g = get_game(name)
    opts = [
        {
            "name": o.name,
            "kind": o.kind,
            "default": o.default_for(g.default_players),
            "doc": o.doc,
            "choices": list(o.choices),
            "minimum": o.minimum,
            "maximum": o.maximum,
            "optional": o.optional,
        }
        for o in g.options.options
    ]
    presets = {p: {"doc": g.options.preset_docs.get(p, ""), "values": dict(v)} for p, v in g.options.presets.items()}
    return {
        "name": g.name,
        "title": g.title,
        "min_players": g.min_players,
        "max_players": g.max_players,
        "default_players": g.default_players,
        "options": opts,
        "presets": presets,
        "bots": bot_kinds(g.name),
    }


def _marks(table: Table) -> list[dict[str, Any]]:
    views = [s.view(None) for s in table.states()]
    key = next((k for k in MARK_KEYS if k[0] in views[0]), None)
    if key is None:
        return []
    marks = []
    prev: Any = object()
    for step, view in enumerate(views):
        value = view.get(key[0])
        if value != prev and value is not None:
            marks.append({"label": f"{key[1]} {value}", "step": step})
        prev = value
    return marks


def _finished(table: Table) -> None:
    if not table.state.is_over():
        raise ApiError(403, "game_not_over", "the record is public once the game is over")


def create_app(database_url: str, static_dir: Path | None = None) -> FastAPI:
    """The server for one database (a SQLAlchemy URL); migrations run at startup."""
    static = static_dir or STATIC_DIR
    store = Store(database_url)
    lobby = Lobby(store)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.start)
        await asyncio.to_thread(lobby.load)
        lobby.start()
        try:
            yield
        finally:
            await lobby.stop()
            await asyncio.to_thread(store.close)

    app = FastAPI(title="courtcards server", version="1", lifespan=lifespan,
                  description="Tables of royal card games, played over WebSockets. See docs/server.md.")
    app.state.lobby = lobby

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_req: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors():
            loc = ".".join(str(x) for x in e.get("loc", ())[1:]) or "body"
            parts.append(f"{loc}: {e.get('msg')}")
        return _error(422, "bad_request", "; ".join(parts) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "bad_request"
        return _error(exc.status_code, code, str(exc.detail))

    # -- games ------------------------------------------------------------------------
    @app.get("/api/games", tags=["games"])
    async def list_games() -> dict[str, Any]:
        """Every game with its options, presets and bot kinds."""
        return {"games": [_game_info(n) for n in game_names()]}

    @app.get("/api/games/{name}/defaults", tags=["games"])
    async def game_defaults(name: str, players: int | None = None, preset: str | None = None) -> dict[str, Any]:
        """The option values a table of this size (and preset) gets."""
        try:
            g = get_game(name)
            return {"options": g.resolve_options(players or g.default_players, None, preset)}
        except CourtcardsError as exc:
            raise ApiError(422 if name in game_names() else 404, "bad_request", str(exc)) from None

    # -- tables -----------------------------------------------------------------------
    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create_table(body: CreateTable) -> dict[str, Any]:
        """Create a table; join its human seats with POST /api/tables/{id}/join."""
        settings = Settings(bot_delay=body.bot_delay, absent_timeout=body.absent_timeout,
                            move_time_limit=body.move_time_limit, hints=body.hints)
        seats = None if body.seats is None else [s.model_dump() for s in body.seats]
        table = await lobby.create(body.game, body.players, body.options, body.preset, seats, body.seed, settings)
        return {"table": table.info()}

    @app.get("/api/tables", tags=["tables"])
    async def list_tables(
        status: Literal["open", "playing", "finished", "all"] = Query("all"),
    ) -> dict[str, Any]:
        """Tables, newest first."""
        tables = sorted(lobby.tables.values(), key=lambda t: t.created, reverse=True)
        return {"tables": [t.info() for t in tables if status == "all" or t.status == status]}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """A table and its spectator view."""
        table = lobby.get(table_id)
        return {"table": table.info(), "view": table.state.view(None)}

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join_table(table_id: str, body: JoinTable | None = None) -> dict[str, Any]:
        """Take a free human seat; the token is shown once and acts for that seat."""
        body = body or JoinTable(seat=None, name=None)
        seat, token, table = await lobby.join(table_id, body.seat, body.name)
        return {"seat": seat, "token": token, "table": table.info()}

    @app.get("/api/tables/{table_id}/record", tags=["records"])
    async def get_record(table_id: str) -> JSONResponse:
        """The game record (courtcards/record JSON), once the game is over."""
        table = lobby.get(table_id)
        _finished(table)
        return JSONResponse(table.record().to_json(),
                            headers={"Content-Disposition": f'attachment; filename="courtcards-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay", tags=["records"])
    async def get_replay(table_id: str) -> dict[str, Any]:
        """The actions and result of a finished game, with marks at each hand (round, turn)."""
        table = lobby.get(table_id)
        _finished(table)
        return {
            "game": table.game.name,
            "players": table.state.num_players,
            "actions": [[s, t] for s, t in table.state.history],
            "result": table.result(),
            "marks": _marks(table),
        }

    @app.get("/api/tables/{table_id}/replay/{step}", tags=["records"])
    async def get_replay_step(table_id: str, step: int) -> dict[str, Any]:
        """The board after ``step`` actions (0: the start), with every card's place."""
        table = lobby.get(table_id)
        _finished(table)
        states = table.states()
        if not 0 <= step < len(states):
            raise ApiError(404, "bad_request", f"step must be 0..{len(states) - 1}, not {step}")
        st = states[step]
        action = None if step == 0 else list(table.state.history[step - 1])
        return {"step": step, "steps": len(states) - 1, "action": action, "view": st.view(None),
                "places": st.card_places()}

    # -- play ---------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        table = lobby.tables.get(table_id)
        if table is None:
            await websocket.send_text(dumps({"type": "error", "code": "table_not_found",
                                             "message": f"there is no table {table_id!r}", "version": None}))
            await websocket.close(4404)
            return
        seat = None
        if token is not None:
            seat = table.seat_for_token(token)
            if seat is None:
                await websocket.send_text(table.error("bad_token", "this token does not belong to a seat here"))
                await websocket.close(4401)
                return
        client = Client(seat, websocket.send_text)
        pump = asyncio.create_task(client.pump())
        table.attach(client)
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None and msg.get("bytes") is not None:
                    text = msg["bytes"].decode("utf-8", "replace")
                await _handle(table, client, text or "")
        except Exception as exc:  # the socket broke
            log.debug("table %s: connection ended: %r", table_id, exc)
        finally:
            table.detach(client)
            client.close()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(pump, 1.0)
            pump.cancel()

    async def _handle(table: Table, client: Client, text: str) -> None:
        try:
            msg = json.loads(text)
        except ValueError:
            client.push(table.error("bad_message", "messages are JSON objects"))
            return
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "ping":
            client.push('{"type":"pong"}')
            return
        if kind == "check":  # why a move would be refused, without making it
            text = msg.get("action")
            if not isinstance(text, str):
                client.push(table.error("bad_message", 'a check message needs "action" (text)'))
                return
            if client.seat is None:
                client.push(table.error("spectator", "spectators cannot act; join a seat to play"))
                return
            checked = table.check(client.seat, text)
            why = checked if isinstance(checked, tuple) else None
            client.push(json.dumps({
                "type": "check", "action": text, "version": table.state.version, "legal": why is None,
                "code": why[0] if why else None, "reason": why[2] if why else None,
            }))
            return
        if kind != "action":
            client.push(table.error("bad_message", f"unknown message type {kind!r}; expected action, check or ping"))
            return
        action, version = msg.get("action"), msg.get("version")
        if not isinstance(action, str) or not isinstance(version, int) or isinstance(version, bool):
            client.push(table.error("bad_message", 'an action message needs "action" (text) and "version" (int)'))
            return
        if client.seat is None:
            client.push(table.error("spectator", "spectators cannot act; join a seat to play"))
            return
        # Shielded: once the action is being committed it is applied and pushed, even if this socket drops.
        task = asyncio.ensure_future(table.act(client.seat, action, version))
        try:
            refused = await asyncio.shield(task)
        except Exception as exc:
            log.error("table %s: action not committed: %r", table.id, exc)
            client.push(table.error("server_error", "the action could not be stored; try again"))
            return
        if refused is not None:
            client.push(table.error(*refused))

    # -- pages --------------------------------------------------------------------------
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return _page("index.html", static)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return _page("table.html", static)

    @app.get("/join/{table_id}/{seat}", include_in_schema=False)
    async def join_page(table_id: str, seat: int) -> Response:
        return _page("join.html", static)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return _page("replay.html", static)

    app.include_router(pages.router)
    app.include_router(hints.router)
    return app
