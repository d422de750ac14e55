"""Chat at a table, over the table's WebSocket: players talk to players, spectators to spectators
(a spectator who sees every hand of a replay, or a friend watching over a shoulder, never tells a
player anything). Messages are short, rate-limited per seat (per connection for spectators), refused
if they hold control characters, and sent as text: the page escapes them. The table's creator (the
holder of the table's owner key) may mute a seat.

Chat lives in the memory of the process that holds the table: the last messages of each channel are
sent to a new connection; they are not stored in the database (a restart clears them), and with
several server processes a message reaches the connections of the process it was sent to.
"""

from __future__ import annotations

import hmac
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from courtcards.server.text import text_fault

if TYPE_CHECKING:
    from courtcards.server.tables import Client, Table

MAX_CHAT = 200  # characters of one message
HISTORY = 50  # messages of each channel kept for new connections


@dataclass
class ChatRoom:
    history: dict[str, deque[str]] = field(
        default_factory=lambda: {"players": deque(maxlen=HISTORY), "spectators": deque(maxlen=HISTORY)}
    )
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


def say(table: Table, client: Client, text: str, amount: int, per: float) -> str | None:
    """Send ``client``'s message to its channel; None, or the error message for the sender."""
    from courtcards.server.tables import dumps

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
    where = channel(seat)
    msg = dumps({"type": "chat", "channel": where, "seat": seat, "name": name, "text": text, "at": time.time()})
    room.history[where].append(msg)
    for conn in list(table.conns):
        if channel(conn.seat) == where:
            conn.push(msg)
    return None


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


def greet(table: Table, client: Client) -> None:
    """What a new connection is told of the chat: the mutes and its channel's last messages (nothing
    while nobody has chatted: a client that knows no chat gets no message it does not know)."""
    from courtcards.server.tables import dumps

    if table.chat.muted:
        client.push(dumps({"type": "muted", "seats": sorted(table.chat.muted)}))
    for msg in table.chat.history[channel(client.seat)]:
        client.push(msg)
