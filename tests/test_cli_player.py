"""What a new player trips on at the terminal: resuming a quit game, line editing and completion,
one-line errors with the fix, presets in ``games``, card colours, and the lean core install."""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from test_cli import console
from test_cli import output as text_of
from typer.testing import CliRunner

from courtcards.cli.main import app, missing_extra
from courtcards.cli.play import PlaySession, resume_session, setup_session
from courtcards.cli.prompt import TerminalReader, WordsCompleter, terminal_input
from courtcards.core.game import registered_games
from courtcards.core.record import GameRecord
from courtcards.games.rank.render import cards_markup as rank_cards
from courtcards.games.royale.render import card_markup as royale_card
from courtcards.games.royals.render import card_markup as royals_card

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def quit_after(moves: int):  # type: ignore[no-untyped-def]
    """An input function that plays the first legal move ``moves`` times, then quits."""
    holder: list[PlaySession] = []
    played = [0]

    def answer(_prompt: str) -> str:
        if played[0] >= moves:
            return "quit"
        played[0] += 1
        return holder[0].human_legal()[0]

    return holder, answer


# -- resume -------------------------------------------------------------------------------------------
def test_a_quit_game_resumes_from_its_record_and_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    holder, answer = quit_after(3)
    first = setup_session(
        "rank", seed=21, options=["tokens_to_win=1"], bots="random", console=console(), input_fn=answer, record=path
    )
    holder.append(first)
    assert first.run() == 0
    assert f"courtcards play --resume {path}" in text_of(first).replace("\n", "")
    quit_record = GameRecord.load(path)
    assert not quit_record.replay().is_over() and quit_record.result is None

    holder2: list[PlaySession] = []
    resumed = resume_session(path, console=console(), input_fn=lambda _p: holder2[0].human_legal()[0])
    holder2.append(resumed)
    assert resumed.human == 0 and set(resumed.bots) == {1, 2, 3}
    assert resumed.state.to_json() == quit_record.replay().to_json()  # exactly where the player quit
    assert resumed.run() == 0
    out = text_of(resumed)
    assert f"resumed after {len(quit_record.actions)} actions" in out and "Game over" in out
    final = GameRecord.load(path)  # saved to the same file by default
    assert final.actions[: len(quit_record.actions)] == quit_record.actions
    assert final.result is not None and final.replay().to_json() == resumed.state.to_json()
    assert final.meta["players"] == quit_record.meta["players"] == ["human", "bot:random", "bot:random", "bot:random"]


def test_play_resume_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "royale", "--seed", "2", "--record", str(path)], input="quit\n")
    assert res.exit_code == 0 and "--resume" in res.output
    res = runner.invoke(app, ["play", "--resume", str(path)], input="board\nquit\n")
    assert res.exit_code == 0, res.output
    assert "Rank Royale, 2 players, seed 2: resumed after" in res.output and "Your hand" in res.output
    # a different game name, new deal options, or a finished game are refused with the reason
    res = runner.invoke(app, ["play", "rank", "--resume", str(path)])
    assert res.exit_code == 2 and "is a royale game, not rank" in res.output
    res = runner.invoke(app, ["play", "--resume", str(path), "--players", "2", "--seed", "3"])
    assert res.exit_code == 2 and "leave out --players, --seed" in res.output
    watched = tmp_path / "w.json"
    assert runner.invoke(app, ["play", "royale", "--watch", "--delay", "0", "--record", str(watched)]).exit_code == 0
    res = runner.invoke(app, ["play", "--resume", str(watched)])
    assert res.exit_code == 2 and f"courtcards replay {watched}" in res.output.replace("\n", "")
    res = runner.invoke(app, ["play"])
    assert res.exit_code == 2 and "or --resume FILE" in res.output


# -- prompt ---------------------------------------------------------------------------------------------
def completions(words: list[str], typed: str) -> list[str]:
    completer = WordsCompleter(lambda: words)
    return [c.text for c in completer.get_completions(Document(typed), CompleteEvent(completion_requested=True))]


