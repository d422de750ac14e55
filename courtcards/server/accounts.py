"""Optional accounts: a username and a password (argon2id), sessions in cookies, and the seats an
account holds. Guests play without one, exactly as before; a guest's seat can be claimed later.

Security, in short: a session cookie is random (32 bytes), HttpOnly, SameSite=Strict, Secure over
HTTPS, and stored only as its SHA-256; signing in always makes a new session (never adopts the
cookie the browser sent: no session fixation). A request that changes something with a session
must carry the session's CSRF token in ``X-CSRF-Token`` (double submit against the server's copy)
and, when the browser sends one, an Origin of this server. Sign-ins and sign-ups are rate-limited
per address and per username. Passwords are never logged, stored or echoed: only their hashes.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.engine import Connection, Engine

from courtcards.server.db import accounts_t, seats_t, sessions_t

log = logging.getLogger("courtcards.server")

COOKIE = "cc_session"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
USERNAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,31}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256

_hasher = PasswordHasher()  # argon2id with the library's current recommended parameters
# checked against when the username does not exist, so that a wrong name takes as long as a wrong password
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


def username_fault(name: str) -> str | None:
    if not USERNAME_RE.fullmatch(name):
        return "usernames are 3-32 letters, digits, '_', '.' or '-', beginning with a letter or digit"
    return None


def password_fault(password: str) -> str | None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"passwords are {MIN_PASSWORD}-{MAX_PASSWORD} characters"
    return None


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(stored: str, password: str) -> bool:
    try:
        return bool(_hasher.verify(stored, password))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Account:
    id: int
    username: str


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str


class AccountError(Exception):
    """An operator command that cannot be done (the message says why)."""


# -- operator and sign-up: synchronous, for the CLI and a worker thread ----------------------------
def create_account(engine: Engine, username: str, password: str) -> Account:
    fault = username_fault(username) or password_fault(password)
    if fault is not None:
        raise AccountError(fault)
    digest = hash_password(password)
    try:
        with engine.begin() as conn:
            aid = conn.execute(
                accounts_t.insert()
                .values(
                    username=username,
                    username_key=username.lower(),
                    password_hash=digest,
                    created=time.time(),
                    disabled=False,
                )
                .returning(accounts_t.c.id)
            ).scalar_one()
    except sa.exc.IntegrityError:
        raise AccountError(f"the username {username!r} is taken") from None
    log.info("account %d created", aid)
    return Account(int(aid), username)


def _find(conn: Connection, username: str) -> Any:
    return conn.execute(sa.select(accounts_t).where(accounts_t.c.username_key == username.lower())).mappings().first()


def set_disabled(engine: Engine, username: str, disabled: bool) -> None:
    """Disable (ending its sessions) or enable an account."""
    with engine.begin() as conn:
        row = _find(conn, username)
        if row is None:
            raise AccountError(f"there is no account {username!r}")
        conn.execute(sa.update(accounts_t).where(accounts_t.c.id == row["id"]).values(disabled=disabled))
        if disabled:
            conn.execute(sessions_t.delete().where(sessions_t.c.account_id == row["id"]))
    log.info("account %d %s", row["id"], "disabled" if disabled else "enabled")


def reset_password(engine: Engine, username: str, password: str) -> None:
    """A new password; every session of the account ends."""
    fault = password_fault(password)
    if fault is not None:
        raise AccountError(fault)
    digest = hash_password(password)
    with engine.begin() as conn:
        row = _find(conn, username)
        if row is None:
            raise AccountError(f"there is no account {username!r}")
        conn.execute(sa.update(accounts_t).where(accounts_t.c.id == row["id"]).values(password_hash=digest))
        conn.execute(sessions_t.delete().where(sessions_t.c.account_id == row["id"]))
    log.info("account %d: password reset by the operator", row["id"])


def list_accounts(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(accounts_t.c.username, accounts_t.c.created, accounts_t.c.disabled).order_by(
                accounts_t.c.username_key
            )
        ).mappings()
        return [dict(r) for r in rows]


def authenticate(engine: Engine, username: str, password: str) -> Account | None:
    """The account if the password is right and it is not disabled (the same time either way)."""
    with engine.connect() as conn:
        row = _find(conn, username)
    if row is None:
        check_password(_DUMMY_HASH, password)
        return None
    if not check_password(row["password_hash"], password) or row["disabled"]:
        return None
    return Account(int(row["id"]), str(row["username"]))


def new_session(engine: Engine, account: Account, old_token: str | None) -> tuple[str, str]:
    """A fresh session for ``account`` (the browser's old one, if any, ends): its cookie and CSRF token."""
    token, csrf, now = secrets.token_urlsafe(32), secrets.token_urlsafe(24), time.time()
    with engine.begin() as conn:
        if old_token:
            conn.execute(sessions_t.delete().where(sessions_t.c.id_hash == session_hash(old_token)))
        conn.execute(sessions_t.delete().where(sessions_t.c.account_id == account.id, sessions_t.c.expires < now))
        conn.execute(
            sessions_t.insert().values(
                id_hash=session_hash(token),
                account_id=account.id,
                csrf=csrf,
                created=now,
                expires=now + SESSION_DAYS * 86400,
            )
        )
    return token, csrf


def find_session(engine: Engine, token: str) -> Session | None:
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(accounts_t.c.id, accounts_t.c.username, sessions_t.c.csrf)
            .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
            .where(
                sessions_t.c.id_hash == session_hash(token),
                sessions_t.c.expires > time.time(),
                accounts_t.c.disabled.is_(False),
            )
        ).first()
    return None if row is None else Session(Account(int(row[0]), str(row[1])), str(row[2]))


def end_session(engine: Engine, token: str) -> None:
    with engine.begin() as conn:
        conn.execute(sessions_t.delete().where(sessions_t.c.id_hash == session_hash(token)))


def account_seats(engine: Engine, account_id: int, limit: int) -> list[tuple[str, int]]:
    """(table id, seat) of every seat the account holds, the most recently active tables first."""
    from courtcards.server.db import tables_t

    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(seats_t.c.table_id, seats_t.c.seat)
            .join(tables_t, tables_t.c.id == seats_t.c.table_id)
            .where(seats_t.c.account_id == account_id)
            .order_by(tables_t.c.updated.desc(), tables_t.c.id, seats_t.c.seat)
            .limit(limit)
        )
        return [(str(t), int(s)) for t, s in rows]


# -- the request side -----------------------------------------------------------------------------
async def session_of(engine: Engine, cookie: str | None) -> Session | None:
    if not cookie or len(cookie) > 128:
        return None
    return await asyncio.to_thread(find_session, engine, cookie)


def csrf_ok(session: Session, header: str | None) -> bool:
    return header is not None and hmac.compare_digest(session.csrf.encode(), header.encode()[:128])
