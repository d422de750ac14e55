"""King Queens & Paupers: loading and checking a position (docs/notation.md), out of the compiled rules.

:func:`load_position` is the game's loader with the core's one signature
(:class:`courtcards.core.positions.LoadPosition`), called by ``Game._load_state``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from courtcards.core.climbing import Record
from courtcards.core.errors import CourtcardsError, PositionError
from courtcards.core.positions import Fields, LoadPosition, as_int, as_list
from courtcards.games.kqp import actions as A
from courtcards.games.kqp.cards import NCODES, TEXT, counts_of, expand, parse_card
from courtcards.games.kqp.state import _FORMAT2_NAMES, DEAL, OVER, PLAY, TAX, KqpState, _record, hand_levels


def load_position(state: KqpState, data: Mapping[str, Any], strict: bool) -> None:
    """Fill ``state`` from full-state JSON or an explicit position (docs/notation.md).
    Fields left out take the values of a round in play with an empty pile; cards not
    listed anywhere are in the discard. Every field is read through ``Fields``: a bad
    one raises PositionError naming it."""
    n = state.num_players
    f = Fields(data)
    for old, new in _FORMAT2_NAMES.items():
        if f.has(old):
            raise PositionError(f.at(old), f"is format_version 2's name; format_version 3 {new}")
    if isinstance(data.get("pile"), list):
        raise PositionError(
            "pile",
            "is a list as in format_version 2; format_version 3 writes an object: "
            "cards (top card first), owner, plays, passes",
        )
    state.hands = [counts_of(h) for h in f.card_lists("hands", parse_card, n)]
    state.sizes = [sum(h) for h in state.hands]
    state.levels = [hand_levels(h) for h in state.hands]
    positions = f.seats("positions", n, default=list(range(n)))
    if len(positions) != n:
        raise PositionError(f.at("positions"), f"must list every seat 0..{n - 1} once, King first")
    state._set_positions(positions)
    state.phase = f.text("phase", (DEAL, TAX, PLAY, OVER), default=PLAY)
    _load_pile(state, f.obj("pile", default={}))
    turn = f.seat("turn", n) if f.has("turn") else None
    state.turn = positions[-1] if turn is None else turn
    state.finished = f.seats("finished", n, default=[])
    state.totals = f.ints("scores", n, 0, default=[0] * n)
    state.rounds_log = [_load_round(state, r, i) for i, r in enumerate(f.objs("rounds_log", default=[]))]
    state.round = f.integer("round", 1, default=len(state.rounds_log) + 1)
    state.taxes = [_load_transfer(state, e) for e in f.objs("taxes", default=[])]
    state.played = [counts_of(p) for p in f.card_lists("played", parse_card, n, default=[[]] * n)]
    owed = f.obj("owed", default={})
    state.owed = {}
    for key in owed.data:
        if not (isinstance(key, str) and key.isdigit() and int(key) < n):
            raise PositionError(owed.at(key), "is not a seat at this table")
        s = int(key)
        if s not in (positions[0], positions[1]):
            raise PositionError(owed.at(key), "only the King and the Queen give cards back (KQ-4)")
        most = 2 if s == positions[0] else 1
        role = "King" if most == 2 else "Queen"
        k = as_int(owed.data[key], owed.at(key), None, None)
        if not 1 <= k <= most:
            limit = "1 or 2 cards" if most == 2 else "1 card"
            raise PositionError(owed.at(key), f"the {role} (seat {s}) gives back {limit}, not {k} (KQ-4)")
        state.owed[s] = k
    if state.phase == TAX and not state.owed:
        raise PositionError("owed", "a tax phase needs the King's and Queen's give-backs, e.g. {\"0\": 2}")
    state.winner = f.seat("winner", n, optional=True)
    if f.has("rng"):
        state.rng.state = f.integer("rng", 0, (1 << 64) - 1)
    placed = [0] * NCODES
    for h in state.hands:
        for c in range(NCODES):
            placed[c] += h[c]
    for c in state.pile:
        placed[c] += 1
    if f.has("discard"):
        state.discard = tuple(f.cards("discard", parse_card)[::-1])
        for c in state.discard:
            placed[c] += 1
        if placed != list(state.counts):
            raise PositionError("discard", "the cards in the position do not add up to the deck (KQ-1)")
    else:
        left = [state.counts[c] - placed[c] for c in range(NCODES)]
        too_many = [TEXT[c] for c in range(NCODES) if left[c] < 0]
        if too_many:
            raise PositionError("hands", f"more cards than the deck holds: {', '.join(too_many)}")
        state.discard = tuple(expand(left))
    if state.phase == PLAY and state.sizes[state.turn] == 0:
        raise PositionError("turn", f"seat {state.turn} is to play but holds no cards")
    if state.phase == DEAL:
        _load_deal(state, f)


def _load_deal(state: KqpState, f: Fields) -> None:
    """Phase ``deal``: the hands as dealt, before the taxes; the taxes are collected now (KQ-4),
    which leaves the position in phase ``tax`` (or ``play`` if nothing is to be given back)."""
    for key in ("turn", "taxes", "owed", "winner"):
        if f.has(key) and f.data[key] not in (None, [], {}):
            raise PositionError(
                key, "a position in phase 'deal' is a round before its taxes (KQ-4): the taxes fill in the rest"
            )
    if state.pile:
        raise PositionError("pile", "the pile is empty before the taxes (KQ-4)")
    if state.finished or any(any(p) for p in state.played):
        raise PositionError("finished" if state.finished else "played", "nothing is played before the taxes (KQ-4)")
    for s in range(state.num_players):
        if not state.sizes[s]:
            raise PositionError(f"hands[{s}]", f"seat {s} is dealt no cards; every seat is dealt cards (KQ-3)")
    state._collect_taxes()


def _load_pile(state: KqpState, p: Fields) -> None:
    """The pile, top card first. Each play tops the last with a higher value (KQ-5),
    so the runs of one value are the plays: the top one, how many cards every play
    needs (the first play's), and whether the second play started consecutive mode (KQ-7)."""
    n = state.num_players
    cards = p.cards("cards", parse_card, default=[])
    log: list[tuple[int, str]] = []
    for i, raw in enumerate(p.array("plays", default=[])):
        path = p.at("plays") + f"[{i}]"
        entry = as_list(raw, path, 2)
        seat = as_int(entry[0], f"{path}[0]", 0, n - 1)
        text = entry[1]
        if not isinstance(text, str):
            raise PositionError(f"{path}[1]", "must be an action's text")
        try:
            act = A.parse_action(text)
        except CourtcardsError as exc:
            raise PositionError(f"{path}[1]", str(exc)) from None
        if act.kind == "give" or (act.kind == "play" and not act.value):
            raise PositionError(f"{path}[1]", f"{text!r} is not a play of one value or a pass")
        log.append((seat, act.text))
    runs: list[list[int]] = []  # bottom first
    for c in reversed(cards):
        if runs and runs[-1][0] == c:
            runs[-1].append(c)
        else:
            if runs and c < runs[-1][0]:
                raise PositionError(p.at("cards"), "each play on a pile is higher than the one below (KQ-5)")
            runs.append([c])
    played = [A.parse_action(t).cards for _, t in log if t != "pass"]
    if log and [c for play in played for c in play] != [c for run in runs for c in run]:
        raise PositionError(p.at("plays"), "the plays do not make up the pile's cards")
    state.pile = [c for run in runs for c in run]
    state.top = tuple(runs[-1]) if runs else ()
    state.pile_value = runs[-1][0] if runs else 0
    state.pile_count = len(runs[0]) if runs else 0
    state.plays = len(runs)
    state.first_value = runs[0][0] if runs else 0
    state.consecutive = len(runs) > 1 and runs[1][0] == runs[0][0] + 1
    state.pile_log = log
    last_player = next((s for s, t in reversed(log) if t != "pass"), None)
    owner = p.seat("owner", n, optional=True) if p.has("owner") else last_player
    if runs and owner is None:
        raise PositionError(p.at("owner"), "a pile with cards needs its owner")
    if not runs and owner is not None:
        raise PositionError(p.at("owner"), "an empty pile has no owner")
    state.owner = -1 if owner is None else owner
    if p.has("passes"):
        state.passes = p.seats("passes", n)
    else:
        state.passes = []
        for s, t in reversed(log):
            if t != "pass":
                break
            state.passes.insert(0, s)


def _load_round(state: KqpState, r: Fields, i: int) -> Record:
    n = state.num_players
    if r.has("totals"):
        raise PositionError(r.at("totals"), "is format_version 2's name; format_version 3 says 'scores'")
    finish = r.seats("finish", n)
    if len(finish) != n:
        raise PositionError(r.at("finish"), "must list every seat once, first out first")
    return _record(
        {
            "round": r.integer("round", 1, default=i + 1),
            "finish": finish,
            "points": r.ints("points", n),
            "scores": r.ints("scores", n),
        }
    )


def _load_transfer(state: KqpState, e: Fields) -> Record:
    n = state.num_players
    return _record(
        {
            "from": e.seat("from", n),
            "to": e.seat("to", n),
            "cards": [TEXT[c] for c in e.cards("cards", parse_card)],
            "why": e.text("why", ("tax", "give")),
        }
    )


_SIGNATURE: LoadPosition[KqpState] = load_position  # the core's one signature (mypy checks it)
