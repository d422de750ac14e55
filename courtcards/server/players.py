"""What brings a player back: accounts (sign up, sign in, sign out), claiming a guest's seat, and
"my games" (an account's from the server, a guest's from the seat tokens the browser kept).

Routes under /api/session, /api/accounts and /api/account; the rules are in accounts.py."""

from __future__ import annotations

import asyncio
import html
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from courtcards.core.game import game_names, get_game
from courtcards.server import accounts, pages, ratings
from courtcards.server.accounts import COOKIE, CSRF_HEADER, Account, AccountError, Session
from courtcards.server.db import Store, seats_t, tables_t
from courtcards.server.guards import RateLimits, ServerConfig, origin_allowed
from courtcards.server.tables import ApiError, Lobby, Table, hash_token, stored_info

router = APIRouter()

MAX_GUEST_SEATS = 200  # seat tokens one "my games" question may name
MAX_MY_GAMES = 100  # games listed

Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]
TableId = Annotated[str, StringConstraints(min_length=1, max_length=16, pattern=r"^[a-z0-9]+$")]


class Credentials(BaseModel):
    model_config = ConfigDict(strict=True, hide_input_in_errors=True)  # a refusal never echoes the password

    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class SeatKey(BaseModel):
    model_config = ConfigDict(strict=True, hide_input_in_errors=True)

    table: TableId
    token: Token


class GuestSeats(BaseModel):
    model_config = ConfigDict(strict=True, hide_input_in_errors=True)

    seats: list[SeatKey] = Field(max_length=MAX_GUEST_SEATS)


class AccountInfo(BaseModel):
    username: str


class SessionInfo(BaseModel):
    account: AccountInfo | None
    csrf: str | None = Field(description="Send it as X-CSRF-Token with every request that changes something.")


class MyGame(BaseModel):
    seat: int
    your_move: bool = Field(description="The table is in memory and waits for this seat.")
    table: dict[str, Any]


class MyGames(BaseModel):
    games: list[MyGame]


class RatedPlayer(BaseModel):
    username: str
    rating: float = Field(description="openskill ordinal: mu - 3 sigma.")
    mu: float
    sigma: float
    games: int


class Leaderboard(BaseModel):
    game: str
    title: str
    players: list[RatedPlayer]


class GameRating(BaseModel):
    rating: float
    mu: float
    sigma: float
    games: int


class RatingChange(BaseModel):
    table: str
    place: int = Field(description="1: first.")
    before: float
    after: float
    at: float


class Profile(BaseModel):
    username: str
    created: float
    ratings: dict[str, GameRating]
    history: dict[str, list[RatingChange]]


class SeatToken(BaseModel):
    seat: int
    token: str


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _store(request: Request) -> Store:
    store: Store = request.app.state.lobby.store
    return store


def _same_origin(request: Request) -> None:
    cfg: ServerConfig = request.app.state.config
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), cfg.allowed_origins):
        raise ApiError(403, "bad_origin", "requests from pages of other sites are refused")


async def current_session(request: Request) -> Session | None:
    """The request's session (from its cookie), or None."""
    return await accounts.session_of(_store(request).engine, request.cookies.get(COOKIE))


async def signed_in(request: Request, change: bool = True) -> Session:
    """The session; for a request that changes something, its CSRF token and origin checked too."""
    session = await current_session(request)
    if session is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    if change:
        _same_origin(request)
        if not accounts.csrf_ok(session, request.headers.get(CSRF_HEADER)):
            raise ApiError(403, "bad_csrf", f"this request needs the session's {CSRF_HEADER} header")
    return session


async def acting_account(request: Request) -> Account | None:
    """The account a change is made for: signed in, with the CSRF token (without it, a guest's request)."""
    session = await current_session(request)
    if session is None or not accounts.csrf_ok(session, request.headers.get(CSRF_HEADER)):
        return None
    _same_origin(request)
    return session.account


