"""For the operator (issue 30, item 7): /healthz, /readyz, Prometheus metrics, request ids in
structured logs, and `courtcards db backup` / `restore`."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from test_server_api import create, join, play_out
from typer.testing import CliRunner

from courtcards.cli.main import app as cli
from courtcards.server import create_app, database_url
from courtcards.server.logs import REQUEST_ID, JsonFormatter, RequestId

runner = CliRunner()


def metric_values(text: str) -> dict[str, float]:
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}


def test_health_readiness_and_metrics(tmp_path: Path) -> None:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        ready = c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        tid = create(c, "rank", 3, preset="quick")["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        play_out(c, tid, tokens, random.Random(1), limit=5)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            values = metric_values(c.get("/metrics").text)
        assert values["courtcards_actions_total"] == 5
        assert values["courtcards_action_seconds_count"] == 5 and values["courtcards_action_seconds_sum"] > 0
        assert values["courtcards_tables"] == 1 and values["courtcards_spectators"] == 1
        assert values["courtcards_db_commits_total"] >= 5 and values["courtcards_failovers_total"] == 0
        store = c.app.state.lobby.store  # type: ignore[attr-defined]
        writer, store._thread = store._thread, None  # as if the writer had died
        try:
            down = c.get("/readyz")
            assert down.status_code == 503 and down.json()["problems"] == ["database writer stopped"]
        finally:
            store._thread = writer
        assert c.get("/healthz").status_code == 200


def test_every_answer_has_a_request_id_and_log_lines_carry_it(tmp_path: Path) -> None:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        mine = c.get("/api/games", headers={"x-request-id": "lb-1234"})
        assert mine.headers["x-request-id"] == "lb-1234"
        made = c.get("/api/games", headers={"x-request-id": "no spaces please"}).headers["x-request-id"]
        assert made != "no spaces please" and len(made) == 16
    token = REQUEST_ID.set("abc123")
    try:
        record = logging.LogRecord("courtcards.server", logging.INFO, __file__, 1, "table %s created", ("x",), None)
        assert RequestId().filter(record)
        line = json.loads(JsonFormatter().format(record))
    finally:
        REQUEST_ID.reset(token)
    assert line["request_id"] == "abc123" and line["message"] == "table x created" and line["level"] == "INFO"


def test_backup_and_restore(tmp_path: Path) -> None:
    db, copy = tmp_path / "cc.sqlite", tmp_path / "backup.sqlite"
    url = database_url(None, db)
    with TestClient(create_app(url)) as c:
        tid = create(c, "rank", 3, preset="quick")["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        play_out(c, tid, tokens, random.Random(1), limit=7)
        r = runner.invoke(cli, ["db", "backup", str(copy), "--database", str(db)])  # while it runs
        assert r.exit_code == 0 and "1 tables and 7 actions" in r.output, r.output
        play_out(c, tid, tokens, random.Random(2), limit=3)  # after the backup: lost by the restore
        later = create(c, "royale", 2)["id"]
    r = runner.invoke(cli, ["db", "backup", str(copy), "--database", str(db)])
    assert r.exit_code == 2 and "exists" in r.output
    r = runner.invoke(cli, ["db", "restore", str(copy), "--database", str(db)])
    assert r.exit_code == 2 and "--force" in r.output
    r = runner.invoke(cli, ["db", "restore", str(copy), "--database", str(db), "--force"])
    assert r.exit_code == 0 and "restored 1 tables and 7 actions" in r.output, r.output
    with TestClient(create_app(url)) as c:
        assert c.get(f"/api/tables/{tid}").json()["table"]["version"] == 7
        assert c.get(f"/api/tables/{later}").status_code == 404
        play_out(c, tid, tokens, random.Random(3), limit=2)  # the tokens still act
    (tmp_path / "junk").write_text("not a database")
    r = runner.invoke(cli, ["db", "restore", str(tmp_path / "junk"), "--database", str(tmp_path / "x.sqlite")])
    assert r.exit_code == 2 and "not a courtcards database" in r.output
    r = runner.invoke(cli, ["db", "backup", str(tmp_path / "b2"), "--database-url", "postgresql://u@h/db"])
    assert r.exit_code == 2 and "pg_dump" in r.output
    with sqlite3.connect(copy) as con:
        assert con.execute("SELECT count(*) FROM cc_actions").fetchone() == (7,)
