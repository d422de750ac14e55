"""``pytest tests/browser`` on a machine without chromium or playwright skips with the reason (no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_browser_tests(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests/browser", "-q", "-rs", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, **env},
    )


def test_without_chromium_every_browser_test_skips_saying_why(tmp_path: Path) -> None:
    res = run_browser_tests(tmp_path, COURTCARDS_CHROMIUM=str(tmp_path / "no-chromium"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr and "INTERNALERROR" not in res.stdout + res.stderr
    assert set(res.stdout.split()[0]) == {"s"}  # the progress line: every test skipped
    assert f"browser tests need Debian's chromium at {tmp_path / 'no-chromium'}" in res.stdout


def test_without_playwright_the_browser_tests_skip_saying_why(tmp_path: Path) -> None:
    fake = tmp_path / "playwright"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ModuleNotFoundError('no playwright', name='playwright')\n")
    res = run_browser_tests(tmp_path, PYTHONPATH=str(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr and "error" not in res.stdout.lower()
    assert "browser tests need playwright: pip install -e '.[dev]'" in res.stdout
    assert set(res.stdout.split()[0]) == {"s"}
