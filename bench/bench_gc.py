"""Garbage collection pauses and steady action latency (issue 30, item 10), this tree against a
baseline revision in the same run.

The load is bench_server.py's (tables of human seats played through the WebSocket API, every
seat acting ``--think`` seconds after its turn comes), on ``--processes`` server processes: with
more than one, on a throwaway PostgreSQL (initdb, as ``bench_server.py --postgres``). Each server
runs under a small wrapper that times every garbage collection by generation (``gc.callbacks``,
the same code for both trees, so the baseline needs no metrics of its own) and writes the counts,
the longest pause (wall clock, and the CPU time of the collecting thread: on a busy machine the
difference is time the process waited for a core) and the pauses over 50 ms when it stops; the
resident memory (VmRSS, VmHWM) is read from /proc just before. ``--baseline REV`` (``git archive
REV``) is measured first, then this tree, each on a fresh database. Where a tree has the server's
freezer (``courtcards.server.gcwatch.Freezer``), each of its steps is timed whole as well: its
collection and its own bookkeeping, which the callbacks do not see.

    python bench/bench_gc.py --tables 300 --processes 2 --think 2 --duration 180 --baseline HEAD~1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_server as bs

WRAPPER = """
import atexit, gc, json, os, sys, time
pauses, t0 = [], [0.0, 0.0]  # every collection: [wall time, generation, seconds, CPU seconds]
def cb(phase, info):
    if phase == "start":
        t0[:] = time.perf_counter(), time.thread_time()
    else:
        pauses.append((time.time(), info["generation"], time.perf_counter() - t0[0], time.thread_time() - t0[1]))
gc.callbacks.append(cb)
steps = []  # every freezer step, its collection and bookkeeping together: [wall time, seconds, CPU seconds]
try:
    from courtcards.server.gcwatch import Freezer
except ImportError:  # a tree without the freezer
    Freezer = None
if Freezer is not None:
    _step = Freezer.step
    def timed_step(self):
        w, c = time.perf_counter(), time.thread_time()
        _step(self)
        steps.append((time.time(), time.perf_counter() - w, time.thread_time() - c))
    Freezer.step = timed_step
def dump():
    with open({out!r} + "." + str(os.getpid()), "w") as f:
        json.dump({{"pauses": pauses, "steps": steps, "frozen": gc.get_freeze_count()}}, f)
atexit.register(dump)
from courtcards.cli.main import main
sys.argv[0] = "courtcards"
try:
    main()
except (SystemExit, KeyboardInterrupt):
    pass
"""


def rss(pid: int) -> tuple[float, float]:
    """VmRSS and VmHWM (peak) in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def measure(label: str, tree: Path, url: str | None, tmp: Path, args: argparse.Namespace, db_pid: int | None) -> None:
    out = tmp / f"gc-{label}"
    procs, bases = bs.start_servers(args, url, args.processes, tmp, tree, ["-c", WRAPPER.format(out=str(out))])
    load = os.getloadavg()[0]
    try:
        with asyncio.Runner(loop_factory=bs._loop_factory()) as runner:
            stats, _cpu, setup = runner.run(bs.run(bases, [p.pid for p in procs], args, procs, db_pid))
        mem = [rss(p.pid) for p in procs]
    finally:
        bs.stop_servers(procs, 60)
    lat = sorted(stats.latencies)
    n = len(lat)
    print(
        f"-- {label}: {args.tables} tables on {args.processes} process(es), pace {args.think:g} s, "
        f"{args.duration:.0f} s measured after {setup:.0f} s of setup and {args.warmup:.0f} s of warm-up; "
        f"load average before {load:.1f}"
    )
    if n:
        p50, p99 = statistics.median(lat), lat[min(n - 1, int(0.99 * n))]
        print(
            f"actions: {n} ({n / args.duration:.0f}/s); latency p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
            f"max {lat[-1] * 1000:.0f} ms"
        )
    for p, (now, peak) in zip(procs, mem, strict=True):
        try:
            gcs = json.loads(Path(f"{out}.{p.pid}").read_text())
        except OSError:
            print(f"  process {p.pid}: no GC report (did it stop cleanly?)")
            continue
        t1 = stats.stop
        t0 = t1 - args.duration
        seen = [(g, d, cpu) for t, g, d, cpu in gcs["pauses"] if t0 <= t <= t1]
        per = []
        for g in range(3):
            ds = [d for gg, d, _cpu in seen if gg == g]
            cpus = [cpu for gg, _d, cpu in seen if gg == g]
            per.append(
                f"gen{g}: {len(ds)}, max {max(ds, default=0) * 1000:.1f} ms "
                f"(CPU {max(cpus, default=0) * 1000:.1f} ms), total {sum(ds):.2f} s"
            )
        stepped = [(d, cpu) for t, d, cpu in gcs.get("steps", []) if t0 <= t <= t1]
        if stepped:
            per.append(
                f"freezer steps (collection and bookkeeping): {len(stepped)}, max "
                f"{max(d for d, _c in stepped) * 1000:.1f} ms (CPU {max(c for _d, c in stepped) * 1000:.1f} ms)"
            )
        over = sorted(d for _g, d, _cpu in seen if d > 0.05)
        print(f"  process {p.pid}: RSS {now:.0f} MB (peak {peak:.0f} MB), frozen {gcs['frozen']} objects at exit")
        print(
            f"    collections in the measured window: {'; '.join(per)}; over 50 ms: {len(over)}"
            + (f" ({', '.join(f'{d * 1000:.0f}' for d in over[-10:])} ms)" if over else "")
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=300)
    p.add_argument("--processes", type=int, default=2, help="Server processes (more than 1: PostgreSQL).")
    p.add_argument("--think", type=float, default=2.0, help="A seat's mean pace in seconds (0: closed loop).")
    p.add_argument("--duration", type=float, default=180.0, help="Measured seconds.")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--game", default="rank")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--preset", default=None)
    p.add_argument("--baseline", metavar="REV", help="Also measure the server of this git revision, first.")
    args = bs.with_defaults(p.parse_args())  # (no kill, no bots, guests)
    tmp = Path(tempfile.mkdtemp(prefix="cc-bench-gc-"))
    url: str | None = None
    db_pid: int | None = None
    stop_pg: Callable[[], None] = lambda: None  # noqa: E731
    if args.processes > 1:
        url, db_pid, stop_pg = bs.start_postgres(tmp)
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    trees = [(f"baseline {args.baseline}", bs.extract(args.baseline))] if args.baseline else []
    trees.append(("this tree", bs.ROOT))
    try:
        for i, (label, tree) in enumerate(trees):
            where = bs.fresh_database(url, f"gc{i}") if url else None
            measure(label, tree, where, tmp, args, db_pid)
        return 0
    finally:
        stop_pg()
        shutil.rmtree(tmp, ignore_errors=True)
        for _label, tree in trees:
            if tree != bs.ROOT:
                shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
