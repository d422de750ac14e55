"""`courtcards serve` as a real process: kill -9 mid-game, restart, nothing accepted is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from courtcards.core.record import GameRecord
from courtcards.server import client_example


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "courtcards",
            "serve",
            "--port",
            str(port),
            "--database",
            str(db),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    end = time.time() + 30
    while time.time() < end:
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=1):
                return proc, url
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start within 30 s")


def http(url: str, method: str = "GET", body: Any = None) -> Any:
    req = urllib.request.Request(
        url,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


def test_kill_9_loses_no_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "cc.sqlite"
    proc, url = start_server(db)
    try:
        table = http(
            url + "/api/tables",
            "POST",
            {
                "game": "rank",
                "players": 3,
                "preset": "quick",
                "seed": 11,
                "bot_delay": 0,
                "seats": [{"type": "human"}, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"}],
                "private": False,
            },
        )["table"]
        tid = table["id"]
        token = http(url + f"/api/tables/{tid}/join", "POST", {"name": "crash"})["token"]
        rng = random.Random(5)
        accepted: list[tuple[int, str]] = []
        last_seen = 0
        with connect(url.replace("http", "ws") + f"/ws/tables/{tid}?token={token}") as ws:
            sent: tuple[int, str] | None = None
            while len(accepted) < 6:
                msg = json.loads(ws.recv(timeout=10))
                assert msg["type"] == "state", msg
                assert msg["status"] == "playing"
                last_seen = msg["version"]
                if sent is not None and msg["version"] > sent[0]:
                    accepted.append(sent)
                    sent = None
                if msg["legal"] and sent is None:
                    sent = (msg["version"], rng.choice(msg["legal"]))
                    ws.send(json.dumps({"type": "action", "action": sent[1], "version": sent[0]}))
            # One more action in flight, then kill -9 at once: it may or may not have been stored.
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["legal"]:
                    in_flight = (msg["version"], rng.choice(msg["legal"]))
                    ws.send(json.dumps({"type": "action", "action": in_flight[1], "version": in_flight[0]}))
                    break
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    proc, url = start_server(db)
    try:
        info = http(url + f"/api/tables/{tid}")["table"]
        assert info["status"] == "playing" and info["version"] >= max(last_seen, accepted[-1][0] + 1)
        assert info["seats"][0]["connected"] is False
        # Reconnect with the same token and finish the game with the example client.
        last = client_example.play(url, tid, token, random.Random(6), quiet=True)
        assert last["status"] == "finished"
        record = http(url + f"/api/tables/{tid}/record")
        for version, text in accepted:
            assert record["actions"][version] == [0, text]
        if record["actions"][in_flight[0]] != [0, in_flight[1]]:  # not stored: then nobody was told of it
            assert last_seen <= in_flight[0]
        final = GameRecord.from_json(record).replay()
        assert final.is_over() and final.result().to_json() == record["result"]  # type: ignore[union-attr]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        out = subprocess.run(
            [sys.executable, "-m", "courtcards", "replay", str(path), "--no-interactive"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "COLUMNS": "120"},
        )
        assert out.returncode == 0, out.stderr
        assert f"{len(record['actions'])} actions" in out.stdout
        # The example script creates a table with bots and plays it to the end.
        assert client_example.main(["--server", url, "--game", "royals", "--bots", "random", "--quiet"]) == 0
        finished = http(url + "/api/tables?status=finished")["tables"]  # the example's table is private
        assert [(t["id"], t["game"]) for t in finished] == [(tid, "rank")]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
