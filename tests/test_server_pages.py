"""The player pages of the server (courtcards/server/pages.py): rules, rematch, addresses for join links."""

from __future__ import annotations

import random
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_server_api import Seat, create, join, play_out

from courtcards.core.game import builtin_games, game_names
from courtcards.server import create_app, database_url, pages

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, tmp_path / "p.sqlite"))) as c:
        yield c


def test_rules_pages_render_the_rules_docs(client: TestClient) -> None:
    index = client.get("/rules")
    assert index.status_code == 200
    for name in game_names():
        assert f'href="/rules/{name}"' in index.text
    page = client.get("/rules/rank")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    assert "<title>Rules of Rank · courtcards</title>" in text
    # headings carry the anchors the docs link to, and tables are tables
    assert '<h2 id="crowns">Crowns</h2>' in text and 'href="#crowns"' in text
    assert "<table>" in text and "<th>" in text
    # the page is the doc: every heading of docs/rules/rank.md is there
    doc = (ROOT / "docs" / "rules" / "rank.md").read_text()
    headings = [line.lstrip("#").strip() for line in doc.splitlines() if line.startswith("## ")]
    assert headings and all(pages.slug(h) in text for h in headings)
    # links to docs that are not served keep their words only
    assert 'href="../notation.md"' not in text and 'href="../api.md"' not in text
    # the rulings the page cites are served too, with an anchor for each id
    assert 'href="/rules/rulings#rk-7"' in text and 'href="../rulings.md' not in text
    rulings = client.get("/rules/rulings")
    assert rulings.status_code == 200 and "<title>Rulings · courtcards</title>" in rulings.text
    assert '<h3 id="rk-7">RK-7</h3>' in rulings.text and '<h3 id="ry-8">RY-8</h3>' in rulings.text
    assert 'href="/rules/kqp"' in rulings.text and 'href="/rules/rulings"' in index.text
    # the developer material at the end folds away
    assert "<details>" in text and "&lt;details" not in text
    royals = client.get("/rules/royals").text
    assert "Royals" in royals and "<code>royal QH 7H</code>" in royals
    missing = client.get("/rules/chess")
    assert missing.status_code == 404 and 'href="/rules/kqp"' in missing.text


def test_rules_index_says_how_many_play(client: TestClient) -> None:
    index = client.get("/rules").text
    assert "Rank Royale</a>, 2 players</li>" in index and "2-2 players" not in index  # a duel: one number
    assert "Royals</a>, 3-6 players</li>" in index


def test_the_rules_ship_with_the_package() -> None:
    assert pages.RULES_DIR.is_dir()
    assert {p.stem for p in pages.RULES_DIR.glob("*.md")} == {g.name for g in builtin_games()}
    assert pages.RULINGS.is_file()


def test_rematch_seats_the_same_people_and_bots(client: TestClient) -> None:
    t = create(client, "royale", 2, move_time_limit=300)
    tid = t["id"]
    tokens = [join(client, tid, 0, name="Ann"), join(client, tid, 1, name="Bob")]
    r = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    play_out(client, tid, tokens, random.Random(1), limit=5000)
    assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished"
    for body in ({}, {"token": "nope"}):
        r = client.post(f"/api/tables/{tid}/rematch", json=body)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    bob = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[1]}).json()
    ann = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]}).json()
    new = ann["table"]
    assert bob["table"]["id"] == new["id"] != tid  # one rematch table for everyone
    assert (ann["seat"], bob["seat"]) == (0, 1)
    assert [s["name"] for s in new["seats"]] == ["Ann", "Bob"] and new["status"] == "playing"
    assert new["options"] == t["options"] and new["settings"] == t["settings"]
    r = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]})  # a second tab: the seat is taken
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    with client.websocket_connect(f"/ws/tables/{new['id']}?token={ann['token']}") as ws:
        assert Seat(ws).recv()["seat"] == 0


def test_rematch_keeps_the_bots(client: TestClient) -> None:
    t = create(client, "royale", 2, seats=[{"type": "bot", "bot": "mixed", "name": "Mix"}, {"type": "human"}])
    token = join(client, t["id"], 1, name="Cy")
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
        me = Seat(ws)
        while me.recv() and me.last["status"] != "finished":
            if me.last["legal"] and me.log[-1]["type"] == "state":
                me.send(me.last["legal"][0])
    res = client.post(f"/api/tables/{t['id']}/rematch", json={"token": token}).json()
    seats = res["table"]["seats"]
    assert res["seat"] == 1 and seats[0]["type"] == "bot" and seats[0]["bot"] == "mixed" and seats[0]["name"] == "Mix"
    assert seats[1]["name"] == "Cy" and res["table"]["status"] == "playing"


def test_join_link_addresses_are_those_that_accept_connections(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert all(not ip.startswith("127.") for ip in pages.lan_ips())
    with socket.socket() as listener:
        listener.bind(("127.0.0.2", 0))  # loopback only: stands for a network address the server listens on
        listener.listen()
        port = listener.getsockname()[1]
        assert pages.listening(["127.0.0.3", "127.0.0.2"], port) == ["127.0.0.2"]
        monkeypatch.setattr(pages, "lan_ips", lambda: ["127.0.0.3", "127.0.0.2"])
        app = create_app(database_url(None, tmp_path / "a.sqlite"))
        with TestClient(app, base_url=f"http://127.0.0.1:{port}") as c:
            assert c.get("/api/addresses").json() == {"lan": [f"http://127.0.0.2:{port}"]}
    monkeypatch.setattr(pages, "lan_ips", lambda: ["127.0.0.2"])
    with TestClient(create_app(database_url(None, tmp_path / "b.sqlite")), base_url=f"http://127.0.0.1:{port}") as c:
        assert c.get("/api/addresses").json() == {"lan": []}  # nothing listens there any more
