"""`courtcards serve` refuses what cannot work in one line, without a traceback (issue 16 item 4)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from courtcards.cli.main import app

runner = CliRunner()


def one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, ["serve", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_port_out_of_range() -> None:
    assert "--port must be 0..65535, not 99999" in one_line_error(["--port", "99999"])


def test_port_in_use() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert f"cannot listen on 127.0.0.1:{port}" in one_line_error(["--port", str(port)])


def test_sqlite_in_a_missing_folder(tmp_path: Path) -> None:
    msg = one_line_error(["--port", "0", "--database", str(tmp_path / "nope" / "cc.sqlite")])
    assert f"the folder {tmp_path / 'nope'} for the SQLite database does not exist" in msg
    assert not (tmp_path / "nope").exists()


def test_unreachable_postgres_hides_the_password() -> None:
    pytest.importorskip("psycopg")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    msg = one_line_error(["--port", "0", "--database-url", f"postgresql://cc:secretpw@127.0.0.1:{port}/cc"])
    assert "cannot open the database postgresql+psycopg://***@127.0.0.1" in msg and "secretpw" not in msg


def test_postgres_url_without_the_driver_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails as if not installed
    msg = one_line_error(["--port", "0", "--database-url", "postgresql://cc@127.0.0.1/cc"])
    assert "pip install 'courtcards[postgres]'" in msg


def test_bad_rate_and_log_level() -> None:
    assert "'lots' is not a rate like 30/minute" in one_line_error(["--rate-join", "lots"])
    assert "--log-level must be debug" in one_line_error(["--log-level", "loud"])


def test_default_database_is_ignored_by_git() -> None:
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    for name in ("courtcards.sqlite", "courtcards.sqlite-wal", "courtcards.sqlite-shm"):
        r = subprocess.run(["git", "check-ignore", "-q", name], cwd=root, capture_output=True, timeout=30)
        assert r.returncode == 0, f"{name} would show as untracked"
