"""Kuhn poker as a courtcards game, for tests of OpenSpiel's chance nodes (tests/test_openspiel_chance.py):
its deal is the engine's Fisher-Yates shuffle of three cards, so with ``deals=0`` its OpenSpiel tree is
OpenSpiel's own ``kuhn_poker`` (chance deals seat 0's card from 3, then seat 1's from 2), and exact
algorithms on both must agree. Registered only inside a test (:func:`registered`), never for the suite.

Rules (OpenSpiel's kuhn_poker): cards J < Q < K, each seat antes 1 and holds one card; seat 0 passes or
bets 1; after a pass seat 1 passes (showdown for 1) or bets, and seat 0 then folds or calls (showdown
for 2); after a bet seat 1 folds or calls (showdown for 2). Ids: 0 pass (or fold), 1 bet (or call)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager
from enum import StrEnum
from typing import Any, ClassVar, Self

import numpy as np
import numpy.typing as npt

from courtcards.core.actions import Action
from courtcards.core.game import Game, GameInfo, register, unregister
from courtcards.core.ids import ActionCodec
from courtcards.core.options import OptionSet, OptionValue
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Result, State

CARDS = ("J", "Q", "K")
MOVES = ("pass", "bet")


class KuhnKind(StrEnum):
    MOVE = "move"


class KuhnAction(Action):
    __slots__ = ("bet",)

    game: ClassVar[str] = "kuhn_test"
    kind: KuhnKind
    bet: int

    def __init__(self, bet: int) -> None:
        self._init(KuhnKind.MOVE, MOVES[bet], bet=bet)

    @classmethod
    def parse(cls, text: str) -> KuhnAction:
        return ACTIONS[MOVES.index(text)]


ACTIONS = (KuhnAction(0), KuhnAction(1))


class KuhnCodec(ActionCodec):
    def __init__(self) -> None:
        super().__init__()
        self.size = 2

    def _encode(self, action: Hashable) -> tuple[int, ...]:
        assert isinstance(action, KuhnAction)
        return (action.bet,)

    def describe(self, action_id: int) -> str:
        return MOVES[action_id]


class KuhnState(State):
    game: KuhnGame

    def __init__(self, game: KuhnGame, options: dict[str, OptionValue], seed: int, *, shell: bool = False) -> None:
        if shell:
            return
        self._init_base(game, 2, options, seed)
        self.rng = Rng(seed)
        self.cards = [0, 1]
        self.moves: list[int] = []

    def _start(self) -> None:
        deck = [0, 1, 2]
        self.rng.shuffle(deck)
        self.cards = deck[:2]

    def _shell(self) -> Self:
        return type(self)(self.game, self.options, self.seed, shell=True)

    def _copy_into(self, new: State) -> None:
        assert isinstance(new, KuhnState)
        new.cards, new.moves = self.cards[:], self.moves[:]

    def is_over(self) -> bool:
        m = self.moves
        return len(m) == 3 or (len(m) == 2 and m != [0, 1])

    def _actors(self) -> tuple[int, ...]:
        return () if self.is_over() else (len(self.moves) % 2,)

    def _legal(self, seat: int) -> list[Action]:
        return list(ACTIONS)

    def _resolve(self, actions: dict[int, Action]) -> None:
        ((_, action),) = actions.items()
        assert isinstance(action, KuhnAction)
        self.moves.append(action.bet)

    def returns(self) -> list[float]:
        if not self.is_over():
            return [0.0, 0.0]
        m = self.moves
        if m in ([1, 0], [0, 1, 0]):  # a fold: the better takes the ante
            folder = 1 if m == [1, 0] else 0
            return [-1.0, 1.0] if folder == 0 else [1.0, -1.0]
        stake = 1.0 if m == [0, 0] else 2.0
        return [stake, -stake] if self.cards[0] > self.cards[1] else [-stake, stake]

    def result(self) -> Result | None:
        if not self.is_over():
            return None
        winner = 0 if self.returns()[0] > 0 else 1
        return Result(winner=winner, ranking=(winner, 1 - winner), scores=(0, 0))

    def view(self, seat: int | None) -> JSON:
        return {
            "game": self.game.name,
            "seat": seat,
            "num_players": 2,
            "options": dict(self.options),
            "card": None if seat is None else CARDS[self.cards[seat]],
            "moves": [MOVES[b] for b in self.moves],
        }

    def _to_json(self) -> JSON:
        return {"rng": self.rng.state, "cards": [CARDS[c] for c in self.cards], "moves": list(self.moves)}

    def card_places(self) -> dict[str, list[str]]:
        return {
            "hand:0": [CARDS[self.cards[0]]],
            "hand:1": [CARDS[self.cards[1]]],
            "aside": [CARDS[3 - sum(self.cards)]],
        }

    def deck(self) -> list[str]:
        return list(CARDS)

    def hidden_places(self, seat: int | None) -> list[str]:
        return [f"hand:{s}" for s in (0, 1) if s != seat] + ["aside"]


class KuhnGame(Game[KuhnState]):
    info = GameInfo(
        name="kuhn_test",
        title="Kuhn poker (test)",
        min_players=2,
        max_players=2,
        default_players=2,
        options=OptionSet(options=()),
        utility=(-2.0, 2.0),
        max_length=3,
    )

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> KuhnState:
        state = KuhnState(self, options, seed)
        state._start()
        return state

    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> KuhnState:
        state = KuhnState(self, options, seed)
        state.rng.state = int(data["rng"])
        state.cards = [CARDS.index(c) for c in data["cards"]]
        state.moves = [int(b) for b in data["moves"]]
        return state

    def parse_action(self, text: str) -> Action:
        return KuhnAction.parse(text)

    def parse_cards(self, text: str) -> list[Any]:
        return text.split()

    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> ActionCodec:
        return KuhnCodec()

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        return (3 + 2 * 3,)

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        out = np.zeros(9, np.float32)
        out[CARDS.index(view["card"])] = 1.0
        for i, move in enumerate(view["moves"]):
            out[3 + 2 * i + MOVES.index(move)] = 1.0
        return out

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        return f"card {view['card']}, moves {' '.join(view['moves']) or '-'}"


@contextmanager
def registered() -> Iterator[KuhnGame]:
    """The game, registered (with OpenSpiel too, by the caller) for the ``with`` block only."""
    game = register(KuhnGame())
    try:
        yield game
    finally:
        unregister(game.name)
