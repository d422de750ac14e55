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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from courtcards.bots.base import register_bot
from courtcards.core.state import Action
from courtcards.games.kqp.actions import PASS, KqpAction
from courtcards.games.kqp.cards import GOLD, KING, PLAIN, QUEEN, counts_of, parse_card


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
        hand_counts(view.get("hand", [])), int(pile["count"]), owner, parse_card(top) if top is not None else 0,
        view["players"][owner]["hand_size"] if owner is not None else 99,
        "K" in view["discard"] or "K" in pile["cards"],
    )


def table_of_state(state: Any, seat: int) -> Table:
    """The same table read from a KQP state (a sampled world): ``seat``'s hand and the public facts only."""
    owner = state.owner if state.owner >= 0 else None
    return Table(
        list(state.hands[seat]), state.pile_count, owner, state.pile_value,
        state.sizes[owner] if owner is not None else 99, KING in state.discard or KING in state.pile,
    )


class GreedyKqpBot:
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
            if groups <= w.royal_groups or t.owner_cards <= w.danger_cards or (
                high_top and groups <= w.royal_groups + 2
            ):
                queens = [a for a in royal if a.value == QUEEN]
                return queens[0] if queens else royal[0]
        plain_any = [a for a in plain if h[a.value] - a.count >= 2]
        if plain_any and sum(1 for v in PLAIN if h[v]) <= 3:
            return min(plain_any, key=lambda a: a.value)
        return PASS if PASS in legal else legal[0]


register_bot("kqp", "greedy", GreedyKqpBot)
