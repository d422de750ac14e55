"""Observations of King Queens & Paupers from one seat's view (docs/engine/kqp.md).

Everything here reads the view (and the seat's partial id choice), never a state.
Card vectors have 16 entries, one per value 3..14, Silver, Gold, Queen, King,
each the number of such cards divided by the copies in the deck (so 0..1).
Other seats are listed in play order (clockwise) starting with the observer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.games.kqp.cards import TEXT, deck_counts, parse_card
from courtcards.games.kqp.ids import KqpCodec

VALUES = 16  # 3..Gold, Queen, King
ROLES = ("king", "queen", "commoner", "pauper-1", "pauper-2")
PHASES = ("tax", "play", "over")
PER_SEAT = len(ROLES) + 8 + VALUES  # role, cards, passed, out, place, total, to move, committed, owed, played
MAX_COPIES = 10


def _layout(n: int) -> dict[str, tuple[int, int]]:
    """Name -> (start, length) of each block of the tensor."""
    blocks = [
        ("hand", VALUES),
        ("discard", VALUES),
        ("pile", VALUES),
        ("top_value", VALUES),
        ("top_count", MAX_COPIES),
        ("leading", 1),
        ("consecutive", 1),
        ("owner", n),
        ("phase", len(PHASES)),
        ("round", 1),
        ("paid", VALUES),
        ("taxed", VALUES),
        ("gave_back", VALUES),
        ("got_back", VALUES),
        ("mine", VALUES),
        ("choosing", VALUES),
        ("seats", n * PER_SEAT),
    ]
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, size in blocks:
        out[name] = (at, size)
        at += size
    return out


def observation_shape(num_players: int) -> tuple[int, ...]:
    start, size = _layout(num_players)["seats"]
    return (start + size,)


def _scale(n: int) -> list[float]:
    counts = deck_counts(n)
    return [1.0 / counts[v] for v in range(3, 3 + VALUES)]


def _add_cards(out: npt.NDArray[np.float32], at: int, cards: Sequence[str], scale: list[float]) -> None:
    for t in cards:
        i = parse_card(t) - 3
        out[at + i] += scale[i]


def _score_scale(view: Mapping[str, Any]) -> float:
    options = view["options"]
    target = options.get("target")
    rounds = options.get("rounds")
    n = view["num_players"]
    return 1.0 / (target if isinstance(target, int) else n * (rounds or 1))


def _relative(view: Mapping[str, Any]) -> list[int]:
    """Seats in play order starting with the observer."""
    order = list(view["order"])
    i = order.index(view["seat"])
    return order[i:] + order[:i]


def _tax_cards(view: Mapping[str, Any]) -> dict[str, list[str]]:
    me = view["seat"]
    out: dict[str, list[str]] = {"paid": [], "taxed": [], "gave_back": [], "got_back": []}
    for e in view["taxes"]:
        cards = e.get("cards")
        if cards is None:
            continue
        tax = e["why"] == "tax"
        if e["from"] == me:
            out["paid" if tax else "gave_back"] += cards
        elif e["to"] == me:
            out["taxed" if tax else "got_back"] += cards
    return out


def _chosen(prefix: tuple[int, ...], codec: KqpCodec) -> list[str]:
    """The give-back cards chosen so far in the id layer."""
    return [TEXT[3 + i - codec.give] for i in prefix if i >= codec.give]


def observation_tensor(view: Mapping[str, Any], prefix: tuple[int, ...], codec: KqpCodec) -> npt.NDArray[np.float32]:
    n = view["num_players"]
    layout = _layout(n)
    out = np.zeros(observation_shape(n), dtype=np.float32)
    scale = _scale(n)
    _add_cards(out, layout["hand"][0], view["hand"], scale)
    _add_cards(out, layout["discard"][0], view["discard"], scale)
    pile = view["pile"]
    _add_cards(out, layout["pile"][0], pile["cards"], scale)
    rel = _relative(view)
    where = {s: i for i, s in enumerate(rel)}
    if pile["value"] is not None:
        out[layout["top_value"][0] + parse_card(pile["value"]) - 3] = 1
        out[layout["top_count"][0] + pile["count"] - 1] = 1
    out[layout["leading"][0]] = view["leading"]
    out[layout["consecutive"][0]] = pile["consecutive"]
    if pile["owner"] is not None:
        out[layout["owner"][0] + where[pile["owner"]]] = 1
    out[layout["phase"][0] + PHASES.index(view["phase"])] = 1
    out[layout["round"][0]] = view["round"] / 10
    for name, cards in _tax_cards(view).items():
        _add_cards(out, layout[name][0], cards, scale)
    mine = view["pending"].get("mine")
    if mine:
        _add_cards(out, layout["mine"][0], mine.split()[1:], scale)
    _add_cards(out, layout["choosing"][0], _chosen(prefix, codec), scale)

    seats_at = layout["seats"][0]
    deal = sum(deck_counts(n)) / n + 3
    totals = _score_scale(view)
    to_move = set(view["to_move"])
    committed = set(view["pending"]["committed"])
    owed = {int(k): v for k, v in view["owed"].items()}
    for p in view["players"]:
        s = p["seat"]
        at = seats_at + where[s] * PER_SEAT
        out[at + ROLES.index(p["role"])] = 1
        at += len(ROLES)
        out[at] = p["hand_size"] / deal
        out[at + 1] = p["passed"]
        out[at + 2] = p["out"] is not None
        out[at + 3] = (p["out"] or 0) / n
        out[at + 4] = p["score"] * totals
        out[at + 5] = s in to_move
        out[at + 6] = s in committed
        out[at + 7] = owed.get(s, 0) / 2
        _add_cards(out, at + 8, p["played"], scale)
    return out


def observation_string(view: Mapping[str, Any], prefix: tuple[int, ...], codec: KqpCodec) -> str:
    """The view in a few lines: the seat, the pile, each seat in play order, the taxes it saw."""
    me = view["seat"]
    pile = view["pile"]
    lines = [
        f"King Queens & Paupers, {view['num_players']} players; round {view['round']}, {view['phase']}; "
        f"seat {me}; to move: {' '.join(map(str, view['to_move'])) or '-'}"
    ]
    lines.append(f"hand: {' '.join(view['hand']) or '-'}")
    if view["phase"] == "play":
        if view["leading"]:
            lines.append("pile: empty (a new lead)")
        else:
            mode = ", consecutive" if pile["consecutive"] else ""
            lines.append(
                f"pile: {' '.join(pile['top'])} by seat {pile['owner']}{mode}; "
                f"plays: {'; '.join(f'{s} {t}' for s, t in pile['plays'])}"
            )
    lines.append(f"discard: {' '.join(view['discard']) or '-'}")
    for s in _relative(view):
        p = view["players"][s]
        facts = [f"seat {s}", p["role"], f"{p['hand_size']} cards", f"score {p['score']}"]
        if p["out"] is not None:
            facts.append(f"out {p['out']}")
        if p["passed"]:
            facts.append("passed")
        if str(s) in view["owed"]:
            facts.append(f"owes {view['owed'][str(s)]} back")
        if s in view["pending"]["committed"]:
            facts.append("committed")
        facts.append(f"played: {' '.join(p['played']) or '-'}")
        lines.append(", ".join(facts))
    for name, cards in _tax_cards(view).items():
        if cards:
            lines.append(f"{name.replace('_', ' ')}: {' '.join(cards)}")
    mine = view["pending"].get("mine")
    if mine:
        lines.append(f"committed: {mine}")
    chosen = _chosen(prefix, codec)
    if chosen:
        lines.append(f"choosing a give-back: {' '.join(chosen)} so far")
    if view["result"] is not None:
        lines.append(f"winner: seat {view['result']['winner']}")
    return "\n".join(lines)
