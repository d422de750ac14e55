"""Probe a real `courtcards serve` (loopback, debug logs) with malformed, oversized, forged,
out-of-turn and stale requests of every kind the API takes. Asserts: no 5xx, every refusal
typed, no socket dropped without a reason, no table changed, no secret or token leaked."""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import os
import re
import socket
import sqlite3
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server_crash import free_port
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

MAX_MESSAGE = 4096
MAX_QUEUE = 32


class Server:
    def __init__(self, tmp: Path) -> None:
        self.db = tmp / "probe.sqlite"
        self.port = free_port()
        self.log = tmp / "server.log"
        self._log = self.log.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "courtcards",
                "serve",
                "--port",
                str(self.port),
                "--database",
                str(self.db),
                "--log-level",
                "debug",
                "--max-message",
                str(MAX_MESSAGE),
                "--max-queue",
                str(MAX_QUEUE),
                "--max-body",
                "8192",
                "--rate-create",
                "100/minute",
                "--rate-join",
                "100/minute",
                "--rate-connect",
                "1000/minute",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        end = time.time() + 30
        while time.time() < end:
            try:
                if self.request("GET", "/api/games")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
            assert self.proc.poll() is None, self.log.read_text()
        raise AssertionError("server did not start")

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, dict[str, str]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, resp.read(), {k.lower(): v for k, v in resp.getheaders()}
        finally:
            conn.close()

    def json(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        status, raw, _ = self.request(method, path, data, {"Content-Type": "application/json"})
        assert status < 300, raw
        return json.loads(raw)

    def ws(self, path: str, **kw: Any) -> ClientConnection:
        conn: ClientConnection = connect(f"ws://127.0.0.1:{self.port}{path}", open_timeout=10, close_timeout=5, **kw)
        return conn

    def stop(self) -> str:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("probe"))
    try:
        yield srv
    finally:
        if srv.proc.poll() is None:
            srv.stop()


class World:
    """Tables in known states: a Rank table with every seat joined, a Royale table where seat 0
    committed a secret choice, a finished table."""

    def __init__(self, srv: Server) -> None:
        self.srv = srv
        self.rank = srv.json("POST", "/api/tables", {"game": "rank", "players": 3, "seed": 3, "preset": "quick"})
        self.rank_id = self.rank["table"]["id"]
        self.rank_tokens = [
            srv.json("POST", f"/api/tables/{self.rank_id}/join", {"seat": s})["token"] for s in range(3)
        ]
        royale = srv.json("POST", "/api/tables", {"game": "royale", "players": 2, "seed": 5})["table"]
        self.royale_id = royale["id"]
        self.royale_tokens = [
            srv.json("POST", f"/api/tables/{self.royale_id}/join", {"seat": s})["token"] for s in range(2)
        ]
        with (
            srv.ws(f"/ws/tables/{self.royale_id}?token={self.royale_tokens[0]}") as a,
            srv.ws(f"/ws/tables/{self.royale_id}?token={self.royale_tokens[1]}") as b,
        ):
            first = json.loads(a.recv(10))
            theirs = json.loads(b.recv(10))["legal"]
            self.secret = next(x for x in first["legal"] if x not in theirs)
            a.send(json.dumps({"type": "action", "action": self.secret, "version": first["version"]}))
            while json.loads(a.recv(10)).get("version") != first["version"] + 1:
                pass
        bots = srv.json(
            "POST",
            "/api/tables",
            {"game": "royale", "players": 2, "bot_delay": 0, "seats": [{"type": "bot"}, {"type": "bot"}]},
        )
        self.done_id = bots["table"]["id"]
        end = time.time() + 30
        while srv.json("GET", f"/api/tables/{self.done_id}")["table"]["status"] != "finished":
            assert time.time() < end
            time.sleep(0.1)
        self.ids = [self.rank_id, self.royale_id, self.done_id]
        self.tokens = self.rank_tokens + self.royale_tokens
        self.before = self.snapshot()

    def snapshot(self) -> Any:
        out = []
        for tid in self.ids:
            data = self.srv.json("GET", f"/api/tables/{tid}")
            for seat in data["table"]["seats"]:
                seat.pop("connected")
            out.append(data)
        with sqlite3.connect(self.srv.db) as con:
            out.append(list(con.execute("SELECT table_id, idx, seat, text FROM cc_actions ORDER BY table_id, idx")))
            out.append(list(con.execute("SELECT table_id, seat, name, token_hash FROM cc_seats ORDER BY 1, 2")))
            out.append(con.execute("SELECT COUNT(*) FROM cc_tables").fetchone())
        return out

    def leaks(self, text: str, secret: bool = True) -> list[str]:
        found = [t for t in self.tokens if t in text]
        if secret and json.dumps(self.secret) in text:  # (the finished bot game shows its own cards)
            found.append(self.secret)
        return found


