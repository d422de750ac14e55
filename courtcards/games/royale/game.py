"""Rank Royale's static description: options, presets, loading positions."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

from courtcards.core.errors import OptionError, PositionError
from courtcards.core.game import Game
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.state import STATE_FORMAT
from courtcards.games.royale.actions import RoyaleAction, parse_action
from courtcards.games.royale.cards import TEXT, parse_card_list
from courtcards.games.royale.state import RoyaleState

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
            "discards", "choice", "4,3,2",
            "Cards the tier loser discards when beaten by a Low, Middle, High card: 'low,middle,high'. "
            "The rulebook's table is lost; 4,3,2 is the project's reconstruction (RR-2).",
            choices=TABLES,
        ),
        Option("max_rounds", "int", None, "End the game as a draw after this many rounds; none = no limit (RR-6).",
               minimum=1, maximum=100_000, optional=True),
    ),
    presets={"standard": {}, "flat": {"discards": "3,3,3"}, "sim": {"max_rounds": 200}},
    preset_docs={
        "standard": "Discards 4,3,2 (RR-2), no round limit.",
        "flat": "Every tier win costs the loser 3 cards.",
        "sim": "Standard, but a draw after 200 rounds (for simulations).",
    },
)


class RoyaleGame(Game):
    name = "royale"
    title = "Rank Royale"
    min_players = 2
    max_players = 2
    default_players = 2
    options = ROYALE_OPTIONS

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        return [
            (2, {}),
            (2, {"discards": "2,2,2"}),
            (2, {"discards": "6,5,4"}),
            (2, {"discards": "1,1,1", "max_rounds": 40}),
            (2, {"max_rounds": 3}),
        ]

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> RoyaleState:
        state = RoyaleState(self, options, seed)
        state._start()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> RoyaleState:
        return self.load(data, strict=True)

    def load(self, data: Mapping[str, Any], strict: bool = True) -> RoyaleState:
        """A state from full JSON or an explicit position (see RoyaleState.load_json)."""
        if not isinstance(data, Mapping):
            raise PositionError("a Rank Royale state must be a JSON object")
        if data.get("game", "royale") != "royale":
            raise PositionError(f"not a Rank Royale state: game is {data.get('game')!r}")
        if "format" in data and data["format"] != STATE_FORMAT:
            raise PositionError(f"unknown state format {data['format']!r}")
        if data.get("num_players", 2) != 2:
            raise PositionError("Rank Royale is for exactly 2 players")
        try:
            options = self.resolve_options(2, data.get("options") or {})
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError(f"'seed' must be an integer, not {seed!r}")
        state = RoyaleState(self, options, seed)
        state.load_json(data, strict)
        is_full = "history" in data
        state.history = [(int(s), str(t)) for s, t in data.get("history", [])]
        state.version = int(data.get("version", len(state.history)))
        state.start = data.get("start") if is_full else _position_only(data)
        for seat_text, action_text in dict(data.get("pending") or {}).items():
            seat, act = int(seat_text), parse_action(str(action_text))
            if strict and (state.phase != "play" or act.kind != "play" or act.card not in state.hands[seat]):
                raise PositionError(f"seat {seat}'s pending choice {act.text!r} is not a card it can play")
            state.pending[seat] = act
        return state

    def parse_action(self, text: str) -> RoyaleAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]


def _position_only(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("history", "version", "pending", "start")}
