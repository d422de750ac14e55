"""Chat over a table's WebSocket: players and spectators apart, limits, the creator's mute."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
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


def test_a_new_connection_is_told_the_mutes_and_the_history_from_memory(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reconnection burst (a failover) costs the database one read a table's channel, not one a socket:
    once read, the history and the mutes are kept current in memory, until the process may have missed
    another process's announcement (``Store.missed``); then one read again."""
    from courtcards.server import db

    tid, owner, (ann, _bo) = two_humans(client)
    reads: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def read(*args: Any) -> Any:
            reads.append(name)
            return real(*args)

        return read

    monkeypatch.setattr(db, "chat_greeting", counted("greeting", db.chat_greeting))
    monkeypatch.setattr(db, "chat_mutes", counted("mutes", db.chat_mutes))
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
        assert chat_then_ping(a) == []
        assert reads == ["greeting"]
        a.send_json({"type": "chat", "text": "hello"})
        assert next_of(a, "chat")["text"] == "hello"
        a.send_json({"type": "mute", "seat": 1, "muted": True, "owner": owner})
        assert next_of(a, "muted")["seats"] == [1]
        reads.clear()
        with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as again:
            told = chat_then_ping(again)
        assert [m.get("seats", m.get("text")) for m in told] == [[1], "hello"]
        assert reads == []  # the message and the mute this process made are in memory
        # as when this process's listener of the others' announcements connects again
        client.app.state.lobby.store.missed += 1  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as again:
            told = chat_then_ping(again)
        assert [m.get("seats", m.get("text")) for m in told] == [[1], "hello"]
        assert reads == ["greeting"]


