"""Durable storage: table metadata, seats and the action log, in SQLite or PostgreSQL.

The database is a write-ahead log for the in-memory game states. All writes go
through one writer thread that commits whatever is queued in one transaction
(group commit) and only then resolves the callers' futures, so an action is on
disk before anyone is told of it. A table is read when it is first needed: its
latest snapshot (the full state every few actions) and the actions after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import secrets
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
    sa.Column("status", sa.String(16), nullable=False, server_default="open"),
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("updated", sa.Float, nullable=False, server_default="0"),
    sa.Column("owner_hash", sa.String(64), nullable=True),  # the table's creator's key (mutes seats in chat)
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
    sa.Column("account_id", sa.Integer, nullable=True),  # the account that holds the seat (None: a guest)
    sa.Index("ix_cc_seats_account", "account_id"),
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


snapshots_t = sa.Table(
    "cc_snapshots",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", sa.JSON, nullable=False),
)


leases_t = sa.Table(  # several processes: the one holding a table's lease plays its bots
    "cc_leases",
    metadata,
    sa.Column("table_id", sa.String(16), primary_key=True),
    sa.Column("owner", sa.String(32), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

rate_hits_t = sa.Table(  # several processes: rate-limit hits (the limits library's moving window), shared
    "cc_rate_hits",
    metadata,
    sa.Column("key", sa.String(255), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_cc_rate_hits_key_at", "key", "at"),
)

rematches_t = sa.Table(  # a finished table -> its rematch
    "cc_rematches",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
    sa.Column("rematch_id", sa.String(16), sa.ForeignKey("cc_tables.id"), nullable=False),
)

accounts_t = sa.Table(  # optional accounts: guests play without one
    "cc_accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("username", sa.String(32), nullable=False),
    sa.Column("username_key", sa.String(32), nullable=False, unique=True),  # lower case: one name, one account
    sa.Column("password_hash", sa.String(255), nullable=False),  # argon2id, with its salt and parameters
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions_t = sa.Table(  # a signed-in browser: the SHA-256 of its cookie, never the cookie
    "cc_sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("cc_accounts.id"), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Index("ix_cc_sessions_account", "account_id"),
)

ratings_t = sa.Table(  # openskill ratings per game: accounts ("a:ID"), and bots' anchors ("bot:KIND") if set
    "cc_ratings",
    metadata,
    sa.Column("player", sa.String(48), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rating_events_t = sa.Table(  # one row per account per rated game: the rating (ordinal) before and after
    "cc_rating_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player", sa.String(48), nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("table_id", sa.String(16), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("before", sa.Float, nullable=False),
    sa.Column("after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_cc_rating_events_player", "player", "game", "at"),
)

chat_t = sa.Table(  # chat at a table: players' and spectators' channels, each message escaped by the page
    "cc_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), nullable=False),
    sa.Column("channel", sa.String(12), nullable=False),  # "players" or "spectators"
    sa.Column("seat", sa.Integer, nullable=True),  # the sender's seat (None: a spectator)
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_cc_chat_table_channel", "table_id", "channel", "id"),
)

chat_mutes_t = sa.Table(  # the seats a table's creator muted in its chat (migration 0006)
    "cc_chat_mutes",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

quickplay_t = sa.Table(  # quick-play tickets: waiting, being seated, seated or failed (migration 0007)
    "cc_quickplay",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),  # the order they came in
    sa.Column("ticket_hash", sa.String(64), nullable=False, unique=True),  # SHA-256 of the ticket
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("wait", sa.Float, nullable=False),
    sa.Column("deadline", sa.Float, nullable=False),  # time.time() at which bots fill the table
    sa.Column("status", sa.String(8), nullable=False),  # waiting, seating, seated, failed
    sa.Column("token_hash", sa.String(64), nullable=False),  # SHA-256 of the seat token the ticket will give
    sa.Column("table_id", sa.String(16), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("error", sa.String(200), nullable=True),
    sa.Column("done_at", sa.Float, nullable=True),  # when it left "waiting"
    sa.Index("ix_cc_quickplay_queue", "status", "game", "players", "id"),
    sa.Index("ix_cc_quickplay_deadline", "status", "deadline"),
)

NOTIFY_CHANNEL = "cc_tables"


def database_url(url: str | None, path: str | Path | None) -> str:
    """The SQLAlchemy URL for ``--database-url`` or a SQLite file path."""
    if url:
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix) :]
        return url
    return "sqlite:///" + str(Path(path or "courtcards.sqlite").resolve())


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, hide_parameters=True)

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + FULL: every commit is fsynced, so it survives kill -9 and power loss.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    # hide_parameters: SQL errors and debug logs must not show action texts (secret choices).
    return sa.create_engine(url, pool_pre_ping=True, hide_parameters=True)


def migrate(engine: Engine) -> None:
    """``alembic upgrade head`` with the migration scripts shipped in this package."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # processes starting together migrate one at a time
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(0x636F7572)))
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
    private: bool = False
    updated: float = 0.0
    status: str = "open"
    version: int = 0
    result: dict[str, Any] | None = None
    owner_hash: str | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    snapshot_version: int = 0  # the version the snapshot is at (0: none)
    actions: list[tuple[int, str]] = field(default_factory=list)  # every action, from the first


