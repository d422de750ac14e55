"""Durable storage: table metadata, seats and the action log, in SQLite or PostgreSQL.

The database is a write-ahead log for the in-memory game states. All writes go
through one writer thread that commits whatever is queued in one transaction
(group commit) and only then resolves the callers' futures, so an action is on
disk before anyone is told of it. Reads happen once, at startup.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("courtcards.server")

T = TypeVar("T")

metadata = sa.MetaData()

tables_t = sa.Table(
    "cc_tables",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("result", sa.JSON, nullable=True),
)

seats_t = sa.Table(
    "cc_seats",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

actions_t = sa.Table(
    "cc_actions",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


def database_url(url: str | None, path: str | Path | None) -> str:
    """The SQLAlchemy URL for ``--database-url`` or a SQLite file path."""
    if url:
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url
    return "sqlite:///" + str(Path(path or "courtcards.sqlite").resolve())


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + FULL: every commit is fsynced, so it survives kill -9 and power loss.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """``alembic upgrade head`` with the migration scripts shipped in this package."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@dataclass
class StoredTable:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    settings: dict[str, Any]
    created: float
    finished: bool
    seats: list[dict[str, Any]] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)


def load_tables(engine: Engine) -> list[StoredTable]:
    out: dict[str, StoredTable] = {}
    with engine.connect() as conn:
        for r in conn.execute(sa.select(tables_t).order_by(tables_t.c.created)).mappings():
            out[r["id"]] = StoredTable(
                id=r["id"], game=r["game"], players=r["players"], options=dict(r["options"]), seed=int(r["seed"]),
                settings=dict(r["settings"]), created=r["created"], finished=bool(r["finished"]),
            )
        for r in conn.execute(sa.select(seats_t).order_by(seats_t.c.table_id, seats_t.c.seat)).mappings():
            if r["table_id"] in out:
                out[r["table_id"]].seats.append(dict(r))
        q = sa.select(actions_t.c.table_id, actions_t.c.idx, actions_t.c.seat, actions_t.c.text).order_by(
            actions_t.c.table_id, actions_t.c.idx
        )
        for tid, idx, seat, text in conn.execute(q):
            t = out.get(tid)
            if t is not None:
                if idx != len(t.actions):
                    raise RuntimeError(f"table {tid}: action log has a gap at index {len(t.actions)}")
                t.actions.append((seat, text))
    return list(out.values())


_Job = tuple[Callable[[Connection], Any], "asyncio.Future[Any]", asyncio.AbstractEventLoop]


class Store:
    """The database, written by one thread with group commit."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.commits = 0

    def start(self) -> None:
        migrate(self.engine)
        self._thread = threading.Thread(target=self._writer, name="courtcards-db-writer", daemon=True)
        self._thread.start()

    def load(self) -> list[StoredTable]:
        return load_tables(self.engine)

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
            self._thread = None
        self.engine.dispose()

    def write(self, fn: Callable[[Connection], T]) -> asyncio.Future[T]:
        """Run ``fn`` in a committed transaction; the future resolves after the commit."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._queue.put((fn, fut, loop))
        return fut

    def _writer(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < 1000:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._run(batch)
            if stop:
                return

    def _run(self, batch: list[_Job]) -> None:
        try:
            with self.engine.begin() as conn:
                results = [fn(conn) for fn, _, _ in batch]
            self.commits += 1
        except Exception as exc:
            if len(batch) == 1:
                log.error("database write failed: %s", exc)
                _resolve(batch[0], None, exc)
                return
            for job in batch:  # one bad write must not fail the others
                self._run([job])
            return
        for job, res in zip(batch, results, strict=True):
            _resolve(job, res, None)


def _resolve(job: _Job, result: Any, exc: BaseException | None) -> None:
    _, fut, loop = job

    def done() -> None:
        if fut.cancelled():
            return
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)

    with contextlib.suppress(RuntimeError):  # the loop is closed (shutdown)
        loop.call_soon_threadsafe(done)
