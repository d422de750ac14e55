"""Text agents: prompts, reply reading, retries, local games, an external program, a server table."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from courtcards.agents.text import (
    AgentError,
    AgentGaveUp,
    CommandAgent,
    NoMoveError,
    build_prompt,
    parse_table_url,
    play_local,
    play_table,
    read_reply,
)
from courtcards.cli.main import app
from courtcards.core.game import get_game
from courtcards.server import create_app, database_url
from courtcards.server.client_example import http

SMALL: dict[str, tuple[int, dict[str, Any]]] = {
    "rank": (3, {"tokens_to_win": 1}),
    "kqp": (4, {"rounds": 1}),
    "royale": (2, {"max_rounds": 30}),
    "royals": (3, {"max_turns": 20}),
}


def legal_in(prompt: str) -> list[str]:
    """The moves listed in a prompt (what a scripted agent reads)."""
    section = prompt.split("## Your legal moves\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in section.splitlines() if not line.startswith("(and ")]


def last_move_agent(prompt: str) -> str:
    moves = legal_in(prompt)
    return f"Let me think about it.\nThere are {len(moves)} moves.\nMOVE: {moves[-1]}"


@pytest.mark.parametrize("game", sorted(SMALL))
def test_prompt_is_self_contained_from_the_view(game: str) -> None:
    n, options = SMALL[game]
    state = get_game(game).new_game(n, options, seed=3)
    seat = state.to_move()[0]
    legal = [a.text for a in state.legal_actions(seat)]
    prompt = build_prompt(state.view(seat), legal)
    assert f"seat {seat} of {n}" in prompt and "## Rules in brief" in prompt and "## Notation" in prompt
    assert legal_in(prompt) == legal[:300]
    assert "[bold]" not in prompt and "\x1b[" not in prompt  # plain text, no markup or colour codes
    full = build_prompt(state.view(seat), legal, rules="full")
    assert f"# {get_game(game).title}" in full and "## Bots" not in full and "```" not in full
    assert "<details>" not in full and "rulings.md" not in full and "## How to play" in full
    assert len(full) > len(prompt)
    with pytest.raises(AgentError, match="brief' or 'full"):
        build_prompt(state.view(seat), legal, rules="none")


@pytest.mark.parametrize("game", ["rank", "kqp", "royale", "royals"])
def test_the_prompt_tells_what_happened_in_the_engines_words(game: str) -> None:
    n, options = SMALL[game]
    state = get_game(game).new_game(n, options, seed=3)
    for _ in range(30):  # into the game, so the log has more than its opening
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
        if state.is_over():
            break
    seat = state.to_move()[0] if state.to_move() else 0
    view = state.view(seat)
    prompt = build_prompt(view, [a.text for a in state.legal_actions(seat)])
    lately = prompt.split("## What happened lately (oldest first)\n", 1)[1].split("\n\n", 1)[0]
    assert lately.splitlines() == [e["text"] for e in view["log"][-12:]] and lately.strip()


@pytest.mark.parametrize("game", sorted(SMALL))
def test_scripted_agent_plays_whole_local_games(game: str) -> None:
    n, options = SMALL[game]
    played = play_local(game, {0: last_move_agent}, num_players=n, options=options, seed=5, bots="random")
    assert played.state.is_over()
    mine = [t for s, t in played.state.history if s == 0]
    assert [d.move for d in played.decisions] == mine and mine
    assert all(len(d.attempts) == 1 for d in played.decisions)


def test_reply_reading_accepts_notation_and_moves_inside_answers() -> None:
    rank = get_game("rank")
    legal = ["2", "2 2", "8 8", "8 8 7 U", "pass"]
    assert read_reply(rank, "8 8", legal) == "8 8"
    assert read_reply(rank, "8 8 u 7", legal) == "8 8 7 U"  # canonical form of what was written
    assert read_reply(rank, "I would rather keep my pair, so I play 8 8 7 U this time.", legal) == "8 8 7 U"
    assert read_reply(rank, "Pass seems best.\n\n**Move:** `pass`", legal) == "pass"
    assert read_reply(rank, "MOVE: 9 9", legal) == "9 9"  # a move, though not legal: the engine says why
    with pytest.raises(NoMoveError, match="several legal moves"):
        read_reply(rank, "either 2 or pass", legal)
    with pytest.raises(NoMoveError, match="no move found"):
        read_reply(rank, "I am not sure.", legal)


def test_refused_replies_get_the_engine_reason_and_bounded_retries() -> None:
    replies = iter(["hmm, no idea", "MOVE: 13 13 13", "MOVE: totally bogus"])
    prompts: list[str] = []

    def stubborn(prompt: str) -> str:
        prompts.append(prompt)
        return next(replies, "MOVE: pass")

    with pytest.raises(AgentGaveUp) as info:
        play_local("rank", {0: stubborn}, num_players=3, options={"tokens_to_win": 1}, seed=1, max_retries=2)
    attempts = info.value.attempts
    assert [a.move for a in attempts] == [None, "13 13 13", "totally bogus"]
    assert "no move found" in str(attempts[0].refusal)
    assert "cannot read '13 13 13'" in str(attempts[1].refusal)  # the engine's own words
    assert "Reason: no move found" in prompts[1] and "cannot read '13 13 13'" in prompts[2]
    assert "3 attempts" in str(info.value)


def test_an_illegal_move_is_refused_with_the_reason_then_retried() -> None:
    seen: list[str] = []

    def pass_first(prompt: str) -> str:
        seen.append(prompt)
        return "MOVE: pass" if len(seen) == 1 else last_move_agent(prompt)

    # seat 0 of a fresh Rank game leads when King; otherwise play to its first lead
    game = get_game("rank")
    seed = next(s for s in range(50) if game.new_game(3, {"tokens_to_win": 1}, s).to_move() == (0,))
    played = play_local("rank", {0: pass_first}, num_players=3, options={"tokens_to_win": 1}, seed=seed, max_actions=1)
    first = played.decisions[0]
    assert [a.move for a in first.attempts] == ["pass", first.move] and first.move != "pass"
    assert "illegal action 'pass' by seat 0" in str(first.attempts[0].refusal)


def test_command_agent_runs_a_program_per_decision(tmp_path: Path) -> None:
    script = tmp_path / "agent.py"
    script.write_text(
        "import sys\n"
        "text = sys.stdin.read()\n"
        "moves = text.split('## Your legal moves\\n', 1)[1].split('\\n\\n', 1)[0].splitlines()\n"
        "print('I pick the first one.\\nMOVE: ' + moves[0])\n"
    )
    agent = CommandAgent(f"{sys.executable} {script}")
    played = play_local("royale", {0: agent}, options={"max_rounds": 5}, seed=2)
    assert played.state.is_over() and played.decisions
    with pytest.raises(AgentError, match="exited with code 3"):
        CommandAgent(f"{sys.executable} -c 'import sys; sys.exit(3)'")("prompt")
    with pytest.raises(AgentError, match="not found"):
        CommandAgent("no-such-program-xyz")("prompt")


def test_table_links_are_read() -> None:
    assert parse_table_url("http://127.0.0.1:8000/table/k3x9") == ("http://127.0.0.1:8000", "k3x9", None)
    assert parse_table_url("http://h:1/join/k3x9/2") == ("http://h:1", "k3x9", 2)
    assert parse_table_url("https://h/api/tables/ab") == ("https://h", "ab", None)
    with pytest.raises(AgentError, match="no table id"):
        parse_table_url("http://h:1/")
    with pytest.raises(AgentError, match="must be a link"):
        parse_table_url("k3x9")


# -- against a real server on loopback -------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        create_app(database_url(None, tmp_path / "cc.sqlite")),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    end = time.time() + 20
    while not srv.started:
        assert time.time() < end and thread.is_alive(), "server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


def new_table(server: str, game: str, human_seats: set[int]) -> str:
    n, options = SMALL[game]
    seats = [{"type": "human"} if s in human_seats else {"type": "bot", "bot": "random"} for s in range(n)]
    body = {"game": game, "players": n, "options": options, "seats": seats, "seed": 4, "bot_delay": 0}
    return str(http(server, "POST", "/api/tables", body)["table"]["id"])


@pytest.mark.parametrize("game", ["rank", "royale"])
def test_scripted_agent_plays_a_server_table(server: str, game: str) -> None:
    tid = new_table(server, game, {1})
    lines: list[str] = []
    calls = 0

    def agent(prompt: str) -> str:
        nonlocal calls
        calls += 1
        return "no idea" if calls == 1 else last_move_agent(prompt)  # one retry, then good moves

    last = play_table(f"{server}/table/{tid}", agent, seat=1, log=lines.append)
    assert last["status"] == "finished" and last["result"] is not None
    record = http(server, "GET", f"/api/tables/{tid}/record")
    mine = [t for s, t in record["actions"] if s == 1]
    played = [line.split(" plays ", 1)[1].rsplit(" (", 1)[0] for line in lines if " plays " in line]
    assert played == mine and "(2 attempts)" in next(line for line in lines if " plays " in line)


def test_cli_agent_runs_a_command_at_a_server_table(server: str, tmp_path: Path) -> None:
    tid = new_table(server, "royale", {0})
    script = tmp_path / "agent.py"
    script.write_text(
        "import sys\n"
        "moves = sys.stdin.read().split('## Your legal moves\\n', 1)[1].split('\\n\\n', 1)[0].splitlines()\n"
        "print('MOVE: ' + moves[-1])\n"
    )
    result = CliRunner().invoke(
        app, ["agent", "--table", f"{server}/join/{tid}/0", "--command", f"{sys.executable} {script}"]
    )
    assert result.exit_code == 0, result.output
    assert "joined table" in result.output and "game over" in result.output
    bad = CliRunner().invoke(app, ["agent", "--table", f"{server}/table/nope", "--command", "cat"])
    assert bad.exit_code != 0 and "table_not_found" in bad.output
    down = CliRunner().invoke(app, ["agent", "--table", "http://127.0.0.1:1/table/x", "--command", "cat"])
    assert down.exit_code == 1 and "cannot reach the server" in down.output