def _set_cookie(request: Request, response: Response, token: str) -> None:
    cfg: ServerConfig = request.app.state.config
    response.set_cookie(
        COOKIE,
        token,
        max_age=accounts.SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="strict",
        secure=cfg.secure_cookies or request.url.scheme == "https",
    )


async def _sign_in(request: Request, response: Response, account: Account) -> dict[str, Any]:
    token, csrf = await asyncio.to_thread(
        accounts.new_session, _store(request).engine, account, request.cookies.get(COOKIE)
    )
    _set_cookie(request, response, token)
    return {"account": {"username": account.username}, "csrf": csrf}


@router.get("/api/session", tags=["accounts"], response_model=SessionInfo)
async def get_session(request: Request) -> dict[str, Any]:
    """Who is signed in here (null: a guest), and the CSRF token for their changes."""
    session = await current_session(request)
    if session is None:
        return {"account": None, "csrf": None}
    return {"account": {"username": session.account.username}, "csrf": session.csrf}


@router.post("/api/accounts", status_code=201, tags=["accounts"], response_model=SessionInfo)
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Make an account and sign in with it (no e-mail needed)."""
    _same_origin(request)
    rates: RateLimits = request.app.state.rates
    await rates.check("signup", _address(request))
    try:
        account = await asyncio.to_thread(accounts.create_account, _store(request).engine, body.username, body.password)
    except AccountError as exc:
        code = "username_taken" if "taken" in str(exc) else "bad_request"
        raise ApiError(409 if code == "username_taken" else 422, code, str(exc)) from None
    return await _sign_in(request, response, account)


@router.post("/api/session", tags=["accounts"], response_model=SessionInfo)
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in: a new session (and cookie) every time; a wrong name or password is one answer."""
    _same_origin(request)
    rates: RateLimits = request.app.state.rates
    await rates.check("login", _address(request))
    try:
        await rates.check("login", "user:" + body.username.lower())
    except ApiError as exc:
        raise ApiError(429, "rate_limited", "too many sign-in attempts for this username; wait a minute") from exc
    account = await asyncio.to_thread(accounts.authenticate, _store(request).engine, body.username, body.password)
    if account is None:
        raise ApiError(401, "bad_credentials", "wrong username or password (or the account is disabled)")
    return await _sign_in(request, response, account)


@router.delete("/api/session", tags=["accounts"], response_model=SessionInfo)
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    """End this session."""
    await signed_in(request)
    await asyncio.to_thread(accounts.end_session, _store(request).engine, request.cookies[COOKIE])
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return {"account": None, "csrf": None}


@router.post("/api/account/claim", tags=["accounts"], response_model=MyGame)
async def claim(body: SeatKey, request: Request) -> dict[str, Any]:
    """Put a guest's seat (its table and token) in the signed-in account."""
    session = await signed_in(request)
    lobby: Lobby = request.app.state.lobby
    table = await lobby.get(body.table)
    seat = table.seat_for_token(body.token)
    if seat is None:
        raise ApiError(403, "bad_token", "this token does not belong to a seat of that table")
    await lobby.set_account(table, seat, session.account.id)
    return _game(table, seat)


@router.post("/api/account/games/{table_id}/token", tags=["accounts"], response_model=SeatToken)
async def seat_token(table_id: str, request: Request) -> dict[str, Any]:
    """A new token for the account's seat at this table (for a browser that has none); the old one ends."""
    session = await signed_in(request)
    lobby: Lobby = request.app.state.lobby
    table = await lobby.get(table_id)
    seats = [s.seat for s in table.seats if s.account_id == session.account.id]
    if not seats:
        raise ApiError(404, "not_your_table", "this account holds no seat at that table")
    token = await lobby.new_token(table, seats[0])
    return {"seat": seats[0], "token": token}


def _game(table: Table, seat: int) -> dict[str, Any]:
    return {"seat": seat, "your_move": seat in table.to_move(), "table": table.info()}


