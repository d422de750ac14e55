"""``courtcards serve``: the game server (HTTP API, WebSocket play, browser pages)."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Annotated

import typer

TOKEN_RE = re.compile(r"(token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Keep seat tokens (in WebSocket URLs) out of the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if "token=" in msg:
            record.msg = TOKEN_RE.sub(r"\1***", msg)
            record.args = ()
        return True


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    database: Annotated[
        Path, typer.Option("--database", help="SQLite file (created if missing).")
    ] = Path("courtcards.sqlite"),
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="Any SQLAlchemy URL instead, e.g. postgresql://user:pw@host/db."),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
    access_log: Annotated[bool, typer.Option("--access-log/--no-access-log", help="Log every request.")] = True,
    ws_deflate: Annotated[
        bool, typer.Option("--ws-deflate/--no-ws-deflate", help="Compress WebSocket messages (costs CPU).")
    ] = False,
    ws_impl: Annotated[
        str, typer.Option("--ws", help="uvicorn WebSocket implementation: auto, websockets, websockets-sansio.")
    ] = "auto",
) -> None:
    """Run the game server: tables, seats, WebSocket play, bots, a durable action log."""
    import uvicorn

    from courtcards.server import create_app
    from courtcards.server.db import database_url as make_url

    url = make_url(database_url, database)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(RedactTokens())
    shown = url if database_url is None else re.sub(r"//[^@/]*@", "//***@", url)
    typer.echo(f"courtcards server on http://{host}:{port}/ (database {shown})")
    uvicorn.run(create_app(url), host=host, port=port, log_level=log_level.lower(), access_log=access_log,
                ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=ws_deflate, ws=ws_impl)
