"""King Queens & Paupers' static description: players, options, presets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import OptionError, PositionError
from courtcards.core.game import Game, GameInfo
from courtcards.core.options import Option, OptionSet, OptionValue
from courtcards.core.rng import Rng
from courtcards.core.state import STATE_FORMAT_VERSION, Action, State
from courtcards.games.kqp.actions import KqpAction, parse_action
from courtcards.games.kqp.brief import BRIEF
from courtcards.games.kqp.cards import TEXT, parse_card_list
from courtcards.games.kqp.ids import KqpCodec
from courtcards.games.kqp.observation import observation_shape, observation_string, observation_tensor
from courtcards.games.kqp.positions import load_position
from courtcards.games.kqp.state import KqpState
from courtcards.games.kqp.views import KqpView
from courtcards.games.kqp.worlds import sample_world


def upgrade_position(data: dict[str, Any], version: int) -> dict[str, Any]:
    """A KQP position of ``format_version`` 1 or 2 in format 3 (KqpGame._upgrade_position)."""
    if version >= 3:
        return data
    out = dict(data)
    pile_cards = out.pop("pile", None)
    top = out.pop("top", None)
    for old in ("pile_count", "first_value", "plays", "consecutive"):
        out.pop(old, None)
    pile: dict[str, Any] = {}
    if pile_cards is not None:
        # bottom card first then; a position could give only the top play
        pile["cards"] = list(reversed(pile_cards)) if isinstance(pile_cards, list) else pile_cards
        if isinstance(pile_cards, list) and not pile_cards and isinstance(top, list):
            pile["cards"] = list(top)
    elif isinstance(top, list):
        pile["cards"] = list(top)
    for old, new in (("owner", "owner"), ("passes", "passes"), ("pile_log", "plays")):
        if old in out:
            pile[new] = out.pop(old)
    if pile:
        out["pile"] = pile
    if "totals" in out:
        out["scores"] = out.pop("totals")
    rounds = out.get("rounds_log")
    if isinstance(rounds, list):
        out["rounds_log"] = [
            {("scores" if k == "totals" else k): v for k, v in r.items()} if isinstance(r, Mapping) else r
            for r in rounds
        ]
    start = out.get("start")
    if isinstance(start, Mapping) and "format_version" not in start:  # a position of the same format
        out["start"] = {**upgrade_position(dict(start), version), "format_version": STATE_FORMAT_VERSION}
    if "format_version" in out:
        out["format_version"] = STATE_FORMAT_VERSION
    return out


def default_target(num_players: int) -> int:
    """The rulebook's suggested target: 15 for 4 players, 20 for 5-6, 25 for 7-9 (KQ-9)."""
    return 15 if num_players <= 4 else 20 if num_players <= 6 else 25


KQP_OPTIONS = OptionSet(
    options=(
        Option(
            "target",
            "int",
            default_target,
            "The game ends after the round in which a total reaches this many points "
            "(default 15 for 4 players, 20 for 5-6, 25 for 7-9; none: no target) (KQ-9).",
            minimum=1,
            maximum=1000,
            optional=True,
        ),
        Option(
            "rounds",
            "int",
            None,
            "The game ends after this many rounds (none by default) (KQ-9).",
            minimum=1,
            maximum=1000,
            optional=True,
        ),
        Option(
            "hand_size",
            "int",
            None,
            "Cards dealt to each seat, the rest face up on the discard (none: the whole deck, as the rulebook "
            "deals). Not a rulebook option: small hands make small games for exact solvers (preset 'tiny').",
            minimum=2,
            maximum=25,
            optional=True,
        ),
    ),
    presets={
        "standard": {},
        "tournament": {"target": None, "rounds": 5},
        "quick": {"target": None, "rounds": 1},
        "tiny": {"target": None, "rounds": 1, "hand_size": 2},
    },
    preset_docs={
        "standard": "To the rulebook's target score for the table size.",
        "tournament": "Five rounds, no target: a tournament table (KQ-10).",
        "quick": "A single round.",
        "tiny": "A single round, two cards each: a small game for exact solvers (docs/research.md).",
    },
)


class KqpGame(Game[KqpState]):
    info = GameInfo(
        name="kqp",
        title="King Queens & Paupers",
        min_players=4,
        max_players=9,
        default_players=6,
        options=KQP_OPTIONS,
        dynamics="sequential",
        round_word="Round",
        gym_id="courtcards/KQP-v0",
        brief=BRIEF,
        listing=1,
        profiles={
            "bots": "courtcards.games.kqp.bots",
            "networks": "courtcards.games.kqp.nets",  # the nn bot's trained networks (courtcards.nn)
            "strangers": "courtcards.games.kqp.strangers",
            "search": "courtcards.games.kqp.search:PROFILE",
            "observer": "courtcards.games.kqp.analysis:observe",
            "events": "courtcards.games.kqp.events:KINDS",
            "terminal": "courtcards.games.kqp.render:RENDERER",
            "tournament": "courtcards.games.kqp.tournament",  # `courtcards tournament kqp` (KQ-10)
            "browser": "static/kqp.js",
        },
    )
    view_type = KqpView

    def check_options(self, num_players: int, values: Mapping[str, OptionValue]) -> None:
        if values["target"] is None and values["rounds"] is None:
            raise OptionError("options 'target' and 'rounds' cannot both be none: the game would never end (KQ-9)")

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        configs: list[tuple[int, dict[str, OptionValue]]] = [(n, {"rounds": 2, "target": None}) for n in range(4, 10)]
        configs += [(4, {}), (6, {"target": 8}), (9, {"target": 12, "rounds": 3}), (5, {"rounds": 1, "target": None})]
        configs += [
            (4, {"rounds": 1, "target": None, "hand_size": 2}),
            (6, {"rounds": 3, "target": None, "hand_size": 5}),
        ]
        return configs

    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> KqpState:
        state = KqpState(self, num_players, options, seed)
        state._start()
        return state

    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> KqpState:
        state = KqpState(self, num_players, options, seed)
        load_position(state, data, strict)
        return state

    def _check_pending(self, state: State, seat: int, action: Action, strict: bool) -> None:
        assert isinstance(state, KqpState)
        if seat not in state.owed:
            raise PositionError(f"pending.{seat}", f"seat {seat} has no give-back to commit")

    def _upgrade_position(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Format 1 and 2 (one layout): the pile's fields were flat (``pile`` bottom card
        first, ``top``, ``pile_count``, ``owner``, ``first_value``, ``plays``, ``consecutive``,
        ``passes``, ``pile_log``) and the scores were ``totals``. Format 3 has one ``pile``
        object (cards top card first; its plays and passes; the rest follows from the cards)
        and ``scores``. A saved state's ``start`` is upgraded the same way."""
        return upgrade_position(data, version)

    # -- the computation interface (docs/engine/kqp.md) ---------------------------------------
    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> KqpCodec:
        return KqpCodec(num_players)

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        return observation_shape(num_players)

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        return observation_tensor(view, prefix, self._codec(view))

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        return observation_string(view, prefix, self._codec(view))

    def _codec(self, view: Mapping[str, Any]) -> KqpCodec:
        codec = self.action_codec(view["num_players"], view["options"])
        assert isinstance(codec, KqpCodec)
        return codec

    def _sample_world(self, view: Mapping[str, Any], rng: Rng) -> KqpState:
        return sample_world(self, view, rng)

    def parse_action(self, text: str) -> KqpAction:
        return parse_action(text)

    def parse_cards(self, text: str) -> list[str]:
        return [TEXT[c] for c in parse_card_list(text)]
