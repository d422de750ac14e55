"""Five Tricks' static description: GameInfo, options and presets, and the hooks
that read a view (observations, worlds) or a position."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from courtcards.core.game import Game, GameInfo
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.rng import Rng

from courtcards_fivetricks import observation
from courtcards_fivetricks.cards import TEXT, FiveTricksAction, FiveTricksCodec, parse_action, parse_card_list
from courtcards_fivetricks.state import FiveTricksState
from courtcards_fivetricks.views import FiveTricksView
from courtcards_fivetricks.worlds import sample_world

BRIEF = """\
Five Tricks is a short trick-taking game for 2-4 players with hidden hands.
- The deck is 20 cards: ranks 1-5 in suits H, D, S, C (written 3H, 5S). Each player is dealt 5 cards
  (option hand_size: 3-5); the rest are set aside unseen.
- Seat 0 leads the first trick (option random_leader: a seat drawn at random). Each player in turn plays
  one card, written like `3H`. You must follow the led suit if you can; otherwise play any card.
- The highest card of the led suit wins the trick; its winner leads the next.
- After the last trick the player with the most tricks wins; among players tied for the most,
  the one who won a trick last wins."""

FIVETRICKS_OPTIONS = OptionSet(
    options=(
        Option("hand_size", "int", 5, "Cards dealt to each player, and so the number of tricks.", minimum=3, maximum=5),
        Option(
            "random_leader",
            "bool",
            False,
            "The first leader is a seat drawn at random from the seed (otherwise seat 0).",
        ),
    ),
    presets={"standard": {}, "quick": {"hand_size": 3, "random_leader": True}},
    preset_docs={
        "standard": "Five cards each, seat 0 leads.",
        "quick": "Three cards each (three tricks), a random first leader.",
    },
)


class FiveTricksGame(Game[FiveTricksState]):
    info = GameInfo(
        name="fivetricks",
        title="Five Tricks",
        min_players=2,
        max_players=4,
        default_players=3,
        options=FIVETRICKS_OPTIONS,
        dynamics="sequential",
        max_length=20,
        round_word="Trick",
        gym_id="courtcards/FiveTricks-v0",
        openspiel_name="courtcards_fivetricks",
        brief=BRIEF,
        profiles={},  # no layer profile: every layer uses its generic default
    )
    view_type = FiveTricksView

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        return [*super().test_configs(), *((n, dict(FIVETRICKS_OPTIONS.presets["quick"])) for n in (2, 4))]

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> FiveTricksState:
        state = FiveTricksState(self, num_players, options, seed)
        state._start()
        return state

    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> FiveTricksState:
        state = FiveTricksState(self, num_players, options, seed)
        state.load_json(data, strict)
        return state

    def parse_action(self, text: str) -> FiveTricksAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]

    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> FiveTricksCodec:
        return FiveTricksCodec()

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        return observation.shape(num_players)

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        return observation.tensor(view, prefix)

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        return observation.string(view, prefix)

    def _sample_world(self, view: Mapping[str, Any], rng: Rng) -> FiveTricksState:
        return sample_world(self, view, rng)
