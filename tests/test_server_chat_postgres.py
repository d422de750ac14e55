"""Chat on PostgreSQL with two server processes (two apps on one database): a message sent to one reaches
the other's sockets live and is in the history a socket of either reads when it joins."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from test_server_chat import chat_then_ping, next_of, two_humans
from test_server_postgres import postgres_url  # noqa: F401  (fixture)

from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig


def chat_within(ws: Any, seconds: float) -> list[dict[str, Any]]:
    """Chat messages this socket gets before ``seconds`` pass (asked with pings: each answer is a round trip)."""
    end = time.monotonic() + seconds
    got: list[dict[str, Any]] = []
    while not got and time.monotonic() < end:
        got = [m for m in chat_then_ping(ws) if m["type"] == "chat"]
    return got


def test_chat_reaches_the_other_process_and_its_history(postgres_url: str) -> None:  # noqa: F811
    url = database_url(postgres_url, None)
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        tid, _, (ann, bo) = two_humans(one)
        with (
            one.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
            two.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b,
            two.websocket_connect(f"/ws/tables/{tid}") as watcher,
        ):
            for ws in (a, b, watcher):  # each has read the (empty) history: what comes now is live
                assert chat_then_ping(ws) == []
            a.send_json({"type": "chat", "text": "<b>hi</b> from one"})
            assert next_of(a, "chat")["text"] == "<b>hi</b> from one"
            got = chat_within(b, 20)
            assert [(m["text"], m["seat"], m["name"]) for m in got] == [("<b>hi</b> from one", 0, "Ann")]
            b.send_json({"type": "chat", "text": "and from two"})
            assert next_of(b, "chat")["text"] == "and from two"
            assert [m["text"] for m in chat_within(a, 20)] == ["and from two"]
            assert chat_then_ping(watcher) == []  # players' chat never reaches spectators, here or there
        with two.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a2:
            assert [m["text"] for m in chat_then_ping(a2)] == ["<b>hi</b> from one", "and from two"]
    with TestClient(create_app(url)) as three, three.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b3:
        assert [m["text"] for m in chat_then_ping(b3)] == ["<b>hi</b> from one", "and from two"]


def muted_within(ws: Any, seconds: float) -> list[int]:
    """The seats of the first ``muted`` message this socket gets before ``seconds`` pass."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = [m for m in chat_then_ping(ws) if m["type"] == "muted"]
        if got:
            return list(got[-1]["seats"])
    raise AssertionError("no muted message")


def test_a_mute_holds_in_every_process_and_after_a_restart(postgres_url: str) -> None:  # noqa: F811
    url = database_url(postgres_url, None)
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        tid, owner, (ann, bo) = two_humans(one)
        with (
            one.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
            two.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b,
        ):
            for ws in (a, b):
                assert chat_then_ping(ws) == []
            a.send_json({"type": "mute", "seat": 1, "muted": True, "owner": owner})  # through process one
            assert next_of(a, "muted")["seats"] == [1]
            b.send_json({"type": "chat", "text": "via two"})  # refused by process two, told of the mute or not yet
            got = chat_then_ping(b)
            assert [m["code"] for m in got if m["type"] == "error"] == ["muted"]
            told = [m["seats"] for m in got if m["type"] == "muted"]
            assert (told[-1] if told else muted_within(b, 20)) == [1]  # and its connection is told
            assert chat_then_ping(a) == []
    with TestClient(create_app(url)) as three:
        with three.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b3:
            assert chat_then_ping(b3) == [{"type": "muted", "seats": [1]}]
            b3.send_json({"type": "chat", "text": "after the restart"})
            assert next_of(b3, "error")["code"] == "muted"
        with TestClient(create_app(url)) as four, four.websocket_connect(f"/ws/tables/{tid}?token={bo}") as b4:
            assert chat_then_ping(b4) == [{"type": "muted", "seats": [1]}]
            with three.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a3:
                assert chat_then_ping(a3) == [{"type": "muted", "seats": [1]}]
                a3.send_json({"type": "mute", "seat": 1, "muted": False, "owner": owner})
                assert next_of(a3, "muted")["seats"] == []
            assert muted_within(b4, 20) == []
            b4.send_json({"type": "chat", "text": "heard again"})
            assert next_of(b4, "chat")["text"] == "heard again"


def test_a_seats_chat_rate_limit_counts_across_processes(postgres_url: str) -> None:  # noqa: F811
    url = database_url(postgres_url, None)
    config = ServerConfig(rate_chat="3/minute")
    with TestClient(create_app(url, config=config)) as one, TestClient(create_app(url, config=config)) as two:
        tid, _, (ann, _) = two_humans(one)
        with (
            one.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a1,
            two.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a2,
        ):
            for i, ws in enumerate((a1, a2, a1)):
                ws.send_json({"type": "chat", "text": f"m{i}"})
                assert answer(ws, f"m{i}") == "chat"
            a2.send_json({"type": "chat", "text": "one too many"})
            assert answer(a2, "one too many") == "chat_rate_limited"


def answer(ws: Any, text: str) -> str:
    """What this socket is answered to its message ``text``: "chat" when it comes back, else the error's
    code (the seat's messages through the other process come and go between)."""
    for _ in range(50):
        msg = ws.receive_json()
        if msg["type"] == "chat" and msg["text"] == text:
            return "chat"
        if msg["type"] == "error":
            return str(msg["code"])
    raise AssertionError(f"no answer to {text!r}")
