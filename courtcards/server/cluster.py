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
The leases asked for meanwhile are taken together, up to ``ACQUIRE_BATCH`` in one
transaction (a reconnection burst loads hundreds of tables at once).

Faster than the ttl: each process holds a session-level advisory lock naming itself
(``pg_try_advisory_lock(NODE_LOCK, hashtext(node))``) on its listening connection.
When the process dies its connections close and PostgreSQL releases the lock at
once; the others look at ``pg_locks`` every ``WATCH`` seconds, and a process they
saw alive whose lock is gone has its leases expired (``expires = 0``), so they are
taken at once through the usual conditional upsert. The lease row stays the one
truth: a process that only lost its connection keeps renewing its rows until
another took them, and then stops playing those bots as for any lost lease.

When a process sees a new one take its lock, it asks 1/N of its sockets to
reconnect (N: the processes alive), so the sockets that all went to the survivor of
a failure spread out again once the dead worker is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from courtcards.server import chat
from courtcards.server.db import NOTIFY_CHANNEL, Changes, Store, leases_t, read_many, tables_t

if TYPE_CHECKING:
    from courtcards.server.tables import Lobby, Table

log = logging.getLogger("courtcards.server")

NODE_LOCK = 0x63634E44  # advisory locks (NODE_LOCK, hashtext(node)): held by each live process
WATCH = 0.5  # seconds between looks at which processes hold their lock
TAKE_AT_ONCE = 2  # orphaned tables loaded and taken at once (the reconnecting clients load theirs meanwhile)
TAKE_AFTER = 1.0  # seconds an orphaned table not in memory is left to the reconnecting clients to load first
ACQUIRE_BATCH = 200  # leases taken in one transaction
ANNOUNCE_DELAY = 0.05  # seconds connection counts are gathered before they are told (one NOTIFY per 200)
REBALANCE_STEP = (50, 0.2)  # when a process starts: sockets asked to reconnect at a time, and seconds between
REBALANCE_REASON = "rebalancing: another server process started; reconnect"
MOVED_REASON = "the table moved to the server process its players are connected to; reconnect"


