"""The game server: tables over HTTP, play over WebSockets, a database as the durable log.

Only ``courtcards serve`` and tests import this package; the engine never does. Its
names load on first use, so ``python -m courtcards.server.schemas`` runs that module
without the package having imported it first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from courtcards.server.app import create_app
    from courtcards.server.db import database_url

__all__ = ["create_app", "database_url"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from courtcards.server.app import create_app

        return create_app
    if name == "database_url":
        from courtcards.server.db import database_url

        return database_url
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
