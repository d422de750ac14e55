"""A greedy heuristic bot for King Queens & Paupers.

It sees only its seat's view and the legal actions. Its judgement rests on
``badness``: roughly how many piles the hand still needs to win or shed, where
low values cost more (they rarely win a pile) and Queens and the King make a
hand better. Taxes: it gives back the cards whose loss lowers badness most
(low loners first). Leading: it sheds its lowest whole set. Following (also in
consecutive mode, where the legal list is already narrowed): it plays the
cheapest set that does not break a bigger group, and keeps Queens and the King
to seize a pile near the end of its hand or to stop an opponent about to go out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from courtcards.bots.base import BotFactory, pick_card
from courtcards.bots.lite import LiteBot
from courtcards.core.rng import Rng
from courtcards.core.state import Action
from courtcards.games.kqp.actions import PASS, KqpAction, parse_action
from courtcards.games.kqp.cards import GOLD, KING, NCODES, PLAIN, QUEEN, counts_of, parse_card
from courtcards.games.kqp.state import hand_levels, plays_for
from courtcards.games.kqp.worlds import hand_bounds


@dataclass(frozen=True)
class Weights:
    set_base: float = 1.4  # cost of holding a set of value v: set_base - set_slope * (v - 3)
    set_slope: float = 0.08
    card: float = 0.04  # each card still to shed
    queen: float = 0.7
    king: float = 1.0
    break_max: int = 9  # break a bigger group to follow only with values up to this
    royal_groups: int = 2  # spend a Queen / the King when at most this many plain sets remain
    danger_cards: int = 2  # ... or when the pile's owner holds at most this many cards


def hand_counts(texts: Sequence[str]) -> list[int]:
    return counts_of([parse_card(t) for t in texts])


def badness(h: Sequence[int], w: Weights = Weights()) -> float:
    b = 0.0
    for v in PLAIN:
        c = h[v]
        if c:
            b += w.set_base - w.set_slope * (v - 3) + w.card * c
    return b - w.queen * h[QUEEN] - w.king * h[KING]


class Table(NamedTuple):
    """What the greedy bot reads: the seat's hand (counts) and public facts."""

    hand: list[int]
    pile_count: int
    pile_owner: int | None
    pile_value: int  # the top value's code (0: empty pile)
    owner_cards: int  # cards left to the pile's owner (99: no owner)
    king_seen: bool  # the King is in the discard or the pile


def table_of_view(view: dict[str, Any]) -> Table:
    pile = view["pile"]
    owner = pile["owner"]
    top = pile["value"]
    return Table(
        hand_counts(view.get("hand", [])),
        int(pile["count"]),
        owner,
        parse_card(top) if top is not None else 0,
        view["players"][owner]["hand_size"] if owner is not None else 99,
        "K" in view["discard"] or "K" in pile["cards"],
    )


def table_of_state(state: Any, seat: int) -> Table:
    """The same table read from a KQP state (a sampled world): ``seat``'s hand and the public facts only."""
    owner = state.owner if state.owner >= 0 else None
    return Table(
        list(state.hands[seat]),
        state.pile_count,
        owner,
        state.pile_value,
        state.sizes[owner] if owner is not None else 99,
        KING in state.discard or KING in state.pile,
    )


