"""`courtcards serve` itself, on a real socket (issue 30, items 3, 4, 5): connections per address,
the request head's size and time, Host checks on HTTP and WebSocket, invalid frames in the log."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest


class Live(NamedTuple):
    port: int
    log: Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    root = tmp_path_factory.mktemp("live")
    port, log = free_port(), root / "server.log"
    args = ["--port", str(port), "--database", str(root / "cc.sqlite"), "--no-access-log"]
    limits = ["--max-connections", "6", "--head-timeout", "1", "--max-head", "8192", "--rate-connect", "none"]
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "courtcards", "serve", *args, *limits], stdout=out, stderr=out)
    try:
        end = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None, log.read_text()
                assert time.time() < end, "the server did not start in 30 s"
                time.sleep(0.1)
        yield Live(port, log)
    finally:
        proc.terminate()
        proc.wait(30)


def connect(live: Live) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    return s


def answer(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    out = b""
    with contextlib.suppress(ConnectionResetError):  # closed with our bytes unread
        while chunk := s.recv(65536):
            out += chunk
    return out


def request(live: Live, head: str) -> bytes:
    with connect(live) as s:
        s.sendall(head.encode("latin-1"))
        return answer(s)


def new_table(live: Live) -> str:
    body = json.dumps({"game": "royale", "players": 2, "seats": [{"type": "bot"}, {"type": "bot"}], "bot_delay": 30})
    req = urllib.request.Request(
        f"http://127.0.0.1:{live.port}/api/tables", data=body.encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(json.load(r)["table"]["id"])


def handshake(live: Live, tid: str, host: str) -> tuple[socket.socket, bytes]:
    s = connect(live)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws/tables/{tid} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, head


def frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_other_hosts_are_refused_on_http_and_websocket(live: Live) -> None:
    ok = request(live, f"GET /api/games HTTP/1.1\r\nHost: localhost:{live.port}\r\nConnection: close\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 200")
    bad = request(live, "GET /api/games HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    assert bad.startswith(b"HTTP/1.1 400") and b"bad_host" in bad
    tid = new_table(live)
    s, head = handshake(live, tid, "evil.example")
    with s:
        assert head.startswith(b"HTTP/1.1 400"), head
    s, head = handshake(live, tid, f"127.0.0.1:{live.port}")
    with s:
        assert head.startswith(b"HTTP/1.1 101"), head


def test_request_heads_are_limited_in_size_and_time(live: Live) -> None:
    big = "X-Big: " + "a" * 20000 + "\r\n"
    r = request(live, f"GET /api/games HTTP/1.1\r\nHost: localhost\r\n{big}\r\n")  # whole, in one piece
    assert r.startswith(b"HTTP/1.1 431") and b"headers_too_large" in r, r[:100]
    with connect(live) as s:  # in pieces: never held whole, however long
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n")
        with contextlib.suppress(OSError):
            for _ in range(1000):
                s.sendall(b"X-More: " + b"b" * 1000 + b"\r\n")
        r = answer(s)
    assert r == b"" or r.startswith(b"HTTP/1.1 400"), r[:100]
    with connect(live) as s:  # a head that never ends: closed after --head-timeout, not held
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        start = time.monotonic()
        assert answer(s) == b""
        assert time.monotonic() - start < 9  # the client's own timeout is 10 s


def test_connections_per_address_are_capped(live: Live) -> None:
    held = [connect(live) for _ in range(6)]
    try:
        # the server counts a connection once it has accepted it: wait until one more is refused
        end = time.time() + 10
        while True:
            r = request(live, "GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            if r.startswith(b"HTTP/1.1 429"):
                break
            assert time.time() < end, r[:100]
        assert b"too_many_connections" in r
    finally:
        for s in held:
            s.close()
    end = time.time() + 10
    while not request(live, "GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    ):
        assert time.time() < end


def test_an_invalid_frame_is_logged_once_in_one_line(live: Live) -> None:
    tid = new_table(live)
    for _ in range(3):
        s, head = handshake(live, tid, "localhost")
        with s:
            assert head.startswith(b"HTTP/1.1 101")
            for _ in range(20):
                try:
                    s.sendall(frame(b'{"type":"ping"\xff\xfe}'))
                except OSError:
                    break
            answer(s)
    end = time.time() + 10
    while live.log.read_text().count("Invalid UTF-8") < 3:
        assert time.time() < end, live.log.read_text()[-2000:]
    text = live.log.read_text()
    assert text.count("Invalid UTF-8") == 3 and "Traceback" not in text
