"""The game server through its HTTP API and WebSockets (FastAPI TestClient, SQLite in a temp dir)."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from courtcards.core.game import game_names, get_game
from courtcards.core.record import GameRecord
from courtcards.server import create_app, database_url
from courtcards.server.tables import Table

SHORT: dict[str, dict[str, Any]] = {
    "rank": {"preset": "quick"},
    "kqp": {"preset": "quick"},
    "royals": {"preset": "short"},
    "royale": {},
}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "cc.sqlite"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, db_path))) as c:
        yield c


def table_of(client: TestClient, tid: str) -> Table:
    table: Table = client.app.state.lobby.tables[tid]  # type: ignore[attr-defined]
    return table


def create(
    client: TestClient, game: str = "rank", players: int | None = 3, seats: list[Any] | None = None, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players, "seed": 7, "bot_delay": 0, **extra}
    if seats is not None:
        body["seats"] = seats
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json()["table"])


def join(client: TestClient, tid: str, seat: int | None = None, name: str = "p") -> str:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    r = client.post(f"/api/tables/{tid}/join", json=body)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def err(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    return str(r.json()["error"]["message"])


def db_actions(db_path: Path, tid: str) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db_path) as con:
        return list(con.execute("SELECT idx, seat, text FROM cc_actions WHERE table_id=? ORDER BY idx", (tid,)))


# -- HTTP -------------------------------------------------------------------------------
def test_games_lists_every_game_with_options_presets_and_bots(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert list(games) == game_names()  # listing order: GameInfo.listing, then name
    rank = games["rank"]
    assert (rank["min_players"], rank["max_players"], rank["default_players"]) == (3, 12, 4)
    assert "quick" in rank["presets"] and "greedy" in rank["bots"] and "random" in rank["bots"]
    hands = next(o for o in rank["options"] if o["name"] == "hands")
    assert set(hands) == {"name", "kind", "default", "doc", "choices", "minimum", "maximum", "optional"}
    assert client.get("/api/games/rank/defaults?players=3").json()["options"] == get_game("rank").resolve_options(3)
    err(client.get("/api/games/rank/defaults?players=99"), 422, "bad_request")
    assert client.get("/openapi.json").json()["paths"]["/api/tables"]["post"]


def test_create_table_refusals_name_the_valid_values(client: TestClient) -> None:
    unknown = err(client.post("/api/tables", json={"game": "poker"}), 422, "bad_request")
    assert "known games: " in unknown and all(name in unknown for name in game_names())
    msg = err(client.post("/api/tables", json={"game": "rank", "options": {"colour": 1}}), 422, "bad_request")
    assert "valid options" in msg
    msg = err(
        client.post(
            "/api/tables",
            json={
                "game": "rank",
                "players": 3,
                "seats": [{"type": "human"}, {"type": "bot", "bot": "genius"}, {"type": "human"}],
            },
        ),
        422,
        "bad_request",
    )
    assert "unknown bot 'genius'" in msg
    listed = msg.split("valid bots: ", 1)[1]
    assert all(kind in listed for kind in ("greedy", "random", "noisy", "hoarder", "ismcts:N"))
    err(
        client.post("/api/tables", json={"game": "rank", "players": 3, "seats": [{"type": "human"}]}),
        422,
        "bad_request",
    )
    err(client.post("/api/tables", json={"game": "rank", "players": 2}), 422, "bad_request")
    err(client.post("/api/tables", json={"game": "rank", "seed": 2**70}), 422, "bad_request")
    err(client.post("/api/tables", json={"game": "rank", "bot_delay": -1}), 422, "bad_request")
    err(
        client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"}),
        422,
        "bad_request",
    )
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("kind", ["nn", "ismcts+nn:20"])
def test_an_nn_seat_plays_where_its_network_fits_and_is_refused_elsewhere(client: TestClient, kind: str) -> None:
    """The nn bot (the game's shipped network) and the search it guides are listed, seated, and refused at a
    table the network was not trained for."""
    listed = next(g for g in client.get("/api/games").json()["games"] if g["name"] == "royale")["bots"]
    assert kind.partition(":")[0] in listed
    nn_seats = [{"type": "bot", "bot": kind}, {"type": "bot", "bot": "greedy"}]
    msg = err(
        client.post("/api/tables", json={"game": "royale", "seats": nn_seats, "options": {"max_rounds": 5}}),
        422,
        "bad_request",
    )
    assert "seat 0" in msg and "option max_rounds is 5 at this table, None in training" in msg
    tid = create(client, "royale", 2, seats=nn_seats)["id"]
    end = time.time() + 60
    while not table_of(client, tid).state.is_over():
        assert time.time() < end, "the nn and greedy bots did not finish the game"
        time.sleep(0.05)
    assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "finished"


def test_tables_open_then_playing_and_join_refusals(client: TestClient, db_path: Path) -> None:
    t = create(client, seats=[{"type": "human"}, {"type": "bot", "bot": "greedy"}, {"type": "human"}], private=False)
    tid = t["id"]
    assert t["status"] == "open" and t["to_move"] == [] and t["version"] == 0 and len(tid) == 6
    assert [s["taken"] for s in t["seats"]] == [False, True, False]
    assert t["settings"] == {
        "bot_delay": 0,
        "absent_timeout": 60,
        "move_time_limit": None,
        "hints": True,
        "rated": False,
    }  # a bot has a seat
    assert [x["id"] for x in client.get("/api/tables?status=open").json()["tables"]] == [tid]
    err(client.get("/api/tables?status=closed"), 422, "bad_request")
    err(client.get("/api/tables/nope"), 404, "table_not_found")
    err(client.post("/api/tables/nope/join", json={}), 404, "table_not_found")
    err(client.post(f"/api/tables/{tid}/join", json={"seat": 1}), 409, "not_a_human_seat")
    err(client.post(f"/api/tables/{tid}/join", json={"seat": 9}), 422, "bad_request")
    token = join(client, tid, 2, "Ann")
    err(client.post(f"/api/tables/{tid}/join", json={"seat": 2}), 409, "seat_taken")
    r = client.post(f"/api/tables/{tid}/join")  # no body: the first free human seat
    assert r.json()["seat"] == 0
    err(client.post(f"/api/tables/{tid}/join", json={}), 409, "no_free_seat")
    info = client.get(f"/api/tables/{tid}").json()
    assert info["table"]["status"] == "playing" and info["table"]["seats"][2]["name"] == "Ann"
    assert info["view"]["seat"] is None and info["view"]["hand"] == []  # a spectator holds nothing
    assert client.get("/api/tables?status=open").json()["tables"] == []
    # Only the token's hash is stored.
    raw = db_path.read_bytes() + (
        Path(str(db_path) + "-wal").read_bytes() if Path(str(db_path) + "-wal").exists() else b""
    )
    assert token.encode() not in raw
    with sqlite3.connect(db_path) as con:
        hashes = [h for (h,) in con.execute("SELECT token_hash FROM cc_seats WHERE table_id=?", (tid,))]
    assert hashlib.sha256(token.encode()).hexdigest() in hashes


# -- WebSocket refusals -----------------------------------------------------------------------
class Seat:
    """One WebSocket connection with the last state it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.last: dict[str, Any] = {}
        self.log: list[dict[str, Any]] = []

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.ws.receive_json()
        self.log.append(msg)
        if msg["type"] == "state":
            self.last = msg
        return msg

    def send(self, action: str, version: int | None = None) -> None:
        self.ws.send_json(
            {"type": "action", "action": action, "version": self.last["version"] if version is None else version}
        )

    def refused(self, code: str) -> str:
        msg = self.recv()
        assert msg["type"] == "error" and msg["code"] == code, msg
        assert msg["version"] == self.last["version"]
        return str(msg["message"])


def test_websocket_refusals_change_nothing(client: TestClient, db_path: Path) -> None:
    tid = create(client)["id"]
    tokens = [join(client, tid, s) for s in range(3)]
    with client.websocket_connect(f"/ws/tables/{tid}?token=wrong") as ws:
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4401
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "table_not_found"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4404
    table = table_of(client, tid)
    mover = table.state.to_move()[0]
    other = (mover + 1) % 3
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={tokens[mover]}") as wm,
        client.websocket_connect(f"/ws/tables/{tid}?token={tokens[other]}") as wo,
        client.websocket_connect(f"/ws/tables/{tid}") as wsp,
    ):
        m, o, sp = Seat(wm), Seat(wo), Seat(wsp)
        m.recv(), m.recv(), o.recv(), sp.recv()  # mover saw its own and other's connection
        assert m.last["seat"] == mover and m.last["legal"] and m.last["to_move"] == [mover]
        assert o.last["legal"] == [] and sp.last["seat"] is None and sp.last["legal"] == []
        before = (table.state.version, list(table.state.history))
        o.send("pass")
        assert "not this seat's decision" in o.refused("not_your_turn")
        m.send("pass")
        assert "leader must play" in m.refused("illegal_action")  # RK: the leader must play
        m.send("zzz")
        assert "cannot read 'zzz'" in m.refused("malformed_action")
        m.send(m.last["legal"][0], version=m.last["version"] + 1)
        m.refused("stale_version")
        sp.send("pass")
        sp.refused("spectator")
        wm.send_text("not json")
        m.refused("bad_message")
        wm.send_json({"type": "shout"})
        m.refused("bad_message")
        wm.send_json({"type": "action", "action": "pass"})
        m.refused("bad_message")
        wm.send_json({"type": "action", "action": "pass", "version": True})
        m.refused("bad_message")
        wm.send_json({"type": "ping"})
        assert m.recv() == {"type": "pong"}
        # check: the engine's reason for a refusal, or that a move is legal, without making it
        wm.send_json({"type": "check", "action": "pass"})
        reply = m.recv()
        assert reply["type"] == "check" and reply["legal"] is False and reply["code"] == "illegal_action"
        assert "leader must play" in reply["reason"] and not reply["reason"].startswith("illegal action")
        wm.send_json({"type": "check", "action": m.last["legal"][0]})
        assert m.recv() == {
            "type": "check",
            "action": m.last["legal"][0],
            "version": 0,
            "legal": True,
            "code": None,
            "reason": None,
            "reason_code": None,
            "reason_data": None,
        }
        wo.send_json({"type": "check", "action": "pass"})
        assert o.recv()["code"] == "not_your_turn"
        wsp.send_json({"type": "check", "action": "pass"})
        sp.refused("spectator")
        wm.send_json({"type": "check"})
        m.refused("bad_message")
        assert (table.state.version, list(table.state.history)) == before
        assert db_actions(db_path, tid) == []
        # A legal action is stored, applied, and pushed to everyone.
        act = m.last["legal"][0]
        m.send(act)
        for c in (m, o, sp):
            assert c.recv()["version"] == 1
        assert db_actions(db_path, tid) == [(0, mover, act)]
        m.send(act, version=0)  # sent again (its answer lost): acknowledged, not applied twice (issue 30)
        wm.send_json({"type": "ping"})
        assert m.recv() == {"type": "pong"}
        assert db_actions(db_path, tid) == [(0, mover, act)]
        m.send("pass", version=0)
        m.refused("stale_version")  # another move at an old version is still stale