# -- chat kept in the database ---------------------------------------------------------------------------
def test_chat_survives_a_restart_each_channel_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from courtcards.server import chat

    monkeypatch.setattr(chat, "HISTORY", 3)
    with make(tmp_path, rate_chat="100/minute") as c:
        tid, _, (ann, bo) = two_humans(c)
        with (
            c.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
            c.websocket_connect(f"/ws/tables/{tid}") as w,
        ):
            for i in range(5):
                a.send_json({"type": "chat", "text": f"<i>p{i}</i> & co"})
                assert next_of(a, "chat")["text"] == f"<i>p{i}</i> & co"
            w.send_json({"type": "chat", "text": "from the rail"})
            assert next_of(w, "chat")["text"] == "from the rail"
    with sqlite3.connect(tmp_path / "c.sqlite") as con:
        rows = con.execute("SELECT channel, seat, name, text FROM cc_chat WHERE table_id = ? ORDER BY id", (tid,))
        stored = rows.fetchall()
    assert stored[0] == ("players", 0, "Ann", "<i>p0</i> & co") and stored[-1] == (
        "spectators",
        None,
        "spectator",
        "from the rail",
    )
    assert len(stored) == 6
    with make(tmp_path) as c:  # a new server process on the same database: memory is empty
        with c.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b:
            got = chat_then_ping(b)
            assert [m["text"] for m in got] == [f"<i>p{i}</i> & co" for i in (2, 3, 4)]  # the last HISTORY, in order
            assert [(m["channel"], m["seat"], m["name"]) for m in got] == [("players", 0, "Ann")] * 3
            assert got[0]["id"] < got[1]["id"] < got[2]["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as w:
            assert [m["text"] for m in chat_then_ping(w)] == ["from the rail"]
        # limits and mutes still apply after the restart, and a new message joins the stored ones
        with c.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b:
            chat_then_ping(b)
            b.send_json({"type": "chat", "text": "x" * (MAX_CHAT + 1)})
            assert next_of(b, "error")["code"] == "chat_too_long"
            b.send_json({"type": "chat", "text": "back again"})
            assert next_of(b, "chat")["text"] == "back again"
        with c.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
            assert [m["text"] for m in chat_then_ping(a)][-2:] == ["<i>p4</i> & co", "back again"]


def test_a_message_sent_while_a_socket_reads_the_history_reaches_it_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The history is read in a thread: a message sent meanwhile must follow it, not be lost or doubled."""
    import threading

    from courtcards.server import db

    tid, _, (ann, bo) = two_humans(client)
    reading, go = threading.Event(), threading.Event()
    real = db.chat_greeting

    def slow(*args: Any) -> tuple[list[int], list[dict[str, Any]]]:
        reading.set()
        assert go.wait(10)
        return real(*args)

    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
        a.send_json({"type": "chat", "text": "before"})
        assert next_of(a, "chat")["text"] == "before"
        monkeypatch.setattr(db, "chat_greeting", slow)
        client.app.state.lobby.store.missed += 1  # type: ignore[attr-defined]  # (else from memory: no read)
        opened: list[Any] = []
        opener = threading.Thread(
            target=lambda: opened.append(client.websocket_connect(f"/ws/tables/{tid}?token={bo}").__enter__())
        )
        opener.start()
        assert reading.wait(10)
        a.send_json({"type": "chat", "text": "during"})
        assert next_of(a, "chat")["text"] == "during"
        monkeypatch.setattr(db, "chat_greeting", real)
        go.set()
        opener.join(10)
        b = opened[0]
        try:
            assert [m["text"] for m in chat_then_ping(b)] == ["before", "during"]
        finally:
            b.__exit__(None, None, None)
        # what that read kept holds the message sent while it ran, once
        monkeypatch.setattr(db, "chat_greeting", slow)
        reading.clear()
        with client.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b:
            assert [m["text"] for m in chat_then_ping(b)] == ["before", "during"]
        assert not reading.is_set()


def test_a_move_is_heard_while_the_chat_is_read(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket's moves are applied at once, not after its chat greeting is read (in a reconnection burst
    that read queues behind the tables' loads); its other messages wait for the greeting, so a ping's answer
    still comes after the history."""
    import threading

    from courtcards.server import db

    tid, _, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a:
        state = next_of(a, "state")
        a.send_json({"type": "chat", "text": "hello"})
        assert next_of(a, "chat")["text"] == "hello"
    mover = tokens[min(state["to_move"])]
    reading, go = threading.Event(), threading.Event()
    released: list[bool] = []  # False: the read gave up waiting (the move waited for it)
    real = db.chat_greeting

    def slow(*args: Any) -> tuple[list[int], list[dict[str, Any]]]:
        reading.set()
        released.append(go.wait(10))
        return real(*args)

    monkeypatch.setattr(db, "chat_greeting", slow)
    client.app.state.lobby.store.missed += 1  # type: ignore[attr-defined]  # (else from memory: no read)
    with client.websocket_connect(f"/ws/tables/{tid}?token={mover}") as m:
        first = next_of(m, "state")
        assert reading.wait(10)
        m.send_json({"type": "action", "action": first["legal"][0], "version": first["version"]})
        assert next_of(m, "state")["version"] == first["version"] + 1  # while the read still waits
        assert not go.is_set()
        m.send_json({"type": "ping"})
        go.set()
        got = []
        while (msg := m.receive_json())["type"] != "pong":
            got.append(msg["type"])
        assert "chat" in got  # the history came before the ping's answer
    assert released == [True]


def test_upgrade_from_0004_keeps_tables_and_adds_chat(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from courtcards.server import db as dbmod
    from courtcards.server.db import make_engine, migrate

    path = tmp_path / "old.sqlite"
    engine = make_engine(database_url(None, path))
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(dbmod.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
        assert "cc_chat" not in sa.inspect(conn).get_table_names()
        settings = json.dumps({"bot_delay": 0, "absent_timeout": 60, "move_time_limit": None, "hints": True})
        conn.execute(
            sa.text(
                "INSERT INTO cc_tables (id, game, players, options, seed, settings, created, finished, result,"
                " status, private, version, updated, owner_hash) VALUES ('chatab', 'rank', 3, '{}', 9, :s, 1.0, 0,"
                " NULL, 'playing', 1, 0, 1.0, NULL)"
            ),
            {"s": settings},
        )
        digest = hashlib.sha256(b"old-token").hexdigest()
        for seat, kind, tok in ((0, "human", digest), (1, "bot", None), (2, "bot", None)):
            conn.execute(
                sa.text("INSERT INTO cc_seats VALUES ('chatab', :s, :k, :b, 'Old', :t, NULL)"),
                {"s": seat, "k": kind, "b": None if kind == "human" else "random", "t": tok},
            )
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT id, status FROM cc_tables")).all() == [("chatab", "playing")]
        assert conn.execute(sa.text("SELECT count(*) FROM cc_seats")).scalar() == 3
        assert conn.execute(sa.text("SELECT count(*) FROM cc_chat")).scalar() == 0
    engine.dispose()
    with (
        TestClient(create_app(database_url(None, path))) as c,
        c.websocket_connect("/ws/tables/chatab?token=old-token") as ws,
    ):
        ws.send_json({"type": "chat", "text": "first words"})
        assert next_of(ws, "chat")["text"] == "first words"
    # and back down: the chat table goes, the tables stay
    engine = make_engine(database_url(None, path))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
        assert "cc_chat" not in sa.inspect(conn).get_table_names()
        assert conn.execute(sa.text("SELECT count(*) FROM cc_tables")).scalar() == 1
    engine.dispose()


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


# -- mutes kept in the database ---------------------------------------------------------------------------
def test_a_mute_survives_a_restart(tmp_path: Path) -> None:
    with make(tmp_path) as c:
        tid, owner, (ann, bo) = two_humans(c)
        with c.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
            a.send_json({"type": "mute", "seat": 1, "muted": True, "owner": owner})
            assert next_of(a, "muted")["seats"] == [1]
    with sqlite3.connect(tmp_path / "c.sqlite") as con:
        assert con.execute("SELECT table_id, seat FROM cc_chat_mutes").fetchall() == [(tid, 1)]
    with make(tmp_path) as c, c.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b:  # memory knows no mute
        assert chat_then_ping(b) == [{"type": "muted", "seats": [1]}]  # told on connecting
        b.send_json({"type": "chat", "text": "still here?"})
        assert next_of(b, "error")["code"] == "muted"
        with c.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a:
            assert chat_then_ping(a) == [{"type": "muted", "seats": [1]}]
            a.send_json({"type": "mute", "seat": 1, "muted": False, "owner": owner})
            assert next_of(b, "muted")["seats"] == []
            b.send_json({"type": "chat", "text": "thanks"})
            assert next_of(a, "chat")["text"] == "thanks"
    with sqlite3.connect(tmp_path / "c.sqlite") as con:
        assert con.execute("SELECT count(*) FROM cc_chat_mutes").fetchone() == (0,)


def test_a_seat_muted_twice_is_stored_once_and_the_others_still_chat(client: TestClient) -> None:
    tid, owner, (ann, bo) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b,
    ):
        for _ in range(2):
            a.send_json({"type": "mute", "seat": 0, "muted": True, "owner": owner})
            assert next_of(b, "muted")["seats"] == [0]
        a.send_json({"type": "chat", "text": "me too?"})
        assert next_of(a, "error")["code"] == "muted"  # the creator's own seat, if muted, is muted
        b.send_json({"type": "chat", "text": "not me"})
        assert next_of(a, "chat")["text"] == "not me"
        a.send_json({"type": "mute", "seat": 9, "muted": True, "owner": owner})
        assert next_of(a, "error")["code"] == "bad_message"


def test_upgrade_from_0005_keeps_chat_and_adds_mutes(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from courtcards.server import db as dbmod
    from courtcards.server.db import make_engine, migrate

    path = tmp_path / "old.sqlite"
    engine = make_engine(database_url(None, path))
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(dbmod.__file__).parent / "migrations"))
    settings = json.dumps({"bot_delay": 0, "absent_timeout": 60, "move_time_limit": None, "hints": True})
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
        assert "cc_chat_mutes" not in sa.inspect(conn).get_table_names()
        conn.execute(
            sa.text(
                "INSERT INTO cc_tables (id, game, players, options, seed, settings, created, finished, result,"
                " status, private, version, updated, owner_hash) VALUES ('mutab', 'rank', 3, '{}', 9, :s, 1.0, 0,"
                " NULL, 'playing', 1, 0, 1.0, :o)"
            ),
            {"s": settings, "o": hashlib.sha256(b"old-owner").hexdigest()},
        )
        for seat, kind, tok in ((0, "human", b"t0"), (1, "human", b"t1"), (2, "bot", None)):
            conn.execute(
                sa.text("INSERT INTO cc_seats VALUES ('mutab', :s, :k, :b, 'Old', :t, NULL)"),
                {
                    "s": seat,
                    "k": kind,
                    "b": None if kind == "human" else "random",
                    "t": None if tok is None else hashlib.sha256(tok).hexdigest(),
                },
            )
        conn.execute(
            sa.text(
                "INSERT INTO cc_chat (table_id, channel, seat, name, text, at) VALUES ('mutab', 'players', 1,"
                " 'Old', 'kept words', 2.0)"
            )
        )
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT text FROM cc_chat")).all() == [("kept words",)]
        assert conn.execute(sa.text("SELECT count(*) FROM cc_chat_mutes")).scalar() == 0
        assert conn.execute(sa.text("SELECT count(*) FROM cc_quickplay")).scalar() == 0  # 0007 on top
    engine.dispose()
    with (
        TestClient(create_app(database_url(None, path))) as c,
        c.websocket_connect("/ws/tables/mutab?token=t1") as ws,
    ):
        assert [m["text"] for m in chat_then_ping(ws)] == ["kept words"]
        ws.send_json({"type": "mute", "seat": 1, "muted": True, "owner": "old-owner"})
        assert next_of(ws, "muted")["seats"] == [1]
        ws.send_json({"type": "chat", "text": "muted now"})
        assert next_of(ws, "error")["code"] == "muted"
    engine = make_engine(database_url(None, path))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
        assert not {"cc_chat_mutes", "cc_quickplay"} & set(sa.inspect(conn).get_table_names())
        assert conn.execute(sa.text("SELECT count(*) FROM cc_chat")).scalar() == 1
    engine.dispose()


class _Conn:
    """A connection as greet sees one: a seat, and what it was pushed."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.got: list[dict[str, Any]] = []

    def push(self, text: str, state: bool = False) -> None:
        self.got.append(json.loads(text))


def test_connections_waiting_together_share_one_read_of_the_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reconnection burst reads a table's chat once per channel while the sockets wait together, not once
    a socket: those that came during a read share the next one (started after they all came, so a message
    sent meanwhile is in it or follows it), and each is told the mutes and the history."""
    import asyncio
    import threading
    from types import SimpleNamespace

    from courtcards.server import chat, db

    reads: list[str] = []
    first, go = threading.Event(), threading.Event()
    row = {"id": 7, "channel": "players", "seat": 0, "name": "Ann", "text": "hello", "at": 1.0}

    def greeting(_engine: Any, tid: str, channel: str, limit: int) -> tuple[list[int], list[dict[str, Any]]]:
        reads.append(channel)
        if len(reads) == 1:
            first.set()
            assert go.wait(10)
        return [1], [row]

    monkeypatch.setattr(db, "chat_greeting", greeting)
    table = SimpleNamespace(id="t1", chat=chat.ChatRoom(), store=SimpleNamespace(engine=None, missed=0), conns=[])
    conns = [_Conn(0), _Conn(1), _Conn(0), _Conn(None)]
    table.conns.extend(conns)

    async def burst() -> None:
        opening = asyncio.create_task(chat.greet(table, conns[0]))  # type: ignore[arg-type]
        assert await asyncio.to_thread(first.wait, 10)
        rest = [asyncio.create_task(chat.greet(table, c)) for c in conns[1:]]  # type: ignore[arg-type]
        await asyncio.sleep(0.05)  # all three wait behind the first read
        go.set()
        await asyncio.gather(opening, *rest)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # its own thread: a loop another test left running here is not in the way
        pool.submit(asyncio.run, burst()).result()
    assert sorted(reads) == ["players", "players", "spectators"]  # four sockets: three reads, not four
    for conn in conns:
        assert {"type": "muted", "seats": [1]} in conn.got
        assert [m["text"] for m in conn.got if m["type"] == "chat"] == ["hello"]
    assert not table.chat.greeting and not table.chat.greeted and not any(table.chat.to_greet.values())
