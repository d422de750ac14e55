"""Rate limits for the whole site and the rematch link in the database (issue 15): with several processes
on one PostgreSQL an address gets the site's rate, not N times it; a rematch is rate-limited and its link
survives a restart and is the same from every process."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from test_server_api import create, err, join, play_out
from test_server_limits import connect_twice_then_refused
from test_server_postgres import postgres_url  # noqa: F401  (the fixture)

from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig


def app(url: str, **config: Any) -> TestClient:
    return TestClient(create_app(url, config=ServerConfig(**config)))


def fresh_database(url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return database_url(url.rsplit("/", 1)[0] + "/" + name, None)


def finished_table(c: TestClient) -> tuple[str, list[str]]:
    tid = create(c, "royale", 2)["id"]
    tokens = [join(c, tid, 0, name="Ann"), join(c, tid, 1, name="Bob")]
    play_out(c, tid, tokens, random.Random(1), limit=5000)
    assert c.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished"
    return tid, tokens


def test_rematch_is_rate_limited(tmp_path: Path) -> None:
    with app(database_url(None, tmp_path / "r.sqlite"), rate_rematch="1/minute") as c:
        tid, tokens = finished_table(c)
        assert c.post(f"/api/tables/{tid}/rematch", json={"token": tokens[1]}).status_code == 200
        msg = err(c.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]}), 429, "rate_limited")
        assert "rematches" in msg and "1 per 1 minute" in msg


def test_the_rematch_link_survives_a_restart(tmp_path: Path) -> None:
    url = database_url(None, tmp_path / "r.sqlite")
    with app(url) as c:
        tid, tokens = finished_table(c)
        bob = c.post(f"/api/tables/{tid}/rematch", json={"token": tokens[1]}).json()
    with app(url) as c:  # a restart
        ann = c.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]}).json()
    assert ann["table"]["id"] == bob["table"]["id"] and (ann["seat"], bob["seat"]) == (0, 1)
    assert ann["table"]["status"] == "playing"


def test_limits_and_rematch_hold_across_processes(postgres_url: str) -> None:  # noqa: F811
    url = fresh_database(postgres_url, "cc_shared_limits")
    config = {"rate_create": "3/minute", "rate_join": "none", "rate_connect": "2/minute"}
    with app(url, **config) as a, app(url, **config) as b:
        create(a)
        create(b)
        tid = create(a)["id"]
        for c in (b, a):  # three in all: the fourth is refused by either process
            msg = err(c.post("/api/tables", json={"game": "rank"}), 429, "rate_limited")
            wait = int(re.search(r"try again in (\d+) s", msg).group(1))  # type: ignore[union-attr]
            assert 1 <= wait <= 60
        connect_twice_then_refused([a, b], tid)
    with app(url, rate_create="none", rate_connect="none") as a, app(url, rate_create="none", rate_connect="none") as b:
        tid, tokens = finished_table(a)
        bob = a.post(f"/api/tables/{tid}/rematch", json={"token": tokens[1]}).json()
        ann = b.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]}).json()  # the other process
        assert ann["table"]["id"] == bob["table"]["id"] != tid and (ann["seat"], bob["seat"]) == (0, 1)
