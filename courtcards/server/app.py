"""The FastAPI application: HTTP API, WebSocket play and the browser pages."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator, Collection
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException as StarletteHTTPException

from courtcards.bots.base import bot_kinds
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import game_names, get_game, registered_games
from courtcards.server import browser, chat, gcwatch, hints, lessons, metrics, pages, players, quickplay
from courtcards.server.compute import Compute
from courtcards.server.db import Store
from courtcards.server.guards import Guard, RateLimits, ServerConfig, origin_allowed, rate_item
from courtcards.server.replay import Replays
from courtcards.server.schemas import (
    ActionMessage,
    ChatMessage,
    CheckMessage,
    CheckReply,
    DefaultsResponse,
    ErrorResponse,
    GameRecordFile,
    GamesResponse,
    JoinResponse,
    MuteMessage,
    PingMessage,
    ReplayResponse,
    TableList,
    TableResponse,
    UndoMessage,
    models,
    parse_client_message,
)
from courtcards.server.tables import (
    ApiError,
    Client,
    Lobby,
    LobbyConfig,
    Refused,
    Settings,
    Table,
    dumps,
    hash_token,
)
from courtcards.server.text import checked_text

log = logging.getLogger("courtcards.server")

STATIC_DIR = Path(__file__).parent / "static"
CONFIG_ENV = "COURTCARDS_SERVER"


# every text that may be stored is refused if it holds a control character, surrogate or non-character
Name = Annotated[str, StringConstraints(max_length=64), AfterValidator(checked_text)]
OptionValue = Name | bool | int | float | None


class SeatSpec(BaseModel):
    model_config = ConfigDict(strict=True)  # "3" is not 3

    type: Literal["human", "bot"]
    bot: str | None = Field(
        None, max_length=32, description="Bot kind for a bot seat (see GET /api/games); default random."
    )
    name: Name | None = None


class CreateTable(BaseModel):
    model_config = ConfigDict(strict=True)  # "3" is not 3

    game: str = Field(description="Game name, e.g. rank.", max_length=32)
    players: int | None = Field(None, ge=1, le=64, description="Number of players (default: the game's default).")
    options: dict[Name, OptionValue] = Field(default_factory=dict, max_length=64)
    preset: str | None = Field(None, max_length=64)
    seats: list[SeatSpec] | None = Field(None, max_length=64, description="One per player (default: every seat human).")
    private: bool | None = Field(None, description="Unlisted, joined by link only (default: when a seat is human).")
    seed: int | None = Field(None, description="Deal seed (default: random).")
    bot_delay: float = Field(0.6, ge=0, le=30, description="Seconds a server-played seat waits before moving.")
    absent_timeout: float = Field(
        60, ge=0, le=86400, description="Seconds a human may be disconnected before a bot stands in."
    )
    move_time_limit: float | None = Field(
        None, gt=0, le=86400, description="Seconds per decision; then the seat's bot moves."
    )
    hints: bool | None = Field(None, description="The Hint button (default: on when a bot has a seat).")
    rated: bool = Field(False, description="Rated: only signed-in accounts take its seats; the end rates them.")


class JoinTable(BaseModel):
    model_config = ConfigDict(strict=True)  # "3" is not 3

    seat: int | None = Field(None, description="Seat to take (default: the first free human seat).")
    name: Name | None = None


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


def _game_info(name: str, browser_modules: Collection[str] = ()) -> dict[str, Any]:
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
        "round_word": g.info.round_word,
        "browser_module": browser.module_url(g.name) if g.name in browser_modules else None,
        "lesson": lessons.lesson(g.name),
    }


def _finished(table: Table) -> None:
    if not table.state.is_over():
        raise ApiError(403, "game_not_over", "the record is public once the game is over")


def _address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def create_app(database_url: str, static_dir: Path | None = None, config: ServerConfig | None = None) -> FastAPI:
    """The server for one database (a SQLAlchemy URL); migrations run at startup."""
    static = static_dir or STATIC_DIR
    cfg = config or ServerConfig()
    store = Store(database_url)
    lobby = Lobby(store, cfg.lobby)
    queues = quickplay.QuickPlay(lobby)
    if cfg.compute_workers > 0:
        lobby.compute = Compute(cfg.compute_workers, cfg.compute_queue)
    lobby.max_search_tables = cfg.max_search_tables
    lobby.pace.rate = cfg.spectator_rate
    lobby.max_search_tables_per_address = cfg.max_search_tables_per_address
    rates = RateLimits(cfg, store.engine if store.shared else None)
    replays = Replays()
    chat_rate = rate_item(cfg.rate_chat)
    chat_per = float(chat_rate.get_expiry()) if chat_rate else 0.0
    spectators: dict[str, int] = {}  # address -> its spectator sockets
    # built now, from the games registered now: the API's models list every one of their views
    view_models = models()
    browser_modules = browser.modules(registered_games())

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.start)
        # each game's lesson table is measured by playouts: once, here, not in a request on the event loop
        await asyncio.to_thread(lambda: [lessons.lesson(n) for n in game_names()])
        await lobby.start()
        queues.start()
        freezer: gcwatch.Freezer | None = getattr(_app.state, "gc_freezer", None)
        if freezer is not None:
            freezer.start()  # after the tables are loaded: they are frozen first
        try:
            yield
        finally:
            if freezer is not None:
                await freezer.stop()
            queues.close()
            await lobby.stop()
            if lobby.compute is not None:
                lobby.compute.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="courtcards server",
        version="1",
        lifespan=lifespan,
        responses={"4XX": {"model": ErrorResponse, "description": "Refused: a typed error code"}},
        description="Tables of royal card games, played over WebSockets. See docs/server.md.",
    )
    app.state.lobby = lobby
    app.state.config = cfg
    app.state.replays = replays
    app.state.quickplay = queues
    app.state.rates = rates  # routers may count requests too: await app.state.rates.check("create", address)
    app.add_middleware(
        Guard,
        max_body=cfg.max_body,
        allowed_hosts=cfg.allowed_hosts,
        rates=rates,
        max_inflight=cfg.max_inflight,
        max_head=cfg.max_head,
    )

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
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
        return _error(exc.status_code, code, str(exc.detail))

    # -- games ------------------------------------------------------------------------
    @app.get("/api/games", tags=["games"], response_model=GamesResponse)
    async def list_games() -> dict[str, Any]:
        """Every game with its options, presets and bot kinds."""
        return {"games": [_game_info(n, browser_modules) for n in game_names()]}

    @app.get("/api/games/{name}/defaults", tags=["games"], response_model=DefaultsResponse)
    async def game_defaults(
        name: str, players: int | None = Query(None, ge=0, le=1000), preset: str | None = Query(None, max_length=64)
    ) -> dict[str, Any]:
        """The option values a table of this size (and preset) gets."""
        try:
            g = get_game(name)
            return {"options": g.resolve_options(g.default_players if players is None else players, None, preset)}
        except CourtcardsError as exc:
            raise ApiError(422 if name in game_names() else 404, "bad_request", str(exc)) from None

    # -- tables -----------------------------------------------------------------------
    @app.post("/api/tables", status_code=201, tags=["tables"], response_model=TableResponse)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; join its human seats with POST /api/tables/{id}/join."""
        await rates.check("create", _address(request))
        if body.rated and await players.acting_account(request) is None:
            raise ApiError(403, "account_needed", "sign in to make a rated table")
        settings = Settings(
            bot_delay=body.bot_delay,
            absent_timeout=body.absent_timeout,
            move_time_limit=body.move_time_limit,
            hints=body.hints,
            rated=body.rated,
        )
        seats = None if body.seats is None else [s.model_dump() for s in body.seats]
        owner_key = secrets.token_urlsafe(24)
        table = await lobby.create(
            body.game,
            body.players,
            dict(body.options),
            body.preset,
            seats,
            body.seed,
            settings,
            body.private,
            owner_hash=hash_token(owner_key),
            creator=_address(request),
        )
        return {"table": table.info(), "owner_key": owner_key}

    @app.get("/api/tables", tags=["tables"], response_model=TableList)
    async def list_tables(
        status: Literal["open", "playing", "finished", "all"] = Query("all"),
        game: str | None = Query(None, max_length=32, description="Only this game's tables."),
        limit: int = Query(50, ge=1, le=200, description="Tables per page."),
        offset: int = Query(0, ge=0, le=1_000_000, description="Tables to skip."),
    ) -> dict[str, Any]:
        """Listed tables (private ones never are), newest first, one page at a time."""
        tables, total = await lobby.listing(None if status == "all" else status, game, limit, offset)
        more = offset + len(tables) < total
        return {"tables": tables, "total": total, "offset": offset, "next": offset + len(tables) if more else None}

    @app.get("/api/tables/{table_id}", tags=["tables"], response_model=view_models.table_with_view)
    async def get_table(table_id: str) -> dict[str, Any]:
        """A table and its spectator view."""
        table = await lobby.get(table_id)
        return {"table": table.info(), "view": table.state.view(None)}

    @app.post("/api/tables/{table_id}/join", tags=["tables"], response_model=JoinResponse)
    async def join_table(table_id: str, request: Request, body: JoinTable | None = None) -> dict[str, Any]:
        """Take a free human seat; the token is shown once and acts for that seat."""
        await rates.check("join", _address(request))
        body = body or JoinTable(seat=None, name=None)
        account = await players.acting_account(request)  # signed in: the seat is the account's
        table = await lobby.get(table_id)
        if table.settings.rated:
            if account is None:
                raise ApiError(403, "account_needed", "rated tables are for accounts: sign in to take a seat")
            if any(s.account_id == account.id for s in table.seats):
                raise ApiError(409, "already_seated", "this account has a seat at this rated table already")
        seat, token, table = await lobby.join(table_id, body.seat, body.name, None if account is None else account.id)
        return {"seat": seat, "token": token, "table": table.info()}

    @app.get("/api/tables/{table_id}/record", tags=["records"], response_model=GameRecordFile)
    async def get_record(table_id: str) -> JSONResponse:
        """The game record (courtcards/record JSON), once the game is over."""
        table = await lobby.get(table_id)
        _finished(table)
        return JSONResponse(
            table.record().to_json(),
            headers={"Content-Disposition": f'attachment; filename="courtcards-{table_id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay", tags=["records"], response_model=ReplayResponse)
    async def get_replay(table_id: str) -> dict[str, Any]:
        """The actions and result of a finished game, with marks at each hand (round, turn)."""
        table = await lobby.get(table_id)
        _finished(table)
        replay = await replays.get(table.id, table.state)
        return {
            "game": table.game.name,
            "players": table.state.num_players,
            "actions": [[s, t] for s, t in replay.actions],
            "result": table.result(),
            "marks": replay.marks,
        }

    @app.get("/api/tables/{table_id}/replay/{step}", tags=["records"], response_model=view_models.replay_step)
    async def get_replay_step(table_id: str, step: int) -> dict[str, Any]:
        """The board after ``step`` actions (0: the start), with every card's place."""
        table = await lobby.get(table_id)
        _finished(table)
        steps = table.state.version
        if not 0 <= step <= steps:
            raise ApiError(404, "bad_request", f"step must be 0..{steps}, not {step}")
        st = await replays.state_at(table.id, table.state, step)
        action = None if step == 0 else list(table.state.history[step - 1])
        return {"step": step, "steps": steps, "action": action, "view": st.view(None), "places": st.card_places()}

    # -- play ---------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()

        async def refuse(code: str, message: str, close: int, version: int | None = None) -> None:
            await websocket.send_text(
                dumps(
                    {
                        "type": "error",
                        "code": code,
                        "message": message,
                        "version": version,
                        "reason_code": None,
                        "reason_data": None,
                    }
                )
            )
            await websocket.close(close, reason=code)

        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), cfg.allowed_origins):
            await refuse("bad_origin", "connections from pages of other sites are refused", 4403)
            return
        try:
            await rates.check("connect", _address(websocket))
            table = await lobby.find(table_id)
        except ApiError as exc:
            await refuse(exc.code, exc.message, 4429 if exc.status == 429 else 4503)
            return
        if table is None:
            await refuse("table_not_found", f"there is no table {table_id[:32]!r}", 4404)
            return
        seat = None
        if token is not None:
            seat = table.seat_for_token(token[:128])
            if seat is None:
                await refuse("bad_token", "this token does not belong to a seat here", 4401, table.state.version)
                return

        address = _address(websocket)
        if seat is None:
            watching = sum(1 for c in table.conns if c.seat is None)
            if cfg.max_spectators and watching >= cfg.max_spectators:
                await refuse("too_many_spectators", f"this table has {watching} spectators already", 4429)
                return
            if cfg.max_spectators_per_address and spectators.get(address, 0) >= cfg.max_spectators_per_address:
                why = f"at most {cfg.max_spectators_per_address} spectator connections per address"
                await refuse("too_many_spectators", why, 4429)
                return
            spectators[address] = spectators.get(address, 0) + 1

        dropped: list[str] = []
        pump: asyncio.Task[None] | None = None

        def on_drop(reason: str) -> None:
            dropped.append(reason)
            if pump is not None:
                pump.cancel()  # it may be stuck sending

        client = Client(
            seat,
            websocket.send_text,
            max_queue=cfg.max_queue,
            send_timeout=cfg.send_timeout,
            on_drop=on_drop,
            behind=Client.BEHIND if seat is not None else 1,  # a spectator keeps only the newest state waiting
        )
        pump = asyncio.create_task(client.pump())
        table.attach(client)
        # Its moves are heard at once, while its channel's last chat messages are read (its other messages
        # wait for them, so their answers come after): a reconnection burst's moves never queue behind the
        # chat's reads.
        greeting = asyncio.create_task(chat.greet(table, client))
        receiver = asyncio.create_task(_receive(websocket, table, client, greeting))
        try:
            await asyncio.wait([pump, receiver], return_when=asyncio.FIRST_COMPLETED)
        finally:
            table.detach(client)
            client.close()
            greeting.cancel()
            if dropped:  # too slow: say why, if the socket still takes it
                log.info("table %s: a connection was dropped: %s", table.id, dropped[0])
                receiver.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(websocket.close(4408, reason=dropped[0][:120]), 5.0)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(pump, 1.0)
            pump.cancel()
            receiver.cancel()
            if seat is None:
                left = spectators[address] - 1
                if left:
                    spectators[address] = left
                else:
                    del spectators[address]

    async def _receive(websocket: WebSocket, table: Table, client: Client, greeting: asyncio.Task[None]) -> None:
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                text = msg.get("text")
                if text is None and msg.get("bytes") is not None:
                    text = msg["bytes"].decode("utf-8", "replace")
                text = text or ""
                if len(text) > cfg.max_message:
                    client.push(table.error("bad_message", f"messages are at most {cfg.max_message} bytes"))
                    continue
                await _handle(table, client, text, greeting)
        except Exception as exc:  # the socket broke
            log.debug("table %s: connection ended: %s", table.id, type(exc).__name__)

    async def _handle(table: Table, client: Client, text: str, greeting: asyncio.Task[None]) -> None:
        try:
            msg = parse_client_message(text, cfg.max_action)
        except ValueError as exc:
            client.push(table.error("bad_message", str(exc)))
            return
        if not isinstance(msg, ActionMessage) and not greeting.done():
            await asyncio.wait([greeting])
        if isinstance(msg, PingMessage):
            client.push('{"type":"pong"}')
            return
        if isinstance(msg, ChatMessage):
            refused_chat = await chat.say(table, client, msg.text, chat_rate.amount if chat_rate else 0, chat_per)
            if refused_chat is not None:
                client.push(refused_chat)
            return
        if isinstance(msg, MuteMessage):
            refused_mute = await chat.mute(table, msg.owner[:128], msg.seat, msg.muted)
            if refused_mute is not None:
                client.push(refused_mute)
            return
        if client.seat is None:
            client.push(table.error("spectator", "spectators cannot act; join a seat to play"))
            return
        if isinstance(msg, CheckMessage):  # why a move would be refused, without making it
            checked = table.check(client.seat, msg.action)
            why = checked if isinstance(checked, Refused) else None
            client.push(
                CheckReply(
                    type="check",
                    action=msg.action,
                    version=table.state.version,
                    legal=why is None,
                    code=why.code if why else None,
                    reason=why.reason if why else None,
                    reason_code=why.reason_code if why else None,
                    reason_data=why.reason_data if why else None,
                ).model_dump_json()
            )
            return
        if isinstance(msg, UndoMessage):
            undone = await table.undo(client.seat)
            if undone is not None:
                client.push(table.refusal(undone))
            return
        action, version = msg.action, msg.version
        # Shielded: once the action is being committed it is applied and pushed, even if this socket drops.
        task = asyncio.ensure_future(table.act(client.seat, action, version))
        try:
            refused = await asyncio.shield(task)
        except Exception as exc:  # the type only: a database error's text could show the action
            log.error("table %s: action not committed: %s", table.id, type(exc).__name__)
            client.push(table.error("server_error", "the action could not be stored; try again"))
            return
        if refused is not None:
            client.push(table.refusal(refused))

    # -- pages --------------------------------------------------------------------------
    @app.get(browser.URL_PREFIX + "{name}.js", include_in_schema=False)
    async def game_module(name: str) -> Response:
        """A game's browser renderer, from the game's package (only a registered game's own file)."""
        found = browser_modules.get(name)
        if found is None:
            raise ApiError(404, "not_found", f"no browser module for {name[:64]!r}")
        return Response(
            found.read_bytes(), media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"}
        )

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
    app.include_router(players.router)
    app.include_router(hints.router)
    app.include_router(quickplay.router)
    metrics.install(app, lobby, spectators)
    app.include_router(metrics.router)
    return app


