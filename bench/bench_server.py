"""Game server load: many tables played through the real WebSocket API on loopback.

The servers run as subprocesses (``courtcards serve``: one on a fresh SQLite file,
or ``--processes N`` on one PostgreSQL database, started by the bench with
``--postgres`` or given with ``--database-url``); this process is the client.
Each table slot creates a table (on the servers in turn, as a proxy would spread
them) whose seats are all humans, joins every seat, opens one WebSocket per seat
and plays random legal actions until the game ends, then starts a new table,
until the time is up. Latency is from sending an action to receiving the state
that contains it on the same socket (the server commits to the database before
it pushes). Server CPU per action is the servers' CPU time (from /proc) over the
measured actions. ``--kill`` then kill -9s the first server: its clients
reconnect to the others, and the recovery time is from the kill until every
table that was on it has moved on.

    python bench/bench_server.py --tables 200 --duration 20
    python bench/bench_server.py --postgres --compare --think 0.5 --kill   # 1 vs 2 processes, recovery
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

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
        self.killed: float | None = None  # when the first server was killed
        self.dead = ""  # its base URL
        self.on_dead: set[str] = set()  # tables whose sockets were on it
        self.recovered: dict[str, float] = {}  # table -> seconds from the kill to its next version
        self.stop = 0.0


async def play_seat(bases: list[str], home: int, table: str, token: str, rng: random.Random, stats: Stats,
                    think: float) -> None:
    at = home
    while True:
        url = bases[at].replace("http", "ws", 1) + f"/ws/tables/{table}?token={token}"
        try:
            async with connect(url, max_size=None, ping_interval=None) as ws:
                sent: tuple[int, float] | None = None
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "error":
                        stats.refused[msg["code"]] = stats.refused.get(msg["code"], 0) + 1
                        sent = None
                        continue
                    if stats.killed is not None and table in stats.on_dead and table not in stats.recovered \
                            and bases[at] != stats.dead and sent is not None and msg["version"] > sent[0]:
                        stats.recovered[table] = time.time() - stats.killed
                    if sent is not None and msg["version"] > sent[0]:
                        if stats.measuring:
                            stats.latencies.append(time.perf_counter() - sent[1])
                        sent = None
                    if msg["status"] == "finished" or time.time() > stats.stop:
                        return
                    if msg["legal"] and sent is None:
                        if think > 0:
                            await asyncio.sleep(rng.expovariate(1 / think))
                        action = rng.choice(msg["legal"])
                        sent = (msg["version"], time.perf_counter())
                        await ws.send(json.dumps({"type": "action", "action": action, "version": msg["version"]}))
        except (OSError, ConnectionClosed):
            if stats.killed is None or len(bases) == 1:
                raise
            if bases[at] == stats.dead:
                stats.on_dead.add(table)
            at = (at + 1) % len(bases)  # as a proxy would: another server
            if bases[at] == stats.dead:
                at = (at + 1) % len(bases)
            await asyncio.sleep(0.05)


async def table_slot(bases: list[str], slot: int, args: argparse.Namespace, stats: Stats) -> None:
    rng = random.Random(slot)
    home = slot % len(bases)
    body = {"game": args.game, "players": args.players, "preset": args.preset, "bot_delay": 0,
            "seed": rng.randrange(2**62), "seats": [{"type": "human"}] * args.players, "private": False}
    while time.time() < stats.stop and stats.killed is None:
        base = bases[home]
        table = (await asyncio.to_thread(http, base + "/api/tables", "POST", body))["table"]
        tokens = []
        for _ in range(args.players):
            joined = await asyncio.to_thread(http, base + f"/api/tables/{table['id']}/join", "POST", {})
            tokens.append(joined["token"])
        seats = [play_seat(bases, home, table["id"], t, random.Random(rng.random()), stats, args.think)
                 for t in tokens]
        try:
            await asyncio.wait_for(asyncio.gather(*seats), max(1.0, stats.stop - time.time() + 30))
        except TimeoutError:
            return
        stats.games += 1


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes (Linux /proc), children included."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


async def run(bases: list[str], pids: list[int], args: argparse.Namespace,
              procs: list[subprocess.Popen[bytes]]) -> tuple[Stats, float, float]:
    stats = Stats()
    stats.stop = time.time() + args.warmup + args.duration + (15 if args.kill else 0)
    tasks = [asyncio.create_task(table_slot(bases, i, args, stats)) for i in range(args.tables)]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    cpu0, t0 = cpu_seconds(pids), time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds(pids) - cpu0
    if args.kill and len(bases) > 1:
        stats.dead = bases[0]
        stats.killed = time.time()
        procs[0].send_signal(signal.SIGKILL)
        end = time.time() + 15
        while time.time() < end and (not stats.on_dead or len(stats.recovered) < len(stats.on_dead)):
            await asyncio.sleep(0.1)
        stats.stop = time.time()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, elapsed, cpu


def start_postgres(tmp: Path) -> tuple[str, Callable[[], None]]:
    """A throwaway PostgreSQL on loopback (initdb + pg_ctl, as the tests do)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    initdb = found[-1] if found else shutil.which("initdb")
    if initdb is None:
        raise SystemExit("PostgreSQL is not installed (no initdb)")
    pg_ctl = str(Path(initdb).with_name("pg_ctl"))
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    tmp.chmod(0o755)
    if prefix:
        shutil.chown(tmp, "postgres")
    data, port = tmp / "pg", free_port()
    subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
                   check=True, capture_output=True, cwd=tmp)
    # fsync off: this measures the server, not the disk (a commit still survives a server process's kill -9)
    opts = f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run([*prefix, pg_ctl, "-D", str(data), "-o", opts, "-l", str(tmp / "pg.log"), "-w", "start"],
                   check=True, capture_output=True, cwd=tmp)

    def stop() -> None:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True, cwd=tmp)

    return f"postgresql://postgres@127.0.0.1:{port}/postgres", stop


