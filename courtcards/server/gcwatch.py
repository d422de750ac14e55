"""Garbage collection on the server (issue 30, item 10): every collection's pause timed by
generation (``gc.callbacks``), and the collector kept off the long-lived heap of tables.

A server's heap is mostly tables that live for minutes: CPython's full (generation 2) collection
walks all of them, and stops the event loop for as long (0.2-0.4 s from a few hundred tables). The
:class:`Freezer` moves what survives into the permanent generation (``gc.freeze()``) every few
seconds, after a collection of what is not frozen yet (only the objects made since the last step,
so a short pause): full collections then walk only what is young. Frozen objects are still freed
when their last reference goes; only reference cycles among them would wait (an unloaded table
leaves none: measured, see docs/server.md), so at most once an hour, and only when the heap has
doubled since the last time, the freezer unfreezes, collects everything once and freezes again
(one long pause, rare: memory stays bounded).

The heap is measured by Python's allocator (``sys.getallocatedblocks()``: under a millisecond),
never by the count of frozen objects: ``gc.get_freeze_count()`` walks the whole permanent
generation, 70 ms at 1,000 tables, longer than the step's own collection.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

# seconds a collection stops the process: young ones take well under a millisecond
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
GENERATIONS = (0, 1, 2)

FREEZE_EVERY_ENV = "COURTCARDS_GC_FREEZE_EVERY"  # seconds between freezer steps; 0: no freezer
FREEZE_EVERY = 2.0  # each step's collection walks what the last 2 s made and kept: 20-30 ms at 1,000 tables
REFRESH_GROWTH = 2.0
REFRESH_AFTER = 3600.0


class Pauses:
    """Counts, total, longest and a histogram of collection pauses per generation, for the whole
    process (``gc.callbacks`` are process-wide: one instance, :data:`PAUSES`, is installed once)."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.total = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]
        self.collected = [0, 0, 0]  # unreachable objects found
        self.buckets = [[0] * len(PAUSE_BUCKETS) for _ in GENERATIONS]  # not cumulative
        self._started = 0.0

    def callback(self, phase: str, info: dict[str, int]) -> None:
        # a collection runs holding the GIL and never nests: start and stop come in pairs
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        g = info["generation"]
        self.count[g] += 1
        self.total[g] += pause
        self.collected[g] += info["collected"]
        self.longest[g] = max(self.longest[g], pause)
        for i, bound in enumerate(PAUSE_BUCKETS):
            if pause <= bound:
                self.buckets[g][i] += 1
                break

    def install(self) -> None:
        if self.callback not in gc.callbacks:
            gc.callbacks.append(self.callback)


PAUSES = Pauses()


class GcCollector(Collector):
    """The pauses as Prometheus metrics, read at each scrape."""

    def __init__(self, pauses: Pauses = PAUSES) -> None:
        self.pauses = pauses

    def collect(self) -> Iterator[Any]:
        p = self.pauses
        hist = HistogramMetricFamily(
            "courtcards_gc_pause_seconds",
            "Garbage collections of this process by generation and how long each stopped it",
            labels=["generation"],
        )
        longest = GaugeMetricFamily(
            "courtcards_gc_pause_max_seconds", "The longest collection pause so far", labels=["generation"]
        )
        collected = CounterMetricFamily(
            "courtcards_gc_collected", "Unreachable objects the collections found", labels=["generation"]
        )
        for g in GENERATIONS:
            cumulative, buckets = 0, []
            for bound, n in zip(PAUSE_BUCKETS, p.buckets[g], strict=True):
                cumulative += n
                buckets.append((str(bound), cumulative))
            buckets.append(("+Inf", p.count[g]))
            hist.add_metric([str(g)], buckets, p.total[g])
            longest.add_metric([str(g)], p.longest[g])
            collected.add_metric([str(g)], p.collected[g])
        yield hist
        yield longest
        yield collected
        f = FREEZER
        yield CounterMetricFamily(
            "courtcards_gc_frozen", "Objects the freezer's steps moved into the permanent generation", f.frozen
        )
        yield GaugeMetricFamily(
            "courtcards_heap_blocks", "Memory blocks Python's allocator holds (the freezer's measure)", heap()
        )
        yield CounterMetricFamily("courtcards_gc_freezes", "Freezer steps (collect the young, freeze)", f.steps)
        yield CounterMetricFamily(
            "courtcards_gc_refreshes", "Full refreshes (unfreeze, collect everything, freeze)", f.refreshes
        )


def heap() -> int:
    """The memory blocks Python's allocator holds now: the heap's size, read without walking it."""
    return sys.getallocatedblocks()


class Freezer:
    """Every ``every`` seconds: collect what is not frozen, then freeze the survivors; refresh the
    whole heap when it has grown ``refresh_growth`` times, at most once every ``refresh_after``
    seconds (see the module's text)."""

    def __init__(
        self, every: float = FREEZE_EVERY, refresh_growth: float = REFRESH_GROWTH, refresh_after: float = REFRESH_AFTER
    ) -> None:
        self.every = every
        self.refresh_growth = refresh_growth
        self.refresh_after = refresh_after  # seconds from the first step or the last refresh
        self.base = 0  # the heap (heap()) after the first step or the last refresh
        self.based = 0.0  # when (time.monotonic())
        self.frozen = 0  # objects the steps froze (counted as they are frozen; many are freed since)
        self.steps = 0
        self.refreshes = 0
        self._task: asyncio.Task[None] | None = None

    def step(self) -> None:
        gc.collect()  # walks only the unfrozen objects: those made since the last step
        self.frozen += len(gc.get_objects(2))  # after a full collection every unfrozen object is in 2
        gc.freeze()
        self.steps += 1
        size = heap()
        if not self.base:
            self.base, self.based = size, time.monotonic()
        elif size > self.refresh_growth * self.base and time.monotonic() - self.based >= self.refresh_after:
            self.refresh()

    def refresh(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.base, self.based = heap(), time.monotonic()
        self.refreshes += 1
        log.info("garbage collector refreshed: %d memory blocks", self.base)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.step()

    def start(self) -> None:
        """Freeze what is loaded now, then step every ``every`` seconds (in the running loop)."""
        if self.every <= 0 or self._task is not None:
            return
        self.step()
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="gc-freezer")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def freeze_every() -> float:
    """Seconds between freezer steps: $COURTCARDS_GC_FREEZE_EVERY, else :data:`FREEZE_EVERY`."""
    raw = os.environ.get(FREEZE_EVERY_ENV, "")
    try:
        return float(raw) if raw.strip() else FREEZE_EVERY
    except ValueError:
        raise ValueError(f"${FREEZE_EVERY_ENV} must be a number of seconds, not {raw!r}") from None


FREEZER = Freezer()