def play_out(
    client: TestClient, tid: str, tokens: list[str], rng: random.Random, limit: int, refuse: bool = False
) -> list[Seat]:
    """Play random legal actions from every seat (all human) up to ``limit`` actions; every connection's messages."""
    n = len(tokens)
    with client.websocket_connect(f"/ws/tables/{tid}") as wsp:
        conns: list[Any] = []
        sp = Seat(wsp)
        sp.recv()
        seats: list[Seat] = []
        for s in range(n):
            ws = client.websocket_connect(f"/ws/tables/{tid}?token={tokens[s]}")
            conns.append(ws)
            seats.append(Seat(ws.__enter__()))
            for c in [sp, *seats]:  # a seat's first connection is pushed to everyone (connected flag)
                c.recv()
        try:
            actions = 0
            while sp.last["status"] != "finished" and actions < limit:
                movers = [c for c in seats if c.last["legal"]]
                assert movers and sorted(c.last["seat"] for c in movers) == sp.last["to_move"]
                c = rng.choice(movers)
                if refuse:  # a refused action changes nothing and reaches only its sender
                    # a version the table is not at (an old one could be the same move's resend: acknowledged)
                    c.send(c.last["legal"][0], version=c.last["version"] + 1)
                    c.refused("stale_version")
                c.send(rng.choice(c.last["legal"]))
                actions += 1
                for x in [sp, *seats]:
                    assert x.recv()["type"] == "state"
            if sp.last["status"] == "finished":
                for c in seats:
                    c.send("pass", version=c.last["version"])
                    c.refused("game_over")
        finally:
            for ws in conns:
                ws.__exit__(None, None, None)
    return [sp, *seats]


