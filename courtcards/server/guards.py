"""The server's limits: sizes, per-address rates, origins and the headers of every answer."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import secrets
import socket
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import sqlalchemy as sa
from limits import RateLimitItem, parse, storage, strategies
from sqlalchemy.engine import Engine
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from courtcards.server.db import rate_hits_t
from courtcards.server.logs import REQUEST_ID
from courtcards.server.tables import ApiError, LobbyConfig

log = logging.getLogger("courtcards.server")

PAGE_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
PAGE_PREFIXES = ("/static/", "/table/", "/join/", "/replay/", "/leaderboard", "/players/")
SWEEP_LOCK = 0x63635357  # the advisory lock of the rate-limit sweep
OPERATOR_PATHS = ("/healthz", "/readyz", "/metrics")  # probes and scrapes: not counted as reads
REQUEST_ID_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")  # an X-Request-ID from a proxy is kept if it looks like one
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]


@dataclass
class ServerConfig:
    """Every limit of the server; ``courtcards serve`` sets them from its options."""

    max_body: int = 64 * 1024  # bytes of an HTTP request body
    max_message: int = 16 * 1024  # bytes of a WebSocket message
    max_action: int = 512  # characters of an action text
    max_queue: int = 256  # messages waiting for one slow connection before it is dropped
    send_timeout: float = 30.0  # seconds one message may take to send before the connection is dropped
    rate_create: str = "30/minute"  # tables created per client address ("" or "none": no limit)
    rate_join: str = "60/minute"  # seats joined per address
    rate_connect: str = "120/minute"  # WebSocket connections per address
    rate_rematch: str = "30/minute"  # rematches asked for per address
    rate_read: str = "600/minute"  # GET requests per address (counted in each process)
    rate_login: str = "10/minute"  # sign-in attempts per address, and per username
    rate_signup: str = "10/hour"  # accounts created per address
    rate_chat: str = "10/10 seconds"  # chat messages per connection
    secure_cookies: bool = False  # session cookies Secure even over plain HTTP (behind a TLS proxy)
    max_spectators: int = 500  # spectator sockets per table (0: no cap)
    max_spectators_per_address: int = 50  # spectator sockets of one address, all tables (0: no cap)
    # state pushes a second shared by all of a process's spectators (SpectatorPace; 0: every state at once)
    spectator_rate: float = 2000.0
    compute_workers: int = 1  # worker processes for search bots and hints (0: threads, in this process)
    compute_queue: int = 64  # searches waiting for a worker besides those running
    # tables in play with a CPU-heavy (search) bot seat, in one server process / made from one address (0: no cap)
    max_search_tables: int = 32
    max_search_tables_per_address: int = 4
    max_hints: int = 2  # hint searches running at once in one server process (0: no cap)
    max_hints_per_address: int = 1  # hint searches of one client address running at once (0: no cap)
    max_inflight: int = 16  # HTTP requests of one address being answered at once (0: no cap)
    max_connections: int = 256  # open connections (HTTP and WebSocket) per address (courtcards serve; 0: none)
    head_timeout: float = 10.0  # seconds a connection may take to send a request's head (courtcards serve)
    max_head: int = 64 * 1024  # bytes of a request's head: line and headers (courtcards serve)
    proxies: tuple[str, ...] = ()  # reverse proxies' addresses: trusted for X-Forwarded-For, not capped
    allowed_origins: tuple[str, ...] = ()  # besides the server's own (scheme://host[:port])
    # Host headers answered (names, addresses, *.example.com; "*": any); empty: any (courtcards serve
    # always sets them: the bound address and localhost by default, against DNS rebinding)
    allowed_hosts: tuple[str, ...] = ()
    lobby: LobbyConfig = field(default_factory=LobbyConfig)


class DatabaseStorage(storage.Storage, storage.MovingWindowSupport):
    """A ``limits`` storage in the shared PostgreSQL database, so that with several server processes an
    address gets the site's rate, not N times it. One row per hit (``cc_rate_hits``); each hit takes a
    transaction-scoped advisory lock on its key, so processes count one at a time per key. Serves the
    moving-window strategy (the in-memory storage's, used with one process).

    It cannot deadlock: a hit holds one advisory lock (its key's) and only counts and inserts rows, so
    it never waits for a row another transaction holds; old rows are deleted by the sweep alone, one
    sweep at a time, which holds no key's lock."""

    def __init__(self, engine: Engine, horizon: float = 86400.0) -> None:
        super().__init__()
        self.engine = engine
        self.horizon = horizon  # hits older than this count for no limit: swept now and then
        self._hits = 0

    @property
    def base_exceptions(self) -> type[Exception]:
        return sa.exc.SQLAlchemyError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(key))))
            count = conn.execute(
                sa.select(sa.func.count()).where(rate_hits_t.c.key == key, rate_hits_t.c.at > now - expiry)
            ).scalar_one()
            if count + amount > limit:
                return False
            conn.execute(rate_hits_t.insert(), [{"key": key, "at": now}] * amount)
        self._hits += 1
        if self._hits % 1000 == 0:
            self._sweep(now)
        return True

    def _sweep(self, now: float) -> None:
        """Other addresses' old hits: in a transaction of its own (never while a key's lock is held), by one
        process at a time (two sweeps deleting the same rows in different orders could deadlock)."""
        try:
            with self.engine.begin() as conn:
                if conn.execute(sa.select(sa.func.pg_try_advisory_xact_lock(SWEEP_LOCK))).scalar():
                    conn.execute(rate_hits_t.delete().where(rate_hits_t.c.at < now - self.horizon))
        except sa.exc.SQLAlchemyError as exc:  # a sweep missed is made up by the next
            log.warning("rate-limit sweep skipped: %s", type(exc).__name__)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self.engine.connect() as conn:
            first, count = conn.execute(
                sa.select(sa.func.min(rate_hits_t.c.at), sa.func.count()).where(
                    rate_hits_t.c.key == key, rate_hits_t.c.at > now - expiry
                )
            ).one()
        return (float(first) if first is not None else now), int(count)

    def check(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(1)).scalar() == 1

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(rate_hits_t.delete().where(rate_hits_t.c.key == key))

    def reset(self) -> int | None:
        with self.engine.begin() as conn:
            return int(conn.execute(rate_hits_t.delete()).rowcount)

    # The fixed-window strategies' counters: not used (the server counts with the moving window).
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        raise NotImplementedError("DatabaseStorage serves the moving-window strategy only")

    def get(self, key: str) -> int:
        raise NotImplementedError("DatabaseStorage serves the moving-window strategy only")

    def get_expiry(self, key: str) -> float:
        raise NotImplementedError("DatabaseStorage serves the moving-window strategy only")


