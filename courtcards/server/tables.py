"""Tables at run time: engine states in memory, the database as their durable log.

Every change to a table happens under the table's lock: check, commit to the
database, apply to the in-memory state, then push each connection the view
of its own seat. Bots (and stand-ins for absent humans, and seats whose move
time ran out) are played by one driver task per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from courtcards.bots.base import Bot, bot_kinds, bot_move, check_bot_table, make_bot
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
from courtcards.server.chat import ChatRoom
from courtcards.server.db import (
    Changes,
    Store,
    StoredTable,
    leases_t,
    list_tables,
    recent_tables,
    rematches_t,
    seats_t,
    snapshots_t,
    tables_t,
)
from courtcards.server.text import clean_text, text_fault

if TYPE_CHECKING:
    from courtcards.server.cluster import Cluster
    from courtcards.server.compute import Compute
    from courtcards.server.schemas import SocketErrorCode

log = logging.getLogger("courtcards.server")

ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
ID_SET = set(ID_ALPHABET)
SEED_LIMIT = 2**63


class Conflict(Exception):
    """Another process stored an action at this index first (the table has caught up since)."""


class RematchExists(Exception):
    """The finished table has its rematch already (made by another process)."""


class Refused(NamedTuple):
    """Why a seat's action is refused: the socket's error ``code`` and ``message``, the engine's ``reason``
    (the sentence a check answers) and, for a rule the engine names, the refusal's own ``reason_code``
    (``courtcards.core.errors.Refusal``: "illegal" when the game names none) and ``reason_data`` (seats as ints)."""

    code: SocketErrorCode
    message: str
    reason: str
    reason_code: str | None = None
    reason_data: dict[str, Any] | None = None


class ApiError(Exception):
    """A refusal with a typed code, an HTTP status and a message for the client."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@functools.lru_cache(maxsize=1024)
