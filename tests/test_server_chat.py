"""Chat over a table's WebSocket: players and spectators apart, limits, the creator's mute."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from courtcards.server import create_app, database_url
from courtcards.server.chat import MAX_CHAT
from courtcards.server.guards import ServerConfig


def make(tmp_path: Path, **config: Any) -> TestClient:
    return TestClient(create_app(database_url(None, tmp_path / "c.sqlite"), config=ServerConfig(**config)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make(tmp_path) as c:
        yield c


def two_humans(c: TestClient) -> tuple[str, str, list[str]]:
    """A duel-sized table of humans: (table, owner key, seat tokens)."""
    body = {
        "game": "rank",
        "players": 3,
        "seed": 1,
        "bot_delay": 0,
        "seats": [{"type": "human"}] * 2 + [{"type": "bot"}],
    }
    r = c.post("/api/tables", json=body)
    tid, owner = r.json()["table"]["id"], r.json()["owner_key"]
    tokens = [
        c.post(f"/api/tables/{tid}/join", json={"seat": s, "name": n}).json()["token"]
        for s, n in ((0, "Ann"), (1, "Bo"))
    ]
    return tid, owner, tokens


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of this type (states come and go between)."""
    for _ in range(50):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} message")


def chat_then_ping(ws: Any) -> list[dict[str, Any]]:
    """Every chat or muted message that arrives before the answer to a ping (what this socket was sent)."""
    ws.send_json({"type": "ping"})
    out: list[dict[str, Any]] = []
    while True:
        msg = ws.receive_json()
        if msg["type"] == "pong":
            return out
        if msg["type"] in ("chat", "muted", "error"):
            out.append(msg)


def test_players_and_spectators_chat_apart(client: TestClient) -> None:
    tid, _, (ann, bo) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b,
        client.websocket_connect(f"/ws/tables/{tid}") as watcher,
        client.websocket_connect(f"/ws/tables/{tid}") as watcher2,
    ):
        a.send_json({"type": "chat", "text": "  <b>hello</b> & good luck  "})
        got = next_of(b, "chat")
        assert (got["channel"], got["seat"], got["name"], got["text"]) == (
            "players",
            0,
            "Ann",
            "<b>hello</b> & good luck",
        )
        assert next_of(a, "chat")["text"] == got["text"]  # the sender sees its own line
        watcher.send_json({"type": "chat", "text": "the king is in seat 2"})
        seen = next_of(watcher2, "chat")
        assert (seen["channel"], seen["seat"], seen["name"]) == ("spectators", None, "spectator")
        # neither channel reaches the other side
        assert [m["text"] for m in chat_then_ping(watcher) if m["type"] == "chat"] == ["the king is in seat 2"]
        assert chat_then_ping(b) == []
        assert chat_then_ping(a) == []
    # a new connection gets its own channel's last messages, and only those
    with client.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b:
        assert [m["text"] for m in chat_then_ping(b)] == ["<b>hello</b> & good luck"]
    with client.websocket_connect(f"/ws/tables/{tid}") as w:
        assert [m["text"] for m in chat_then_ping(w)] == ["the king is in seat 2"]


def test_chat_limits(tmp_path: Path) -> None:
    with make(tmp_path, rate_chat="3/minute") as c:
        tid, _, (ann, _) = two_humans(c)
        with c.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
            a.send_json({"type": "chat", "text": "x" * (MAX_CHAT + 1)})
            assert next_of(a, "error")["code"] == "chat_too_long"
            a.send_json({"type": "chat", "text": "bell\x07"})
            assert next_of(a, "error")["code"] == "bad_message"
            a.send_json({"type": "chat", "text": 5})
            assert next_of(a, "error")["code"] == "bad_message"
            for i in range(3):
                a.send_json({"type": "chat", "text": f"m{i}"})
                assert next_of(a, "chat")["text"] == f"m{i}"
            a.send_json({"type": "chat", "text": "one too many"})
            assert next_of(a, "error")["code"] == "chat_rate_limited"
        # the limit is the seat's: reconnecting does not reset it
        with c.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
            a.send_json({"type": "chat", "text": "again"})
            assert next_of(a, "error")["code"] == "chat_rate_limited"


def test_the_creator_mutes_a_seat(client: TestClient) -> None:
    tid, owner, (ann, bo) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b,
    ):
        b.send_json({"type": "mute", "seat": 0, "muted": True, "owner": "guessed"})
        assert next_of(b, "error")["code"] == "not_owner"
        a.send_json({"type": "mute", "seat": 1, "muted": True, "owner": owner})
        assert next_of(a, "muted")["seats"] == [1]
        assert next_of(b, "muted")["seats"] == [1]
        b.send_json({"type": "chat", "text": "can you hear me"})
        assert next_of(b, "error")["code"] == "muted"
        assert chat_then_ping(a) == []
        a.send_json({"type": "mute", "seat": 1, "muted": False, "owner": owner})
        assert next_of(b, "muted")["seats"] == []
        b.send_json({"type": "chat", "text": "thanks"})
        assert next_of(a, "chat")["text"] == "thanks"


# -- undo against bots (in this file: it is a message of the same socket) -------------------------------
def my_turn(ws: Any) -> dict[str, Any]:
    """The latest state once this seat must decide (the bots, without delay, play until then)."""
    last: dict[str, Any] | None = None
    while True:
        ws.send_json({"type": "ping"})
        while (msg := ws.receive_json())["type"] != "pong":
            if msg["type"] == "state":
                last = msg
        if last is not None and (last["legal"] or last["status"] == "finished"):
            return last


def test_undo_against_bots_in_a_casual_game_only(tmp_path: Path) -> None:
    import sqlite3

    with make(tmp_path) as c:
        # a climbing game: one seat decides at a time, so the person's move never races a bot's
        seats = [{"type": "human"}, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]
        body = {"game": "rank", "players": 3, "preset": "quick", "seed": 2, "bot_delay": 0, "seats": seats}
        tid = c.post("/api/tables", json=body).json()["table"]["id"]
        token = c.post(f"/api/tables/{tid}/join", json={}).json()["token"]
        with c.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            first = my_turn(ws)
            ws.send_json({"type": "undo"})
            assert next_of(ws, "error")["code"] == "undo_refused"  # the person has not moved yet
            ws.send_json({"type": "action", "action": first["legal"][-1], "version": first["version"]})
            later = my_turn(ws)
            assert later["version"] > first["version"] + 1  # the person's move, then the bots'
            ws.send_json({"type": "undo"})
            back = my_turn(ws)
            assert back["version"] == first["version"]
            assert back["legal"] == first["legal"] and back["view"] == first["view"]
        with sqlite3.connect(tmp_path / "c.sqlite") as con:
            stored = con.execute("SELECT count(*) FROM cc_actions WHERE table_id = ?", (tid,)).fetchone()[0]
        assert stored == first["version"]  # the log lost the undone actions: a restart resumes here
        # two people at the table: no undo
        tid2, _, (ann, _) = two_humans(c)
        with c.websocket_connect(f"/ws/tables/{tid2}?token={ann}") as ws:
            ws.send_json({"type": "undo"})
            assert "one person" in next_of(ws, "error")["message"]
