"""What an operator sees: /healthz, /readyz and Prometheus metrics (prometheus-client), one registry
per app."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from courtcards.server.conns import GuardedH11
from courtcards.server.gcwatch import PAUSES, GcCollector

if TYPE_CHECKING:
    from courtcards.server.tables import Lobby

router = APIRouter(include_in_schema=False)

# seconds from a move's arrival to its push: the commit (a database round trip) dominates
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class ServerCollector(Collector):
    """Read at each scrape from the lobby and the store: nothing to keep in step."""

    def __init__(self, lobby: Lobby, spectators: dict[str, int]) -> None:
        self.lobby = lobby
        self.spectators = spectators

    def collect(self) -> Iterator[Any]:
        lobby, store = self.lobby, self.lobby.store
        yield CounterMetricFamily("courtcards_actions", "Actions committed by this process", value=store.actions)
        yield CounterMetricFamily("courtcards_db_commits", "Database transactions (group commits)", value=store.commits)
        yield GaugeMetricFamily("courtcards_db_queue", "Writes waiting for the database", value=store._queue.qsize())
        tables = list(lobby.tables.values())
        yield GaugeMetricFamily("courtcards_tables", "Tables in memory", value=len(tables))
        conns = [c for t in tables for c in t.conns]
        yield GaugeMetricFamily("courtcards_sockets", "Open WebSockets", value=len(conns))
        yield GaugeMetricFamily(
            "courtcards_spectators", "Spectator WebSockets", value=sum(1 for c in conns if c.seat is None)
        )
        depths = [c.queue.qsize() for c in conns]
        yield GaugeMetricFamily("courtcards_send_queue", "Messages waiting in all sockets' queues", value=sum(depths))
        yield GaugeMetricFamily("courtcards_send_queue_max", "The longest socket queue", value=max(depths, default=0))
        yield CounterMetricFamily(
            "courtcards_states_skipped", "State messages a slow socket skipped", value=sum(c.skipped for c in conns)
        )
        yield CounterMetricFamily(
            "courtcards_connections_refused", "Connections refused (per-address cap)", value=GuardedH11.refused
        )
        yield CounterMetricFamily(
            "courtcards_head_timeouts", "Connections closed waiting for a request head", value=GuardedH11.timed_out
        )
        yield GaugeMetricFamily(
            "courtcards_search_tables",
            "Tables in play with a search-bot seat (--max-search-tables)",
            value=lobby.search_tables(),
        )
        compute = lobby.compute
        yield CounterMetricFamily(
            "courtcards_searches",
            "Searches (bot moves, hints) done in worker processes",
            value=compute.done if compute else 0,
        )
        taken = lobby.cluster.taken_over if lobby.cluster is not None else 0
        yield CounterMetricFamily("courtcards_failovers", "Tables taken over from a process that stopped", value=taken)
        handed = lobby.cluster.handed_over if lobby.cluster is not None else 0
        yield CounterMetricFamily(
            "courtcards_handovers", "Tables given up to the process their people are connected to", value=handed
        )


def install(app: Any, lobby: Lobby, spectators: dict[str, int]) -> None:
    """The metrics registry of one app; the action latency histogram fed by the store."""
    registry = CollectorRegistry()
    registry.register(ServerCollector(lobby, spectators))
    PAUSES.install()  # process-wide, once
    registry.register(GcCollector())
    latency = Histogram(
        "courtcards_action_seconds", "From a move's arrival to its push", buckets=LATENCY_BUCKETS, registry=registry
    )
    lobby.store.on_action = latency.observe
    app.state.metrics = registry


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Readiness: started, the database answers and its writer runs (503 otherwise)."""
    lobby: Lobby = request.app.state.lobby
    store = lobby.store
    problems = []
    if not lobby.started:
        problems.append("starting")
    if store._thread is None or not store._thread.is_alive():
        problems.append("database writer stopped")

    def ping() -> None:
        with store.engine.connect() as conn:
            conn.execute(sa.select(1))

    try:
        await asyncio.wait_for(asyncio.to_thread(ping), 2.0)
    except Exception as exc:  # any failure: not ready
        problems.append(f"database: {type(exc).__name__}")
    status = 503 if problems else 200
    return JSONResponse({"status": "not ready" if problems else "ready", "problems": problems}, status_code=status)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """Prometheus text format."""
    return Response(generate_latest(request.app.state.metrics), media_type=CONTENT_TYPE_LATEST)