@pytest.fixture(scope="module")
def world(server: Server) -> World:
    return World(server)


def junk_ids(w: World) -> list[str]:
    return ["nope", "x" * 300, "%E2%98%83", "..%2F..%2Fetc", "AAAAAA", "%00", w.rank_id.upper(), w.rank_id + "x"]


def http_probes(w: World) -> Iterator[tuple[str, str, bytes | None, dict[str, str]]]:
    js = {"Content-Type": "application/json"}
    deep = b'{"game": "rank", "options": {"a": ' + b"[" * 3000 + b"]" * 3000 + b"}}"
    for name in ("rank", "nope", "x" * 200, "%00"):
        for q in (
            "",
            "?players=0",
            "?players=-1",
            "?players=99999999999999999999",
            "?players=x",
            "?players=1e3",
            "?preset=" + "p" * 100,
            "?preset=nope",
            "?players=3&players=4",
        ):
            yield "GET", f"/api/games/{name}/defaults{q}", None, {}
    bodies: list[Any] = [
        [],
        None,
        1,
        "rank",
        {},
        {"game": 1},
        {"game": "rank", "players": "3"},
        {"game": "rank", "players": 0},
        {"game": "rank", "players": 10**20},
        {"game": "rank", "options": []},
        {"game": "rank", "options": {"x": 1}},
        {"game": "rank", "options": {"hands": {"a": 1}}},
        {"game": "rank", "options": {"hands": -5}},
        {"game": "rank", "preset": 5},
        {"game": "rank", "preset": "nope"},
        {"game": "rank", "seats": {}},
        {"game": "rank", "seats": [{"type": "x"}] * 4},
        {"game": "rank", "seats": [{"type": "bot", "bot": "x"}] * 4},
        {"game": "rank", "seats": [{"type": "bot", "name": "n" * 100}] * 4},
        {"game": "rank", "seed": "x"},
        {"game": "rank", "seed": 2**80},
        {"game": "rank", "bot_delay": -1},
        {"game": "rank", "bot_delay": 1e308},
        {"game": "rank", "absent_timeout": -1},
        {"game": "rank", "move_time_limit": 0},
        {"game": "rank", "private": "x"},
        {"game": "rank", "seats": [{"type": "human"}] * 100},
        {"game": "poker"},
        {"game": "rank", "players": 2},
    ]
    for body in bodies:
        yield "POST", "/api/tables", json.dumps(body).encode(), js
    for raw in (b"{not json", b"\xff\xfe", deep, b'{"game": "' + b"r" * 9000 + b'"}', b"[" * 5000):
        yield "POST", "/api/tables", raw, js
    yield "POST", "/api/tables", b'{"game": "rank"}', {"Content-Type": "text/plain"}
    yield "POST", "/api/tables", b"x", {"Content-Type": "application/json", "Content-Length": "99999999"}
    for q in (
        "?status=closed",
        "?status=",
        "?limit=0",
        "?limit=-1",
        "?limit=x",
        "?limit=100000",
        "?offset=-5",
        "?offset=1e9",
        "?game=" + "g" * 100,
        "?status=open&limit=1&offset=99999",
    ):
        yield "GET", f"/api/tables{q}", None, {}
    for tid in junk_ids(w) + w.ids:
        yield "GET", f"/api/tables/{tid}", None, {}
        for sub in ("record", "replay", "replay/0", "replay/-1", "replay/x", "replay/99999999999999999999"):
            yield "GET", f"/api/tables/{tid}/{sub}", None, {}
        for body in (
            {"seat": -1},
            {"seat": 99},
            {"seat": "0"},
            {"seat": 1.5},
            {"seat": True},
            {"name": 1},
            {"name": ["a"]},
            {"name": "n" * 65},
            {"seat": 0},
            {"seat": 1},
            {},
            [],
            "x",
        ):
            yield "POST", f"/api/tables/{tid}/join", json.dumps(body).encode(), js
        yield "POST", f"/api/tables/{tid}/join", b"{bad", js
        for method in ("PUT", "DELETE", "PATCH"):
            yield method, f"/api/tables/{tid}", b"{}", js
    for path in (
        "/static/../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/" + "a" * 2000,
        "/table/" + "x" * 500,
        "/join/x/y",
        "/join/x/99999999999999999999",
        "/replay/%00",
        "/nope",
    ):
        yield "GET", path, None, {}


