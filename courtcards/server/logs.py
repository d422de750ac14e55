"""The server's logging: never an action text (a secret choice) and never a seat token."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time

# the request (or WebSocket) being served: set by Guard, shown in every log line written meanwhile
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("courtcards_request_id", default=None)
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


class RequestId(logging.Filter):
    """Each record gets ``request_id``: the request's or WebSocket's id, or "-" outside one."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, process, request_id, message (and exception)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "process": record.process,
            "request_id": getattr(record, "request_id", None) or REQUEST_ID.get(),
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(level: str, fmt: str = "text") -> None:
    """Logging for ``courtcards serve``: ``fmt`` text (a line each) or json (structured, a request id each)."""
    logging.basicConfig(
        level=level, format="%(asctime)s %(process)d %(levelname)s %(name)s [%(request_id)s]: %(message)s"
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(RequestId())
        if fmt == "json":
            handler.setFormatter(JsonFormatter())
        handler.addFilter(QuietBadFrames())
        handler.addFilter(LogFloor())
        handler.addFilter(RedactTokens())
