"""Tables at run time: engine states in memory, the database as their durable log.

Every change to a table happens under the table's lock: check, commit to the
database, apply to the in-memory state, then push each connection the view
of its own seat. Bots (and stand-ins for absent humans, and seats whose move
time ran out) are played by one driver task per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from courtcards.bots.base import Bot, bot_kinds, bot_move, make_bot
from courtcards.core.errors import (
    CourtcardsError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
)
from courtcards.core.game import Game, get_game
from courtcards.core.record import GameRecord
from courtcards.core.state import Action, State
from courtcards.server.db import Store, StoredTable, actions_t, seats_t, tables_t

log = logging.getLogger("courtcards.server")

ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
SEED_LIMIT = 2**63


class ApiError(Exception):
    """A refusal with a typed code, an HTTP status and a message for the client."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


@dataclass
class Seat:
    seat: int
    type: str  # "human" or "bot"
    bot: str | None
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    gone_since: float = 0.0
    stand_in: bool = False

    @property
    def taken(self) -> bool:
        return self.type == "bot" or self.token_hash is not None

    def info(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "type": self.type,
            "bot": self.bot,
            "name": self.name,
            "taken": self.taken,
            "connected": self.type == "bot" or self.connections > 0,
            "stand_in": self.stand_in,
        }


@dataclass
class Settings:
    bot_delay: float = 0.6
    absent_timeout: float = 60.0
    move_time_limit: float | None = None
    hints: bool | None = None  # the Hint button; None: on when a bot has a seat

    def to_json(self) -> dict[str, Any]:
        return {"bot_delay": self.bot_delay, "absent_timeout": self.absent_timeout,
                "move_time_limit": self.move_time_limit, "hints": self.hints}


class Client:
    """One WebSocket: a seat (or None for a spectator) and an outgoing queue."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]]) -> None:
        self.seat = seat
        self._send = send
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def push(self, text: str) -> None:
        if not self.closed:
            self.queue.put_nowait(text)

    async def pump(self) -> None:
        """Send queued messages in order until closed."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self._send(text)

    def close(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)


