"""The server's logging: never an action text (a secret choice) and never a seat token."""

from __future__ import annotations

import logging
import re

TOKEN_RE = re.compile(r"(token=)[^&\s\"']+")
# Other libraries' debug logs show message contents (WebSocket frames, SQL): only warnings from SQL
# and alembic, nothing below INFO from anyone else.
FLOORS = (("sqlalchemy", logging.WARNING), ("alembic", logging.WARNING), ("courtcards", logging.DEBUG))


class RedactTokens(logging.Filter):
    """Keep seat tokens (in WebSocket URLs) out of the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if "token=" in msg:
            record.msg = TOKEN_RE.sub(r"\1***", msg)
            record.args = ()
        return True


class LogFloor(logging.Filter):
    """On the log handlers: drop the records below each library's floor (INFO for those not listed)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for prefix, floor in FLOORS:
            if record.name == prefix or record.name.startswith(prefix + "."):
                return record.levelno >= floor
        return record.levelno >= logging.INFO


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(LogFloor())
        handler.addFilter(RedactTokens())
