"""Chat at a table, over the table's WebSocket: players talk to players, spectators to spectators
(a spectator who sees every hand of a replay, or a friend watching over a shoulder, never tells a
player anything). Messages are short, rate-limited per seat (per connection for spectators), refused
if they hold control characters, and sent as text: the page escapes them. The table's creator (the
holder of the table's owner key) may mute a seat.

Messages are kept in the database (``cc_chat``): a new connection is sent the last ``HISTORY`` messages of
its channel, read from there, so they survive a restart and reach a connection to any server process. With
several processes on PostgreSQL a message is also announced (``NOTIFY cc_tables 'M <process> <table> <id>'``)
and each process pushes it to its own connections. Once read, a channel's last messages (and the mutes) are
kept in the table's memory, current with every message pushed here, so the table's next connections are
greeted without a read, until this process may have missed an announcement (``Store.missed``).

Mutes are kept in the database too (``cc_chat_mutes``): the transaction that stores a player's message first
looks there (and at the seat's recent messages, for the rate limit), so whichever process receives it refuses
a muted seat's message, and a restart keeps the mutes. A change of mutes is announced (``NOTIFY cc_tables
'U <process> <table>'``); each process reads the table's mutes again and tells its connections
(``{"type": "muted", ...}``). Spectators' rate limits are per connection, so in the memory of its process.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from courtcards.server import db
from courtcards.server.db import NOTIFY_CHANNEL, chat_mutes_t, chat_t
from courtcards.server.text import text_fault

if TYPE_CHECKING:
    from courtcards.server.tables import Client, Table

MAX_CHAT = 200  # characters of one message
HISTORY = 50  # messages of each channel sent to a new connection
HISTORY_KEYS = ("id", "seat", "name", "text", "at")

log = logging.getLogger("courtcards.server")


@dataclass
class ChatRoom:
    # connections whose history is being read: the messages sent meanwhile wait here, (id, message)
    greeting: dict[Client, list[tuple[int, str]]] = field(default_factory=dict)
    # the ids each connection was sent as history (another process's message may come after it was read)
    shown: weakref.WeakKeyDictionary[Client, set[int]] = field(default_factory=weakref.WeakKeyDictionary)
    muted: set[int] = field(default_factory=set)  # as last read from the database (told to the connections)
    mutes_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one read of the mutes at a time
    # greet: connections waiting for a read of their channel's greeting, and the reads made for them
    to_greet: dict[str, list[Client]] = field(default_factory=dict)
    greeted: dict[Client, tuple[list[int], list[dict[str, Any]]] | Exception] = field(default_factory=dict)
    sent: dict[object, deque[float]] = field(default_factory=dict)  # spectator's connection -> recent times
    # Each channel's last messages once read, kept current by deliver(), and the mutes: later connections
    # are greeted from memory. Valid while this process has missed no other process's announcement since
    # the read (``Store.missed`` unchanged); ``reading``: messages delivered while a read is under way.
    history: dict[str, tuple[int, list[dict[str, Any]]]] = field(default_factory=dict)  # (Store.missed, rows)
    reading: list[dict[str, Any]] | None = None

    def remember(self, key: str, row: dict[str, Any]) -> None:
        """A message delivered in channel ``key``: into the kept history (and the read under way's)."""
        kept = _entry(row)
        if self.reading is not None:
            self.reading.append({**kept, "channel": key})
        entry = self.history.get(key)
        rows = entry[1] if entry is not None else None
        if rows is not None and all(r["id"] != kept["id"] for r in rows):
            rows.append(kept)
            rows.sort(key=lambda r: int(r["id"]))
            del rows[:-HISTORY]

    def allow(self, key: object, amount: int, per: float, now: float) -> bool:
        """A moving window of ``amount`` messages per ``per`` seconds for one sender."""
        times = self.sent.setdefault(key, deque())
        while times and times[0] <= now - per:
            times.popleft()
        if len(times) >= amount:
            return False
        times.append(now)
        return True


def channel(seat: int | None) -> str:
    return "spectators" if seat is None else "players"


async def say(table: Table, client: Client, text: str, amount: int, per: float) -> str | None:
    """Store ``client``'s message, then send it to its channel; None, or the error message for the sender."""
    room = table.chat
    text = text.strip()
    if not text:
        return None
    if len(text) > MAX_CHAT:
        return table.error("chat_too_long", f"chat messages are at most {MAX_CHAT} characters")
    fault = text_fault(text)
    if fault is not None:
        return table.error("bad_message", f"the message {fault}")
    seat = client.seat
    now = time.time()
    if seat is None and amount and not room.allow(id(client), amount, per, now):
        return table.error("chat_rate_limited", f"at most {amount} chat messages in {per:g} s")
    if seat is None:
        name = "spectator"
    else:
        info = table.seats[seat]
        name = info.name or f"Seat {seat + 1}"
    row: dict[str, Any] = {
        "table_id": table.id,
        "channel": channel(seat),
        "seat": seat,
        "name": name,
        "text": text,
        "at": now,
    }
    store = table.store

    def write(conn: Connection) -> int | str:
        if seat is not None:  # the database decides, whichever process holds the table or the connection
            muted = sa.select(chat_mutes_t.c.seat).where(
                chat_mutes_t.c.table_id == table.id, chat_mutes_t.c.seat == seat
            )
            if conn.execute(muted).first() is not None:
                return "muted"
            if amount:  # a moving window: the seat's amount-th last message is older than per seconds
                q = (
                    sa.select(chat_t.c.at)
                    .where(chat_t.c.table_id == table.id, chat_t.c.channel == "players", chat_t.c.seat == seat)
                    .order_by(chat_t.c.id.desc())
                    .offset(amount - 1)
                    .limit(1)
                )
                last = conn.execute(q).scalar()
                if last is not None and last > now - per:
                    return "rate"
        key = conn.execute(chat_t.insert().values(row)).inserted_primary_key
        assert key is not None
        mid = int(key[0])
        if store.shared:  # the other processes push it to their connections (sent at commit)
            note = f"M {store.node} {table.id} {mid}"
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, note)))
        return mid

    try:
        mid = await store.write(write)
    except Exception as exc:
        log.error("table %s: a chat message was not stored: %s", table.id, type(exc).__name__)
        return table.error("server_error", "the message could not be stored; send it again")
    if mid == "muted":
        return table.error("muted", "the table's creator muted your chat")
    if mid == "rate":
        return table.error("chat_rate_limited", f"at most {amount} chat messages in {per:g} s")
    row["id"] = mid
    deliver(table, row)
    return None


