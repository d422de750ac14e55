"""Fan-out (issue 30, item 2): a state is encoded once per version and view kind, a slow socket skips
to the newest state instead of queueing every one, spectators are capped per table and per address."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server_api import create, table_of

from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig
from courtcards.server.tables import Client, Table


def test_a_slow_socket_skips_to_the_newest_state_instead_of_queueing_every_one() -> None:
    async def main() -> tuple[list[str], Client]:
        gate = asyncio.Event()
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)
            await gate.wait()

        client = Client(None, send, max_queue=64)
        pump = asyncio.create_task(client.pump())
        client.push("state 0", state=True)
        while not sent:  # the pump holds state 0, stuck sending
            await asyncio.sleep(0)
        for v in range(1, 50):
            client.push(f"state {v}", state=True)
        client.push("pong")
        client.push("state 50", state=True)
        # BEHIND states wait (the last replaced by each newer one), then the pong
        assert client.queue.qsize() == Client.BEHIND + 1 and not client.closed
        gate.set()
        while len(sent) < Client.BEHIND + 2:
            await asyncio.sleep(0)
        client.close()
        await pump
        return sent, client

    with ThreadPoolExecutor(1) as pool:  # a loop of its own: the browser tests' may be running here
        sent, client = pool.submit(asyncio.run, main()).result()
    behind = [f"state {v}" for v in range(1, Client.BEHIND)]
    assert sent == ["state 0", *behind, "state 50", "pong"] and client.skipped == 50 - Client.BEHIND


def test_state_messages_are_encoded_once_per_version_and_view_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        tid = create(c, "royale", 2, seats=[{"type": "bot"}, {"type": "bot"}], bot_delay=30)["id"]
        calls: list[list[Any]] = []
        real = Table._messages

        def spy(self: Table, seats: list[int | None]) -> dict[int | None, str]:
            calls.append(list(seats))
            return real(self, seats)

        monkeypatch.setattr(Table, "_messages", spy)
        sockets = [c.websocket_connect(f"/ws/tables/{tid}") for _ in range(8)]
        views = [ws.__enter__().receive_text() for ws in sockets]
        assert len(set(views)) == 1 and calls == [[None]]  # eight spectators, one encoding
        table = table_of(c, tid)
        c.portal.call(table.catch_up)  # type: ignore[union-attr]  # nothing changed: nothing encoded
        assert calls == [[None]]
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_spectators_are_capped_per_table_and_per_address(tmp_path: Path) -> None:
    config = ServerConfig(max_spectators=3, max_spectators_per_address=4)
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"), config=config)) as c:
        bots = [{"type": "bot"}, {"type": "bot"}]
        first, second = (create(c, "royale", 2, seats=bots, bot_delay=30)["id"] for _ in range(2))
        held = [c.websocket_connect(f"/ws/tables/{first}") for _ in range(3)]
        for ws in held:
            assert ws.__enter__().receive_json()["type"] == "state"
        with c.websocket_connect(f"/ws/tables/{first}") as ws:
            msg = ws.receive_json()
            assert msg["code"] == "too_many_spectators" and "3 spectators" in msg["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        other = c.websocket_connect(f"/ws/tables/{second}")
        assert other.__enter__().receive_json()["type"] == "state"  # the fourth of this address
        with c.websocket_connect(f"/ws/tables/{second}") as ws:  # a fifth: over the address's cap
            msg = ws.receive_json()
            assert msg["code"] == "too_many_spectators" and "per address" in msg["message"]
        held[0].__exit__(None, None, None)
        end = time.time() + 10
        while len(table_of(c, first).conns) > 2:  # the server has let it go
            assert time.time() < end
            time.sleep(0.01)
        with c.websocket_connect(f"/ws/tables/{first}") as ws:  # a place freed: welcome again
            assert ws.receive_json()["type"] == "state"
        for ws in [*held[1:], other]:
            ws.__exit__(None, None, None)


def test_a_resent_move_that_was_stored_is_acknowledged_not_refused(tmp_path: Path) -> None:
    from test_server_api import join

    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        tid = create(c, "royale", 2)["id"]
        tokens = [join(c, tid, s) for s in range(2)]
        with (
            c.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a,
            c.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b,
        ):
            states = [a.receive_json(), a.receive_json(), b.receive_json()]
            mover = a if states[1]["legal"] else b
            last = states[1] if mover is a else states[2]
            move, version = last["legal"][0], last["version"]
            mover.send_json({"type": "action", "action": move, "version": version})
            assert mover.receive_json()["version"] == version + 1
            # the client did not see that answer (its socket broke, its server died): it sends again
            mover.send_json({"type": "action", "action": move, "version": version})
            mover.send_json({"type": "ping"})
            assert mover.receive_json() == {"type": "pong"}  # no refusal came before the pong
            assert table_of(c, tid).state.version == version + 1  # and nothing was applied twice
            mover.send_json({"type": "action", "action": move + "x", "version": version})  # not that move
            assert mover.receive_json()["code"] in ("stale_version", "malformed_action")


def _burst_to_spectators(tmp_path: Path, rate: float) -> tuple[list[list[tuple[float, str]]], list[str], float]:
    """Four spectators attached to a bot table that waits; five new states 10 ms apart; what each
    spectator was sent and when (loop time), the five states' messages, and when the burst began."""
    config = ServerConfig(spectator_rate=rate)
    with TestClient(create_app(database_url(None, tmp_path / f"cc{rate}.sqlite"), config=config)) as c:
        tid = create(c, "royale", 2, seats=[{"type": "bot"}, {"type": "bot"}], bot_delay=30)["id"]
        table = table_of(c, tid)

        async def scenario() -> tuple[list[list[tuple[float, str]]], list[str], float]:
            loop = asyncio.get_running_loop()
            sent: list[list[tuple[float, str]]] = []
            watchers = []
            for _ in range(4):
                out: list[tuple[float, str]] = []

                async def send(text: str, out: list[tuple[float, str]] = out) -> None:
                    out.append((loop.time(), text))

                conn = Client(None, send, behind=1)
                sent.append(out)
                watchers.append((conn, asyncio.create_task(conn.pump())))
                table.attach(conn)
            assert table.pace is not None and table.pace.watching == 4
            await asyncio.sleep(0.05)
            began, states = loop.time(), []
            for i in range(5):
                table.seats[0].name = f"bot {i}"  # a new state message, as after an action
                table.broadcast()
                states.append(table.message(None))
                await asyncio.sleep(0.01)
            deadline = time.monotonic() + 10
            while table._fan_task is not None or any(not conn.queue.empty() for conn, _ in watchers):
                assert time.monotonic() < deadline, "the fan-out did not finish"
                await asyncio.sleep(0.01)
            for conn, pump in watchers:
                table.detach(conn)
                conn.close()
                await pump
            assert table.pace.watching == 0
            return sent, states, began

        result: tuple[list[list[tuple[float, str]]], list[str], float] = c.portal.call(scenario)  # type: ignore[union-attr]
        return result


def test_a_crowd_of_spectators_is_paced_and_ends_on_the_newest_state(tmp_path: Path) -> None:
    # 4 spectators sharing 4 pushes a second: each gets a new state at most every second
    sent, states, began = _burst_to_spectators(tmp_path, rate=4)
    for got in sent:
        texts = [text for _, text in got]
        assert texts[1:] == [states[0], states[-1]]  # the first at once, then only the newest
        assert got[2][0] - began >= 1.0


def test_without_a_pace_spectators_that_keep_up_get_every_state(tmp_path: Path) -> None:
    sent, states, _ = _burst_to_spectators(tmp_path, rate=0)
    for got in sent:
        assert [text for _, text in got][1:] == states