def dump_config(url: str, config: ServerConfig, log_level: str, log_format: str = "text") -> str:
    return json.dumps(
        {"url": url, "log_level": log_level, "log_format": log_format, "config": dataclasses.asdict(config)}
    )


def app_from_env() -> FastAPI:
    """The app of one worker process of ``courtcards serve --workers N`` (settings in $COURTCARDS_SERVER)."""
    from courtcards.server.logs import setup_logging

    data = json.loads(os.environ[CONFIG_ENV])
    setup_logging(data["log_level"], data.get("log_format", "text"))
    cfg = dict(data["config"])
    cfg["lobby"] = LobbyConfig(**cfg["lobby"])
    cfg["allowed_origins"] = tuple(cfg["allowed_origins"])
    cfg["allowed_hosts"] = tuple(cfg["allowed_hosts"])
    from courtcards.server.conns import GuardedH11

    cfg["proxies"] = tuple(cfg["proxies"])
    GuardedH11.max_per_address, GuardedH11.head_timeout = cfg["max_connections"], cfg["head_timeout"]
    GuardedH11.proxies = frozenset(cfg["proxies"])
    return frozen(create_app(data["url"], config=ServerConfig(**cfg)))


def frozen(app: FastAPI) -> FastAPI:
    """``app``, after moving every object made so far (the imports: about 100,000) out of reach of the
    garbage collector: its full collections, which pause the event loop, need not walk them again.
    Once started, the app keeps freezing what survives (:class:`gcwatch.Freezer`, every
    $COURTCARDS_GC_FREEZE_EVERY seconds, 0: never), so the tables loaded and played stay out of
    reach too."""
    gc.freeze()
    gcwatch.FREEZER.every = gcwatch.freeze_every()
    app.state.gc_freezer = gcwatch.FREEZER
    return app
