"""Rank's observation tensor and string, computed from a seat's view only
(docs/engine/rank.md has the layout).

Card counts are over the 17 card kinds in code order (1..12, W, U, D, C, C2),
each divided by how many of that kind the deck holds. Seats are relative to the
observer: slot 0 is the observer, slot 1 the seat to its left, and so on.

``tensor(view, prefix)`` is the definition; ``state_tensor(state, seat)`` computes the same
array straight from the state, reading only what that seat's view shows, for the environments
(about four times faster: no JSON view, one bytes-to-NumPy conversion).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from courtcards.games.rank.cards import CODES, DECK_COUNTS, NCODES, TEXT, parse_card
from courtcards.games.rank.ids import GIVE, PLAY_CROWN
from courtcards.games.rank.state import BENEFIT, KING, OVER, PLAY

if TYPE_CHECKING:
    from courtcards.games.rank.state import RankState

KINDS = NCODES - 1  # 17 card kinds
PHASES = ("kings_hand", "benefit", "give_back", "exchange", "play", "over")
CHARACTERS = ("king", "queen", "knight", "beggar")
PER_SEAT = 11
SEAT_FEATURES = (
    "cards/15",
    "passed",
    "out",
    "owns the pile",
    "to move",
    *CHARACTERS,
    "tokens/target",
    "times King/hand",
)

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


def _one_hot(width: int, i: int) -> tuple[int, ...]:
    return tuple(int(j == i) for j in range(width))


_NO_KINDS = (0,) * KINDS
_VALUE = [_one_hot(14, v) for v in range(14)]
_PHASE = {p: _one_hot(len(PHASES), i) for i, p in enumerate(PHASES)}
_CHARACTER = {c: _one_hot(len(CHARACTERS), i) for i, c in enumerate(CHARACTERS)}
_ORDER = {n: [tuple((s + i) % n for i in range(n)) for s in range(n)] for n in range(1, 13)}  # observer first


@functools.lru_cache(maxsize=256)
def _divisors(n: int, target: int, hand_number: int) -> npt.NDArray[np.float32]:
    """What each raw entry is divided by (see ``_finish``): whole numbers, exact in float32."""
    decks = 2 if n >= 7 else 1
    deck = [DECK_COUNTS[c] * decks for c in range(1, NCODES)]
    two = [2] * KINDS
    fixed = [
        *deck,
        *deck,
        *[1] * 14,
        11 * decks,
        1,
        *deck,
        98 * decks,
        *[1] * (len(PHASES) + 4),
        *two,
        *two,
        *two,
        *deck,
        1,
        1,
        1,
    ]
    seat = [15, *[1] * 8, target, hand_number]
    out = np.array(fixed + seat * n, dtype=np.float32)
    out.flags.writeable = False
    return out


def _finish(raw: list[int], n: int, target: int, hand_number: int) -> npt.NDArray[np.float32]:
    """Raw counts and flags (whole numbers from 0), each divided by its divisor in float32 (so
    correctly rounded): both tensor paths end here. Bytes are the quick way into NumPy; a count
    over 255 takes the long one."""
    try:
        counts: npt.NDArray[Any] = np.frombuffer(bytearray(raw), dtype=np.uint8)
    except ValueError:
        counts = np.array(raw, dtype=np.float32)
    return cast("npt.NDArray[np.float32]", counts / _divisors(n, target, hand_number))


def _count_texts(texts: Any) -> list[int]:
    counts = [0] * NCODES
    for t in texts:
        counts[CODES.get(t) or parse_card(str(t))] += 1
    return counts


def _prefix_gives(prefix: tuple[int, ...]) -> list[int]:
    counts = [0] * KINDS
    for i in prefix:
        if GIVE <= i < PLAY_CROWN:
            counts[i - GIVE] += 1
    return counts


def _variants(options: Mapping[str, Any]) -> list[bool]:
    return [bool(options["classic_president"]), bool(options["kings_hand"]), bool(options["endless"])]


def tensor(view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
    """The tensor from a seat's view (the definition; ``state_tensor`` is its fast equal)."""
    n: int = view["num_players"]
    me: int = view["seat"]
    pile = view["pile"]
    played = _count_texts(pile["cards"])
    for c, k in enumerate(_count_texts(view["discard"])):
        played[c] += k
    kh = view["kings_hand"]
    gave, got = [0] * NCODES, [0] * NCODES
    for e in view["exchanges"]:
        if "cards" in e and me in (e["from"], e["to"]):
            into = gave if e["from"] == me else got
            for c, k in enumerate(_count_texts(e["cards"])):
                into[c] += k
    options = view["options"]
    raw: list[int] = [
        *_count_texts(view["hand"])[1:],
        *_count_texts(pile["top"])[1:],
        *_VALUE[int(pile["value"])],
        pile["count"],
        bool(view["leading"]),
        *played[1:],
        view["deck_size"],
        *_PHASE[view["phase"]],
        bool(kh["dealt"]),
        kh["choice"] == "keep",
        kh["choice"] == "swap",
        bool(view.get("steal_possible")),
        *gave[1:],
        *got[1:],
        *_prefix_gives(prefix),
        *_count_texts(kh.get("set_aside", ()))[1:],
        *_variants(options),
    ]
    owner = pile["owner"]
    movers = set(view["to_move"])
    endless = bool(options["endless"])
    for p in sorted(view["players"], key=lambda p: (p["seat"] - me) % n):
        s = p["seat"]
        raw += [
            p["hand_size"],
            bool(p["passed"]),
            p["out"] is not None,
            s == owner,
            s in movers,
            *_CHARACTER[p["character"]],
            0 if endless else p["score"],
            p["times_king"],
        ]  # RK-15: no tokens
    return _finish(raw, n, int(options["tokens_to_win"] or 1), view["round"])