class Cluster:
    def __init__(self, store: Store, lobby: Lobby, ttl: float) -> None:
        self.taken_over = 0  # tables whose lease this process took after it expired (metrics: failovers)
        self.handed_over = 0  # tables given up to the process their people are connected to
        self.store = store
        self.lobby = lobby
        self.ttl = ttl
        self.node = store.node
        self._task: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: set[str] = set()
        self._owning: set[str] = set()
        self._leased: set[str] = set()  # tables whose lease own() took (a new table is owned before that)
        self._taking: set[str] = set()  # free tables waiting to be loaded and taken
        self._gate = asyncio.Semaphore(TAKE_AT_ONCE)
        self._tasks: set[asyncio.Future[None]] = set()
        self._wake: asyncio.Event | None = None  # set: renew and take free leases now
        self._owns: dict[str, asyncio.Future[None]] = {}  # own_soon's tasks under way, by table
        # leases to take (_take_lease): table -> (version loaded, its answer) for each asking, in order
        self._wanted: dict[str, list[tuple[int, asyncio.Future[Changes | None]]]] = {}
        self._acquiring = False  # _acquire_loop runs
        self._announcing: list[str] = []  # seats' connection counts here, to tell the others (announce)
        self._seen: set[int] = set()  # the lock keys of the other processes seen alive
        self.locked = False  # this process holds its own lock (on the listening connection)
        self._own_key: int | None = None  # that lock's objid in pg_locks
        self._looked = False  # the first look finds the processes already there: none "appeared"
        self.rebalance = True  # when another process starts, ask a share of this one's sockets to reconnect
        self.rebalanced = 0  # sockets asked to
        # renewals and watches on threads of their own: never queued behind table loads in a burst
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="courtcards-leases")

    # -- leases -------------------------------------------------------------------
    def _acquire(self, wanted: dict[str, int]) -> dict[str, Changes | None]:
        """Take the leases of the tables ``wanted`` (id -> the version loaded here) that are free or expired, in
        one transaction; then, in it, what was stored of each taken one since that version. None for a table
        another process holds."""
        now = time.time()
        insert = pg_insert(leases_t).values(
            [{"table_id": tid, "owner": self.node, "expires": now + self.ttl} for tid in wanted]
        )
        stmt = insert.on_conflict_do_update(
            index_elements=[leases_t.c.table_id],
            set_={"owner": insert.excluded.owner, "expires": insert.excluded.expires},
            where=sa.or_(leases_t.c.expires < now, leases_t.c.owner == self.node),
        ).returning(leases_t.c.table_id)
        with self.store.engine.begin() as conn:
            taken = {r[0]: wanted[r[0]] for r in conn.execute(stmt)}
            changes = read_many(conn, taken) if taken else {}
        return {tid: changes.get(tid) for tid in wanted}

    async def _take_lease(self, tid: str, since: int) -> Changes | None:
        """:meth:`_acquire` for one table, gathered with the others asked for meanwhile: a burst of
        reconnections takes its leases in a few transactions, ahead of the tables' loads (on the lease
        threads), so their bots play again soon."""
        fut: asyncio.Future[Changes | None] = asyncio.get_running_loop().create_future()
        self._wanted.setdefault(tid, []).append((since, fut))
        if not self._acquiring:
            self._acquiring = True
            self._spawn(self._acquire_loop())
        return await fut

    async def _acquire_loop(self) -> None:
        try:
            while self._wanted:
                batch = dict(itertools.islice(self._wanted.items(), ACQUIRE_BATCH))
                for tid in batch:
                    del self._wanted[tid]
                wanted = {tid: min(since for since, _ in asked) for tid, asked in batch.items()}
                try:
                    got = await asyncio.get_running_loop().run_in_executor(self._pool, self._acquire, wanted)
                except Exception as exc:
                    for asked in batch.values():
                        for _, fut in asked:
                            if not fut.done():
                                fut.set_exception(exc)
                    continue
                for tid, asked in batch.items():
                    changes = got[tid]
                    for since, fut in asked:  # each from its own version (read from the smallest)
                        if not fut.done():
                            fut.set_result(None if changes is None else (changes[0][since - wanted[tid] :], changes[1]))
        finally:
            self._acquiring = False

    def _renew(self, waiting: list[str]) -> tuple[set[str], list[str], set[str]]:
        """Renew this process's leases; (those it holds, tables whose lease is free: unfinished tables with an
        expired lease, and those of ``waiting`` (loaded here, not held) without one; the expired ones)."""
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
                    .limit(1000)
                )
            ]
            expired = set(free)
            if waiting:
                leased = {
                    r[0] for r in conn.execute(sa.select(leases_t.c.table_id).where(leases_t.c.table_id.in_(waiting)))
                }
                free += [tid for tid in waiting if tid not in leased or tid in held]
        return held, free, expired

    def _release(self, tids: list[str]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(leases_t.delete().where(leases_t.c.owner == self.node, leases_t.c.table_id.in_(tids)))

    def _watch(self) -> tuple[list[tuple[str, int]], int, int]:
        """Expire the leases of the processes seen alive before whose lock is gone (they died: their
        database session closed); ((process, leases freed) for each, processes that appeared since the
        last look, processes alive besides this one)."""
        now = time.time()
        with self.store.engine.begin() as conn:
            live = {
                int(r[0])
                for r in conn.execute(
                    sa.text(
                        "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = :k AND objsubid = 2 "
                        "AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    ),
                    {"k": NODE_LOCK},
                )
            }
            if self._own_key is not None:
                live.discard(self._own_key)
            appeared = len(live - self._seen) if self._looked else 0
            self._looked = True
            self._seen |= live
            owners = conn.execute(
                sa.select(leases_t.c.owner, sa.func.hashtext(leases_t.c.owner))
                .where(leases_t.c.owner != self.node, leases_t.c.expires >= now)
                .distinct()
            ).all()
            dead = [owner for owner, h in owners if (h & 0xFFFFFFFF) in self._seen and (h & 0xFFFFFFFF) not in live]
            freed = []
            for owner in dead:
                n = conn.execute(
                    leases_t.update().where(leases_t.c.owner == owner, leases_t.c.expires >= now).values(expires=0.0)
                ).rowcount
                freed.append((owner, int(n)))
        return freed, appeared, len(live)

    async def _watch_loop(self) -> None:
        while True:
            try:
                if self.locked:  # (before this process holds its own lock it takes no lease from others)
                    freed, appeared, others = await asyncio.get_running_loop().run_in_executor(self._pool, self._watch)
                    if appeared and self.rebalance:
                        self._spawn(self._rebalance(others + 1))
                    for owner, n in freed:
                        log.warning("process %s stopped (its database session closed): %d leases freed", owner, n)
                    if freed and self._wake is not None:
                        self._wake.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("watching the other processes failed: %s", type(exc).__name__)
            await asyncio.sleep(WATCH)

    async def _rebalance(self, processes: int) -> None:
        """Another process started (or came back): ask 1/``processes`` of this process's sockets to reconnect
        (closed with 4408 and ``REBALANCE_REASON``; the browser reconnects within a second, and a proxy or
        the kernel sends about 1/``processes`` of them to each process), a few at a time."""
        conns = [c for t in list(self.lobby.tables.values()) for c in sorted(t.conns, key=id) if not c.closed]
        chosen = conns[::processes][: len(conns) // processes]
        log.info("a server process started: %d of %d sockets asked to reconnect", len(chosen), len(conns))
        step, pause = REBALANCE_STEP
        for i in range(0, len(chosen), step):
            for conn in chosen[i : i + step]:
                if not conn.closed:
                    conn.drop(REBALANCE_REASON)
                    self.rebalanced += 1
            await asyncio.sleep(pause)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def own_soon(self, table: Table) -> None:
        """Take the table's lease (own) in a task of its own; ``owned_soon`` waits for it."""
        task = asyncio.ensure_future(self.own(table))
        self._owns[table.id] = task
        task.add_done_callback(lambda t: self._owns.pop(table.id, None) if self._owns.get(table.id) is t else None)

    async def owned_soon(self, tid: str) -> None:
        """Wait for the lease taking own_soon started for table ``tid``, if any is under way."""
        task = self._owns.get(tid)
        if task is not None:
            await asyncio.shield(task)

    async def own(self, table: Table) -> None:
        """Take the table's lease if it is free (or expired); then play its bots here."""
        if table.owned or table.state.is_over() or table.id in self._owning:
            return
        self._owning.add(table.id)
        try:
            since = table.state.version
            changes = await self._take_lease(table.id, since)
            if changes is None:
                return
            async with table.lock:
                await table.catch_up((since, changes))  # the previous owner's last moves
        finally:
            self._owning.discard(table.id)
        table.owned = True
        self._leased.add(table.id)
        table.start_driver()
        log.info("table %s: this process plays its bots now", table.id)

    async def release(self, table: Table) -> None:
        self._leased.discard(table.id)
        if table.owned:
            table.owned = False
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._release, [table.id])

    async def _lease_loop(self) -> None:
        while True:
            try:
                waiting = [t.id for t in self.lobby.tables.values() if not t.owned and not t.state.is_over()]
                # leases taken meanwhile are not lost (nor those of tables being made, owned before own())
                owned = {t.id for t in self.lobby.tables.values() if t.owned and t.id in self._leased}
                held, free, expired = await asyncio.get_running_loop().run_in_executor(self._pool, self._renew, waiting)
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
                        self._leased.discard(table.id)
                        if table.driver is not None:
                            table.driver.cancel()
                        log.warning("table %s: lease lost", table.id)
                for table in list(self.lobby.tables.values()):
                    if table.id in held and self._elsewhere(table):
                        self._spawn(self._hand_over(table))
                # Tables in memory at once (a lease to write); those to load in the background, after
                # TAKE_AFTER and a few at a time, so renewals go on and the reconnecting clients' own loads
                # (which take the free lease too) share the threads with fewer of them.
                loaded = [tid for tid in free if tid in self.lobby.tables]
                inline = asyncio.Semaphore(16)
                await asyncio.gather(*(self._take(tid, inline, failover=tid in expired) for tid in loaded))
                for tid in free:
                    if tid not in self.lobby.tables and tid not in self._taking:
                        self._taking.add(tid)
                        self._spawn(self._take(tid, self._gate, TAKE_AFTER, failover=tid in expired))
                if len(free) >= 1000:
                    self.wake()  # more to take
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("lease renewal failed: %s", type(exc).__name__)
            assert self._wake is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.ttl / 3)
            self._wake.clear()

    @staticmethod
    def _elsewhere(table: Table) -> bool:
        """Its people are connected to other processes only (none here, not even a spectator)."""
        return table.owned and not table.conns and not table.state.is_over() and any(s.remote for s in table.seats)

    async def _hand_over(self, table: Table) -> None:
        """Give up a table whose people are served by another process: unloaded here and its lease freed,
        that process (which has it loaded) takes the lease at its next renewal and plays the table, so
        one process does its work instead of both (a proxy that sends a table's sockets to one process,
        docs/server.md, makes this the rule)."""
        async with table.lock:
            if not self._elsewhere(table):
                return
            await self.lobby.unload(table)  # out of the lobby before any await: a new socket loads it again
        for conn in list(table.conns):  # one that found it just before: reconnect to the table as loaded
            conn.drop(MOVED_REASON)
        self.handed_over += 1
        log.info("table %s: its people are connected elsewhere; lease handed over", table.id)

    async def _take(self, tid: str, gate: asyncio.Semaphore, after: float = 0.0, failover: bool = True) -> None:
        """Load a table whose lease is free and take its lease (its bots play here from now on); ``failover``:
        its lease had expired (not handed over, nor a table nobody had taken yet)."""
        if after:
            await asyncio.sleep(after)
        async with gate:
            try:
                self._taking.discard(tid)
                table = self.lobby.tables.get(tid)
                if table is None:
                    table = await self.lobby.find(tid)  # loads it and takes its lease
                    await self.owned_soon(tid)
                elif not table.owned:
                    await self.own(table)
                else:
                    return
                if table is not None and table.owned and failover:
                    self.taken_over += 1
            except Exception as exc:
                log.error("table %s: taking it over failed: %s", tid, type(exc).__name__)

    def wake(self) -> None:
        """Renew and take free leases now rather than at the next turn of the loop."""
        if self._wake is not None:
            self._wake.set()

    # -- notifications ------------------------------------------------------------------
    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    # This process's lock, held while this connection lives (see the module's doc).
                    got = conn.execute(
                        "SELECT pg_try_advisory_lock(%s, hashtext(%s)), hashtext(%s)", (NODE_LOCK, self.node, self.node)
                    ).fetchone()
                    assert got is not None
                    self._own_key = int(got[1]) & 0xFFFFFFFF
                    have = bool(got[0])
                    if not have:  # this process's old session, not yet gone; or another name that hashes alike
                        log.warning("process lock %s held by another session; trying again", self.node)
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.store.missed += 1  # what was kept before this LISTEN may have missed something
                    self.locked = True
                    loop.call_soon_threadsafe(self._catch_up_all)  # anything missed while not listening
                    loop.call_soon_threadsafe(self.wake)  # leases taken meanwhile (if any) are seen lost now
                    while not self._stop.is_set():
                        if not have:  # (meanwhile the others may take this process for dead: its leases move)
                            row = conn.execute(
                                "SELECT pg_try_advisory_lock(%s, hashtext(%s))", (NODE_LOCK, self.node)
                            ).fetchone()
                            have = bool(row and row[0])
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
            finally:
                self.locked = False
                self.store.missed += 1

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
        """Tell the other processes this one has ``count`` connections to a seat: gathered for
        ``ANNOUNCE_DELAY``, so a burst of reconnections makes a few NOTIFYs, not one per socket queued before
        the actions' writes."""
        self._announcing.append(f"{tid}:{seat}:{count}")
        if len(self._announcing) == 1:
            asyncio.get_running_loop().call_later(ANNOUNCE_DELAY, self._announce_now)

    def _announce_now(self) -> None:
        items, self._announcing = self._announcing, []
        self._say(items)

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
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._lease_loop(), name="leases")
        self._watcher = asyncio.create_task(self._watch_loop(), name="watch-processes")

    async def stop(self) -> None:
        self._stop.set()
        for owning in list(self._owns.values()):
            owning.cancel()
        for task in (self._task, self._watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        owned = [t.id for t in self.lobby.tables.values() if t.owned]
        if owned:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._release, owned)
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 2.0)
        self._pool.shutdown(wait=False)
