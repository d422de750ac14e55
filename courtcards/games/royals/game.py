"""Royals' static description: players, options, positions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from courtcards.core.errors import OptionError, PositionError
from courtcards.core.game import Game
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.state import STATE_FORMAT
from courtcards.games.royals.actions import RoyalsAction, parse_action
from courtcards.games.royals.cards import TEXT, parse_card_list
from courtcards.games.royals.state import RoyalsState

ROYALS_OPTIONS = OptionSet(
    options=(
        Option("max_turns", "int", None,
               "End the game as a draw once this many turns have been played (RY-8); none: no limit.",
               minimum=1, maximum=1_000_000, optional=True),
    ),
    presets={"standard": {}, "short": {"max_turns": 100}},
    preset_docs={
        "standard": "The rulebook's game: play until someone begins a turn with 20 - players points.",
        "short": "A draw after 100 turns (RY-8), for simulations.",
    },
)


class RoyalsGame(Game):
    name = "royals"
    title = "Royals"
    min_players = 3
    max_players = 6
    default_players = 4
    options = ROYALS_OPTIONS

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        configs: list[tuple[int, dict[str, OptionValue]]] = [(n, {}) for n in range(3, 7)]
        configs += [(n, {"max_turns": 25}) for n in (3, 6)]
        return configs

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> RoyalsState:
        state = RoyalsState(self, num_players, options, seed)
        state._start()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> RoyalsState:
        if not isinstance(data, Mapping):
            raise PositionError("a Royals state must be a JSON object")
        if data.get("game", "royals") != "royals":
            raise PositionError(f"not a Royals state: game is {data.get('game')!r}")
        if "format" in data and data["format"] != STATE_FORMAT:
            raise PositionError(f"unknown state format {data['format']!r}")
        n = data.get("num_players")
        if n is None:
            for key in ("hands", "royals", "decks", "discards"):
                if isinstance(data.get(key), list):
                    n = len(data[key])
                    break
        if not isinstance(n, int):
            raise PositionError("a Royals position needs 'num_players' (or 'hands')")
        try:
            options = self.resolve_options(n, data.get("options") or {})
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        seed = data.get("seed", 0)
        if not isinstance(seed, int):
            raise PositionError(f"'seed' must be an integer, not {seed!r}")
        state = RoyalsState(self, n, options, seed)
        begin = state.load_json(data)
        is_full = "history" in data
        state.history = [(int(s), str(t)) for s, t in data.get("history", [])]
        state.version = int(data.get("version", len(state.history)))
        state.start = data.get("start") if is_full else _position_only(data)
        if begin:
            state._begin_turn(state.turn)
        for seat_text, action_text in dict(data.get("pending") or {}).items():
            state.pending[int(seat_text)] = parse_action(str(action_text))
        return state

    def parse_action(self, text: str) -> RoyalsAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]


def _position_only(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("history", "version", "pending", "start")}
