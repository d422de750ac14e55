"""Rank Royale's static description: options, presets, loading positions."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import OptionError, PositionError
from courtcards.core.game import Game, GameInfo
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State
from courtcards.games.royale import observation
from courtcards.games.royale.actions import RoyaleAction, parse_action
from courtcards.games.royale.brief import BRIEF
from courtcards.games.royale.cards import TEXT, parse_card_list
from courtcards.games.royale.ids import RoyaleCodec
from courtcards.games.royale.positions import load_position
from courtcards.games.royale.state import RoyaleState
from courtcards.games.royale.views import RoyaleView
from courtcards.games.royale.worlds import sample_world

MAX_DISCARD = 6
TABLES = tuple(f"{a},{b},{c}" for a, b, c in product(range(1, MAX_DISCARD + 1), repeat=3))


class DiscardTableOption(Option):
    """A choice among discard tables ``low,middle,high`` (each 1..6), read
    from ``"4,3,2"``, ``"4 3 2"``, ``"4/3/2"`` or a list of three ints."""

    def describe_values(self) -> str:
        return f"three discard counts low,middle,high, each 1..{MAX_DISCARD}, for example 4,3,2"

    def coerce(self, value: object) -> OptionValue:
        if isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value)
        elif isinstance(value, str):
            text = value
        else:
            raise OptionError(f"option {self.name!r} does not accept {value!r}: expected {self.describe_values()}")
        canon = ",".join(text.replace("/", " ").replace(",", " ").split())
        return super().coerce(canon)


ROYALE_OPTIONS = OptionSet(
    options=(
        DiscardTableOption(
            "discards",
            "choice",
            "4,3,2",
            "Cards the tier loser discards when beaten by a Low, Middle, High card: 'low,middle,high'. "
            "The rulebook's table is lost; 4,3,2 is the project's reconstruction (RR-2).",
            choices=TABLES,
        ),
        Option(
            "max_rounds",
            "int",
            None,
            "End the game as a draw after this many rounds; none = no limit (RR-6).",
            minimum=1,
            maximum=100_000,
            optional=True,
        ),
    ),
    presets={"standard": {}, "flat": {"discards": "3,3,3"}, "sim": {"max_rounds": 200}},
    preset_docs={
        "standard": "Discards 4,3,2 (RR-2), no round limit.",
        "flat": "Every tier win costs the loser 3 cards.",
        "sim": "Standard, but a draw after 200 rounds (for simulations).",
    },
)


class RoyaleGame(Game[RoyaleState]):
    info = GameInfo(
        name="royale",
        title="Rank Royale",
        min_players=2,
        max_players=2,
        default_players=2,
        options=ROYALE_OPTIONS,
        dynamics="simultaneous",
        round_word="Round",
        gym_id="courtcards/Royale-v0",
        brief=BRIEF,
        listing=2,
        analysis_bot="mixed",  # the equilibrium bot: reports on play near the equilibrium
        profiles={
            "bots": "courtcards.games.royale.bots",
            "networks": "courtcards.games.royale.nets",  # the nn bot's trained networks (courtcards.nn)
            "strangers": "courtcards.games.royale.strangers",
            "search": "courtcards.games.royale.search:PROFILE",
            "observer": "courtcards.games.royale.analysis:observe",
            "events": "courtcards.games.royale.events:KINDS",
            "terminal": "courtcards.games.royale.render:RENDERER",
            "browser": "static/royale.js",
        },
    )
    view_type = RoyaleView

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        return [
            (2, {}),
            (2, {"discards": "2,2,2"}),
            (2, {"discards": "6,5,4"}),
            (2, {"discards": "1,1,1", "max_rounds": 40}),
            (2, {"max_rounds": 3}),
        ]

    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> RoyaleCodec:
        return RoyaleCodec()

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        return observation.shape()

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        return observation.tensor(view, prefix)

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        return observation.string(view, prefix)

    def _sample_world(self, view: Mapping[str, Any], rng: Rng) -> RoyaleState:
        return sample_world(self, view, rng)

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> RoyaleState:
        state = RoyaleState(self, options, seed)
        state._start()
        return state

    def load(self, data: Mapping[str, Any], strict: bool = True) -> RoyaleState:
        """A state from full JSON or an explicit position (see courtcards.games.royale.positions.load_position)."""
        state = self.state_from_json(data, strict=strict)
        assert isinstance(state, RoyaleState)
        return state

    def _players_in_position(self, data: Mapping[str, Any]) -> int:
        return 2

    def _upgrade_position(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Format 1 and 2 named the discard piles ``discard_piles`` and wrote them oldest
        card first, and the rounds ``log``; format 3 says ``discard`` (top card first,
        like ``decks``) and ``rounds_log`` (``log`` is the engine's event log now). A
        saved state's ``start``, a position of the same format, is upgraded too."""
        data = _upgrade_v2(data)
        start = data.get("start")
        if isinstance(start, Mapping) and "format_version" not in start:
            data["start"] = _upgrade_v2(dict(start))
        return data

    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> RoyaleState:
        state = RoyaleState(self, options, seed)
        load_position(state, data, strict)
        return state

    def _check_pending(self, state: State, seat: int, action: Action, strict: bool) -> None:
        assert isinstance(state, RoyaleState) and isinstance(action, RoyaleAction)
        if strict and (state.phase != "play" or action.kind != "play" or action.card not in state.hands[seat]):
            raise PositionError(
                f"pending.{seat}", f"seat {seat}'s pending choice {action.text!r} is not a card it can play"
            )

    def parse_action(self, text: str) -> RoyaleAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]


def _upgrade_v2(data: dict[str, Any]) -> dict[str, Any]:
    """A format 1 or 2 position in format 3's names and order (see RoyaleGame._upgrade_position)."""
    if "discard_piles" in data:
        piles = data.pop("discard_piles")
        if isinstance(piles, list):
            piles = [p[::-1] if isinstance(p, list) else p for p in piles]
        data.setdefault("discard", piles)
    if "log" in data:
        data.setdefault("rounds_log", data.pop("log"))
    return data
