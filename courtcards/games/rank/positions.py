"""Rank: loading and checking a position (docs/notation.md), out of the compiled rules.

:func:`load_position` is the game's loader with the core's one signature
(:class:`courtcards.core.positions.LoadPosition`), called by ``Game._load_state``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from courtcards.core.climbing import frozen_record as _frozen
from courtcards.core.errors import CourtcardsError, PositionError
from courtcards.core.positions import Fields, LoadPosition, as_int, as_list
from courtcards.core.state import JSON
from courtcards.games.rank import actions as A
from courtcards.games.rank.cards import DECK_COUNTS, DECK_SIZE, NCODES, TEXT, canonical, counts_of, parse_card
from courtcards.games.rank.state import (
    _LEFT,
    _PLAY_TEXTS,
    BEGGAR,
    BENEFIT,
    EXCHANGE,
    GIVE_BACK,
    KING,
    KINGS_HAND,
    KNIGHT,
    OVER,
    PLAY,
    QUEEN,
    RankState,
    _canonical_cards,
)


def load_position(state: RankState, data: Mapping[str, Any], strict: bool) -> None:
    """Fill ``state`` from full-state JSON or an explicit position (missing
    fields take the values of a hand in play; unlisted cards are discarded).
    Every field is read through Fields: a bad one is a PositionError naming it."""
    n = state.num_players
    f = Fields(data)
    if f.has("hand_number"):
        raise PositionError("hand_number", "is called 'round' since format_version 3")
    most = DECK_SIZE * state.decks

    def cards(key: str) -> list[int]:
        got = _canonical_cards(data.get(key, ()))
        if got is None:  # not all canonical text: read card by card, naming a bad one
            got = f.cards(key, parse_card, default=[])
        if len(got) > most:
            raise PositionError(f.at(key), f"lists {len(got)} cards, more than the deck's {most}")
        return got

    raw_hands = data.get("hands")
    fast = [_canonical_cards(h) for h in raw_hands] if isinstance(raw_hands, list) and len(raw_hands) == n else [None]
    hands = [h for h in fast if h is not None]
    if len(hands) != n:  # not all canonical text: read card by card, naming a bad one
        hands = f.card_lists("hands", parse_card, length=n)
    state.hands = [counts_of(h) for h in hands]
    state.sizes = [sum(h) for h in state.hands]
    state.draw = cards("draw_pile")[::-1]  # top card first in the position; popped from the end here
    state.pile = cards("pile")[::-1]  # top card first in the position; in the order put down here
    state.top = canonical(cards("top")) if f.has("top") else tuple(state.pile)
    state.kings_hand = counts_of(cards("kings_hand"))
    state.set_aside = counts_of(cards("set_aside"))
    state.phase = f.text("phase", (KINGS_HAND, BENEFIT, GIVE_BACK, EXCHANGE, PLAY, OVER), default=PLAY)
    state.pile_value = f.integer("pile_value", 0, 13, default=0)
    state.pile_count = f.integer("pile_count", 0, most, default=0)
    owner = f.opt_integer("owner", 0, n - 1)
    state.owner = -1 if owner is None else owner
    if state.pile_count and not (1 <= state.pile_value <= 13 and state.owner >= 0):
        raise PositionError("pile_value", "a pile in play needs a value in 1..13 and an owner seat")
    state.kh_choice = None if data.get("kings_hand_choice") is None else f.text("kings_hand_choice", ("keep", "swap"))
    passed = f.array("passed", n, default=[False] * n)
    for i, x in enumerate(passed):
        if not isinstance(x, bool):
            raise PositionError(f"passed[{i}]", "must be true or false")
    state.passed = list(passed)
    state.turn = f.integer("turn", 0, n - 1, default=_first_to_play(state))
    state.finished = f.seats("finished", n, default=[])
    default_chars = [KING, QUEEN, BEGGAR] + [KNIGHT] * (n - 3)
    chars = f.array("characters", n, default=default_chars)
    for i, c in enumerate(chars):
        if c not in (KING, QUEEN, KNIGHT, BEGGAR):
            raise PositionError(f"characters[{i}]", f"must be king, queen, knight or beggar, not {c!r}")
    state.characters = list(chars)
    for role in (KING, QUEEN, BEGGAR):
        if state.characters.count(role) != 1:
            raise PositionError("characters", f"exactly one {role} is needed")
    state.tokens = f.ints("tokens", n, 0, 10_000, default=[0] * n)
    state.kings = f.ints("times_king", n, 0, 10_000, default=[0] * n)
    state.hand_number = f.integer("round", 1, 100_000, default=1)
    state.hands_log = [
        _frozen(_hand_record(e, n, i + 1, state.tokens)) for i, e in enumerate(f.objs("hands_log", default=[]))
    ]
    if state.hand_number > 1 and not state.hands_log and state.phase != PLAY:
        raise PositionError("hands_log", "a benefit phase needs the previous hand in 'hands_log'")
    state.exchanges = []
    for e in f.objs("exchanges", default=[]):
        moved = tuple(TEXT[c] for c in canonical(e.cards("cards", parse_card)))
        state.exchanges.append(
            _frozen(
                {
                    "from": e.seat("from", n),
                    "to": e.seat("to", n),
                    "cards": moved,
                    "why": e.text("why", ("steal", "tax", "give")),
                }
            )
        )
    owed = f.obj("owed", default={})
    state.owed = {}
    for key in owed.data:
        if not (isinstance(key, str) and key.isdigit() and int(key) < n):
            raise PositionError(owed.at(key), "is not a seat at this table")
        state.owed[int(key)] = owed.integer(key, 1, 2)
    state.round_log = _plays(f, "round_log", n)
    state.last_round = _plays(f, "last_round", n)
    state.winner = f.opt_integer("winner", 0, n - 1)
    if f.has("rng"):
        state.rng.state = f.integer("rng", 0, 2**64 - 1)
    # cards not placed anywhere are in the discard pile
    placed = [0] * NCODES
    for counts in (*state.hands, state.kings_hand, state.set_aside):
        for c in range(NCODES):
            placed[c] += counts[c]
    for c in (*state.draw, *state.pile):
        placed[c] += 1
    if f.has("discard"):
        state.discard = counts_of(cards("discard"))
        for c in range(NCODES):
            placed[c] += state.discard[c]
        if any(placed[c] != DECK_COUNTS[c] * state.decks for c in range(NCODES)):
            raise PositionError("discard", "the cards in the position do not add up to the deck")
    else:
        state.discard = [DECK_COUNTS[c] * state.decks - placed[c] for c in range(NCODES)]
        too_many = [TEXT[c] for c in range(NCODES) if state.discard[c] < 0]
        if too_many:
            raise PositionError("hands", f"more cards than the deck holds: {', '.join(too_many)}")
    if state.phase == PLAY and state.sizes[state.turn] == 0:
        raise PositionError("turn", f"seat {state.turn} is to play but holds no cards")
    if state.phase != OVER:
        holding = [s for s in state.finished if state.sizes[s]]
        if holding:  # RK-10: the finish order lists the players who have gone out, in order
            raise PositionError("finished", f"seat {holding[0]} is listed as out but holds cards")


def _first_to_play(state: RankState) -> int:
    """A position's seat to play when it names none: with a pile in play, the first seat to the owner's
    left that holds cards and has not passed (RK-9); else seat 0."""
    n = state.num_players
    if state.pile_count and 0 <= state.owner < n:
        for s in _LEFT[n][state.owner]:
            if state.sizes[s] and not state.passed[s] and s != state.owner:
                return s
    return 0


def _hand_record(e: Fields, n: int, number: int, tokens: list[int]) -> JSON:
    """One entry of ``hands_log``: a finished hand (RK-10). A position written by
    hand may leave out all but ``finish`` (``tokens`` defaults to the position's)."""
    finish = e.seats("finish", n)
    if len(finish) != n:
        raise PositionError(e.at("finish"), f"must list all {n} seats, not {len(finish)}")
    record: JSON = {"hand": e.integer("hand", 1, 100_000, default=number), "finish": finish}
    for i, role in ((0, "king"), (1, "queen"), (-1, "beggar")):
        seat = e.integer(role, 0, n - 1, default=finish[i])
        if seat != finish[i]:
            raise PositionError(e.at(role), f"must be seat {finish[i]}, as 'finish' says")
        record[role] = seat
    record["tokens"] = e.ints("tokens", n, 0, 10_000, default=list(tokens))
    return record


def _plays(f: Fields, key: str, n: int) -> list[tuple[int, str]]:
    """``round_log`` / ``last_round``: ``[seat, play]`` pairs, the play as its notation or "pass"."""
    out = []
    for i, entry in enumerate(f.array(key, default=[])):
        path = f"{f.at(key)}[{i}]"
        pair = as_list(entry, path, 2)
        seat = as_int(pair[0], f"{path}[0]", 0, n - 1)
        if not isinstance(pair[1], str):
            raise PositionError(f"{path}[1]", "must be a play's text")
        text = _PLAY_TEXTS.get(pair[1])
        if text is None:
            try:
                text = A.parse_action(pair[1]).text
            except CourtcardsError as exc:
                raise PositionError(f"{path}[1]", str(exc)) from None
            if text == pair[1] and len(_PLAY_TEXTS) < 20_000:
                _PLAY_TEXTS[text] = text  # canonical texts seen before read at once
        out.append((seat, text))
    return out


def position_errors(state: RankState) -> list[str]:
    """What makes a loaded position impossible beyond the invariants (State.position_errors)."""
    if state.phase != PLAY or not state.pile_count or not 0 <= state.owner < state.num_players:
        return []
    # RK-9: the turn goes to the left; everyone between the pile's owner and the seat to
    # play has passed or is out of cards
    for s in _LEFT[state.num_players][state.owner]:
        if s == state.turn:
            return []
        if state.sizes[s] and not state.passed[s]:
            return [
                f"seat {state.turn} is to play, but seat {s} (between it and the pile's owner "
                f"{state.owner}) has neither passed nor gone out"
            ]
    return []


_SIGNATURE: LoadPosition[RankState] = load_position  # the core's one signature (mypy checks it)
