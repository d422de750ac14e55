"""The server's limits: sizes, per-address rates, origins and the headers of every answer."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from limits import RateLimitItem, parse, storage, strategies
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from courtcards.server.tables import ApiError, LobbyConfig

PAGE_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
PAGE_PREFIXES = ("/static/", "/table/", "/join/", "/replay/")
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
    allowed_origins: tuple[str, ...] = ()  # besides the server's own (scheme://host[:port])
    lobby: LobbyConfig = field(default_factory=LobbyConfig)


class RateLimits:
    """Per-address moving-window limits (the ``limits`` library, in memory, per process)."""

    def __init__(self, config: ServerConfig) -> None:
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._items: dict[str, RateLimitItem | None] = {
            "create": _item(config.rate_create), "join": _item(config.rate_join),
            "connect": _item(config.rate_connect),
        }

    def check(self, what: str, address: str) -> None:
        """Count one ``what`` for ``address``; ApiError 429 if over the limit."""
        item = self._items[what]
        if item is None or self._limiter.hit(item, what, address):
            return
        reset = self._limiter.get_window_stats(item, what, address).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise ApiError(429, "rate_limited", f"too many {_NOUNS[what]} from this address (at most {item}); "
                                            f"try again in {wait} s")


_NOUNS = {"create": "new tables", "join": "joins", "connect": "connections"}


def _item(spec: str) -> RateLimitItem | None:
    if spec.strip().lower() in ("", "none", "off"):
        return None
    return parse(spec)


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


class Guard:
    """ASGI middleware: refuses bodies over ``max_body`` bytes, adds security headers to answers."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
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
                extra = list(HEADERS)
                if page:
                    extra.append((b"content-security-policy", PAGE_CSP.encode()))
                msg = {**msg, "headers": [*msg.get("headers", []), *extra]}
            await send(msg)

        await self.app(scope, replay, with_headers)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": {"code": "body_too_large",
                                 "message": f"request bodies are at most {limit} bytes"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