class RateLimits:
    """Per-address moving-window limits (the ``limits`` library): in memory with one process (SQLite),
    in the shared database (:class:`DatabaseStorage`) when processes share PostgreSQL."""

    def __init__(self, config: ServerConfig, shared: Engine | None = None) -> None:
        self._items: dict[str, RateLimitItem | None] = {
            "create": _item(config.rate_create),
            "join": _item(config.rate_join),
            "connect": _item(config.rate_connect),
            "rematch": _item(config.rate_rematch),
            "read": _item(config.rate_read),
            "login": _item(config.rate_login),
            "signup": _item(config.rate_signup),
        }
        self.shared = shared is not None
        store: storage.Storage
        if shared is not None:
            horizon = max((i.get_expiry() for i in self._items.values() if i is not None), default=60)
            store = DatabaseStorage(shared, horizon)
        else:
            store = storage.MemoryStorage()
        self._limiter = strategies.MovingWindowRateLimiter(store)
        # reads are many and cheap: counted in this process's memory, never in the database
        self._local = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    async def check(self, what: str, address: str) -> None:
        """Count one ``what`` for ``address``; ApiError 429 if over the limit."""
        if self._items[what] is None:
            return
        if not self.shared or what in LOCAL:
            self._hit(what, address)
            return
        try:
            await asyncio.to_thread(self._hit, what, address)
        except sa.exc.SQLAlchemyError as exc:  # the request itself will meet the database's failure
            log.error("rate limit not counted: %s", type(exc).__name__)

    def _hit(self, what: str, address: str) -> None:
        item = self._items[what]
        limiter = self._local if what in LOCAL else self._limiter
        if item is None or limiter.hit(item, what, address):
            return
        reset = limiter.get_window_stats(item, what, address).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise ApiError(
            429, "rate_limited", f"too many {_NOUNS[what]} from this address (at most {item}); try again in {wait} s"
        )


_NOUNS = {
    "create": "new tables",
    "join": "joins",
    "connect": "connections",
    "rematch": "rematches",
    "read": "reads",
    "login": "sign-in attempts",
    "signup": "new accounts",
}
LOCAL = frozenset({"read"})


def _item(spec: str) -> RateLimitItem | None:
    if spec.strip().lower() in ("", "none", "off"):
        return None
    return parse(spec)


def rate_item(spec: str) -> RateLimitItem | None:
    """The limit ``spec`` means (None: no limit)."""
    return _item(spec)


def check_rate(spec: str) -> str:
    """``spec`` if ``limits`` can read it (e.g. 30/minute), else ValueError naming the input."""
    try:
        _item(spec)
    except ValueError:
        raise ValueError(f"{spec!r} is not a rate like 30/minute, 5/second or none") from None
    return spec


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Browsers send Origin: it must be this server (or listed). Other clients send none."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


