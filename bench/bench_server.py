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
reconnect to the others (a seat whose action was not answered sends it again, as
the browser does), and the recovery time is from the kill until every table that
was on it has moved on; the acknowledgement waits during the fault are the times
from sending an action to its update for every action answered after the kill.
``--bots N`` makes N seats of each table bots (played by the lease holder), so the
takeover of a dead process's leases is measured too.

``--accounts N`` signs N accounts up through the API first and seats them at rated tables (which
take accounts only; each table's seats are distinct accounts, spread so that every account plays),
so the games' ends are rated; with ``--poll S`` each account also has a lobby open that asks
for its games every S seconds, and ``--chat S`` makes every seat say something every S seconds on
average. ``--stagger V`` plays each table's first game at once up to a random version below V
before measuring, so that games end, are rated and start again throughout the measured time.
``--baseline REV`` measures the server of a git revision first, on a fresh database, its seats
played by guests (a server from before accounts has neither accounts nor chat).

    python bench/bench_server.py --tables 200 --duration 20
    python bench/bench_server.py --postgres --compare --think 0.5 --kill   # 1 vs 2 processes, recovery
    python bench/bench_server.py --postgres --processes 2 --tables 300 --accounts 1000 --think 2 \\
        --chat 30 --preset quick --stagger 180 --warmup 10 --duration 120 --baseline e5df52b
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

PROFILED = """
import cProfile, sys
from courtcards.cli.main import main
sys.argv[0] = "courtcards"
import time
prof = cProfile.Profile(time.thread_time)  # CPU time of the event loop thread
prof.enable()
try:
    main()
except (SystemExit, KeyboardInterrupt):
    pass
finally:
    prof.disable()
    prof.dump_stats({out!r})
"""


ROOT = Path(__file__).resolve().parent.parent
KILL_WAIT = 60  # seconds the bench waits for recovery after the kill


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(url: str, method: str = "GET", body: Any = None) -> Any:
    req = urllib.request.Request(
        url,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
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
        self.dropped: set[str] = set()  # seat tokens whose socket was on it
        self.served: dict[str, float] = {}  # token -> seconds from the kill to its first state from another server
        self.seen: dict[str, int] = {}  # table -> the newest version its sockets got before the kill
        self.turn: dict[str, tuple[int, bool]] = {}  # table -> (that version, a person's turn: not a bot's)
        self.bots_from: int | None = None  # --bots: the seats from this one on are bots
        self.bot_turn: dict[str, tuple[int, float]] = {}  # table -> (version, since when) of a bot's turn
        self.bot_waits: list[tuple[bool, float]] = []  # (table was on the killed server, a bot's turn) then
        self.fault = False  # from the kill until every table moved on (or the wait ran out)
        self.fault_waits: list[tuple[bool, float]] = []  # (table was on the killed server, send -> update) then
        self.during: dict[str, float] = {}  # CPU from the kill until every table moved on (Window.end)
        self.stop = 0.0
        self.forwarded = 0  # seats that got a state at or past their table's --stagger start (or their first)
        self.accounts: list[dict[str, str]] = []  # --accounts: each one's request headers (session, CSRF)
        self.polls: list[float] = []  # --accounts: "my games" request times, measured
        self.chats = 0  # chat messages sent, measured
        self.spread = 0.0  # --reconnect-spread: a seat with nothing to send waits up to this long to reconnect


def think_time(rng: random.Random, think: float) -> float:
    """The playing pace: uniform between half and one and a half times the mean."""
    return rng.uniform(0.5 * think, 1.5 * think) if think > 0 else 0.0


_decode = json.JSONDecoder().raw_decode


def read_state(raw: str) -> tuple[int, list[str], bool]:
    """Version, legal actions and whether finished, reading only what the client needs (the view is
    skipped: a cheap client leaves the cores to the servers)."""
    i = raw.index('"version":') + 10
    version = int(raw[i : raw.index(",", i)])
    j = raw.rindex('"legal":') + 8  # the top-level field comes after the view
    legal = [] if raw.startswith("[]", j) else _decode(raw, j)[0]
    return version, legal, '"status":"finished"' in raw


async def play_seat(
    bases: list[str],
    home: int,
    table: str,
    token: str,
    rng: random.Random,
    stats: Stats,
    think: float,
    first: asyncio.Event,
    forward: int = 0,
    chat: float = 0.0,
) -> bool:
    """Play one seat until its game ends (True) or the time is up. Until the table's version reaches
    ``forward`` the seat acts at once (--stagger); with ``chat`` it says something every ``chat`` seconds
    on average."""
    at = home
    forwarding = True
    sent: tuple[int, float, str] | None = None  # version, when first sent, action: until its update comes
    chosen: tuple[float, int, str] | None = None  # (when, version, action): thinking (a reconnect goes on)
    while True:
        url = bases[at].replace("http", "ws", 1) + f"/ws/tables/{table}?token={token}"
        try:
            async with contextlib.AsyncExitStack() as stack:
                ws = await stack.enter_async_context(connect(url, max_size=None, ping_interval=None, compression=None))
                if chat > 0:
                    talk = asyncio.create_task(chatter(ws, rng, chat, stats))
                    stack.callback(talk.cancel)
                fresh = True  # the connection's first state: an action not answered is sent again
                while True:
                    # Think while reading: a closed socket is noticed at once, as a browser does.
                    thinking = chosen is not None and not fresh  # (after a reconnect: once the state is read)
                    if chosen is not None and thinking and chosen[0] <= time.perf_counter():
                        sent = (chosen[1], time.perf_counter(), chosen[2])
                        chosen = None
                        await ws.send(json.dumps({"type": "action", "action": sent[2], "version": sent[0]}))
                    try:
                        async with asyncio.timeout(chosen[0] - time.perf_counter() if chosen and thinking else None):
                            raw = await ws.recv()
                    except TimeoutError:
                        continue
                    assert isinstance(raw, str)
                    if raw.startswith('{"type":"error"'):
                        code = json.loads(raw)["code"]
                        stats.refused[code] = stats.refused.get(code, 0) + 1
                        sent = None
                        continue
                    if not raw.startswith('{"type":"state"'):  # chat, mutes
                        continue
                    version, legal, finished = read_state(raw)
                    if forwarding and version >= forward:
                        forwarding = False
                        stats.forwarded += 1
                    if token in stats.dropped and token not in stats.served:
                        stats.served[token] = time.time() - (stats.killed or 0.0)
                    first.set()
                    if stats.bots_from is not None:  # how long a bot's turn lasts: the lease holder plays it
                        now, bt = time.time(), stats.bot_turn.get(table)
                        if bt is not None and version > bt[0]:
                            del stats.bot_turn[table]
                            if stats.fault:
                                stats.bot_waits.append((table in stats.on_dead, now - bt[1]))
                        to_move = _decode(raw, raw.rindex('"to_move":') + 10)[0]
                        if to_move and min(to_move) >= stats.bots_from and table not in stats.bot_turn:
                            stats.bot_turn[table] = (version, now)
                    if stats.killed is None:
                        stats.seen[table] = max(version, stats.seen.get(table, 0))
                        if version > stats.turn.get(table, (-1, False))[0] or legal:
                            stats.turn[table] = (version, bool(legal))
                    elif (
                        table in stats.on_dead
                        and table not in stats.recovered
                        and bases[at] != stats.dead
                        and not fresh  # (a move stored but not pushed before the kill is not moving on)
                        and version > stats.seen.get(table, 0)
                    ):
                        stats.recovered[table] = time.time() - stats.killed
                    if sent is not None and version > sent[0]:
                        wait = time.perf_counter() - sent[1]
                        if stats.measuring:
                            stats.latencies.append(wait)
                        if stats.fault:
                            stats.fault_waits.append((table in stats.on_dead, wait))
                        sent = None
                    elif fresh and sent is not None and version == sent[0]:  # its answer was lost: again
                        await ws.send(json.dumps({"type": "action", "action": sent[2], "version": sent[0]}))
                    fresh = False
                    if finished or time.time() > stats.stop:
                        return finished
                    if chosen is not None and chosen[1] != version:
                        chosen = None  # the table moved meanwhile: choose again
                    if legal and sent is None and chosen is None:
                        pause = 0.0 if forwarding else think_time(rng, think)
                        chosen = (time.perf_counter() + pause, version, rng.choice(legal))
        except (OSError, ConnectionClosed, InvalidStatus) as exc:
            if stats.killed is None or len(bases) == 1:
                raise
            if isinstance(exc, InvalidStatus):  # refused (a cap, a table not loadable yet): again shortly
                code = f"handshake {exc.response.status_code}"
                stats.refused[code] = stats.refused.get(code, 0) + 1
                if time.time() > stats.stop:
                    return False
                await asyncio.sleep(0.2)
                continue
            if bases[at] == stats.dead:
                stats.on_dead.add(table)
                stats.dropped.add(token)
            at = (at + 1) % len(bases)  # as a proxy would: another server
            if bases[at] == stats.dead:
                at = (at + 1) % len(bases)
            # --reconnect-spread: a seat with an action to send (or being chosen) at once, the others later
            urgent = sent is not None or chosen is not None
            await asyncio.sleep(0.05 + (0.0 if urgent else rng.uniform(0.0, stats.spread)))


async def new_table(
    client: httpx.AsyncClient,
    base: str,
    body: dict[str, Any],
    seats: Sequence[dict[str, str] | None],
    gate: asyncio.Semaphore,
) -> tuple[str, list[str]]:
    """Create a table and join its human seats, each with its headers (an account's session; None: a
    guest), the first seat's making it (at most ``gate`` requests at once, over kept-alive connections)."""
    here = [None if h is None else {**h, "origin": base} for h in seats]  # the session works on every server
    async with gate:
        tid = (await post(client, base + "/api/tables", body, here[0]))["table"]["id"]
        tokens = [(await post(client, base + f"/api/tables/{tid}/join", {}, h))["token"] for h in here]
    return tid, tokens


async def post(client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    for attempt in range(3):  # a kept-alive connection the server has just closed: again on a new one
        try:
            r = await client.post(url, json=body, headers=headers)
            break
        except httpx.TransportError:
            if attempt == 2:
                raise
    if r.is_error:
        raise RuntimeError(f"{r.status_code} from {url}: {r.text[:300]}")
    return r.json()


def cookieless() -> CookieJar:
    """A cookie jar that keeps nothing: the bench's one client speaks for many accounts, each request
    with its own session header. (A jar, not httpx.Cookies, which the client would copy into a new jar.)"""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


async def sign_up(client: httpx.AsyncClient, bases: list[str], n: int) -> list[dict[str, str]]:
    """Make ``n`` accounts through the API (spread over the servers, a few at a time: each hashes a
    password); each one's request headers: its session cookie, CSRF token and Origin."""
    gate = asyncio.Semaphore(4)

    async def one(i: int) -> dict[str, str]:
        base = bases[i % len(bases)]
        async with gate:
            r = await client.post(
                base + "/api/accounts",
                json={"username": f"bench{i}", "password": f"bench password {i}"},
                headers={"origin": base},
            )
        r.raise_for_status()
        return {"cookie": f"cc_session={r.cookies['cc_session']}", "x-csrf-token": r.json()["csrf"], "origin": base}

    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def chatter(ws: Any, rng: random.Random, every: float, stats: Stats) -> None:
    """A seat's chat: a short message every ``every`` seconds on average (exponential gaps)."""
    while True:
        await asyncio.sleep(rng.expovariate(1 / every))
        await ws.send(json.dumps({"type": "chat", "text": f"well played {rng.randrange(100)}"}))
        stats.chats += stats.measuring


async def poll_my_games(
    client: httpx.AsyncClient, base: str, headers: dict[str, str], every: float, stats: Stats
) -> None:
    """An account's lobby page: "my games" every ``every`` seconds (the browser's mygames.js polls every 10)."""
    rng = random.Random(headers["cookie"])
    await asyncio.sleep(rng.uniform(0, every))
    while time.time() < stats.stop:
        t0 = time.perf_counter()
        r = await client.get(base + "/api/account/games", headers=headers)
        r.raise_for_status()
        if stats.measuring:
            stats.polls.append(time.perf_counter() - t0)
        await asyncio.sleep(every)


async def table_slot(
    bases: list[str],
    slot: int,
    args: argparse.Namespace,
    stats: Stats,
    client: httpx.AsyncClient,
    gate: asyncio.Semaphore,
    connected: asyncio.Semaphore,
) -> None:
    rng = random.Random(slot)
    home = slot % len(bases)
    humans = args.players - args.bots
    body: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "preset": args.preset,
        "bot_delay": 0,
        "seed": rng.randrange(2**62),
        "seats": [{"type": "human"}] * humans + [{"type": "bot", "bot": args.bot}] * args.bots,
        "private": False,
    }
    seats: list[dict[str, str] | None] = [None] * humans
    if stats.accounts:  # the slot's seats are accounts slot * humans + s (distinct at a table), the first makes it
        n = len(stats.accounts)
        seats = [stats.accounts[(slot * humans + s) % n] for s in range(humans)]
        body["rated"] = True
    forward = rng.randrange(args.stagger) if args.stagger else 0  # the first game only
    while time.time() < stats.stop and stats.killed is None:
        tid, tokens = await new_table(client, bases[home], body, seats, gate)
        body["seed"] = rng.randrange(2**62)
        firsts = [asyncio.Event() for _ in tokens]
        mode, n = getattr(args, "sockets_now", "home"), len(bases)
        at = [home if mode == "home" else (home + (1 if mode == "other" else k)) % n for k in range(len(tokens))]
        tasks = [
            asyncio.create_task(
                play_seat(bases, a, tid, t, random.Random(rng.random()), stats, args.think, f, forward, args.chat)
            )
            for a, t, f in zip(at, tokens, firsts, strict=True)
        ]
        forward = 0
        async with connected:  # connecting is bounded too
            await asyncio.wait([asyncio.create_task(f.wait()) for f in firsts], timeout=60)
        try:
            done = await asyncio.wait_for(asyncio.gather(*tasks), max(1.0, stats.stop - time.time() + 30))
        except TimeoutError:
            return
        stats.games += any(done)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pids: list[int], tree: bool = False) -> float:
    """User + system CPU time of processes (Linux /proc), reaped children included; ``tree``: their
    live descendants too (PostgreSQL's backends)."""
    found = set(pids)
    if tree:
        parents = {}
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    parents[int(d.name)] = int(_stat(int(d.name))[1])
        grew = True
        while grew:
            more = {p for p, pp in parents.items() if pp in found} - found
            grew = bool(more)
            found |= more
    total = 0
    for pid in found:
        with contextlib.suppress(OSError):
            total += sum(int(x) for x in _stat(pid)[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


def machine_busy() -> float:
    """CPU seconds all cores spent busy since boot (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class Window:
    """CPU of the servers, the database, this client and the whole machine over the measured time."""

    def __init__(self, servers: list[int], db: int | None) -> None:
        self.servers, self.db = servers, db
        self.t0 = time.perf_counter()
        self.start = self._now()

    def _now(self) -> tuple[float, float, float, float]:
        me = os.times()
        db = cpu_seconds([self.db], tree=True) if self.db else 0.0
        return cpu_seconds(self.servers), db, me.user + me.system, machine_busy()

    def end(self) -> dict[str, float]:
        now = self._now()
        d = [b - a for a, b in zip(self.start, now, strict=True)]
        elapsed = time.perf_counter() - self.t0
        return {
            "elapsed": elapsed,
            "server": d[0],
            "db": d[1],
            "client": d[2],
            "machine": d[3],
            "others": d[3] - d[0] - d[1] - d[2],
        }


async def run(
    bases: list[str],
    pids: list[int],
    args: argparse.Namespace,
    procs: list[subprocess.Popen[bytes]],
    db_pid: int | None,
) -> tuple[Stats, dict[str, float], float]:
    stats = Stats()
    stats.bots_from = args.players - args.bots if args.bots else None
    stats.stop = time.time() + 3600
    stats.spread = args.reconnect_spread
    setup = time.perf_counter()
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx.AsyncClient(limits=limits, timeout=60, cookies=cookieless()) as client:
        if args.accounts:
            stats.accounts = await sign_up(client, bases, args.accounts)
            print(f"{args.accounts} accounts made in {time.perf_counter() - setup:.1f} s")
        gate, connected = asyncio.Semaphore(16), asyncio.Semaphore(64)
        tasks = [
            asyncio.create_task(table_slot(bases, i, args, stats, client, gate, connected)) for i in range(args.tables)
        ]
        seats = args.tables * (args.players - args.bots)
        while stats.forwarded < seats and time.perf_counter() - setup < 900:
            await asyncio.sleep(0.2)
            if any(t.done() and t.exception() for t in tasks):
                break
        setup = time.perf_counter() - setup
        stats.stop = time.time() + args.warmup + args.duration + (KILL_WAIT if args.kill else 0)
        if stats.accounts and args.poll:
            tasks += [
                asyncio.create_task(poll_my_games(client, h["origin"], h, args.poll, stats)) for h in stats.accounts
            ]
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        window = Window(pids, db_pid)
        await asyncio.sleep(args.duration)
        stats.measuring = False
        cpu = window.end()
        if args.kill and len(bases) > 1:
            stats.dead = bases[0]
            stats.killed = time.time()
            stats.fault = True
            procs[0].send_signal(signal.SIGKILL)
            during = Window(pids[1:], db_pid)
            sampler = start_sampler(args.py_spy, args.sample_survivor, pids[1]) if args.sample_survivor else None
            end = time.time() + KILL_WAIT
            while time.time() < end and (
                not stats.on_dead or len(stats.recovered) < len(stats.on_dead) or len(stats.served) < len(stats.dropped)
            ):
                await asyncio.sleep(0.1)
            stats.fault = False
            stats.during = during.end()
            if sampler is not None:
                sampler.send_signal(signal.SIGINT)  # py-spy writes what it sampled so far
                sampler.wait(30)
            stats.stop = time.time()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        print(f"{len(failed)} table slots failed, e.g. {failed[0]!r}")
    return stats, cpu, setup


def start_sampler(spy: str, out: str, pid: int) -> subprocess.Popen[bytes]:
    """py-spy (the program ``spy``) sampling ``pid`` (the survivor) into ``out`` as collapsed stacks, until it
    is interrupted."""
    # --gil: only the thread holding the GIL, so the stacks add up to the process's Python CPU time
    cmd = [
        spy,
        "record",
        "--pid",
        str(pid),
        "--rate",
        "100",
        "--gil",
        "--nonblocking",
        "--format",
        "raw",
        "--output",
        out,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_postgres(tmp: Path) -> tuple[str, int, Callable[[], None]]:
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
    subprocess.run(
        [*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
        check=True,
        capture_output=True,
        cwd=tmp,
    )
    # fsync off: this measures the server, not the disk (a commit still survives a server process's kill -9)
    opts = f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        [*prefix, pg_ctl, "-D", str(data), "-o", opts, "-l", str(tmp / "pg.log"), "-w", "start"],
        check=True,
        capture_output=True,
        cwd=tmp,
    )

    def stop() -> None:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True, cwd=tmp)

    pid = int((data / "postmaster.pid").read_text().split()[0])
    return f"postgresql://postgres@127.0.0.1:{port}/postgres", pid, stop


def fresh_database(url: str, name: str) -> str:
    """A new database on the bench's own PostgreSQL (each measurement starts empty: nothing to resume)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name


def start_servers(
    args: argparse.Namespace,
    url: str | None,
    processes: int,
    tmp: Path,
    tree: Path | None = None,
    program: Sequence[str] = (),
) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """Start ``processes`` servers: this tree's, or ``tree``'s (a baseline from ``extract``); ``program``:
    Python's arguments before ``serve`` (a wrapper's ``-c``), instead of ``-m courtcards`` (or --profile's)."""
    procs, bases = [], []
    db = ["--database-url", url] if url else ["--database", str(tmp / f"bench-{time.time()}.sqlite")]
    limits: tuple[str, ...] = ("create", "join", "connect", "rematch", "read")
    if args.accounts or args.chat:  # (options a baseline from before accounts would not know)
        limits += ("signup", "login", "chat")
    env = None if tree is None else {**os.environ, "PYTHONPATH": str(tree)}
    for _ in range(processes):
        port = free_port()
        prof = ["-c", PROFILED.format(out=str(Path(args.profile).resolve()))] if args.profile else ["-m", "courtcards"]
        cmd = [sys.executable, *(program or prof), "serve", "--host", "127.0.0.1", "--port", str(port), *db]
        cmd += ["--log-level", "warning", "--no-access-log", "--ws", args.ws, "--lease-ttl", str(args.lease_ttl)]
        for name in limits:
            cmd += [f"--rate-{name}", "none"]
        cmd += ["--max-connections", "0", "--max-inflight", "0"]  # every socket from one address
        procs.append(subprocess.Popen(cmd, cwd=tree, env=env))
        bases.append(f"http://127.0.0.1:{port}")
    for base in bases:
        for _ in range(300):
            try:
                http(base + "/api/games")
                break
            except OSError:
                time.sleep(0.1)
    return procs, bases


@dataclass
class Case:
    processes: int
    tables: int
    think: float
    kill: bool = False
    rev: str = ""  # a baseline revision's server (guests only), or "": this tree's
    tree: Path | None = None  # that revision's tree (extract)
    guests: bool = False  # played by guests even with --accounts
    sockets: str = "home"  # where a table's sockets connect (--sockets)

    @property
    def label(self) -> str:
        pace = f"pace {self.think:g} s" if self.think else "closed loop"
        who = f"baseline {self.rev}, " if self.rev else ""
        where = f", sockets {self.sockets}" if self.sockets != "home" else ""
        return f"{who}{self.tables} tables, {self.processes} process{'es' if self.processes > 1 else ''}, {pace}{where}"


def extract(ref: str) -> Path:
    """The tree of a git revision, in a new temporary folder (a baseline server runs from it)."""
    folder = Path(tempfile.mkdtemp(prefix="courtcards-baseline-"))
    data = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(folder, filter="tar")
    return folder


def stop_servers(procs: Sequence[subprocess.Popen[bytes]], wait: float) -> None:
    """Ask each server to stop (SIGINT), and kill the ones still running ``wait`` seconds later."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()


def measure(args: argparse.Namespace, url: str | None, case: Case, tmp: Path, db_pid: int | None) -> dict[str, Any]:
    args.think, args.tables, args.kill, args.sockets_now = case.think, case.tables, case.kill, case.sockets
    mine = args.accounts, args.chat
    if case.rev or case.guests:  # (a server from before accounts and chat has neither)
        args.accounts, args.chat = 0, 0.0
    procs, bases = start_servers(args, url, case.processes, tmp, case.tree)
    load = os.getloadavg()[0]
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            stats, cpu, setup = runner.run(run(bases, [p.pid for p in procs], args, procs, db_pid))
    finally:
        stop_servers(procs, 30)
        who = f"{args.accounts} accounts in rated games" if args.accounts else "guests"
        args.accounts, args.chat = mine
    lat = sorted(stats.latencies)
    n = len(lat)
    where = ("PostgreSQL (fsync off)" if args.postgres else "PostgreSQL") if url else "SQLite (WAL, synchronous=FULL)"
    print(
        f"-- {case.label}, {where}: {args.game} ({args.players} players, preset {args.preset}), "
        f"{args.duration:.0f} s measured after {setup:.1f} s of setup and {args.warmup:.0f} s of warm-up; "
        f"load average before {load:.1f}; seats: {who}"
    )
    out: dict[str, Any] = {"case": case, "n": n}
    if n == 0:
        print("no actions measured")
        return out
    p50, p99 = statistics.median(lat), lat[min(n - 1, int(0.99 * n))]
    el = cpu["elapsed"]
    out.update(
        rate=n / el,
        p50=p50,
        p99=p99,
        cpu=cpu["server"] / n,
        db=cpu["db"] / n,
        client=cpu["client"] / n,
        others=cpu["others"] / el,
    )
    print(f"actions: {n} in {el:.1f} s = {n / el:.0f} actions/s; games finished: {stats.games}")
    print(f"latency send -> update: median {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    print(
        f"CPU per action: servers {cpu['server'] / n * 1000:.2f} ms, database {cpu['db'] / n * 1000:.2f} ms, "
        f"this client {cpu['client'] / n * 1000:.2f} ms; the machine's other processes used "
        f"{cpu['others'] / el:.2f} of its {os.cpu_count()} cores meanwhile"
    )
    if stats.polls or stats.chats:
        polls = sorted(stats.polls)
        k = len(polls)
        times = (
            f"median {statistics.median(polls) * 1000:.1f} ms, p99 {polls[int(0.99 * k)] * 1000:.1f} ms" if k else ""
        )
        print(f"besides: {k} my-games requests ({times}), {stats.chats} chat messages")
    if stats.killed is not None:
        rec, back = sorted(stats.recovered.values()), sorted(stats.served.values())
        print(
            f"kill -9 of one process: {len(stats.on_dead)} tables had {len(stats.dropped)} sockets on it "
            f"(reconnection spread {args.reconnect_spread:g} s)"
        )
        if stats.during:
            d = stats.during
            print(
                f"  from the kill until then ({d['elapsed']:.1f} s), cores used: the surviving servers "
                f"{d['server'] / d['elapsed']:.2f}, the database {d['db'] / d['elapsed']:.2f}, this client "
                f"{d['client'] / d['elapsed']:.2f}, the machine's other processes {d['others'] / d['elapsed']:.2f}"
            )
        if back:
            print(
                f"  sockets served again by another process: {len(back)}, median {statistics.median(back):.2f} s, "
                f"all by {back[-1]:.2f} s after the kill"
            )
        if rec:
            out["recovery"] = (back[-1] if back else float("nan"), rec[-1])
            print(
                f"  tables moved on (a new version from another process, think time included): {len(rec)}, "
                f"median {statistics.median(rec):.2f} s, all by {rec[-1]:.2f} s after the kill"
            )
        if rec and stats.turn:
            for person, label in ((False, "a bot's turn"), (True, "a person's turn (thinking included)")):
                some = sorted(t for tid, t in stats.recovered.items() if stats.turn.get(tid, (0, True))[1] == person)
                if some:
                    print(
                        f"    of which at {label} when killed: {len(some)}, median {statistics.median(some):.2f} s, "
                        f"all by {some[-1]:.2f} s"
                    )
        if len(rec) < len(stats.on_dead) or len(back) < len(stats.dropped):
            print(f"  not all within {KILL_WAIT} s: {len(stats.on_dead) - len(rec)} tables did not move on")
        for on_dead, label in ((True, "tables of the killed process"), (False, "the other tables")):
            waits = sorted(w for d, w in stats.fault_waits if d == on_dead)
            bots = sorted(w for d, w in stats.bot_waits if d == on_dead)
            if bots:
                k = len(bots)
                print(
                    f"  bots' turns that ended after the kill until then (from the state giving a bot the turn to "
                    f"the next), {label}: {k}, median {statistics.median(bots):.2f} s, "
                    f"p99 {bots[min(k - 1, int(0.99 * k))]:.2f} s, max {bots[-1]:.2f} s, "
                    f"over 3 s: {sum(w > 3 for w in bots)}"
                )
            if waits:
                k = len(waits)
                print(
                    f"  acknowledgement waits of the actions answered after the kill until then, {label}: {k}, "
                    f"median {statistics.median(waits):.2f} s, p99 {waits[min(k - 1, int(0.99 * k))]:.2f} s, "
                    f"max {waits[-1]:.2f} s, over 1 s: {sum(w > 1 for w in waits)}, "
                    f"over 3 s: {sum(w > 3 for w in waits)}"
                )
    if stats.refused:
        print(f"refused: {stats.refused}")
    return out


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def summary(results: list[dict[str, Any]]) -> None:
    print(
        "\n| server | tables | processes | pace | actions/s | p50 | p99 | server CPU/action | recovery after kill -9 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        c: Case = r["case"]
        server = f"baseline {c.rev}" if c.rev else "this tree" + (", guests" if c.guests else "")
        server += f", sockets {c.sockets}" if c.sockets != "home" else ""
        if not r["n"]:
            print(f"| {server} | {c.tables} | {c.processes} | {c.think or 'closed loop'} | no actions | | | | |")
            continue
        rec = "served again by {:.1f} s, moved on by {:.1f} s".format(*r["recovery"]) if "recovery" in r else ""
        print(
            f"| {server} | {c.tables} | {c.processes} | {f'{c.think:g} s' if c.think else 'closed loop'} | "
            f"{r['rate']:.0f} | "
            f"{r['p50'] * 1000:.0f} ms | {r['p99'] * 1000:.0f} ms | {r['cpu'] * 1000:.2f} ms | {rec} |"
        )


def with_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` of another bench that drives :func:`run`, completed with this bench's defaults."""
    for key, value in vars(parser().parse_args([])).items():
        if not hasattr(args, key):
            setattr(args, key, value)
    return args


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="Tables played at once (default 200).")
    p.add_argument("--duration", type=float, default=20.0, help="Measured seconds (default 20).")
    p.add_argument("--warmup", type=float, default=5.0, help="Seconds before measuring (default 5).")
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="Playing pace: a seat acts this many seconds on average (uniform between half and 1.5 "
        "times) after the state giving it the turn arrives; 0: at once (closed loop).",
    )
    p.add_argument("--game", default="rank")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", type=int, default=0, help="Seats of each table played by bots (default 0).")
    p.add_argument("--bot", default="greedy", help="The bots' kind (default greedy).")
    p.add_argument("--preset", default=None)
    p.add_argument("--ws", default="auto", help="The server's uvicorn WebSocket implementation.")
    p.add_argument("--profile", metavar="FILE", help="Run the server under cProfile, writing FILE.")
    p.add_argument(
        "--sample-survivor",
        metavar="FILE",
        help="With --kill: sample the surviving process with py-spy from the kill until every table moved on, "
        "writing the stacks of the thread holding the GIL to FILE (py-spy's raw format; py-spy runs beside it, on the "
        "machine's CPU).",
    )
    p.add_argument("--database-url", help="PostgreSQL to use (default: SQLite, or --postgres).")
    p.add_argument("--postgres", action="store_true", help="Start a throwaway PostgreSQL (initdb) for the run.")
    p.add_argument("--processes", type=int, default=1, help="Server processes (more than 1: PostgreSQL).")
    p.add_argument("--compare", action="store_true", help="Measure 1 process, then 2, in one run.")
    p.add_argument(
        "--figures",
        action="store_true",
        help="The README's figures in one run (needs --postgres): 200 tables on 1 and 2 processes at "
        "the pace of --think and closed loop, then 1000 tables on 2 processes with --kill.",
    )
    p.add_argument("--kill", action="store_true", help="With 2+ processes: kill -9 one and time the recovery.")
    p.add_argument(
        "--sockets",
        default="home",
        help="Where a table's sockets connect, with 2+ processes: home (the process that made the table, as "
        "behind a proxy that sends a table's sockets to one process), other (all to another one: it takes the "
        "table over), spread (seat k to process home+k, as the kernel spreads --workers' connections); "
        "several, comma-separated, are measured in turn (default home).",
    )
    p.add_argument("--lease-ttl", type=float, default=5.0, help="The servers' --lease-ttl (default 5).")
    p.add_argument(
        "--reconnect-spread",
        type=float,
        default=4.0,
        help="With --kill: a seat that has no action to send waits a random 0 to this many seconds before "
        "reconnecting, a seat to move at once, as the browser's page does (SPREAD_MS in static/js/ws.js; "
        "default 4); 0: every socket at once.",
    )
    p.add_argument(
        "--accounts",
        type=int,
        default=0,
        help="Sign up this many accounts (through the API) and seat them at rated tables, spread so "
        "every account is seated.",
    )
    p.add_argument(
        "--poll",
        type=float,
        default=0.0,
        help="With --accounts: each account also has a lobby open, which asks for its games every this many "
        "seconds (the page's own pace is 10 s); 0 (the default): every account is at its tables.",
    )
    p.add_argument("--chat", type=float, default=0.0, help="Each seat chats every this many seconds on average.")
    p.add_argument(
        "--stagger",
        type=int,
        default=0,
        help="Before measuring, each table's first game is played at once up to a random version below this, "
        "so games end (and rated ones are rated) throughout the measured time.",
    )
    p.add_argument(
        "--baseline",
        metavar="REV",
        help="Measure the server of this git revision first, each case on a fresh database (played by guests, "
        "without chat: a baseline from before accounts has neither); with --accounts, this tree's played by "
        "guests too.",
    )
    return p


def main() -> int:
    p = parser()
    args = p.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.duration <= 600 or not 1 <= args.processes <= 8:
        p.error("--tables must be 1..1000, --duration at most 600 s, --processes 1..8")
    if not 0 <= args.bots < args.players:
        p.error("--bots must leave at least one human seat")
    if args.accounts and (args.kill or args.bots):
        p.error("--accounts is measured without --kill and --bots")
    if args.accounts and args.accounts < args.players:
        p.error("--accounts: at least one account a seat of a table")
    if args.figures and not args.postgres:
        p.error("--figures needs --postgres (each measurement gets its own database)")
    if args.sample_survivor:  # said now, not after the setup and the measured window
        if not (args.kill or args.figures):
            p.error("--sample-survivor samples the survivor of a kill: add --kill")
        args.py_spy = shutil.which("py-spy")
        if args.py_spy is None:
            p.error("--sample-survivor needs py-spy on PATH (pip install py-spy, in any environment)")
    tmp = Path(tempfile.mkdtemp(prefix="cc-bench-"))
    stop_pg: Callable[[], None] = lambda: None  # noqa: E731
    url, db_pid = args.database_url, None
    if args.postgres:
        url, db_pid, stop_pg = start_postgres(tmp)
    if not set(args.sockets.split(",")) <= {"home", "other", "spread"}:
        p.error("--sockets takes home, other, spread (comma-separated)")
    if (args.processes > 1 or args.compare or args.figures) and not url:
        p.error("several processes need PostgreSQL: --postgres or --database-url")
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    if args.figures:
        cases = [
            Case(1, 200, args.think),
            Case(2, 200, args.think),
            Case(1, 200, 0.0),
            Case(2, 200, 0.0),
            Case(2, 1000, args.think, kill=True),
        ]
    elif args.compare:
        cases = [Case(1, args.tables, args.think), Case(2, args.tables, args.think, args.kill)]
    else:
        cases = [Case(args.processes, args.tables, args.think, args.kill, sockets=m) for m in args.sockets.split(",")]
    if args.baseline:
        tree = extract(args.baseline)
        before = [Case(c.processes, c.tables, c.think, c.kill, args.baseline, tree, sockets=c.sockets) for c in cases]
        if args.accounts:  # this tree's guests too: what changed apart from the accounts
            before += [Case(c.processes, c.tables, c.think, c.kill, guests=True) for c in cases]
        cases = before + cases
    try:
        results = []
        for i, case in enumerate(cases):
            where = fresh_database(url, f"bench{i}") if args.postgres and url else url
            results.append(measure(args, where, case, tmp, db_pid))
        summary(results)
        return 0 if all(r["n"] for r in results) else 1
    finally:
        stop_pg()
        shutil.rmtree(tmp, ignore_errors=True)
        for c in cases:
            if c.tree is not None:
                shutil.rmtree(c.tree, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
