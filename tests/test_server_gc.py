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
from courtcards.server.gcwatch import FREEZE_EVERY_ENV, FREEZER, PAUSES, Freezer, GcCollector, Pauses, freeze_every


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
    assert ("courtcards_gc_frozen_objects", "") in after and ("courtcards_gc_freezes_total", "") in after


def test_pauses_fall_in_the_bucket_of_their_length() -> None:
    p = Pauses()
    p.callback("start", {"generation": 1, "collected": 0, "uncollectable": 0})
    p.callback("stop", {"generation": 1, "collected": 4, "uncollectable": 0})
    assert p.count == [0, 1, 0] and p.collected == [0, 4, 0]
    assert p.longest[1] == p.total[1] > 0 and sum(p.buckets[1]) == 1 and p.buckets[1][0] == 1  # under 0.5 ms
    PAUSES.install()
    PAUSES.install()
    assert gc.callbacks.count(PAUSES.callback) == 1


def test_freezer_freezes_survivors_collects_the_young_and_refreshes_when_the_frozen_heap_doubles() -> None:
    try:
        f = Freezer(every=60, refresh_growth=2.0, refresh_after=0.0)
        f.step()
        base = gc.get_freeze_count()
        assert f.steps == 1 and f.base == base > 0 and f.refreshes == 0
        kept = [[i] for i in range(base // 4)]  # live, not frozen yet
        garbage = Cycle()
        del garbage
        f.step()
        assert gc.get_freeze_count() >= base + len(kept) and f.refreshes == 0
        assert gc.get_freeze_count() <= f.frozen <= gc.get_freeze_count() + 1_000  # counted, not walked
        kept += [[i] for i in range(base * 2)]  # the frozen heap more than doubles: refresh once
        f.step()
        assert f.refreshes == 1 and f.base == gc.get_freeze_count() >= 3 * base
        assert len(kept) > 0
        late = Freezer(every=60, refresh_growth=2.0, refresh_after=3600.0)  # grown, but refreshed too recently
        late.step()
        kept += [[i] for i in range(late.base * 2)]
        late.step()
        assert late.refreshes == 0 and gc.get_freeze_count() > 2 * late.base
    finally:
        gc.unfreeze()


def test_a_step_never_walks_the_frozen_heap(monkeypatch: pytest.MonkeyPatch) -> None:
    """gc.get_freeze_count() walks every frozen object (70 ms at 1,000 tables): only the first step and
    a refresh may ask it; the steps count what they freeze, and /metrics reads that count."""
    try:
        f = Freezer(every=60, refresh_growth=2.0, refresh_after=3600.0)
        f.step()
        first = f.frozen

        def walk() -> int:
            raise AssertionError("a step walked the frozen heap")

        monkeypatch.setattr(gc, "get_freeze_count", walk)
        kept = [[i] for i in range(5_000)]
        f.step()
        assert f.steps == 2 and f.frozen >= first + len(kept)
        del kept
        f.step()  # freed frozen objects stay counted (an upper bound) until a refresh
        assert f.frozen >= first + 5_000
        FREEZER.base, FREEZER.added = 10, 5
        registry = CollectorRegistry()
        registry.register(GcCollector())
        assert samples(generate_latest(registry).decode())[("courtcards_gc_frozen_objects", "")] == 15
    finally:
        FREEZER.base = FREEZER.added = 0
        monkeypatch.undo()
        gc.unfreeze()


def test_freeze_every_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FREEZE_EVERY_ENV, raising=False)
    assert freeze_every() == 10.0
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
