"""Game server load: many tables played through the real WebSocket API on loopback.

The server runs as a subprocess (``courtcards serve`` with a fresh SQLite file);
this process is the client. Each table slot creates a table whose seats are all
humans, joins every seat, opens one WebSocket per seat and plays random legal
actions until the game ends, then starts a new table, until the time is up.
Latency is from sending an action to receiving the state that contains it on
the same socket (the server commits to the database before it pushes).

    python bench/bench_server.py --tables 200 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

PROFILED = """
import cProfile, sys
from courtcards.cli.main import main
sys.argv[0] = "courtcards"
prof = cProfile.Profile()
prof.enable()
try:
    main()
except (SystemExit, KeyboardInterrupt):
    pass
finally:
    prof.disable()
    prof.dump_stats({out!r})
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(url: str, method: str = "GET", body: Any = None) -> Any:
    req = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.load(resp)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.refused: dict[str, int] = {}
        self.games = 0
        self.measuring = False


async def play_seat(ws_url: str, rng: random.Random, stats: Stats, think: float) -> None:
    async with connect(ws_url, max_size=None, ping_interval=None) as ws:
        sent: tuple[int, float] | None = None
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.refused[msg["code"]] = stats.refused.get(msg["code"], 0) + 1
                sent = None
                continue
            if sent is not None and msg["version"] > sent[0]:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent[1])
                sent = None
            if msg["status"] == "finished":
                return
            if msg["legal"] and sent is None:
                if think > 0:
                    await asyncio.sleep(rng.expovariate(1 / think))
                action = rng.choice(msg["legal"])
                sent = (msg["version"], time.perf_counter())
                await ws.send(json.dumps({"type": "action", "action": action, "version": msg["version"]}))


async def table_slot(base: str, slot: int, args: argparse.Namespace, stats: Stats, end: float) -> None:
    rng = random.Random(slot)
    body = {"game": args.game, "players": args.players, "preset": args.preset, "bot_delay": 0,
            "seed": rng.randrange(2**62), "seats": [{"type": "human"}] * args.players}
    while time.time() < end:
        table = (await asyncio.to_thread(http, base + "/api/tables", "POST", body))["table"]
        tokens = []
        for _ in range(args.players):
            joined = await asyncio.to_thread(http, base + f"/api/tables/{table['id']}/join", "POST", {})
            tokens.append(joined["token"])
        ws_base = base.replace("http", "ws", 1) + f"/ws/tables/{table['id']}?token="
        seats = [play_seat(ws_base + t, random.Random(rng.random()), stats, args.think) for t in tokens]
        try:
            await asyncio.wait_for(asyncio.gather(*seats), max(1.0, end - time.time() + 30))
        except TimeoutError:
            return
        stats.games += 1


async def run(base: str, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    end = time.time() + args.warmup + args.duration
    tasks = [asyncio.create_task(table_slot(base, i, args, stats, end)) for i in range(args.tables)]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    await asyncio.gather(*tasks)
    return stats, elapsed


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="Tables played at once (default 200).")
    p.add_argument("--duration", type=float, default=20.0, help="Measured seconds (default 20).")
    p.add_argument("--warmup", type=float, default=5.0, help="Seconds before measuring (default 5).")
    p.add_argument("--think", type=float, default=0.0, help="Mean think time per action, seconds (default 0).")
    p.add_argument("--game", default="rank")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--preset", default=None)
    p.add_argument("--ws", default="auto", help="The server's uvicorn WebSocket implementation.")
    p.add_argument("--profile", metavar="FILE", help="Run the server under cProfile, writing FILE.")
    args = p.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.duration <= 600:
        p.error("--tables must be 1..1000 and --duration at most 600 s")
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="cc-bench-"))
    prof = ["-c", PROFILED.format(out=str(Path(args.profile).resolve()))] if args.profile else ["-m", "courtcards"]
    server = subprocess.Popen(
        [sys.executable, *prof, "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", str(tmp / "bench.sqlite"), "--log-level", "warning", "--no-access-log", "--ws", args.ws],
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                http(base + "/api/games")
                break
            except OSError:
                time.sleep(0.1)
        stats, elapsed = asyncio.run(run(base, args))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    lat = sorted(stats.latencies)
    n = len(lat)
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"{args.tables} tables of {args.game} ({args.players} players, preset {args.preset}), "
          f"think {args.think} s, SQLite (WAL, synchronous=FULL), {args.duration:.0f} s measured")
    if n == 0:
        print("no actions measured")
        return 1
    p99 = lat[min(n - 1, int(0.99 * n))]
    print(f"actions: {n} in {elapsed:.1f} s = {n / elapsed:.0f} actions/s; games finished: {stats.games}")
    print(f"latency send -> update: median {statistics.median(lat) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    if stats.refused:
        print(f"refused: {stats.refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