def test_http_probes_change_nothing_and_leak_nothing(server: Server, world: World) -> None:
    count = 0
    for method, path, body, headers in http_probes(world):
        status, raw, hdrs = server.request(method, path, body, headers)
        count += 1
        assert status < 500, (method, path, status, raw[:300])
        text = raw.decode("utf-8", "replace")
        assert not world.leaks(text, secret=world.done_id not in path), (method, path)
        assert hdrs.get("x-content-type-options") == "nosniff"
        if path.startswith("/api/") and status >= 400:
            err = json.loads(raw)["error"]
            assert re.fullmatch(r"[a-z_]+", err["code"]) and err["message"], (method, path, raw[:300])
    assert count > 300
    assert world.snapshot() == world.before


def ws_frames(w: World, mover_version: int) -> list[tuple[str | bytes, str]]:
    """(message, expected error code) sent by the Rank seat to move."""
    v = mover_version

    def act(a: str, ver: int = v) -> str:
        return json.dumps({"type": "action", "action": a, "version": ver})

    return [
        ("not json", "bad_message"),
        (b"\xff\x00binary", "bad_message"),
        ("[]", "bad_message"),
        ("1", "bad_message"),
        ("null", "bad_message"),
        ('"action"', "bad_message"),
        ("[" * 1500 + "]" * 1500, "bad_message"),
        ('{"type": ' * 300 + "1" + "}" * 300, "bad_message"),
        (json.dumps({"type": 5}), "bad_message"),
        (json.dumps({"type": "shout"}), "bad_message"),
        (json.dumps({"type": "action"}), "bad_message"),
        (json.dumps({"type": "action", "action": 5, "version": v}), "bad_message"),
        (json.dumps({"type": "action", "action": ["a"], "version": v}), "bad_message"),
        (json.dumps({"type": "action", "action": "x" * 600, "version": v}), "bad_message"),
        (json.dumps({"type": "action", "action": "pass", "version": "0"}), "bad_message"),
        (json.dumps({"type": "action", "action": "pass", "version": 0.0}), "bad_message"),
        (json.dumps({"type": "action", "action": "pass", "version": None}), "bad_message"),
        (json.dumps({"type": "action", "action": "pass", "version": True}), "bad_message"),
        (act("pass", 10**30), "stale_version"),
        (act("pass", -1), "stale_version"),
        (act("pass", v + 1), "stale_version"),
        (act("zzz"), "malformed_action"),
        (act("\u2603 \u0000"), "malformed_action"),
        (act(""), "malformed_action"),
        (act("pass"), "illegal_action"),
        (act(w.secret), "malformed_action"),
        (json.dumps({"type": "check"}), "bad_message"),
        (json.dumps({"type": "check", "action": {}}), "bad_message"),
    ]


def drain(ws: ClientConnection, into: list[str]) -> dict[str, Any]:
    """Every message already sent to ``ws``; the last one."""
    last: dict[str, Any] = {}
    while True:
        try:
            raw = ws.recv(0.5)
        except TimeoutError:
            return last
        into.append(str(raw))
        last = json.loads(raw)


def expect_error(ws: ClientConnection, code: str) -> dict[str, Any]:
    msg = json.loads(ws.recv(10))
    assert msg["type"] == "error" and msg["code"] == code, (code, msg)
    return dict(msg)