class GreedyKqpBot:
    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        self.w = weights or Weights()

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self._decide(table_of_view(view), legal)

    def choose_state(self, state: Any, seat: int, legal: Sequence[Action]) -> Action:
        """The move ``choose`` makes from ``seat``'s view, read from a (sampled) state: its hand and public facts."""
        return self._decide(table_of_state(state, seat), legal)

    def _decide(self, t: Table, legal: Sequence[Action]) -> Action:
        acts = [a for a in legal if isinstance(a, KqpAction)]
        h = t.hand
        if acts and acts[0].kind == "give":
            return min(acts, key=lambda a: (round(self._after(h, a), 6), sum(a.cards)))
        plays = [a for a in acts if a.kind == "play"]
        if not plays:
            return legal[0]
        if t.pile_count == 0:
            return self._lead(t, h, plays)
        return self._follow(t, h, plays, legal)

    def _after(self, h: Sequence[int], act: KqpAction) -> float:
        left = list(h)
        for c in act.cards:
            left[c] -= 1
        return badness(left, self.w)

    @staticmethod
    def _king_gone(t: Table, h: Sequence[int]) -> bool:
        return bool(h[KING]) or t.king_seen

    def _lead(self, t: Table, h: Sequence[int], plays: list[KqpAction]) -> Action:
        groups = sum(1 for v in PLAIN if h[v])
        if groups <= 1:  # a sure winner first, then the last set
            for a in plays:
                if a.value == KING or (a.value == QUEEN and self._king_gone(t, h) and a.count == h[QUEEN]):
                    return a
        full = [a for a in plays if a.value in PLAIN and a.count == h[a.value]]
        if full:
            if groups == 2:  # two sets left: the higher one is likelier to win the pile and keep the lead
                return max(full, key=lambda a: a.value)
            return min(full, key=lambda a: a.value)
        return max(plays, key=lambda a: a.count)  # only royals left

    def _follow(self, t: Table, h: Sequence[int], plays: list[KqpAction], legal: Sequence[Action]) -> Action:
        w = self.w
        plain = [a for a in plays if a.value in PLAIN]
        whole = [a for a in plain if a.count == h[a.value]]
        if whole:
            return min(whole, key=lambda a: a.value)
        broken = [a for a in plain if a.value <= w.break_max]
        if broken:
            return min(broken, key=lambda a: (h[a.value] - a.count, a.value))
        royal = [a for a in plays if a.value in (QUEEN, KING)]
        if royal:
            groups = sum(1 for v in PLAIN if h[v])
            high_top = t.pile_value != 0 and t.pile_value >= GOLD - 2
            if (
                groups <= w.royal_groups
                or t.owner_cards <= w.danger_cards
                or (high_top and groups <= w.royal_groups + 2)
            ):
                queens = [a for a in royal if a.value == QUEEN]
                return queens[0] if queens else royal[0]
        plain_any = [a for a in plain if h[a.value] - a.count >= 2]
        if plain_any and sum(1 for v in PLAIN if h[v]) <= 3:
            return min(plain_any, key=lambda a: a.value)
        return PASS if PASS in legal else legal[0]


class Point(NamedTuple):
    """Another seat's move seen this round, with the public position it was made in."""

    seat: int
    move: str
    pile_count: int  # the pile's count before the move (0: leading)
    pile_value: int  # the pile's top value (a card code; 0: empty)
    consecutive: bool
    owner: int | None
    owner_cards: int  # cards the pile's owner held then (99: no owner)
    king_seen: bool
    played: tuple[int, ...]  # the seat's cards played this round by then (counts per code)


class PlayRecord:
    """The other seats' moves of the round in play one seat saw, pile by pile, from its successive views,
    and the bounds the round's taxes put on their hands (``hand_bounds``): the evidence for ``fitter``.

    Every play of a pile is seen by a seat that still holds cards: a pile ends only when every other
    holder has passed after its last play, so the seat sees that play at its own pass (or its own play
    was the last). Only a pile's last passes after the seat's view can be missed."""

    def __init__(self) -> None:
        self.round = -1
        self.version = -1
        self.piles: dict[int, list[Point]] = {}  # by the discard pile's size when it began
        self.bounds: dict[int, tuple[list[int], list[int]]] = {}

    def update(self, view: dict[str, Any]) -> PlayRecord:
        version = int(view.get("version") or 0)
        if view.get("round") != self.round or version < self.version:  # a new round, or a new game
            self.round, self.piles, self.bounds = int(view.get("round") or 0), {}, {}
        self.version = version
        if view.get("phase") != "play" or view.get("seat") is None:
            return self
        self.bounds = hand_bounds(view)
        self.piles[len(view["discard"])] = pile_points(view)
        return self

    def chose(self, view: dict[str, Any], text: str) -> None:
        """Nothing to keep: the seat's own moves are not evidence, and its next view shows them."""

    @property
    def points(self) -> list[Point]:
        return [p for pile in self.piles.values() for p in pile]


def pile_points(view: dict[str, Any]) -> list[Point]:
    """The other seats' moves on the pile in play, each with its position, read from a seat's view."""
    me = int(view["seat"])
    players = view["players"]
    played = [hand_counts(p["played"]) for p in players]
    sizes = [int(p["hand_size"]) for p in players]
    moves = [(int(s), parse_action(str(t))) for s, t in view["pile"]["plays"]]
    later = [[0] * NCODES for _ in players]  # cards each seat played from a move on, this pile
    for s, act in moves:
        for c in act.cards:
            later[s][c] += 1
    count = value = first = plays = 0
    consecutive = False
    owner: int | None = None
    king = "K" in view["discard"]
    points: list[Point] = []
    for s, act in moves:
        if s != me:
            cards = 99 if owner is None else sizes[owner] + sum(later[owner])
            then = tuple(p - q for p, q in zip(played[s], later[s], strict=True))
            points.append(Point(s, act.text, count, value, consecutive, owner, cards, king, then))
        for c in act.cards:
            later[s][c] -= 1
        if act.kind != "play":
            continue
        plays += 1
        if plays == 1:
            count, first = act.count, act.value
        elif plays == 2 and act.value == first + 1:
            consecutive = True  # KQ-7
        value, owner = act.value, s
        king = king or KING in act.cards
    return points


