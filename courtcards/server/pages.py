"""What the pages offer players beyond the table itself: the rules pages (rendered from the project's
rules docs), a rematch with the same people and bots, and the address friends on the network can reach.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import inspect
import ipaddress
import re
import socket
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from pydantic import BaseModel, Field

from courtcards.core.game import game_names, get_game
from courtcards.server.schemas import Addresses, JoinResponse
from courtcards.server.tables import ApiError, Lobby, RematchExists, Settings, Table

# A link to docs/rules: the rules pages are the rules docs, one file per game, shipped with the package.
RULES_DIR = Path(__file__).parent / "rules"
# A link to docs/rulings.md, which the rules pages cite: served as /rules/rulings.
RULINGS = Path(__file__).parent / "rulings.md"

router = APIRouter()


# -- rules pages -------------------------------------------------------------------------------------
def slug(title: str) -> str:
    """GitHub's anchor for a heading, so the docs' own ``#links`` work on the page."""
    return re.sub(r"[^\w\- ]", "", title.lower()).strip().replace(" ", "-")


@lru_cache(maxsize=16)
def render_rules(path: Path, mtime: float) -> str:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")  # the project's own docs: <details> folds
    tokens = md.parse(path.read_text(encoding="utf-8"))
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            tok.attrSet("id", slug(tokens[i + 1].content))
        for child in tok.children or []:
            if child.type != "link_open":
                continue
            href = str(child.attrGet("href") or "")
            other = re.fullmatch(r"(?:\.\./|rules/)?([a-z]+)\.md(#[\w-]*)?", href)
            if other and (other.group(1) in game_names() or other.group(1) == "rulings"):
                child.attrSet("href", f"/rules/{other.group(1)}{other.group(2) or ''}")
            elif not href.startswith(("#", "http://", "https://")):  # other docs are not served: keep the words
                child.attrs.pop("href", None)
    return str(md.renderer.render(tokens, md.options, {}))


def page(title: str, body: str) -> HTMLResponse:
    nav = "".join(f'<a class="button" href="/rules/{n}">{html.escape(get_game(n).title)}</a>' for n in game_names())
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} · courtcards</title>"
        '<link rel="stylesheet" href="/static/css/style.css"><link rel="icon" href="data:,"></head>'
        '<body class="page-rules"><header class="topbar"><a class="brand" href="/">♛ courtcards</a>'
        f"<h1>{html.escape(title)}</h1></header>"
        f'<main class="rules-page"><nav class="rules-nav" aria-label="rules of each game">{nav}</nav>{body}</main>'
        "</body></html>"
    )


def player_count(name: str) -> str:
    """How many play the game, in words: "3-6 players", or "2 players" for a duel."""
    game = get_game(name)
    low, high = game.min_players, game.max_players
    return f"{low} players" if low == high else f"{low}-{high} players"


@router.get("/rules", include_in_schema=False)
async def rules_index() -> HTMLResponse:
    items = "".join(
        f'<li><a href="/rules/{n}">{html.escape(get_game(n).title)}</a>, {player_count(n)}</li>' for n in game_names()
    )
    rulings = '<p>The <a href="/rules/rulings">rulings</a> settle what the rulebooks leave open.</p>'
    return page("Rules", f"<p>The rules exactly as courtcards plays them:</p><ul>{items}</ul>{rulings}")


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str) -> HTMLResponse:
    if game == "rulings":
        return page("Rulings", await asyncio.to_thread(render_rules, RULINGS, RULINGS.stat().st_mtime))
    path = RULES_DIR / f"{game}.md"
    if game in game_names() and not path.is_file() and get_game(game).info.brief:
        # a game with no rules page here (a plug-in): the rules in brief it declares (GameInfo.brief)
        brief = MarkdownIt("commonmark").render(get_game(game).info.brief)
        return page(f"Rules of {get_game(game).title}", f'<p class="muted">The rules in brief.</p>{brief}')
    if game not in game_names() or not path.is_file():
        known = ", ".join(f'<a href="/rules/{n}">{n}</a>' for n in game_names())
        response = page("Rules", f"<p>There are no rules for {html.escape(repr(game))}. Games: {known}.</p>")
        response.status_code = 404
        return response
    body = await asyncio.to_thread(render_rules, path, path.stat().st_mtime)
    return page(f"Rules of {get_game(game).title}", body)


