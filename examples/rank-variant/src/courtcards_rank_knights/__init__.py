"""Rank: Knights' Tokens: Rank where every Knight also gains a Royal Token at the end of a hand.

Installed, it registers through the ``courtcards.games`` entry point
(``rank_knights = "courtcards_rank_knights:GAME"``); importing it registers it too."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import ClassVar

from courtcards.core.game import register
from courtcards.core.options import OptionValue
from courtcards.games.rank.game import RankGame
from courtcards.games.rank.hooks import RankHooks

KNIGHTS_BRIEF = (
    "Rank: Knights' Tokens is Rank with one change: at the end of a hand every Knight (neither King, "
    "Queen nor Beggar) also gains one Royal Token.\n"
)


class KnightsHooks(RankHooks):
    """RK-10 as the variant has it: King 2, Queen 1, every Knight 1, the Beggar none."""

    def tokens(self, finish: Sequence[int], num_players: int) -> list[int]:
        gained = super().tokens(finish, num_players)
        for seat in finish[2:-1]:
            gained[seat] += 1
        return gained


class KnightsGame(RankGame):
    info = dataclasses.replace(
        RankGame.info,
        name="rank_knights",
        title="Rank: Knights' Tokens",
        gym_id="courtcards/RankKnights-v0",
        openspiel_name="courtcards_rank_knights",
        brief=KNIGHTS_BRIEF + RankGame.info.brief,
    )
    hooks: ClassVar[RankHooks] = KnightsHooks()

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        """What the conformance suite plays: the hook matters from 4 players (a Knight) up; Rank's own
        variants are Rank's to check."""
        return [(3, {"tokens_to_win": 3}), (4, {}), (7, {"tokens_to_win": 3})]


GAME = register(KnightsGame())

__all__ = ["GAME", "KnightsGame", "KnightsHooks"]
