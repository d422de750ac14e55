"""A greedy heuristic bot for Royals.

It sees only its seat's view and the legal actions. On its turn it plays its
best Royal when it can; otherwise it goes after the leader (an attack when it
commits several cards and holds enough red ones, else an assassination of the
leader's best Royal with a high red card) and, with nothing useful to do,
attacks with its least useful card rather than throw the whole hand away.
Committing, it scores every legal commitment by how much its cards help the
side it wants (red hurts the defender, black protects it, whoever plays it)
minus what the cards are worth kept in hand. Defending, it pairs to cancel the
most attacks, spreads hits to lose the fewest points and replaces rather than
discards. A tie for the lead is broken by its seeded generator, never by seat
order (a bot that favours a seat makes a seat effect the rules do not have).

What it reads is a :class:`Seen`, made from the view or, where a search or a
trainer holds a (sampled) state, from the seat's hand and the public facts of
that state (``choose_state``: the same move, without building a view).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from courtcards.bots.base import BotFactory
from courtcards.core.rng import Rng
from courtcards.core.state import Action
from courtcards.games.royals.actions import RoyalsAction, parse_action
from courtcards.games.royals.cards import is_attack, is_block, is_face, is_number, parse_card, rank, suit

HELP_ATTACK, HELP_DEFENCE, NEUTRAL = 1, -1, 0


def _codes(texts: Sequence[str]) -> list[int]:
    return [parse_card(t) for t in texts]


def keep_value(card: int, hand: Sequence[int], royal_suits: set[int]) -> float:
    """What a card is worth kept in hand: faces that can become Royals, and
    number cards that can crown or repair one."""
    if is_face(card):
        has_number = any(is_number(c) and suit(c) == suit(card) for c in hand)
        return 2.0 + (1.5 if has_number else 0.0)
    value = 0.3
    if any(is_face(c) and suit(c) == suit(card) for c in hand):
        value += rank(card) / 4
    if suit(card) in royal_suits:
        value += 0.3
    return value


def fight_worth(card: int, goal: int) -> float:
    """How much a committed card serves ``goal`` (red attacks, black blocks, RY-4)."""
    if goal == NEUTRAL or is_face(card):
        return 0.0
    if is_attack(card):
        return goal * rank(card) / 2
    if is_block(card):
        return -goal * rank(card) / 2
    return 0.0


class Seen(NamedTuple):
    """What greedy reads of its seat's view, read from the view or from a (sampled) state alike."""

    seat: int
    phase: str
    hand: list[int]
    royals: list[list[tuple[int, int]]]  # each seat's Royals in the view's order: (face card, value)
    scores: list[int]
    target: int
    fight_kind: str  # "attack" or "assassinate"; "" when no fight is on
    attacker: int
    defender: int
    hits: int
    assigned: list[int]  # the face card each hit placed so far went on


def seen_of_view(view: Mapping[str, Any]) -> Seen:
    fight = view["fight"]
    players = view["players"]
    return Seen(
        seat=view["seat"],
        phase=view["phase"],
        hand=_codes(view["hand"]),
        royals=[[(parse_card(r["face"]), r["value"]) for r in p["royals"]] for p in players],
        scores=[p["score"] for p in players],
        target=view["target"],
        fight_kind="" if fight is None else fight["kind"],
        attacker=-1 if fight is None else fight["attacker"],
        defender=-1 if fight is None else fight["defender"],
        hits=0 if fight is None else fight["hits"],
        assigned=[] if fight is None else _codes(fight["assigned"]),
    )


def seen_of_state(state: Any, seat: int) -> Seen:
    fight = state.fight
    return Seen(
        seat=seat,
        phase=state.phase,
        hand=list(state.hands[seat]),
        royals=[[(face, rank(number)) for face, number in held] for held in state.royals],
        scores=[state.points(s) for s in range(state.num_players)],
        target=state.target,
        fight_kind="" if fight is None else fight.kind,
        attacker=-1 if fight is None else fight.attacker,
        defender=-1 if fight is None else fight.defender,
        hits=0 if fight is None else fight.hits,
        assigned=[] if fight is None else list(fight.assigned),
    )