def render(row: dict[str, Any]) -> str:
    from courtcards.server.tables import dumps

    keys = ("id", "channel", "seat", "name", "text", "at")
    return dumps({"type": "chat", **{k: row[k] for k in keys}})


def deliver(table: Table, row: dict[str, Any]) -> None:
    """Push a stored message to this process's connections in its channel."""
    room = table.chat
    mid, msg = int(row["id"]), render(row)
    room.remember(row["channel"], row)
    for conn in list(table.conns):
        if channel(conn.seat) != row["channel"]:
            continue
        waiting = room.greeting.get(conn)
        if waiting is not None:
            waiting.append((mid, msg))
        elif mid not in room.shown.get(conn, ()):
            conn.push(msg)


async def heard(table: Table, mid: int) -> None:
    """Another process stored message ``mid`` of this table: push it here."""
    try:
        row = await asyncio.to_thread(db.chat_message, table.store.engine, mid)
    except Exception as exc:
        log.error("table %s: a chat message could not be read: %s", table.id, type(exc).__name__)
        return
    if row is not None and row["table_id"] == table.id:
        deliver(table, row)


async def mute(table: Table, owner: str, seat: int, muted: bool) -> str | None:
    """The creator mutes or unmutes a seat (stored, then told to every connection, here and in the other
    processes); None, or the error message for the sender."""
    from courtcards.server.tables import hash_token

    if table.owner_hash is None or not hmac.compare_digest(table.owner_hash, hash_token(owner)):
        return table.error("not_owner", "only the table's creator (with its owner key) mutes seats")
    if not 0 <= seat < len(table.seats):
        return table.error("bad_message", f"there is no seat {seat}")
    store = table.store

    def write(conn: Connection) -> None:
        if muted:
            insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
            stmt = insert(chat_mutes_t).values(table_id=table.id, seat=seat, at=time.time())
            conn.execute(stmt.on_conflict_do_nothing())
        else:
            conn.execute(chat_mutes_t.delete().where(chat_mutes_t.c.table_id == table.id, chat_mutes_t.c.seat == seat))
        if store.shared:  # the other processes read the mutes again (sent at commit)
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, f"U {store.node} {table.id}")))

    try:
        await store.write(write)
    except Exception as exc:
        log.error("table %s: a mute was not stored: %s", table.id, type(exc).__name__)
        return table.error("server_error", "the mute could not be stored; send it again")
    await read_mutes(table, everyone=True)
    return None