@dataclass
class Table:
    id: str
    game: Game[Any]
    state: State
    seats: list[Seat]
    settings: Settings
    created: float
    store: Store
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    conns: set[Client] = field(default_factory=set)
    decision_start: dict[int, float] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    _states_cache: list[State] | None = None

    # -- description ----------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.state.is_over():
            return "finished"
        if any(not s.taken for s in self.seats):
            return "open"
        return "playing"

    def to_move(self) -> list[int]:
        return list(self.state.to_move()) if self.status == "playing" else []

    def result(self) -> dict[str, Any] | None:
        res = self.state.result()
        return None if res is None else res.to_json()

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.state.num_players,
            "options": dict(self.state.options),
            "status": self.status,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.created)),
            "seats": [s.info() for s in self.seats],
            "version": self.state.version,
            "to_move": self.to_move(),
            "settings": self.settings.to_json(),
            "result": self.result(),
        }

    def deadline(self, seat: int) -> float | None:
        limit = self.settings.move_time_limit
        start = self.decision_start.get(seat)
        if limit is None or start is None or self.seats[seat].type != "human" or self.seats[seat].stand_in:
            return None
        return start + limit

    def message(self, seat: int | None) -> str:
        """The push for one seat (or a spectator): its view and nothing else about the game."""
        return self._messages([seat])[seat]

    def _messages(self, seats: list[int | None]) -> dict[int | None, str]:
        # The parts every seat shares are encoded once; the view, legal actions and deadline per seat.
        status = self.status
        to_move = list(self.state.to_move()) if status == "playing" else []
        deadlines = {s: self.deadline(s) for s in to_move} if self.settings.move_time_limit else {}
        known = [d for d in deadlines.values() if d is not None]
        first = min(known) if known else None
        head = f'{{"type":"state","table":{dumps(self.id)},"version":{self.state.version},'
        tail = (f'"to_move":{dumps(to_move)},"seats":{dumps([s.info() for s in self.seats])},'
                f'"status":{dumps(status)},"result":{dumps(self.result())},')
        out: dict[int | None, str] = {}
        for seat in seats:
            mine = seat is not None and seat in to_move
            legal = [a.text for a in self.state.legal_actions(seat)] if mine and seat is not None else []
            deadline = deadlines.get(seat) if mine and seat is not None else first
            due = "null" if deadline is None else f"{deadline:.3f}"
            out[seat] = (f'{head}"seat":{dumps(seat)},"view":{dumps(self.state.view(seat))},'
                         f'"legal":{dumps(legal)},{tail}"deadline":{due}}}')
        return out

    def error(self, code: str, message: str) -> str:
        return dumps({"type": "error", "code": code, "message": message, "version": self.state.version})

    def broadcast(self) -> None:
        if self.conns:
            messages = self._messages(list({c.seat for c in self.conns}))
            for conn in list(self.conns):
                conn.push(messages[conn.seat])
        self.changed.set()

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def record(self) -> GameRecord:
        rec = self.state.record()
        rec.meta = {"table": self.id, "players": [s.name or (f"{s.bot} bot" if s.bot else f"seat {s.seat}")
                                                  for s in self.seats]}
        return rec

    def states(self) -> list[State]:
        if self._states_cache is None:
            self._states_cache = self.state.record().states()
        return self._states_cache

    # -- decisions, bots, stand-ins -----------------------------------------------
    def track_decisions(self, acted: int | None = None) -> None:
        now = time.time()
        movers = set(self.to_move())
        if acted is not None:
            self.decision_start.pop(acted, None)
        for s in list(self.decision_start):
            if s not in movers:
                del self.decision_start[s]
        for s in movers:
            self.decision_start.setdefault(s, now)

    def bot_for(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            kinds = bot_kinds(self.game.name)
            kind = self.seats[seat].bot or ("greedy" if "greedy" in kinds else "random")
            bot = make_bot(self.game.name, kind, (self.state.seed * 1_000_003 + seat) % SEED_LIMIT)
            self.bots[seat] = bot
        return bot

    def auto_seats(self, now: float) -> list[int]:
        """Seats to move that the server plays now: bots, stand-ins, and seats out of time."""
        out = []
        for s in self.to_move():
            seat = self.seats[s]
            d = self.deadline(s)
            if seat.type == "bot" or seat.stand_in or (d is not None and now >= d):
                out.append(s)
        return out

    def update_stand_ins(self, now: float) -> tuple[bool, float | None]:
        """Start stand-ins whose human has been gone too long; the next time one would start."""
        changed = False
        nxt: float | None = None
        if self.status != "playing":
            return False, None
        for seat in self.seats:
            if seat.type != "human" or seat.connections > 0 or seat.stand_in:
                continue
            due = seat.gone_since + self.settings.absent_timeout
            if now >= due:
                seat.stand_in = True
                changed = True
                log.info("table %s: a bot stands in for seat %d", self.id, seat.seat)
            else:
                nxt = due if nxt is None else min(nxt, due)
        return changed, nxt

    async def drive(self) -> None:
        """Play the seats the server plays, until the game is over."""
        while not self.state.is_over():
            self.changed.clear()
            now = time.time()
            async with self.lock:
                changed, next_absent = self.update_stand_ins(now)
                if changed:
                    self.broadcast()
                auto = self.auto_seats(now)
                timers = [t for t in [next_absent, *(self.deadline(s) for s in self.to_move())] if t is not None]
            if auto:
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                async with self.lock:
                    version = self.state.version
                    try:
                        for s in self.auto_seats(time.time()):
                            if self.state.is_over() or s not in self.state.to_move():
                                continue
                            action = bot_move(self.bot_for(s), self.state, s)
                            await self.commit(s, action.text)
                    except Exception as exc:  # the database failed: try again shortly
                        log.error("table %s: bot move not committed: %r", self.id, exc)
                        await asyncio.sleep(1.0)
                if self.state.version == version:
                    await asyncio.sleep(0.05)
                continue
            timeout = None if not timers else max(0.0, min(timers) - time.time()) + 0.01
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout)

    def start_driver(self) -> None:
        if self.driver is None and not self.state.is_over():
            self.driver = asyncio.create_task(self.drive(), name=f"table-{self.id}")
            self.driver.add_done_callback(self._driver_done)

    def _driver_done(self, task: asyncio.Task[None]) -> None:
        self.driver = None
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: driver stopped: %r", self.id, task.exception())

    # -- actions ------------------------------------------------------------------------
    async def commit(self, seat: int, text: str) -> None:
        """Log the (verified) action durably, then apply it and tell everyone. Lock held."""
        idx = self.state.version
        tid = self.id

        def write(conn: Connection) -> None:
            conn.execute(actions_t.insert().values(table_id=tid, idx=idx, seat=seat, text=text, at=time.time()))

        await self.store.write(write)
        self.state.apply(seat, text)
        self.track_decisions(acted=seat)
        self.broadcast()
        if self.state.is_over():
            result = self.result()
            log.info("table %s: game over after %d actions", self.id, self.state.version)

            def finish(conn: Connection) -> None:
                conn.execute(sa.update(tables_t).where(tables_t.c.id == tid).values(finished=True, result=result))

            await self.store.write(finish)

    async def act(self, seat: int, text: str, version: int) -> tuple[str, str] | None:
        """A seat's action; None if accepted, else (code, message). Never changes anything when refused."""
        async with self.lock:
            state = self.state
            if version != state.version and not state.is_over() and self.status == "playing":
                return "stale_version", f"version {version} is not the current one ({state.version}); " \
                                        "act on the latest state"
            checked = self.check(seat, text)
            if isinstance(checked, tuple):
                return checked[0], checked[1]
            await self.commit(seat, checked.text)
            return None

    def check(self, seat: int, text: str) -> Action | tuple[str, str, str]:
        """The legal action ``text`` means for ``seat`` now, or (code, message,
        reason) saying why not. Reads the state only."""
        state = self.state
        if state.is_over():
            return "game_over", "the game is over", "the game is over"
        if self.status != "playing":
            why = "the game has not started: waiting for players to take the free seats"
            return "not_your_turn", why, why
        try:
            return state.verify(seat, text)
        except NotationError as exc:
            return "malformed_action", str(exc), exc.reason
        except GameOverError as exc:
            return "game_over", str(exc), exc.reason
        except NotYourTurnError as exc:
            return "not_your_turn", str(exc), exc.reason
        except IllegalActionError as exc:
            return "illegal_action", str(exc), exc.reason

    # -- connections ---------------------------------------------------------------
    def attach(self, conn: Client) -> None:
        self.conns.add(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections += 1
            if seat.connections == 1 or seat.stand_in:
                seat.stand_in = False
                self.broadcast()
                return
        conn.push(self.message(conn.seat))

    def detach(self, conn: Client) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections -= 1
            if seat.connections == 0:
                seat.gone_since = time.time()
                self.broadcast()


def _new_id(taken: set[str] | dict[str, Any]) -> str:
    while True:
        tid = "".join(secrets.choice(ID_ALPHABET) for _ in range(6))
        if tid not in taken:
            return tid


class Lobby:
    """Every table of the server, and the store behind them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    def load(self) -> None:
        for st in self.store.load():
            try:
                table = self._restore(st)
            except CourtcardsError as exc:
                log.error("table %s cannot be restored: %s", st.id, exc)
                continue
            self.tables[table.id] = table
        log.info("loaded %d tables", len(self.tables))

    def _restore(self, st: StoredTable) -> Table:
        game = get_game(st.game)
        record = GameRecord(game=st.game, num_players=st.players, options=st.options, seed=st.seed,
                            actions=st.actions)
        state = record.replay()
        seats = [Seat(seat=r["seat"], type=r["kind"], bot=r["bot"], name=r["name"], token_hash=r["token_hash"])
                 for r in st.seats]
        now = time.time()
        for s in seats:
            s.gone_since = now
        s_ = st.settings
        settings = Settings(bot_delay=float(s_["bot_delay"]), absent_timeout=float(s_["absent_timeout"]),
                            move_time_limit=s_.get("move_time_limit"),
                            hints=s_.get("hints", any(r["kind"] == "bot" for r in st.seats)))
        table = Table(id=st.id, game=game, state=state, seats=seats, settings=settings, created=st.created,
                      store=self.store)
        table.track_decisions()
        return table

    def start(self) -> None:
        for table in self.tables.values():
            table.start_driver()

    async def stop(self) -> None:
        tasks = [t.driver for t in self.tables.values() if t.driver is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for table in self.tables.values():
            for conn in list(table.conns):
                conn.close()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, "table_not_found", f"there is no table {table_id!r}")
        return table

    async def create(self, game_name: str, players: int | None, options: dict[str, Any], preset: str | None,
                     seats: list[dict[str, Any]] | None, seed: int | None, settings: Settings) -> Table:
        try:
            game = get_game(game_name)
            n = game.default_players if players is None else players
            values = game.resolve_options(n, options, preset)
        except CourtcardsError as exc:
            raise ApiError(422, "bad_request", str(exc)) from None
        seat_specs = seats if seats is not None else [{"type": "human"} for _ in range(n)]
        if len(seat_specs) != n:
            raise ApiError(422, "bad_request", f"seats lists {len(seat_specs)} seats but the table has {n} players")
        seat_list: list[Seat] = []
        for i, spec in enumerate(seat_specs):
            kind = spec.get("type")
            if kind == "human":
                seat_list.append(Seat(seat=i, type="human", bot=None, name=None))
            elif kind == "bot":
                bot = spec.get("bot") or "random"
                try:
                    make_bot(game.name, bot, 0)
                except CourtcardsError as exc:
                    raise ApiError(422, "bad_request", f"seat {i}: {exc}") from None
                seat_list.append(Seat(seat=i, type="bot", bot=bot, name=spec.get("name")))
            else:
                raise ApiError(422, "bad_request", f"seat {i}: type must be human or bot, not {kind!r}")
        if settings.hints is None:
            settings.hints = any(s.type == "bot" for s in seat_list)
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        elif not -SEED_LIMIT <= seed < SEED_LIMIT:
            raise ApiError(422, "bad_request", f"seed must be a 64-bit signed integer, not {seed}")
        try:
            state = game.new_game(n, values, seed)
        except CourtcardsError as exc:
            raise ApiError(422, "bad_request", str(exc)) from None
        tid = _new_id(self.tables)
        now = time.time()
        for s in seat_list:
            s.gone_since = now
        table = Table(id=tid, game=game, state=state, seats=seat_list, settings=settings, created=now,
                      store=self.store)
        row = {"id": tid, "game": game.name, "players": n, "options": dict(state.options), "seed": seed,
               "settings": settings.to_json(), "created": now, "finished": False, "result": None}
        seat_rows = [{"table_id": tid, "seat": s.seat, "kind": s.type, "bot": s.bot, "name": s.name,
                      "token_hash": None} for s in seat_list]

        def write(conn: Connection) -> None:
            conn.execute(tables_t.insert().values(**row))
            conn.execute(seats_t.insert(), seat_rows)

        self.tables[tid] = table  # reserve the id; nobody can act before the commit (table is new)
        try:
            await self.store.write(write)
        except Exception:
            del self.tables[tid]
            raise
        table.track_decisions()
        table.start_driver()
        log.info("table %s created: %s, %d players", tid, game.name, n)
        return table

    async def join(self, table_id: str, seat_no: int | None, name: str | None) -> tuple[int, str, Table]:
        table = self.get(table_id)
        async with table.lock:
            if seat_no is None:
                free = [s for s in table.seats if s.type == "human" and not s.taken]
                if not free:
                    raise ApiError(409, "no_free_seat", f"table {table_id} has no free human seat")
                seat = free[0]
            else:
                if not 0 <= seat_no < len(table.seats):
                    raise ApiError(422, "bad_request",
                                   f"there is no seat {seat_no} (seats are 0..{len(table.seats) - 1})")
                seat = table.seats[seat_no]
                if seat.type != "human":
                    raise ApiError(409, "not_a_human_seat", f"seat {seat_no} is played by a bot")
                if seat.taken:
                    raise ApiError(409, "seat_taken", f"seat {seat_no} is already taken")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            seat_name = (name or "").strip()[:64] or None
            tid, sno = table.id, seat.seat

            def write(conn: Connection) -> None:
                conn.execute(sa.update(seats_t).where(seats_t.c.table_id == tid, seats_t.c.seat == sno)
                             .values(token_hash=digest, name=seat_name))

            await self.store.write(write)
            seat.token_hash = digest
            seat.name = seat_name
            seat.gone_since = time.time()
            table.track_decisions()
            table.broadcast()
            log.info("table %s: seat %d joined", table.id, sno)
            return sno, token, table
