"""Every sentence the engines write to the event log reads as a sentence: it starts with a capital
letter or a digit, in the public wording and in each seat's own wording, over many random games of
all four games (issue #25: the log is what players read)."""

from __future__ import annotations

import random

import pytest

from courtcards.core.game import get_game


def _bad(text: str) -> bool:
    return not text or not (text[0].isupper() or text[0].isdigit())


@pytest.mark.parametrize("name", ["rank", "kqp", "royale", "royals"])
def test_every_log_sentence_starts_with_a_capital_or_a_digit(name: str) -> None:
    game = get_game(name)
    rng = random.Random(25)
    bad: set[str] = set()
    seen = 0
    for num_players, options in game.test_configs():
        for seed in range(3):
            state = game.new_game(num_players, options, seed=seed)
            last = {viewer: -1 for viewer in (None, *range(num_players))}
            for _ in range(400):
                for viewer, after in last.items():  # each event once per viewer, the deal's too
                    for e in state.view(viewer)["log"]:
                        if e["n"] > after:
                            seen += 1
                            last[viewer] = e["n"]
                            if _bad(e["text"]):
                                bad.add(e["text"])
                if state.is_over():
                    break
                seat = rng.choice(state.to_move())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen > 1000
    assert sorted(bad) == []