@pytest.mark.parametrize("game", sorted(SHORT))
def test_every_message_is_exactly_the_seats_view(client: TestClient, game: str) -> None:
    g = get_game(game)
    n = g.min_players
    t = create(client, game, n, **SHORT[game])
    tokens = [join(client, t["id"], s) for s in range(n)]
    conns = play_out(client, t["id"], tokens, random.Random(game), limit=120, refuse=True)
    table = table_of(client, t["id"])
    states = GameRecord.from_state(table.state).states()
    checked = 0
    for c in conns:
        for msg in c.log:
            if msg["type"] != "state":
                assert msg["code"] in ("stale_version", "game_over")
                continue
            st = states[msg["version"]]
            seat = msg["seat"]
            assert msg["view"] == json.loads(json.dumps(st.view(seat)))
            assert msg["legal"] == ([a.text for a in st.legal_actions(seat)] if seat is not None else [])
            assert msg["to_move"] == list(st.to_move())
            checked += 1
    assert checked > 20


def test_simultaneous_commitments_stay_secret(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    t = create(client, "royale", 2)
    tid = t["id"]
    tokens = [join(client, tid, s) for s in range(2)]
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as w0,
        client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as w1,
        client.websocket_connect(f"/ws/tables/{tid}") as wsp,
    ):
        a, b, sp = Seat(w0), Seat(w1), Seat(wsp)
        a.recv(), a.recv(), b.recv(), sp.recv()
        assert a.last["to_move"] == [0, 1] and a.last["legal"] and b.last["legal"]
        secret = next(x for x in a.last["legal"] if x not in b.last["legal"])
        a.send(secret)
        for c in (a, b, sp):
            c.recv()
        assert b.last["view"]["pending"] == {"committed": [0]} and sp.last["view"]["pending"] == {"committed": [0]}
        assert a.last["view"]["pending"] == {"committed": [0], "mine": secret}
        a.send(secret)
        assert "already committed" in a.refused("not_your_turn")
        b.send(b.last["legal"][0], version=0)
        b.refused("stale_version")
        b.send("9Z")
        b.refused("malformed_action")
        r = client.get(f"/api/tables/{tid}")
        err(client.get(f"/api/tables/{tid}/record"), 403, "game_not_over")
        err(client.get(f"/api/tables/{tid}/replay"), 403, "game_not_over")
        for text in [json.dumps(m) for m in b.log + sp.log] + [r.text]:
            assert secret not in text
    for rec in caplog.records:
        assert secret not in rec.getMessage()


