"""``courtcards serve``: the game server (HTTP API, WebSocket play, browser pages)."""

from __future__ import annotations

import math
import os
import re
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from courtcards.cli.say import fail, install_hint

if TYPE_CHECKING:
    from courtcards.server.guards import ServerConfig


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


class ServeError(Exception):
    """A reason the server cannot start, said in one line."""


def check_port(host: str, port: int) -> None:
    if not 0 <= port <= 65535:
        raise ServeError(f"--port must be 0..65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ServeError(f"--host {host!r} is not an address of this machine: {exc.strerror or exc}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def check_database(url: str, shown: str) -> None:
    """Reach the database once (and create a SQLite file's folder never): one-line errors."""
    import sqlalchemy as sa

    from courtcards.server.db import make_engine

    if url.startswith("sqlite:///"):
        folder = Path(url[len("sqlite:///") :]).parent
        if not folder.is_dir():
            raise ServeError(
                f"the folder {folder} for the SQLite database does not exist; create it or choose another --database"
            )
    try:
        engine = make_engine(url)
    except ModuleNotFoundError as exc:
        if url.startswith("postgresql"):
            raise ServeError(
                f"PostgreSQL needs the psycopg driver: {install_hint('postgres')} (or pip install 'psycopg[binary]')"
            ) from None
        raise ServeError(f"the database driver for {shown} is not installed ({exc.name})") from None
    except sa.exc.ArgumentError as exc:
        raise ServeError(f"--database-url {shown} is not a database URL: {exc}") from None
    try:
        with engine.connect():
            pass
    except sa.exc.SQLAlchemyError as exc:
        cause = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise ServeError(f"cannot open the database {shown}: {cause[0] if cause else type(exc).__name__}") from None
    finally:
        engine.dispose()


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    database: Annotated[
        Path, typer.Option("--database", help="SQLite file (created if missing; its folder must exist).")
    ] = Path("courtcards.sqlite"),
    database_url: Annotated[
        str | None,
        typer.Option("--database-url", help="Any SQLAlchemy URL instead, e.g. postgresql://user:pw@host/db."),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
    log_format: Annotated[
        str, typer.Option("--log-format", help="text (a line each) or json (one object a line, with a request id).")
    ] = "text",
    access_log: Annotated[bool, typer.Option("--access-log/--no-access-log", help="Log every request.")] = True,
    ws_deflate: Annotated[
        bool, typer.Option("--ws-deflate/--no-ws-deflate", help="Compress WebSocket messages (costs CPU).")
    ] = False,
    ws_impl: Annotated[
        str, typer.Option("--ws", help="uvicorn WebSocket implementation: auto, websockets, websockets-sansio.")
    ] = "auto",
    max_body: Annotated[int, typer.Option("--max-body", help="Largest HTTP request body, in bytes.")] = 64 * 1024,
    max_message: Annotated[int, typer.Option("--max-message", help="Largest WebSocket message, in bytes.")] = 16 * 1024,
    max_queue: Annotated[
        int, typer.Option("--max-queue", help="Messages a slow connection may fall behind before it is dropped.")
    ] = 256,
    rate_create: Annotated[
        str, typer.Option("--rate-create", help="New tables per client address, e.g. 30/minute; none: no limit.")
    ] = "30/minute",
    rate_join: Annotated[str, typer.Option("--rate-join", help="Seat joins per client address.")] = "60/minute",
    rate_connect: Annotated[
        str, typer.Option("--rate-connect", help="WebSocket connections per client address.")
    ] = "120/minute",
    rate_rematch: Annotated[
        str, typer.Option("--rate-rematch", help="Rematches asked for per client address.")
    ] = "30/minute",
    rate_read: Annotated[
        str, typer.Option("--rate-read", help="GET requests per client address (in each process).")
    ] = "600/minute",
    rate_login: Annotated[
        str, typer.Option("--rate-login", help="Sign-in attempts per client address, and per username.")
    ] = "10/minute",
    rate_signup: Annotated[str, typer.Option("--rate-signup", help="Accounts made per client address.")] = "10/hour",
    rate_chat: Annotated[
        str, typer.Option("--rate-chat", help="Chat messages per seat (spectators: per connection).")
    ] = "10/10 seconds",
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies", help="Mark session cookies Secure even over HTTP (a TLS proxy that sends no scheme)."
        ),
    ] = False,
    max_spectators: Annotated[
        int, typer.Option("--max-spectators", help="Spectator sockets per table (0: no cap).")
    ] = 500,
    max_spectators_per_address: Annotated[
        int,
        typer.Option("--max-spectators-per-address", help="Spectator sockets of one client address (0: no cap)."),
    ] = 50,
    spectator_rate: Annotated[
        float,
        typer.Option(
            "--spectator-rate",
            help="State pushes a second shared by all spectators of a process: each spectator gets its table's "
            "newest state at most every (spectators / rate) seconds (0: every state at once).",
        ),
    ] = 2000.0,
    compute_workers: Annotated[
        int,
        typer.Option(
            "--compute-workers", help="Worker processes for search bots and hints, per server process (0: threads)."
        ),
    ] = 1,
    max_search_tables: Annotated[
        int,
        typer.Option(
            "--max-search-tables",
            help="Tables in play with a search-bot seat (a CPU-heavy bot), per server process (0: no cap).",
        ),
    ] = 32,
    max_search_tables_per_address: Annotated[
        int,
        typer.Option(
            "--max-search-tables-per-address",
            help="Tables in play with a search-bot seat made from one client address (0: no cap).",
        ),
    ] = 4,
    max_hints: Annotated[
        int, typer.Option("--max-hints", help="Hint searches running at once, per server process (0: no cap).")
    ] = 2,
    max_hints_per_address: Annotated[
        int,
        typer.Option("--max-hints-per-address", help="Hint searches of one client address at once (0: no cap)."),
    ] = 1,
    max_inflight: Annotated[
        int, typer.Option("--max-inflight", help="HTTP requests of one address answered at once (0: no cap).")
    ] = 16,
    max_connections: Annotated[
        int,
        typer.Option("--max-connections", help="Open connections per client address, sockets included (0: no cap)."),
    ] = 256,
    head_timeout: Annotated[
        float, typer.Option("--head-timeout", help="Seconds a connection may take to send a request's headers.")
    ] = 10.0,
    max_head: Annotated[int, typer.Option("--max-head", help="Largest request line and headers, in bytes.")] = 64
    * 1024,
    proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--proxy",
            help="A reverse proxy's address (repeat): its X-Forwarded-For is trusted and its connections are "
            "not capped per address (its clients are, by their forwarded address).",
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option("--allow-origin", help="Another site whose pages may connect (scheme://host[:port]); repeat."),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="A Host name clients use (behind a proxy: its public name; *.example.com; *: any); repeat. "
            "Default: the --host address and localhost (and LAN addresses on 0.0.0.0).",
        ),
    ] = None,
    idle_expiry: Annotated[
        float,
        typer.Option(
            "--idle-expiry",
            help="Seconds an unfinished table nobody is connected to stays in "
            "memory (then its bots pause until someone connects).",
        ),
    ] = 600.0,
    finished_expiry: Annotated[
        float, typer.Option("--finished-expiry", help="Seconds a finished table stays in memory.")
    ] = 60.0,
    snapshot_every: Annotated[
        int, typer.Option("--snapshot-every", help="Actions between state snapshots (a restart replays fewer).")
    ] = 100,
    workers: Annotated[
        int, typer.Option("--workers", help="Server processes (PostgreSQL only); a dead one's tables move on.")
    ] = 1,
    lease_ttl: Annotated[
        float, typer.Option("--lease-ttl", help="Seconds before the tables of a process that stopped move on.")
    ] = 5.0,
) -> None:
    """Run the game server: tables, seats, WebSocket play, bots, a durable action log."""
    from courtcards.server.db import database_url as make_url
    from courtcards.server.guards import ServerConfig, check_rate, default_hosts
    from courtcards.server.tables import LobbyConfig

    url = make_url(database_url, database)
    shown = url if database_url is None else re.sub(r"//[^@/]*@", "//***@", url)
    level = log_level.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise fail(f"--log-level must be debug, info, warning or error, not {log_level!r}")
    if log_format not in ("text", "json"):
        raise fail(f"--log-format must be text or json, not {log_format!r}")
    for name, value in (
        ("--max-body", max_body),
        ("--max-message", max_message),
        ("--max-queue", max_queue),
        ("--max-head", max_head),
    ):
        if value < 1:
            raise fail(f"{name} must be at least 1, not {value}")
    for name, number in (
        ("--idle-expiry", idle_expiry),
        ("--finished-expiry", finished_expiry),
        ("--snapshot-every", snapshot_every),
        ("--max-inflight", max_inflight),
        ("--compute-workers", compute_workers),
        ("--max-search-tables", max_search_tables),
        ("--max-search-tables-per-address", max_search_tables_per_address),
        ("--max-hints", max_hints),
        ("--max-hints-per-address", max_hints_per_address),
        ("--max-spectators", max_spectators),
        ("--max-spectators-per-address", max_spectators_per_address),
        ("--spectator-rate", spectator_rate),
        ("--max-connections", max_connections),
        ("--head-timeout", head_timeout),
    ):
        if number < 0:
            raise fail(f"{name} must be 0 or more, not {number}")
    if not math.isfinite(spectator_rate):
        raise fail(f"--spectator-rate must be a number, not {spectator_rate}")
    if not 1 <= workers <= 64:
        raise fail(f"--workers must be 1..64, not {workers}")
    if workers > 1 and not url.startswith("postgresql"):
        raise fail("--workers above 1 needs PostgreSQL (--database-url postgresql://...): SQLite serves one process")
    if lease_ttl < 0.5:
        raise fail(f"--lease-ttl must be at least 0.5 seconds, not {lease_ttl}")
    try:
        rates = {
            n: check_rate(v)
            for n, v in (
                ("create", rate_create),
                ("join", rate_join),
                ("connect", rate_connect),
                ("rematch", rate_rematch),
                ("read", rate_read),
                ("login", rate_login),
                ("signup", rate_signup),
                ("chat", rate_chat),
            )
        }
        check_port(host, port)
        check_database(url, shown)
    except (ServeError, ValueError) as exc:
        raise fail(str(exc)) from None
    config = ServerConfig(
        max_body=max_body,
        max_message=max_message,
        max_queue=max_queue,
        rate_create=rates["create"],
        rate_join=rates["join"],
        rate_connect=rates["connect"],
        rate_rematch=rates["rematch"],
        rate_read=rates["read"],
        rate_login=rates["login"],
        rate_signup=rates["signup"],
        rate_chat=rates["chat"],
        secure_cookies=secure_cookies,
        max_inflight=max_inflight,
        compute_workers=compute_workers,
        max_search_tables=max_search_tables,
        max_search_tables_per_address=max_search_tables_per_address,
        max_hints=max_hints,
        max_hints_per_address=max_hints_per_address,
        max_spectators=max_spectators,
        max_spectators_per_address=max_spectators_per_address,
        spectator_rate=spectator_rate,
        max_connections=max_connections,
        head_timeout=head_timeout,
        max_head=max_head,
        proxies=tuple(proxy or ()),
        allowed_origins=tuple(allow_origin or ()),
        allowed_hosts=tuple(allowed_host) if allowed_host else default_hosts(host),
        lobby=LobbyConfig(
            snapshot_every=snapshot_every, idle_expiry=idle_expiry, finished_expiry=finished_expiry, lease_ttl=lease_ttl
        ),
    )
    run(url, shown, host, port, level, access_log, ws_deflate, ws_impl, config, workers, log_format)