def test_websocket_probes_change_nothing_and_leak_nothing(server: Server, world: World) -> None:
    w = world
    # Connections that are refused say why, then close with a code.
    refusals = [(f"/ws/tables/{tid}", "table_not_found", 4404) for tid in junk_ids(w) if "%" not in tid]
    refusals += [
        (f"/ws/tables/{w.rank_id}?token={tok}", "bad_token", 4401)
        for tok in ("x", "y" * 5000, w.royale_tokens[0], w.rank_tokens[0][:-1], "%E2%98%83")
    ]
    for path, code, close in refusals:
        with server.ws(path, max_size=None) as ws:
            assert expect_error(ws, code)["message"]
            with pytest.raises(ConnectionClosed) as exc:
                ws.recv(10)
            assert exc.value.rcvd is not None and exc.value.rcvd.code == close
    with server.ws(f"/ws/tables/{w.rank_id}", origin="http://evil.example") as ws:
        expect_error(ws, "bad_origin")
        with pytest.raises(ConnectionClosed) as exc:
            ws.recv(10)
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 4403

    received: list[str] = []
    with contextlib.ExitStack() as stack:
        seats = [stack.enter_context(server.ws(f"/ws/tables/{w.rank_id}?token={t}")) for t in w.rank_tokens]
        spectator = stack.enter_context(server.ws(f"/ws/tables/{w.royale_id}"))
        other = stack.enter_context(server.ws(f"/ws/tables/{w.royale_id}?token={w.royale_tokens[1]}"))
        time.sleep(0.5)
        last = {i: drain(ws, received) for i, ws in enumerate(seats)}
        to_move = last[0]["to_move"]
        mover, idle = seats[to_move[0]], seats[(to_move[0] + 1) % 3]
        version = last[0]["version"]
        for frame, code in ws_frames(w, version):
            mover.send(frame)
            received.append(json.dumps(expect_error(mover, code)))
        for frame, code in [
            (json.dumps({"type": "action", "action": a, "version": version}), "not_your_turn")
            for a in last[to_move[0]]["legal"][:3]
        ]:
            idle.send(frame)
            received.append(json.dumps(expect_error(idle, code)))
        for ws, code in ((spectator, "spectator"), (other, "stale_version")):
            drain(ws, received)
            ws.send(json.dumps({"type": "action", "action": w.secret, "version": 0}))
            received.append(json.dumps(expect_error(ws, code)))
            ws.send(json.dumps({"type": "check", "action": w.secret}))  # answered, echoing only the sender's text
            reply = json.loads(ws.recv(10))
            assert reply["type"] == "check" or reply["code"] == "spectator", reply
        mover.send(json.dumps({"type": "ping"}))
        assert json.loads(mover.recv(10)) == {"type": "pong"}  # still connected after every refusal
        # Over the size limit: the server closes with 1009 and says so.
        mover.send(json.dumps({"type": "ping", "pad": "x" * (MAX_MESSAGE + 10)}))
        with pytest.raises(ConnectionClosed) as exc:
            mover.recv(10)
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 1009
    for text in received:
        assert not w.leaks(text), text
    assert world.snapshot() == world.before


def _frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_client_that_does_not_read_is_dropped_with_a_reason(server: Server, world: World) -> None:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/tables/{world.rank_id}?token={world.rank_tokens[0]} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    check = _frame(json.dumps({"type": "check", "action": "8" * 500}).encode())
    sock.settimeout(0.2)
    sent = 0
    end = time.time() + 30
    try:
        while time.time() < end:  # never read; the server must give up on us, not buffer forever
            sock.sendall(check * 50)
            sent += 50
    except OSError:
        pass  # the server closed the connection
    # how many frames the kernel and the server take in first depends on the machine's speed (about a
    # million in 10 s on a quiet machine); what the server bounds is how long it goes on taking them
    dropped_after = 30 - (end - time.time())
    sock.settimeout(10)
    data = b""
    try:
        while chunk := sock.recv(1 << 16):
            data += chunk
    except OSError:
        pass
    sock.close()
    assert b"HTTP/1.1 101" in data[:200]
    # The last frame is a close frame: code 4408 and the reason.
    tail = data[-200:]
    at = tail.rfind(b"\x88")
    assert at >= 0, tail
    code = struct.unpack("!H", tail[at + 2 : at + 4])[0]
    assert code == 4408 and b"too slow" in tail[at + 4 :], tail
    assert sent > 0 and dropped_after < 20, (sent, dropped_after)
    assert world.snapshot() == world.before
    # and it can reconnect: the current state again
    with server.ws(f"/ws/tables/{world.rank_id}?token={world.rank_tokens[0]}") as ws:
        assert json.loads(ws.recv(10))["type"] == "state"


def test_logs_hold_no_secret_and_no_token(server: Server, world: World) -> None:
    log = server.stop()
    assert "DEBUG" in log  # debug logging was on
    assert "Traceback" not in log
    assert re.search(rf"(?<![A-Za-z0-9]){re.escape(world.secret)}(?![A-Za-z0-9])", log) is None
    for token in world.tokens:
        assert token not in log