def start_servers(args: argparse.Namespace, url: str | None, processes: int,
                  tmp: Path) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    procs, bases = [], []
    db = ["--database-url", url] if url else ["--database", str(tmp / f"bench-{time.time()}.sqlite")]
    for _ in range(processes):
        port = free_port()
        prof = ["-c", PROFILED.format(out=str(Path(args.profile).resolve()))] if args.profile else ["-m", "courtcards"]
        procs.append(subprocess.Popen(
            [sys.executable, *prof, "serve", "--host", "127.0.0.1", "--port", str(port), *db, "--log-level", "warning",
             "--no-access-log", "--ws", args.ws, "--rate-create", "none", "--rate-join", "none",
             "--rate-connect", "none", "--lease-ttl", str(args.lease_ttl)]))
        bases.append(f"http://127.0.0.1:{port}")
    for base in bases:
        for _ in range(300):
            try:
                http(base + "/api/games")
                break
            except OSError:
                time.sleep(0.1)
    return procs, bases


def measure(args: argparse.Namespace, url: str | None, processes: int, tmp: Path) -> int:
    procs, bases = start_servers(args, url, processes, tmp)
    try:
        stats, elapsed, cpu = asyncio.run(run(bases, [p.pid for p in procs], args, procs))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = sorted(stats.latencies)
    n = len(lat)
    where = ("PostgreSQL (fsync off)" if args.postgres else "PostgreSQL") if url else "SQLite (WAL, synchronous=FULL)"
    print(f"-- {processes} process{'es' if processes > 1 else ''}, {where}: {args.tables} tables of {args.game} "
          f"({args.players} players, preset {args.preset}), think {args.think} s, {args.duration:.0f} s measured")
    if n == 0:
        print("no actions measured")
        return 1
    p99 = lat[min(n - 1, int(0.99 * n))]
    print(f"actions: {n} in {elapsed:.1f} s = {n / elapsed:.0f} actions/s; games finished: {stats.games}")
    print(f"latency send -> update: median {statistics.median(lat) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    print(f"server CPU: {cpu:.1f} s = {cpu / n * 1000:.2f} ms per action")
    if stats.killed is not None:
        rec = sorted(stats.recovered.values())
        if rec:
            print(f"kill -9 of one process: {len(stats.on_dead)} tables had sockets on it; {len(rec)} moved on, "
                  f"median {statistics.median(rec):.2f} s, all by {rec[-1]:.2f} s after the kill")
        else:
            print(f"kill -9 of one process: {len(stats.on_dead)} tables had sockets on it; none moved on in 15 s")
    if stats.refused:
        print(f"refused: {stats.refused}")
    return 0


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
    p.add_argument("--database-url", help="PostgreSQL to use (default: SQLite, or --postgres).")
    p.add_argument("--postgres", action="store_true", help="Start a throwaway PostgreSQL (initdb) for the run.")
    p.add_argument("--processes", type=int, default=1, help="Server processes (more than 1: PostgreSQL).")
    p.add_argument("--compare", action="store_true", help="Measure 1 process, then 2, in one run.")
    p.add_argument("--kill", action="store_true", help="With 2+ processes: kill -9 one and time the recovery.")
    p.add_argument("--lease-ttl", type=float, default=5.0, help="The servers' --lease-ttl (default 5).")
    args = p.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.duration <= 600 or not 1 <= args.processes <= 8:
        p.error("--tables must be 1..1000, --duration at most 600 s, --processes 1..8")
    tmp = Path(tempfile.mkdtemp(prefix="cc-bench-"))
    stop_pg: Callable[[], None] = lambda: None  # noqa: E731
    url = args.database_url
    if args.postgres:
        url, stop_pg = start_postgres(tmp)
    if (args.processes > 1 or args.compare) and not url:
        p.error("several processes need PostgreSQL: --postgres or --database-url")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    try:
        counts = [1, 2] if args.compare else [args.processes]
        return max(measure(args, url, n, tmp) for n in counts)
    finally:
        stop_pg()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
