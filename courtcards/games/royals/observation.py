"""Royals' observation tensor and string, computed from a seat's view only.

The tensor (float32, ``212 + 289 n`` values for ``n`` players) is laid out in
blocks; a card block has 52 entries indexed by card code in the one numbering of
the 52 cards ((rank - 1) * 4 + suit, suits C D H S: ``courtcards.core.cards``, as
in Rank Royale), a face block 12 entries by face index (3 * suit + J 0, Q 1, K 2).
Seats are listed from the observer's point of view: the observer first, then
the seat on its left (observer + 1), and so on.

======================  ====  ===================================================
block                   size  contents
======================  ====  ===================================================
hand                    52    1 for each card in the observer's hand
own commitment          52    the cards of the observer's pending commitment
partial choice          52    cards already chosen in the commitment being built
phase                   6     one-hot: action, commit, pair, hits, losses, over
per seat (n times)      289   see below
fight                   49    see below
turns                   1     turns begun / 100
======================  ====  ===================================================

Per seat: Royals 120 (12 faces x 10: 1 at face index * 10 + value - 1), discard
pile 52, table 52 (cards committed, face up after the reveal), reshuffled pile
52 (the pile its current deck was made of) and 1 (it was reshuffled), then 12
numbers: hand size / hand limit, deck size / 52, points / target, its turn, it
decides now, it has committed, cards it must commit / hand limit, that count is
a maximum (defender), attacker, defender, first player, winner.

Fight: kind (attack, assassination), target face 12, open attacks by value 10
(counts), open blocks by value 10 (counts), hits, hits per face 12, Royals dealt
with, revealed. All zero when no fight is under way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.core import cards as cards52
from courtcards.games.royals.cards import TEXT
from courtcards.games.royals.ids import codec, face_index

CODE = {t: c for c, t in enumerate(TEXT)}  # Royals' own codes (for face indices)
BLOCK = cards52.CODE  # a card's entry in a 52-card block
PHASE_INDEX = {"action": 0, "commit": 1, "pair": 2, "hits": 3, "losses": 4, "over": 5}
SEAT_SIZE = 120 + 52 * 3 + 1 + 12
FIGHT_SIZE = 2 + 12 + 10 + 10 + 1 + 12 + 1 + 1
HEAD_SIZE = 52 * 3 + 6


def shape(num_players: int) -> tuple[int, ...]:
    return (HEAD_SIZE + SEAT_SIZE * num_players + FIGHT_SIZE + 1,)


def _prefix_cards(view: Mapping[str, Any], prefix: Sequence[int]) -> list[int]:
    """The cards of a partial commitment (commit-card ids are 52 consecutive ids)."""
    first = codec(view["num_players"]).COMMIT_CARD
    return [i - first for i in prefix if first <= i < first + 52]


def _mark(out: npt.NDArray[np.float32], base: int, cards: Sequence[str]) -> None:
    for t in cards:
        out[base + BLOCK[t]] = 1.0


def tensor(view: Mapping[str, Any], prefix: Sequence[int]) -> npt.NDArray[np.float32]:
    n = view["num_players"]
    me = view["seat"]
    out = np.zeros(shape(n), dtype=np.float32)
    _mark(out, 0, view["hand"])
    mine = view["pending"].get("mine")
    if mine:
        _mark(out, 52, mine.split()[1:] if mine != "commit none" else [])
    for c in _prefix_cards(view, prefix):
        out[104 + c] = 1.0
    out[156 + PHASE_INDEX[view["phase"]]] = 1.0
    fight = view["fight"]
    need = fight["need"] if fight else {}
    committed = set(view["pending"]["committed"])
    to_move = set(view["to_move"])
    limit = view["hand_limit"]
    winner = view["result"]["winner"] if view["result"] else None
    for r in range(n):
        s = (me + r) % n
        p = view["players"][s]
        base = HEAD_SIZE + SEAT_SIZE * r
        for royal in p["royals"]:
            out[base + face_index(CODE[royal["face"]]) * 10 + royal["value"] - 1] = 1.0
        _mark(out, base + 120, p["discard"])
        _mark(out, base + 172, p["table"])
        if p["new_deck"] is not None:
            _mark(out, base + 224, p["new_deck"])
            out[base + 276] = 1.0
        k = base + 277
        wants = need.get(str(s))
        out[k : k + 12] = (
            p["hand_size"] / limit,
            p["deck_size"] / 52,
            p["score"] / view["target"],
            s == view["turn"],
            s in to_move,
            s in committed,
            wants["count"] / limit if wants else 0.0,
            bool(wants and wants["up_to"]),
            bool(fight and fight["attacker"] == s),
            bool(fight and fight["defender"] == s),
            s == view["first_player"],
            s == winner,
        )
    base = HEAD_SIZE + SEAT_SIZE * n
    if fight:
        out[base + (0 if fight["kind"] == "attack" else 1)] = 1.0
        if fight["target"]:
            out[base + 2 + face_index(CODE[fight["target"]])] = 1.0
        for v in fight["open_attacks"]:
            out[base + 14 + v - 1] += 1.0
        for v in fight["open_blocks"]:
            out[base + 24 + v - 1] += 1.0
        out[base + 34] = fight["hits"]
        for face, hits in fight["wounds"]:
            out[base + 35 + face_index(CODE[face])] = hits
        out[base + 47] = fight["resolved"]
        out[base + 48] = fight["revealed"]
    out[base + FIGHT_SIZE] = view["round"] / 100
    return out


def _seat_line(view: Mapping[str, Any], s: int) -> str:
    p = view["players"][s]
    me = view["seat"]
    who = f"seat {s} (you)" if s == me else f"seat {s}"
    royals = ", ".join(f"{r['face']} {r['number']}" for r in p["royals"]) or "-"
    hand = (" ".join(view["hand"]) or "-") if s == me else str(p["hand_size"])
    parts = [
        f"{who}: hand {hand}",
        f"deck {p['deck_size']}",
        f"Royals {royals} = {p['score']}",
        f"discard {' '.join(p['discard']) or '-'}",
    ]
    if p["table"]:
        parts.append(f"table {' '.join(p['table'])}")
    if p["new_deck"] is not None:
        parts.append(f"deck from pile {' '.join(p['new_deck'])}")
    return "; ".join(parts)


def _fight_line(fight: Mapping[str, Any]) -> str:
    what = "attack" if fight["kind"] == "attack" else f"assassination of {fight['target']}"
    need = ", ".join(f"seat {s} {'up to ' if w['up_to'] else ''}{w['count']}" for s, w in fight["need"].items())
    line = f"fight: {what} by seat {fight['attacker']} on seat {fight['defender']}; commit {need or 'nothing'}"
    if fight["revealed"]:
        line += (
            f"; open attacks {fight['open_attacks'] or '-'}, open blocks {fight['open_blocks'] or '-'}"
            f", hits {fight['hits']}"
        )
        if fight["wounds"]:
            line += ", on " + " ".join(f"{face}x{h}" for face, h in fight["wounds"])
    return line


def string(view: Mapping[str, Any], prefix: Sequence[int]) -> str:
    """One line (the information state string is one line per step), parts split by " | "."""
    n = view["num_players"]
    movers = ", ".join(str(s) for s in view["to_move"]) or "nobody"
    lines = [
        f"Royals, {n} players, target {view['target']}; turn {view['round']} of seat {view['turn']}; "
        f"phase {view['phase']}; to move: {movers}"
    ]
    lines += [_seat_line(view, s) for s in range(n)]
    if view["fight"]:
        lines.append(_fight_line(view["fight"]))
    pending = view["pending"]
    if pending["committed"]:
        line = f"committed: seat {', '.join(str(s) for s in pending['committed'])}"
        lines.append(line + (f" (yours: {pending['mine']})" if "mine" in pending else ""))
    chosen = _prefix_cards(view, prefix)
    if chosen:
        lines.append(f"choosing to commit: {' '.join(cards52.TEXT[c] for c in chosen)}")
    if view["result"]:
        winner = view["result"]["winner"]
        lines.append("over: " + ("a draw" if winner is None else f"seat {winner} wins"))
    if view["log"]:
        lines.append(f"last: {view['log'][-1]['text']}")
    return " | ".join(lines)