def cpu_heavy(game: str, kind: str) -> bool:
    """Whether the bot ``kind`` (``kind`` or ``kind:ARG``) of ``game`` is CPU-heavy: the bot's own word
    (``slow = True``: a search, run in the compute workers), never its name, so a plug-in's search counts."""
    try:
        bot = make_bot(game, kind, 0)
    except CourtcardsError:  # a stored table whose bot is gone (a plug-in removed) still loads
        return False
    return bool(getattr(bot, "slow", False))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def dumps(data: Any) -> str:
    """Compact JSON (orjson: the pushes are most of the server's encoding work)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits
        return json.dumps(data, separators=(",", ":"))


@dataclass
class Seat:
    seat: int
    type: str  # "human" or "bot"
    bot: str | None
    name: str | None = None
    token_hash: str | None = None
    account_id: int | None = None  # the account holding the seat (None: a guest, or nobody yet)
    connections: int = 0
    gone_since: float = 0.0
    stand_in: bool = False
    remote: dict[str, float] = field(default_factory=dict)  # other processes with a connection: when they said so

    @property
    def present(self) -> bool:
        return self.connections > 0 or bool(self.remote)

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
            "connected": self.type == "bot" or self.present,
            "stand_in": self.stand_in,
        }


@dataclass
class Settings:
    bot_delay: float = 0.6
    absent_timeout: float = 60.0
    move_time_limit: float | None = None
    hints: bool | None = None  # the Hint button; None: on when a bot has a seat
    rated: bool = False  # the game's end rates its accounts (only accounts take its seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "bot_delay": self.bot_delay,
            "absent_timeout": self.absent_timeout,
            "move_time_limit": self.move_time_limit,
            "hints": self.hints,
            "rated": self.rated,
        }


def table_info(
    tid: str,
    private: bool,
    game: Game[Any],
    players: int,
    options: dict[str, Any],
    status: str,
    created: float,
    seats: list[Seat],
    version: int,
    to_move: list[int],
    settings: Settings,
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "id": tid,
        "private": private,
        "game": game.name,
        "title": game.title,
        "players": players,
        "options": dict(options),
        "status": status,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created)),
        "seats": [s.info() for s in seats],
        "version": version,
        "to_move": to_move,
        "settings": settings.to_json(),
        "result": result,
    }


def _seats(rows: list[dict[str, Any]]) -> list[Seat]:
    return [
        Seat(
            seat=r["seat"],
            type=r["kind"],
            bot=r["bot"],
            name=r["name"],
            token_hash=r["token_hash"],
            account_id=r.get("account_id"),
        )
        for r in rows
    ]


def _settings(data: dict[str, Any]) -> Settings:
    return Settings(
        bot_delay=float(data["bot_delay"]),
        absent_timeout=float(data["absent_timeout"]),
        move_time_limit=data.get("move_time_limit"),
        hints=data.get("hints"),
        rated=bool(data.get("rated", False)),
    )


def stored_info(st: StoredTable) -> dict[str, Any]:
    """The TableInfo of a table that is not in memory (nobody connected; to_move left empty)."""
    return table_info(
        st.id,
        st.private,
        get_game(st.game),
        st.players,
        st.options,
        st.status,
        st.created,
        _seats(st.seats),
        st.version,
        [],
        _settings(st.settings),
        st.result,
    )


class SpectatorPace:
    """The state pushes a process's spectators share: each spectator gets a table's newest state at most
    every ``watching / rate`` seconds, so the fan-out costs at most ``rate`` pushes a second whatever the
    number of spectators (``rate`` 0: every state at once). Few spectators see every state; a crowd sees
    the newest one now and then (each state carries the whole view, its log included, so nothing is lost)."""

    def __init__(self, rate: float = 0.0) -> None:
        self.rate = rate
        self.watching = 0  # spectator sockets in this process

    def interval(self) -> float:
        return self.watching / self.rate if self.rate > 0 else 0.0


class Client:
    """One WebSocket: a seat (or None for a spectator) and a bounded outgoing queue.

    Once ``behind`` messages wait (``BEHIND`` unless told; the server gives spectators 1), a state
    message replaces the state still waiting in the queue (each is the whole view: a client that falls
    behind skips to the newest; one that keeps up gets every one). Other messages (errors, acks, chat)
    are never replaced. A client that falls ``max_queue`` messages behind, or whose socket takes longer
    than ``send_timeout`` to take one message, is dropped: ``reason`` says why, and ``on_drop`` closes
    its socket (it may reconnect and gets the current state).
    """

    BEHIND = 8  # messages waiting: from here on a new state replaces the waiting one

    def __init__(
        self,
        seat: int | None,
        send: Callable[[str], Awaitable[None]],
        max_queue: int = 256,
        send_timeout: float = 30.0,
        on_drop: Callable[[str], None] | None = None,
        behind: int = BEHIND,
    ) -> None:
        self.seat = seat
        self._send = send
        self.max_queue = max_queue
        self.behind = max(1, behind)
        self.last_state: str | None = None  # the last state message pushed (a spectator's fan-out skips it)
        self.send_timeout = send_timeout
        self.on_drop = on_drop
        self.queue: asyncio.Queue[list[str] | None] = asyncio.Queue()
        self._waiting_state: list[str] | None = None  # the queued state message, until the pump takes it
        self.closed = False
        self.reason: str | None = None
        self.sending_since: float | None = None
        self.skipped = 0  # state messages replaced by a newer one before they were sent

    def push(self, text: str, state: bool = False) -> None:
        if self.closed:
            return
        if state:
            self.last_state = text
        if state and self._waiting_state is not None and self.queue.qsize() >= self.behind:
            self._waiting_state[0] = text
            self.skipped += 1
            return
        if self.queue.qsize() >= self.max_queue:
            self.drop(f"too slow: more than {self.max_queue} messages waiting to be sent")
            return
        item = [text]
        if state:
            self._waiting_state = item
        self.queue.put_nowait(item)

    def drop(self, reason: str) -> None:
        if self.closed:
            return
        self.reason = reason
        while not self.queue.empty():
            self.queue.get_nowait()
        self.close()
        if self.on_drop is not None:
            self.on_drop(reason)

    async def pump(self) -> None:
        """Send queued messages in order until closed."""
        loop = asyncio.get_running_loop()
        while True:
            item = await self.queue.get()
            if item is None:
                return
            if item is self._waiting_state:
                self._waiting_state = None
            self.sending_since = loop.time()
            await self._send(item[0])
            self.sending_since = None

    def check_stuck(self, now: float) -> None:
        """Drop the client if one message has been on its way for longer than ``send_timeout`` (loop time)."""
        since = self.sending_since
        if since is not None and now - since > self.send_timeout:
            self.drop(f"too slow: a message took more than {self.send_timeout:g} s to send")

    def close(self) -> None:
        self.closed = True
        self._waiting_state = None
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
    private: bool = False
    owner_hash: str | None = None  # SHA-256 of the creator's key (chat: mutes seats)
    owned: bool = True  # this process plays the table's bots (with several processes: it holds the lease)
    announce: Callable[[str, int, int], None] | None = None  # tells other processes a seat's connections here
    snapshot_every: int = 100
    last_seen: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    conns: set[Client] = field(default_factory=set)
    chat: ChatRoom = field(default_factory=ChatRoom)
    decision_start: dict[int, float] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    compute: Compute | None = None  # worker processes for search bots (None: a thread)
    heavy: bool = False  # a bot seat is CPU-heavy (a search): counted by the lobby's search quota
    creator: str | None = None  # the client address that made it here (None: loaded from the database)
    # the state messages of the last broadcast, by seat (None: spectators), and what they were made from
    _pushed: dict[int | None, str] = field(default_factory=dict)
    _pushed_key: Any = None
    # the task pushing to the spectators that a broadcast left for later or for the pace
    _fan_task: asyncio.Task[None] | None = None
    _fan_due: bool = False  # a broadcast came while the fan-out ran: it goes round again
    _fanned_at: float = float("-inf")  # loop time of the last round of spectator pushes
    pace: SpectatorPace | None = None  # shared by the process's tables (None: every state at once)

    # spectators pushed per turn of the event loop: a table with many never holds the loop for long
    FAN_CHUNK: ClassVar[int] = 64

    # -- description ----------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.state.is_over():
            return "finished"
        for s in self.seats:  # a loop, not any(): asked several times per action
            if s.type == "human" and s.token_hash is None:
                return "open"
        return "playing"

    def to_move(self) -> list[int]:
        return list(self.state.to_move()) if self.status == "playing" else []

    def result(self) -> dict[str, Any] | None:
        res = self.state.result()
        return None if res is None else res.to_json()

    def info(self) -> dict[str, Any]:
        return table_info(
            self.id,
            self.private,
            self.game,
            self.state.num_players,
            self.state.options,
            self.status,
            self.created,
            self.seats,
            self.state.version,
            self.to_move(),
            self.settings,
            self.result(),
        )

    def deadline(self, seat: int) -> float | None:
        limit = self.settings.move_time_limit
        start = self.decision_start.get(seat)
        if limit is None or start is None or self.seats[seat].type != "human" or self.seats[seat].stand_in:
            return None
        return start + limit

    def message(self, seat: int | None) -> str:
        """The push for one seat (or a spectator): its view and nothing else about the game. Encoded
        once per version and view kind: a new connection reuses the last broadcast's."""
        key = self._message_key()
        if key != self._pushed_key:
            self._pushed, self._pushed_key = {}, key
        text = self._pushed.get(seat)
        if text is None:
            text = self._pushed[seat] = self._messages([seat])[seat]
        return text

    def _message_key(self) -> Any:
        # what a state message is made of besides the state's version (seat flags, names, deadlines)
        return (
            self.state.version,
            tuple((s.token_hash is not None, s.name, s.present, s.stand_in) for s in self.seats),
            tuple(sorted(self.decision_start.items())),
        )

    def _messages(self, seats: list[int | None]) -> dict[int | None, str]:
        # The parts every seat shares are encoded once; the view, legal actions and deadline per seat.
        status = self.status
        to_move = list(self.state.to_move()) if status == "playing" else []
        deadlines = {s: self.deadline(s) for s in to_move} if self.settings.move_time_limit else {}
        known = [d for d in deadlines.values() if d is not None]
        first = min(known) if known else None
        head = f'{{"type":"state","table":{dumps(self.id)},"version":{self.state.version},'
        tail = (
            f'"to_move":{dumps(to_move)},"seats":{dumps([s.info() for s in self.seats])},'
            f'"status":{dumps(status)},"result":{dumps(self.result())},'
        )
        out: dict[int | None, str] = {}
        for seat in seats:
            mine = seat is not None and seat in to_move
            legal = [a.text for a in self.state.legal_actions(seat)] if mine and seat is not None else []
            deadline = deadlines.get(seat) if mine and seat is not None else first
            due = "null" if deadline is None else f"{deadline:.3f}"
            out[seat] = (
                f'{head}"seat":{dumps(seat)},"view":{self.state.view_json(seat, dumps)},'
                f'"legal":{dumps(legal)},{tail}"deadline":{due}}}'
            )
        return out

    def error(
        self, code: str, message: str, reason_code: str | None = None, reason_data: dict[str, Any] | None = None
    ) -> str:
        return dumps(
            {
                "type": "error",
                "code": code,
                "message": message,
                "version": self.state.version,
                "reason_code": reason_code,
                "reason_data": reason_data,
            }
        )

    def refusal(self, refused: Refused) -> str:
        """The error message of a refused action (its reason's code and data with it)."""
        return self.error(refused.code, refused.message, refused.reason_code, refused.reason_data)

    def broadcast(self) -> None:
        """Push the new state: every seat's socket first, then the spectators, ``FAN_CHUNK`` now and the
        rest ``FAN_CHUNK`` per turn of the event loop (other tables' players are served in between), and no
        sooner than the process's spectator pace allows. A push only puts the encoded message in the
        socket's queue; each socket's own task sends it."""
        if self.conns:
            messages = self._messages(list({c.seat for c in self.conns}))
            self._pushed, self._pushed_key = messages, self._message_key()
            watching = []
            for conn in list(self.conns):
                if conn.seat is None:
                    watching.append(conn)
                else:
                    conn.push(messages[conn.seat], state=True)
            if watching:
                if self._fan_task is not None:
                    self._fan_due = True
                else:
                    loop = asyncio.get_running_loop()
                    now = loop.time()
                    wait = self._fan_wait(now)
                    rest: list[Client] | None = None  # None: every spectator, after the wait
                    if wait <= 0:
                        self._fanned_at = now
                        text = messages[None]
                        for conn in watching[: self.FAN_CHUNK]:
                            conn.push(text, state=True)
                        rest = watching[self.FAN_CHUNK :]
                    if wait > 0 or rest:
                        self._fan_task = loop.create_task(self._fan_out(wait, rest), name=f"fan-{self.id}")
        self.changed.set()

    def _fan_wait(self, now: float) -> float:
        pace = self.pace
        return 0.0 if pace is None or pace.rate <= 0 else self._fanned_at + pace.interval() - now

    async def _fan_out(self, wait: float, rest: list[Client] | None) -> None:
        """The spectators a broadcast left for later (``rest``; None: every spectator, after ``wait``
        seconds), ``FAN_CHUNK`` per turn of the loop, each given the newest spectator state unless it has
        it already; again, paced, while broadcasts came meanwhile."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                if wait > 0:
                    await asyncio.sleep(wait)
                if rest is None:
                    self._fanned_at = loop.time()
                    rest = [c for c in self.conns if c.seat is None]
                self._fan_due = False
                while rest:  # (a task's first step runs a turn after the broadcast)
                    batch, rest = rest[: self.FAN_CHUNK], rest[self.FAN_CHUNK :]
                    text = self.message(None)
                    for conn in batch:
                        if conn.last_state != text:
                            conn.push(text, state=True)
                    if rest:
                        await asyncio.sleep(0)
                if not self._fan_due:
                    return
                wait, rest = self._fan_wait(loop.time()), None
        finally:
            self._fan_task = None

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def record(self) -> GameRecord:
        rec = self.state.record()
        rec.meta = {
            "table": self.id,
            "players": [s.name or (f"{s.bot} bot" if s.bot else f"seat {s.seat}") for s in self.seats],
        }
        return rec

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

    def bot_kind(self, seat: int) -> str:
        kinds = bot_kinds(self.game.name)
        return self.seats[seat].bot or ("greedy" if "greedy" in kinds else "random")

    def bot_for(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            kind = self.bot_kind(seat)
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
            if seat.type != "human" or seat.present or seat.stand_in:
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
                            bot = self.bot_for(s)
                            if getattr(bot, "slow", False):
                                # a search bot thinks in a worker process (or a thread): other tables go on
                                view, legal = self.state.view(s), self.state.legal_actions(s)
                                if self.compute is not None:
                                    texts = [a.text for a in legal]
                                    seed = (self.state.seed * 1_000_003 + s) % SEED_LIMIT
                                    text = await self.compute.choose(
                                        self.game.name, self.bot_kind(s), seed, view, texts
                                    )
                                else:
                                    text = (await asyncio.to_thread(bot.choose, view, legal)).text
                            else:
                                text = bot_move(bot, self.state, s).text
                            await self.commit(s, text)
                    except Conflict:
                        pass  # another process moved first; caught up
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
        if self.driver is None and self.owned and not self.state.is_over():
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
        now = time.time()

        try:
            await self.store.log_action(tid, idx, seat, text, now)
        except sa.exc.IntegrityError:
            await self.catch_up()
            raise Conflict() from None
        self.state.apply(seat, text)
        self.store.actions += 1
        log.debug("table %s: seat %d acted, version %d", tid, seat, idx + 1)  # never the text: it may be secret
        self.track_decisions(acted=seat)
        if not self.state.is_over():
            self.broadcast()
            if self.snapshot_every and self.state.version % self.snapshot_every == 0:
                self.snapshot()
            return
        result = self.result()
        log.info("table %s: game over after %d actions", self.id, self.state.version)
        rate = self.rating_input()

        def finish(conn: Connection) -> None:
            if rate is not None:
                from courtcards.server.ratings import rate_game

                rate_game(conn, self.game.name, tid, rate[0], rate[1], now)
            conn.execute(
                sa.update(tables_t)
                .where(tables_t.c.id == tid)
                .values(finished=True, status="finished", result=result, version=idx + 1, updated=now)
            )
            conn.execute(leases_t.delete().where(leases_t.c.table_id == tid))

        try:  # the end is pushed once the result and the ratings are stored: a player who sees it finds them
            await self.store.write(finish)
        finally:
            self.broadcast()
        self.snapshot()

    def rating_input(self) -> tuple[list[str], list[int]] | None:
        """A rated game's players (account or bot keys, by seat) and its ranking; None: not rated."""
        res = self.state.result()
        if not self.settings.rated or res is None:
            return None
        keys = []
        for s in self.seats:
            if s.type == "bot":
                keys.append(f"bot:{self.bot_kind(s.seat)}")
            elif s.account_id is not None:
                keys.append(f"a:{s.account_id}")
            else:
                return None  # a guest's seat (only from before the table was rated): nobody is rated
        return keys, list(res.ranking)

    async def catch_up(self, read: tuple[int, Changes] | None = None) -> bool:
        """Apply what other processes stored (actions, joined seats). Lock held. Whether anything changed.
        ``read``: the changes from an index on, read already (the actions this process applied since are
        skipped)."""
        if read is not None and read[0] <= self.state.version:
            actions, rows = read[1][0][self.state.version - read[0] :], read[1][1]
        else:
            actions, rows = await asyncio.to_thread(self.store.changes, self.id, self.state.version)
        changed = False
        for by, text in actions:
            self.state.apply(by, text)
            changed = True
        for row, place in zip(rows, self.seats, strict=False):
            if row["token_hash"] != place.token_hash or row["name"] != place.name:
                place.token_hash, place.name, place.gone_since = row["token_hash"], row["name"], time.time()
                changed = True
            place.account_id = row.get("account_id")
        if changed:
            self.track_decisions()
            self.broadcast()
        return changed

    def snapshot(self) -> None:
        """Store the whole state, so loading the table replays only the actions after it; and the
        table's version and time of activity (for the list and for resuming at start)."""
        tid, version, data, now = self.id, self.state.version, self.state.to_json(), time.time()
        data["history"] = []  # the action log holds it: a snapshot's size stays flat in the game's length

        def write(conn: Connection) -> None:
            conn.execute(snapshots_t.delete().where(snapshots_t.c.table_id == tid))
            conn.execute(snapshots_t.insert().values(table_id=tid, version=version, state=data))
            conn.execute(sa.update(tables_t).where(tables_t.c.id == tid).values(version=version, updated=now))

        self.store.write(write).add_done_callback(_log_failure(f"table {tid}: snapshot at {version}"))

    async def act(self, seat: int, text: str, version: int) -> Refused | None:
        """A seat's action; None if accepted, else why not. Never changes anything when refused."""
        start = time.perf_counter()
        refused = await self._act(seat, text, version)
        if refused is None and self.store.on_action is not None:
            self.store.on_action(time.perf_counter() - start)
        return refused

    async def _act(self, seat: int, text: str, version: int) -> Refused | None:
        async with self.lock:
            state = self.state
            if 0 <= version < state.version and self._already_applied(seat, text, version):
                return None  # a resend (after a reconnect or a failover) of a move that was stored: acknowledged
            if version != state.version and not state.is_over() and self.status == "playing":
                why = f"version {version} is not the current one ({state.version}); act on the latest state"
                return Refused("stale_version", why, why)
            checked = self.check(seat, text)
            if isinstance(checked, Refused):
                return checked
            try:
                await self.commit(seat, checked.text)
            except Conflict:
                why = f"another action came first (now version {self.state.version}); act on the latest state"
                return Refused("stale_version", why, why)
            return None

    async def undo(self, seat: int) -> Refused | None:
        """Take back ``seat``'s last action and every action after it (the bots'): only at a casual table
        where ``seat`` is the one person, the others bots, while the game goes on, with one server process.
        The log loses those actions (so a restart resumes the undone state); the deal stays the same."""
        async with self.lock:

            def no(why: str) -> Refused:
                return Refused("undo_refused", why, why)

            if self.settings.rated:
                return no("rated games cannot be undone")
            humans = [s.seat for s in self.seats if s.type == "human"]
            if humans != [seat]:
                return no("undo is for one person playing bots")
            if self.state.is_over():
                return no("the game is over")
            if self.announce is not None:
                return no("undo needs a server of one process")
            mine = [i for i, (by, _) in enumerate(self.state.history) if by == seat]
            if not mine:
                return no("you have made no move to undo")
            k = mine[-1]
            kept = list(self.state.history[:k])
            players, options, deal = self.state.num_players, dict(self.state.options), self.state.seed

            def rebuild() -> State:
                state: State = self.game.new_game(players, options, deal)
                for by, text in kept:
                    state.apply(by, text)
                state.history = kept
                return state

            state = await asyncio.to_thread(rebuild)
            tid, now = self.id, time.time()

            def write(conn: Connection) -> None:
                from courtcards.server.db import actions_t

                conn.execute(actions_t.delete().where(actions_t.c.table_id == tid, actions_t.c.idx >= k))
                conn.execute(snapshots_t.delete().where(snapshots_t.c.table_id == tid, snapshots_t.c.version > k))
                conn.execute(sa.update(tables_t).where(tables_t.c.id == tid).values(version=k, updated=now))

            await self.store.write(write)
            self.state = state
            self.bots = {}  # seeded again: they see the same deal and choose afresh from here
            self.decision_start = {}
            self.track_decisions()
            self.broadcast()
            log.info("table %s: seat %d undid back to version %d", tid, seat, k)
            return None

    def _already_applied(self, seat: int, text: str, version: int) -> bool:
        """Whether the action at index ``version`` of the history is ``seat``'s ``text`` (as sent or as stored)."""
        if version >= len(self.state.history):
            return False
        by, stored = self.state.history[version]
        if by != seat:
            return False
        if stored == text:
            return True
        try:
            return self.game.parse_action(text).text == stored
        except CourtcardsError:
            return False

    def check(self, seat: int, text: str) -> Action | Refused:
        """The legal action ``text`` means for ``seat`` now, or why not. Reads the state only."""
        state = self.state
        if state.is_over():
            return Refused("game_over", "the game is over", "the game is over", "game_over", {})
        if self.status != "playing":
            why = "the game has not started: waiting for players to take the free seats"
            return Refused("not_your_turn", why, why, "not_your_turn", {})
        try:
            return state.verify(seat, text)
        except NotationError as exc:
            return Refused("malformed_action", str(exc), exc.reason)
        except GameOverError as exc:
            return Refused("game_over", str(exc), exc.reason, exc.code, exc.data)
        except NotYourTurnError as exc:
            return Refused("not_your_turn", str(exc), exc.reason, exc.code, exc.data)
        except IllegalActionError as exc:
            return Refused("illegal_action", str(exc), exc.reason, exc.code, exc.data)

    # -- connections ---------------------------------------------------------------
    def attach(self, conn: Client) -> None:
        self.conns.add(conn)
        self.last_seen = time.time()
        if conn.seat is None and self.pace is not None:
            self.pace.watching += 1
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections += 1
            if seat.connections == 1 and self.announce is not None:
                self.announce(self.id, seat.seat, 1)
            if seat.connections == 1 or seat.stand_in:
                seat.stand_in = False
                self.broadcast()
                return
        conn.push(self.message(conn.seat), state=True)

    def detach(self, conn: Client) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.last_seen = time.time()
        if conn.seat is None and self.pace is not None:
            self.pace.watching -= 1
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.connections -= 1
            if seat.connections == 0:
                seat.gone_since = time.time()
                if self.announce is not None:
                    self.announce(self.id, seat.seat, 0)
                self.broadcast()

    def heard(self, node: str, seat_no: int, count: int, now: float) -> None:
        """Another process says how many connections it has to a seat."""
        if not 0 <= seat_no < len(self.seats):
            return
        seat = self.seats[seat_no]
        before = (seat.present, seat.stand_in)
        if count > 0:
            seat.remote[node] = now
            seat.stand_in = False
        elif seat.remote.pop(node, None) is not None and not seat.present:
            seat.gone_since = now
        if (seat.present, seat.stand_in) != before:
            self.broadcast()

    def forget_remote(self, older_than: float) -> None:
        """Drop what other processes said before ``older_than`` (they stopped saying it: gone or dead)."""
        changed = False
        for seat in self.seats:
            stale = {n: t for n, t in seat.remote.items() if t < older_than}
            for node in stale:
                del seat.remote[node]
            if stale and not seat.present:
                seat.gone_since = max(stale.values())
                changed = True
        if changed:
            self.broadcast()


