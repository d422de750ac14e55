"""The PostgreSQL rate limiter under a reconnect burst: many processes and threads counting the same
addresses while old hits are swept never deadlock, and each address gets exactly its limit."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest
import sqlalchemy as sa
from test_server_postgres import postgres_url  # noqa: F401  (the fixture)

from courtcards.server import database_url
from courtcards.server.db import make_engine, migrate, rate_hits_t
from courtcards.server.guards import DatabaseStorage


def test_a_burst_of_counts_and_sweeps_never_deadlocks_and_keeps_each_limit(postgres_url: str) -> None:  # noqa: F811
    url = database_url(postgres_url, None)
    engines = [make_engine(url) for _ in range(2)]  # two "processes", each its own pool
    migrate(engines[0])
    keys = [f"connect/burst-{i}" for i in range(4)]
    now = time.time()
    with engines[0].begin() as conn:  # old hits of every key, for the sweep (and older code) to delete
        conn.execute(rate_hits_t.delete().where(rate_hits_t.c.key.in_(keys)))
        conn.execute(rate_hits_t.insert(), [{"key": k, "at": now - 7200 - i} for k in keys for i in range(300)])
    stores = [DatabaseStorage(e, horizon=3600) for e in engines]
    limit, per_thread, threads = 40, 30, 12
    granted: Counter[str] = Counter()
    errors: list[BaseException] = []
    lock = threading.Lock()

    def hammer(n: int) -> None:
        rng = random.Random(n)
        store = stores[n % 2]
        try:
            for i in range(per_thread):
                key = rng.choice(keys)
                if store.acquire_entry(key, limit, 60):
                    with lock:
                        granted[key] += 1
                if i % 3 == 0:
                    store._sweep(time.time())  # sweeps between the counts, from both processes
        except BaseException as exc:  # a deadlock is an OperationalError (DeadlockDetected) here
            errors.append(exc)

    workers = [threading.Thread(target=hammer, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert not errors, errors[:3]
    assert not any(w.is_alive() for w in workers), "a count never finished"
    # 360 attempts over 4 keys: each key was asked more than its limit, and got exactly the limit
    with engines[0].connect() as conn:
        stored: dict[str, int] = dict(
            conn.execute(
                sa.select(rate_hits_t.c.key, sa.func.count())
                .where(rate_hits_t.c.key.in_(keys), rate_hits_t.c.at > now - 60)
                .group_by(rate_hits_t.c.key)
            ).all()
        )
        old = conn.execute(
            sa.select(sa.func.count()).where(rate_hits_t.c.key.in_(keys), rate_hits_t.c.at < now - 3600)
        ).scalar_one()
    assert granted == dict.fromkeys(keys, limit), granted
    assert stored == dict.fromkeys(keys, limit)
    assert old == 0  # swept
    for e in engines:
        e.dispose()


def test_the_count_holds_the_key_lock_only(postgres_url: str) -> None:  # noqa: F811
    """A count never waits for rows: a sweep holding every old row it deletes does not hold it up."""
    pytest.importorskip("psycopg")
    url = database_url(postgres_url, None)
    engine = make_engine(url)
    migrate(engine)
    key = "join/held"
    with engine.begin() as conn:
        conn.execute(rate_hits_t.delete().where(rate_hits_t.c.key == key))
        conn.execute(rate_hits_t.insert(), [{"key": key, "at": time.time() - 7200 - i} for i in range(50)])
    store = DatabaseStorage(engine, horizon=3600)
    with engine.connect() as holder:
        tx = holder.begin()
        holder.execute(rate_hits_t.delete().where(rate_hits_t.c.key == key))  # row locks held, not committed
        done = threading.Event()

        def count() -> None:
            store.acquire_entry(key, 5, 60)
            done.set()

        t = threading.Thread(target=count, daemon=True)
        t.start()
        finished = done.wait(10)
        tx.rollback()
        t.join(10)
    assert finished, "the count waited for rows another transaction held"
    engine.dispose()


def test_a_burst_of_connections_is_told_the_other_processes_in_a_few_notifies() -> None:
    """Each socket's arrival was one NOTIFY queued before the actions' writes: 1,500 reconnections after a
    failover held the acknowledgements of every table for seconds. Counts said within ANNOUNCE_DELAY go
    out together, in order, 200 to a NOTIFY."""
    import asyncio
    from types import SimpleNamespace
    from typing import Any

    from courtcards.server.cluster import ANNOUNCE_DELAY, Cluster

    writes: list[Any] = []

    class Store:
        node = "n1"

        def write(self, fn: Any) -> asyncio.Future[None]:
            writes.append(fn)
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            fut.set_result(None)
            return fut

    said: list[str] = []

    class Conn:
        def execute(self, stmt: Any) -> None:
            said.append(str(stmt.compile(compile_kwargs={"literal_binds": True})))

    async def burst() -> None:
        cluster = Cluster(Store(), SimpleNamespace(tables={}), ttl=5.0)  # type: ignore[arg-type]
        for i in range(450):
            cluster.announce(f"t{i}", i % 4, 1)
        cluster.announce("t0", 0, 0)
        assert writes == []  # not yet
        await asyncio.sleep(ANNOUNCE_DELAY + 0.05)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # its own thread: a loop another test left running here is not in the way
        pool.submit(asyncio.run, burst()).result()
    assert len(writes) == 3  # 451 counts: 200 + 200 + 51
    for w in writes:
        w(Conn())
    items = [x for s in said for x in s.split("'P n1 ", 1)[1].split("'", 1)[0].split(" ")]
    assert items[:2] == ["t0:0:1", "t1:1:1"] and items[-1] == "t0:0:0" and len(items) == 451
