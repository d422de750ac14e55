"""Fan-out against slow spectators (issue 30, item 2): a table's seats are pushed before its
spectators, the spectators a few dozen per turn of the event loop, and a stalled spectator socket
holds one state at most (coalesced) until the server closes it, while a player on another table is
served. The live test stalls real sockets (a WebSocket that never reads) on a real uvicorn server."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_server_api import create, table_of
from websockets.sync.client import connect

from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig
from courtcards.server.tables import Client, Table

T = TypeVar("T")


def test_seats_are_pushed_first_and_spectators_a_chunk_per_turn_with_the_newest_state(tmp_path: Path) -> None:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        tid = create(c, "royale", 2, seats=[{"type": "bot"}, {"type": "bot"}], bot_delay=30)["id"]
        table = table_of(c, tid)
        chunk = Table.FAN_CHUNK

        async def scenario() -> None:
            sent: dict[Client, list[str]] = {}

            def client(seat: int | None) -> Client:
                out: list[str] = []

                async def send(text: str) -> None:
                    out.append(text)

                conn = Client(seat, send, behind=1 if seat is None else Client.BEHIND)
                sent[conn] = out
                return conn

            watchers = [client(None) for _ in range(3 * chunk + 5)]
            player = client(0)
            for conn in [*watchers, player]:
                table.conns.add(conn)  # attached, their pumps not running yet: what is pushed stays queued
            table.broadcast()
            first = table.message(None)
            # at once: the seat's socket, and one chunk of spectators; the others on later turns
            assert player.queue.qsize() == 1
            assert sum(w.queue.qsize() for w in watchers) == chunk
            await asyncio.sleep(0)  # one turn: one more chunk (not all)
            assert chunk < sum(w.queue.qsize() for w in watchers) <= 2 * chunk
            table.state.version += 1  # a newer state (as after an action) while the fan-out runs
            try:
                table.broadcast()
                newest = table.message(None)
                assert newest != first
                deadline = time.monotonic() + 10
                while table._fan_task is not None:
                    assert time.monotonic() < deadline, "the fan-out did not finish"
                    await asyncio.sleep(0)
            finally:
                table.state.version -= 1
            pumps = [asyncio.create_task(conn.pump()) for conn in sent]
            deadline = time.monotonic() + 10
            while any(not conn.queue.empty() for conn in sent):
                assert time.monotonic() < deadline, "queued messages were not sent"
                await asyncio.sleep(0)
            for conn in sent:
                conn.close()
                table.conns.discard(conn)
            await asyncio.gather(*pumps)
            # every spectator ends on the newest state, never an older one after it, and got each once
            for w in watchers:
                assert sent[w][-1] == newest
                assert sent[w].count(newest) == 1 and len(sent[w]) <= 2
            # those the first broadcast had not reached when the second came got only the newest
            assert sum(1 for w in watchers if sent[w] == [newest]) >= chunk
            assert len(sent[player]) == 2  # a seat gets every state

        c.portal.call(scenario)  # type: ignore[union-attr]


class Served(NamedTuple):
    port: int
    app: FastAPI
    loop: asyncio.AbstractEventLoop

    def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` on the server's event loop (reading its tables there, not across threads)."""
        return asyncio.run_coroutine_threadsafe(fn(), self.loop).result(30)  # type: ignore[arg-type]

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    config = ServerConfig(send_timeout=60.0)  # a stalled socket is not dropped before the test shortens it
    app = create_app(database_url(None, tmp_path / "cc.sqlite"), config=config)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield Served(port, app, loop)
    finally:
        server.should_exit = True
        thread.join(30)
        loop.close()


