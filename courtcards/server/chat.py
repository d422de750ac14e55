"""Chat at a table, over the table's WebSocket: players talk to players, spectators to spectators
(a spectator who sees every hand of a replay, or a friend watching over a shoulder, never tells a
player anything). Messages are short, rate-limited per seat (per connection for spectators), refused
if they hold control characters, and sent as text: the page escapes them. The table's creator (the
holder of the table's owner key) may mute a seat.

Messages are kept in the database (``cc_chat``): a new connection is sent the last ``HISTORY`` messages of
its channel, read from there, so they survive a restart and reach a connection to any server process. With
several processes on PostgreSQL a message is also announced (``NOTIFY cc_tables 'M <process> <table> <id>'``)
and each process pushes it to its own connections. Mutes and the rate limits' counts stay in the memory of
the process that holds the table.
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
from sqlalchemy.engine import Connection

from courtcards.server import db
from courtcards.server.db import NOTIFY_CHANNEL, chat_t
from courtcards.server.text import text_fault

if TYPE_CHECKING:
    from courtcards.server.tables import Client, Table

MAX_CHAT = 200  # characters of one message
HISTORY = 50  # messages of each channel sent to a new connection

log = logging.getLogger("courtcards.server")


@dataclass
class ChatRoom:
    # connections whose history is being read: the messages sent meanwhile wait here, (id, message)
    greeting: dict[Client, list[tuple[int, str]]] = field(default_factory=dict)
    # the ids each connection was sent as history (another process's message may come after it was read)
    shown: weakref.WeakKeyDictionary[Client, set[int]] = field(default_factory=weakref.WeakKeyDictionary)
    muted: set[int] = field(default_factory=set)
    sent: dict[object, deque[float]] = field(default_factory=dict)  # seat (or connection) -> recent times

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
    if client.seat is not None and client.seat in room.muted:
        return table.error("muted", "the table's creator muted your chat")
    if amount and not room.allow(client.seat if client.seat is not None else id(client), amount, per, time.time()):
        return table.error("chat_rate_limited", f"at most {amount} chat messages in {per:g} s")
    seat = client.seat
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
        "at": time.time(),
    }
    store = table.store

    def write(conn: Connection) -> int:
        key = conn.execute(chat_t.insert().values(row)).inserted_primary_key
        assert key is not None
        mid = int(key[0])
        if store.shared:  # the other processes push it to their connections (sent at commit)
            note = f"M {store.node} {table.id} {mid}"
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, note)))
        return mid

    try:
        row["id"] = await store.write(write)
    except Exception as exc:
        log.error("table %s: a chat message was not stored: %s", table.id, type(exc).__name__)
        return table.error("server_error", "the message could not be stored; send it again")
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


def mute(table: Table, owner: str, seat: int, muted: bool) -> str | None:
    """The creator mutes or unmutes a seat; None, or the error message for the sender."""
    from courtcards.server.tables import dumps, hash_token

    if table.owner_hash is None or not hmac.compare_digest(table.owner_hash, hash_token(owner)):
        return table.error("not_owner", "only the table's creator (with its owner key) mutes seats")
    if not 0 <= seat < len(table.seats):
        return table.error("bad_message", f"there is no seat {seat}")
    if muted:
        table.chat.muted.add(seat)
    else:
        table.chat.muted.discard(seat)
    push = dumps({"type": "muted", "seats": sorted(table.chat.muted)})
    for conn in list(table.conns):
        conn.push(push)
    return None


async def greet(table: Table, client: Client) -> None:
    """What a new connection is told of the chat: the mutes and its channel's last messages, read from the
    database (nothing while nobody has chatted: a client that knows no chat gets no message it does not
    know). Messages sent while they are read follow them, none twice."""
    from courtcards.server.tables import dumps

    room = table.chat
    if room.muted:
        client.push(dumps({"type": "muted", "seats": sorted(room.muted)}))
    room.greeting[client] = []
    rows: list[dict[str, Any]] = []
    try:
        rows = await asyncio.to_thread(db.recent_chat, table.store.engine, table.id, channel(client.seat), HISTORY)
    except Exception as exc:
        log.error("table %s: the chat could not be read: %s", table.id, type(exc).__name__)
    finally:
        waiting = room.greeting.pop(client, [])
    ids = {int(r["id"]) for r in rows}
    room.shown[client] = ids
    for r in rows:
        client.push(render({**r, "channel": channel(client.seat)}))
    for mid, msg in waiting:
        if mid not in ids:
            client.push(msg)
