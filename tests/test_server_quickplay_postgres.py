"""Quick play on PostgreSQL with two server processes (two apps on one database): the queues are the
site's, not a process's, and no ticket is ever seated twice."""

from __future__ import annotations

import threading
import time
from typing import Any

from fastapi.testclient import TestClient
from test_server_postgres import postgres_url  # noqa: F401  (fixture)
from test_server_quickplay import ask, enter, some_game

from courtcards.server import create_app, database_url
from courtcards.server.quickplay import MAX_WAIT


def test_players_entering_through_two_processes_share_one_table(postgres_url: str) -> None:  # noqa: F811
    game, low, high = some_game()
    players = 2 if low <= 2 <= high else low
    url = database_url(postgres_url, None)
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        first = enter(one, game=game, players=players, wait=MAX_WAIT, name="via one")
        assert first["status"] == "waiting" and first["waiting"] == 1
        assert ask(two, first["ticket"])["status"] == "waiting"  # either process answers the ticket
        others = [
            enter(two, game=game, players=players, wait=MAX_WAIT, name=f"via two {i}") for i in range(players - 1)
        ]
        assert others[-1]["status"] == "seated"
        answers = [ask(one, first["ticket"]), *(ask(one, o["ticket"]) for o in others)]
        assert {a["status"] for a in answers} == {"seated"}
        tids = {a["table"]["id"] for a in answers}
        assert len(tids) == 1
        tid = tids.pop()
        assert sorted(a["seat"] for a in answers) == list(range(players))
        assert answers[0]["seat"] == 0  # first come, first seat
        # the seat tokens work through either process, each for its own seat
        for a, c in zip(answers, (one, two) * players, strict=False):
            with c.websocket_connect(f"/ws/tables/{tid}?token={a['token']}") as ws:
                msg = ws.receive_json()
                assert msg["type"] == "state" and msg["seat"] == a["seat"]
        assert one.app.state.quickplay.waiting() == 0  # type: ignore[attr-defined]


def test_a_crowd_through_two_processes_is_seated_once_each(postgres_url: str) -> None:  # noqa: F811
    game, low, high = some_game()
    players = 2 if low <= 2 <= high else low
    crowd = players * 6
    url = database_url(postgres_url, None)
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        tickets: list[str] = []
        lock = threading.Lock()

        def come(c: TestClient, i: int) -> None:
            t = enter(c, game=game, players=players, wait=MAX_WAIT, name=f"p{i}")["ticket"]
            with lock:
                tickets.append(t)

        threads = [threading.Thread(target=come, args=((one, two)[i % 2], i)) for i in range(crowd)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(tickets) == crowd
        answers: list[dict[str, Any]] = []
        end = time.monotonic() + 30
        while time.monotonic() < end:
            answers = [ask((one, two)[i % 2], t) for i, t in enumerate(tickets)]
            if all(a["status"] == "seated" for a in answers):
                break
            time.sleep(0.1)
        assert all(a["status"] == "seated" for a in answers), [a["status"] for a in answers]
        seats: dict[str, list[int]] = {}
        for a in answers:
            seats.setdefault(a["table"]["id"], []).append(a["seat"])
        assert len(seats) == crowd // players  # whole tables of people, no bots, no seat given twice
        assert all(sorted(s) == list(range(players)) for s in seats.values())


def test_a_lone_waiter_gets_bots_even_if_its_process_stops(postgres_url: str) -> None:  # noqa: F811
    game, low, _ = some_game()
    players = max(low, 2)
    url = database_url(postgres_url, None)
    with TestClient(create_app(url)) as two:
        with TestClient(create_app(url)) as one:
            first = enter(one, game=game, players=players, wait=1.0, name="alone")
            assert first["status"] == "waiting"
        # process one stopped before the wait ran out: the other's sweep seats the ticket
        answer = first
        end = time.monotonic() + 20
        while answer["status"] == "waiting" and time.monotonic() < end:
            time.sleep(0.1)
            answer = ask(two, first["ticket"])
        assert answer["status"] == "seated", answer
        assert [s["type"] for s in answer["table"]["seats"]] == ["human"] + ["bot"] * (players - 1)