def test_a_refusal_tells_its_rule_and_data(client: TestClient) -> None:
    """The engine's refusal reaches the client as data: its code and its data with the sentence."""
    tid = create(client, "royale", 2)["id"]
    tokens = [join(client, tid, s) for s in range(2)]
    table = table_of(client, tid)
    hand = table.state.view(0)["hand"]
    absent = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S") if c not in hand)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as w0:
        a = Seat(w0)
        a.recv()
        a.send(absent)
        msg = a.recv()
        assert msg["type"] == "error" and msg["code"] == "illegal_action", msg
        assert msg["reason_code"] == "not_in_hand"
        assert msg["reason_data"] == {"cards": [absent], "hand": hand}
        assert absent in msg["message"]
        w0.send_json({"type": "check", "action": absent})
        reply = a.recv()
        assert reply["legal"] is False and reply["code"] == "illegal_action"
        assert reply["reason_code"] == "not_in_hand" and reply["reason_data"] == {"cards": [absent], "hand": hand}
        w0.send_json({"type": "check", "action": f"discard {hand[0]}"})
        reply = a.recv()
        assert reply["reason_code"] == "play_phase" and reply["reason_data"] == {}
        w0.send_json({"type": "check", "action": "zzz"})
        reply = a.recv()  # a move the notation cannot read names no rule
        assert reply["code"] == "malformed_action" and reply["reason_code"] is None and reply["reason_data"] is None
        a.send(hand[0])
        a.recv()
        a.send(hand[1])  # already committed: the engine names the rule, not just "not your turn"
        msg = a.recv()
        assert msg["code"] == "not_your_turn" and msg["reason_code"] == "already_committed", msg


def test_finished_game_record_and_replay(client: TestClient) -> None:
    t = create(client, "royale", 2, seats=[{"type": "human"}, {"type": "bot", "bot": "greedy"}], private=False)
    tid = t["id"]
    token = join(client, tid, 0)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        me = Seat(ws)
        while True:
            me.recv()
            if me.last["status"] == "finished":
                break
            if me.last["legal"] and me.log[-1]["type"] == "state":
                me.send(rng.choice(me.last["legal"]))
        me.send("2H")
        me.refused("game_over")
    record = client.get(f"/api/tables/{tid}/record").json()
    rec = GameRecord.from_json(record)
    final = rec.replay()
    assert final.is_over() and final.result().to_json() == record["result"] == me.last["result"]  # type: ignore[union-attr]
    replay = client.get(f"/api/tables/{tid}/replay").json()
    assert replay["actions"] == record["actions"] and replay["game"] == "royale" and replay["players"] == 2
    assert replay["marks"][0] == {"label": "Round 1", "step": 0}
    steps = len(record["actions"])
    first = client.get(f"/api/tables/{tid}/replay/1").json()
    assert first["step"] == 1 and first["steps"] == steps and first["action"] == record["actions"][0]
    states = rec.states()
    assert first["places"] == states[1].card_places() and first["view"] == json.loads(json.dumps(states[1].view(None)))
    assert client.get(f"/api/tables/{tid}/replay/0").json()["action"] is None
    err(client.get(f"/api/tables/{tid}/replay/{steps + 1}"), 404, "bad_request")
    assert [x["id"] for x in client.get("/api/tables?status=finished").json()["tables"]] == [tid]


