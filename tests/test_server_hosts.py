"""Allowed hosts (issue 30, item 5): a request or WebSocket naming another Host is refused (DNS
rebinding), on HTTP and WebSocket alike; ``courtcards serve`` allows its own address and localhost."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from test_server_api import create

from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig, default_hosts, host_allowed, host_name
from courtcards.server.pages import lan_ips


def test_host_names_and_patterns() -> None:
    assert host_name("LocalHost:8000") == "localhost" and host_name("[::1]:8000") == "::1"
    assert host_name("example.com.") == "example.com" and host_name("::1") == "::1"
    allowed = ("localhost", "127.0.0.1", "::1", "*.example.com")
    for ok in ("localhost", "localhost:80", "127.0.0.1:8000", "[::1]:8000", "cards.example.com"):
        assert host_allowed(ok, allowed), ok
    for bad in ("evil.example", "example.com", "localhost.evil.example", "", None, "127.0.0.2"):
        assert not host_allowed(bad, allowed), bad
    assert host_allowed("anything", ()) and host_allowed("anything", ("*",))


def test_serve_allows_its_address_and_localhost_and_the_lan_on_every_interface() -> None:
    assert default_hosts("127.0.0.1") == ("127.0.0.1", "localhost", "::1")
    assert default_hosts("10.1.2.3")[:2] == ("10.1.2.3", "localhost")
    everywhere = default_hosts("0.0.0.0")
    assert "0.0.0.0" not in everywhere and "localhost" in everywhere
    assert set(lan_ips()) <= set(everywhere)


def test_other_hosts_are_refused_on_http_and_websocket(tmp_path: Path) -> None:
    config = ServerConfig(allowed_hosts=("localhost", "127.0.0.1"))
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"), config=config)) as c:
        r = c.get("/api/games", headers={"host": "evil.example"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_host", r.text
        r = c.post("/api/tables", json={"game": "royale"}, headers={"host": "evil.example:8000"})
        assert r.status_code == 400 and c.app.state.lobby.tables == {}  # type: ignore[attr-defined]
        assert c.get("/api/games", headers={"host": "localhost:8000"}).status_code == 200
        c.headers["host"] = "127.0.0.1:8000"
        tid = create(c, "royale", 2)["id"]
        origin = {"host": "evil.example", "origin": "http://evil.example"}  # a rebound name, its own Origin
        with pytest.raises(WebSocketDenialResponse) as denied:
            c.websocket_connect(f"/ws/tables/{tid}", headers=origin).__enter__()
        assert denied.value.status_code == 400 and denied.value.json()["error"]["code"] == "bad_host"
        with c.websocket_connect(f"/ws/tables/{tid}", headers={"host": "localhost:8000"}) as ws:
            assert ws.receive_json()["type"] == "state"
