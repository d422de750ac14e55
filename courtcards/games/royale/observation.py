"""Rank Royale's observation tensor and string, from a seat's view only
(layout in docs/engine/royale.md). "me" is the observing seat, "opp" the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.games.royale.cards import CODE, TEXT
from courtcards.games.royale.ids import DISCARD_BASE

#: 52-card planes, in this order
PLANES = (
    "my_hand",
    "my_deck",
    "my_pile",
    "my_known",
    "opp_pile",
    "opp_known",
    "my_committed",
    "last_my_card",
    "last_opp_card",
    "my_partial_discard",
)
#: single numbers after the planes, in this order
SCALARS = (
    "phase_play",
    "phase_discard",
    "phase_over",
    "me_to_move",
    "opp_to_move",
    "me_committed",
    "opp_committed",
    "my_hand_size",
    "opp_hand_size",
    "my_deck_size",
    "opp_deck_size",
    "my_reshuffles",
    "opp_reshuffles",
    "i_owe",
    "opp_owes",
    "table_low",
    "table_middle",
    "table_high",
    "round",
    "rounds_left",
    "has_round_limit",
    "last_tie",
    "last_rank",
    "last_tier",
    "last_i_won",
    "last_opp_won",
    "i_won",
    "i_lost",
    "draw",
    "partial_count",
)
P = {name: i * 52 for i, name in enumerate(PLANES)}
S = {name: len(PLANES) * 52 + i for i, name in enumerate(SCALARS)}
SIZE = len(PLANES) * 52 + len(SCALARS)
OUTCOMES = {"tie": S["last_tie"], "rank": S["last_rank"], "tier": S["last_tier"]}


def shape() -> tuple[int, ...]:
    return (SIZE,)


def _set_cards(out: npt.NDArray[np.float32], base: int, cards: list[str]) -> None:
    for t in cards:
        out[base + CODE[t]] = 1.0


def tensor(view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
    me = view["seat"]
    opp = 1 - me
    out = np.zeros(SIZE, dtype=np.float32)
    mine, theirs = view["players"][me], view["players"][opp]
    hand = view["hand"]
    _set_cards(out, P["my_hand"], hand)
    out[P["my_deck"] : P["my_deck"] + 52] = 1.0
    for t in (*hand, *mine["discard"]):
        out[P["my_deck"] + CODE[t]] = 0.0
    _set_cards(out, P["my_pile"], mine["discard"])
    _set_cards(out, P["my_known"], mine["known_cards"])
    _set_cards(out, P["opp_pile"], theirs["discard"])
    _set_cards(out, P["opp_known"], theirs["known_cards"])
    pending = view["pending"]
    if "mine" in pending:
        _set_cards(out, P["my_committed"], [pending["mine"]])
    rounds = view["rounds_log"]
    last = rounds[-1] if rounds else None
    if last and len(last.get("cards", ())) == 2:
        out[P["last_my_card"] + CODE[last["cards"][me]]] = 1.0
        out[P["last_opp_card"] + CODE[last["cards"][opp]]] = 1.0
    for i in prefix:
        out[P["my_partial_discard"] + i - DISCARD_BASE] = 1.0

    out[S["phase_" + view["phase"]]] = 1.0
    to_move = view["to_move"]
    out[S["me_to_move"]] = me in to_move
    out[S["opp_to_move"]] = opp in to_move
    committed = pending["committed"]
    out[S["me_committed"]] = me in committed
    out[S["opp_committed"]] = opp in committed
    out[S["my_hand_size"]] = mine["hand_size"] / 52
    out[S["opp_hand_size"]] = theirs["hand_size"] / 52
    out[S["my_deck_size"]] = mine["deck_size"] / 52
    out[S["opp_deck_size"]] = theirs["deck_size"] / 52
    out[S["my_reshuffles"]] = min(mine["reshuffles"], 10) / 10
    out[S["opp_reshuffles"]] = min(theirs["reshuffles"], 10) / 10
    owed = view["owed"]
    if owed:
        out[S["i_owe" if owed["seat"] == me else "opp_owes"]] = owed["count"] / 6
    table = view["discard_table"]
    out[S["table_low"]], out[S["table_middle"]], out[S["table_high"]] = (
        table["low"] / 6,
        table["middle"] / 6,
        table["high"] / 6,
    )
    rnd, limit = view["round"], view["options"].get("max_rounds")
    out[S["round"]] = min(rnd, 100) / 100
    if limit:
        out[S["rounds_left"]] = (limit - rnd + 1) / limit
        out[S["has_round_limit"]] = 1.0
    if last:
        index = OUTCOMES.get(last.get("outcome"))
        if index is not None:
            out[index] = 1.0
        if last.get("winner") is not None:
            out[S["last_i_won" if last["winner"] == me else "last_opp_won"]] = 1.0
    result = view["result"]
    if result:
        winner = result["winner"]
        out[S["draw" if winner is None else "i_won" if winner == me else "i_lost"]] = 1.0
    out[S["partial_count"]] = len(prefix) / 6
    return out


def _cards_text(cards: list[str]) -> str:
    return " ".join(cards) or "-"


def string(view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
    me = view["seat"]
    opp = 1 - me
    mine, theirs = view["players"][me], view["players"][opp]
    who = {me: "you", opp: "opponent"}
    movers = " and ".join(who[s] for s in view["to_move"]) or "nobody"
    table = view["discard_table"]
    lines = [
        f"Rank Royale seat {me}, round {view['round']}, {view['phase']} phase, to decide: {movers}; "
        f"discards low {table['low']}, middle {table['middle']}, high {table['high']}",
        f"you: hand {_cards_text(view['hand'])}; deck {mine['deck_size']}; "
        f"pile (top first) {_cards_text(mine['discard'])}; "
        f"reshuffles {mine['reshuffles']}; known to opponent {_cards_text(mine['known_cards'])}",
        f"opponent: hand {theirs['hand_size']}; deck {theirs['deck_size']}; "
        f"pile (top first) {_cards_text(theirs['discard'])}; reshuffles {theirs['reshuffles']}; "
        f"known {_cards_text(theirs['known_cards'])}",
    ]
    pending = view["pending"]
    if pending["committed"]:
        chosen = [who[s] + (f" ({pending['mine']})" if s == me else "") for s in pending["committed"]]
        lines.append("committed: " + ", ".join(chosen))
    rounds = view["rounds_log"]
    if rounds and rounds[-1].get("cards"):
        last = rounds[-1]
        text = f"last round: you {last['cards'][me]}, opponent {last['cards'][opp]}: {last['outcome']}"
        if last.get("winner") is not None:
            text += f", {who[last['winner']]} won"
        if last.get("discarded"):
            text += f"; {who[1 - last['winner']]} discarded {_cards_text(last['discarded'])}"
        lines.append(text)
    owed = view["owed"]
    if owed:
        lines.append(f"{who[owed['seat']]} must discard {owed['count']}")
    if prefix:
        lines.append("your discard so far: " + _cards_text([TEXT[i - DISCARD_BASE] for i in prefix]))
    result = view["result"]
    if result:
        winner = result["winner"]
        lines.append("result: " + ("draw" if winner is None else f"{who[winner]} won"))
    return "\n".join(lines)