async def _games(lobby: Lobby, pairs: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """Live info for tables in memory, stored info for the others (never loaded for a list)."""
    ids = list(dict.fromkeys(t for t, _ in pairs))
    stored = {}
    missing = [t for t in ids if t not in lobby.tables]
    if missing:

        def read() -> dict[str, Any]:
            from courtcards.server.db import list_by_ids

            return {st.id: st for st in list_by_ids(lobby.store.engine, missing)}

        stored = await asyncio.to_thread(read)
    out = []
    for tid, seat in pairs:
        table = lobby.tables.get(tid)
        if table is not None:
            out.append(_game(table, seat))
        elif tid in stored:
            out.append({"seat": seat, "your_move": False, "table": stored_info(stored[tid])})
    # your move first, then waiting, then playing, then finished
    order = {"open": 1, "playing": 2, "finished": 3}
    out.sort(key=lambda g: 0 if g["your_move"] else order.get(g["table"]["status"], 4))
    return out


@router.get("/api/account/games", tags=["accounts"], response_model=MyGames)
async def my_games(request: Request) -> dict[str, Any]:
    """The signed-in account's games: your move first, then waiting for players, in progress, finished."""
    session = await signed_in(request, change=False)
    lobby: Lobby = request.app.state.lobby
    pairs = await asyncio.to_thread(accounts.account_seats, lobby.store.engine, session.account.id, MAX_MY_GAMES)
    return {"games": await _games(lobby, pairs)}


@router.post("/api/tables/mine", tags=["tables"], response_model=MyGames)
async def guest_games(body: GuestSeats, request: Request) -> dict[str, Any]:
    """A guest's games: the tables whose seat tokens the browser kept (sent in the body, never in a URL).
    Tokens that hold no seat are left out."""
    rates: RateLimits = request.app.state.rates
    await rates.check("read", _address(request))  # a read, though a POST (the tokens stay out of URLs)
    lobby: Lobby = request.app.state.lobby
    wanted = {(k.table, hash_token(k.token)) for k in body.seats}
    if not wanted:
        return {"games": []}
    ids = sorted({t for t, _ in wanted})

    def read() -> list[tuple[str, int]]:
        with lobby.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.token_hash)
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(seats_t.c.table_id.in_(ids), seats_t.c.token_hash.is_not(None))
                .order_by(tables_t.c.updated.desc(), seats_t.c.table_id)
            )
            return [(str(t), int(s)) for t, s, h in rows if (t, h) in wanted]

    pairs = await asyncio.to_thread(read)
    # a seat whose token was rotated in memory (another process) is checked against the table in memory
    pairs = [(t, s) for t, s in pairs if t not in lobby.tables or lobby.tables[t].seats[s].token_hash is not None]
    return {"games": await _games(lobby, pairs[:MAX_MY_GAMES])}


# -- ratings: leaderboard and profiles (JSON, and pages rendered here: no script needed) ----------------
def _known_game(name: str) -> None:
    if name not in game_names():
        raise ApiError(404, "not_found", f"there is no game {name[:32]!r}")


@router.get("/api/ratings/{game}", tags=["ratings"], response_model=Leaderboard)
async def ratings_of(game: str, request: Request, limit: int = Query(100, ge=1, le=500)) -> dict[str, Any]:
    """The leaderboard of one game: accounts by rating (openskill ordinal, mu - 3 sigma), best first."""
    _known_game(game)
    rows = await asyncio.to_thread(ratings.leaderboard, _store(request).engine, game, limit)
    return {"game": game, "title": get_game(game).title, "players": rows}


@router.get("/api/players/{username}", tags=["ratings"], response_model=Profile)
async def player_of(username: str, request: Request) -> dict[str, Any]:
    """An account's public profile: ratings per game, their history, recent rated games."""
    found = await asyncio.to_thread(ratings.profile, _store(request).engine, username[:64], game_names())
    if found is None:
        raise ApiError(404, "not_found", f"there is no player {username[:32]!r}")
    return found


