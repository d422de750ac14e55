"""The server's limits (issue 15): sizes, nesting, names, rates, pagination, private tables,
expiry, snapshots, replay off the event loop, slow connections, Origin and headers."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server_api import create, err, join, play_out, table_of

from courtcards.core.record import GameRecord
from courtcards.server import create_app, database_url, replay
from courtcards.server.guards import ServerConfig
from courtcards.server.tables import Client, Lobby, LobbyConfig

T = TypeVar("T")


def app_client(db_path: Path, **config: Any) -> TestClient:
    return TestClient(create_app(database_url(None, db_path), config=ServerConfig(**config)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "cc.sqlite") as c:
        yield c


def lobby_of(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return lobby


# -- sizes, nesting, names ---------------------------------------------------------------
def test_request_bodies_over_the_limit_are_refused(tmp_path: Path) -> None:
    with app_client(tmp_path / "cc.sqlite", max_body=1000) as c:
        big = json.dumps({"game": "rank", "options": {"x": "y" * 2000}})
        err(c.post("/api/tables", content=big, headers={"content-type": "application/json"}), 413, "body_too_large")

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"game": "rank", "preset": "'
            for _ in range(10):
                yield b"q" * 200
            yield b'"}'

        err(
            c.post("/api/tables", content=chunks(), headers={"content-type": "application/json"}), 413, "body_too_large"
        )
        assert c.get("/api/tables").json()["total"] == 0
        assert c.post("/api/tables", json={"game": "rank", "seed": 1}).status_code == 201


def test_deep_json_and_long_fields_get_typed_errors(client: TestClient) -> None:
    deep = '{"game": "rank", "options": {"x": ' + "[" * 5000 + "]" * 5000 + "}}"
    r = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500 and r.json()["error"]["code"] == "bad_request", r.text
    err(
        client.post(
            "/api/tables", json={"game": "rank", "players": 3, "seats": [{"type": "bot", "name": "n" * 65}] * 3}
        ),
        422,
        "bad_request",
    )
    err(client.post("/api/tables", json={"game": "rank", "options": {"hands": [1, [2]]}}), 422, "bad_request")
    err(
        client.post("/api/tables", json={"game": "rank", "options": {f"o{i}": 1 for i in range(65)}}),
        422,
        "bad_request",
    )
    err(client.post("/api/tables", json={"game": "r" * 33}), 422, "bad_request")
    err(client.post("/api/tables", json={"game": "rank", "seats": [{"type": "human"}] * 65}), 422, "bad_request")
    tid = create(client)["id"]
    err(client.post(f"/api/tables/{tid}/join", json={"name": "n" * 65}), 422, "bad_request")
    assert client.get("/api/tables?limit=200").json()["total"] == 0  # only the private table exists
    assert all(not s["taken"] for s in client.get(f"/api/tables/{tid}").json()["table"]["seats"])


def test_defaults_for_zero_players_is_a_typed_error(client: TestClient) -> None:
    err(client.get("/api/games/rank/defaults?players=0"), 422, "bad_request")
    err(client.get("/api/games/rank/defaults?players=-1"), 422, "bad_request")
    assert client.get("/api/games/rank/defaults").json()["options"]


def test_websocket_size_nesting_and_action_length(tmp_path: Path) -> None:
    with app_client(tmp_path / "cc.sqlite", max_message=4000, max_action=100) as c:
        tid = create(c)["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        table = table_of(c, tid)
        mover = table.state.to_move()[0]
        with c.websocket_connect(f"/ws/tables/{tid}?token={tokens[mover]}") as ws:
            assert ws.receive_json()["type"] == "state"
            for text, why in [
                ("[" * 1900 + "]" * 1900, "nested too deeply"),
                (json.dumps({"type": "ping", "pad": "x" * 5000}), "at most 4000 bytes"),
                (json.dumps({"type": "action", "action": "8" * 101, "version": 0}), "at most 100"),
                (json.dumps({"type": "check", "action": "8" * 101}), "at most 100"),
            ]:
                ws.send_text(text)
                reply = ws.receive_json()
                assert reply["type"] == "error" and reply["code"] == "bad_message" and why in reply["message"]
            ws.send_json({"type": "ping"})  # still connected
            assert ws.receive_json() == {"type": "pong"}
        assert table.state.version == 0


# -- rate limits ------------------------------------------------------------------------------
def connect_twice_then_refused(clients: list[TestClient], tid: str) -> None:
    """Connections at 2/minute: one through each client is served, the next one (through the last) refused."""
    for c in clients:
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert ws.receive_json()["type"] == "state"
    with clients[-1].websocket_connect(f"/ws/tables/{tid}") as ws:
        assert ws.receive_json()["code"] == "rate_limited"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4429


def test_rate_limits_per_address(tmp_path: Path) -> None:
    with app_client(tmp_path / "cc.sqlite", rate_create="2/minute", rate_join="2/minute", rate_connect="2/minute") as c:
        tid = create(c)["id"]
        create(c)
        msg = err(c.post("/api/tables", json={"game": "rank"}), 429, "rate_limited")
        assert "new tables" in msg and "2 per 1 minute" in msg
        join(c, tid, 0)
        join(c, tid, 1)
        err(c.post(f"/api/tables/{tid}/join", json={"seat": 2}), 429, "rate_limited")
        connect_twice_then_refused([c, c], tid)
    with app_client(tmp_path / "cc.sqlite", rate_create="none") as c:
        for _ in range(40):
            create(c)


# -- the table list, private tables -------------------------------------------------------------
def test_table_list_pages_and_filters(client: TestClient) -> None:
    ids = [create(client, "rank", 3, private=False, seed=i)["id"] for i in range(5)]
    royals = create(client, "royals", 3, private=False)["id"]
    create(client, "rank", 3)  # private by default: never listed
    page = client.get("/api/tables?limit=2").json()
    assert [t["id"] for t in page["tables"]] == [royals, ids[4]] and page["total"] == 6 and page["next"] == 2
    page = client.get("/api/tables?limit=2&offset=4").json()
    assert [t["id"] for t in page["tables"]] == [ids[1], ids[0]] and page["next"] is None
    assert [t["id"] for t in client.get("/api/tables?game=royals").json()["tables"]] == [royals]
    assert client.get("/api/tables?game=rank&status=open").json()["total"] == 5
    err(client.get("/api/tables?limit=0"), 422, "bad_request")
    err(client.get("/api/tables?limit=201"), 422, "bad_request")
    err(client.get("/api/tables?offset=-1"), 422, "bad_request")


def test_tables_with_people_are_private_by_default(client: TestClient) -> None:
    t = create(client, "rank", 3, seats=[{"type": "human"}, {"type": "bot"}, {"type": "bot"}])
    assert t["private"] is True and len(t["id"]) == 16  # 80 random bits: the link is the key
    assert client.get("/api/tables").json()["tables"] == []
    assert client.get(f"/api/tables/{t['id']}").json()["table"]["id"] == t["id"]
    join(client, t["id"], 0)  # by link
    bots = create(client, "rank", 3, seats=[{"type": "bot"}] * 3)
    assert bots["private"] is False and len(bots["id"]) == 6
    assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [bots["id"]]


# -- expiry, snapshots -------------------------------------------------------------------------
def test_idle_tables_leave_memory_and_stay_readable(tmp_path: Path) -> None:
    with app_client(tmp_path / "cc.sqlite", lobby=LobbyConfig(idle_expiry=100, finished_expiry=10)) as c:
        lobby = lobby_of(c)
        tid = create(c, "rank", 3, preset="quick")["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        play_out(c, tid, tokens, random.Random(4), limit=10)
        history = list(table_of(c, tid).state.history)
        done = create(c, "royale", 2, seats=[{"type": "bot"}, {"type": "bot"}])["id"]
        end = time.time() + 60
        while not table_of(c, done).state.is_over():
            assert time.time() < end
            time.sleep(0.05)
        now = time.time()
        assert c.portal.call(lobby.sweep, now + 11) == [done]  # type: ignore[union-attr]
        assert set(c.portal.call(lobby.sweep, now + 101)) == {tid}  # type: ignore[union-attr]
        assert lobby.tables == {}
        assert c.get(f"/api/tables/{done}/record").status_code == 200  # loaded again from the database
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["version"] == 10 and table_of(c, tid).state.history == history
        play_out(c, tid, tokens, random.Random(5), limit=3)  # and playable
        assert table_of(c, tid).state.version == 13


def test_snapshots_spare_a_restart_the_whole_log(tmp_path: Path) -> None:
    db = tmp_path / "cc.sqlite"
    with app_client(db, lobby=LobbyConfig(snapshot_every=5)) as c:
        tid = create(c, "rank", 3)["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        play_out(c, tid, tokens, random.Random(1), limit=12)
        history = list(table_of(c, tid).state.history)
    with sqlite3.connect(db) as con:
        assert list(con.execute("SELECT version FROM cc_snapshots WHERE table_id=?", (tid,))) == [(10,)]
    with app_client(db) as c:
        stored = lobby_of(c).store.load(tid)
        assert stored is not None and stored.snapshot is not None and stored.snapshot_version == 10
        assert stored.snapshot["history"] == [] and len(stored.actions) == 12  # the log is the history
        table = table_of(c, tid)
        assert table.state.history == history
        assert table.state.to_json() == GameRecord.from_state(table.state).replay().to_json()
        play_out(c, tid, tokens, random.Random(2), limit=3)


# -- replay -----------------------------------------------------------------------------------------
def test_replay_is_built_off_the_event_loop_with_bounded_memory(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = replay.build

    def spy(record: GameRecord, every: int) -> replay.Replay:
        threads.append(threading.current_thread().name)
        return real(record, every)

    monkeypatch.setattr(replay, "build", spy)
    tid = create(client, "rank", 3, seats=[{"type": "bot"}] * 3, preset="quick")["id"]
    end = time.time() + 60
    while not table_of(client, tid).state.is_over():
        assert time.time() < end
        time.sleep(0.05)
    steps = table_of(client, tid).state.version
    data = client.get(f"/api/tables/{tid}/replay").json()
    assert data["marks"][0] == {"label": "Hand 1", "step": 0}
    states = GameRecord.from_json(client.get(f"/api/tables/{tid}/record").json()).states()
    for step in (0, 1, 49, 50, 51, steps):
        got = client.get(f"/api/tables/{tid}/replay/{step}").json()
        assert got["places"] == states[step].card_places()
        assert got["view"] == json.loads(json.dumps(states[step].view(None)))
    assert threads and threading.main_thread().name not in threads and len(threads) == 1  # built once
    built = client.app.state  # type: ignore[attr-defined]
    cache = next(v for v in vars(built.replays).values() if isinstance(v, dict) and tid in v)
    assert len(cache[tid].checkpoints) == steps // 50 + 1
    assert all(cp.history == [] for cp in cache[tid].checkpoints)


# -- slow connections -----------------------------------------------------------------------------
def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own (other tests may leave a loop running in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_a_connection_that_falls_behind_is_dropped_with_a_reason() -> None:
    async def scenario() -> tuple[Client, list[str]]:
        stuck = asyncio.Event()

        async def send(_text: str) -> None:
            await stuck.wait()  # a client that never reads

        reasons: list[str] = []
        client = Client(0, send, max_queue=8, send_timeout=60, on_drop=reasons.append)
        pump = asyncio.create_task(client.pump())
        for i in range(20):
            client.push(f"message {i}")
            await asyncio.sleep(0)
        pump.cancel()
        return client, reasons

    client, reasons = run_async(scenario())
    assert client.closed and reasons == ["too slow: more than 8 messages waiting to be sent"]
    assert client.queue.qsize() <= 1  # the backlog is freed

    async def stuck() -> list[str]:
        async def send(_text: str) -> None:
            await asyncio.sleep(10)

        reasons: list[str] = []
        client = Client(0, send, max_queue=8, send_timeout=5, on_drop=reasons.append)
        pump = asyncio.create_task(client.pump())
        client.push("x")
        await asyncio.sleep(0.01)
        now = asyncio.get_running_loop().time()
        client.check_stuck(now + 4)  # not yet
        assert reasons == []
        client.check_stuck(now + 6)
        pump.cancel()
        return reasons

    assert run_async(stuck()) == ["too slow: a message took more than 5 s to send"]


# -- Origin, headers ----------------------------------------------------------------------------------
def test_websocket_origin_is_checked(tmp_path: Path) -> None:
    with app_client(tmp_path / "cc.sqlite", allowed_origins=("https://cards.example.org",)) as c:
        tid = create(c)["id"]
        with c.websocket_connect(f"/ws/tables/{tid}", headers={"origin": "https://evil.example"}) as ws:
            assert ws.receive_json()["code"] == "bad_origin"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4403
        for origin in ("http://testserver", "https://cards.example.org"):
            with c.websocket_connect(f"/ws/tables/{tid}", headers={"origin": origin}) as ws:
                assert ws.receive_json()["type"] == "state"


def test_security_headers(client: TestClient) -> None:
    page = client.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    api = client.get("/api/games")
    for r in (page, api):
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"


def test_upgrade_from_the_first_schema_keeps_tables(tmp_path: Path) -> None:
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from courtcards.server.db import make_engine, migrate

    engine = make_engine(database_url(None, tmp_path / "old.sqlite"))
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(replay.__file__).parent / "migrations"))
    settings = json.dumps({"bot_delay": 0, "absent_timeout": 60})
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        for tid, finished, token in (("aaaaaa", False, None), ("bbbbbb", False, "h"), ("cccccc", True, "h")):
            conn.execute(
                sa.text("INSERT INTO cc_tables VALUES (:id, 'rank', 3, '{}', 1, :s, 1.0, :f, NULL)"),
                {"id": tid, "s": settings, "f": finished},
            )
            for seat in range(3):
                conn.execute(
                    sa.text("INSERT INTO cc_seats VALUES (:id, :seat, 'human', NULL, NULL, :tok)"),
                    {"id": tid, "seat": seat, "tok": token},
                )
        conn.execute(sa.text("INSERT INTO cc_actions VALUES ('bbbbbb', 0, 0, 'x', 1.0)"))
    migrate(engine)
    with engine.connect() as conn:
        rows = list(conn.execute(sa.text("SELECT id, status, private, version FROM cc_tables ORDER BY id")))
    assert rows == [("aaaaaa", "open", 0, 0), ("bbbbbb", "playing", 0, 1), ("cccccc", "finished", 0, 0)]
