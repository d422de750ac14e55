"""Two `courtcards serve` processes on one PostgreSQL: play through both, kill -9 one, and its
tables go on in the other within seconds, with no acknowledged action lost and every view right."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_server_crash import free_port, http
from test_server_postgres import postgres_url  # noqa: F401  (the fixture)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from courtcards.core.record import GameRecord
from courtcards.server.cluster import NODE_LOCK, WATCH

LEASE_TTL = 1.5


def start(url: str, log: Path, ttl: float = LEASE_TTL) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    out = log.open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "courtcards",
            "serve",
            "--port",
            str(port),
            "--database-url",
            url,
            "--lease-ttl",
            str(ttl),
            "--log-level",
            "info",
            "--no-access-log",
        ],
        stdout=out,
        stderr=out,
    )
    base = f"http://127.0.0.1:{port}"
    end = time.time() + 30
    while time.time() < end:
        try:
            with urllib.request.urlopen(base + "/api/games", timeout=1):
                return proc, base
        except OSError:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


class Player(threading.Thread):
    """A human seat playing random legal moves over one connection until it closes or the game ends."""

    def __init__(self, base: str, tid: str, token: str, seat: int, rng: random.Random, log: list[Any]) -> None:
        super().__init__(daemon=True)
        self.url = base.replace("http", "ws") + f"/ws/tables/{tid}?token={token}"
        self.seat, self.rng, self.log = seat, rng, log
        self.acked: list[tuple[int, str]] = []
        self.in_flight: tuple[int, str] | None = None
        self.finished = self.dropped = False
        self.stop = threading.Event()
        self.first_version: int | None = None

    def run(self) -> None:
        try:
            with connect(self.url, open_timeout=10, close_timeout=2) as ws:
                while not self.stop.is_set():
                    try:
                        msg = json.loads(ws.recv(0.2))
                    except TimeoutError:
                        continue
                    if msg["type"] == "error":
                        assert msg["code"] == "stale_version", msg
                        self.in_flight = None
                        continue
                    self.log.append((time.time(), msg))
                    if self.first_version is None:
                        self.first_version = msg["version"]
                    if self.in_flight is not None and msg["version"] > self.in_flight[0]:
                        self.acked.append(self.in_flight)
                        self.in_flight = None
                    if msg["status"] == "finished":
                        self.finished = True
                        return
                    if msg["legal"] and self.in_flight is None:
                        time.sleep(0.02)
                        self.in_flight = (msg["version"], self.rng.choice(msg["legal"]))
                        ws.send(
                            json.dumps({"type": "action", "action": self.in_flight[1], "version": self.in_flight[0]})
                        )
        except (ConnectionClosed, OSError):
            self.dropped = True


def stop(*procs: subprocess.Popen[bytes]) -> None:
    """SIGTERM each server still running, and kill it if it has not stopped 10 s later."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def new_table(base: str, seed: int, bot_delay: float = 0.1, humans: int = 1) -> str:
    seats = [{"type": "human"}] * humans + [{"type": "bot", "bot": "greedy"}] * (3 - humans)
    body = {
        "game": "rank",
        "players": 3,
        "preset": "quick",
        "seed": seed,
        "bot_delay": bot_delay,
        "seats": seats,
        "absent_timeout": 2,
    }
    return str(http(base + "/api/tables", "POST", body)["table"]["id"])