# -- rematch -----------------------------------------------------------------------------------------
class RematchBody(BaseModel):
    token: str | None = Field(None, description="The asking player's seat token at the finished table.")


async def _table(lobby: Lobby, table_id: str) -> Table:
    """``lobby.get``, whether it answers at once or (tables loaded on demand) must be awaited."""
    found: Any = lobby.get(table_id)
    table: Table = await found if inspect.isawaitable(found) else found
    return table


def _rematch_lock(request: Request) -> asyncio.Lock:
    state = request.app.state
    if not hasattr(state, "rematch_lock"):
        state.rematch_lock = asyncio.Lock()
    lock: asyncio.Lock = state.rematch_lock
    return lock


@router.post("/api/tables/{table_id}/rematch", tags=["tables"], response_model=JoinResponse)
async def rematch(table_id: str, request: Request, body: RematchBody | None = None) -> dict[str, Any]:
    """A new game at a finished table: same game, options, settings and bots, a new deal. The first
    player to ask creates it; each player who asks gets their own seat in it (and its token)."""
    address = request.client.host if request.client else "unknown"
    await request.app.state.rates.check("rematch", address)
    lobby: Lobby = request.app.state.lobby
    old = await _table(lobby, table_id)
    if not old.state.is_over():
        raise ApiError(409, "game_not_over", "a rematch can start once this game is over")
    seat = old.seat_for_token(body.token) if body is not None and body.token else None
    if seat is None:
        raise ApiError(403, "bad_token", "only a player of this table can ask for a rematch")
    async with _rematch_lock(request):  # the link is in the database: other processes and restarts see it
        link = await lobby.rematch_of(table_id)
        if link is None:
            seats = [{"type": s.type, "bot": s.bot, "name": s.name} for s in old.seats]
            try:
                new = await lobby.create(
                    old.game.name,
                    old.state.num_players,
                    dict(old.state.options),
                    None,
                    seats,
                    None,
                    Settings(**old.settings.to_json()),
                    rematch_of=table_id,
                    creator=address,  # its search bots count for the one who asked
                )
                link = new.id
            except RematchExists:  # another process made it first
                link = await lobby.rematch_of(table_id)
        if link is None:
            raise ApiError(503, "try_again", "the rematch could not be made; try again")
    number, token, table = await lobby.join(link, seat, old.seats[seat].name, old.seats[seat].account_id)
    return {"seat": number, "token": token, "table": table.info()}


# -- the address friends can reach -------------------------------------------------------------------
def lan_ips() -> list[str]:
    """This computer's IPv4 addresses other than loopback."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # UDP connect sends nothing: it only picks the outgoing address
        found.append(s.getsockname()[0])
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return [
        ip
        for ip in dict.fromkeys(found)
        if not ipaddress.ip_address(ip).is_loopback and not ipaddress.ip_address(ip).is_unspecified
    ]


def listening(ips: Iterable[str], port: int, timeout: float = 0.3) -> list[str]:
    """The addresses on which something accepts connections on ``port`` (this server, if it listens there)."""
    out = []
    for ip in ips:
        with contextlib.suppress(OSError), socket.create_connection((ip, port), timeout=timeout):
            out.append(ip)
    return out


@router.get("/api/addresses", tags=["tables"], response_model=Addresses)
async def addresses(request: Request) -> dict[str, list[str]]:
    """Addresses of this server that other computers on the network can open (empty: it listens only on
    this computer; start it with ``--host 0.0.0.0``). The lobby builds join links from them."""
    server = request.scope.get("server") or (None, None)
    port = server[1] or request.url.port or 80
    ips = await asyncio.to_thread(lambda: listening(lan_ips(), int(port)))
    return {"lan": [f"{request.url.scheme}://{ip}:{port}" for ip in ips]}
