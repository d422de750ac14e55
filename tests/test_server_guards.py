"""Per-address caps in front of the app (issue 30, item 3): requests in flight, GET rate."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from courtcards.server import create_app, database_url
from courtcards.server.guards import Guard, ServerConfig


def test_requests_in_flight_per_address_are_capped() -> None:
    release = asyncio.Event()
    started: list[str] = []

    async def slow_app(scope: Any, receive: Any, send: Any) -> None:
        started.append(scope["client"][0])
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = Guard(slow_app, max_body=100, max_inflight=2)

    async def call(address: str) -> int:
        sent: list[MutableMapping[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(msg: MutableMapping[str, Any]) -> None:
            sent.append(msg)

        scope = {"type": "http", "method": "GET", "path": "/api/x", "headers": [], "client": (address, 1)}
        await guard(scope, receive, send)
        return int(sent[0]["status"])

    async def main() -> None:
        first = [asyncio.create_task(call("10.0.0.1")) for _ in range(2)]
        while len(started) < 2:  # both are being answered
            await asyncio.sleep(0)
        assert await call("10.0.0.1") == 429  # a third from the same address: refused at once
        other = asyncio.create_task(call("10.0.0.2"))  # another address is not held back
        while len(started) < 3:
            await asyncio.sleep(0)
        release.set()
        assert [await t for t in first] == [200, 200] and await other == 200
        assert guard.inflight == {}
        assert await call("10.0.0.1") == 200

    with ThreadPoolExecutor(1) as pool:  # a loop of its own: the browser tests' may be running here
        pool.submit(asyncio.run, main()).result()


def test_get_requests_are_rate_limited_per_address(tmp_path: Path) -> None:
    config = ServerConfig(rate_read="3/minute")
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"), config=config)) as c:
        assert [c.get("/api/games").status_code for _ in range(3)] == [200, 200, 200]
        r = c.get("/api/tables")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert "reads" in r.json()["error"]["message"]
        body = json.dumps({"game": "royale"})  # other methods are counted by their own limits
        assert c.post("/api/tables", content=body, headers={"content-type": "application/json"}).status_code == 201
