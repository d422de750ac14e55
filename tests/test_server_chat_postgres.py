"""Chat on PostgreSQL with two server processes (two apps on one database): a message sent to one reaches
the other's sockets live and is in the history a socket of either reads when it joins."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from test_server_chat import chat_then_ping, next_of, two_humans
from test_server_postgres import postgres_url  # noqa: F401  (fixture)

from courtcards.server import create_app, database_url


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
