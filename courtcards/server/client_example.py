"""A small WebSocket client that plays a whole game against a courtcards server.

    python -m courtcards.server.client_example --server http://127.0.0.1:8000 --game rank --players 4

creates a table with this client at seat 0 and bots at the others (or joins
``--table ID``), then plays a random legal action whenever its seat must decide,
and prints the result. Standard library + the ``websockets`` package only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def http(server: str, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return dict(json.load(resp))
    except urllib.error.HTTPError as exc:
        err = json.load(exc).get("error", {})
        raise SystemExit(f"{method} {path}: {exc.code} {err.get('code')}: {err.get('message')}") from None


def play(
    server: str, table_id: str, token: str, rng: random.Random, max_actions: int | None = None, quiet: bool = False
) -> dict[str, Any]:
    """Play the seat of ``token`` until the game is over (or ``max_actions``); the last state message."""
    ws_url = server.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}"
    sent = 0
    waiting: int | None = None  # the version we acted on, until a newer state (or a refusal) arrives
    last: dict[str, Any] = {}
    with connect(ws_url) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":
                if not quiet:
                    print(f"refused: {msg['code']}: {msg['message']}", file=sys.stderr)
                waiting = None
                continue
            if msg["type"] != "state":
                continue
            last = msg
            if msg["status"] == "finished" or (max_actions is not None and sent >= max_actions):
                return last
            if msg["legal"] and msg["version"] != waiting:
                action = rng.choice(msg["legal"])
                ws.send(json.dumps({"type": "action", "action": action, "version": msg["version"]}))
                sent += 1
                waiting = msg["version"]
                if not quiet:
                    print(f"v{msg['version']}: seat {msg['seat']} plays {action}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default="http://127.0.0.1:8000")
    p.add_argument("--table", help="Join this table instead of creating one.")
    p.add_argument("--token", help="Play the seat of this token (from an earlier join) instead of joining.")
    p.add_argument("--seat", type=int, help="Seat to join (default: the first free human seat).")
    p.add_argument("--game", help="Game of a new table (default: the first game the server lists).")
    p.add_argument("--players", type=int)
    p.add_argument(
        "--bots",
        help="Bot kind for the other seats of a new table (default: greedy where the game has it, else random).",
    )
    p.add_argument("--option", "-o", action="append", default=[], help="Game option name=value (new table).")
    p.add_argument("--bot-delay", type=float, default=0.0)
    p.add_argument("--name", default="client")
    p.add_argument("--seed", type=int, help="Seed of this client's random choices.")
    p.add_argument("--max-actions", type=int, help="Stop after this many actions (the game goes on).")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    server = args.server.rstrip("/")
    table_id = args.table
    if table_id is None and args.token is not None:
        p.error("--token needs --table")
    if table_id is None:
        games = http(server, "GET", "/api/games")["games"]
        if not games:
            raise SystemExit("the server serves no game")
        game = games[0] if args.game is None else next((g for g in games if g["name"] == args.game), None)
        if game is None:
            raise SystemExit(f"the server has no game {args.game!r}; it has: {', '.join(g['name'] for g in games)}")
        n = args.players or game["default_players"]
        options = dict(o.split("=", 1) for o in args.option)
        bots = args.bots or ("greedy" if "greedy" in game["bots"] else "random")
        seats = [{"type": "human"}] + [{"type": "bot", "bot": bots}] * (n - 1)
        table = http(
            server,
            "POST",
            "/api/tables",
            {"game": game["name"], "players": n, "options": options, "seats": seats, "bot_delay": args.bot_delay},
        )["table"]
        table_id = table["id"]
        print(f"created table {table_id}")
    token = args.token
    if token is None:
        body: dict[str, Any] = {"name": args.name}
        if args.seat is not None:
            body["seat"] = args.seat
        joined = http(server, "POST", f"/api/tables/{table_id}/join", body)
        token = joined["token"]
        print(f"joined table {table_id} at seat {joined['seat']} with token {token}")
    try:
        last = play(server, table_id, token, random.Random(args.seed), args.max_actions, args.quiet)
    except (ConnectionClosed, OSError) as exc:
        print(f"connection lost ({exc}); continue with --table {table_id} --token {token}", file=sys.stderr)
        return 1
    print(f"table {table_id}: {last['status']} at version {last['version']}")
    if last["result"] is not None:
        print("result:", json.dumps(last["result"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