def wait_for(conn: Seat, pred: Any, limit: float = 60.0) -> dict[str, Any]:
    end = time.time() + limit
    while time.time() < end:
        msg = conn.recv()
        if msg["type"] == "state" and pred(msg):
            return msg
    raise AssertionError("condition not reached")


def test_stand_in_plays_for_an_absent_human_until_they_return(client: TestClient) -> None:
    t = create(
        client,
        "rank",
        3,
        seats=[{"type": "human"}, {"type": "bot"}, {"type": "bot"}],
        bot_delay=0.02,
        absent_timeout=0.2,
    )
    tid = t["id"]
    token = join(client, tid, 0)
    table = table_of(client, tid)
    with client.websocket_connect(f"/ws/tables/{tid}") as wsp:
        sp = Seat(wsp)
        wait_for(sp, lambda m: m["seats"][0]["stand_in"])
        wait_for(sp, lambda m: any(s == 0 for s, _ in table.state.history))  # the stand-in moved for seat 0
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            me = Seat(ws)
            msg = wait_for(me, lambda m: not m["seats"][0]["stand_in"] and m["legal"])
            time.sleep(0.3)
            assert table.state.version == msg["version"]  # nobody plays for a present human
            me.send(me.last["legal"][0])
            wait_for(me, lambda m: m["version"] > msg["version"])


def test_move_time_limit_lets_the_seats_bot_move(client: TestClient) -> None:
    t = create(client, "rank", 3, seats=[{"type": "human"}, {"type": "bot"}, {"type": "bot"}], move_time_limit=0.3)
    tid = t["id"]
    token = join(client, tid, 0)
    table = table_of(client, tid)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        me = Seat(ws)
        msg = wait_for(me, lambda m: bool(m["legal"]))
        assert msg["deadline"] is not None and 0 < msg["deadline"] - time.time() <= 0.301
        start = msg["version"]
        wait_for(me, lambda m: m["version"] > start)
        assert table.state.history[start][0] == 0  # seat 0's move, made by its bot after the deadline
        assert time.time() >= msg["deadline"]


def test_restart_resumes_tables_and_tokens(db_path: Path) -> None:
    url = database_url(None, db_path)
    with TestClient(create_app(url)) as c:
        tid = create(c, "rank", 3)["id"]
        tokens = [join(c, tid, s) for s in range(3)]
        play_out(c, tid, tokens, random.Random(1), limit=15)
        history = list(table_of(c, tid).state.history)
    with TestClient(create_app(url)) as c:
        table = table_of(c, tid)
        assert table.state.history == history and table.state.version == 15
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["status"] == "playing" and info["version"] == 15
        assert [s["connected"] for s in info["seats"]] == [False, False, False]
        play_out(c, tid, tokens, random.Random(2), limit=10_000)
        assert table.state.is_over()
        assert GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json()).actions[:15] == history


def test_pages_are_served_or_a_placeholder_says_what_is_missing(db_path: Path, tmp_path: Path) -> None:
    empty = tmp_path / "no-static"
    empty.mkdir()
    with TestClient(create_app(database_url(None, db_path), static_dir=empty)) as c:
        for path in ("/", "/table/abc", "/join/abc/1", "/replay/abc"):
            r = c.get(path)
            assert r.status_code == 200 and "not installed" in r.text
        err(c.get("/static/app.js"), 404, "not_found")
    page = tmp_path / "static"
    page.mkdir()
    (page / "table.html").write_text("<p>table page</p>")
    (page / "app.js").write_text("let x = 1;")
    with TestClient(create_app(database_url(None, db_path), static_dir=page)) as c:
        assert c.get("/table/abc").text == "<p>table page</p>"
        assert c.get("/static/app.js").text == "let x = 1;"
