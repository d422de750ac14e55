"""Quotas on CPU-heavy requests: hint searches running at once, per client address and in all.

(The quota on tables in play with search-bot seats is the lobby's: ``Lobby.search_quota`` in tables.py.)
Counts are kept in each server process (each has its own compute workers); the address is the client's
(behind a ``--proxy``, the forwarded one).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from courtcards.server.tables import ApiError


class Concurrent:
    """At most ``total`` of something at once, and ``per_address`` for one address (0: no cap).
    Checked and counted with no ``await`` in between, so one event loop needs no lock."""

    def __init__(self, total: int, per_address: int, code: str, one: str, many: str) -> None:
        self.total = total
        self.per_address = per_address
        self.code = code
        self.one, self.many = one, many  # what is counted, in the singular and the plural
        self.running: dict[str, int] = {}  # address -> running now

    @property
    def count(self) -> int:
        return sum(self.running.values())

    @contextlib.contextmanager
    def slot(self, address: str) -> Iterator[None]:
        """Hold one for ``address`` while the block runs; ApiError 429 if a cap is reached."""
        mine = self.running.get(address, 0)
        if self.per_address and mine >= self.per_address:
            raise ApiError(
                429,
                self.code,
                f"this address has {mine} {self.one if mine == 1 else self.many} running (at most {self.per_address}); "
                "ask again when it has answered",
            )
        if self.total and self.count >= self.total:
            raise ApiError(
                429,
                "busy",
                f"the server is computing {self.total} {self.one if self.total == 1 else self.many} already; "
                "ask again in a second",
            )
        self.running[address] = mine + 1
        try:
            yield
        finally:
            left = self.running[address] - 1
            if left:
                self.running[address] = left
            else:
                del self.running[address]
