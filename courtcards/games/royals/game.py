"""Royals' static description: players, options, positions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import OptionError
from courtcards.core.game import Game, GameInfo
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.rng import Rng
from courtcards.core.state import STATE_FORMAT_VERSION
from courtcards.games.royals import observation
from courtcards.games.royals.actions import RoyalsAction, parse_action
from courtcards.games.royals.brief import BRIEF
from courtcards.games.royals.cards import TEXT, parse_card_list
from courtcards.games.royals.ids import RoyalsCodec, codec
from courtcards.games.royals.positions import load_position
from courtcards.games.royals.state import RoyalsState
from courtcards.games.royals.views import RoyalsView
from courtcards.games.royals.worlds import sample_world


def rulebook_hand_limit(num_players: int) -> int:
    """The rulebook's maximum hand size: 2 x players (RY-1)."""
    return 2 * num_players


def rulebook_target(num_players: int) -> int:
    """The rulebook's victory target: 20 - players points in play (RY-1)."""
    return 20 - num_players


ROYALS_OPTIONS = OptionSet(
    options=(
        Option(
            "max_turns",
            "int",
            None,
            "End the game as a draw once this many turns have been played (RY-8); none: no limit.",
            minimum=1,
            maximum=1_000_000,
            optional=True,
        ),
        Option(
            "hand_limit",
            "int",
            rulebook_hand_limit,
            "The maximum hand size, drawn up to at the start of each turn (default 2 x players, as the rulebook "
            "says; at most that) (RY-1). Not a rulebook option: small hands make small games for exact "
            "solvers (preset 'tiny').",
            minimum=2,
            maximum=12,
        ),
        Option(
            "target",
            "int",
            rulebook_target,
            "The points in play a player must begin their turn with to win (default 20 - players, as the "
            "rulebook says) (RY-1). Not a rulebook option: a low target makes small games for exact "
            "solvers (preset 'tiny').",
            minimum=1,
            maximum=100,
        ),
    ),
    presets={
        "standard": {},
        "short": {"max_turns": 100},
        "tiny": {"hand_limit": 3, "target": 1, "max_turns": 4},
    },
    preset_docs={
        "standard": "The rulebook's game: play until someone begins a turn with 20 - players points.",
        "short": "A draw after 100 turns (RY-8), for simulations.",
        "tiny": "Three cards a hand, a Royal that survives a round wins, a draw after 4 turns: a small game "
        "for exact solvers (docs/research.md).",
    },
)


def _turned_over(pile: Any) -> Any:
    """A pile (a list, or cards in one text) in the other order; anything else as it is (the loader
    names what is wrong with it)."""
    if isinstance(pile, str):
        return " ".join(reversed(pile.split()))
    return list(reversed(pile)) if isinstance(pile, list) else pile


class RoyalsGame(Game[RoyalsState]):
    info = GameInfo(
        name="royals",
        title="Royals",
        min_players=3,
        max_players=6,
        default_players=4,
        options=ROYALS_OPTIONS,
        dynamics="sequential",
        round_word="Turn",
        gym_id="courtcards/Royals-v0",
        brief=BRIEF,
        listing=3,
        profiles={
            "bots": "courtcards.games.royals.bots",
            "networks": "courtcards.games.royals.nets",  # the nn bot's trained networks (courtcards.nn)
            "search": "courtcards.games.royals.search:PROFILE",
            "observer": "courtcards.games.royals.analysis:observe",
            "events": "courtcards.games.royals.events:KINDS",
            "terminal": "courtcards.games.royals.render:RENDERER",
            "browser": "static/royals.js",
        },
    )
    view_type = RoyalsView

    def check_options(self, num_players: int, values: Mapping[str, OptionValue]) -> None:
        limit = values.get("hand_limit")
        if isinstance(limit, int) and limit > rulebook_hand_limit(num_players):
            raise OptionError(
                f"option 'hand_limit' is at most the rulebook's 2 x players ({rulebook_hand_limit(num_players)} "
                f"for {num_players}), not {limit}"
            )

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        configs: list[tuple[int, dict[str, OptionValue]]] = [(n, {}) for n in range(3, 7)]
        configs += [(n, {"max_turns": 25}) for n in (3, 6)]
        configs.append((3, {"hand_limit": 3, "target": 1, "max_turns": 4}))  # the tiny preset
        return configs

    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> RoyalsCodec:
        return codec(num_players)

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        return observation.shape(num_players)

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        return observation.tensor(view, prefix)

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        return observation.string(view, prefix)

    def _sample_world(self, view: Mapping[str, Any], rng: Rng) -> RoyalsState:
        return sample_world(self, view, rng)

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> RoyalsState:
        state = RoyalsState(self, num_players, options, seed)
        state._start()
        return state

    def _upgrade_position(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Royals saves before format 3 listed decks and discard piles bottom card first
        and kept their own ``log`` of sentences: turn the piles over and make the
        sentences the engine's events (with no seat: the old log did not say whose)."""
        for key in ("decks", "discards"):
            piles = data.get(key)
            if isinstance(piles, list):
                data[key] = [_turned_over(pile) for pile in piles]
        log = data.pop("log", None)
        if isinstance(log, list) and "events" not in data:
            data["events"] = [{"n": i, "seat": None, "text": t} for i, t in enumerate(log, 1)]
        data["format_version"] = STATE_FORMAT_VERSION  # a record's start position is upgraded once
        return data

    def _players_in_position(self, data: Mapping[str, Any]) -> int | None:
        for key in ("hands", "royals", "decks", "discards"):
            if isinstance(data.get(key), list):
                return len(data[key])
        return None

    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> RoyalsState:
        state = RoyalsState(self, num_players, options, seed)
        load_position(state, data, strict)
        return state

    def parse_action(self, text: str) -> RoyalsAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]