def _stored(r: Any) -> StoredTable:
    return StoredTable(
        id=r["id"],
        game=r["game"],
        players=r["players"],
        options=dict(r["options"]),
        seed=int(r["seed"]),
        settings=dict(r["settings"]),
        created=r["created"],
        finished=bool(r["finished"]),
        private=bool(r["private"]),
        updated=float(r["updated"]),
        status=r["status"],
        version=int(r["version"]),
        result=r["result"],
        owner_hash=r.get("owner_hash"),
    )


def read_actions(conn: Connection, tid: str, start: int) -> list[tuple[int, str]]:
    q = (
        sa.select(actions_t.c.idx, actions_t.c.seat, actions_t.c.text)
        .where(actions_t.c.table_id == tid, actions_t.c.idx >= start)
        .order_by(actions_t.c.idx)
    )
    out: list[tuple[int, str]] = []
    for idx, seat, text in conn.execute(q):
        if idx != start + len(out):
            raise RuntimeError(f"table {tid}: action log has a gap at index {start + len(out)}")
        out.append((seat, text))
    return out


Changes = tuple[list[tuple[int, str]], list[dict[str, Any]]]  # a table's actions from an index on, its seats


def read_changes(conn: Connection, tid: str, start: int) -> Changes:
    seats = [
        dict(r)
        for r in conn.execute(sa.select(seats_t).where(seats_t.c.table_id == tid).order_by(seats_t.c.seat)).mappings()
    ]
    return read_actions(conn, tid, start), seats


# PostgreSQL: the actions of several tables, each from its own index on, in one statement
READ_MANY_ACTIONS = sa.text(
    "SELECT a.table_id, a.idx, a.seat, a.text FROM cc_actions a "
    "JOIN unnest(CAST(:ids AS text[]), CAST(:starts AS integer[])) AS w(tid, start) "
    "ON a.table_id = w.tid AND a.idx >= w.start ORDER BY a.table_id, a.idx"
)


def read_many(conn: Connection, starts: dict[str, int]) -> dict[str, Changes]:
    """:func:`read_changes` of several tables (id -> first action index) in two statements (PostgreSQL)."""
    ids = list(starts)
    out: dict[str, Changes] = {tid: ([], []) for tid in ids}
    for tid, idx, seat, text in conn.execute(READ_MANY_ACTIONS, {"ids": ids, "starts": [starts[t] for t in ids]}):
        got = out[tid][0]
        if idx != starts[tid] + len(got):
            raise RuntimeError(f"table {tid}: action log has a gap at index {starts[tid] + len(got)}")
        got.append((seat, text))
    for r in _seat_rows(conn, ids):
        out[r["table_id"]][1].append(dict(r))
    return out


def _seat_rows(conn: Connection, ids: list[str]) -> sa.MappingResult:
    """The seats of these tables, by table then seat."""
    q = sa.select(seats_t).where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.table_id, seats_t.c.seat)
    return conn.execute(q).mappings()


