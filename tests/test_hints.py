"""Hints: the search bot's move for a human seat from its view, at the terminal and in the browser API."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from courtcards.bots.ismcts import hint, win_chance
from courtcards.cli.main import app
from courtcards.core.conformance import resample_hidden
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.core.rng import Rng
from courtcards.server import create_app, database_url
from courtcards.server.tables import Table


def test_win_chance_inverts_the_returns_of_a_finished_game() -> None:
    # the winner gets +1, the others -1/(n-1): those values mean certain win and certain loss
    assert win_chance(1.0, 4) == 1.0
    assert win_chance(-1 / 3, 4) == pytest.approx(0.0)
    assert win_chance(0.0, 4) == pytest.approx(0.25)
    assert win_chance(0.0, 2) == pytest.approx(0.5)
    assert win_chance(-1.0, 4) == 0.0  # clipped


def test_hint_depends_only_on_the_view() -> None:
    state = get_game("rank").new_game(4, seed=11)
    seat = state.to_move()[0]
    other = resample_hidden(state, seat, Rng(5))
    a = hint(state.view(seat), state.legal_actions(seat), 3, seconds=60, iterations=40)
    b = hint(other.view(seat), other.legal_actions(seat), 3, seconds=60, iterations=40)
    assert a.action.text == b.action.text and a.chance == b.chance
    assert state.can_apply(seat, a.action.text)
    assert a.chance is not None and 0.0 <= a.chance <= 1.0 and a.iterations == 40


def test_hint_at_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("courtcards.cli.play.HINT_SECONDS", 0.2)
    path = tmp_path / "g.json"
    res = CliRunner().invoke(app, ["play", "rank", "--seed", "1", "--record", str(path)], input="hint\nquit\n")
    assert res.exit_code == 0, res.output
    found = re.search(r"Hint: (.+?) \(estimated win chance (\d+)%\)", res.output)
    assert found, res.output
    state = GameRecord.load(path).replay()  # the position the hint was given in (the human quit after it)
    assert list(state.to_move()) == [0] and state.can_apply(0, found.group(1))


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr("courtcards.server.hints.HINT_SECONDS", 0.2)
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        yield c


def _table(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, list[str], Table]:
    body = {"game": "rank", "players": len(seats), "seed": 7, "bot_delay": 0, "seats": seats, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    tokens = []
    for seat, spec in enumerate(seats):
        if spec["type"] == "human":
            r = client.post(f"/api/tables/{tid}/join", json={"seat": seat})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
    table: Table = client.app.state.lobby.tables[tid]  # type: ignore[attr-defined]
    return tid, tokens, table


def _wait_for_seat(table: Table, seat: int) -> None:
    deadline = time.monotonic() + 60
    while seat not in table.to_move():
        assert time.monotonic() < deadline, "the bots did not hand the turn to the human"
        time.sleep(0.02)


def test_hint_endpoint_against_bots(client: TestClient) -> None:
    bots = [{"type": "human"}, {"type": "bot", "bot": "greedy"}, {"type": "bot", "bot": "ismcts:5"}]
    tid, (token,), table = _table(client, bots)
    assert client.get(f"/api/tables/{tid}").json()["table"]["settings"]["hints"] is True
    r = client.post(f"/api/tables/{tid}/hint", json={"token": "nope"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    _wait_for_seat(table, 0)
    r = client.post(f"/api/tables/{tid}/hint", json={"token": token})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == 0 and body["version"] == table.state.version
    assert table.state.can_apply(0, body["action"])
    assert 0.0 <= body["win_chance"] <= 1.0 and body["iterations"] >= 1


def test_no_hints_between_people_unless_the_table_asks(client: TestClient) -> None:
    people = [{"type": "human"}] * 3
    tid, tokens, table = _table(client, people)
    assert table.settings.hints is False
    r = client.post(f"/api/tables/{tid}/hint", json={"token": tokens[0]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "hints_off"
    tid, tokens, table = _table(client, people, hints=True)
    mover = table.state.to_move()[0]
    waiting = (mover + 1) % 3
    r = client.post(f"/api/tables/{tid}/hint", json={"token": tokens[waiting]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = client.post(f"/api/tables/{tid}/hint", json={"token": tokens[mover]})
    assert r.status_code == 200 and table.state.can_apply(mover, r.json()["action"])


def _forced_position(client: TestClient, game: str, players: int, seed: int) -> tuple[str, str, Table, int]:
    """A table of people (hints on) played on with each mover's first legal action until a seat to act has
    exactly one legal action: the table, that seat's token, the table and the seat."""
    tid, tokens, table = _table(client, [{"type": "human"}] * players, game=game, seed=seed, hints=True)
    for _ in range(500):
        movers = table.to_move()
        assert movers, f"the {game} game ended before a forced move"
        forced = [s for s in movers if len(table.state.legal_actions(s)) == 1]
        if forced:
            return tid, tokens[forced[0]], table, forced[0]
        seat = movers[0]
        text = table.state.legal_actions(seat)[0].text
        assert client.portal.call(table.act, seat, text, table.state.version) is None  # type: ignore[union-attr]
    raise AssertionError(f"no forced move in 500 {game} actions")


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("rank", 3, 7), ("kqp", 4, 7), ("royale", 2, 2), ("royals", 3, 2)]
)
def test_hint_for_a_forced_move_in_every_game(client: TestClient, game: str, players: int, seed: int) -> None:
    tid, token, table, seat = _forced_position(client, game, players, seed)
    (only,) = table.state.legal_actions(seat)
    r = client.post(f"/api/tables/{tid}/hint", json={"token": token})
    assert r.status_code == 200, r.text
    assert r.json() == {
        "seat": seat,
        "version": table.state.version,
        "action": only.text,
        "win_chance": None,
        "forced": True,
        "iterations": 0,
    }


def test_hint_for_a_forced_move_against_bots(client: TestClient) -> None:
    # the reported case: Royals, 3 players, seed 2, a person and two greedy bots; seat 0 can only discard its hand
    seats = [{"type": "human"}, {"type": "bot", "bot": "greedy"}, {"type": "bot", "bot": "greedy"}]
    tid, (token,), table = _table(client, seats, game="royals", seed=2)
    _wait_for_seat(table, 0)
    assert [a.text for a in table.state.legal_actions(0)] == ["discard hand"]
    r = client.post(f"/api/tables/{tid}/hint", json={"token": token})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["action"] == "discard hand" and body["forced"] is True and body["win_chance"] is None