def _plot(points: list[dict[str, Any]], width: int = 560, height: int = 160) -> str:
    """The rating after each game, as an inline SVG polyline (numbers only: nothing to escape)."""
    values = [points[0]["before"], *(p["after"] for p in points)] if points else []
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    pad = 8
    xs = [pad + i * (width - 2 * pad) / (len(values) - 1) for i in range(len(values))]
    ys = [height - pad - (v - low) * (height - 2 * pad) / span for v in values]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>' for x, y in zip(xs, ys, strict=True))
    return (
        f'<svg class="rating-plot" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="rating after each game, from {values[0]:.1f} to {values[-1]:.1f}">'
        f'<text x="{pad}" y="12" font-size="10">{high:.1f}</text>'
        f'<text x="{pad}" y="{height - 2}" font-size="10">{low:.1f}</text>'
        f'<polyline fill="none" stroke="#2c6e49" stroke-width="2" points="{line}"/>'
        f'<g fill="#2c6e49">{dots}</g></svg>'
    )


@router.get("/leaderboard", include_in_schema=False)
async def leaderboards(request: Request) -> HTMLResponse:
    items = "".join(
        f'<li><a href="/leaderboard/{html.escape(n)}">{html.escape(get_game(n).title)}</a></li>' for n in game_names()
    )
    return pages.page("Leaderboards", f"<p>Ratings from rated games between accounts, per game:</p><ul>{items}</ul>")


@router.get("/leaderboard/{game}", include_in_schema=False)
async def leaderboard_page(game: str, request: Request) -> HTMLResponse:
    if game not in game_names():
        return pages.page("Leaderboard", "<p>There is no such game.</p>")
    rows = await asyncio.to_thread(ratings.leaderboard, _store(request).engine, game, 200)
    title = get_game(game).title
    if not rows:
        body = f"<p>Nobody has a {html.escape(title)} rating yet: make a rated table in the lobby.</p>"
    else:
        trs = "".join(
            f'<tr><td>{i}</td><td><a href="/players/{html.escape(r["username"])}">{html.escape(r["username"])}</a>'
            f"</td><td>{r['rating']:.1f}</td><td>{r['games']}</td></tr>"
            for i, r in enumerate(rows, 1)
        )
        body = (
            '<table class="standings leaderboard"><thead><tr><th>#</th><th>Player</th><th>Rating</th>'
            f"<th>Rated games</th></tr></thead><tbody>{trs}</tbody></table>"
            '<p class="muted">Rating: openskill (Plackett-Luce) mu - 3 sigma. Bots are fixed anchors.</p>'
        )
    return pages.page(f"Leaderboard: {title}", body)


@router.get("/players/{username}", include_in_schema=False)
async def profile_page(username: str, request: Request) -> HTMLResponse:
    found = await asyncio.to_thread(ratings.profile, _store(request).engine, username[:64], game_names())
    if found is None:
        response = pages.page("Player", "<p>There is no such player.</p>")
        response.status_code = 404
        return response
    parts = []
    for game, r in found["ratings"].items():
        history = found["history"].get(game, [])
        recent = "".join(
            f'<li><a href="/replay/{html.escape(e["table"])}">table {html.escape(e["table"])}</a>: '
            f"place {e['place']}, rating {e['before']:.1f} → {e['after']:.1f}</li>"
            for e in reversed(history[-10:])
        )
        parts.append(
            f'<section class="rating" data-game="{html.escape(game)}"><h2>{html.escape(get_game(game).title)}</h2>'
            f'<p>Rating <strong class="rating-value">{r["rating"]:.1f}</strong> '
            f"(mu {r['mu']:.2f}, sigma {r['sigma']:.2f}) after {r['games']} rated games.</p>"
            f"{_plot(history)}<h3>Recent rated games</h3><ul>{recent}</ul></section>"
        )
    body = "".join(parts) or "<p>No rated games yet.</p>"
    return pages.page(f"Player {found['username']}", body)