def stalled_spectator(port: int, tid: str) -> socket.socket:
    """A WebSocket on ``tid`` that reads the handshake's answer and then nothing: its small receive
    buffer fills, then the kernel's and the server's send buffers, then the server's send waits."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws/tables/{tid} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # byte by byte: not one byte of the frames after it
        byte = s.recv(1)
        assert byte, "closed during the handshake"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def play_actions(port: int, tid: str, token: str, count: int) -> list[float]:
    """``count`` actions of the one human seat (the others bots): how long each took to come back
    as a state (each waited for with a deadline)."""
    took: list[float] = []
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={token}", open_timeout=10) as ws:
        last: dict[str, Any] = {}
        while len(took) < count:
            deadline = time.monotonic() + 10
            while not last.get("legal"):
                assert last.get("status") != "finished", "the game ended first"
                msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                if msg.get("type") == "state":
                    last = msg
            version, start = last["version"], time.monotonic()
            ws.send(json.dumps({"type": "action", "action": last["legal"][0], "version": version}))
            while True:
                msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                # the bot may move at the same time (both seats to move): that move came first
                assert msg.get("type") != "error" or msg["code"] == "stale_version", msg
                if msg.get("type") == "state" and msg["version"] > version:
                    break
            took.append(time.monotonic() - start)
            last = msg
    return took


@pytest.mark.slow  # about 10 s: the other table's bots play between the player's turns
def test_a_stalled_spectator_holds_one_state_and_is_closed_while_players_are_served(served: Served) -> None:
    busy_body = {"game": "rank", "players": 4, "options": {"endless": True, "hands": 1000}, "bot_delay": 0.01}
    busy = served.post("/api/tables", {**busy_body, "seats": [{"type": "bot"}] * 4, "private": False})["table"]["id"]
    stalled = [stalled_spectator(served.port, busy) for _ in range(6)]
    lobby = served.app.state.lobby

    async def watchers() -> list[Client]:
        table: Table = lobby.tables[busy]
        return [c for c in table.conns if c.seat is None]

    conns = served.call(watchers)
    assert len(conns) == len(stalled)
    try:
        # every stalled socket's send is stuck (its buffers are full) and newer states replace the one waiting
        deadline = time.monotonic() + 60
        while not all(c.sending_since is not None and c.skipped > 0 for c in conns):
            assert time.monotonic() < deadline, "the spectators never fell behind"
            time.sleep(0.05)

        async def version() -> int:
            return int(lobby.tables[busy].state.version)

        before = served.call(version)
        # another table's player is served meanwhile, each action's state back within its deadline
        body = {**busy_body, "seats": [{"type": "human"}, *[{"type": "bot"}] * 3], "bot_delay": 0}
        tid = served.post("/api/tables", body)["table"]["id"]
        token = served.post(f"/api/tables/{tid}/join", {"seat": 0})["token"]
        took = play_actions(served.port, tid, token, 5)
        assert len(took) == 5
        deadline = time.monotonic() + 30
        while served.call(version) < before + 100:  # the busy table went on: many more states
            assert time.monotonic() < deadline, "the busy table stopped"
            time.sleep(0.05)
        # memory stays bounded: at most one state waits behind the one stuck in flight
        for c in conns:
            assert c.queue.qsize() <= 1 and c.skipped >= 50 and not c.closed

        async def shorten() -> None:  # the operator's bound (--send-timeout), shortened for the test
            for c in conns:
                c.send_timeout = 0.5

        served.call(shorten)
        deadline = time.monotonic() + 30
        while not all(c.closed for c in conns):
            assert time.monotonic() < deadline, "the stalled spectators were not closed"
            time.sleep(0.05)
        assert all((c.reason or "").startswith("too slow") for c in conns)

        async def gone() -> int:
            return sum(1 for c in lobby.tables[busy].conns if c.seat is None)

        deadline = time.monotonic() + 30
        while served.call(gone):
            assert time.monotonic() < deadline, "the closed spectators stayed attached"
            time.sleep(0.05)
        # the server closed the connection: once read, what was buffered ends (EOF)
        s = stalled[0]
        s.settimeout(10)
        while s.recv(1 << 16):
            pass
    finally:
        for s in stalled:
            s.close()