def test_kill_9_of_one_process_moves_its_tables_to_the_other(postgres_url: str, tmp_path: Path) -> None:  # noqa: F811
    pytest.importorskip("psycopg")
    a, base_a = start(postgres_url, tmp_path / "a.log")
    b, base_b = start(postgres_url, tmp_path / "b.log")
    try:
        # A sees B start (and asks its sockets, none yet, to rebalance) before anyone connects: these
        # players do not reconnect. (If A's first look already found B, A asks nothing of anyone.)
        end = time.time() + 10
        while "a server process started" not in (tmp_path / "a.log").read_text() and time.time() < end:
            time.sleep(0.1)
        # Tables made on A (A plays their bots) and on B; people connected to A, to B, and across.
        plan = [(base_a, base_a), (base_a, base_a), (base_a, base_b), (base_b, base_b), (base_b, base_a)]
        tables = []
        for i, (maker, player_at) in enumerate(plan):
            tid = new_table(maker, seed=100 + i)
            token = http(maker + f"/api/tables/{tid}/join", "POST", {"seat": 0})["token"]
            log: list[Any] = []
            p = Player(player_at, tid, token, 0, random.Random(i), log)
            tables.append({"id": tid, "token": token, "maker": maker, "at": player_at, "log": log, "players": [p]})
            p.start()
        lone = new_table(base_a, seed=99, bot_delay=0.2, humans=0)  # nobody watches it
        end = time.time() + 60  # play starts on every table (a loaded machine takes longer)
        while not all(len(t["log"]) > 3 for t in tables):
            assert time.time() < end, "play did not start"
            time.sleep(0.05)
        # A table made on A whose human is connected to B moved to B (A handed its lease over), and no
        # stand-in ever played for that human meanwhile.
        across = tables[2]
        end = time.time() + 10
        while f"table {across['id']}: its people are connected elsewhere" not in (tmp_path / "a.log").read_text():
            assert time.time() < end, "the table did not move to the process its human is connected to"
            time.sleep(0.1)
        assert not any(m["seats"][0]["stand_in"] for _, m in across["log"])
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        killed = time.time()
        at_kill = {t["id"]: t["log"][-1][1]["version"] for t in tables}
        # The people on A reconnect to B (as behind a proxy) with their tokens.
        for i, t in enumerate(tables):
            first = t["players"][0]
            if t["at"] == base_a:
                first.join(10)
                assert first.dropped and not first.finished
                p = Player(base_b, t["id"], t["token"], 0, random.Random(50 + i), t["log"])
                t["players"].append(p)
                p.start()
        # Every table moves on within a few seconds, bots included (A's leases expire and B takes them).
        end = killed + LEASE_TTL + 8
        moved: dict[str, float] = {}
        while len(moved) < len(tables) and time.time() < end:
            for t in tables:
                later = [at for at, m in list(t["log"]) if m["version"] > at_kill[t["id"]] and at > killed]
                if later and t["id"] not in moved:
                    moved[t["id"]] = later[0] - killed
            time.sleep(0.05)
        assert set(moved) == {t["id"] for t in tables}, f"tables that did not move on: {moved}"
        # The table nobody watched is taken over too.
        end = time.time() + 60
        version = http(base_b + f"/api/tables/{lone}")["table"]["version"]
        while http(base_b + f"/api/tables/{lone}")["table"]["version"] == version:
            assert time.time() < end, "the unwatched bot table stopped"
            time.sleep(0.2)
        # Play every game to the end on B.
        for t in tables:
            t["players"][-1].join(120)
            assert t["players"][-1].finished, t["id"]
        for t in tables:
            record = http(base_b + f"/api/tables/{t['id']}/record")
            rec = GameRecord.from_json(record)
            states = rec.states()
            assert states[-1].is_over() and states[-1].result().to_json() == record["result"]  # type: ignore[union-attr]
            for p in t["players"]:  # (an action in flight at the kill may or may not be stored: never acknowledged)
                for version, text in p.acked:
                    assert record["actions"][version] == [0, text], (t["id"], version)
            for _, msg in t["log"]:
                st = states[msg["version"]]
                assert msg["view"] == json.loads(json.dumps(st.view(0))), (t["id"], msg["version"])
                assert msg["legal"] == ([a.text for a in st.legal_actions(0)] if 0 in msg["to_move"] else [])
        print(f"recovery after kill -9: {sorted(round(v, 2) for v in moved.values())} s")
        assert "Traceback" not in (tmp_path / "b.log").read_text()
    finally:
        stop(a, b)