def load_table(engine: Engine, tid: str) -> StoredTable | None:
    """One table: its row, seats, latest snapshot and every action (the history; the state replays
    only those after the snapshot)."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(tables_t).where(tables_t.c.id == tid)).mappings().first()
        if row is None:
            return None
        st = _stored(row)
        st.seats = [
            dict(r)
            for r in conn.execute(
                sa.select(seats_t).where(seats_t.c.table_id == tid).order_by(seats_t.c.seat)
            ).mappings()
        ]
        snap = conn.execute(
            sa.select(snapshots_t.c.version, snapshots_t.c.state).where(snapshots_t.c.table_id == tid)
        ).first()
        if snap is not None:
            st.snapshot_version, st.snapshot = int(snap[0]), dict(snap[1])
        st.actions = read_actions(conn, tid, 0)
    return st


def recent_tables(engine: Engine, since: float, limit: int) -> list[str]:
    """Unfinished tables with activity since ``since``, newest first (resumed at start)."""
    q = (
        sa.select(tables_t.c.id)
        .where(tables_t.c.finished.is_(False), tables_t.c.updated >= since)
        .order_by(tables_t.c.updated.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(q)]


def list_tables(
    engine: Engine, status: str | None, game: str | None, limit: int, offset: int
) -> tuple[list[StoredTable], int]:
    """Listed (not private) tables, newest first: one page and the total count."""
    cond: list[sa.ColumnElement[bool]] = [tables_t.c.private.is_(False)]
    if status is not None:
        cond.append(tables_t.c.status == status)
    if game is not None:
        cond.append(tables_t.c.game == game)
    with engine.connect() as conn:
        total = int(conn.execute(sa.select(sa.func.count()).select_from(tables_t).where(*cond)).scalar_one())
        rows = (
            conn.execute(
                sa.select(tables_t)
                .where(*cond)
                .order_by(tables_t.c.created.desc(), tables_t.c.id)
                .limit(limit)
                .offset(offset)
            )
            .mappings()
            .all()
        )
        out = {r["id"]: _stored(r) for r in rows}
        for r in _seat_rows(conn, list(out)):
            out[r["table_id"]].seats.append(dict(r))
    return list(out.values()), total


def list_by_ids(engine: Engine, ids: list[str]) -> list[StoredTable]:
    """These tables (private ones too: the caller holds a seat at each), with their seats."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(tables_t).where(tables_t.c.id.in_(ids))).mappings().all()
        out = {r["id"]: _stored(r) for r in rows}
        for r in _seat_rows(conn, list(out)):
            out[r["table_id"]].seats.append(dict(r))
    return list(out.values())


def _recent_chat(conn: Connection, tid: str, channel: str, limit: int) -> list[dict[str, Any]]:
    q = (
        sa.select(chat_t.c.id, chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.at)
        .where(chat_t.c.table_id == tid, chat_t.c.channel == channel)
        .order_by(chat_t.c.id.desc())
        .limit(limit)
    )
    return [dict(r) for r in reversed(conn.execute(q).mappings().all())]


def chat_greeting(engine: Engine, tid: str, channel: str, limit: int) -> tuple[list[int], list[dict[str, Any]]]:
    """What a new connection is told of a table's chat, read through one connection (a burst of
    reconnections makes one round trip each, not two): the muted seats, and the last ``limit``
    messages of its channel, oldest first."""
    with engine.connect() as conn:
        return _chat_mutes(conn, tid), _recent_chat(conn, tid, channel, limit)


