"""Rank Royale: loading and checking a position (docs/notation.md), out of the compiled rules.

:func:`load_position` is the game's loader with the core's one signature
(:class:`courtcards.core.positions.LoadPosition`), called by ``Game._load_state``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields, LoadPosition
from courtcards.core.state import JSON
from courtcards.games.royale.cards import CODE, DECK, TIER_NAMES, parse_card, texts, tier
from courtcards.games.royale.state import (
    DISCARD,
    END_REASONS,
    LOG_KEYS,
    MAX_RNG,
    N_CARDS,
    OUTCOMES,
    PHASES,
    PLAY,
    LogEntry,
    RoyaleState,
    freeze_entry,
)


def load_position(state: RoyaleState, data: Mapping[str, Any], strict: bool) -> None:
    """Fill ``state`` from full-state JSON or an explicit position
    (``format_version`` 3; the game upgrades older ones first).

    Only ``hands`` is required. Missing ``decks``: each player's cards not
    in hand or discard pile, shuffled with the seed. Missing ``discard``:
    each player's cards not in hand or deck. ``strict`` (always, except for
    the conformance suite's resampled copies) checks that each player's
    cards are exactly one 52-card deck. Every field is read through
    :class:`Fields`: a bad one raises PositionError naming its path."""
    f = Fields(data)
    for old, new in (("discard_piles", "discard"), ("log", "rounds_log")):
        if f.has(old):
            raise PositionError(f.at(old), f"is format_version 2's name; format_version 3 says {new!r}")
    if f.has("rng"):
        state.rng.state = f.integer("rng", 0, MAX_RNG)
    if not f.has("hands"):
        raise PositionError("hands", "a Rank Royale position needs 'hands': two lists of cards")
    hands = f.card_lists("hands", parse_card, 2)
    decks = f.card_lists("decks", parse_card, 2) if f.data.get("decks") is not None else None
    piles = f.card_lists("discard", parse_card, 2) if f.data.get("discard") is not None else None
    if piles is not None:
        piles = [p[::-1] for p in piles]  # top card first in the position, oldest first here
    new_decks: list[list[int]] = [[], []]
    new_piles: list[list[int]] = [[], []]
    for s in (0, 1):
        listed = hands[s] + (decks[s] if decks else []) + (piles[s] if piles else [])
        if strict:
            dupes = sorted(c for c, n in Counter(listed).items() if n > 1)
            if dupes:
                raise PositionError(
                    f"hands[{s}]", f"seat {s}: {' '.join(texts(dupes))} listed twice (each player has one deck)"
                )
        seen = set(listed)
        rest = [c for c in DECK if c not in seen]
        new_piles[s] = piles[s] if piles else ([] if decks is None else rest)
        if decks is None:
            state.rng.shuffle(rest)
            new_decks[s] = rest[::-1]  # the state's decks keep the top card last
        else:
            new_decks[s] = decks[s][::-1]
            if strict and piles is not None and rest:
                raise PositionError(f"discard[{s}]", f"seat {s}: cards in no place: {' '.join(texts(rest))}")
    if not strict:
        state.loose = True
        lists = (hands, new_decks, new_piles)
        total = Counter(c for group in lists for cards in group for c in cards)
        if total != Counter(DECK * 2):
            raise PositionError("cards", "the cards in the position are not two 52-card decks")
    state.decks, state.piles = new_decks, new_piles
    state.hands = [sorted(h) for h in hands]
    state.phase = f.text("phase", PHASES, default=PLAY)
    state.round = f.integer("round", 1, default=1)
    if state.phase == DISCARD:
        if f.data.get("owed") is None:
            raise PositionError("owed", 'a discard phase needs \'owed\': {"seat": 0 or 1, "count": n}')
        owed = f.obj("owed")
        loser = owed.seat("seat", 2)
        assert loser is not None
        state.loser = loser
        state.owe = owed.integer("count", 1, 52)
        if strict and state.owe > len(state.hands[state.loser]):
            raise PositionError(
                owed.at("count"),
                f"seat {state.loser} cannot owe {N_CARDS[state.owe]} holding {len(state.hands[state.loser])} (RR-4)",
            )
    elif f.data.get("owed") is not None:
        raise PositionError("owed", f"only the discard phase owes cards, not the {state.phase} phase")
    state._rounds = read_rounds_log(f, "rounds_log")
    if state.phase == DISCARD and not state._rounds:
        state._rounds.append(
            freeze_entry(
                {
                    "round": state.round,
                    "cards": [],
                    "tiers": [],
                    "outcome": "tier",
                    "winner": 1 - state.loser,
                    "discard": state.owe,
                    "discarded": [],
                }
            )
        )
    state.reshuffles = f.ints("reshuffles", 2, 0, default=[0, 0])
    known = f.card_lists("known_cards", parse_card, 2, default=[[], []])
    state.known = [sorted(k) for k in known]
    for s in (0, 1):
        if strict and not set(state.known[s]) <= set(state.hands[s]):
            raise PositionError(f"known_cards[{s}]", "must be cards in the same player's hand")
    state.winner = f.seat("winner", 2, optional=True)
    state.end_reason = f.text("end_reason", END_REASONS) if f.data.get("end_reason") is not None else None
    if strict and state.phase == PLAY and not all(state.hands):
        raise PositionError("hands", "both players must hold a card in the play phase")


def read_rounds_log(f: Fields, key: str, required: bool = False) -> list[LogEntry]:
    """The rounds log of a position or a view (``f[key]``), every entry checked field by
    field (an entry as the engine writes it is checked at once, without the paths)."""
    out: list[LogEntry] = []
    path = f.at(key)
    for i, raw in enumerate(f.array(key) if required else f.array(key, default=[])):
        quick = _quick_entry(raw)
        out.append(quick if quick is not None else _read_entry(Fields(raw, f"{path}[{i}]")))
    return out


_ENTRY_KEYS = frozenset(LOG_KEYS)


def _quick_entry(raw: Any) -> LogEntry | None:
    """An entry of the rounds log in the engine's own form, frozen; None if anything
    about it is unusual (then :func:`_read_entry` reads it and names the fault)."""
    if type(raw) is not dict or not raw.keys() <= _ENTRY_KEYS:
        return None
    rnd, cards, tiers, outcome = raw.get("round"), raw.get("cards"), raw.get("tiers"), raw.get("outcome")
    winner, k, discarded, lost = raw.get("winner"), raw.get("discard"), raw.get("discarded"), raw.get("lost", False)
    if (
        type(rnd) is not int
        or rnd < 1
        or type(k) is not int
        or not 0 <= k <= 52
        or type(lost) is not bool
        or type(cards) is not list
        or len(cards) not in (0, 2)
        or type(discarded) is not list
        or type(outcome) is not str
        or outcome not in OUTCOMES
        or not (winner is None if outcome == "tie" else type(winner) is int and 0 <= winner <= 1)
    ):
        return None
    if not all(type(c) is str and c in CODE for c in cards) or not all(type(c) is str and c in CODE for c in discarded):
        return None
    if tiers != [TIER_NAMES[tier(CODE[c])] for c in cards]:
        return None
    entry: LogEntry = (
        ("round", rnd),
        ("cards", tuple(cards)),
        ("tiers", tuple(tiers)),
        ("outcome", outcome),
        ("winner", winner),
        ("discard", k),
        ("discarded", tuple(discarded)),
    )
    return (*entry, ("lost", lost)) if "lost" in raw else entry


def _read_entry(entry: Fields) -> LogEntry:
    """An entry of the rounds log read field by field: a PositionError names the faulty one."""
    cards = entry.cards("cards", parse_card)
    if len(cards) not in (0, 2):
        raise PositionError(entry.at("cards"), f"a round shows two cards (or none), not {len(cards)}")
    tiers = [TIER_NAMES[tier(c)] for c in cards]
    if entry.array("tiers") != tiers:
        raise PositionError(entry.at("tiers"), f"must be the tiers of the cards, {tiers} (RR-1)")
    outcome = entry.text("outcome", OUTCOMES)
    winner = entry.seat("winner", 2, optional=True)
    if (winner is None) != (outcome == "tie"):
        raise PositionError(entry.at("winner"), f"a {outcome} {'has no' if outcome == 'tie' else 'needs a'} winner")
    item: JSON = {
        "round": entry.integer("round", 1),
        "cards": texts(cards),
        "tiers": tiers,
        "outcome": outcome,
        "winner": winner,
        "discard": entry.integer("discard", 0, 52),
        "discarded": texts(entry.cards("discarded", parse_card)),
    }
    if entry.has("lost"):
        item["lost"] = entry.boolean("lost")
    return freeze_entry(item)


_SIGNATURE: LoadPosition[RoyaleState] = load_position  # the core's one signature (mypy checks it)