def test_a_table_moves_to_the_process_its_people_are_connected_to(postgres_url: str, tmp_path: Path) -> None:  # noqa: F811
    """Made on A, played from B (as behind a proxy that sends a table's sockets to one process): A hands the
    lease over and forgets the table, B plays its bots; a table with a socket on each process stays put."""
    pytest.importorskip("psycopg")
    a, base_a = start(postgres_url, tmp_path / "a.log")
    b, base_b = start(postgres_url, tmp_path / "b.log")
    try:
        moving = new_table(base_a, seed=5, humans=1)
        split = new_table(base_a, seed=6, humans=2)
        logs: list[list[Any]] = [[], [], []]
        players = [
            Player(
                base_b,
                moving,
                http(base_a + f"/api/tables/{moving}/join", "POST", {"seat": 0})["token"],
                0,
                random.Random(1),
                logs[0],
            ),
            Player(
                base_b,
                split,
                http(base_a + f"/api/tables/{split}/join", "POST", {"seat": 0})["token"],
                0,
                random.Random(2),
                logs[1],
            ),
            Player(
                base_a,
                split,
                http(base_a + f"/api/tables/{split}/join", "POST", {"seat": 1})["token"],
                1,
                random.Random(3),
                logs[2],
            ),
        ]
        for p in players:
            p.start()
        end = time.time() + 20
        while f"table {moving}: this process plays its bots now" not in (tmp_path / "b.log").read_text():
            assert time.time() < end, "B did not take the table its human is connected to"
            time.sleep(0.1)
        assert (
            f"table {moving}: its people are connected elsewhere; lease handed over" in (tmp_path / "a.log").read_text()
        )
        handed = len(logs[0])
        end = time.time() + 20
        while len(logs[0]) < handed + 3:  # B plays the bots: the game goes on
            assert time.time() < end, "the table stopped after moving"
            time.sleep(0.05)
        assert not any(m["seats"][0]["stand_in"] for _, m in logs[0])
        metrics = urllib.request.urlopen(base_a + "/metrics", timeout=5).read().decode()
        assert "courtcards_handovers_total 1.0" in metrics and "courtcards_failovers_total 0.0" in metrics
        metrics = urllib.request.urlopen(base_b + "/metrics", timeout=5).read().decode()
        assert "courtcards_failovers_total 0.0" in metrics  # a table handed over is not a failover
        assert f"table {split}: its people are connected elsewhere" not in (tmp_path / "a.log").read_text()
        assert f"table {split}: this process plays its bots now" not in (tmp_path / "b.log").read_text()
        for p in players:
            p.stop.set()
        for p in players:
            p.join(5)
        assert "Traceback" not in (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
    finally:
        stop(a, b)


def node_locks(url: str) -> int:
    """How many server processes hold their liveness lock (see courtcards/server/cluster.py)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objsubid = 2 AND granted",
            (NODE_LOCK,),
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.mark.slow
def test_a_dead_process_tables_move_on_long_before_its_leases_expire(postgres_url: str, tmp_path: Path) -> None:  # noqa: F811
    """kill -9 closes the process's database session, which frees its lock at once: the survivor takes its
    leases then, not after the ttl (30 s here)."""
    pytest.importorskip("psycopg")
    ttl = 30.0
    a, base_a = start(postgres_url, tmp_path / "a.log", ttl)
    b, base_b = start(postgres_url, tmp_path / "b.log", ttl)
    try:
        tables = [new_table(base_a, seed=200 + i, bot_delay=0.2, humans=0) for i in range(4)]  # A plays them
        end = time.time() + 60
        while node_locks(postgres_url) < 2:  # both alive
            assert time.time() < end, "the processes did not take their locks"
            time.sleep(0.1)
        seen = time.time() + 4 * WATCH  # and each seen so by the other: each looks every WATCH seconds
        for tid in tables:  # playing on A; B has them loaded too, without the lease
            while http(base_b + f"/api/tables/{tid}")["table"]["version"] < 3:
                assert time.time() < end, "play did not start"
                time.sleep(0.1)
        while time.time() < seen:
            time.sleep(0.1)
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        killed = time.time()
        at_kill = {tid: http(base_b + f"/api/tables/{tid}")["table"]["version"] for tid in tables}
        moved: dict[str, float] = {}
        while len(moved) < len(tables) and time.time() < killed + ttl:
            for tid in tables:
                if tid not in moved and http(base_b + f"/api/tables/{tid}")["table"]["version"] > at_kill[tid] + 1:
                    moved[tid] = time.time() - killed
            time.sleep(0.05)
        print(f"bot tables moved on after kill -9 (ttl {ttl:g} s): {sorted(round(v, 2) for v in moved.values())} s")
        assert set(moved) == set(tables), f"tables that did not move on: {set(tables) - set(moved)}"
        # the bound of issue 30 is 3 s; 10 s leaves room for a loaded CI machine and stays far under the ttl
        assert max(moved.values()) < 10, moved
        log = (tmp_path / "b.log").read_text()
        assert "leases freed" in log and "Traceback" not in log
    finally:
        stop(a, b)


@pytest.mark.slow
def test_a_share_of_the_sockets_is_asked_to_reconnect_when_a_process_starts(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """All sockets on A (the other process died); B starts: A closes half of them with 4408 and the
    rebalancing reason, so that their reconnections spread over both."""
    pytest.importorskip("psycopg")
    from courtcards.server.cluster import REBALANCE_REASON

    a, base_a = start(postgres_url, tmp_path / "a.log")
    procs = [a]
    try:
        tid = new_table(base_a, seed=300, bot_delay=0.2, humans=0)
        closed: list[tuple[int, str]] = []
        opened = threading.Barrier(9)

        def watch() -> None:
            with connect(base_a.replace("http", "ws") + f"/ws/tables/{tid}", open_timeout=10) as ws:
                opened.wait(30)
                try:
                    while True:
                        ws.recv(60)
                except ConnectionClosed as exc:
                    closed.append((exc.rcvd.code if exc.rcvd else 0, exc.rcvd.reason if exc.rcvd else ""))
                except TimeoutError:
                    pass

        watchers = [threading.Thread(target=watch, daemon=True) for _ in range(8)]
        for w in watchers:
            w.start()
        opened.wait(30)
        end = time.time() + 60
        while node_locks(postgres_url) < 1:
            assert time.time() < end, "A did not take its lock"
            time.sleep(0.1)
        b, _ = start(postgres_url, tmp_path / "b.log")
        procs.append(b)
        while len(closed) < 4:
            assert time.time() < end, f"A did not rebalance: {closed}"
            time.sleep(0.1)
        time.sleep(2 * WATCH)  # (no more than the share: a later look must not ask again)
        assert closed == [(4408, REBALANCE_REASON)] * 4
    finally:
        stop(*procs)
