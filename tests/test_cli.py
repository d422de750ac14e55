"""The command line: play (watching and as a player), replay, errors, renderers."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from courtcards.cli.main import app
from courtcards.cli.play import PlaySession, setup_session
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.games.rank.render import describe_event
from courtcards.render import TerminalRenderer, get_renderer

runner = CliRunner()
QUICK = ["-o", "tokens_to_win=1"]


def console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None)


def output(session: PlaySession) -> str:
    file = session.console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def human_session(tmp_path: Path, answer: Callable[[PlaySession], str], **kw: Any) -> PlaySession:
    holder: list[PlaySession] = []
    session = setup_session(
        "rank",
        seed=kw.pop("seed", 11),
        options=kw.pop("options", ["tokens_to_win=1"]),
        console=console(),
        input_fn=lambda prompt: answer(holder[0]),
        record=tmp_path / "game.json",
        **kw,
    )
    holder.append(session)
    return session


def test_watch_game_finishes_and_its_record_replays_to_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    args = ["play", "rank", "--watch", "--delay", "0", "--seed", "5", *QUICK, "--record", str(path)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "seed 5" in res.output and "Game over" in res.output and "Winner" in res.output
    assert f"saved to {path}" in res.output.replace("\n", "")
    record = GameRecord.load(path)
    assert record.result is not None and all(p.startswith("bot:") for p in record.meta["players"])
    # the same command again deals and plays the same game, move for move
    session = setup_session(
        "rank",
        seed=5,
        options=["tokens_to_win=1"],
        watch=True,
        delay=0,
        console=console(),
        record=tmp_path / "again.json",
    )
    assert session.run() == 0
    assert record.replay().to_json() == session.state.to_json()
    assert GameRecord.load(tmp_path / "again.json").actions == record.actions


def test_human_game_with_wrong_inputs_then_legal_moves_to_the_end(tmp_path: Path) -> None:
    wrong = ["zz top", "12 12 12 12 12 12 12 12", "give 3"]

    def answer(session: PlaySession) -> str:
        if wrong:
            return wrong.pop(0)
        return session.human_legal()[0]

    session = human_session(tmp_path, answer)
    assert session.run() == 0
    text = output(session)
    assert "cannot read 'zz top': not a Rank card" in text
    assert "illegal action '12 12 12 12 12 12 12 12' by seat 1 (you): you hold" in text  # seats from 1
    assert "illegal action 'give 3' by seat 1 (you)" in text
    assert text.count("Try again") == 3
    assert "Your hand (15)" in text and "Your moves:" in text and "Game over" in text
    assert session.state.is_over()
    record = GameRecord.load(tmp_path / "game.json")
    assert record.meta["players"][0] == "human"
    assert record.replay().to_json() == session.state.to_json()


def test_human_in_a_simultaneous_exchange_classic_president(tmp_path: Path) -> None:
    # RK-13: King and Queen give back at once; the bot commits first, hidden from the human.
    seen: list[dict[str, object]] = []

    def answer(session: PlaySession) -> str:
        view = session.view()
        if view["phase"] == "exchange":
            seen.append(view["pending"])
        return max(session.human_legal(), key=lambda t: (t != "pass", len(t.split())))  # shed fast

    session = human_session(tmp_path, answer, seed=19, options=["tokens_to_win=3", "classic_president=true"])
    assert session.run() == 0
    assert session.state.is_over()
    assert seen == [{"committed": [3]}]  # who has chosen, never what
    text = output(session)
    assert "Seat 3 hands C2 to seat 1 (you) (Classic President)." in text  # engine seats 2 and 0
    assert "Seat 4 has chosen what to give back." in text
    assert "Seat 1 (you) gives" in text and "back to seat 3." in text


def test_quit_help_and_moves_then_the_record_is_saved(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    res = runner.invoke(app, ["play", "rank", "--seed", "3", "--record", str(path)], input="help\nmoves\nquit\n")
    assert res.exit_code == 0, res.output
    assert "Rank notation" in res.output and "You quit the game." in res.output
    assert path.exists()
    record = GameRecord.load(path)
    assert record.result is None and record.seed == 3
    assert all(seat != 0 for seat, _ in record.actions)  # only bots moved before our first turn


def test_end_of_input_and_ctrl_c_save_the_record(tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    res = runner.invoke(app, ["play", "rank", "--seed", "4", "--record", str(path)], input="")
    assert res.exit_code == 0 and "End of input" in res.output and path.exists()

    def interrupt(session: PlaySession) -> str:
        raise KeyboardInterrupt

    session = human_session(tmp_path, interrupt)
    assert session.run() == 130
    assert "Interrupted" in output(session) and (tmp_path / "game.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nogame"], "unknown game 'nogame'; known games: "),
        (["play", "rank", "--bots", "nobot"], "unknown bot 'nobot' for rank; valid bots: "),
        (["play", "rank", "--bots", "random,random"], "one per bot seat (3)"),
        (["play", "rank", "-o", "nosuch=1"], "unknown option 'nosuch'; valid options: tokens_to_win"),
        (["play", "rank", "-o", "tokens_to_win=many"], "does not accept 'many'"),
        (["play", "rank", "--preset", "nope"], "unknown preset 'nope'; valid presets: "),
        (["play", "rank", "--players", "2"], "Rank is for 3 to 12 players, not 2"),
        (["play", "rank", "--seat", "5"], "--seat must be a seat 1..4, not 5"),
        (["play", "rank", "--seat", "0"], "--seat must be a seat 1..4, not 0"),
    ],
)
def test_bad_names_exit_2_listing_the_valid_ones(args: list[str], message: str, tmp_path: Path) -> None:
    res = runner.invoke(app, [*args, "--record", str(tmp_path / "x.json")])
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    if "known games" in message:
        assert "rank" in res.output.split("known games:")[1]
    if "valid bots" in message:
        assert "random" in res.output.split("valid bots:")[1]
    assert not (tmp_path / "x.json").exists()


def _finished_record(tmp_path: Path) -> Path:
    path = tmp_path / "done.json"
    session = setup_session(
        "rank", seed=8, options=["tokens_to_win=1"], watch=True, delay=0, console=console(), record=path
    )
    assert session.run() == 0
    return path


def test_replay_no_interactive_prints_every_step_and_the_result(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    record = GameRecord.load(path)
    n = len(record.actions)
    res = runner.invoke(app, ["replay", str(path), "--no-interactive"])
    assert res.exit_code == 0, res.output
    assert f"Step {n}/{n}" in res.output and "Game over" in res.output
    winner = record.result["winner"] if record.result else None
    assert winner is not None and f"Winner: seat {winner + 1}" in res.output  # seats numbered from 1
    res = runner.invoke(app, ["replay", str(path), "--no-interactive", "--seat", "1", "--all", "--to", "3"])
    assert res.exit_code == 0, res.output
    assert "Step 3/" in res.output and "Step 4/" not in res.output and "Every hand:" in res.output


def test_replay_interactive_steps_forward_back_and_quits(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    res = runner.invoke(app, ["replay", str(path)], input="\n\nb\n5\nq\n")
    assert res.exit_code == 0, res.output
    n = len(GameRecord.load(path).actions)
    assert re.findall(rf"Step (\d+)/{n}:", res.output) == ["0", "1", "2", "1", "5"]


def test_replay_refuses_missing_bad_and_tampered_records(tmp_path: Path) -> None:
    res = runner.invoke(app, ["replay", str(tmp_path / "none.json"), "--no-interactive"])
    assert res.exit_code == 2 and "cannot read record" in res.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = runner.invoke(app, ["replay", str(bad), "--no-interactive"])
    assert res.exit_code == 2 and "is not JSON" in res.output
    path = _finished_record(tmp_path)
    data = json.loads(path.read_text())
    data["actions"][0][1] = "C C"
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["replay", str(path), "--no-interactive"])
    assert res.exit_code == 2 and "action 1 ('C C' by seat" in res.output and "does not replay" in res.output


def test_renderer_registry_falls_back_to_the_generic_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("rank")
    assert not get_renderer(game).is_generic and get_renderer("rank") is get_renderer(game)
    monkeypatch.setattr(type(game), "profile", lambda self, layer: None)
    generic = get_renderer("rank")
    assert generic.is_generic and type(generic) is TerminalRenderer
    con = console()
    generic.view(con, {"game": "rank", "seat": 1, "hand": ["x"], "deck_size": 3})
    shown = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Rank" in shown and "Your hand (1): x" in shown and "deck size: 3" in shown
    # a view without a log: only the viewer's own actions are known to be public
    assert generic.event({}, {"seat": 1}, 2, "secret") == ["Seat 3 moves."]
    assert generic.event({}, {"seat": 2}, 2, "mine") == ["You: mine"]


def test_steal_card_is_shown_to_king_and_beggar_only() -> None:
    # RK-12 / RK-16: the card taken is seen by the King and the Beggar only.
    game = get_game("rank")
    hands = [
        ["1"] * 5 + ["2"] * 5 + ["3"] * 5,
        ["4"] * 5 + ["5"] * 5 + ["6"] * 5,
        ["7"] * 5 + ["8"] * 5 + ["9"] * 5,
        ["10"] * 5 + ["11"] * 5 + ["12"] * 5,
    ]
    log = [{"hand": 1, "finish": [0, 1, 2, 3], "king": 0, "queen": 1, "beggar": 3, "tokens": [2, 1, 0, 0]}]
    state = game.state_from_json(
        {
            "hands": hands,
            "phase": "benefit",
            "round": 2,
            "hands_log": log,
            "characters": ["king", "queen", "knight", "beggar"],
            "tokens": [2, 1, 0, 0],
        }
    )
    before = [state.view(s) for s in range(4)]
    state.apply(0, "steal")
    after = [state.view(s) for s in range(4)]
    lines = {s: Text.from_markup(" ".join(describe_event(before[s], after[s], 0, "steal"))).plain for s in range(4)}
    assert "The King (you) steals 12 from the Beggar (seat 4)" in lines[0]
    assert "The King (seat 1) steals 12 from the Beggar (you)" in lines[3]
    assert "steals a card from the Beggar (seat 4)" in lines[1]
    assert "12" not in lines[2] and "steals a card" in lines[2]


def test_version_names_the_engine_build() -> None:
    import courtcards
    from courtcards.core import state

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    build = "pure" if state.__file__.endswith(".py") else "compiled"  # .ci/test-compiled runs this on both
    assert result.output.strip() == f"courtcards {courtcards.__version__} (engine: {build})"
