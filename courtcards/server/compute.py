"""Searches (search-bot seats, hints) in a bounded pool of worker processes: out of the event loop and
out of its process, so they take no time from the tables' players (threads would share the GIL).

Only JSON-like data crosses: a seat's view and its legal actions' texts in, an action's text out.
Each worker keeps the bots it made (keyed by game, kind and seed), so a table's bot keeps its memory
while the same worker serves it."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from courtcards.bots.base import Bot, make_bot
from courtcards.core.game import get_game

_BOTS: OrderedDict[tuple[str, str, int], Bot] = OrderedDict()  # in each worker process


def _choose(game: str, kind: str, seed: int, view: dict[str, Any], legal: list[str]) -> str:
    key = (game, kind, seed)
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = make_bot(game, kind, seed)
        while len(_BOTS) > 256:
            _BOTS.popitem(last=False)
    else:
        _BOTS.move_to_end(key)
    g = get_game(game)
    return bot.choose(view, [g.parse_action(t) for t in legal]).text


def _hint(game: str, view: dict[str, Any], legal: list[str], seed: int, seconds: float) -> tuple[str, Any, int]:
    from courtcards.bots.ismcts import hint

    g = get_game(game)
    advice = hint(view, [g.parse_action(t) for t in legal], seed, seconds)
    return advice.action.text, advice.chance, advice.iterations


class Compute:
    """The worker processes of one server process (started on first use); ``workers`` at most at once,
    and at most ``queue`` searches waiting besides (hints beyond it are refused, bots wait)."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = max(1, workers)
        self.slots = asyncio.Semaphore(self.workers + max(0, queue))
        self._pool: ProcessPoolExecutor | None = None
        self.done = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the server process has threads (the database writer), which fork would copy half-done
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    @property
    def full(self) -> bool:
        return self.slots.locked()

    async def choose(self, game: str, kind: str, seed: int, view: dict[str, Any], legal: list[str]) -> str:
        async with self.slots:
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self._executor(), _choose, game, kind, seed, view, legal)
            self.done += 1
            return text

    async def hint(
        self, game: str, view: dict[str, Any], legal: list[str], seed: int, seconds: float
    ) -> tuple[str, Any, int]:
        async with self.slots:
            loop = asyncio.get_running_loop()
            out = await loop.run_in_executor(self._executor(), _hint, game, view, legal, seed, seconds)
            self.done += 1
            return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
