"""Ratings for people: per game, an openskill (Plackett-Luce) rating for every account, from rated
tables (chosen when the table is made; only accounts sit at them, bots too). Bots are fixed anchors:
they are rated in each game like anyone else but their rating never moves, so a lone player gets a
rating by playing bots and the scale stays put. A bot's anchor is openskill's starting rating unless
the operator stored one (``courtcards accounts anchor GAME KIND MU SIGMA``).

The rating shown is openskill's ordinal (mu - 3 sigma: 0 for a new player, rising as games show
strength and shrink the uncertainty). Rating happens in the transaction that stores the game's end,
once, in the process that committed the last action.
"""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from courtcards.server.db import accounts_t, rating_events_t, ratings_t

HISTORY_POINTS = 200  # rating changes drawn on a profile


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def account_key(account_id: int) -> str:
    return f"a:{account_id}"


def bot_key(kind: str) -> str:
    return f"bot:{kind}"


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_game(conn: Connection, game: str, table_id: str, players: list[str], ranking: list[int], now: float) -> None:
    """Rate a finished game: ``players`` the key of each seat, ``ranking`` the seats best first. Accounts'
    ratings move; bots' never do. A game with fewer than two players or an account in two seats is not rated."""
    accounts = [p for p in players if p.startswith("a:")]
    if not accounts or len(set(accounts)) != len(accounts) or len(players) < 2 or len(ranking) != len(players):
        return
    model = _model()
    rows = {
        r["player"]: r
        for r in conn.execute(
            sa.select(ratings_t).where(ratings_t.c.game == game, ratings_t.c.player.in_(set(players)))
        ).mappings()
    }

    def current(key: str) -> Any:
        row = rows.get(key)
        return model.rating() if row is None else model.rating(mu=row["mu"], sigma=row["sigma"])

    teams = [[current(players[seat])] for seat in ranking]
    new = model.rate(teams, ranks=list(range(len(ranking))))
    for place, (seat, team) in enumerate(zip(ranking, new, strict=True)):
        key = players[seat]
        if not key.startswith("a:"):
            continue  # an anchor
        old = current(key)
        after = team[0]
        values = {"mu": after.mu, "sigma": after.sigma, "updated": now}
        if key in rows:
            conn.execute(
                sa.update(ratings_t)
                .where(ratings_t.c.player == key, ratings_t.c.game == game)
                .values(**values, games=ratings_t.c.games + 1)
            )
        else:
            conn.execute(ratings_t.insert().values(player=key, game=game, games=1, **values))
        conn.execute(
            rating_events_t.insert().values(
                player=key,
                game=game,
                table_id=table_id,
                place=place,
                before=ordinal(old.mu, old.sigma),
                after=ordinal(after.mu, after.sigma),
                at=now,
            )
        )


def set_anchor(engine: Engine, game: str, kind: str, mu: float, sigma: float) -> None:
    """Store a bot's fixed rating in a game (e.g. from ``courtcards ladder``)."""
    key = bot_key(kind)
    with engine.begin() as conn:
        conn.execute(ratings_t.delete().where(ratings_t.c.player == key, ratings_t.c.game == game))
        conn.execute(ratings_t.insert().values(player=key, game=game, mu=mu, sigma=sigma, games=0, updated=time.time()))


def leaderboard(engine: Engine, game: str, limit: int) -> list[dict[str, Any]]:
    """Accounts rated in ``game``, best first (by ordinal); disabled accounts left out."""
    order = (ratings_t.c.mu - 3 * ratings_t.c.sigma).desc()
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(accounts_t.c.username, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
            .join(accounts_t, ratings_t.c.player == sa.literal("a:") + sa.cast(accounts_t.c.id, sa.String))
            .where(ratings_t.c.game == game, accounts_t.c.disabled.is_(False))
            .order_by(order, accounts_t.c.username_key)
            .limit(limit)
        ).all()
    return [
        {"username": u, "rating": round(ordinal(mu, sg), 2), "mu": round(mu, 3), "sigma": round(sg, 3), "games": n}
        for u, mu, sg, n in rows
    ]


def profile(engine: Engine, username: str, games: list[str]) -> dict[str, Any] | None:
    """An account's public page: its ratings per game, their history and its recent rated games."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(accounts_t.c.id, accounts_t.c.username, accounts_t.c.created).where(
                accounts_t.c.username_key == username.lower(), accounts_t.c.disabled.is_(False)
            )
        ).first()
        if row is None:
            return None
        key = account_key(int(row[0]))
        ratings = {
            g: {"rating": round(ordinal(mu, sg), 2), "mu": round(mu, 3), "sigma": round(sg, 3), "games": n}
            for g, mu, sg, n in conn.execute(
                sa.select(ratings_t.c.game, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games).where(
                    ratings_t.c.player == key, ratings_t.c.game.in_(games)
                )
            )
        }
        history: dict[str, list[dict[str, Any]]] = {}
        for g in ratings:
            events = conn.execute(
                sa.select(
                    rating_events_t.c.table_id,
                    rating_events_t.c.place,
                    rating_events_t.c.before,
                    rating_events_t.c.after,
                    rating_events_t.c.at,
                )
                .where(rating_events_t.c.player == key, rating_events_t.c.game == g)
                .order_by(rating_events_t.c.at.desc(), rating_events_t.c.id.desc())
                .limit(HISTORY_POINTS)
            ).all()
            history[g] = [
                {"table": t, "place": p + 1, "before": round(b, 2), "after": round(a, 2), "at": at}
                for t, p, b, a, at in reversed(events)
            ]
    return {"username": row[1], "created": row[2], "ratings": ratings, "history": history}