class GreedyRoyalsBot:
    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self._decide(seen_of_view(view), legal)

    def choose_state(self, state: Any, seat: int, legal: Sequence[Action]) -> Action:
        """The move ``choose`` makes from ``seat``'s view, read from a (sampled) state: the seat's hand
        and the public facts, nothing another seat holds."""
        return self._decide(seen_of_state(state, seat), legal)

    def _decide(self, t: Seen, legal: Sequence[Action]) -> Action:
        acts = {a.text: a for a in legal}
        parsed = [a if isinstance(a, RoyalsAction) else parse_action(a.text) for a in legal]
        phase = t.phase
        if phase == "action":
            choice = self._turn(t, parsed)
        elif phase == "commit":
            choice = self._commit(t, parsed)
        elif phase == "pair":
            choice = self._pair(parsed)
        elif phase == "hits":
            choice = self._hits(t, parsed)
        else:
            choice = self._loss(parsed)
        return acts[choice.text]

    # -- the turn ------------------------------------------------------------------------
    def _turn(self, t: Seen, legal: list[RoyalsAction]) -> RoyalsAction:
        me = t.seat
        hand = t.hand
        royals = [a for a in legal if a.kind == "royal"]
        others = [s for s in range(len(t.royals)) if s != me and t.royals[s]]
        top = max((t.scores[s] for s in others), default=None)
        tied = [s for s in others if t.scores[s] == top]
        # the leader; a tie is broken by the bot's seeded generator, never by seat order (a seat bias)
        leader = (tied[self.rng.below(len(tied))] if len(tied) > 1 else tied[0]) if tied else None
        threat = leader is not None and t.scores[leader] >= t.target  # wins at its next turn
        if royals and not threat:  # the best Royal: most points, then keep the higher face cards' partners
            return max(royals, key=lambda a: (rank(a.cards[1]), -a.cards[0]))
        if leader is not None:
            reds = sorted((rank(c) for c in hand if is_attack(c)), reverse=True)
            k = max(1, len(t.royals[me]))
            attack = next(a for a in legal if a.kind == "attack" and a.seat == leader)
            if k >= 2 and len(reds) >= min(k, 2) and sum(reds[:k]) >= 10:
                return attack
            if reds and reds[0] >= 6:
                target = max(t.royals[leader], key=lambda r: r[1])[0]
                # the leader's Royal: another seat may hold a Royal of the same face (each has its own deck)
                return next(a for a in legal if a.kind == "assassinate" and a.seat == leader and a.cards == (target,))
            if k == 1 and any(is_face(c) for c in hand):
                return attack  # costs one card, where discarding costs the hand
            if threat:
                return attack
        if royals:
            return max(royals, key=lambda a: (rank(a.cards[1]), -a.cards[0]))
        return next(a for a in legal if a.kind == "discard_hand")

    # -- commitments -------------------------------------------------------------------------
    @staticmethod
    def _goal(t: Seen) -> int:
        me = t.seat
        if me == t.attacker:
            return HELP_ATTACK
        if me == t.defender:
            return HELP_DEFENCE
        return HELP_ATTACK if t.scores[t.defender] >= t.scores[me] else NEUTRAL

    def _commit(self, t: Seen, legal: list[RoyalsAction]) -> RoyalsAction:
        hand = t.hand
        royal_suits = {suit(face) for face, _ in t.royals[t.seat]}
        goal = self._goal(t)
        worth = {c: fight_worth(c, goal) - keep_value(c, hand, royal_suits) * 0.5 for c in hand}
        if t.fight_kind == "assassinate" and goal != NEUTRAL:
            worth = {c: fight_worth(c, goal) * 2 - keep_value(c, hand, royal_suits) * 0.3 for c in hand}
        return max(legal, key=lambda a: (sum(worth[c] for c in a.cards), -len(a.cards)))

    # -- defending -------------------------------------------------------------------------------
    @staticmethod
    def _pair(legal: list[RoyalsAction]) -> RoyalsAction:
        """The smallest attack that can be cancelled, with the smallest block that cancels it:
        repeated, this cancels the most attacks."""
        blocks = [a for a in legal if a.kind == "block"]
        if not blocks:
            return legal[0]
        return min(blocks, key=lambda a: a.values)

    def _hits(self, t: Seen, legal: list[RoyalsAction]) -> RoyalsAction:
        royals = t.royals[t.seat]
        assigned = t.assigned
        left = t.hits - len(assigned)
        allowed = [f for f, _ in royals if not assigned or f >= assigned[-1]]
        plan = best_spread(royals, assigned, left, allowed, t.hand)
        by_face = {a.cards[0]: a for a in legal}
        for face in sorted(plan):
            if plan[face] and face in by_face:
                return by_face[face]
        return legal[0]

    @staticmethod
    def _loss(legal: list[RoyalsAction]) -> RoyalsAction:
        replaces = [a for a in legal if a.kind == "replace"]
        if replaces:
            return max(replaces, key=lambda a: rank(a.cards[1]))
        return legal[0]


def spread_loss(royals: Sequence[tuple[int, int]], hits: dict[int, int], hand: Sequence[int]) -> tuple[int, int]:
    """(points lost, Royals lost) if each hit Royal takes the best replacement in hand."""
    used: set[int] = set()
    lost = gone = 0
    for face, value in royals:
        h = hits.get(face, 0)
        if not h:
            continue
        options = [c for c in hand if c not in used and is_number(c) and suit(c) == suit(face) and rank(c) <= value - h]
        if options:
            best = max(options, key=rank)
            used.add(best)
            lost += value - rank(best)
        else:
            lost += value
            gone += 1
    return lost, gone


def best_spread(
    royals: Sequence[tuple[int, int]], assigned: Sequence[int], left: int, allowed: Sequence[int], hand: Sequence[int]
) -> dict[int, int]:
    """The extra hits per Royal (among ``allowed``) that lose the fewest points."""
    base: dict[int, int] = {}
    for f in assigned:
        base[f] = base.get(f, 0) + 1
    if not allowed or left <= 0:
        return {}
    best: tuple[tuple[int, int], dict[int, int]] | None = None
    for count, combo in enumerate(combinations_with_replacement(allowed, left)):
        if count >= 5000:  # enough spreads to find a good one
            break
        extra: dict[int, int] = {}
        for f in combo:
            extra[f] = extra.get(f, 0) + 1
        total = {f: base.get(f, 0) + extra.get(f, 0) for f in set(base) | set(extra)}
        score = spread_loss(royals, total, hand)
        if best is None or score < best[0]:
            best = (score, extra)
    assert best is not None
    return best[1]


BOTS: Mapping[str, BotFactory] = {"greedy": GreedyRoyalsBot}  # the bot kinds of Royals (random is every game's)
