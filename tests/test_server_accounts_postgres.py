"""Accounts on PostgreSQL: the upgrade from the schema before accounts (0003) with its rows kept,
sign-up and sign-in (rate limits counted in the shared database), claiming a seat, my games."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import sqlalchemy as sa
from fastapi.testclient import TestClient
from test_server_postgres import postgres_url  # noqa: F401  (fixture)

from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig

PASSWORD = "correct horse battery"


def browser(c: TestClient) -> TestClient:
    """Another browser (cookies of its own) on the same running server: it shares the server's event loop
    (a TestClient of its own would run each request in a loop of its own, where no table's task lives)."""
    other = TestClient(c.app)
    other.portal = c.portal
    return other


def test_accounts_on_postgres_after_an_upgrade_from_0003(postgres_url: str) -> None:  # noqa: F811
    from alembic import command
    from alembic.config import Config

    from courtcards.server import db as dbmod
    from courtcards.server.db import make_engine

    url = database_url(postgres_url, None)
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(dbmod.__file__).parent / "migrations"))
    digest = hashlib.sha256(b"old-token").hexdigest()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        settings = json.dumps({"bot_delay": 0, "absent_timeout": 60, "move_time_limit": None, "hints": True})
        conn.execute(
            sa.text(
                "INSERT INTO cc_tables (id, game, players, options, seed, settings, created, finished, result,"
                " status, private, version, updated) VALUES ('pgabc2', 'rank', 3, '{}', 9, CAST(:s AS JSON), 1.0,"
                " false, NULL, 'playing', true, 0, 1.0)"
            ),
            {"s": settings},
        )
        for seat, kind, tok in ((0, "human", digest), (1, "bot", None), (2, "bot", None)):
            conn.execute(
                sa.text("INSERT INTO cc_seats VALUES ('pgabc2', :s, :k, :b, 'Old', :t)"),
                {"s": seat, "k": kind, "b": None if kind == "human" else "random", "t": tok},
            )
    engine.dispose()
    with TestClient(create_app(url, config=ServerConfig(rate_login="2/minute"))) as c:
        with c.websocket_connect("/ws/tables/pgabc2?token=old-token") as ws:
            msg = ws.receive_json()
            assert msg.get("seat") == 0, msg
        r = c.post("/api/accounts", json={"username": "pgann", "password": PASSWORD})
        assert r.status_code == 201, r.text
        csrf = r.json()["csrf"]
        r = c.post("/api/account/claim", json={"table": "pgabc2", "token": "old-token"}, headers={"x-csrf-token": csrf})
        assert r.status_code == 200, r.text
        assert [g["table"]["id"] for g in c.get("/api/account/games").json()["games"]] == ["pgabc2"]
        other = browser(c)
        for status in (401, 200, 429):  # the shared (database) rate limit counts sign-ins
            password = PASSWORD if status != 401 else "wrong password"
            assert other.post("/api/session", json={"username": "pgann", "password": password}).status_code == status
