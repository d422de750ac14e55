"""Accounts: sign-up, sign-in, sessions and their cookies, CSRF, rate limits, claiming a guest's seat,
"my games" for accounts and guests, the operator's CLI, and the upgrade of a database made before
accounts existed."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from courtcards.cli.main import app as cli_app
from courtcards.server import create_app, database_url
from courtcards.server.guards import ServerConfig

PASSWORD = "correct horse battery"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "cc.sqlite"


def server(db_path: Path, **config: Any) -> TestClient:
    return TestClient(create_app(database_url(None, db_path), config=ServerConfig(**config)))


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with server(db_path) as c:
        yield c


def browser(c: TestClient) -> TestClient:
    """Another browser (cookies of its own) on the same running server: it shares the server's event loop
    (a TestClient of its own would run each request in a loop of its own, where no table's task lives)."""
    other = TestClient(c.app)
    other.portal = c.portal
    return other


def state(c: TestClient) -> Any:
    return c.app.state  # type: ignore[attr-defined]


def db_file(c: TestClient) -> str:
    return str(state(c).lobby.store.engine.url.database)


def sign_up(c: TestClient, name: str, password: str = PASSWORD) -> str:
    r = c.post("/api/accounts", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def guest_table(c: TestClient) -> tuple[str, int, str]:
    """A table of one human and two bots, its human seat joined as a guest: (table, seat, token)."""
    body = {
        "game": "rank",
        "players": 3,
        "seed": 3,
        "bot_delay": 0,
        "seats": [{"type": "human"}, *[{"type": "bot"}] * 2],
    }
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    r = c.post(f"/api/tables/{tid}/join", json={"name": "Guest"})
    assert r.status_code == 200, r.text
    return tid, int(r.json()["seat"]), str(r.json()["token"])


def err(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


# -- sign-up, sign-in, cookies ---------------------------------------------------------------------
def test_sign_up_sets_an_httponly_samesite_cookie_and_signs_in(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"account": None, "csrf": None}
    r = client.post("/api/accounts", json={"username": "Ann", "password": PASSWORD})
    assert r.status_code == 201
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain HTTP here: a Secure cookie would never come back
    me = client.get("/api/session").json()
    assert me["account"] == {"username": "Ann"} and me["csrf"] == r.json()["csrf"]
    # the name is taken whatever its case
    other = browser(client)
    err(other.post("/api/accounts", json={"username": "ann", "password": PASSWORD}), 409, "username_taken")


def test_secure_cookie_over_https_and_when_configured(db_path: Path) -> None:
    with server(db_path, secure_cookies=True) as c:
        r = c.post("/api/accounts", json={"username": "ann", "password": PASSWORD})
        assert "secure" in r.headers["set-cookie"].lower()
    with TestClient(create_app(database_url(None, db_path)), base_url="https://testserver") as c:
        r = c.post("/api/session", json={"username": "ann", "password": PASSWORD})
        assert r.status_code == 200 and "secure" in r.headers["set-cookie"].lower()


def test_bad_usernames_and_passwords_are_refused(client: TestClient) -> None:
    for name in ("ab", "a b", "<script>", "x" * 33, "-lead"):
        err(client.post("/api/accounts", json={"username": name, "password": PASSWORD}), 422, "bad_request")
    err(client.post("/api/accounts", json={"username": "ann", "password": "short"}), 422, "bad_request")


def test_wrong_password_and_unknown_user_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "ann")
    fresh = browser(client)
    wrong = fresh.post("/api/session", json={"username": "ann", "password": "not the password"})
    nobody = fresh.post("/api/session", json={"username": "bob", "password": PASSWORD})
    for r in (wrong, nobody):
        err(r, 401, "bad_credentials")
        assert "set-cookie" not in r.headers
    assert wrong.json() == nobody.json()
    assert fresh.get("/api/session").json()["account"] is None
    ok = fresh.post("/api/session", json={"username": "ANN", "password": PASSWORD})  # names: any case
    assert ok.status_code == 200 and fresh.get("/api/session").json()["account"] == {"username": "ann"}


def test_sign_in_makes_a_new_session_never_the_one_the_browser_brought(client: TestClient) -> None:
    """Session fixation: a cookie planted before sign-in (made up, or the attacker's own session) is
    never the session the victim gets, and the planted real session ends."""
    sign_up(client, "ann")
    attacker = browser(client)
    sign_up(attacker, "mallory")
    planted = attacker.cookies["cc_session"]
    for value in ("chosen-by-the-attacker", planted):
        victim = browser(client)
        r = victim.post(
            "/api/session", json={"username": "ann", "password": PASSWORD}, headers={"cookie": f"cc_session={value}"}
        )
        assert r.status_code == 200
        fresh = r.cookies["cc_session"]
        assert fresh != value and len(fresh) >= 40
        assert victim.get("/api/session").json()["account"] == {"username": "ann"}
    # the attacker's session was the one planted: ended, so it cannot watch the victim's
    assert attacker.get("/api/session").json()["account"] is None
    # the stored session is the cookie's hash, never the cookie
    engine = sa.create_engine(database_url(None, Path(db_file(client))))
    with engine.connect() as conn:
        stored = [r[0] for r in conn.execute(sa.text("SELECT id_hash FROM cc_sessions"))]
    assert fresh not in stored and len(stored) >= 1


def test_sign_out_ends_the_session(client: TestClient) -> None:
    csrf = sign_up(client, "ann")
    cookie = client.cookies["cc_session"]
    err(client.delete("/api/session"), 403, "bad_csrf")
    assert client.delete("/api/session", headers={"x-csrf-token": csrf}).status_code == 200
    replay = browser(client)  # a copy of the old cookie is worth nothing now
    assert replay.get("/api/session", headers={"cookie": f"cc_session={cookie}"}).json()["account"] is None


# -- CSRF -------------------------------------------------------------------------------------------
def test_changes_need_the_csrf_token_and_this_sites_origin(client: TestClient) -> None:
    csrf = sign_up(client, "ann")
    tid, _, token = guest_table(client)
    claim = {"table": tid, "token": token}
    err(client.post("/api/account/claim", json=claim), 403, "bad_csrf")
    err(client.post("/api/account/claim", json=claim, headers={"x-csrf-token": "guess"}), 403, "bad_csrf")
    evil = {"x-csrf-token": csrf, "origin": "https://evil.example"}
    err(client.post("/api/account/claim", json=claim, headers=evil), 403, "bad_origin")
    # signing in from another site's page (login CSRF) is refused too
    err(
        client.post(
            "/api/session", json={"username": "ann", "password": PASSWORD}, headers={"origin": "https://evil.example"}
        ),
        403,
        "bad_origin",
    )
    assert client.get("/api/account/games").json()["games"] == []  # nothing was claimed
    ok = client.post("/api/account/claim", json=claim, headers={"x-csrf-token": csrf, "origin": "http://testserver"})
    assert ok.status_code == 200, ok.text


def test_a_join_without_the_csrf_token_is_a_guests(client: TestClient) -> None:
    """A join that carries the cookie but not the token (as another site's form could) binds no account."""
    csrf = sign_up(client, "ann")
    tid, _, _ = guest_table(client)  # joined with the cookie, without the token
    assert client.get("/api/account/games").json()["games"] == []
    body = {"game": "rank", "players": 3, "bot_delay": 0, "seats": [{"type": "human"}, *[{"type": "bot"}] * 2]}
    tid = client.post("/api/tables", json=body).json()["table"]["id"]
    assert client.post(f"/api/tables/{tid}/join", json={}, headers={"x-csrf-token": csrf}).status_code == 200
    assert [g["table"]["id"] for g in client.get("/api/account/games").json()["games"]] == [tid]


# -- rate limit ---------------------------------------------------------------------------------------
def test_sign_in_attempts_are_rate_limited_per_address_and_per_username(db_path: Path) -> None:
    with server(db_path, rate_login="3/minute") as c:
        sign_up(c, "ann")
        for _ in range(3):
            err(c.post("/api/session", json={"username": "ann", "password": "wrong password"}), 401, "bad_credentials")
        # the right password too: the limit counts attempts, so guessing stops
        err(c.post("/api/session", json={"username": "ann", "password": PASSWORD}), 429, "rate_limited")
    with server(db_path, rate_login="3/minute") as c:
        # per username: three attempts on "ann" from other addresses (this address has made none here)
        for _ in range(3):
            state(c).rates._hit("login", "user:ann")
        r = c.post("/api/session", json={"username": "Ann", "password": PASSWORD})
        err(r, 429, "rate_limited")
        assert "username" in r.json()["error"]["message"]


# -- passwords never logged or echoed -----------------------------------------------------------------
def test_passwords_are_never_logged_or_echoed(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    secret = "hunter2-but-longer"
    caplog.set_level(logging.DEBUG)
    answers = [
        client.post("/api/accounts", json={"username": "ann", "password": secret}),
        client.post("/api/session", json={"username": "ann", "password": secret + "x"}),
        client.post("/api/session", json={"username": "ann", "password": secret}),
        client.post("/api/accounts", json={"username": "bob", "password": secret * 100}),  # too long
        client.post("/api/accounts", json={"username": "bob", "password": 12345678}),  # not a string
    ]
    assert [a.status_code for a in answers] == [201, 401, 200, 422, 422]
    for a in answers:
        assert secret not in a.text and "12345678" not in a.text
    assert secret not in caplog.text
    with sqlite3.connect(db_file(client)) as con:
        (stored,) = con.execute("SELECT password_hash FROM cc_accounts").fetchone()
    assert stored.startswith("$argon2id$") and secret not in stored


# -- claiming a seat, my games, no leaks ----------------------------------------------------------------
def test_claim_a_guest_seat_then_play_it_from_another_browser(client: TestClient) -> None:
    tid, seat, token = guest_table(client)  # played as a guest, before the account existed
    csrf = sign_up(client, "ann")
    r = client.post("/api/account/claim", json={"table": tid, "token": token}, headers={"x-csrf-token": csrf})
    assert r.status_code == 200 and r.json()["seat"] == seat
    games = client.get("/api/account/games").json()["games"]
    assert [(g["table"]["id"], g["seat"]) for g in games] == [(tid, seat)]
    # another browser, signed in as ann, gets a token of its own for the seat: the old one ends
    laptop = browser(client)
    lcsrf = laptop.post("/api/session", json={"username": "ann", "password": PASSWORD}).json()["csrf"]
    new = laptop.post(f"/api/account/games/{tid}/token", headers={"x-csrf-token": lcsrf}).json()
    assert new["seat"] == seat and new["token"] != token
    with laptop.websocket_connect(f"/ws/tables/{tid}?token={new['token']}") as ws:
        assert ws.receive_json()["seat"] == seat
    with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        ws.receive_json()
        ws.receive_json()
    assert exc.value.code == 4401


def test_no_other_accounts_data_leaks(client: TestClient) -> None:
    tid, _, token = guest_table(client)
    ann = browser(client)
    acsrf = sign_up(ann, "ann")
    assert ann.post(
        "/api/account/claim", json={"table": tid, "token": token}, headers={"x-csrf-token": acsrf}
    ).is_success
    bob = browser(client)
    bcsrf = sign_up(bob, "bob")
    assert bob.get("/api/account/games").json()["games"] == []
    err(bob.post(f"/api/account/games/{tid}/token", headers={"x-csrf-token": bcsrf}), 404, "not_your_table")
    err(
        bob.post("/api/account/claim", json={"table": tid, "token": "guessed"}, headers={"x-csrf-token": bcsrf}),
        403,
        "bad_token",
    )
    # even with ann's seat token, bob cannot take a seat ann's account holds
    err(
        bob.post("/api/account/claim", json={"table": tid, "token": token}, headers={"x-csrf-token": bcsrf}),
        409,
        "seat_claimed",
    )
    # ann's CSRF token is no good with bob's cookie
    err(bob.post(f"/api/account/games/{tid}/token", headers={"x-csrf-token": acsrf}), 403, "bad_csrf")
    # a guest without a session sees nothing of either
    err(browser(client).get("/api/account/games"), 401, "not_signed_in")
    # nothing an account answers holds a password hash, a session or a seat token
    for c in (ann, bob):
        text = c.get("/api/account/games").text + c.get("/api/session").text
        assert "argon2" not in text and token not in text and "token_hash" not in text


def test_guest_games_come_from_the_tokens_the_browser_kept(client: TestClient) -> None:
    mine, seat, token = guest_table(client)
    other, _, _ = guest_table(client)  # someone else's
    body = {"seats": [{"table": mine, "token": token}, {"table": other, "token": "not-their-token"}]}
    games = client.post("/api/tables/mine", json=body).json()["games"]
    assert [(g["table"]["id"], g["seat"]) for g in games] == [(mine, seat)]
    assert client.post("/api/tables/mine", json={"seats": []}).json()["games"] == []
    too_many = {"seats": [{"table": mine, "token": token}] * 201}
    err(client.post("/api/tables/mine", json=too_many), 422, "bad_request")


def test_my_games_lists_your_move_first_and_finished_games(client: TestClient) -> None:
    csrf = sign_up(client, "ann")
    body = {"game": "rank", "players": 3, "seed": 5, "bot_delay": 0, "seats": [{"type": "human"}] * 3}
    waiting = client.post("/api/tables", json=body).json()["table"]["id"]
    client.post(f"/api/tables/{waiting}/join", json={}, headers={"x-csrf-token": csrf})
    playing = client.post("/api/tables", json={**body, "seats": [{"type": "human"}, *[{"type": "bot"}] * 2]})
    pid = playing.json()["table"]["id"]
    client.post(f"/api/tables/{pid}/join", json={}, headers={"x-csrf-token": csrf})
    deadline = time.monotonic() + 20
    while True:  # the bots (no delay) play until it is the human's turn
        games = client.get("/api/account/games").json()["games"]
        statuses = {g["table"]["id"]: (g["table"]["status"], g["your_move"]) for g in games}
        if statuses[pid][1] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert statuses == {waiting: ("open", False), pid: ("playing", True)}
    assert [g["table"]["id"] for g in games] == [pid, waiting]  # your move first


# -- the operator's CLI ------------------------------------------------------------------------------------
def test_accounts_cli_create_disable_enable_reset(db_path: Path) -> None:
    with server(db_path) as c:  # the server made the database
        pass
    runner = CliRunner()
    args = ["--database", str(db_path)]
    r = runner.invoke(cli_app, ["accounts", "create", "carol", *args, "--password-stdin"], input=PASSWORD + "\n")
    assert r.exit_code == 0 and "created" in r.output and PASSWORD not in r.output
    r = runner.invoke(cli_app, ["accounts", "create", "carol", *args, "--password-stdin"], input=PASSWORD + "\n")
    assert r.exit_code == 2 and "taken" in r.output
    r = runner.invoke(cli_app, ["accounts", "create", "dave", *args], input="pw-one-two\npw-one-two\n")
    assert r.exit_code == 0, r.output
    with server(db_path) as c:
        phone = browser(c)
        assert phone.post("/api/session", json={"username": "carol", "password": PASSWORD}).status_code == 200
        assert runner.invoke(cli_app, ["accounts", "disable", "carol", *args]).exit_code == 0
        assert phone.get("/api/session").json()["account"] is None  # its session ended
        err(c.post("/api/session", json={"username": "carol", "password": PASSWORD}), 401, "bad_credentials")
        assert runner.invoke(cli_app, ["accounts", "enable", "carol", *args]).exit_code == 0
        assert phone.post("/api/session", json={"username": "carol", "password": PASSWORD}).status_code == 200
        r = runner.invoke(cli_app, ["accounts", "reset", "carol", *args, "--password-stdin"], input="new password 1\n")
        assert r.exit_code == 0, r.output
        assert phone.get("/api/session").json()["account"] is None
        err(c.post("/api/session", json={"username": "carol", "password": PASSWORD}), 401, "bad_credentials")
        assert c.post("/api/session", json={"username": "carol", "password": "new password 1"}).status_code == 200
    r = runner.invoke(cli_app, ["accounts", "list", *args])
    assert r.exit_code == 0 and "carol" in r.output and "dave" in r.output and "argon2" not in r.output
    r = runner.invoke(cli_app, ["accounts", "disable", "nobody", *args])
    assert r.exit_code == 2 and "no account" in r.output
    r = runner.invoke(cli_app, ["accounts", "list", "--database", str(db_path.with_name("missing.sqlite"))])
    assert r.exit_code == 2 and "does not exist" in r.output


# -- the upgrade from the schema before accounts ---------------------------------------------------------
def test_upgrade_from_the_previous_head_keeps_tables_and_seats(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from courtcards.server import db as dbmod
    from courtcards.server.db import make_engine, migrate

    path = tmp_path / "old.sqlite"
    engine = make_engine(database_url(None, path))
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(dbmod.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        settings = json.dumps({"bot_delay": 0, "absent_timeout": 60, "move_time_limit": None, "hints": True})
        conn.execute(
            sa.text(
                "INSERT INTO cc_tables (id, game, players, options, seed, settings, created, finished, result,"
                " status, private, version, updated) VALUES ('abcdef', 'rank', 3, '{}', 9, :s, 1.0, 0, NULL,"
                " 'playing', 1, 0, 1.0)"
            ),
            {"s": settings},
        )
        digest = hashlib.sha256(b"old-token").hexdigest()
        for seat, kind, tok in ((0, "human", digest), (1, "bot", None), (2, "bot", None)):
            conn.execute(
                sa.text("INSERT INTO cc_seats VALUES ('abcdef', :s, :k, :b, :n, :t)"),
                {"s": seat, "k": kind, "b": None if kind == "human" else "random", "n": "Old", "t": tok},
            )
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT id, status, private FROM cc_tables")).all() == [("abcdef", "playing", 1)]
        seats = conn.execute(sa.text("SELECT seat, name, token_hash, account_id FROM cc_seats ORDER BY seat")).all()
        assert seats[0] == (0, "Old", digest, None) and len(seats) == 3
        assert conn.execute(sa.text("SELECT owner_hash FROM cc_tables")).scalar() is None
    engine.dispose()
    with TestClient(create_app(database_url(None, path))) as c:
        # the old guest seat still plays, and can be claimed into a new account
        with c.websocket_connect("/ws/tables/abcdef?token=old-token") as ws:
            assert ws.receive_json()["seat"] == 0
        csrf = sign_up(c, "ann")
        r = c.post("/api/account/claim", json={"table": "abcdef", "token": "old-token"}, headers={"x-csrf-token": csrf})
        assert r.status_code == 200, r.text
        assert [g["table"]["id"] for g in c.get("/api/account/games").json()["games"]] == ["abcdef"]