def chat_message(engine: Engine, mid: int) -> dict[str, Any] | None:
    """One stored chat message (another process stored it) by its id."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(chat_t).where(chat_t.c.id == mid)).mappings().first()
    return None if row is None else dict(row)


def _chat_mutes(conn: Connection, tid: str) -> list[int]:
    q = sa.select(chat_mutes_t.c.seat).where(chat_mutes_t.c.table_id == tid).order_by(chat_mutes_t.c.seat)
    return [int(r[0]) for r in conn.execute(q)]


def chat_mutes(engine: Engine, tid: str) -> list[int]:
    """The muted seats of a table, in order."""
    with engine.connect() as conn:
        return _chat_mutes(conn, tid)


INSERT_ACTION = actions_t.insert()  # built once: its compiled form is cached


class ActionRow:
    """A write of one action: the writer inserts every one of a transaction in one executemany (one
    round trip, where a loaded machine makes each round trip slow)."""

    __slots__ = ("row", "store")

    def __init__(self, store: Store, row: dict[str, Any]) -> None:
        self.store, self.row = store, row

    def __call__(self, conn: Connection) -> None:  # alone (after a batch failed)
        conn.execute(INSERT_ACTION, self.row)
        self.store.notify(conn, self.row["table_id"])


_Job = tuple[Callable[[Connection], Any], "asyncio.Future[Any]", asyncio.AbstractEventLoop]


class Store:
    """The database, written by one thread with group commit."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.shared = self.engine.dialect.name == "postgresql"  # other processes may use it too
        self.node = secrets.token_hex(8)
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.commits = 0
        self.actions = 0  # actions committed by this process
        self.on_action: Callable[[float], None] | None = None  # seconds from a move's arrival to its push
        self._changed: set[str] = set()  # tables changed in the writer's current transaction
        # times this process may have missed the others' announcements (its listener connected again): what
        # it keeps in memory from the database on their word (a table's chat) is read again after one
        self.missed = 0

    def start(self) -> None:
        migrate(self.engine)
        self._thread = threading.Thread(target=self._writer, name="courtcards-db-writer", daemon=True)
        self._thread.start()

    def load(self, tid: str) -> StoredTable | None:
        return load_table(self.engine, tid)

    def notify(self, conn: Connection, tid: str) -> None:
        """Tell the other processes (at commit) that table ``tid`` changed. Writer thread only: one
        NOTIFY per transaction names every table it changed."""
        if self.shared:
            self._changed.add(tid)

    def _notify_changed(self, conn: Connection) -> None:
        tids, self._changed = sorted(self._changed), set()
        for i in range(0, len(tids), 400):  # NOTIFY payloads stay under 8000 bytes
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, " ".join(["C", self.node, *tids[i : i + 400]]))))

    def changes(self, tid: str, start: int) -> Changes:
        """The actions from index ``start`` on, and the seats, of one table."""
        with self.engine.connect() as conn:
            return read_changes(conn, tid, start)

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

    def log_action(self, tid: str, idx: int, seat: int, text: str, at: float) -> asyncio.Future[None]:
        """Store action ``idx`` of table ``tid``; the future resolves after the commit (IntegrityError if
        that index is taken: another process stored an action there first)."""
        return self.write(ActionRow(self, {"table_id": tid, "idx": idx, "seat": seat, "text": text, "at": at}))

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
        self._changed = set()
        try:
            with self.engine.begin() as conn:
                rows = [fn.row for fn, _, _ in batch if isinstance(fn, ActionRow)] if len(batch) > 1 else []
                results = [None if rows and isinstance(fn, ActionRow) else fn(conn) for fn, _, _ in batch]
                if rows:
                    conn.execute(INSERT_ACTION, rows)
                    if self.shared:
                        self._changed.update(r["table_id"] for r in rows)
                if self._changed:
                    self._notify_changed(conn)
            self.commits += 1
        except Exception as exc:
            if len(batch) == 1:
                log.error("database write failed: %s", type(exc).__name__)
                _resolve(batch, [None], exc)
                return
            for job in batch:  # one bad write must not fail the others
                self._run([job])
            return
        _resolve(batch, results, None)


def _resolve(batch: list[_Job], results: list[Any], exc: BaseException | None) -> None:
    """Resolve the futures of a batch: one wake-up of each event loop, not one per job."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
    for (_, fut, loop), res in zip(batch, results, strict=True):
        loops.setdefault(loop, []).append((fut, res))

    def done(items: list[tuple[asyncio.Future[Any], Any]]) -> None:
        for fut, res in items:
            if fut.cancelled():
                continue
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(res)

    for loop, items in loops.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed (shutdown)
            loop.call_soon_threadsafe(done, items)
