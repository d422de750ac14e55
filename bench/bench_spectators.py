"""Spectators against players (issue 30, item 2): another table's action latency with N spectators
watching one busy bot table, against none, on a live ``courtcards serve`` (SQLite, loopback).

One table of bots (``--bot-delay`` between moves) gets ``--spectators`` sockets that only read; on a
second table this process plays every seat of a human game, one action at a time, and times each
action from sending it to the state that contains it. Both phases (0 spectators, then N) run on the
same server. ``--baseline DIR`` runs the same on a server from another checkout (e.g. ``git archive
main | tar -x -C DIR``) in the same run, so the figures compare on the same machine and load. The
spectators read in a process of their own (``nice -n 10`` unless ``--watchers-nice``), so the timed
player's loop is not the one reading their pushes; a spectator the server drops counts as dropped.

    python bench/bench_spectators.py --spectators 500 --seconds 15
    python bench/bench_spectators.py --spectators 2000 --baseline /path/to/old/checkout
    python bench/bench_spectators.py --spectators 1000 --baseline DIR --baseline-caps  # DIR has the caps
    python bench/bench_spectators.py --search-tables 10 --baseline DIR   # search bots instead (item 9)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(src: Path, db: Path, port: int, new: bool) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "courtcards", "serve", "--port", str(port), "--database", str(db)]
    args += ["--no-access-log", "--log-level", "warning", "--rate-connect", "none", "--rate-create", "none"]
    args += ["--rate-join", "none"]
    if new:  # this checkout's caps, opened for the bench
        args += ["--max-connections", "0", "--max-spectators", "0", "--max-spectators-per-address", "0"]
        args += ["--rate-read", "none", "--max-search-tables", "0", "--max-search-tables-per-address", "0"]
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen(args, cwd=src, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.time() + 60
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def post(port: int, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


async def watch(url: str, stop: asyncio.Event, counts: list[int]) -> None:
    try:
        async with websockets.connect(url, max_size=None, open_timeout=60) as ws:
            counts[0] += 1
            while not stop.is_set():
                await ws.recv()
                counts[1] += 1
    except (OSError, websockets.WebSocketException, TimeoutError):
        counts[2] += 1


async def play(port: int, game: str, n: int, options: dict[str, Any], seconds: float) -> list[float]:
    """Every seat of a human table, one action at a time: each action's latency (s)."""
    tid = post(port, "/api/tables", {"game": game, "players": n, "options": options, "bot_delay": 0})["table"]["id"]
    tokens = [post(port, f"/api/tables/{tid}/join", {"seat": s})["token"] for s in range(n)]
    socks = [await websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={t}") for t in tokens]
    last: list[dict[str, Any]] = [{} for _ in range(n)]
    for i, ws in enumerate(socks):  # older states still queued are skipped below (by version)
        last[i] = json.loads(await ws.recv())
    out: list[float] = []
    end = time.time() + seconds
    while time.time() < end:
        movers = [i for i in range(n) if last[i].get("legal")]
        if not movers or last[0].get("status") == "finished":
            break
        i = movers[0]
        version = last[i]["version"]
        t0 = time.perf_counter()
        await socks[i].send(json.dumps({"type": "action", "action": last[i]["legal"][0], "version": version}))
        for j in range(n):  # every socket gets the new state
            while True:
                msg = json.loads(await socks[j].recv())
                if msg.get("type") == "state" and msg["version"] > version:
                    last[j] = msg
                    break
            if j == i:
                out.append(time.perf_counter() - t0)
        await asyncio.sleep(0.02)
    for ws in socks:
        await ws.close()
    return out


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def figures(lat: list[float]) -> str:
    if len(lat) < 20:
        return f"{len(lat)} actions (too few)"
    q = statistics.quantiles(lat, n=100)
    return f"{len(lat)} actions, p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms"


async def search_phase(port: int, args: argparse.Namespace, tables: int) -> str:
    """``tables`` tables of search bots (no delay) play while the player's latency is measured."""
    seats = [{"type": "bot", "bot": args.search_bot}] * args.busy_players
    body = {
        "game": args.busy_game,
        "players": args.busy_players,
        "options": json.loads(args.busy_options),
        "seats": seats,
        "bot_delay": 0,
    }
    ids = [post(port, "/api/tables", body)["table"]["id"] for _ in range(tables)]
    lat = await play(port, args.busy_game, args.busy_players, json.loads(args.busy_options), args.seconds)
    moved = 0
    for tid in ids:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{tid}", timeout=30) as r:
            moved += json.load(r)["table"]["version"]
    load = os.getloadavg()[0]
    return f"{tables:5d} search-bot tables ({moved} bot moves meanwhile): {figures(lat)}; load {load:.2f}"


async def watch_main(url: str, spectators: int) -> None:
    """The spectators, in a process of their own (``--watch``): connect, say how many did (a JSON
    line), read pushes until a line comes on stdin, then say how many were read meanwhile."""
    stop, counts = asyncio.Event(), [0, 0, 0]
    watchers = []
    for k in range(spectators):
        watchers.append(asyncio.create_task(watch(url, stop, counts)))
        if k % 100 == 99:
            await asyncio.sleep(0.2)
    t0 = time.time()
    while counts[0] + counts[2] < spectators and time.time() - t0 < 120:
        await asyncio.sleep(0.2)
    print(json.dumps({"connected": counts[0], "failed": counts[2]}), flush=True)
    received = counts[1]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    pushed = counts[1] - received
    stop.set()
    for w in watchers:
        w.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    print(json.dumps({"pushes": pushed, "failed": counts[2]}), flush=True)


async def phase(port: int, args: argparse.Namespace, spectators: int, pid: int) -> str:
    seats = [{"type": "bot", "bot": "random"}] * args.busy_players
    body = {
        "game": args.busy_game,
        "players": args.busy_players,
        "options": json.loads(args.busy_options),
        "seats": seats,
        "bot_delay": args.bot_delay,
        "private": False,
    }
    busy = post(port, "/api/tables", body)["table"]["id"]
    url = f"ws://127.0.0.1:{port}/ws/tables/{busy}"
    options = json.loads(args.busy_options)
    if not spectators:
        used, t0 = cpu_seconds(pid), time.perf_counter()
        lat = await play(port, args.busy_game, args.busy_players, options, args.seconds)
        share = (cpu_seconds(pid) - used) / (time.perf_counter() - t0)
        return f"{0:5d} spectators: {figures(lat)}; server CPU {share:.0%} of a core; load {os.getloadavg()[0]:.2f}"
    # the spectators read in another process (at lower priority, as if on other machines): the
    # player's timings are not spent reading their pushes
    nice = ["nice", "-n", str(args.watchers_nice)] if args.watchers_nice else []
    cmd = [*nice, sys.executable, __file__, "--watch", url, "--spectators", str(spectators)]
    proc = await asyncio.create_subprocess_exec(*cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    joined = json.loads(await proc.stdout.readline())
    used, t0 = cpu_seconds(pid), time.perf_counter()
    lat = await play(port, args.busy_game, args.busy_players, options, args.seconds)
    share = (cpu_seconds(pid) - used) / (time.perf_counter() - t0)
    proc.stdin.write(b"stop\n")
    await proc.stdin.drain()
    read = json.loads(await proc.stdout.readline())
    await proc.wait()
    load = os.getloadavg()[0]
    return (
        f"{spectators:5d} spectators ({joined['connected']} connected, {joined['failed']} refused or failed; "
        f"{read['pushes']} pushes read, {read['failed'] - joined['failed']} dropped): {figures(lat)}; "
        f"server CPU {share:.0%} of a core; load {load:.2f}"
    )


def run(src: Path, args: argparse.Namespace, new: bool, label: str) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(src, Path(tmp) / "cc.sqlite", port, new)
        try:
            if args.search_tables:
                for n in (0, args.search_tables):
                    print(f"{label}: {asyncio.run(search_phase(port, args, n))}", flush=True)
            else:
                for n in (0, args.spectators):
                    print(f"{label}: {asyncio.run(phase(port, args, n, proc.pid))}", flush=True)
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--spectators", type=int, default=500)
    p.add_argument("--seconds", type=float, default=15.0, help="the measured player's time per phase")
    p.add_argument("--bot-delay", type=float, default=0.2)
    p.add_argument("--busy-game", default="rank", help="the game of both tables (one that lasts)")
    p.add_argument("--busy-players", type=int, default=4)
    p.add_argument("--busy-options", default='{"endless": true, "hands": 1000}')
    p.add_argument("--search-tables", type=int, default=0, help="instead of spectators: tables of search bots")
    p.add_argument("--search-bot", default="ismcts:200", help="the search tables' bot kind")
    p.add_argument("--baseline", type=Path, help="another checkout to run the same against")
    p.add_argument(
        "--baseline-caps",
        action="store_true",
        help="the baseline has the spectator and connection caps (a checkout after they came): open them there too",
    )
    p.add_argument("--watchers-nice", type=int, default=10, help="the spectators' process's niceness (0: none)")
    p.add_argument("--watch", help=argparse.SUPPRESS)  # the spectators' process: this table's URL
    args = p.parse_args()
    if args.watch:
        asyncio.run(watch_main(args.watch, args.spectators))
        return
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f} at start", flush=True)
    if args.baseline is not None:
        run(args.baseline, args, args.baseline_caps, "baseline")
    run(ROOT, args, True, "this tree")


if __name__ == "__main__":
    main()
