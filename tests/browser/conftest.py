"""Browser tests: a real `courtcards serve` driven by Playwright with Debian's chromium.

They skip with a clear reason when chromium (/usr/bin/chromium, installed by .ci/setup-chromium.sh)
or the playwright package is missing. Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("COURTCARDS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
# The example plug-in packages (a game with no profile, a variant of Rank): the server registers them by
# importing them from their src/ (installed, as in CI, their entry points register them as well).
EXAMPLES_SRC = [ROOT / "examples" / "plugin-game" / "src", ROOT / "examples" / "rank-variant" / "src"]
SERVE_WITH_EXAMPLES = (
    "import sys, courtcards_fivetricks, courtcards_rank_knights\n"
    "from courtcards.cli.main import main\n"
    "sys.argv[0] = 'courtcards'\n"
    "main()"
)
# Screenshots go to pytest's temporary directory unless COURTCARDS_SCREENSHOTS names a directory
# (the committed ones: COURTCARDS_SCREENSHOTS=docs/screenshots python -m pytest tests/browser).
SCREENSHOTS_ENV = os.environ.get("COURTCARDS_SCREENSHOTS")

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # pragma: no cover - depends on the environment
    sync_playwright = None  # type: ignore[assignment]

Screenshot = Callable[["Page", str], Path]  # the screenshot fixture

PLAYWRIGHT_MISSING = "browser tests need playwright: pip install -e '.[dev]'"
CHROMIUM_MISSING = f"browser tests need Debian's chromium at {CHROMIUM} (run .ci/setup-chromium.sh as root)"
# A skip raised while a conftest is imported is a pytest error, not a skip: each test is marked instead.
SKIP_REASON = PLAYWRIGHT_MISSING if sync_playwright is None else None if os.path.exists(CHROMIUM) else CHROMIUM_MISSING


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SKIP_REASON is None:
        return
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, base: str) -> None:
        self.base = base

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def create_table(self, **body: Any) -> dict[str, Any]:
        body.setdefault("bot_delay", 0)
        table: dict[str, Any] = self.post("/api/tables", body)["table"]
        return table


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = _free_port()
    db = tmp_path_factory.mktemp("server") / "courtcards.sqlite"
    log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - closed below
    path = os.pathsep.join([*map(str, EXAMPLES_SRC), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    proc = subprocess.Popen(
        # one server for every browser test, all from one address: its per-address limits (600 GETs, 30 new
        # tables and 60 joins a minute by default, tested in tests/test_server_guards.py and
        # tests/test_server_limits.py) would refuse the suite's page loads, polls and tables when it runs fast
        [
            sys.executable,
            "-c",
            SERVE_WITH_EXAMPLES,
            "serve",
            "--port",
            str(port),
            "--database",
            str(db),
            "--rate-read",
            "100000/minute",
            "--rate-create",
            "100000/minute",
            "--rate-join",
            "100000/minute",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": path},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            if proc.poll() is not None:
                break
            try:
                urllib.request.urlopen(base + "/api/games", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not start in 15 s")
        if proc.poll() is not None:
            log.flush()
            pytest.fail("the server exited: " + db.with_suffix(".log").read_text()[-2000:])
        yield Server(base)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert sync_playwright is not None
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Pages:
    """Opens pages in fresh browser contexts and records console errors and page errors."""

    def __init__(self, browser: Browser, server: Server) -> None:
        self.browser = browser
        self.server = server
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def new(self, path: str = "/", width: int = 1280, height: int = 860) -> Page:
        ctx = self.browser.new_context(viewport={"width": width, "height": height})
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(60000)  # a wait returns as soon as the page is ready: generous for loaded machines
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.goto(self.server.base + path)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Browser, server: Server) -> Iterator[Pages]:
    p = Pages(browser, server)
    yield p
    p.close()
    assert p.errors == [], "errors in the browser console:\n" + "\n".join(p.errors)


@pytest.fixture(scope="session")
def screenshot(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Page, str], Path]:
    folder = (ROOT / SCREENSHOTS_ENV) if SCREENSHOTS_ENV else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
