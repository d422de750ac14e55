"""Quotas on CPU-heavy work (issue 30, item 9): tables in play with search-bot seats and hint searches at
once, per client address and in all; a finished or unloaded table, or an answered hint, frees its slot."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from test_server_api import err, join

from courtcards.bots.ismcts import hint as real_hint
from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig
from courtcards.server.quotas import Concurrent
from courtcards.server.tables import Lobby, Table, cpu_heavy

SEARCH = "ismcts:5"  # a bot whose class says it searches (``slow``); the server knows it only by that


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    cfg = ServerConfig(
        compute_workers=0,  # searches in threads: no worker process to start in a test
        max_search_tables=3,
        max_search_tables_per_address=2,
        max_hints=2,
        max_hints_per_address=1,
        rate_create="none",
        rate_join="none",
    )
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"), config=cfg), client=("10.0.0.1", 1)) as c:
        yield c


def at(c: TestClient, address: str) -> TestClient:
    """Another client address on the same running server (and its event loop)."""
    other = TestClient(c.app, client=(address, 50000))
    other.portal = c.portal
    return other


def lobby_of(c: TestClient) -> Lobby:
    lobby: Lobby = c.app.state.lobby  # type: ignore[attr-defined]
    return lobby


def new_table(c: TestClient, bot: str, **extra: Any) -> httpx.Response:
    """A two-player royale table: a person's seat (not joined yet: the bot waits) and a ``bot`` seat."""
    body = {
        "game": "royale",
        "players": 2,
        "seed": 5,
        "bot_delay": 0,
        "seats": [{"type": "human"}, {"type": "bot", "bot": bot}],
    }
    r: httpx.Response = c.post("/api/tables", json={**body, **extra})
    return r


def made(r: httpx.Response) -> str:
    assert r.status_code == 201, r.text
    return str(r.json()["table"]["id"])


def test_which_bots_are_heavy_comes_from_the_bots() -> None:
    assert cpu_heavy("royale", SEARCH) and cpu_heavy("rank", "ismcts")
    assert not cpu_heavy("royale", "random") and not cpu_heavy("rank", "greedy")
    assert not cpu_heavy("rank", "no-such-bot")  # a stored table whose bot is gone still loads


def test_search_tables_are_capped_per_address_and_in_all(server: TestClient) -> None:
    a, b, c = server, at(server, "10.0.0.2"), at(server, "10.0.0.3")
    first = made(new_table(a, SEARCH))
    made(new_table(a, SEARCH))
    msg = err(new_table(a, SEARCH), 429, "too_many_search_tables")
    assert "this address has 2 tables with search bots in play (at most 2)" in msg
    made(new_table(a, "random"))  # other bots are not counted
    made(new_table(b, SEARCH))  # another address still gets one
    msg = err(new_table(c, SEARCH), 429, "too_many_search_tables")  # the server's 3 are taken
    assert "the server has 3 tables with search bots in play (at most 3)" in msg
    assert lobby_of(server).search_tables() == 3 and lobby_of(server).search_tables("10.0.0.1") == 2
    assert "courtcards_search_tables 3.0" in server.get("/metrics").text

    # finishing a game frees its slot: play the person's seat against the search bot to the end
    token = join(a, first, 0)
    table: Table = lobby_of(server).tables[first]
    rng = random.Random(3)
    with a.websocket_connect(f"/ws/tables/{first}?token={token}") as ws:
        while True:
            msg_in = ws.receive_json()
            if msg_in["type"] != "state":
                continue
            if msg_in["status"] == "finished":
                break
            if msg_in["legal"]:
                ws.send_json({"type": "action", "action": rng.choice(msg_in["legal"]), "version": msg_in["version"]})
    assert table.state.is_over()
    assert lobby_of(server).search_tables("10.0.0.1") == 1
    made(new_table(c, SEARCH))  # the server's slot is free again
    err(new_table(a, SEARCH), 429, "too_many_search_tables")  # now the server is full again

    # a table that leaves memory (nobody connected for the idle time) stops counting too
    unloaded = server.portal.call(lobby_of(server).sweep, time.time() + 100_000)  # type: ignore[union-attr]
    assert first in unloaded and lobby_of(server).search_tables() == 0
    made(new_table(a, SEARCH))
    made(new_table(a, SEARCH))
    err(new_table(a, SEARCH), 429, "too_many_search_tables")


def test_rematches_count_for_the_address_that_asks(server: TestClient) -> None:
    a = server
    tid = made(new_table(a, SEARCH))
    token = join(a, tid, 0)
    table: Table = lobby_of(server).tables[tid]
    with a.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        while not table.state.is_over():
            msg = ws.receive_json()
            if msg["type"] == "state" and msg["legal"]:
                ws.send_json({"type": "action", "action": msg["legal"][0], "version": msg["version"]})
    made(new_table(a, SEARCH))
    made(new_table(a, SEARCH))  # 2 in play: the address's cap
    err(a.post(f"/api/tables/{tid}/rematch", json={"token": token}), 429, "too_many_search_tables")


def test_hints_at_once_are_capped_per_address_and_in_all(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def held_hint(view: Any, legal: Any, seed: int, seconds: float) -> Any:  # the real search, once let go on
        assert release.wait(30)
        return real_hint(view, legal, seed, 0.05)

    monkeypatch.setattr("courtcards.server.hints.hint", held_hint)

    def seat_to_move(c: TestClient) -> tuple[str, str]:
        """A table of three people (hints on) made and joined from ``c``: its id and the mover's token."""
        r = c.post("/api/tables", json={"game": "rank", "players": 3, "seed": 9, "hints": True})
        tid = made(r)
        tokens = [join(c, tid, s) for s in range(3)]
        mover = lobby_of(server).tables[tid].to_move()[0]
        return tid, tokens[mover]

    slots = {"10.0.0.1": seat_to_move(server), "10.0.0.2": seat_to_move(at(server, "10.0.0.2"))}
    slots["10.0.0.3"] = seat_to_move(at(server, "10.0.0.3"))
    answers: dict[str, httpx.Response] = {}

    def ask(address: str) -> httpx.Response:
        tid, token = slots[address]
        r: httpx.Response = at(server, address).post(f"/api/tables/{tid}/hint", json={"token": token})
        return r

    def ask_in_thread(address: str) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.__setitem__(address, ask(address)))
        thread.start()
        return thread

    def running() -> dict[str, int]:
        gate: Concurrent | None = getattr(server.app.state, "hint_slots", None)  # type: ignore[attr-defined]
        return {} if gate is None else dict(gate.running)

    def wait_for(expected: dict[str, int]) -> None:
        end = time.monotonic() + 30
        while running() != expected:
            assert time.monotonic() < end, running()
            time.sleep(0.01)

    one = ask_in_thread("10.0.0.1")
    wait_for({"10.0.0.1": 1})
    msg = err(ask("10.0.0.1"), 429, "too_many_hints")  # the same address, while its hint runs
    assert "at most 1" in msg
    two = ask_in_thread("10.0.0.2")  # another address still gets one
    wait_for({"10.0.0.1": 1, "10.0.0.2": 1})
    err(ask("10.0.0.3"), 429, "busy")  # the server's 2 are running
    release.set()
    one.join(30)
    two.join(30)
    for address in ("10.0.0.1", "10.0.0.2"):
        assert answers[address].status_code == 200, answers[address].text
    assert running() == {}
    assert ask("10.0.0.1").status_code == 200  # answered: its slot is free again
    assert ask("10.0.0.3").status_code == 200