def host_name(header: str | None) -> str:
    """The host of a Host header, without its port (IPv6 addresses without their brackets), lower case."""
    value = (header or "").strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else ""
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def host_allowed(header: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a request's Host header names this server (``allowed``: names, addresses, *.domain, *)."""
    if not allowed or "*" in allowed:
        return True
    host = host_name(header)
    if not host:
        return False
    for pattern in allowed:
        pattern = pattern.lower()
        if host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


def default_hosts(bound: str) -> tuple[str, ...]:
    """The Host headers ``courtcards serve --host bound`` answers by default: the bound address and
    localhost, and when bound to every interface (0.0.0.0, ::) this machine's name and LAN addresses."""
    from courtcards.server.pages import lan_ips

    hosts = [bound, "localhost", "127.0.0.1", "::1"]
    if bound in ("0.0.0.0", "::", ""):
        name = socket.gethostname()
        hosts = [*hosts[1:], name, f"{name}.local", *lan_ips()]
    return tuple(dict.fromkeys(h.lower() for h in hosts if h))


class Guard:
    """ASGI middleware: refuses requests and WebSockets whose Host is not this server's (DNS rebinding),
    bodies over ``max_body`` bytes, and adds security headers to answers."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        allowed_hosts: tuple[str, ...] = (),
        rates: RateLimits | None = None,
        max_inflight: int = 0,
        max_head: int = 0,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.allowed_hosts = allowed_hosts
        self.rates = rates
        self.max_inflight = max_inflight
        self.max_head = max_head  # uvicorn bounds a head that arrives in pieces; this, one that came whole
        self.inflight: dict[str, int] = {}  # address -> HTTP requests being answered

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
            rid = given if REQUEST_ID_RE.fullmatch(given) else secrets.token_hex(8)
            REQUEST_ID.set(rid)  # this task's context: the request's (or socket's) log lines carry it
            scope.setdefault("state", {})["request_id"] = rid
        if self.max_head and scope["type"] in ("http", "websocket"):
            size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
            size += sum(len(k) + len(v) + 4 for k, v in scope["headers"])
            if size > self.max_head:
                refusal = JSONResponse(
                    {
                        "error": {
                            "code": "headers_too_large",
                            "message": f"request heads are at most {self.max_head} bytes",
                        }
                    },
                    status_code=431,
                    headers={"connection": "close"},
                )
                await refusal(scope, receive, send)
                return
        if scope["type"] in ("http", "websocket") and self.allowed_hosts:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.allowed_hosts):
                # a WebSocket gets the same answer instead of the handshake (the denial response)
                refusal = JSONResponse(
                    {"error": {"code": "bad_host", "message": f"this server does not answer for host {host[:64]!r}"}},
                    status_code=400,
                    headers={"connection": "close"},
                )
                await refusal(scope, receive, send)
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = scope["client"][0] if scope.get("client") else "unknown"
        busy = self.inflight.get(address, 0)
        if self.max_inflight and busy >= self.max_inflight:
            await _refuse(send, 429, "too_many_requests", f"at most {self.max_inflight} requests at once per address")
            return
        if self.rates is not None and scope["method"] in ("GET", "HEAD") and scope["path"] not in OPERATOR_PATHS:
            try:
                await self.rates.check("read", address)
            except ApiError as exc:
                await _refuse(send, exc.status, exc.code, exc.message)
                return
        self.inflight[address] = busy + 1
        try:
            await self._http(scope, receive, send)
        finally:
            left = self.inflight[address] - 1
            if left:
                self.inflight[address] = left
            else:
                del self.inflight[address]

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _too_large(send, self.max_body)
            return
        # Bodies are small: read it all first (refusing it past the limit), then hand it on.
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:
            msg = await receive()
            if msg["type"] != "http.request":
                return  # the client went away
            chunks.append(msg.get("body", b""))
            seen += len(chunks[-1])
            if seen > self.max_body:
                await _too_large(send, self.max_body)
                return
            more = msg.get("more_body", False)
        body: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Message:
            return body.pop() if body else await receive()

        page = scope["path"] == "/" or scope["path"].startswith(PAGE_PREFIXES)

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                extra = [*HEADERS, (b"x-request-id", (REQUEST_ID.get() or "-").encode())]
                if page:
                    extra.append((b"content-security-policy", PAGE_CSP.encode()))
                msg = {**msg, "headers": [*msg.get("headers", []), *extra]}
            await send(msg)

        await self.app(scope, replay, with_headers)


async def _too_large(send: Send, limit: int) -> None:
    await _refuse(send, 413, "body_too_large", f"request bodies are at most {limit} bytes")


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