def test_completer_offers_the_legal_moves_that_start_with_the_line() -> None:
    moves = ["pass", "8 8", "8 8 U", "8 8 7 U", "9", "help", "moves", "board", "quit"]
    assert completions(moves, "8 8") == ["8 8", "8 8 U", "8 8 7 U"]
    assert completions(moves, "8 8 ") == ["8 8 U", "8 8 7 U"]
    assert completions(moves, "8  8 7") == ["8 8 7 U"]  # spacing does not matter
    assert completions(moves, "p") == ["pass"]
    assert completions(moves, "") == moves
    assert completions(moves, "10") == []
    # case does not matter, and the completion replaces the whole line with the canonical text
    assert completions(["discard AH 4H", "discard AH 4S", "discard 4H 4S"], "DISCARD ah") == [
        "discard AH 4H",
        "discard AH 4S",
    ]


def test_completer_reads_the_legal_moves_of_a_real_game(tmp_path: Path) -> None:
    session = setup_session("royals", seed=5, console=console(), input_fn=lambda _p: "quit", record=None)
    while 0 not in session.state.to_move():
        seat = session.state.to_move()[0]
        session._apply(seat, session.bots[seat].choose(session.state.view(seat), session.state.legal_actions(seat)))
    legal = session.human_legal()
    first_word = legal[0].split()[0]
    got = completions(legal, first_word[:2])
    assert got and set(got) == {t for t in legal if t.startswith(first_word[:2])}


def enter_when_completed(read: TerminalReader, send: Callable[[str], None], line: str) -> None:
    """Press Enter once the prompt's line reads ``line`` (waits on the prompt's state, at most 60 s)."""
    deadline = time.monotonic() + 60
    while read.line != line and time.monotonic() < deadline:
        time.sleep(0.01)
    send("\r")


def test_terminal_prompt_completes_with_tab_and_recalls_history() -> None:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        read = terminal_input(lambda: ["pass", "8 8 7 U", "help"], "Your move> ")
        for typed, line in (("8 8\t", "8 8 7 U"), ("pa\t", "pass")):
            inp.send_text(typed)  # completion runs as a task of the prompt's loop: press Enter once it has
            enter = threading.Thread(target=enter_when_completed, args=(read, inp.send_text, line))
            enter.start()
            assert read("") == line
            enter.join()
        inp.send_text("\x1b[A\x1b[A\r")  # up, up: the line before last

        async def inside_a_running_loop() -> str:
            return read("")

        try:  # already inside one (Playwright's sync API keeps a loop running once the browser tests ran)
            asyncio.get_running_loop()
            assert read("") == "8 8 7 U"
        except RuntimeError:
            assert asyncio.run(inside_a_running_loop()) == "8 8 7 U"


def test_plain_input_when_stdin_is_not_a_terminal(tmp_path: Path) -> None:
    # CliRunner's stdin is a pipe: the game reads plain lines (as tests and pipes need).
    res = runner.invoke(
        app, ["play", "rank", "--seed", "1", "--record", str(tmp_path / "p.json")], input="moves\nquit\n"
    )
    assert res.exit_code == 0 and "You quit the game." in res.output


