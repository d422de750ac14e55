"""Rank's static description: players, options, presets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import OptionError
from courtcards.core.game import Game, GameInfo
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.rng import Rng
from courtcards.games.rank import observation
from courtcards.games.rank.actions import RankAction, parse_action
from courtcards.games.rank.brief import BRIEF
from courtcards.games.rank.cards import TEXT, parse_card_list
from courtcards.games.rank.hooks import STANDARD, RankHooks
from courtcards.games.rank.ids import RankCodec
from courtcards.games.rank.positions import load_position
from courtcards.games.rank.state import RankState
from courtcards.games.rank.views import RankView
from courtcards.games.rank.worlds import sample_world

RANK_OPTIONS = OptionSet(
    options=(
        Option("tokens_to_win", "int", 5, "Royal Tokens that win the game (RK-11).", minimum=1, maximum=100),
        Option(
            "classic_president",
            "bool",
            False,
            "Classic President: the Beggar gives the King his two highest cards, the second-to-last "
            "gives the Queen one, and they give cards back; the King leads (RK-13).",
        ),
        Option(
            "kings_hand",
            "bool",
            False,
            "King's Hand: an extra hand of 15 is dealt and the King may take it (RK-14). At most 5 players.",
        ),
        Option(
            "endless",
            "bool",
            False,
            "Endless: no Royal Tokens; the game lasts `hands` hands and whoever was King most often wins (RK-15).",
        ),
        Option("hands", "int", 10, "Number of hands in an Endless game (RK-15).", minimum=1, maximum=1000),
        Option(
            "hand_size",
            "int",
            15,
            "Cards dealt to each seat (and to the King's Hand); the rest form the draw pile. The rulebook "
            "deals 15 (RK-12); fewer make small variants that exact solvers can search (preset 'tiny').",
            minimum=2,
            maximum=15,
        ),
    ),
    presets={
        "standard": {},
        "classic-president": {"classic_president": True},
        "kings-hand": {"kings_hand": True},
        "endless": {"endless": True},
        "quick": {"tokens_to_win": 3},
        "tiny": {"tokens_to_win": 1, "hand_size": 2},
    },
    preset_docs={
        "standard": "The rulebook's game: first to 5 Royal Tokens.",
        "classic-president": "Taxes instead of the King's benefit (RK-13).",
        "kings-hand": "The King may take an extra hand (RK-14; 3-5 players).",
        "tiny": "Two cards each, first Royal Token wins: a small game for exact solvers (docs/research.md).",
        "endless": "No tokens; 10 hands; most times King wins (RK-15).",
        "quick": "First to 3 Royal Tokens.",
    },
)


class RankGame(Game[RankState]):
    info = GameInfo(
        name="rank",
        title="Rank",
        min_players=3,
        max_players=12,
        default_players=4,
        options=RANK_OPTIONS,
        dynamics="sequential",
        round_word="Hand",
        gym_id="courtcards/Rank-v0",
        brief=BRIEF,
        listing=0,
        profiles={
            "bots": "courtcards.games.rank.bots",
            "networks": "courtcards.games.rank.nets",  # the nn bot's trained networks (courtcards.nn)
            "strangers": "courtcards.games.rank.strangers",
            "search": "courtcards.games.rank.search:PROFILE",
            "observer": "courtcards.games.rank.analysis:observe",
            "events": "courtcards.games.rank.events:KINDS",
            "terminal": "courtcards.games.rank.render:RENDERER",
            "browser": "static/rank.js",
        },
    )
    view_type = RankView
    hooks: ClassVar[RankHooks] = STANDARD  # a variant's hook points (courtcards.games.rank.hooks)

    def check_options(self, num_players: int, values: Mapping[str, OptionValue]) -> None:
        if values["kings_hand"] and num_players > 5:
            raise OptionError(f"option 'kings_hand' is for at most 5 players (RK-14), not {num_players}")

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        quick: dict[str, OptionValue] = {"tokens_to_win": 2}
        configs: list[tuple[int, dict[str, OptionValue]]] = [(n, dict(quick)) for n in range(3, 13)]
        configs += [
            (4, {}),
            (3, {"classic_president": True, "tokens_to_win": 3}),
            (5, {"classic_president": True, "tokens_to_win": 3}),
            (9, {"classic_president": True, "tokens_to_win": 2}),
            (3, {"kings_hand": True, "tokens_to_win": 3}),
            (5, {"kings_hand": True, "classic_president": True, "tokens_to_win": 3}),
            (4, {"endless": True, "hands": 3}),
            (12, {"endless": True, "hands": 2}),
            (3, {"hand_size": 2, "tokens_to_win": 1}),  # the tiny preset
            (5, {"hand_size": 4, "classic_president": True, "tokens_to_win": 2}),
        ]
        return configs

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> RankState:
        state = RankState(self, num_players, options, seed)
        state._start()
        return state

    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> RankState:
        state = RankState(self, num_players, options, seed)
        load_position(state, data, strict)
        return state

    def _upgrade_position(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Format 1 and 2 positions: ``hand_number`` is now ``round``; the draw pile was
        listed bottom card first and the round's pile in the order put down: both are
        now top card first."""
        if "hand_number" in data:
            data["round"] = data.pop("hand_number")
        for key in ("draw_pile", "pile"):
            if isinstance(data.get(key), list):
                data[key] = data[key][::-1]
        return data

    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> RankCodec:
        return RankCodec(decks=2 if num_players >= 7 else 1)  # RK-1

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        return observation.shape(num_players)

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        return observation.tensor(view, prefix)

    def state_observation_tensor(self, state: RankState, seat: int) -> npt.NDArray[np.float32]:
        return observation.state_tensor(state, seat)  # equal to the view's tensor, read from the state

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        return observation.text(view, prefix)

    def _sample_world(self, view: Mapping[str, Any], rng: Rng) -> RankState:
        return sample_world(self, view, rng)

    def parse_action(self, text: str) -> RankAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]
