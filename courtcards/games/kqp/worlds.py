"""Worlds sampled from one seat's view (docs/engine/kqp.md, "World sampling").

The cards the seat cannot see are the deck less its hand, the pile and the
discard. They are dealt to the other seats, each keeping its number of cards,
uniformly over the physical deals that fit what the seat knows from the
taxes of this round (KQ-4):

* the King (Queen) saw what Pauper-2 (Pauper-1) paid: the payer's highest
  cards of 3..Gold. So the payer kept no such card above the lowest one paid
  (none at all if it paid fewer than owed), apart from the cards it got back.
* a seat still holds the cards it was given back, unless it has played cards
  of that value since (each seat's plays this round are public).
* Pauper-2 (Pauper-1) still sees in the King's (Queen's) hand the cards it paid,
  unless they came back or were played.

These are bounds per seat and value; the deal is drawn exactly (counts for the
bounded seat by dynamic programming, then a shuffle of the rest). A secret
give-back another seat has committed is redrawn uniformly among its legal
give-backs in the sampled world; the seat's own is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from typing import TYPE_CHECKING, Any

from courtcards.core.errors import CourtcardsError, ViewError
from courtcards.core.rng import Rng
from courtcards.games.kqp.cards import NCODES, PLAIN, TEXT, counts_of, deck_counts, parse_card
from courtcards.games.kqp.state import OVER, PLAY, TAX, KqpState, _record, hand_levels, tax_cards

if TYPE_CHECKING:
    from courtcards.games.kqp.game import KqpGame

Box = tuple[list[int], list[int]]  # lowest and highest count per value
_MAX_TRIES = 10_000


def _cards(items: Any) -> list[int]:
    if not isinstance(items, list):
        raise ViewError(f"malformed King Queens & Paupers view: {items!r} is not a list of cards")
    return [parse_card(str(t)) for t in items]


def sample_world(game: KqpGame, view: Mapping[str, Any], rng: Rng) -> KqpState:
    n: int = view["num_players"]
    me: int = view["seat"]
    state = KqpState(game, n, game.resolve_options(n, view["options"]), 0)
    positions = [int(s) for s in view["positions"]]
    if sorted(positions) != list(range(n)):
        raise ViewError(f"malformed King Queens & Paupers view: positions {positions!r}")
    state._set_positions(positions)
    phase = view["phase"]
    if phase not in (TAX, PLAY, OVER):
        raise ViewError(f"malformed King Queens & Paupers view: phase {phase!r}")
    state.phase = phase
    players = view["players"]
    if len(players) != n or [p["seat"] for p in players] != list(range(n)):
        raise ViewError("malformed King Queens & Paupers view: 'players' must list every seat in order")
    sizes, played, own, pool = _hidden(view)
    pile_view = view["pile"]
    pile = _cards(pile_view["cards"])[::-1]  # the view lists it top card first
    discard_cards = _cards(view["discard"])
    others = [s for s in range(n) if s != me]
    taxes = [dict(e) for e in view["taxes"]]
    hands = _deal(pool, sizes, others, _boxes(taxes, me, positions, played, pool), rng)
    hands[me] = own
    state.hands = [hands[s] for s in range(n)]
    state.sizes = sizes
    state.levels = [hand_levels(h) for h in state.hands]
    state.played = played
    _fill_taxes(taxes, state.hands, played)
    state.taxes = [_record(e) for e in taxes]

    state.pile = pile
    top = tuple(sorted(_cards(pile_view["top"])))
    state.top = top
    state.pile_value = top[0] if top else 0
    state.pile_count = int(pile_view["count"])
    owner = pile_view["owner"]
    state.owner = -1 if owner is None else int(owner)
    log = [(int(s), str(t)) for s, t in pile_view["plays"]]
    state.pile_log = log
    runs, prev = 0, -1  # each play tops the last with a higher value: the runs of one value are the plays
    for c in pile:
        if c != prev:
            runs += 1
            prev = c
    state.plays = runs
    state.first_value = pile[0] if pile else 0
    state.consecutive = bool(pile_view["consecutive"])
    state.passes = [int(s) for s in pile_view["passes"]]
    state.discard = tuple(discard_cards[::-1])
    turn = view["turn"]
    state.turn = positions[-1] if turn is None else int(turn)
    state.totals = [int(p["score"]) for p in players]
    state.round = int(view["round"])
    state.rounds_log = [_record(r) for r in view["rounds_log"]]
    result = view["result"]
    state.winner = None if result is None else result["winner"]
    state.finished = [int(s) for s in view["finished"]] if phase != OVER else list(state.rounds_log[-1]["finish"])
    state.owed = {int(k): int(v) for k, v in view["owed"].items()}
    state.version = int(view["version"])
    state.seed = rng.next64()
    state.rng = Rng(rng.next64())

    pending = view["pending"]
    for s in pending["committed"]:
        s = int(s)
        if s == me:
            state.pending[s] = game.parse_action(pending["mine"])
        else:
            gives = state._gives(s)
            state.pending[s] = gives[rng.below(len(gives))]
    return state


def _hidden(view: Mapping[str, Any]) -> tuple[list[int], list[list[int]], list[int], list[int]]:
    """Hand sizes, each seat's plays this round (counts), the seat's own hand and the cards it cannot see
    (counts), from its view."""
    n: int = view["num_players"]
    me: int = view["seat"]
    players = view["players"]
    sizes = [int(p["hand_size"]) for p in players]
    played = [counts_of(_cards(p["played"])) for p in players]
    own = counts_of(_cards(view["hand"]))
    if sum(own) != sizes[me]:
        raise ViewError(f"malformed King Queens & Paupers view: seat {me} holds {sum(own)} cards, not {sizes[me]}")
    seen = counts_of(_cards(view["pile"]["cards"]) + _cards(view["discard"]))
    pool = list(deck_counts(n))
    for c in range(NCODES):
        pool[c] -= own[c] + seen[c]
    if min(pool) < 0 or sum(pool) != sum(sizes[s] for s in range(n) if s != me):
        raise ViewError("malformed King Queens & Paupers view: its cards do not add up to the deck (KQ-1)")
    return sizes, played, own, pool


def hand_bounds(view: Mapping[str, Any]) -> dict[int, tuple[list[int], list[int]]]:
    """Per other seat whose hand the taxes of this round bound (KQ-4), the lowest and highest count of
    each card code it may hold, as the view's seat knows them: every world ``sample_world`` draws keeps
    to them, and so must a search that deals the hidden cards otherwise. Seats not listed are free.
    A view that is not a seat's KQP view, or is malformed, raises ``ViewError``."""
    from courtcards.core.game import get_game

    view = get_game("kqp").check_view(view)
    try:
        _, played, _, pool = _hidden(view)
        positions = [int(s) for s in view["positions"]]
        if sorted(positions) != list(range(int(view["num_players"]))):
            raise ViewError(f"malformed King Queens & Paupers view: positions {positions!r}")
        return _boxes([dict(e) for e in view["taxes"]], int(view["seat"]), positions, played, pool)
    except ViewError:
        raise
    except (CourtcardsError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ViewError(f"malformed King Queens & Paupers view: {type(exc).__name__}: {exc}") from None


def _boxes(
    taxes: list[dict[str, Any]], me: int, positions: list[int], played: list[list[int]], pool: list[int]
) -> dict[int, Box]:
    """Bounds per seat and value on the hidden hands, from the taxes ``me`` saw."""
    boxes: dict[int, Box] = {}

    def box(seat: int) -> Box:
        if seat not in boxes:
            boxes[seat] = ([0] * NCODES, list(pool))
        return boxes[seat]

    gives = {(e["from"], e["to"]): counts_of(_cards(e["cards"])) for e in taxes if e["why"] == "give" and "cards" in e}
    for e in taxes:
        if e["why"] != "tax" or "cards" not in e:
            continue
        payer, taker = int(e["from"]), int(e["to"])
        paid = _cards(e["cards"])
        back = gives.get((taker, payer), [0] * NCODES)
        if taker == me:  # the payer kept nothing above what it paid, apart from what came back
            lo, hi = box(payer)
            owed = 2 if taker == positions[0] else 1
            top = min(paid) if len(paid) == owed else 0
            for v in range(NCODES):
                lo[v] = max(lo[v], back[v] - played[payer][v])
                if v in PLAIN and v > top:
                    hi[v] = min(hi[v], lo[v])
        elif payer == me:  # what it paid is still with the taker unless given back or played
            lo, _ = box(taker)
            paid_counts = counts_of(paid)
            for v in range(NCODES):
                lo[v] = max(lo[v], paid_counts[v] - back[v] - played[taker][v])
    return boxes


def _deal(pool: list[int], sizes: list[int], seats: list[int], boxes: dict[int, Box], rng: Rng) -> dict[int, list[int]]:
    """Hands for ``seats``, uniform over the physical deals of ``pool`` within the boxes."""
    for _ in range(_MAX_TRIES):
        left = list(pool)
        hands: dict[int, list[int]] = {}
        for i, (seat, (lo, hi)) in enumerate(boxes.items()):
            ways, hand = _draw_box(left, sizes[seat], lo, hi, rng)
            if hand is None:
                if i == 0:
                    raise ViewError(
                        f"no deal fits the view: seat {seat}'s {sizes[seat]} cards cannot meet "
                        "what the taxes showed (KQ-4)"
                    )
                break
            # a later box is met with probability ways / all: accept so (rejection keeps the deal uniform)
            if i and _below(rng, comb(sum(left), sizes[seat])) >= ways:
                break
            hands[seat] = hand
            for v in range(NCODES):
                left[v] -= hand[v]
        else:
            rest = [c for c in range(NCODES) for _ in range(left[c])]
            rng.shuffle(rest)
            at = 0
            for seat in seats:
                if seat not in hands:
                    hands[seat] = counts_of(rest[at : at + sizes[seat]])
                    at += sizes[seat]
            return hands
    raise ViewError("no deal fits the view (KQ-4)")


def _draw_box(left: list[int], size: int, lo: list[int], hi: list[int], rng: Rng) -> tuple[int, list[int] | None]:
    """``size`` cards from ``left`` with lo <= count <= hi per value, drawn with
    probability proportional to the physical ways (a product of binomials); and
    the number of such ways. Values without bounds are lumped together."""
    bounded = [v for v in range(NCODES) if lo[v] > 0 or hi[v] < left[v]]
    free = [v for v in range(NCODES) if v not in bounded and left[v]]
    nfree = sum(left[v] for v in free)
    if any(lo[v] > min(hi[v], left[v]) for v in bounded):
        return 0, None
    # ways[i][r]: physical ways to take r cards from bounded[i:] and the free cards
    m = len(bounded)
    ways = [[0] * (size + 1) for _ in range(m + 1)]
    ways[m] = [comb(nfree, r) for r in range(size + 1)]
    for i in range(m - 1, -1, -1):
        v = bounded[i]
        a, b = lo[v], min(hi[v], left[v])
        nxt, row = ways[i + 1], ways[i]
        for r in range(a, size + 1):
            row[r] = sum(comb(left[v], h) * nxt[r - h] for h in range(a, min(b, r) + 1))
    total = ways[0][size]
    if total == 0:
        return 0, None
    hand = [0] * NCODES
    r = size
    for i, v in enumerate(bounded):
        x = _below(rng, ways[i][r])
        h = lo[v]
        while True:
            w = comb(left[v], h) * ways[i + 1][r - h]
            if x < w:
                break
            x -= w
            h += 1
        hand[v] = h
        r -= h
    cards = [c for c in free for _ in range(left[c])]
    for j in range(r):  # r of the free cards, uniformly (a partial shuffle)
        k = j + rng.below(len(cards) - j)
        cards[j], cards[k] = cards[k], cards[j]
        hand[cards[j]] += 1
    return total, hand


def _below(rng: Rng, n: int) -> int:
    """A uniform integer in [0, n) for any size of n."""
    bits = n.bit_length()
    if bits <= 64:
        return rng.below(n)
    words = (bits + 63) // 64
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next64()
        x >>= words * 64 - bits
        if x < n:
            return x


def _fill_taxes(taxes: list[dict[str, Any]], hands: list[list[int]], played: list[list[int]]) -> None:
    """Cards for the tax entries the seat did not see: plausible ones from the
    sampled hands (a give-back from the receiver's highest cards of 3..Gold,
    a tax from the taker's highest), the right number of each."""
    back: dict[tuple[int, int], list[int]] = {}
    for e in taxes:
        if e["why"] == "give" and "cards" not in e:
            receiver = int(e["to"])
            held = [hands[receiver][v] + played[receiver][v] for v in range(NCODES)]
            cards = _highest(held, int(e["count"]))
            e["cards"] = [TEXT[c] for c in cards]
            back[(int(e["from"]), receiver)] = cards
    for e in taxes:
        if e["why"] == "tax" and "cards" not in e:
            taker = int(e["to"])
            held = [hands[taker][v] + played[taker][v] for v in range(NCODES)]
            for c in back.get((taker, int(e["from"])), []):
                held[c] += 1
            e["cards"] = [TEXT[c] for c in _highest(held, int(e["count"]))]
    for e in taxes:
        e.pop("count", None)


def _highest(held: list[int], k: int) -> list[int]:
    """The ``k`` highest cards of 3..Gold in ``held``, lowest first (3s if it holds too few)."""
    out = tax_cards(held, k)
    return [PLAIN[0]] * (k - len(out)) + out