# -- one-line errors with the fix --------------------------------------------------------------------
def one_line_error(output: str) -> str:
    assert "Traceback" not in output and "Error" in output
    lines = [line for line in output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, output
    return output[output.index("Error") :].replace("\n", " ")


def test_replay_of_a_non_utf8_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "photo.json"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not text")
    res = runner.invoke(app, ["replay", str(bad), "--no-interactive"])
    assert res.exit_code == 2
    assert "is not a game record: it is not UTF-8 text (byte 0xff at position 0)" in one_line_error(res.output)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("seed"), "malformed game record: no 'seed'"),
        (lambda d: d.update(seed="seven"), "malformed game record: 'seed' must be an integer, not 'seven'"),
        (lambda d: d.update(actions=5), "'actions' must be a list of [seat, action] pairs"),
        (lambda d: d.update(meta=[1]), "'meta' must be an object"),
    ],
)
def test_malformed_records_name_the_field_not_a_python_exception(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "r.json"
    assert runner.invoke(app, ["play", "royale", "--watch", "--delay", "0", "--record", str(path)]).exit_code == 0
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    for args in (["replay", str(path), "--no-interactive"], ["play", "--resume", str(path)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2
        err = one_line_error(res.output)
        assert message in err and "KeyError" not in err and "TypeError" not in err


def test_play_record_given_a_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    res = runner.invoke(app, ["play", "rank", "--record", str(tmp_path)], input="8\n")
    assert res.exit_code == 2
    assert (
        f"--record {tmp_path} is a folder; give a file name, e.g. --record {tmp_path / 'game.json'}"
        in one_line_error(res.output)
    )
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = runner.invoke(app, ["play", "rank", "--record", str(blocker / "g.json")])
    assert res.exit_code == 2 and "cannot create the folder" in one_line_error(res.output)
    res = runner.invoke(app, ["play", "rank", "--seed", str(2**64)])
    assert res.exit_code == 2 and "--seed must be a 64-bit signed integer" in one_line_error(res.output)
    res = runner.invoke(app, ["play", "rank", "--watch", "--delay", "-1"])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_record_folder_gone_during_the_game_saves_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "gone"
    session = setup_session("royale", seed=3, console=console(), input_fn=lambda _p: "quit", record=folder / "g.json")
    folder.rmdir()
    folder.write_text("now a file")
    session.run()
    assert session.saved is not None and session.saved.parent == Path("records")
    assert "Cannot write" in text_of(session) and GameRecord.load(session.saved).game == "royale"


def test_missing_extra_names_the_install_command() -> None:
    code = (
        "import sys\n"
        "for m in ('uvicorn', 'fastapi', 'sqlalchemy'): sys.modules[m] = None\n"
        "sys.argv = ['courtcards', 'serve', '--port', '1']\n"
        "from courtcards.cli.main import main\nmain()\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 2
    (line,) = res.stderr.strip().splitlines()
    assert re.fullmatch(
        r"Error: this command needs (uvicorn|fastapi|sqlalchemy), which comes with the server extra: "
        r"pip install 'courtcards\[server\]'",
        line,
    ), line
    # a command module that itself needs an extra at import: the command is listed and says what to install
    code = (
        "import importlib.abc, sys\n"
        "class Finder(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'courtcards.cli.analyze':\n"
        "            raise ModuleNotFoundError('No module named matplotlib', name='matplotlib')\n"
        "sys.meta_path.insert(0, Finder())\n"
        "sys.argv = ['courtcards', 'analyze', 'royale', '--games', '5']\n"
        "from courtcards.cli.main import main\nmain()\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 2 and res.stderr.strip().splitlines() == [
        "Error: this command needs matplotlib, which comes with the analysis extra: pip install 'courtcards[analysis]'"
    ]
    err = ModuleNotFoundError("No module named 'matplotlib.pyplot'", name="matplotlib.pyplot")
    assert missing_extra(err) == (
        "this command needs matplotlib, which comes with the analysis extra: pip install 'courtcards[analysis]'"
    )
    assert missing_extra(ModuleNotFoundError("x", name="courtcards.nothing")) is None


# -- games, colours --------------------------------------------------------------------------------------
def test_games_lists_the_presets_with_what_they_set() -> None:
    res = runner.invoke(app, ["games"])
    assert res.exit_code == 0
    assert "    classic-president: Taxes instead of the King's benefit (RK-13). [classic_president=true]" in res.output
    assert "    quick: A single round. [target=none, rounds=1]" in res.output
    assert res.output.count("presets (--preset NAME):") == sum(1 for g in registered_games() if g.options.presets)


def ansi(markup: str) -> str:
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="standard", highlight=False).print(markup, end="")
    return out.getvalue()


def test_terminal_cards_are_coloured_by_kind() -> None:
    red, blue, bold = "\x1b[1;31m", "\x1b[1;34m", "\x1b[1m"
    # Rank: each special its own colour; number cards plain bold, not Rich's number highlighting
    styles = {c: ansi(rank_cards([c])).split(c)[0] for c in ("8", "W", "U", "D", "C")}
    assert styles["8"] == bold and len(set(styles.values())) == 5
    # Royale: the suit in its colour, the rank in its tier's
    assert ansi(royale_card("7H")) == "\x1b[33m7\x1b[0m" + red + "H\x1b[0m"
    assert ansi(royale_card("KS")).endswith(blue + "S\x1b[0m")
    # Royals: red attacks, blue blocks; face cards underlined
    assert ansi(royals_card("7D")) == red + "7\x1b[0m" + red + "D\x1b[0m"
    assert ansi(royals_card("QC")).startswith("\x1b[1;4;34mQ")


# -- packaging ---------------------------------------------------------------------------------------
BLOCK_SERVER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {'fastapi', 'starlette', 'uvicorn', 'sqlalchemy', 'alembic', 'websockets',
                                  'psycopg', 'matplotlib', 'ray', 'pettingzoo', 'gymnasium', 'markdown_it'}:
            raise ModuleNotFoundError(f'No module named {name!r}', name=name)
sys.meta_path.insert(0, Block())
"""


def test_the_core_plays_replays_and_lists_games_without_any_extra(tmp_path: Path) -> None:
    rec = tmp_path / "core.json"
    code = BLOCK_SERVER + (
        "from typer.testing import CliRunner\nfrom courtcards.cli.main import app\n"
        f"r = CliRunner().invoke(app, ['play', 'royale', '--watch', '--delay', '0', '--record', {str(rec)!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        f"r = CliRunner().invoke(app, ['replay', {str(rec)!r}, '--no-interactive'])\nassert r.exit_code == 0\n"
        "r = CliRunner().invoke(app, ['games'])\nassert r.exit_code == 0\n"
        "import courtcards.games.rank.bots, courtcards.games.royals\n"
        "print('core ok', sorted(m for m in sys.modules if m.split('.')[0] in ('fastapi', 'sqlalchemy')))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().endswith("core ok []")


def test_pyproject_core_is_lean_and_dev_pulls_every_extra() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {d.split(">")[0].split("[")[0].lower().replace("_", "-") for d in meta["dependencies"]}
    # the last two: tiny, pure Python (mypy-extensions: mypyc_attr, so plug-ins subclass the compiled State)
    assert core == {"typer", "rich", "prompt-toolkit", "numpy", "typing-extensions", "mypy-extensions"}
    extras = meta["optional-dependencies"]
    assert {"server", "rl", "analysis", "scale", "dev"} <= set(extras)
    assert any(d.startswith("fastapi") for d in extras["server"])
    dev_self = next(d for d in extras["dev"] if d.startswith("courtcards["))
    assert set(dev_self.removeprefix("courtcards[").rstrip("]").split(",")) == set(extras) - {"dev"}
    assert meta["authors"] == [{"name": "courtcards developers"}]
    assert "License :: OSI Approved :: MIT License" in meta["classifiers"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_package_description_has_no_images_or_relative_links() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / meta["readme"]["file"]).read_text()
    assert "![" not in text and "<img" not in text
    links = re.findall(r"\]\(([^)]*)\)", text)
    assert all(link.startswith("https://") for link in links), links
    # no [project.urls] until the project has a public home: a guessed address would mislead
    assert all(url.startswith("https://") for url in meta.get("urls", {}).values())
