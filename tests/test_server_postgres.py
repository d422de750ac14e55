"""The server on PostgreSQL, started by the test itself (initdb + pg_ctl in a temp dir)."""

from __future__ import annotations

import glob
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_server_api import create, join, play_out, table_of

from courtcards.core.record import GameRecord
from courtcards.server import create_app, database_url


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'courtcards[postgres]')")
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl; CI installs it with .ci/setup-postgres.sh)")
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        runuser = shutil.which("runuser")
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            runuser = None
        if runuser is None:
            pytest.skip("running as root without a postgres user (or runuser) to start PostgreSQL as")
        prefix = [runuser, "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="cc-pg-"))
    root.chmod(0o755)
    data = root / "data"
    if prefix:
        shutil.chown(root, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=60, cwd=root)

    r = run(initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
    if r.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"initdb failed: {r.stderr.strip()[-300:]}")
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    r = run(pg_ctl, "-D", str(data), "-o", opts, "-l", str(root / "log"), "-w", "-t", "30", "start")
    if r.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"PostgreSQL did not start: {r.stderr.strip()[-300:]}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(pg_ctl, "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


def test_tables_persist_and_resume_on_postgres(postgres_url: str) -> None:
    url = database_url(postgres_url, None)
    assert url.startswith("postgresql+psycopg://")
    with TestClient(create_app(url)) as c:
        tid = create(c, "rank", 3, preset="quick", seed=2**62)["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        play_out(c, tid, tokens, random.Random(1), limit=12)
        history = list(table_of(c, tid).state.history)
    with TestClient(create_app(url)) as c:  # a restart: migrations are idempotent, the log replays
        table = table_of(c, tid)
        assert table.state.history == history and table.state.seed == 2**62
        play_out(c, tid, tokens, random.Random(2), limit=10_000)
        record = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
        assert record.actions[:12] == history and record.replay().is_over()


def test_a_lease_taken_during_a_renewal_is_not_lost(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from courtcards.server.cluster import Cluster
    from courtcards.server.guards import ServerConfig
    from courtcards.server.tables import LobbyConfig

    renew = Cluster._renew

    def slow_renew(self: Cluster, waiting: list[str]) -> tuple[set[str], list[str], set[str]]:
        held = renew(self, waiting)
        time.sleep(0.4)  # a loaded machine: tables are created between the query and its result
        return held

    monkeypatch.setattr(Cluster, "_renew", slow_renew)
    config = ServerConfig(rate_create="none", lobby=LobbyConfig(lease_ttl=0.6))
    with TestClient(create_app(database_url(postgres_url, None), config=config)) as c:
        bots = [{"type": "bot", "bot": "random"}] * 3
        tids = [create(c, "rank", 3, seats=bots, preset="quick")["id"] for _ in range(6)]
        end = time.time() + 60  # every table's bots have moved (waited for, not slept on)
        while not all(table_of(c, tid).state.version > 0 for tid in tids):
            assert time.time() < end, "a table's bots did not move"
            time.sleep(0.05)
        for tid in tids:
            table = table_of(c, tid)
            assert table.owned or table.state.is_over(), "this process holds the lease and must play the bots"
            assert table.state.version > 0


def test_leases_asked_for_together_are_taken_in_one_transaction(postgres_url: str) -> None:
    """A reconnection burst takes its tables' leases a batch at a time (``Cluster._take_lease``): a free or
    expired lease is taken, with what was stored of its table since the version the process loaded, in
    one transaction; a lease another process holds is left to it."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import sqlalchemy as sa

    from courtcards.server.cluster import Cluster
    from courtcards.server.db import Store, leases_t

    url = database_url(postgres_url, None)
    with TestClient(create_app(url)) as one:  # three tables with some moves; its leases go when it stops
        bots = [{"type": "bot", "bot": "random"}] * 3
        tids = [create(one, "rank", 3, seats=bots, preset="quick")["id"] for _ in range(3)]
        end = time.time() + 60
        while not all(table_of(one, t).state.version >= 2 for t in tids):
            assert time.time() < end, "the bots did not move"
            time.sleep(0.05)
    store = Store(url)
    cluster = Cluster(store, None, 5.0)  # type: ignore[arg-type]  # (no lobby: only its leases are used)
    rows = [
        {"table_id": tids[1], "owner": "gone", "expires": 0.0},  # expired
        {"table_id": tids[2], "owner": "other", "expires": time.time() + 60},  # held
    ]
    with store.engine.begin() as conn:
        conn.execute(leases_t.delete().where(leases_t.c.table_id.in_(tids)))
        conn.execute(leases_t.insert(), rows)
    wanted = {tids[0]: 0, tids[1]: 1, tids[2]: 0}

    async def ask() -> list[Any]:
        return list(await asyncio.gather(*(cluster._take_lease(t, v) for t, v in wanted.items())))

    with ThreadPoolExecutor(1) as pool:  # its own thread: a loop another test left running here is not in the way
        got = dict(zip(wanted, pool.submit(asyncio.run, ask()).result(), strict=True))
    assert got[tids[2]] is None
    for tid in tids[:2]:
        assert got[tid] == store.changes(tid, wanted[tid])
        actions, seats = got[tid]
        assert len(actions) >= 2 - wanted[tid] and [s["seat"] for s in seats] == [0, 1, 2]
    with store.engine.connect() as conn:
        q = sa.select(leases_t.c.table_id, leases_t.c.owner).where(leases_t.c.table_id.in_(tids))
        owners = dict(conn.execute(q).all())
    assert owners == {tids[0]: store.node, tids[1]: store.node, tids[2]: "other"}
    cluster._pool.shutdown()
    store.engine.dispose()


@pytest.mark.slow
def test_a_long_game_loads_plays_and_replays_on_postgres(postgres_url: str) -> None:
    from test_server_long_games import build_long_game, check_long_games

    check_long_games(database_url(postgres_url, None), build_long_game(), replay=True)


def test_text_with_nul_is_refused_before_postgres(postgres_url: str) -> None:
    with TestClient(create_app(database_url(postgres_url, None))) as c:
        tid = create(c, "royale", 2)["id"]
        r = c.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "a\x00b"})
        assert r.status_code == 422 and "must not contain" in r.json()["error"]["message"], r.text
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        _, _, table = c.portal.call(lobby.join, tid, 1, "c\x00d")  # type: ignore[union-attr]
        assert table.seats[1].name == "cd"
        assert [s["name"] for s in c.get(f"/api/tables/{tid}").json()["table"]["seats"]] == [None, "cd"]