def run(
    url: str,
    shown: str,
    host: str,
    port: int,
    level: str,
    access_log: bool,
    ws_deflate: bool,
    ws_impl: str,
    config: ServerConfig,
    workers: int,
    log_format: str = "text",
) -> None:
    import uvicorn

    from courtcards.server.app import CONFIG_ENV, create_app, dump_config, frozen
    from courtcards.server.conns import uvicorn_limits
    from courtcards.server.logs import setup_logging

    setup_logging(level, log_format)
    typer.echo(
        f"courtcards server on http://{host}:{port}/ (database {shown}"
        + (f", {workers} processes)" if workers > 1 else ")")
    )
    options = {
        "host": host,
        "port": port,
        "log_level": level.lower(),
        "access_log": access_log,
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
        "ws_per_message_deflate": ws_deflate,
        "ws": ws_impl,
        "ws_max_size": config.max_message,
        "log_config": None,
        # per-address connections, the request head's size and time, the descriptor budget
        **uvicorn_limits(config.max_connections, config.head_timeout, config.max_head, config.proxies),
    }
    if workers > 1:  # each worker process builds its app from the environment
        os.environ[CONFIG_ENV] = dump_config(url, config, level, log_format)
        uvicorn.run("courtcards.server.app:app_from_env", factory=True, workers=workers, **options)
    else:
        uvicorn.run(frozen(create_app(url, config=config)), **options)
