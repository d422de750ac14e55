"""Rank's observation tensor and string, computed from a seat's view only
(docs/engine/rank.md has the layout).

Card counts are over the 17 card kinds in code order (1..12, W, U, D, C, C2),
each divided by how many of that kind the deck holds. Seats are relative to the
observer: slot 0 is the observer, slot 1 the seat to its left, and so on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.games.rank.cards import CODES, DECK_COUNTS, NCODES, TEXT, parse_card
from courtcards.games.rank.ids import GIVE, PLAY_CROWN

KINDS = NCODES - 1  # 17 card kinds
PHASES = ("kings_hand", "benefit", "give_back", "exchange", "play", "over")
CHARACTERS = ("king", "queen", "knight", "beggar")
PER_SEAT = 11
SEAT_FEATURES = ("cards/15", "passed", "out", "owns the pile", "to move", *CHARACTERS, "tokens/target",
                 "times King/hand")

# (name, width) of each section, in order; the per-seat block is PER_SEAT * n wide
SECTIONS: tuple[tuple[str, int], ...] = (
    ("hand", KINDS),
    ("pile top", KINDS),
    ("pile value", 14),
    ("pile count, leading", 2),
    ("played this hand", KINDS),
    ("draw pile", 1),
    ("phase", len(PHASES)),
    ("King's Hand dealt, kept, swapped; steal possible", 4),
    ("cards I gave", KINDS),
    ("cards given to me", KINDS),
    ("partial give-back", KINDS),
    ("hand set aside by the King (his own, after a swap)", KINDS),
    ("variant: classic_president, kings_hand, endless", 3),
)
FIXED = sum(w for _, w in SECTIONS)


def shape(num_players: int) -> tuple[int, ...]:
    return (FIXED + PER_SEAT * num_players,)


def _counts(out: list[float], at: int, texts: Any, scale: list[float]) -> None:
    at -= 1
    for t in texts:
        c = CODES.get(t) or parse_card(str(t))
        out[at + c] += scale[c]


def tensor(view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
    n: int = view["num_players"]
    me: int = view["seat"]
    decks = 2 if n >= 7 else 1
    scale = [0.0] + [1.0 / (DECK_COUNTS[c] * decks) for c in range(1, NCODES)]
    out = [0.0] * (FIXED + PER_SEAT * n)
    pile = view["pile"]
    at = 0
    _counts(out, at, view["hand"], scale)
    at += KINDS
    _counts(out, at, pile["top"], scale)
    at += KINDS
    out[at + int(pile["value"])] = 1.0
    at += 14
    out[at] = pile["count"] / (11.0 * decks)
    out[at + 1] = float(bool(view["leading"]))
    at += 2
    _counts(out, at, pile["cards"], scale)
    _counts(out, at, view["discard"], scale)
    at += KINDS
    out[at] = view["draw_pile"] / (98.0 * decks)
    at += 1
    out[at + PHASES.index(view["phase"])] = 1.0
    at += len(PHASES)
    kh = view["kings_hand"]
    out[at] = float(bool(kh["dealt"]))
    out[at + 1] = float(kh["choice"] == "keep")
    out[at + 2] = float(kh["choice"] == "swap")
    out[at + 3] = float(bool(view.get("steal_possible")))
    at += 4
    for e in view["exchanges"]:
        if "cards" in e and me in (e["from"], e["to"]):
            _counts(out, at if e["from"] == me else at + KINDS, e["cards"], [0.0] + [0.5] * KINDS)
    at += 2 * KINDS
    for i in prefix:
        if GIVE <= i < PLAY_CROWN:
            out[at + i - GIVE] += 0.5
    at += KINDS
    _counts(out, at, kh.get("set_aside", ()), scale)
    at += KINDS
    options = view["options"]
    out[at : at + 3] = [float(bool(options[k])) for k in ("classic_president", "kings_hand", "endless")]
    at += 3
    owner = pile["owner"]
    movers = set(view["to_move"])
    target = float(options["tokens_to_win"] or 1)
    hand_number = float(view["hand_number"])
    for p in view["players"]:
        s = p["seat"]
        base = at + PER_SEAT * ((s - me) % n)
        out[base] = p["cards"] / 15.0
        out[base + 1] = float(bool(p["passed"]))
        out[base + 2] = float(p["out"] is not None)
        out[base + 3] = float(s == owner)
        out[base + 4] = float(s in movers)
        out[base + 5 + CHARACTERS.index(p["character"])] = 1.0
        out[base + 9] = p["tokens"] / target
        out[base + 10] = p["times_king"] / hand_number
    return np.array(out, dtype=np.float32)


def text(view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
    n: int = view["num_players"]
    me: int = view["seat"]
    pile = view["pile"]
    parts = [f"seat {me} of {n}, hand {view['hand_number']}, {view['phase']}"]
    parts.append("hand: " + (" ".join(view["hand"]) or "-"))
    if pile["count"]:
        parts.append(f"pile: {' '.join(pile['top'])} (value {pile['value']}, count {pile['count']}, "
                     f"seat {pile['owner']})")
    elif view["leading"]:
        parts.append("pile: empty, leading")
    seats = []
    for p in view["players"]:
        flags = [p["character"], f"{p['cards']} cards", f"{p['tokens']} tokens"]
        if p["passed"]:
            flags.append("passed")
        if p["out"] is not None:
            flags.append(f"out #{p['out']}")
        seats.append(f"{p['seat']}: " + ", ".join(flags))
    parts.append("; ".join(seats))
    parts.append(f"played: {' '.join(view['discard'] + pile['cards']) or '-'}; draw pile {view['draw_pile']}")
    parts.append("to move: " + (", ".join(str(s) for s in view["to_move"]) or "-"))
    if view["round_log"]:
        parts.append("round: " + ", ".join(f"{s} {t}" for s, t in view["round_log"]))
    seen = [f"{e['from']}->{e['to']} {e['why']} {' '.join(e['cards'])}" for e in view["exchanges"] if "cards" in e]
    if seen:
        parts.append("exchanges: " + ", ".join(seen))
    kh = view["kings_hand"]
    if kh["dealt"]:
        parts.append(f"King's Hand: {kh['choice'] or 'waiting'}")
    if kh.get("set_aside"):
        parts.append("set aside: " + " ".join(kh["set_aside"]))
    if "steal_possible" in view:
        parts.append("steal possible" if view["steal_possible"] else "steal not possible")
    if view["pending"].get("mine"):
        parts.append(f"committed: {view['pending']['mine']}")
    if prefix:
        parts.append("chosen: give " + " ".join(TEXT[i - GIVE + 1] for i in prefix if GIVE <= i < PLAY_CROWN))
    if view["result"] is not None:
        parts.append(f"winner: seat {view['result']['winner']}")
    return " | ".join(parts)