async def read_mutes(table: Table, to: Client | None = None, everyone: bool = False) -> None:
    """Read the table's mutes from the database; tell every connection here if they changed (or
    ``everyone``), else ``to`` (a new connection) if any seat is muted."""
    async with table.chat.mutes_lock:  # reads in turn: a later read never pushes an older answer
        try:
            seats = await asyncio.to_thread(db.chat_mutes, table.store.engine, table.id)
        except Exception as exc:
            log.error("table %s: the mutes could not be read: %s", table.id, type(exc).__name__)
            return
        _tell_mutes(table, seats, to, everyone)


def _tell_mutes(table: Table, seats: list[int], to: Client | None, everyone: bool = False) -> None:
    from courtcards.server.tables import dumps

    room = table.chat
    changed = set(seats) != room.muted
    room.muted = set(seats)
    push = dumps({"type": "muted", "seats": seats})
    if changed or everyone:
        for conn in list(table.conns):
            conn.push(push)
    elif to is not None and seats:
        to.push(push)


async def greet(table: Table, client: Client) -> None:
    """What a new connection is told of the chat: the mutes and its channel's last messages, read from the
    database in one round trip (nothing while nobody has chatted: a client that knows no chat gets no
    message it does not know). Messages sent while they are read follow them, none twice. Connections of
    one channel waiting together share one read that started after they all came (a reconnection burst
    reads once per table, not once per socket)."""
    room = table.chat
    key = channel(client.seat)
    missed, kept = room.history.get(key, (-1, []))
    if missed == table.store.missed:  # read since this process last missed an announcement: from memory
        _tell_mutes(table, sorted(room.muted), to=client)
        _greet(room, client, key, kept, [])
        return
    room.greeting[client] = []
    room.to_greet.setdefault(key, []).append(client)
    rows: list[dict[str, Any]] = []
    try:
        async with room.mutes_lock:  # the mutes are read in turn with read_mutes' reads
            read = room.greeted.pop(client, None)
            if read is None:  # nobody read for this connection meanwhile: read for every one waiting
                batch = room.to_greet.pop(key, [])
                missed, room.reading = table.store.missed, []
                try:
                    read = await asyncio.to_thread(db.chat_greeting, table.store.engine, table.id, key, HISTORY)
                except Exception as exc:
                    read = exc
                finally:
                    came, room.reading = room.reading, None
                if not isinstance(read, Exception) and missed == table.store.missed:
                    _keep(room, key, read[1], came, missed)
                for other in batch:
                    if other is not client:
                        room.greeted[other] = read
                        if not isinstance(read, Exception):  # the mutes now: a later read comes after
                            _tell_mutes(table, read[0], to=other)
                if not isinstance(read, Exception):
                    _tell_mutes(table, read[0], to=client)
            if isinstance(read, Exception):
                raise read
            rows = read[1]
    except Exception as exc:
        log.error("table %s: the chat could not be read: %s", table.id, type(exc).__name__)
    finally:
        waiting = room.greeting.pop(client, [])
        room.greeted.pop(client, None)
        batch = room.to_greet.get(key, [])
        if client in batch:  # (cancelled before it was read for)
            batch.remove(client)
    _greet(room, client, key, rows, waiting)


def _keep(room: ChatRoom, key: str, rows: list[dict[str, Any]], came: list[dict[str, Any]], missed: int) -> None:
    """Keep a channel's read history, with the messages delivered while it was read (in it or not)."""
    merged = {int(r["id"]): _entry(r) for r in rows}
    for r in came:
        if r["channel"] == key:
            merged.setdefault(int(r["id"]), _entry(r))
    room.history[key] = (missed, [merged[i] for i in sorted(merged)][-HISTORY:])


def _entry(row: dict[str, Any]) -> dict[str, Any]:
    """What the kept history holds of a message."""
    return {k: row[k] for k in HISTORY_KEYS}


def _greet(
    room: ChatRoom, client: Client, key: str, rows: list[dict[str, Any]], waiting: list[tuple[int, str]]
) -> None:
    ids = {int(r["id"]) for r in rows}
    room.shown[client] = ids
    for r in rows:
        client.push(render({**r, "channel": key}))
    for mid, msg in waiting:
        if mid not in ids:
            client.push(msg)
