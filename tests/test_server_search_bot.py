"""A search bot seat thinks off the server's event loop, so other tables go on meanwhile: in a worker
process by default (issue 30, item 9), in a thread with ``compute_workers=0``."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from courtcards.bots.ismcts import ISMCTSBot
from courtcards.server.app import create_app
from courtcards.server.db import database_url
from courtcards.server.guards import ServerConfig


def test_ismcts_seat_thinks_in_a_worker_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    original = ISMCTSBot.choose

    def recording(self: ISMCTSBot, view: dict[str, Any], legal: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(self, view, legal)

    monkeypatch.setattr(ISMCTSBot, "choose", recording)
    config = ServerConfig(compute_workers=0)
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"), config=config)) as client:
        body = {
            "game": "royale",
            "seed": 3,
            "bot_delay": 0,
            "seats": [{"type": "bot", "bot": "ismcts:5"}, {"type": "bot", "bot": "random"}],
        }
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        deadline = time.time() + 60
        while not threads and time.time() < deadline:
            assert client.get(f"/api/tables/{tid}").status_code == 200  # the loop keeps answering
            time.sleep(0.05)
    assert threads and all(name.startswith("asyncio_") for name in threads), threads  # the default executor


def test_ismcts_seat_thinks_in_a_worker_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here: list[str] = []
    monkeypatch.setattr(ISMCTSBot, "choose", lambda *_: here.append("server process"))  # never called here
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as client:
        body = {
            "game": "royale",
            "seed": 3,
            "bot_delay": 0,
            "seats": [{"type": "bot", "bot": "ismcts:5"}, {"type": "bot", "bot": "random"}],
        }
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        compute = client.app.state.lobby.compute  # type: ignore[attr-defined]
        deadline = time.time() + 60
        while compute.done < 3:  # the search seat has moved three times, each in the worker
            assert client.get(f"/api/tables/{tid}").status_code == 200  # the loop keeps answering
            assert time.time() < deadline
            time.sleep(0.05)
        assert client.get(f"/api/tables/{tid}").json()["table"]["version"] >= 3
    assert here == []
