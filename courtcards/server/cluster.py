"""Several server processes on one PostgreSQL database (see docs/server.md, "Several processes").

Any process serves any table: it loads the table from the database when a client
asks for it. The action log is the one point of agreement: an action is stored at
the index the process saw as the table's version, and the primary key (table,
index) refuses a second action at the same index, so two processes can never
both accept a move; the loser catches up and answers ``stale_version``. Each
commit sends ``NOTIFY cc_tables '<process> <table>'``; a listener thread in every
process catches its loaded tables up and pushes the new views to its clients.

Bots, stand-ins and time limits must be played by one process per table: the
holder of the table's lease row (``cc_leases``: owner, expiry), renewed every
``ttl / 3`` seconds. A process that dies stops renewing; within ``ttl`` its leases
expire and another process takes them (loading the table if nobody asked for it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from courtcards.server import chat
from courtcards.server.db import NOTIFY_CHANNEL, Store, leases_t, tables_t

if TYPE_CHECKING:
    from courtcards.server.tables import Lobby, Table

log = logging.getLogger("courtcards.server")


class Cluster:
    def __init__(self, store: Store, lobby: Lobby, ttl: float) -> None:
        self.taken_over = 0  # tables whose lease this process took after it expired (metrics: failovers)
        self.store = store
        self.lobby = lobby
        self.ttl = ttl
        self.node = store.node
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: set[str] = set()
        self._owning: set[str] = set()
        self._tasks: set[asyncio.Future[None]] = set()

    # -- leases -------------------------------------------------------------------
    def _acquire(self, tid: str) -> bool:
        now = time.time()
        insert = pg_insert(leases_t).values(table_id=tid, owner=self.node, expires=now + self.ttl)
        stmt = insert.on_conflict_do_update(
            index_elements=[leases_t.c.table_id],
            set_={"owner": self.node, "expires": now + self.ttl},
            where=sa.or_(leases_t.c.expires < now, leases_t.c.owner == self.node),
        ).returning(leases_t.c.owner)
        with self.store.engine.begin() as conn:
            return conn.execute(stmt).scalar() == self.node

    def _renew(self, waiting: list[str]) -> tuple[set[str], list[str]]:
        """Renew this process's leases; (those it holds, tables whose lease is free: unfinished tables with an
        expired lease, and those of ``waiting`` (loaded here, not held) without one)."""
        now = time.time()
        with self.store.engine.begin() as conn:
            held = {
                r[0]
                for r in conn.execute(
                    sa.update(leases_t)
                    .where(leases_t.c.owner == self.node)
                    .values(expires=now + self.ttl)
                    .returning(leases_t.c.table_id)
                )
            }
            free = [
                r[0]
                for r in conn.execute(
                    sa.select(leases_t.c.table_id)
                    .join(tables_t, tables_t.c.id == leases_t.c.table_id)
                    .where(leases_t.c.expires < now, tables_t.c.finished.is_(False))
                    .limit(100)
                )
            ]
            if waiting:
                leased = {
                    r[0] for r in conn.execute(sa.select(leases_t.c.table_id).where(leases_t.c.table_id.in_(waiting)))
                }
                free += [tid for tid in waiting if tid not in leased or tid in held]
        return held, free

    def _release(self, tids: list[str]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(leases_t.delete().where(leases_t.c.owner == self.node, leases_t.c.table_id.in_(tids)))

    async def own(self, table: Table) -> None:
        """Take the table's lease if it is free (or expired); then play its bots here."""
        if table.owned or table.state.is_over() or table.id in self._owning:
            return
        self._owning.add(table.id)
        try:
            if not await asyncio.to_thread(self._acquire, table.id):
                return
            async with table.lock:
                await table.catch_up()  # the previous owner's last moves
        finally:
            self._owning.discard(table.id)
        table.owned = True
        table.start_driver()
        log.info("table %s: this process plays its bots now", table.id)

    async def release(self, table: Table) -> None:
        if table.owned:
            table.owned = False
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._release, [table.id])

    async def _lease_loop(self) -> None:
        while True:
            try:
                waiting = [t.id for t in self.lobby.tables.values() if not t.owned and not t.state.is_over()]
                owned = {t.id for t in self.lobby.tables.values() if t.owned}  # leases taken meanwhile are not lost
                held, free = await asyncio.to_thread(self._renew, waiting)
                # Connections here, said again so they do not expire elsewhere; and forget the silent.
                self._say(
                    [
                        f"{t.id}:{s.seat}:{s.connections}"
                        for t in self.lobby.tables.values()
                        for s in t.seats
                        if s.connections > 0
                    ]
                )
                for table in list(self.lobby.tables.values()):
                    table.forget_remote(time.time() - self.ttl)
                for table in list(self.lobby.tables.values()):
                    if table.owned and table.id in owned and table.id not in held and not table.state.is_over():
                        table.owned = False  # lost it (this process stalled): stop playing its bots
                        if table.driver is not None:
                            table.driver.cancel()
                        log.warning("table %s: lease lost", table.id)
                for tid in free:
                    orphan = await self.lobby.find(tid)
                    if orphan is not None:
                        await self.own(orphan)
                        self.taken_over += 1
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("lease renewal failed: %s", type(exc).__name__)
            await asyncio.sleep(self.ttl / 3)

    # -- notifications ------------------------------------------------------------------
    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    loop.call_soon_threadsafe(self._catch_up_all)  # anything missed while not listening
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            kind, node, *rest = note.payload.split(" ")
                            if node == self.node:
                                continue
                            if kind == "C":
                                for tid in rest:
                                    loop.call_soon_threadsafe(self._changed, tid)
                            elif kind == "P":
                                loop.call_soon_threadsafe(self._heard, node, rest)
                            elif kind == "M" and len(rest) == 2:  # a chat message stored there
                                loop.call_soon_threadsafe(self._chat, rest[0], int(rest[1]))
                            elif kind == "U" and len(rest) == 1:  # a table's chat mutes changed there
                                loop.call_soon_threadsafe(self._mutes, rest[0])
            except Exception as exc:
                log.error("listening for other processes failed: %s; again in 1 s", type(exc).__name__)
                self._stop.wait(1.0)

    def _heard(self, node: str, items: list[str]) -> None:
        now = time.time()
        for item in items:
            tid, seat, count = item.split(":")
            table = self.lobby.tables.get(tid)
            if table is not None:
                table.heard(node, int(seat), int(count), now)

    def _chat(self, tid: str, mid: int) -> None:
        table = self.lobby.tables.get(tid)
        if table is None:  # not loaded here: a connection that comes reads it with the table's chat
            return
        task = asyncio.ensure_future(chat.heard(table, mid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _mutes(self, tid: str) -> None:
        table = self.lobby.tables.get(tid)
        if table is None:  # not loaded here: a connection that comes reads the mutes
            return
        task = asyncio.ensure_future(chat.read_mutes(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def announce(self, tid: str, seat: int, count: int) -> None:
        """Tell the other processes this one has ``count`` connections to a seat."""
        self._say([f"{tid}:{seat}:{count}"])

    def _say(self, items: list[str]) -> None:
        for i in range(0, len(items), 200):  # NOTIFY payloads stay under 8000 bytes
            payload = " ".join(["P", self.node, *items[i : i + 200]])

            def write(conn: Connection, payload: str = payload) -> None:
                conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, payload)))

            fut = self.store.write(write)
            fut.add_done_callback(lambda f: f.cancelled() or f.exception())

    def _catch_up_all(self) -> None:
        for tid in list(self.lobby.tables):
            self._changed(tid)

    def _changed(self, tid: str) -> None:
        table = self.lobby.tables.get(tid)
        if table is None or tid in self._pending:
            return
        self._pending.add(tid)

        async def run() -> None:
            try:
                async with table.lock:
                    self._pending.discard(tid)
                    await table.catch_up()
            except Exception as exc:
                log.error("table %s: catching up failed: %s", tid, type(exc).__name__)
            finally:
                self._pending.discard(tid)

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- life ------------------------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._listen, args=(loop,), name="courtcards-listen", daemon=True)
        self._thread.start()
        self._task = asyncio.create_task(self._lease_loop(), name="leases")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        owned = [t.id for t in self.lobby.tables.values() if t.owned]
        if owned:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._release, owned)
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 2.0)
