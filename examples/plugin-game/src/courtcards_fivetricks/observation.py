"""Five Tricks' observation tensor and string, read from a seat's view only.

Seats are counted from the observer ("me" = 0, the next seat = 1, ...). The tensor
is, in order: 20-card planes ``my_hand`` and ``played`` (cards of finished tricks),
one 20-card plane per seat for the cards on the table, 4 void flags per seat (H D S
C), the led suit (4), then the scalars ``my_turn``, the leader (one per seat),
tricks won / hand size (one per seat), hand size / 5 (one per seat), ``trick`` (the
trick's number / hand size), ``set_aside`` / 20, ``over``, ``i_won``, ``i_lost``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards_fivetricks.cards import CODE, DECK, SUITS

CARDS = len(DECK)


def shape(num_players: int) -> tuple[int, ...]:
    n = num_players
    return (2 * CARDS + n * CARDS + 4 * n + 4 + 1 + 3 * n + 5,)


def tensor(view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
    me, n = view["seat"], view["num_players"]
    size = view["options"]["hand_size"]
    out = np.zeros(shape(n), dtype=np.float32)

    def rel(seat: int) -> int:
        return int((seat - me) % n)

    for t in view["hand"]:
        out[CODE[t]] = 1.0
    for entry in view["tricks_log"]:
        for t in entry["cards"]:
            out[CARDS + CODE[t]] = 1.0
    base = 2 * CARDS
    for played in view["trick"]:
        out[base + rel(played["seat"]) * CARDS + CODE[played["card"]]] = 1.0
    base += n * CARDS
    for p in view["players"]:
        for v in p["voids"]:
            out[base + rel(p["seat"]) * 4 + SUITS.index(v)] = 1.0
    base += 4 * n
    if view["led_suit"] is not None:
        out[base + SUITS.index(view["led_suit"])] = 1.0
    base += 4
    out[base] = me in view["to_move"]
    out[base + 1 + rel(view["leader"])] = 1.0
    base += 1 + n
    for p in view["players"]:
        out[base + rel(p["seat"])] = p["score"] / size
        out[base + n + rel(p["seat"])] = p["hand_size"] / 5
    base += 2 * n
    out[base] = view["round"] / size
    out[base + 1] = view["set_aside"] / CARDS
    result = view["result"]
    if result is not None:
        out[base + 2] = 1.0
        out[base + (3 if result["winner"] == me else 4)] = 1.0
    return out


def string(view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
    me = view["seat"]
    size = view["options"]["hand_size"]
    lines = [
        f"Five Tricks seat {me} of {view['num_players']}, trick {view['round']} of {size}, "
        f"{view['set_aside']} cards set aside; your hand: {' '.join(view['hand']) or '-'}"
    ]
    for p in view["players"]:
        voids = f", void in {' '.join(p['voids'])}" if p["voids"] else ""
        lines.append(
            f"seat {p['seat']}{' (you)' * (p['seat'] == me)}: {p['hand_size']} cards, {p['score']} tricks{voids}"
        )
    for entry in view["tricks_log"]:
        lines.append(
            f"trick {entry['trick']}: led by seat {entry['leader']}: {' '.join(entry['cards'])}; "
            f"seat {entry['winner']} won"
        )
    table = " ".join(f"seat {p['seat']} {p['card']}" for p in view["trick"])
    result = view["result"]
    if result is not None:
        lines.append(f"over: seat {result['winner']} won")
    else:
        lines.append(f"on the table (led by seat {view['leader']}): {table or '-'}; to play: seat {view['turn']}")
    return "\n".join(lines)
