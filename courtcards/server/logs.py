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


class QuietBadFrames(logging.Filter):
    """A client's invalid WebSocket frame closes its connection (1007) and is logged once, in one line,
    as a warning: uvicorn logs it as an error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.error" and record.exc_info and "received from client" in str(record.msg):
            exc = record.exc_info[1]
            record.msg = f"{record.msg} ({type(exc).__name__}); the connection is closed"
            record.args = ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(QuietBadFrames())
        handler.addFilter(LogFloor())
        handler.addFilter(RedactTokens())
