"""Garbage collection on the server (issue 30, item 10): pauses counted by generation in /metrics,
and the freezer that keeps the long-lived heap out of the collector's reach."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from courtcards.server import create_app, database_url
from courtcards.server.app import frozen
from courtcards.server.gcwatch import (
    FREEZE_EVERY_ENV,
    FREEZER,
    PAUSES,
    Freezer,
    GcCollector,
    Pauses,
    freeze_every,
    heap,
)


def samples(text: str) -> dict[tuple[str, str], float]:
    return {
        (s.name, s.labels.get("generation", "")): s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if "le" not in s.labels
    }


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_metrics_count_every_collection_by_generation(tmp_path: Path) -> None:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        before = samples(c.get("/metrics").text)
        for _ in range(3):
            Cycle()
        gc.collect(2)
        gc.collect(0)
        after = samples(c.get("/metrics").text)
    for g, least in (("2", 1), ("0", 1)):
        assert (
            after[("courtcards_gc_pause_seconds_count", g)] >= before[("courtcards_gc_pause_seconds_count", g)] + least
        )
        assert after[("courtcards_gc_pause_seconds_sum", g)] > before[("courtcards_gc_pause_seconds_sum", g)]
        assert after[("courtcards_gc_pause_max_seconds", g)] > 0
    assert after[("courtcards_gc_collected_total", "2")] >= before[("courtcards_gc_collected_total", "2")] + 3
    assert ("courtcards_gc_frozen_total", "") in after and ("courtcards_gc_freezes_total", "") in after


def test_pauses_fall_in_the_bucket_of_their_length() -> None:
    p = Pauses()
    p.callback("start", {"generation": 1, "collected": 0, "uncollectable": 0})
    p.callback("stop", {"generation": 1, "collected": 4, "uncollectable": 0})
    assert p.count == [0, 1, 0] and p.collected == [0, 4, 0]
    assert p.longest[1] == p.total[1] > 0 and sum(p.buckets[1]) == 1 and p.buckets[1][0] == 1  # under 0.5 ms
    PAUSES.install()
    PAUSES.install()
    assert gc.callbacks.count(PAUSES.callback) == 1


def test_freezer_freezes_survivors_collects_the_young_and_refreshes_when_the_heap_doubles() -> None:
    try:
        f = Freezer(every=60, refresh_growth=2.0, refresh_after=0.0)
        f.step()
        frozen, base = gc.get_freeze_count(), heap()
        assert f.steps == 1 and 0 < f.base <= base and f.refreshes == 0  # the heap after the step
        kept = [[i] for i in range(20_000)]  # live, not frozen yet
        garbage = Cycle()
        del garbage
        f.step()
        assert gc.get_freeze_count() >= frozen + len(kept) and f.refreshes == 0
        assert f.frozen >= len(kept)  # counted as frozen
        kept += [[i] for i in range(base)]  # a list and its item array each: the heap more than doubles
        f.step()
        assert f.refreshes == 1 and f.base >= 2 * base  # the heap after the refresh
        late = Freezer(every=60, refresh_growth=2.0, refresh_after=3600.0)  # grown, but refreshed too recently
        late.step()
        kept += [[i] for i in range(late.base)]
        late.step()
        assert late.refreshes == 0 and heap() > 2 * late.base
        assert len(kept) > 0
    finally:
        gc.unfreeze()


def test_a_step_never_walks_the_frozen_heap(monkeypatch: pytest.MonkeyPatch) -> None:
    """gc.get_freeze_count() walks every frozen object (70 ms at 1,000 tables): neither a step nor a
    refresh nor /metrics asks it; the heap is read from the allocator instead."""

    def walk() -> int:
        raise AssertionError("the frozen heap was walked")

    try:
        monkeypatch.setattr(gc, "get_freeze_count", walk)
        f = Freezer(every=60, refresh_growth=1.0, refresh_after=0.0)
        f.step()
        kept = [[i] for i in range(5_000)]
        f.step()  # the heap grew: a refresh too
        assert f.steps == 2 and f.refreshes == 1 and f.frozen >= len(kept)
        registry = CollectorRegistry()
        registry.register(GcCollector())
        seen = samples(generate_latest(registry).decode())
        assert seen[("courtcards_gc_frozen_total", "")] == FREEZER.frozen
        assert seen[("courtcards_heap_blocks", "")] > 0
    finally:
        monkeypatch.undo()
        gc.unfreeze()


def test_freeze_every_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FREEZE_EVERY_ENV, raising=False)
    assert freeze_every() == 2.0
    monkeypatch.setenv(FREEZE_EVERY_ENV, "2.5")
    assert freeze_every() == 2.5
    monkeypatch.setenv(FREEZE_EVERY_ENV, "often")
    with pytest.raises(ValueError, match=FREEZE_EVERY_ENV):
        freeze_every()


def test_a_served_app_starts_the_freezer_after_loading_and_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FREEZE_EVERY_ENV, "0.05")
    steps = FREEZER.steps
    try:
        app = frozen(create_app(database_url(None, tmp_path / "cc.sqlite")))
        assert app.state.gc_freezer is FREEZER and FREEZER.every == 0.05
        with TestClient(app) as c:
            assert FREEZER.steps >= steps + 1  # the first step, at startup
            deadline = time.monotonic() + 30  # two more steps, waited for on the app's own loop
            while FREEZER.steps < steps + 3 and time.monotonic() < deadline:
                c.portal.call(asyncio.sleep, 0.05)  # type: ignore[union-attr]
            assert FREEZER.steps >= steps + 3
            seen = FREEZER.steps
            assert samples(c.get("/metrics").text)[("courtcards_gc_freezes_total", "")] >= seen
        assert FREEZER._task is None
        stopped = FREEZER.steps
        time.sleep(0.15)  # three periods: a freezer left running would have stepped
        assert FREEZER.steps == stopped
    finally:
        FREEZER.every = 2.0
        gc.unfreeze()
