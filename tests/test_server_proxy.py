"""The nginx configuration of docs/operations.md (deploy/nginx.conf), run in front of a live
`courtcards serve --proxy 127.0.0.1` (issue 30, item 7): TLS (a self-signed certificate made with the
openssl command), the lobby page, a game made and an action played over a WebSocket through nginx, the
client address the server sees (the X-Forwarded-For one), the request id, and no seat token in nginx's
access log. nginx runs unprivileged from its own prefix in a temporary folder (its pid file, temp
folders and logs there); without nginx (`.ci/setup-nginx.sh` installs Debian's) or openssl, it skips.

Every client here is on loopback, the proxy's own address, so an X-Forwarded-For the client sends is
kept and nginx appends 127.0.0.1 to it; uvicorn takes the last address that is not a trusted proxy's,
so the server counts the client by the address the test names. (From the internet, nginx appends the
client's real address, the last untrusted one: a forged header names nobody.)"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from websockets.sync.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx.conf"
HOST = "cards.example.org"


def _nginx() -> str | None:
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):  # Debian's, off a non-root PATH
        found = "/usr/sbin/nginx"
    return found


NGINX = _nginx()
OPENSSL = shutil.which("openssl")
SKIP_NGINX = "nginx is not installed (.ci/setup-nginx.sh installs Debian's): deploy/nginx.conf is not run"
SKIP_OPENSSL = "the openssl command is missing: no certificate for nginx's TLS"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def site_config(server_port: int, tls_port: int, http_port: int, folder: Path) -> str:
    """deploy/nginx.conf with this run's ports and paths: each replaced text must be in the file."""
    text = CONF.read_text()
    for old, new in (
        ("listen 443 ssl;", f"listen 127.0.0.1:{tls_port} ssl;"),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("/etc/letsencrypt/live/cards.example.org/fullchain.pem", str(folder / "cert.pem")),
        ("/etc/letsencrypt/live/cards.example.org/privkey.pem", str(folder / "key.pem")),
        ("/var/log/nginx/cards.log", str(folder / "access.log")),
        ("http://127.0.0.1:8000;", f"http://127.0.0.1:{server_port};"),
    ):
        assert old in text, f"deploy/nginx.conf no longer has {old!r}: update this test with it"
        text = text.replace(old, new)
    return text


class Proxied(NamedTuple):
    tls_port: int
    http_port: int
    folder: Path  # nginx's prefix: its configuration, certificate, logs
    server_log: Path
    context: ssl.SSLContext  # trusts the test's certificate


