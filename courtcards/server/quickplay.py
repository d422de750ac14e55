"""Quick play: a queue per game and player count that seats waiting players together.

A player enters a queue with the seconds they are willing to wait (0 to ``MAX_WAIT``) and gets a
ticket, a secret that stands for their place. As soon as the queue holds as many players as the
table has seats, the first of them are seated together at a new table. When a waiter's wait runs
out first, they are seated with whoever else is waiting in that queue (oldest first) and the other
seats are played by the game's default bot. The ticket then answers with the table, the seat and
the seat's token (the same token a join gives). Tables made here are casual and private (they are
full when made, so a list has nothing to offer for them).

The queues are kept in the database (``cc_quickplay``), so with ``--workers N`` (or several servers on one
PostgreSQL database) every player meets every other, and a restart keeps the waiting tickets. Matching
happens in one transaction at a time (PostgreSQL's advisory lock; SQLite's single writer): a ticket is
claimed for one table only, and the process that claims a group makes its table (see docs/server.md).

Routes under /api/quickplay.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from sqlalchemy.engine import Connection

from courtcards.bots.base import default_bot_kind
from courtcards.core.game import game_names, get_game
from courtcards.server import players as players_api
from courtcards.server.db import quickplay_t
from courtcards.server.guards import RateLimits
from courtcards.server.tables import ApiError, Lobby, Settings, hash_token
from courtcards.server.text import checked_text

log = logging.getLogger("courtcards.server")

router = APIRouter()
T = TypeVar("T")

MAX_WAIT = 300.0  # seconds a player may choose to wait for people before bots fill the table
MAX_WAITERS = 1000  # players waiting in all queues of the site
KEEP_ANSWER = 600.0  # seconds a seated ticket still answers with its table

Ticket = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Name = Annotated[str, StringConstraints(max_length=64), AfterValidator(checked_text)]


class EnterQueue(BaseModel):
    model_config = ConfigDict(strict=True)  # "3" is not 3

    game: str = Field(max_length=32, description="Game name (GET /api/games lists them).")
    players: int = Field(description="Table size: within the game's min_players..max_players.")
    wait: float = Field(description=f"Seconds to wait for people before bots take the free seats (0..{MAX_WAIT:g}).")
    name: Name | None = None


class TicketBody(BaseModel):
    model_config = ConfigDict(strict=True, hide_input_in_errors=True)  # a refusal never echoes the ticket

    ticket: Ticket


class QueueStatus(BaseModel):
    status: Literal["waiting", "seated", "failed", "left"]
    game: str
    players: int
    waiting: int = Field(description="Players in this queue now (this one included while it waits).")
    wait_left: float = Field(description="Seconds until bots fill this player's table (0 once seated).")
    table: dict[str, Any] | None = Field(None, description="The table (TableInfo) once seated.")
    seat: int | None = None
    token: str | None = Field(None, description="The seat's token once seated: it acts for the seat.")
    error: str | None = Field(None, description="Why no table could be made (status failed).")


class Entered(QueueStatus):
    ticket: str = Field(description="Ask with it (POST /api/quickplay/ticket) until seated; shown once.")


LOCK_KEY = 0x63635150  # PostgreSQL advisory lock: one quick-play transaction at a time on the site
SWEEP = 1.0  # seconds between two looks for expired waits, old answers and stalled seatings
STALLED = 60.0  # seconds after which a group claimed by a process that stopped is told it failed


def seat_token(ticket: str) -> str:
    """The seat token a ticket gives once seated: derived from the ticket, so any process that is asked
    with the ticket answers it, and the database holds only its SHA-256 (as for every seat)."""
    mac = hmac.new(ticket.encode(), b"courtcards quick-play seat", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


Row = dict[str, Any]


class QuickPlay:
    """The queues, kept in the database (``cc_quickplay``): every process on one database matches the same
    queues. A transaction that changes them holds PostgreSQL's advisory lock ``LOCK_KEY`` (on SQLite, one
    process, the writer thread runs one at a time), so a ticket is claimed for one table only; the process
    that claims a group makes its table."""

    def __init__(self, lobby: Lobby, max_waiters: int = MAX_WAITERS) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.max_waiters = max_waiters
        self._timers: set[asyncio.TimerHandle] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    # -- the database ---------------------------------------------------------------------
    async def _tx(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` in one transaction: PostgreSQL's under the advisory lock, in a thread; SQLite's through the
        store's writer (one process, one writer)."""
        if not self.store.shared:
            return await self.store.write(fn)

        def run() -> T:
            with self.store.engine.begin() as conn:
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(LOCK_KEY)))
                return fn(conn)

        return await asyncio.to_thread(run)

    def waiting(self, key: tuple[str, int] | None = None) -> int:
        """Players waiting (in one queue, or in all)."""
        q = sa.select(sa.func.count()).select_from(quickplay_t).where(quickplay_t.c.status == "waiting")
        if key is not None:
            q = q.where(quickplay_t.c.game == key[0], quickplay_t.c.players == key[1])
        with self.store.engine.connect() as conn:
            return int(conn.execute(q).scalar_one())

    def _read(self, digest: str) -> Row | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(quickplay_t).where(quickplay_t.c.ticket_hash == digest)).mappings().first()
        if row is None or (
            row["done_at"] is not None and row["status"] != "seating" and row["done_at"] < time.time() - KEEP_ANSWER
        ):
            return None
        return dict(row)

    @staticmethod
    def _claim(conn: Connection, key: tuple[str, int], now: float, first: int | None) -> list[list[Row]]:
        """Take the groups this queue seats now out of "waiting": a full table's worth (first come, first
        seated), else a waiter whose wait ran out (``first``, or the oldest expired) with whoever else waits."""
        game, players = key
        q = (
            sa.select(quickplay_t)
            .where(quickplay_t.c.status == "waiting", quickplay_t.c.game == game, quickplay_t.c.players == players)
            .order_by(quickplay_t.c.id)
        )
        queue = [dict(r) for r in conn.execute(q).mappings()]
        groups: list[list[Row]] = []
        while queue:
            if len(queue) >= players:
                group = queue[:players]
            else:
                lead = next((r for r in queue if r["id"] == first or r["deadline"] <= now), None)
                if lead is None:
                    break
                group = [lead, *[r for r in queue if r is not lead]][:players]
            ids = [r["id"] for r in group]
            conn.execute(sa.update(quickplay_t).where(quickplay_t.c.id.in_(ids)).values(status="seating", done_at=now))
            groups.append(group)
            queue = [r for r in queue if r["id"] not in ids]
        return groups

    # -- requests ----------------------------------------------------------------------------
    async def enter(
        self, game: str, players: int, wait: float, name: str | None, account_id: int | None
    ) -> tuple[str, Row]:
        """A new ticket in the queue of (game, players); seated at once if the queue is full."""
        if game not in game_names():
            raise ApiError(404, "unknown_game", f"there is no game {game[:32]!r} (GET /api/games lists them)")
        g = get_game(game)
        if not g.min_players <= players <= g.max_players:
            raise ApiError(
                422, "bad_players", f"{g.title} is played by {g.min_players} to {g.max_players}, not {players}"
            )
        if not 0 <= wait <= MAX_WAIT:  # NaN is refused too
            raise ApiError(422, "bad_wait", f"wait must be 0 to {MAX_WAIT:g} seconds, not {wait:g}")
        key = (g.name, players)
        ticket = secrets.token_urlsafe(24)
        now = time.time()
        row: Row = {
            "ticket_hash": hash_token(ticket),
            "game": g.name,
            "players": players,
            "name": name,
            "account_id": account_id,
            "wait": wait,
            "deadline": now + wait,
            "status": "waiting",
            "token_hash": hash_token(seat_token(ticket)),
        }
        limit = self.max_waiters

        def write(conn: Connection) -> str | list[list[Row]]:
            waiting = quickplay_t.c.status == "waiting"
            if account_id is not None:
                mine = sa.select(quickplay_t.c.id).where(
                    waiting,
                    quickplay_t.c.game == key[0],
                    quickplay_t.c.players == players,
                    quickplay_t.c.account_id == account_id,
                )
                if conn.execute(mine).first() is not None:
                    return "already_waiting"
            if conn.execute(sa.select(sa.func.count()).select_from(quickplay_t).where(waiting)).scalar_one() >= limit:
                return "queue_full"
            pk = conn.execute(quickplay_t.insert().values(row)).inserted_primary_key
            assert pk is not None
            return self._claim(conn, key, now, int(pk[0]) if wait == 0 else None)

        got = await self._tx(write)
        if got == "already_waiting":
            raise ApiError(409, "already_waiting", "this account waits in this queue already")
        if got == "queue_full":
            raise ApiError(503, "queue_full", "too many players are waiting; try again soon")
        assert not isinstance(got, str)
        for group in got:
            await self._seat(group)
        if wait > 0:  # bots fill the table when the wait runs out (the sweep, if this process stops first)
            timer = asyncio.get_running_loop().call_later(wait + 0.01, self._expired, key)
            self._timers.add(timer)
        mine = await asyncio.to_thread(self._read, row["ticket_hash"])
        return ticket, mine or {**row, "status": "failed", "error": "the ticket was lost"}

    async def find(self, ticket: str) -> Row:
        row = await asyncio.to_thread(self._read, hash_token(ticket))
        if row is None:
            raise ApiError(404, "unknown_ticket", "this ticket waits in no queue (it may have expired)")
        return row

    async def leave(self, ticket: str) -> Row:
        """Take a waiting ticket out of its queue (409 once it is seated)."""
        digest = hash_token(ticket)

        def write(conn: Connection) -> Row | None:
            row = conn.execute(sa.select(quickplay_t).where(quickplay_t.c.ticket_hash == digest)).mappings().first()
            if row is None or row["status"] != "waiting":
                return None if row is None else dict(row)
            conn.execute(quickplay_t.delete().where(quickplay_t.c.id == row["id"]))
            return {**row, "status": "left"}

        row = await self._tx(write)
        if row is None:
            raise ApiError(404, "unknown_ticket", "this ticket waits in no queue (it may have expired)")
        if row["status"] != "left":
            raise ApiError(409, "already_seated", "this ticket has a seat already: play or leave the table")
        return row

    async def status(self, row: Row, ticket: str) -> dict[str, Any]:
        key = (row["game"], row["players"])
        seated = row["status"] == "seated"
        table: dict[str, Any] | None = None
        if seated:
            found = await self.lobby.get(row["table_id"])
            table = found.info()
        waiting = await asyncio.to_thread(self.waiting, key)
        return {
            "status": "waiting" if row["status"] == "seating" else row["status"],
            "game": key[0],
            "players": key[1],
            "waiting": waiting,
            "wait_left": max(0.0, round(row["deadline"] - time.time(), 1)) if row["status"] == "waiting" else 0.0,
            "table": table,
            "seat": row["seat"] if seated else None,
            "token": seat_token(ticket) if seated else None,
            "error": row.get("error"),
        }

    # -- life ------------------------------------------------------------------------------
    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="quickplay")

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in self._tasks:
            task.cancel()

    # -- seating ------------------------------------------------------------------------
    def _expired(self, key: tuple[str, int]) -> None:
        self._timers = {t for t in self._timers if not t.cancelled() and t.when() > asyncio.get_running_loop().time()}
        task = asyncio.ensure_future(self._fill([key]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fill(self, keys: list[tuple[str, int]]) -> None:
        """Seat the waiters of these queues whose wait ran out: with the others waiting (oldest first),
        bots in the rest."""
        now = time.time()

        def write(conn: Connection) -> list[list[Row]]:
            return [group for key in keys for group in self._claim(conn, key, now, None)]

        try:
            groups = await self._tx(write)
        except Exception as exc:
            log.error("quick play: the queues could not be read: %s", type(exc).__name__)
            return
        for group in groups:
            await self._seat(group)

    def _due(self) -> tuple[list[tuple[str, int]], bool]:
        """Queues with an expired wait, and whether there is housekeeping (read only: the writes, if any,
        go through ``_tx``)."""
        now = time.time()
        status, done_at = quickplay_t.c.status, quickplay_t.c.done_at
        with self.store.engine.connect() as conn:
            due = sa.select(quickplay_t.c.game, quickplay_t.c.players).where(
                status == "waiting", quickplay_t.c.deadline <= now
            )
            keys = [(r[0], int(r[1])) for r in conn.execute(due.distinct())]
            chores = sa.select(quickplay_t.c.id).where(
                sa.or_(
                    sa.and_(status.in_(["seated", "failed"]), done_at < now - KEEP_ANSWER),
                    sa.and_(status == "seating", done_at < now - STALLED),
                )
            )
            return keys, conn.execute(chores.limit(1)).first() is not None

    @staticmethod
    def _chores(conn: Connection) -> None:
        """Old answers go; groups claimed by a process that stopped before making their table fail."""
        now = time.time()
        status, done_at = quickplay_t.c.status, quickplay_t.c.done_at
        conn.execute(quickplay_t.delete().where(status.in_(["seated", "failed"]), done_at < now - KEEP_ANSWER))
        conn.execute(
            sa.update(quickplay_t)
            .where(status == "seating", done_at < now - STALLED)
            .values(status="failed", error="no table could be made: the server stopped; try again", done_at=now)
        )

    async def _sweep_loop(self) -> None:
        """Waits that ran out while no process timed them (the one that took the ticket stopped)."""
        while True:
            await asyncio.sleep(SWEEP)
            try:
                keys, chores = await asyncio.to_thread(self._due)
                if chores:
                    await self._tx(self._chores)
                if keys:
                    await self._fill(keys)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("quick play: the sweep failed: %s", type(exc).__name__)

    async def _seat(self, group: list[Row]) -> None:
        """A new table: the group's players in the first seats (in the order claimed), bots in the rest."""
        game, players = group[0]["game"], group[0]["players"]
        bot = default_bot_kind(game)
        seats: list[dict[str, Any]] = [{"type": "human"} for _ in group]
        seats += [{"type": "bot", "bot": bot} for _ in range(players - len(group))]
        done: list[tuple[int, dict[str, Any]]] = []
        try:
            table = await self.lobby.create(game, players, {}, None, seats, None, Settings(), private=True)
            for i, w in enumerate(group):
                seat, _, table = await self.lobby.join(table.id, i, w["name"], w["account_id"], w["token_hash"])
                done.append((w["id"], {"status": "seated", "table_id": table.id, "seat": seat}))
        except Exception as exc:  # the waiters are out of the queue: each is told, none waits forever
            why = exc.message if isinstance(exc, ApiError) else "the server could not store it; try again"
            log.error("quick play: no table for %s, %d players: %s", game, players, type(exc).__name__)
            error = f"no table could be made: {why}"[:200]
            done = [(w["id"], {"status": "failed", "error": error}) for w in group]
            table = None
        now = time.time()

        def write(conn: Connection) -> None:
            for wid, values in done:
                conn.execute(sa.update(quickplay_t).where(quickplay_t.c.id == wid).values(done_at=now, **values))

        try:
            await self._tx(write)
        except Exception as exc:
            log.error("quick play: the seated tickets could not be stored: %s", type(exc).__name__)
            return
        if table is not None:
            log.info("quick play: table %s seats %d players and %d bots", table.id, len(group), players - len(group))


def _quickplay(request: Request) -> QuickPlay:
    qp: QuickPlay = request.app.state.quickplay
    return qp


@router.post("/api/quickplay", status_code=201, tags=["quick play"], response_model=Entered)
async def enter_queue(body: EnterQueue, request: Request) -> dict[str, Any]:
    """Wait for a table of this game and size: seated with other waiters as soon as there are enough,
    or with bots in the free seats once ``wait`` seconds have passed."""
    rates: RateLimits = request.app.state.rates
    await rates.check("join", players_api._address(request))
    account = await players_api.acting_account(request)
    qp = _quickplay(request)
    ticket, row = await qp.enter(body.game, body.players, body.wait, body.name, None if account is None else account.id)
    return {"ticket": ticket, **await qp.status(row, ticket)}


@router.post("/api/quickplay/ticket", tags=["quick play"], response_model=QueueStatus)
async def ticket_status(body: TicketBody, request: Request) -> dict[str, Any]:
    """Where a ticket stands: waiting, or seated (with the table, seat and token). A POST: the ticket
    stays out of URLs and logs."""
    rates: RateLimits = request.app.state.rates
    await rates.check("read", players_api._address(request))
    qp = _quickplay(request)
    return await qp.status(await qp.find(body.ticket), body.ticket)


@router.post("/api/quickplay/leave", tags=["quick play"], response_model=QueueStatus)
async def leave_queue(body: TicketBody, request: Request) -> dict[str, Any]:
    """Stop waiting: the ticket leaves its queue (409 once it is seated)."""
    qp = _quickplay(request)
    row = await qp.leave(body.ticket)
    return await qp.status(row, body.ticket)
