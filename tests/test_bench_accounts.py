"""bench_server.py's accounts mode (issue 28's load figure) plays what it says: accounts signed up
through the API hold the seats of rated tables (which refuse guests), their games end and start again,
they poll their games and chat, and nothing is refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_accounts_bench_seats_accounts_at_rated_tables_that_end_and_start_again() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "bench_server.py"), "--tables", "2", "--accounts", "6"]
    cmd += ["--think", "0.05", "--duration", "3", "--warmup", "0.5", "--preset", "tiny", "--chat", "0.5"]
    cmd += ["--poll", "0.5", "--stagger", "4"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=240, cwd=ROOT).stdout
    assert "6 accounts made" in out, out
    assert "seats: 6 accounts in rated games" in out, out
    assert "failed" not in out and "refused" not in out, out
    games = re.search(r"games finished: (\d+)", out)
    polls = re.search(r"besides: (\d+) my-games requests .*, (\d+) chat messages", out)
    assert games and polls, out
    assert int(games[1]) >= 2  # rated games ended, were rated, and new tables were made by accounts
    assert int(polls[1]) > 0 and int(polls[2]) > 0


def test_sampling_the_survivor_is_refused_before_any_work_without_py_spy_or_a_kill() -> None:
    script = str(ROOT / "bench" / "bench_server.py")
    for extra, why in (([], "add --kill"), (["--kill"], "needs py-spy on PATH")):
        cmd = [sys.executable, script, "--processes", "2", "--sample-survivor", "s.txt", *extra]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=ROOT, env={"PATH": ""})
        assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr, done.stderr