class Evidence:
    """The moves seen, per other seat, to test a guessed hand against: would ``model`` (greedy) holding
    it have made them? A seat's hand at a move is its hand now plus the cards it played since (no card
    comes in during play), so each seat's hand is tested alone."""

    def __init__(self, record: PlayRecord, model: GreedyKqpBot) -> None:
        self.model = model
        self.bounds = record.bounds
        self.points: dict[int, list[Point]] = {}
        for p in record.points:
            self.points.setdefault(p.seat, []).append(p)

    def misses(self, seat: int, hand: Sequence[int], played: Sequence[int], stop: int = 1 << 30) -> int:
        """Moves of ``seat`` seen that greedy holding ``hand`` now (and ``played`` this round) would not
        have made; counting stops past ``stop``."""
        miss = 0
        for p in self.points.get(seat, ()):
            then = [h + a - b for h, a, b in zip(hand, played, p.played, strict=True)]
            legal = plays_for(then, p.pile_count, p.pile_value, p.consecutive)
            table = Table(then, p.pile_count, p.owner, p.pile_value, p.owner_cards, p.king_seen)
            if self.model._decide(table, legal).text != p.move:
                miss += 1
                if miss > stop:
                    break
        return miss


def fitter(world: Any, seat: int, model: Any, record: Any = None) -> Callable[[Any, Rng, int], tuple[int, int]] | None:
    """``refit`` with the evidence ``seat`` recorded (a ``PlayRecord``), or None when there is none."""
    if world.phase != "play" or not isinstance(record, PlayRecord) or not isinstance(model, GreedyKqpBot):
        return None
    evidence = Evidence(record, model)
    if not evidence.points:
        return None
    return lambda w, rng, steps: refit(w, seat, evidence, rng, steps)


def refit(world: Any, seat: int, evidence: Evidence, rng: Rng, steps: int) -> tuple[int, int]:
    """Swap a card of a hand that misses some of its moves seen with a card of another hidden hand,
    keeping the swap when the misses do not grow (6% of the time when they grow by one) and the hands
    stay within what the taxes showed; at most ``steps`` swaps. Returns the misses before and after."""
    hands, played, bounds = world.hands, world.played, evidence.bounds
    others = [s for s in range(world.num_players) if s != seat and world.sizes[s]]
    miss = {s: evidence.misses(s, hands[s], played[s]) for s in others if s in evidence.points}
    before = now = sum(miss.values())
    changed: set[int] = set()
    for _ in range(steps):
        bad = [s for s in miss if miss[s]]
        if not bad or len(others) < 2:
            break
        a = bad[rng.below(len(bad))]
        b = others[rng.below(len(others) - 1)]
        if b == a:
            b = others[-1]
        ca, cb = pick_card(hands[a], rng), pick_card(hands[b], rng)
        if ca == cb or not (_fits(bounds, a, hands[a], ca, cb) and _fits(bounds, b, hands[b], cb, ca)):
            continue
        _swap(hands, a, b, ca, cb)
        old = miss[a] + miss.get(b, 0)
        na = evidence.misses(a, hands[a], played[a], old + 1)
        nb = evidence.misses(b, hands[b], played[b], old + 1 - na) if b in miss else 0
        delta = na + nb - old
        if delta > 1 or (delta == 1 and rng.below(100) >= 6):
            _swap(hands, a, b, cb, ca)
            continue
        miss[a] = na
        if b in miss:
            miss[b] = nb
        now += delta
        changed.update((a, b))
    for s in changed:
        world.levels[s] = hand_levels(hands[s])
    return before, now


def _fits(bounds: dict[int, tuple[list[int], list[int]]], seat: int, h: Sequence[int], out: int, into: int) -> bool:
    """May ``seat``'s hand give up a card ``out`` and take a card ``into``, within the taxes' bounds?"""
    if seat not in bounds:
        return True
    lo, hi = bounds[seat]
    return h[out] - 1 >= lo[out] and h[into] + 1 <= hi[into]


def _swap(hands: list[list[int]], a: int, b: int, ca: int, cb: int) -> None:
    hands[a][ca] -= 1
    hands[a][cb] += 1
    hands[b][cb] -= 1
    hands[b][ca] += 1


BOTS: Mapping[str, BotFactory] = {"greedy": GreedyKqpBot}  # the bot kinds of KQP (random is every game's)


class LiteKqpBot(LiteBot):
    """Greedy-lite for KQP: keeps Queens and the King for the end (a playout policy of the search, not a
    player)."""

    plain = PLAIN