def wait_for(check: Any, what: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    end = time.time() + 30
    while True:
        with contextlib.suppress(OSError):
            if check():
                return
        assert proc.poll() is None, f"{what} stopped:\n{log.read_text() if log.exists() else ''}"
        assert time.time() < end, f"{what} did not start in 30 s"
        time.sleep(0.1)


def answers(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=1):
        return True


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    if NGINX is None:
        pytest.skip(SKIP_NGINX)
    if OPENSSL is None:
        pytest.skip(SKIP_OPENSSL)
    root = tmp_path_factory.mktemp("proxy")
    server_port, tls_port, http_port = free_port(), free_port(), free_port()
    server_log = root / "server.log"
    args = ["--port", str(server_port), "--database", str(root / "cc.sqlite"), "--allowed-host", HOST]
    args += ["--proxy", "127.0.0.1", "--max-search-tables-per-address", "1", "--compute-workers", "0"]
    with server_log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "courtcards", "serve", *args], stdout=out, stderr=out)
    # nginx's own folder, outside pytest's (whose parents only root may enter when the tests run as root):
    # as root, nginx runs as nobody, so it never holds root's rights (pytest's tmp_path is not for it)
    folder = Path(tempfile.mkdtemp(prefix="courtcards-nginx-"))
    user = pwd.getpwnam("nobody") if os.geteuid() == 0 else None
    nginx: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run(
            [
                *(OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={HOST}"),
                *("-addext", f"subjectAltName=DNS:{HOST}"),
                *("-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")),
            ],
            check=True,
            capture_output=True,
        )
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (folder / name).mkdir()
        (folder / "courtcards.conf").write_text(site_config(server_port, tls_port, http_port, folder))
        (folder / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
            "events { worker_connections 256; }\nhttp {\n"
            + "".join(
                f"    {n}_temp_path {folder}/{n};\n" for n in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            )
            + f"    access_log off;\n    include {folder}/courtcards.conf;\n}}\n"
        )
        if user is not None:
            for path in [folder, *folder.iterdir()]:
                os.chown(path, user.pw_uid, user.pw_gid)
        error_log = folder / "error.log"
        command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(error_log)]
        checked = subprocess.run(
            [*command, "-t"], capture_output=True, text=True, user=None if user is None else user.pw_uid
        )
        assert checked.returncode == 0, f"nginx -t refused deploy/nginx.conf:\n{checked.stderr}"
        nginx = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            user=None if user is None else user.pw_uid,
            group=None if user is None else user.pw_gid,
            extra_groups=None if user is None else [],
        )
        wait_for(lambda: answers(server_port), "courtcards serve", server, server_log)
        wait_for(lambda: answers(tls_port) and answers(http_port), "nginx", nginx, error_log)
        context = ssl.create_default_context(cafile=str(folder / "cert.pem"))
        yield Proxied(tls_port, http_port, folder, server_log, context)
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                nginx.wait(15)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait(15)
        server.terminate()
        server.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def https(
    p: Proxied, method: str, path: str, body: Any = None, forwarded: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """A request to nginx over TLS, for cards.example.org (its certificate is checked)."""
    conn = http.client.HTTPConnection("127.0.0.1", p.tls_port, timeout=20)
    # TLS, checking the certificate names the site (connected to its address: no DNS for the name)
    conn.sock = p.context.wrap_socket(
        socket.create_connection(("127.0.0.1", p.tls_port), timeout=20), server_hostname=HOST
    )
    headers = {"Host": HOST, "Connection": "close"}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def new_table(p: Proxied, bot: str, forwarded: str) -> tuple[int, dict[str, Any]]:
    seats = [{"type": "human"}, {"type": "bot", "bot": bot}]
    body = {"game": "royale", "players": 2, "seed": 3, "bot_delay": 0, "seats": seats}
    status, _, data = https(p, "POST", "/api/tables", body, forwarded)
    return status, json.loads(data)


def access_log(p: Proxied) -> str:
    return (p.folder / "access.log").read_text()


def test_operations_md_shows_the_tested_file() -> None:
    """The configuration the operator reads is the one this test runs, word for word."""
    doc = (ROOT / "docs" / "operations.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", doc, re.S)
    assert CONF.read_text() in blocks, "docs/operations.md must show deploy/nginx.conf verbatim in an nginx block"


def test_the_lobby_over_tls_and_plain_http_redirects(proxied: Proxied) -> None:
    status, headers, page = https(proxied, "GET", "/")
    assert status == 200 and b"<html" in page.lower(), page[:200]
    assert headers["content-type"].startswith("text/html")
    status, _, games = https(proxied, "GET", "/api/games")
    assert status == 200 and json.loads(games)["games"]
    assert https(proxied, "GET", "/metrics")[0] == 404  # kept off the public site
    assert https(proxied, "GET", "/readyz")[0] == 404
    conn = http.client.HTTPConnection("127.0.0.1", proxied.http_port, timeout=20)
    conn.request("GET", "/table/abc?token=secret-in-plain-http", headers={"Host": HOST})
    r = conn.getresponse()
    assert r.status == 301 and r.getheader("Location") == f"https://{HOST}/table/abc"
    conn.close()


def test_a_game_over_a_websocket_through_nginx(proxied: Proxied) -> None:
    status, made = new_table(proxied, "random", "203.0.113.20")
    assert status == 201, made
    tid = made["table"]["id"]
    status, headers, data = https(proxied, "POST", f"/api/tables/{tid}/join", {"seat": 0}, "203.0.113.20")
    assert status == 200, data
    token = json.loads(data)["token"]
    # nginx's request id reaches the server, which answers it back: the two logs can be joined
    assert re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"]), headers
    sock = socket.create_connection(("127.0.0.1", proxied.tls_port), timeout=20)
    played = None
    with ws_connect(
        f"wss://{HOST}/ws/tables/{tid}?token={token}",
        sock=sock,
        ssl=proxied.context,
        server_hostname=HOST,
        additional_headers={"X-Forwarded-For": "203.0.113.21"},
        open_timeout=20,
    ) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] != "state":
                continue
            if played is not None and msg["version"] > played["version"]:
                break  # the action was applied and pushed back through nginx
            if played is None and msg["legal"]:
                played = {"type": "action", "action": msg["legal"][0], "version": msg["version"]}
                ws.send(json.dumps(played))
    assert played is not None
    status, _, table = https(proxied, "GET", f"/api/tables/{tid}")
    assert status == 200 and json.loads(table)["table"]["version"] > played["version"]

    log = access_log(proxied)
    assert f"/ws/tables/{tid}" in log and f"/api/tables/{tid}/join" in log  # the requests were logged
    assert headers["x-request-id"] in log
    assert token not in log and "token=" not in log  # but never the seat token
    assert token not in (proxied.folder / "error.log").read_text()
    # the server saw the client's forwarded address on the WebSocket (its log hides the token)
    deadline = time.time() + 10
    while "203.0.113.21" not in proxied.server_log.read_text():
        assert time.time() < deadline, proxied.server_log.read_text()[-2000:]
        time.sleep(0.1)
    server_log = proxied.server_log.read_text()
    assert token not in server_log


def test_per_address_quotas_count_the_forwarded_address(proxied: Proxied) -> None:
    # the server runs with --max-search-tables-per-address 1: the second search table of one client
    # address is refused, another client's is made, though every request comes from nginx's 127.0.0.1
    status, made = new_table(proxied, "ismcts:5", "198.51.100.7")
    assert status == 201, made
    status, refused = new_table(proxied, "ismcts:5", "198.51.100.7")
    assert status == 429 and refused["error"]["code"] == "too_many_search_tables", refused
    status, other = new_table(proxied, "ismcts:5", "198.51.100.8")
    assert status == 201, other
