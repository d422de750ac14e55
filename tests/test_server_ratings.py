"""Ratings for people: rated tables (accounts only, bots as fixed anchors), openskill per game, the
leaderboard and profile pages."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_server_api import play_out
from typer.testing import CliRunner

from courtcards.cli.main import app as cli_app
from courtcards.server import create_app, database_url

PASSWORD = "correct horse battery"
TWO_HUMANS = [{"type": "human"}, {"type": "human"}]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "r.sqlite"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, db_path))) as c:
        yield c


def browser(c: TestClient) -> TestClient:
    """Another browser (cookies of its own) on the same running server: it shares the server's event loop
    (a TestClient of its own would run each request in a loop of its own, where no table's task lives)."""
    other = TestClient(c.app)
    other.portal = c.portal
    return other


def account(c: TestClient, name: str) -> tuple[TestClient, dict[str, str]]:
    """A browser signed in as a new account, and the header its changes carry."""
    other = browser(c)
    r = other.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return other, {"x-csrf-token": r.json()["csrf"]}


def rated_table(who: TestClient, csrf: dict[str, str], seats: list[dict[str, Any]], seed: int = 5) -> str:
    body = {"game": "royale", "seed": seed, "bot_delay": 0, "rated": True, "seats": seats}
    r = who.post("/api/tables", json=body, headers=csrf)
    assert r.status_code == 201, r.text
    assert r.json()["table"]["settings"]["rated"] is True
    return str(r.json()["table"]["id"])


def sit(who: TestClient, csrf: dict[str, str], tid: str, seat: int) -> str:
    r = who.post(f"/api/tables/{tid}/join", json={"seat": seat}, headers=csrf)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def play_against_bots(c: TestClient, tid: str, token: str, rng: random.Random) -> dict[str, Any]:
    """Random legal moves for the one human seat until the game is over; the last state."""
    with c.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        while True:
            msg = ws.receive_json()
            if msg["type"] != "state":
                continue
            if msg["status"] == "finished":
                return dict(msg)
            if msg["legal"]:
                ws.send_json({"type": "action", "action": rng.choice(msg["legal"]), "version": msg["version"]})


def board_after(c: TestClient, games: int) -> list[dict[str, Any]]:
    """The royale leaderboard once its players have ``games`` rated games in all (the rating is stored in the
    transaction that ends the game, before the final state is pushed: the other players' sockets may still be
    reading it)."""
    deadline = time.monotonic() + 20
    while True:
        players: list[dict[str, Any]] = c.get("/api/ratings/royale").json()["players"]
        if sum(p["games"] for p in players) >= games or time.monotonic() > deadline:
            return players
        time.sleep(0.02)


def err(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def test_rated_tables_are_for_accounts_only(client: TestClient) -> None:
    body = {"game": "royale", "rated": True, "seats": TWO_HUMANS}
    err(client.post("/api/tables", json=body), 403, "account_needed")
    ann, acsrf = account(client, "ann")
    err(ann.post("/api/tables", json=body), 403, "account_needed")  # the cookie without the CSRF token
    tid = rated_table(ann, acsrf, TWO_HUMANS)
    sit(ann, acsrf, tid, 0)
    err(ann.post(f"/api/tables/{tid}/join", json={"seat": 1}, headers=acsrf), 409, "already_seated")
    err(client.post(f"/api/tables/{tid}/join", json={"seat": 1}), 403, "account_needed")
    # a casual table stays open to guests
    casual = client.post("/api/tables", json={"game": "royale", "seats": TWO_HUMANS}).json()["table"]
    assert casual["settings"]["rated"] is False
    assert client.post(f"/api/tables/{casual['id']}/join", json={}).status_code == 200


def stored_finished(db_path: Path, tid: str) -> bool:
    with sqlite3.connect(db_path) as con:
        return bool(con.execute("SELECT finished FROM cc_tables WHERE id = ?", (tid,)).fetchone()[0])


def test_a_rated_game_between_accounts_rates_both(client: TestClient, db_path: Path) -> None:
    ann, acsrf = account(client, "ann")
    bob, bcsrf = account(client, "bob")
    tid = rated_table(ann, acsrf, TWO_HUMANS)
    tokens = [sit(ann, acsrf, tid, 0), sit(bob, bcsrf, tid, 1)]
    play_out(client, tid, tokens, random.Random(3), limit=10_000)
    result = client.get(f"/api/tables/{tid}").json()["table"]["result"]
    winner = result["ranking"][0]
    names = ["ann", "bob"]
    board = board_after(client, 2)
    assert [p["username"] for p in board] == [names[winner], names[1 - winner]]
    assert all(p["games"] == 1 for p in board) and board[0]["rating"] > board[1]["rating"]
    prof = client.get(f"/api/players/{names[winner]}").json()
    assert list(prof["ratings"]) == ["royale"]
    (event,) = prof["history"]["royale"]
    assert event["table"] == tid and event["place"] == 1 and event["after"] > event["before"]
    # the pages: the leaderboard links the profile, the profile plots the history
    page = client.get("/leaderboard/royale").text
    assert f'href="/players/{names[winner]}"' in page
    profile = client.get(f"/players/{names[winner]}")
    assert profile.status_code == 200 and "<svg" in profile.text and f"/replay/{tid}" in profile.text
    assert "default-src 'self'" in profile.headers["content-security-policy"]
    assert client.get("/players/nobody").status_code == 404
    err(client.get("/api/players/nobody"), 404, "not_found")
    err(client.get("/api/ratings/nogame"), 404, "not_found")
    # a casual game rates nobody
    casual = ann.post("/api/tables", json={"game": "royale", "seed": 1, "bot_delay": 0, "seats": TWO_HUMANS}).json()
    cid = casual["table"]["id"]
    play_out(client, cid, [sit(ann, acsrf, cid, 0), sit(bob, bcsrf, cid, 1)], random.Random(4), limit=10_000)
    deadline = time.monotonic() + 20
    while not stored_finished(db_path, cid):  # the transaction a rating would be in has committed
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert [p["games"] for p in client.get("/api/ratings/royale").json()["players"]] == [1, 1]


def test_the_final_state_is_pushed_once_the_rating_is_stored(client: TestClient) -> None:
    """A player who sees the end and opens their profile at once finds the game rated."""
    ann, acsrf = account(client, "ann")
    tid = rated_table(ann, acsrf, [{"type": "human"}, {"type": "bot", "bot": "random"}], seed=3)
    last = play_against_bots(client, tid, sit(ann, acsrf, tid, 0), random.Random(3))
    assert last["status"] == "finished"
    prof = client.get("/api/players/ann").json()  # no wait: the push came after the write
    assert list(prof["ratings"]) == ["royale"] and prof["ratings"]["royale"]["games"] == 1


def test_bots_are_fixed_anchors(client: TestClient, db_path: Path) -> None:
    r = CliRunner().invoke(cli_app, ["accounts", "anchor", "royale", "random", "10", "1", "--database", str(db_path)])
    assert r.exit_code == 0, r.output
    bad = CliRunner().invoke(cli_app, ["accounts", "anchor", "royale", "nobot", "10", "--database", str(db_path)])
    assert bad.exit_code == 2 and "no bot" in bad.output
    ann, acsrf = account(client, "ann")
    for seed in (1, 2):
        tid = rated_table(ann, acsrf, [{"type": "human"}, {"type": "bot", "bot": "random"}], seed=seed)
        play_against_bots(client, tid, sit(ann, acsrf, tid, 0), random.Random(seed))
    (me,) = board_after(client, 2)
    assert me["username"] == "ann" and me["games"] == 2  # a lone player is rated by playing bots
    # the bot's anchor did not move, and bots are not on the leaderboard
    with sqlite3.connect(db_path) as con:
        rows = con.execute("SELECT player, mu, sigma, games FROM cc_ratings WHERE player LIKE 'bot:%'").fetchall()
    assert rows == [("bot:random", 10.0, 1.0, 0)]
