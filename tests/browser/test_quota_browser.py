"""The lobby shows the server's refusal of one more table with a search-bot seat (issue 30, item 9: the
per-address quota on CPU-heavy seats), and still makes a table with other bots. A server of its own,
started with a cap of one such table per address, so the session's server keeps its defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_ui import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    folder = tmp_path_factory.mktemp("capped")
    args = ["serve", "--port", str(port), "--database", str(folder / "cc.sqlite")]
    args += ["--max-search-tables-per-address", "1", "--compute-workers", "0"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with (folder / "server.log").open("wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "courtcards", *args], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/games", timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None, (folder / "server.log").read_text()[-2000:]
                assert time.time() < end, "the server did not start in 30 s"
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_lobby_shows_the_search_table_quota(browser: Browser, capped: str) -> None:
    seats = [{"type": "human"}, {"type": "bot", "bot": "ismcts"}]  # the person's seat is free: the bot waits
    body = json.dumps({"game": "royale", "players": 2, "seats": seats}).encode()
    request = urllib.request.Request(capped + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()  # this address's one table with a search bot

    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = ctx.new_page()
        page.set_default_timeout(60000)
        page.goto(capped + "/")
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        page.select_option("#game", "royale")
        page.fill("#players", "2")
        page.dispatch_event("#players", "input")
        page.wait_for_selector("#seat-1")
        page.select_option("#seat-1", "bot:ismcts")
        page.click("#create")
        expect(page.locator("#create-error")).to_contain_text(
            "Could not create the table: this address has 1 table with search bots in play (at most 1)"
        )
        assert page.locator("#created .link-row").count() == 0
        page.select_option("#seat-1", "bot:random")  # other bots are not counted
        page.click("#create")
        page.wait_for_selector("#created .link-row")
        expect(page.locator("#create-error")).to_have_text("")
    finally:
        ctx.close()
