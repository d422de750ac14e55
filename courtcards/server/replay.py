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
    """Walk the game once from its start: checkpoints and marks.

    A view costs far more than an action, so the walk reads the round only at checkpoints and finds
    where it changed in between by bisection (the round only moves forward): about log2(every) views
    a hand instead of one a step, and a game of 50,000 actions replays in seconds."""
    actions = list(record.actions)
    state = record.initial_state()
    checkpoints = [_checkpoint(state)]
    view = state.view(None)
    # what the game calls the ``round`` of its views, in the marks ("Hand 3", "Turn 12"; GameInfo.round_word)
    key = ("round", state.game.info.round_word) if "round" in view else None
    marks: list[dict[str, Any]] = []

    def value_at(step: int) -> Any:
        base = checkpoints[step // every]
        st = base.copy()
        for seat, text in actions[base.version : step]:
            st.apply(seat, text)
        return st.view(None).get("round")

    def changes(lo: int, vlo: Any, hi: int, vhi: Any) -> None:
        if vlo == vhi:
            return
        if hi - lo == 1:
            if vhi is not None and key is not None:
                marks.append({"label": f"{key[1]} {vhi}", "step": hi})
            return
        mid = (lo + hi) // 2
        vmid = value_at(mid)
        changes(lo, vlo, mid, vmid)
        changes(mid, vmid, hi, vhi)

    last = view.get("round") if key is not None else None
    if last is not None and key is not None:
        marks.append({"label": f"{key[1]} {last}", "step": 0})
    since = 0
    for step, (seat, text) in enumerate(actions, start=1):
        state.apply(seat, text)
        if key is not None and (step % every == 0 or step == len(actions)):
            value = state.view(None).get("round")
            changes(since, last, step, value)
            since, last = step, value
        if step % every == 0:
            checkpoints.append(_checkpoint(state))
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
