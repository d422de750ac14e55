"""Quick play: a queue per game and player count that seats waiting players together.

A player enters a queue with the seconds they are willing to wait (0 to ``MAX_WAIT``) and gets a
ticket, a secret that stands for their place. As soon as the queue holds as many players as the
table has seats, the first of them are seated together at a new table. When a waiter's wait runs
out first, they are seated with whoever else is waiting in that queue (oldest first) and the other
seats are played by the game's default bot. The ticket then answers with the table, the seat and
the seat's token (the same token a join gives). Tables made here are casual and private (they are
full when made, so a list has nothing to offer for them).

The queues live in the memory of one server process: with ``--workers N`` a player is matched only
with players whose requests reach the same process (see docs/server.md).

Routes under /api/quickplay.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from courtcards.bots.base import default_bot_kind
from courtcards.core.game import game_names, get_game
from courtcards.server import players as players_api
from courtcards.server.guards import RateLimits
from courtcards.server.tables import ApiError, Lobby, Settings, hash_token
from courtcards.server.text import checked_text

log = logging.getLogger("courtcards.server")

router = APIRouter()

MAX_WAIT = 300.0  # seconds a player may choose to wait for people before bots fill the table
MAX_WAITERS = 1000  # players waiting in all queues of one process
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


@dataclass(eq=False)
class Waiter:
    key: tuple[str, int]
    name: str | None
    account_id: int | None
    wait: float
    deadline: float  # time.monotonic() at which bots fill the table
    timer: asyncio.TimerHandle | None = None
    table: dict[str, Any] | None = None
    seat: int | None = None
    token: str | None = None
    error: str | None = None
    done_at: float = 0.0  # monotonic time it was seated (or failed)


class QuickPlay:
    """The queues of one process, and the answers of its recently seated tickets."""

    def __init__(self, lobby: Lobby, max_waiters: int = MAX_WAITERS) -> None:
        self.lobby = lobby
        self.max_waiters = max_waiters
        self.queues: dict[tuple[str, int], list[Waiter]] = {}
        self.tickets: dict[str, Waiter] = {}  # SHA-256 of the ticket -> its waiter
        self.lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def waiting(self) -> int:
        return sum(len(q) for q in self.queues.values())

    async def enter(
        self, game: str, players: int, wait: float, name: str | None, account_id: int | None
    ) -> tuple[str, Waiter]:
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
        self.forget_old()
        key = (g.name, players)
        async with self.lock:
            queue = self.queues.setdefault(key, [])
            if account_id is not None and any(w.account_id == account_id for w in queue):
                raise ApiError(409, "already_waiting", "this account waits in this queue already")
            if self.waiting() >= self.max_waiters:
                raise ApiError(503, "queue_full", "too many players are waiting; try again soon")
            ticket = secrets.token_urlsafe(24)
            waiter = Waiter(key, name, account_id, wait, time.monotonic() + wait)
            self.tickets[hash_token(ticket)] = waiter
            queue.append(waiter)
            if len(queue) >= players:
                await self._seat(queue[:players])
            elif wait == 0:
                await self._seat([waiter, *[w for w in queue if w is not waiter]][:players])
            else:
                waiter.timer = asyncio.get_running_loop().call_later(wait, self._expired, waiter)
        return ticket, waiter

    def find(self, ticket: str) -> Waiter:
        waiter = self.tickets.get(hash_token(ticket))
        if waiter is None:
            raise ApiError(404, "unknown_ticket", "this ticket waits in no queue (it may have expired)")
        return waiter

    async def leave(self, ticket: str) -> Waiter:
        """Take a waiting ticket out of its queue (409 once it is seated)."""
        async with self.lock:
            waiter = self.find(ticket)
            if waiter.table is not None:
                raise ApiError(409, "already_seated", "this ticket has a seat already: play or leave the table")
            self._remove(waiter)
            self.tickets.pop(hash_token(ticket), None)
            return waiter

    def status(self, waiter: Waiter) -> dict[str, Any]:
        game, players = waiter.key
        seated = waiter.table is not None
        return {
            "status": "seated" if seated else "failed" if waiter.error is not None else "waiting",
            "game": game,
            "players": players,
            "waiting": len(self.queues.get(waiter.key, [])),
            "wait_left": 0.0 if waiter.done_at else max(0.0, round(waiter.deadline - time.monotonic(), 1)),
            "table": waiter.table,
            "seat": waiter.seat,
            "token": waiter.token,
            "error": waiter.error,
        }

    def forget_old(self) -> None:
        """Drop the answers of tickets seated (or failed) long ago."""
        old = time.monotonic() - KEEP_ANSWER
        for digest in [d for d, w in self.tickets.items() if w.done_at and w.done_at < old]:
            del self.tickets[digest]

    def close(self) -> None:
        for queue in self.queues.values():
            for w in queue:
                if w.timer is not None:
                    w.timer.cancel()
        for task in self._tasks:
            task.cancel()

    # -- seating ------------------------------------------------------------------------
    def _expired(self, waiter: Waiter) -> None:
        task = asyncio.ensure_future(self._fill(waiter))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fill(self, waiter: Waiter) -> None:
        """The waiter's wait ran out: seat them with the others waiting (oldest first), bots in the rest."""
        async with self.lock:
            queue = self.queues.get(waiter.key, [])
            if waiter not in queue:  # seated or gone meanwhile
                return
            others = [w for w in queue if w is not waiter]
            await self._seat([waiter, *others][: waiter.key[1]])

    def _remove(self, waiter: Waiter) -> None:
        queue = self.queues.get(waiter.key)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
            if not queue:
                del self.queues[waiter.key]
        if waiter.timer is not None:
            waiter.timer.cancel()
            waiter.timer = None

    async def _seat(self, group: list[Waiter]) -> None:
        """A new table: the group's players in the first seats (in queue order), bots in the rest.
        Called with the lock held."""
        game, players = group[0].key
        for w in group:
            self._remove(w)
        bot = default_bot_kind(game)
        seats: list[dict[str, Any]] = [{"type": "human"} for _ in group]
        seats += [{"type": "bot", "bot": bot} for _ in range(players - len(group))]
        now = time.monotonic()
        try:
            table = await self.lobby.create(game, players, {}, None, seats, None, Settings(), private=True)
            for i, w in enumerate(group):
                seat, token, table = await self.lobby.join(table.id, i, w.name, w.account_id)
                w.seat, w.token = seat, token
        except Exception as exc:  # the waiters are out of the queue: each is told, none waits forever
            why = exc.message if isinstance(exc, ApiError) else "the server could not store it; try again"
            log.error("quick play: no table for %s, %d players: %s", game, players, type(exc).__name__)
            for w in group:
                w.error, w.done_at = f"no table could be made: {why}", now
            return
        info = table.info()
        for w in group:
            w.table, w.done_at = info, now
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
    ticket, waiter = await qp.enter(
        body.game, body.players, body.wait, body.name, None if account is None else account.id
    )
    return {"ticket": ticket, **qp.status(waiter)}


@router.post("/api/quickplay/ticket", tags=["quick play"], response_model=QueueStatus)
async def ticket_status(body: TicketBody, request: Request) -> dict[str, Any]:
    """Where a ticket stands: waiting, or seated (with the table, seat and token). A POST: the ticket
    stays out of URLs and logs."""
    rates: RateLimits = request.app.state.rates
    await rates.check("read", players_api._address(request))
    qp = _quickplay(request)
    qp.forget_old()
    return qp.status(qp.find(body.ticket))


@router.post("/api/quickplay/leave", tags=["quick play"], response_model=QueueStatus)
async def leave_queue(body: TicketBody, request: Request) -> dict[str, Any]:
    """Stop waiting: the ticket leaves its queue (409 once it is seated)."""
    qp = _quickplay(request)
    waiter = await qp.leave(body.ticket)
    return {**qp.status(waiter), "status": "left"}