def trusted_snapshot(data: dict[str, Any]) -> dict[str, Any]:
    """A snapshot the server stored, ready for ``state_from_json``: its history (older snapshots kept it; the
    action log has it) left out, so the limits on untrusted positions never refuse a long game."""
    return {**data, "history": []}


def _log_failure(what: str) -> Callable[[asyncio.Future[Any]], None]:
    def done(fut: asyncio.Future[Any]) -> None:
        if not fut.cancelled() and fut.exception() is not None:
            log.error("%s not stored: %s", what, type(fut.exception()).__name__)

    return done


def _new_id(length: int) -> str:
    # 6 characters for listed tables; 16 (80 bits) for private ones, whose link is their key.
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(length))


@dataclass
class LobbyConfig:
    """How long tables stay in memory, and how often their state is snapshotted."""

    snapshot_every: int = 100  # actions between snapshots (0: never)
    idle_expiry: float = 600.0  # an unfinished table nobody is connected to is unloaded after this long
    finished_expiry: float = 60.0  # the same for finished tables
    resume_recent: float = 3600.0  # at start, unfinished tables active this recently are loaded (bots resume)
    resume_limit: int = 1000
    lease_ttl: float = 5.0  # several processes on PostgreSQL: a dead process's tables move on after this long


class Lobby:
    """The tables in memory, loaded from the store when needed and unloaded when left alone."""

    def __init__(self, store: Store, config: LobbyConfig | None = None) -> None:
        self.store = store
        self.config = config or LobbyConfig()
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.started = False  # /readyz
        self.compute: Compute | None = None  # set by the app: search bots' worker processes
        self.pace = SpectatorPace()  # its rate set by the app (ServerConfig.spectator_rate)
        # tables in play with a CPU-heavy bot seat (a search), in this process and per creating address
        # (0: no cap); set by the app from ServerConfig
        self.max_search_tables = 0
        self.max_search_tables_per_address = 0
        self.cluster: Cluster | None = None
        if store.shared:
            from courtcards.server.cluster import Cluster

            self.cluster = Cluster(store, self, self.config.lease_ttl)

    async def start(self) -> None:
        if self.cluster is not None:
            self.cluster.start()
        since = time.time() - self.config.resume_recent
        ids = await asyncio.to_thread(recent_tables, self.store.engine, since, self.config.resume_limit)
        for tid in ids:
            with contextlib.suppress(ApiError):
                await self.find(tid)
        log.info("resumed %d tables", len(self.tables))
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="table-sweeper")
        self.started = True

    async def find(self, table_id: str) -> Table | None:
        """The table, loaded from the store if it is not in memory; None if there is none."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not 0 < len(table_id) <= 16 or not set(table_id) <= ID_SET:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            table = await asyncio.to_thread(self._load, table_id)  # the replay too: off the event loop
        except Exception as exc:
            log.error("table %s cannot be loaded: %s", table_id, exc)
            err = ApiError(503, "table_unavailable", f"table {table_id!r} cannot be loaded now; try again")
            fut.set_exception(err)
            fut.exception()  # retrieved: waiters get it too
            raise err from None
        finally:
            del self._loading[table_id]
        if table is not None:
            self.tables[table_id] = table
            if self.cluster is not None:
                table.owned = False
                table.announce = self.cluster.announce
                self.cluster.own_soon(table)  # its lease in the background: the asking socket is served meanwhile
            table.start_driver()
        fut.set_result(table)
        return table

    async def get(self, table_id: str) -> Table:
        table = await self.find(table_id)
        if table is None:
            raise ApiError(404, "table_not_found", f"there is no table {table_id!r}")
        return table

    def _load(self, table_id: str) -> Table | None:
        stored = self.store.load(table_id)
        return None if stored is None else self._restore(stored)

    def _restore(self, st: StoredTable) -> Table:
        game = get_game(st.game)
        start = st.snapshot_version if st.snapshot is not None else 0
        if start > len(st.actions):
            raise CourtcardsError(f"the snapshot is at version {start} but only {len(st.actions)} actions are stored")
        if st.snapshot is not None:
            state = game.state_from_json(trusted_snapshot(st.snapshot))
        else:
            state = game.new_game(st.players, st.options, st.seed)
        for i, (seat, text) in enumerate(st.actions[start:]):
            try:
                state.apply(seat, text)
            except CourtcardsError as exc:
                raise CourtcardsError(
                    f"action {state.version} ({i} after the snapshot) does not replay: {type(exc).__name__}"
                ) from None
        # the history is the action log: the server wrote both, so no length limit applies to it
        state.history = list(st.actions)
        seats = _seats(st.seats)
        now = time.time()
        for s in seats:
            s.gone_since = now
        settings = _settings(st.settings)
        if settings.hints is None:  # stored before the setting existed
            settings.hints = any(s.type == "bot" for s in seats)
        table = Table(
            id=st.id,
            game=game,
            state=state,
            seats=seats,
            settings=settings,
            created=st.created,
            store=self.store,
            private=st.private,
            owner_hash=st.owner_hash,
            snapshot_every=self.config.snapshot_every,
            compute=self.compute,
            pace=self.pace,
            heavy=any(s.type == "bot" and s.bot is not None and cpu_heavy(game.name, s.bot) for s in seats),
        )
        table.track_decisions()
        return table

    def search_tables(self, address: str | None = None) -> int:
        """Tables in play here with a CPU-heavy bot seat (made or played by this process): all of them, or
        those made from ``address``. A table stops counting when its game ends or it leaves memory."""
        return sum(
            1
            for t in self.tables.values()
            if t.heavy
            and (t.owned or t.creator is not None)
            and not t.state.is_over()
            and (address is None or t.creator == address)
        )

    def search_quota(self, address: str | None) -> None:
        """ApiError 429 ``too_many_search_tables`` if one more table with a search-bot seat, made from
        ``address``, would pass a cap. No ``await`` between this check and the table's reservation."""
        cap = self.max_search_tables_per_address
        if cap and address is not None:
            mine = self.search_tables(address)
            if mine >= cap:
                raise ApiError(
                    429,
                    "too_many_search_tables",
                    f"this address has {mine} {'table' if mine == 1 else 'tables'} with search bots in play "
                    f"(at most {cap}); "
                    "finish one, or choose other bots",
                )
        cap = self.max_search_tables
        if cap:
            playing = self.search_tables()
            if playing >= cap:
                raise ApiError(
                    429,
                    "too_many_search_tables",
                    f"the server has {playing} {'table' if playing == 1 else 'tables'} with search bots in play "
                    f"(at most {cap}); "
                    "try again when one ends, or choose other bots",
                )

    async def listing(
        self, status: str | None, game: str | None, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the listed tables, newest first (live info for those in memory), and the total."""
        rows, total = await asyncio.to_thread(list_tables, self.store.engine, status, game, limit, offset)
        out = []
        for st in rows:
            table = self.tables.get(st.id)
            out.append(table.info() if table is not None else stored_info(st))
        return out, total

    async def _sweep_loop(self) -> None:
        period = min(1.0, max(0.05, min(self.config.idle_expiry, self.config.finished_expiry) / 4))
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(period)
            now = loop.time()
            for table in list(self.tables.values()):
                for conn in list(table.conns):
                    conn.check_stuck(now)
            await self.sweep(time.time())

    async def sweep(self, now: float) -> list[str]:
        """Unload the tables nobody has been connected to for their expiry time; their ids."""
        gone = []
        for table in list(self.tables.values()):
            if table.conns:
                continue
            limit = self.config.finished_expiry if table.state.is_over() else self.config.idle_expiry
            if now - table.last_seen >= limit:
                await self.unload(table)
                gone.append(table.id)
        if gone:
            log.info("unloaded %d idle tables", len(gone))
        return gone

    async def unload(self, table: Table) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        task = table.driver
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        tid, version = table.id, table.state.version

        def write(conn: Connection) -> None:  # the list shows the version of tables not in memory
            conn.execute(
                sa.update(tables_t).where(tables_t.c.id == tid, tables_t.c.version < version).values(version=version)
            )

        with contextlib.suppress(Exception):
            await self.store.write(write)
        if self.cluster is not None:
            await self.cluster.release(table)

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        tasks = [t.driver for t in self.tables.values() if t.driver is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for table in self.tables.values():
            for conn in list(table.conns):
                conn.close()

    async def create(
        self,
        game_name: str,
        players: int | None,
        options: dict[str, Any],
        preset: str | None,
        seats: list[dict[str, Any]] | None,
        seed: int | None,
        settings: Settings,
        private: bool | None = None,
        rematch_of: str | None = None,
        owner_hash: str | None = None,
        creator: str | None = None,
    ) -> Table:
        """A new table; ``private`` (default: when a seat is human) keeps it off the list, joined by link.
        ``rematch_of``: the finished table it is the rematch of (RematchExists if that one has one).
        ``creator``: the client address asking, counted by the search quota (:meth:`search_quota`)."""
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
                    check_bot_table(game.name, bot, n, values)
                except CourtcardsError as exc:
                    raise ApiError(422, "bad_request", f"seat {i}: {exc}") from None
                seat_list.append(
                    Seat(seat=i, type="bot", bot=bot, name=clean_text(spec.get("name") or "")[:64] or None)
                )
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
        for key, value in state.options.items():  # stored: the game may take free text
            fault = text_fault(value) if isinstance(value, str) else None
            if fault is not None:
                raise ApiError(422, "bad_request", f"option {clean_text(key)[:64]!r} {fault}")
        if private is None:
            private = any(s.type == "human" for s in seat_list)
        heavy = any(s.type == "bot" and s.bot is not None and cpu_heavy(game.name, s.bot) for s in seat_list)
        now = time.time()
        for s in seat_list:
            s.gone_since = now
        status = "open" if any(s.type == "human" for s in seat_list) else "playing"
        for _ in range(5):
            tid = _new_id(16 if private else 6)
            if tid not in self.tables and tid not in self._loading:
                break
        table = Table(
            id=tid,
            game=game,
            state=state,
            seats=seat_list,
            settings=settings,
            created=now,
            store=self.store,
            private=private,
            owner_hash=owner_hash,
            snapshot_every=self.config.snapshot_every,
            compute=self.compute,
            pace=self.pace,
            heavy=heavy,
            creator=creator,
        )
        if heavy:
            self.search_quota(creator)
        row = {
            "id": tid,
            "game": game.name,
            "players": n,
            "options": dict(state.options),
            "seed": seed,
            "settings": settings.to_json(),
            "created": now,
            "finished": False,
            "result": None,
            "status": status,
            "private": private,
            "version": 0,
            "updated": now,
            "owner_hash": owner_hash,
        }
        seat_rows = [
            {
                "table_id": tid,
                "seat": s.seat,
                "kind": s.type,
                "bot": s.bot,
                "name": s.name,
                "token_hash": None,
                "account_id": None,
            }
            for s in seat_list
        ]

        def write(conn: Connection) -> bool:
            if (
                rematch_of is not None
                and conn.execute(
                    sa.select(rematches_t.c.rematch_id).where(rematches_t.c.table_id == rematch_of)
                ).first()
            ):
                return False
            conn.execute(tables_t.insert().values(**row))
            conn.execute(seats_t.insert(), seat_rows)
            if rematch_of is not None:
                conn.execute(rematches_t.insert().values(table_id=rematch_of, rematch_id=tid))
            return True

        self.tables[tid] = table  # reserve the id; nobody can act before the commit (table is new)
        try:
            made = await self.store.write(write)
        except sa.exc.IntegrityError:
            del self.tables[tid]
            if rematch_of is not None and await self.rematch_of(rematch_of) is not None:
                raise RematchExists() from None
            raise ApiError(503, "try_again", "the new table's id was taken; try again") from None
        except Exception:
            del self.tables[tid]
            raise
        if not made:
            del self.tables[tid]
            raise RematchExists()
        table.track_decisions()
        if self.cluster is not None:
            table.owned = False
            table.announce = self.cluster.announce
            await self.cluster.own(table)
        table.start_driver()
        log.info("table %s created: %s, %d players", tid, game.name, n)
        return table

    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of a finished table, if one was made (by any process)."""

        def read() -> str | None:
            with self.store.engine.connect() as conn:
                return conn.execute(
                    sa.select(rematches_t.c.rematch_id).where(rematches_t.c.table_id == table_id)
                ).scalar()

        return await asyncio.to_thread(read)

    async def join(
        self,
        table_id: str,
        seat_no: int | None,
        name: str | None,
        account_id: int | None = None,
        token_hash: str | None = None,
    ) -> tuple[int, str, Table]:
        """Take a seat: (seat, its new token, the table). With ``token_hash`` the seat takes the token whose
        SHA-256 that is (quick play: the ticket's holder knows it) and the token returned is empty."""
        table = await self.get(table_id)
        async with table.lock:
            if seat_no is None:
                free = [s for s in table.seats if s.type == "human" and not s.taken]
                if not free:
                    raise ApiError(409, "no_free_seat", f"table {table_id} has no free human seat")
                seat = free[0]
            else:
                if not 0 <= seat_no < len(table.seats):
                    raise ApiError(
                        422, "bad_request", f"there is no seat {seat_no} (seats are 0..{len(table.seats) - 1})"
                    )
                seat = table.seats[seat_no]
                if seat.type != "human":
                    raise ApiError(409, "not_a_human_seat", f"seat {seat_no} is played by a bot")
                if seat.taken:
                    raise ApiError(409, "seat_taken", f"seat {seat_no} is already taken")
            token = "" if token_hash is not None else secrets.token_urlsafe(24)
            digest = token_hash or hash_token(token)
            seat_name = clean_text(name or "").strip()[:64] or None
            tid, sno = table.id, seat.seat
            full = all(s.taken for s in table.seats if s.seat != sno)

            def write(conn: Connection) -> int:
                done = conn.execute(
                    sa.update(seats_t)
                    .where(seats_t.c.table_id == tid, seats_t.c.seat == sno, seats_t.c.token_hash.is_(None))
                    .values(token_hash=digest, name=seat_name, account_id=account_id)
                ).rowcount
                if done and full:
                    conn.execute(
                        sa.update(tables_t).where(tables_t.c.id == tid).values(status="playing", updated=time.time())
                    )
                self.store.notify(conn, tid)
                return int(done)

            if not await self.store.write(write):  # another process gave it away first
                await table.catch_up()
                raise ApiError(409, "seat_taken", f"seat {sno} is already taken")
            seat.token_hash = digest
            seat.name = seat_name
            seat.account_id = account_id
            seat.gone_since = time.time()
            table.track_decisions()
            table.broadcast()
            log.info("table %s: seat %d joined", table.id, sno)
            return sno, token, table

    async def set_account(self, table: Table, seat_no: int, account_id: int) -> None:
        """Put a seat in an account (a guest's seat, claimed); ApiError if another account holds it."""
        async with table.lock:
            seat = table.seats[seat_no]
            if seat.account_id not in (None, account_id):
                raise ApiError(409, "seat_claimed", f"seat {seat_no} belongs to another account")
            tid = table.id

            def write(conn: Connection) -> int:
                done = conn.execute(
                    sa.update(seats_t)
                    .where(
                        seats_t.c.table_id == tid,
                        seats_t.c.seat == seat_no,
                        sa.or_(seats_t.c.account_id.is_(None), seats_t.c.account_id == account_id),
                    )
                    .values(account_id=account_id)
                ).rowcount
                self.store.notify(conn, tid)
                return int(done)

            if not await self.store.write(write):
                await table.catch_up()
                raise ApiError(409, "seat_claimed", f"seat {seat_no} belongs to another account")
            seat.account_id = account_id
            log.info("table %s: seat %d claimed by an account", tid, seat_no)

    async def new_token(self, table: Table, seat_no: int) -> str:
        """A new token for a taken human seat (its account asked, from a browser without it); the old one
        stops working for new connections."""
        async with table.lock:
            token = secrets.token_urlsafe(24)
            digest, tid = hash_token(token), table.id

            def write(conn: Connection) -> None:
                conn.execute(
                    sa.update(seats_t)
                    .where(seats_t.c.table_id == tid, seats_t.c.seat == seat_no)
                    .values(token_hash=digest)
                )
                self.store.notify(conn, tid)

            await self.store.write(write)
            table.seats[seat_no].token_hash = digest
            table.broadcast()
            return token
