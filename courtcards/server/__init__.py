"""The game server: tables over HTTP, play over WebSockets, a database as the durable log.

Only ``courtcards serve`` and tests import this package; the engine never does.
"""

from courtcards.server.app import create_app
from courtcards.server.db import database_url

__all__ = ["create_app", "database_url"]
