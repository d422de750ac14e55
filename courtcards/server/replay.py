"""Replays of finished games, computed off the event loop with bounded memory.

A replay keeps a checkpoint (a state without its history) every ``every`` actions
and the marks (hand, round or turn changes); the board after any step is the
nearest checkpoint plus at most ``every - 1`` actions. Only ``keep`` replays stay
cached, and at most ``workers`` are computed at once, in threads.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from courtcards.core.record import GameRecord
from courtcards.core.state import State


@dataclass
class Replay:
    actions: list[tuple[int, str]]
    checkpoints: list[State]
    every: int
    marks: list[dict[str, Any]]

    @property
    def steps(self) -> int:
        return len(self.actions)

    def state_at(self, step: int) -> State:
        """The state after ``step`` actions (a fresh copy; the caller may keep it)."""
        base = self.checkpoints[step // self.every]
        state = base.copy()
        for seat, text in self.actions[base.version : step]:
            state.apply(seat, text)
        return state


def _checkpoint(state: State) -> State:
    copy = state.copy()
    copy.history = []  # views never read the history; a checkpoint need not hold it
    return copy


def build(record: GameRecord, every: int) -> Replay:
    """Walk the game once from its start: checkpoints and marks."""
    actions = list(record.actions)
    state = record.initial_state()
    checkpoints = [_checkpoint(state)]
    view = state.view(None)
    # what the game calls the ``round`` of its views, in the marks ("Hand 3", "Turn 12"; GameInfo.round_word)
    key = ("round", state.game.info.round_word) if "round" in view else None
    marks: list[dict[str, Any]] = []
    prev: Any = object()

    def mark(step: int, view: Any) -> None:
        nonlocal prev
        if key is None:
            return
        value = view.get(key[0])
        if value != prev and value is not None:
            marks.append({"label": f"{key[1]} {value}", "step": step})
        prev = value

    mark(0, view)
    for step, (seat, text) in enumerate(actions, start=1):
        state.apply(seat, text)
        if step % every == 0:
            checkpoints.append(_checkpoint(state))
        if key is not None:
            mark(step, state.view(None))
    return Replay(actions=actions, checkpoints=checkpoints, every=every, marks=marks)


class Replays:
    """A small cache of replays, built in worker threads."""

    def __init__(self, keep: int = 8, every: int = 50, workers: int = 1) -> None:
        self.keep = keep
        self.every = every
        self._cache: OrderedDict[str, Replay] = OrderedDict()
        self._building: dict[str, asyncio.Future[Replay]] = {}
        self._slots = asyncio.Semaphore(workers)

    async def get(self, key: str, final: State) -> Replay:
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        pending = self._building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Replay] = asyncio.get_running_loop().create_future()
        self._building[key] = fut
        try:
            async with self._slots:
                replay = await asyncio.to_thread(build, final.record(), self.every)
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()
            raise
        finally:
            del self._building[key]
        fut.set_result(replay)
        self._cache[key] = replay
        while len(self._cache) > self.keep:
            self._cache.popitem(last=False)
        return replay

    async def state_at(self, key: str, final: State, step: int) -> State:
        replay = await self.get(key, final)
        return await asyncio.to_thread(replay.state_at, step)
