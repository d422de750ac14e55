"""Connections before they reach the app: uvicorn's h11 protocol with a per-address cap on open
connections and a time limit on a request's head (its size is uvicorn's ``h11_max_incomplete_event_size``),
and the process's descriptor budget."""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("courtcards.server")

RESERVE = 64  # descriptors kept for the database, logs and files
ENOUGH = 4096  # below this soft limit `courtcards serve` warns


class GuardedH11(H11Protocol):
    """H11Protocol that refuses a connection beyond ``max_per_address`` open ones from its address
    (429, closed) and closes one whose request head has not arrived ``head_timeout`` seconds after it
    opened or after its last answer (slowloris). Set on the class: every worker process reads them."""

    max_per_address: ClassVar[int] = 0  # 0: no cap
    proxies: ClassVar[frozenset[str]] = frozenset()  # reverse proxies: their connections are not capped
    head_timeout: ClassVar[float] = 10.0
    refused: ClassVar[int] = 0  # connections refused (metrics)
    timed_out: ClassVar[int] = 0

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.max_per_address and self.client is not None and self.client[0] not in self.proxies:
            host = self.client[0]
            # server_state.connections: every open connection, HTTP and WebSocket (both keep .client)
            count = sum(1 for c in self.connections if (getattr(c, "client", None) or ("",))[0] == host)
            if count > self.max_per_address:
                GuardedH11.refused += 1
                body = (
                    b'{"error":{"code":"too_many_connections","message":"too many open connections from this address"}}'
                )
                transport.write(
                    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n"
                    b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
                )
                transport.close()
                return
        self._arm_head_timer()

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        if self.head_timeout > 0:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            GuardedH11.timed_out += 1
            self.transport.close()

    def handle_events(self) -> None:
        before = self.scope
        super().handle_events()
        if self.scope is not before:  # a whole request head arrived
            self._cancel_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()  # the next request's head, on a kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)


def descriptor_budget(want: int = 65536) -> tuple[int, int]:
    """Raise this process's open-file limit toward ``want`` (up to the hard limit); the soft limit now
    and the connections it leaves room for."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        soft = want
    return soft, max(16, soft - RESERVE)


def uvicorn_limits(
    max_per_address: int, head_timeout: float, max_head: int, proxies: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The uvicorn options that put these limits in place (and sets them on GuardedH11)."""
    GuardedH11.max_per_address = max_per_address
    GuardedH11.head_timeout = head_timeout
    GuardedH11.proxies = frozenset(proxies)
    soft, budget = descriptor_budget()
    if soft < ENOUGH:
        log.warning(
            "the open-file limit (ulimit -n) is %d: at most about %d connections; raise it (docs/operations.md)",
            soft,
            budget,
        )
    # beyond the budget uvicorn answers 503 at once instead of failing to accept (every client timing out)
    options: dict[str, Any] = {"http": GuardedH11, "h11_max_incomplete_event_size": max_head}
    options["limit_concurrency"] = budget
    if proxies:  # their X-Forwarded-For names the client: per-address limits count the client, not the proxy
        options["forwarded_allow_ips"] = list(proxies)
    return options
