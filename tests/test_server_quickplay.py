"""Public tables and quick play through the HTTP API (FastAPI TestClient, SQLite in a temp dir)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from courtcards.bots.base import default_bot_kind
from courtcards.core.game import game_names, get_game
from courtcards.server import create_app, database_url
from courtcards.server.quickplay import MAX_WAIT


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        yield c


def some_game() -> tuple[str, int, int]:
    """A registered game with its player range (no game is named here)."""
    name = game_names()[0]
    g = get_game(name)
    return name, g.min_players, g.max_players


def listed(client: TestClient, status: str = "open") -> dict[str, dict[str, Any]]:
    r = client.get(f"/api/tables?status={status}")
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()["tables"]}


# -- public tables ------------------------------------------------------------------------
def test_a_table_with_people_is_private_unless_listed(client: TestClient) -> None:
    game, low, _ = some_game()
    body = {"game": game, "players": low, "bot_delay": 0}
    private = client.post("/api/tables", json=body).json()["table"]
    public = client.post("/api/tables", json={**body, "private": False}).json()["table"]
    assert private["private"] is True and public["private"] is False
    open_tables = listed(client)
    assert public["id"] in open_tables and private["id"] not in open_tables
    assert open_tables[public["id"]]["settings"]["rated"] is False
    assert [s["taken"] for s in open_tables[public["id"]]["seats"]] == [False] * low


def test_joining_a_public_table_takes_a_free_seat_and_a_full_one_leaves_the_open_list(client: TestClient) -> None:
    game, low, _ = some_game()
    tid = client.post("/api/tables", json={"game": game, "players": low, "bot_delay": 0, "private": False}).json()[
        "table"
    ]["id"]
    seats = []
    for i in range(low):
        r = client.post(f"/api/tables/{tid}/join", json={"name": f"p{i}"})
        assert r.status_code == 200, r.text
        seats.append(r.json()["seat"])
        if i < low - 1:  # still waiting for players: still listed, one more seat taken
            t = listed(client)[tid]
            assert sum(s["taken"] for s in t["seats"]) == i + 1
    assert sorted(seats) == list(range(low))
    assert tid not in listed(client)  # full: playing, off the open list
    assert tid in listed(client, "playing")
    r = client.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_free_seat"


# -- quick play ---------------------------------------------------------------------------
def enter(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quickplay", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def ask(client: TestClient, ticket: str) -> dict[str, Any]:
    r = client.post("/api/quickplay/ticket", json={"ticket": ticket})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_two_waiters_are_seated_together(client: TestClient) -> None:
    game, low, high = some_game()
    players = 2 if low <= 2 <= high else low
    tickets = []
    for i in range(players - 1):
        first = enter(client, game=game, players=players, wait=MAX_WAIT, name=f"w{i}")
        assert first["status"] == "waiting" and first["table"] is None and first["token"] is None
        assert first["waiting"] == i + 1
        tickets.append(first["ticket"])
    last = enter(client, game=game, players=players, wait=MAX_WAIT, name="last")
    assert last["status"] == "seated"
    answers = [ask(client, t) for t in tickets] + [last]
    tids = {a["table"]["id"] for a in answers}
    assert len(tids) == 1  # one table for all of them
    tid = tids.pop()
    assert sorted(a["seat"] for a in answers) == list(range(players))
    table = client.get(f"/api/tables/{tid}").json()["table"]
    assert table["status"] == "playing" and table["private"] is True
    assert all(s["type"] == "human" and s["taken"] for s in table["seats"])
    assert sorted(s["name"] for s in table["seats"]) == sorted([*(f"w{i}" for i in range(players - 1)), "last"])
    # each token acts for its own seat
    for a in answers:
        with client.websocket_connect(f"/ws/tables/{tid}?token={a['token']}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "state" and msg["seat"] == a["seat"]
    # the queue is empty again: a new waiter waits
    again = enter(client, game=game, players=players, wait=MAX_WAIT)
    assert again["status"] == "waiting" and again["waiting"] == 1


def test_a_lone_waiter_gets_bots_after_the_wait(client: TestClient) -> None:
    game, low, _ = some_game()
    players = max(low, 2)
    wait = 0.5
    start = time.monotonic()
    first = enter(client, game=game, players=players, wait=wait, name="alone")
    assert first["status"] == "waiting" and 0 < first["wait_left"] <= wait
    answer = first
    while answer["status"] == "waiting" and time.monotonic() - start < 15:
        time.sleep(0.05)
        answer = ask(client, first["ticket"])
    assert answer["status"] == "seated", answer
    assert time.monotonic() - start >= wait
    table = answer["table"]
    assert answer["seat"] == 0 and table["status"] == "playing"
    kinds = [(s["type"], s["bot"]) for s in table["seats"]]
    assert kinds == [("human", None)] + [("bot", default_bot_kind(game))] * (players - 1)


def test_wait_zero_seats_at_once_with_whoever_waits(client: TestClient) -> None:
    game, low, high = some_game()
    if high < 3:
        pytest.skip("needs a game of three or more")
    players = max(low, 3)
    early = enter(client, game=game, players=players, wait=MAX_WAIT, name="early")
    now = enter(client, game=game, players=players, wait=0, name="now")
    assert now["status"] == "seated"
    early_answer = ask(client, early["ticket"])
    assert early_answer["status"] == "seated" and early_answer["table"]["id"] == now["table"]["id"]
    seats = now["table"]["seats"]
    assert [s["type"] for s in seats] == ["human", "human"] + ["bot"] * (players - 2)


def test_leaving_the_queue(client: TestClient) -> None:
    game, low, _ = some_game()
    players = max(low, 2)
    first = enter(client, game=game, players=players, wait=MAX_WAIT)
    r = client.post("/api/quickplay/leave", json={"ticket": first["ticket"]})
    assert r.status_code == 200 and r.json()["status"] == "left" and r.json()["waiting"] == 0
    r = client.post("/api/quickplay/ticket", json={"ticket": first["ticket"]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_ticket"
    # the next player waits alone: nobody was left behind in the queue
    assert enter(client, game=game, players=players, wait=MAX_WAIT)["waiting"] == 1


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"game": "no-such-game"}, 404, "unknown_game"),
        ({"players": 0}, 422, "bad_players"),
        ({"players": 1000}, 422, "bad_players"),
        ({"wait": -1}, 422, "bad_wait"),
        ({"wait": MAX_WAIT + 1}, 422, "bad_wait"),
        ({"wait": 1e300}, 422, "bad_wait"),
        ({"wait": "5"}, 422, "bad_request"),
        ({"players": "2"}, 422, "bad_request"),
    ],
)
def test_bad_quick_play_requests_are_refused(
    client: TestClient, change: dict[str, Any], status: int, code: str
) -> None:
    game, low, _ = some_game()
    body = {"game": game, "players": low, "wait": 10, **change}
    r = client.post("/api/quickplay", json=body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code and err["message"]
    assert client.app.state.quickplay.waiting() == 0  # type: ignore[attr-defined]


def test_players_outside_the_range_name_the_range(client: TestClient) -> None:
    game, low, high = some_game()
    r = client.post("/api/quickplay", json={"game": game, "players": high + 1, "wait": 10})
    assert r.status_code == 422
    assert f"{low} to {high}" in r.json()["error"]["message"]


def test_an_unknown_ticket_is_refused(client: TestClient) -> None:
    r = client.post("/api/quickplay/ticket", json={"ticket": "x" * 32})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_ticket"
    r = client.post("/api/quickplay/leave", json={"ticket": ""})
    assert r.status_code == 422


def test_a_table_that_cannot_be_made_fails_the_ticket_not_the_queue(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, low, _ = some_game()

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("disk full")

    monkeypatch.setattr(client.app.state.lobby, "create", broken)  # type: ignore[attr-defined]
    answer = enter(client, game=game, players=max(low, 2), wait=0)
    assert answer["status"] == "failed" and answer["table"] is None and answer["token"] is None
    assert "no table could be made" in answer["error"] and "disk full" not in answer["error"]
    assert ask(client, answer["ticket"])["status"] == "failed"
    assert client.app.state.quickplay.waiting() == 0  # type: ignore[attr-defined]


def test_an_account_waits_once_per_queue_and_its_seat_is_its_own(client: TestClient) -> None:
    game, low, _ = some_game()
    players = max(low, 2)
    r = client.post("/api/accounts", json={"username": "quinn", "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    headers = {"X-CSRF-Token": r.json()["csrf"]}
    body = {"game": game, "players": players, "wait": MAX_WAIT}
    first = client.post("/api/quickplay", json=body, headers=headers)
    assert first.status_code == 201 and first.json()["status"] == "waiting"
    again = client.post("/api/quickplay", json=body, headers=headers)
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_waiting"
    # the others who come are guests: the table is made, the account holds its seat
    for _ in range(players - 1):
        client.cookies.clear()
        enter(client, **body)
    seated = ask(client, first.json()["ticket"])
    assert seated["status"] == "seated"
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    seats = lobby.tables[seated["table"]["id"]].seats
    assert seats[seated["seat"]].account_id is not None
    assert [s.account_id for s in seats].count(None) == players - 1


def test_a_restart_keeps_the_waiting_tickets(tmp_path: Path) -> None:
    game, low, high = some_game()
    players = 2 if low <= 2 <= high else low
    url = database_url(None, tmp_path / "cc.sqlite")
    with TestClient(create_app(url)) as c:
        first = enter(c, game=game, players=players, wait=MAX_WAIT, name="before")
    with TestClient(create_app(url)) as c:  # a new server process: its memory knows no queue
        assert ask(c, first["ticket"])["status"] == "waiting"
        for i in range(players - 1):
            last = enter(c, game=game, players=players, wait=MAX_WAIT, name=f"after{i}")
        assert last["status"] == "seated"
        answer = ask(c, first["ticket"])
        assert answer["status"] == "seated" and answer["table"]["id"] == last["table"]["id"]
        assert answer["seat"] == 0
        with c.websocket_connect(f"/ws/tables/{answer['table']['id']}?token={answer['token']}") as ws:
            assert ws.receive_json()["seat"] == 0


def test_an_expired_wait_is_filled_after_a_restart(tmp_path: Path) -> None:
    game, low, _ = some_game()
    players = max(low, 2)
    url = database_url(None, tmp_path / "cc.sqlite")
    with TestClient(create_app(url)) as c:
        first = enter(c, game=game, players=players, wait=0.3, name="left behind")
    time.sleep(0.4)  # the wait ran out while no server ran
    with TestClient(create_app(url)) as c:
        answer = ask(c, first["ticket"])
        end = time.monotonic() + 15
        while answer["status"] == "waiting" and time.monotonic() < end:
            time.sleep(0.05)
            answer = ask(c, first["ticket"])
        assert answer["status"] == "seated", answer
        assert [s["type"] for s in answer["table"]["seats"]] == ["human"] + ["bot"] * (players - 1)


def test_the_waiting_limit_and_old_answers(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from courtcards.server import quickplay

    game, low, _ = some_game()
    players = max(low, 3) if get_game(game).max_players >= 3 else max(low, 2)
    qp = client.app.state.quickplay  # type: ignore[attr-defined]
    monkeypatch.setattr(qp, "max_waiters", players - 1)
    tickets = [enter(client, game=game, players=players, wait=MAX_WAIT)["ticket"] for _ in range(players - 1)]
    r = client.post("/api/quickplay", json={"game": game, "players": players, "wait": MAX_WAIT})
    assert r.status_code == 503 and r.json()["error"]["code"] == "queue_full"
    client.post("/api/quickplay/leave", json={"ticket": tickets[0]})
    seated = enter(client, game=game, players=players, wait=0)
    assert seated["status"] == "seated"
    monkeypatch.setattr(quickplay, "KEEP_ANSWER", 0.0)  # an answer is kept KEEP_ANSWER seconds, then forgotten
    r = client.post("/api/quickplay/ticket", json={"ticket": seated["ticket"]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_ticket"


def test_a_group_left_half_seated_by_a_stopped_process_is_told_it_failed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlalchemy as sa

    from courtcards.server import quickplay
    from courtcards.server.db import quickplay_t

    game, low, _ = some_game()
    first = enter(client, game=game, players=max(low, 2), wait=MAX_WAIT)
    qp = client.app.state.quickplay  # type: ignore[attr-defined]
    with qp.store.engine.begin() as conn:  # as a process that claimed it and stopped before making the table
        conn.execute(sa.update(quickplay_t).values(status="seating", done_at=time.time() - 1))
    assert ask(client, first["ticket"])["status"] == "waiting"
    monkeypatch.setattr(quickplay, "STALLED", 0.5)
    answer = ask(client, first["ticket"])
    end = time.monotonic() + 10
    while answer["status"] == "waiting" and time.monotonic() < end:
        time.sleep(0.05)
        answer = ask(client, first["ticket"])
    assert answer["status"] == "failed" and "try again" in answer["error"]