def state_tensor(state: RankState, seat: int) -> npt.NDArray[np.float32]:
    """``tensor(state.view(seat), state.id_prefix(seat))`` read straight from the state, only
    from what that view shows (tests/test_envs_observation.py checks that both agree)."""
    n = state.num_players
    phase = state.phase
    top = [0] * NCODES
    for c in state.top:
        top[c] += 1
    played = state.discard[:]
    for c in state.pile:
        played[c] += 1
    options = state.options
    choice = state.kh_choice
    king = state.characters[seat] == KING
    gave, got = [0] * NCODES, [0] * NCODES
    for e in state.exchanges:
        into = gave if seat == e["from"] else got if seat == e["to"] else None
        if into is not None:
            for t in e["cards"]:
                into[CODES[t]] += 1
    prefix = state.id_prefixes.get(seat)
    raw: list[int] = [
        *state.hands[seat][1:],
        *top[1:],
        *_VALUE[state.pile_value],
        state.pile_count,
        phase == PLAY and state.pile_count == 0,
        *played[1:],
        len(state.draw),
        *_PHASE[phase],
        bool(options["kings_hand"]),
        choice == "keep",
        choice == "swap",
        king and phase == BENEFIT and len(state._legal(seat)) == 2,
        *gave[1:],
        *got[1:],
        *(_prefix_gives(prefix) if prefix else _NO_KINDS),
        *(state.set_aside[1:] if king and choice == "swap" else _NO_KINDS),
        *_variants(options),
    ]
    movers = state.to_move()
    playing = phase == PLAY
    over = phase == OVER
    owner = state.owner
    sizes, passed, characters, tokens, kings = state.sizes, state.passed, state.characters, state.tokens, state.kings
    finished = state.finished
    add = raw.extend
    for s in _ORDER[n][seat]:
        size = sizes[s]
        add((size, passed[s] and playing, not over and not size and s in finished, s == owner, s in movers))
        add(_CHARACTER[characters[s]])
        add((tokens[s], kings[s]))
    return _finish(raw, n, int(options["tokens_to_win"] or 1), state.hand_number)


def text(view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
    n: int = view["num_players"]
    me: int = view["seat"]
    pile = view["pile"]
    parts = [f"seat {me} of {n}, hand {view['round']}, {view['phase']}"]
    parts.append("hand: " + (" ".join(view["hand"]) or "-"))
    if pile["count"]:
        parts.append(
            f"pile: {' '.join(pile['top'])} (value {pile['value']}, count {pile['count']}, seat {pile['owner']})"
        )
    elif view["leading"]:
        parts.append("pile: empty, leading")
    seats = []
    for p in view["players"]:
        flags = [
            p["character"],
            f"{p['hand_size']} cards",
            f"{p['score']} {'times King' if view['options']['endless'] else 'tokens'}",
        ]
        if p["passed"]:
            flags.append("passed")
        if p["out"] is not None:
            flags.append(f"out #{p['out']}")
        seats.append(f"{p['seat']}: " + ", ".join(flags))
    parts.append("; ".join(seats))
    parts.append(f"played: {' '.join(view['discard'] + pile['cards']) or '-'}; draw pile {view['deck_size']}")
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
