"""What the terminal shows players is worded for them (issue #25): verbs agree with "You", counts have proper
plurals, no "2-2 players", no Python's None/False."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from courtcards.cli.main import app
from courtcards.cli.play import PlaySession, setup_session
from courtcards.render import does, plural

runner = CliRunner()


def played(tmp_path: Path, game: str, players: int, seed: int) -> str:
    """The whole terminal text of a game where seat 1 (engine seat 0) types random legal moves as listed
    (and a few commands)."""
    rng = random.Random(seed)
    holder: list[PlaySession] = []

    def answer(_prompt: str) -> str:
        r = rng.random()
        return "board" if r < 0.05 else "moves" if r < 0.08 else rng.choice(holder[0].shown_legal())

    out = Console(file=io.StringIO(), width=120, color_system=None)
    session = setup_session(
        game,
        players=players,
        seed=seed,
        console=out,
        input_fn=answer,
        record=tmp_path / f"{game}-{players}-{seed}.json",
    )
    holder.append(session)
    assert session.run() == 0
    return out.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def test_royals_fights_say_you_attack_and_you_try(tmp_path: Path) -> None:
    text = "\n".join(played(tmp_path, "royals", n, seed) for n in (3, 4) for seed in (1, 2))
    assert "You try to assassinate" in text and "You attack " in text
    assert not re.search(r"You (tries|attacks|has|must discards)\b", text)
    assert "(s)" not in text and " 1 cards" not in text and " 1 hits" not in text


def test_royale_discards_have_proper_plurals(tmp_path: Path) -> None:
    text = "\n".join(played(tmp_path, "royale", 2, seed) for seed in (1, 2, 3))
    assert re.search(r"Discard \d cards? of your choice", text)
    assert "card(s)" not in text and "Discard 1 cards" not in text


def test_plural_and_does() -> None:
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    view = {"seat": 1}
    # seats are numbered from 1 for the player: engine seat 2 is "Seat 3"
    assert does(view, 1, "tries", "try") == "You try" and does(view, 2, "tries", "try") == "Seat 3 tries"


def test_games_lists_player_counts_and_defaults_as_typed() -> None:
    res = runner.invoke(app, ["games"])
    assert res.exit_code == 0
    assert "royale: Rank Royale, 2 players" in res.output and "2-2 players" not in res.output
    assert "rank: Rank, 3-12 players" in res.output
    assert not re.search(r"\(default (None|False|True)\)", res.output), res.output
    assert "kings_hand (default false)" in res.output and "rounds (default none)" in res.output


def test_a_wrong_player_count_for_a_two_player_game() -> None:
    res = runner.invoke(app, ["play", "royale", "--players", "3"])
    assert res.exit_code == 2 and res.stderr.strip() == "Error: Rank Royale is for 2 players, not 3"
    res = runner.invoke(app, ["play", "rank", "--players", "2"])
    assert res.exit_code == 2 and res.stderr.strip() == "Error: Rank is for 3 to 12 players, not 2"
