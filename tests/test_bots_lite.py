"""The greedy-lite playout bots: legal, view-free, and they shed whole low groups."""

from __future__ import annotations

import pytest

from courtcards.bots import bot_kinds
from courtcards.bots.ismcts import search_profile
from courtcards.bots.lite import LiteBot
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.kqp.cards import PLAIN as KQP_PLAIN
from courtcards.games.kqp.cards import parse_card as kqp_card
from courtcards.games.rank.cards import CROWN, CROWN2, NUMBERS
from courtcards.games.rank.cards import parse_card as rank_card

PLAIN = {"rank": (NUMBERS, rank_card), "kqp": (KQP_PLAIN, kqp_card)}


@pytest.mark.parametrize("name", ["rank", "kqp"])
def test_lite_plays_legal_moves_and_leads_its_lowest_whole_group(name: str) -> None:
    plain, parse = PLAIN[name]
    game = get_game(name)
    bot: LiteBot = search_profile(game).policies["lite"](0)
    assert getattr(bot, "needs_view", True) is False
    leads = 0
    for seed in range(3):
        state = game.new_game(4, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if seat != 0:
                state.apply(seat, legal[rng.below(len(legal))])
                continue
            move = bot.choose({}, legal)
            assert move in legal
            view = state.view(seat)
            hand = [parse(t) for t in view["hand"]]
            groups = sorted({c for c in hand if c in plain})
            plays = [a for a in legal if a.kind == "play"]
            leading = plays and not any(a.kind == "pass" for a in legal)
            if leading and groups and view["phase"] == "play":
                low = groups[0]
                if any(a.cards == (low,) * hand.count(low) for a in plays):
                    leads += 1
                    assert move.cards == (low,) * hand.count(low)  # type: ignore[attr-defined]
            if name == "rank" and any(a.kind == "pass" for a in legal):
                assert move.cards not in ((CROWN,), (CROWN2,))  # type: ignore[attr-defined]
            state.apply(seat, move)
    assert leads >= 3


def test_lite_policies_are_not_offered_as_players() -> None:
    names = ("rank", "kqp", "royals", "royale")
    assert [g for g in names if "lite" in search_profile(get_game(g)).policies] == ["rank", "kqp"]
    assert all("lite" not in bot_kinds(g) for g in ("rank", "kqp", "royals", "royale"))
