"""Rank Royale bots: ``greedy`` and ``mixed`` (``random`` is shared by every game).

Both read only the seat's view: their hand, the opponent's hand size and
discard pile (cards played and discarded since its last reshuffle), the
discard table and the public record of rounds (``rounds_log``).

- ``greedy`` predicts the opponent's tier from its past plays (smoothed, and
  weighted by the chance it still holds that tier) and plays the card with the
  best expected payoff against that prediction.
- ``mixed`` plays an equilibrium of the one-round zero-sum game between the
  tiers it holds and the tiers the opponent can hold, sampling its tier with
  its own seeded generator; it plays the highest card of the chosen tier.

Payoffs count cards: a tier win is worth the cards the loser discards (or
WIN_VALUE if that ends the game), a same-tier rank win one card drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from math import comb, exp, log
from typing import Any

from courtcards.bots.base import BotFactory
from courtcards.core.rng import Rng
from courtcards.core.state import Action
from courtcards.games.royale.actions import RoyaleAction, play
from courtcards.games.royale.cards import DECK, TEXT, beats, parse_card, rank, tier
from courtcards.games.royale.state import HAND_SIZE

WIN_VALUE = 12.0
RANK_WIN_VALUE = 1.0
TIERS = (0, 1, 2)


class _Info:
    """What a bot reads from its view for one decision."""

    def __init__(self, view: dict[str, Any]) -> None:
        me = int(view["seat"])
        opp = 1 - me
        self.hand = sorted(parse_card(t) for t in view["hand"])
        table = view["discard_table"]
        self.table = (int(table["low"]), int(table["middle"]), int(table["high"]))
        players = view["players"]
        self.my_after = len(self.hand) - 1
        self.opp_size = int(players[opp]["hand_size"])
        self.opp_after = self.opp_size - 1
        seen = {parse_card(t) for t in players[opp]["discard"]}
        self.unseen = [c for c in DECK if c not in seen]  # the opponent's hand and deck
        self.opp_tiers = [0, 0, 0]  # how often the opponent played each tier
        for entry in view["rounds_log"]:
            if entry.get("tiers"):
                self.opp_tiers[("low", "middle", "high").index(entry["tiers"][opp])] += 1

    def holds_tier(self, t: int) -> float:
        """Chance the opponent's hand has a card of tier ``t`` (hand drawn uniformly from the unseen)."""
        n, h = len(self.unseen), self.opp_size
        others = sum(1 for c in self.unseen if tier(c) != t)
        if h > n:
            return 1.0
        return 1.0 - comb(others, h) / comb(n, h)

    def payoff(self, card: int, t_opp: int) -> float:
        """Expected cards gained by playing ``card`` against an opponent card of tier ``t_opp``."""
        t = tier(card)
        if t == t_opp:
            r = rank(card)
            ranks = [rank(c) for c in self.unseen if tier(c) == t]
            if not ranks:
                return 0.0
            return RANK_WIN_VALUE * (sum(1 for x in ranks if x < r) - sum(1 for x in ranks if x > r)) / len(ranks)
        if beats(t, t_opp):
            k = self.table[t]
            return WIN_VALUE if k > self.opp_after else float(k)
        k = self.table[t_opp]
        return -WIN_VALUE if k > self.my_after else -float(k)


def keep_order(hand: Sequence[int]) -> list[int]:
    """Cards in the order a bot wants to keep them: the best card of each tier,
    then the next best of each tier, and so on (High, Middle, Low first)."""
    by_tier = [sorted((c for c in hand if tier(c) == t), key=rank, reverse=True) for t in (2, 1, 0)]
    out: list[int] = []
    for i in range(max((len(b) for b in by_tier), default=0)):
        out.extend(b[i] for b in by_tier if i < len(b))
    return out


def _choose_discard(view: dict[str, Any], legal: Sequence[Action]) -> Action:
    hand = [parse_card(t) for t in view["hand"]]
    k = int(view["owed"]["count"])
    drop = tuple(sorted(keep_order(hand)[len(hand) - k :]))
    for a in legal:
        if isinstance(a, RoyaleAction) and a.cards == drop:
            return a
    return legal[0]


def _card_action(legal: Sequence[Action], card: int) -> Action:
    for a in legal:
        if isinstance(a, RoyaleAction) and a.kind == "play" and a.cards == (card,):
            return a
    return legal[0]


class GreedyBot:
    """Best response to the opponent's smoothed tier habits (deterministic)."""

    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if view["phase"] == "discard":
            return _choose_discard(view, legal)
        return _card_action(legal, self.card(view))

    def card(self, view: dict[str, Any]) -> int:
        """The card it plays (in the play phase)."""
        info = _Info(view)
        weights = [(info.opp_tiers[t] + 1) * info.holds_tier(t) for t in TIERS]
        total = sum(weights) or 1.0
        q = [w / total for w in weights]

        def value(card: int) -> tuple[float, int]:
            return (sum(q[t] * info.payoff(card, t) for t in TIERS), -rank(card))

        return max(info.hand, key=value)


class MixedBot:
    """Plays a maximin mixed strategy of the one-round tier game."""

    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def strategy(self, view: dict[str, Any]) -> tuple[list[int], list[float], float]:
        """The cards it may play (the best of each tier held), their probabilities and the game's value."""
        info = _Info(view)
        cards = [
            max((c for c in info.hand if tier(c) == t), key=rank) for t in TIERS if any(tier(c) == t for c in info.hand)
        ]
        cols = [t for t in TIERS if info.holds_tier(t) >= 0.05] or list(TIERS)
        matrix = [[info.payoff(c, t) for t in cols] for c in cards]
        x, v = solve_zero_sum(matrix)
        return cards, x, v

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if view["phase"] == "discard":
            return _choose_discard(view, legal)
        cards, x, _ = self.strategy(view)
        r = self.rng.next64() / 2**64
        acc = 0.0
        pick = cards[-1]
        for card, p in zip(cards, x, strict=True):
            acc += p
            if r < acc:
                pick = card
                break
        return _card_action(legal, pick)


def solve_zero_sum(a: list[list[float]]) -> tuple[list[float], float]:
    """The row player's maximin mixed strategy and the value of the zero-sum
    game ``a`` (rows maximise), by enumerating square supports: an optimal
    basic solution of the LP has as many rows as binding columns. Exact for
    the small matrices used here (at most 3 x 3)."""
    m, n = len(a), len(a[0])
    best_x: list[float] = [1.0] + [0.0] * (m - 1)
    best_v = min(a[0])
    for k in range(1, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(n), k):
                # unknowns x_rows..., v: sum_i x_i a[i][j] - v = 0 (j in cols), sum_i x_i = 1
                eqs = [[a[i][j] for i in rows] + [-1.0, 0.0] for j in cols]
                eqs.append([1.0] * k + [0.0, 1.0])
                sol = _gauss(eqs)
                if sol is None or any(p < -1e-9 for p in sol[:k]):
                    continue
                x = [0.0] * m
                for i, p in zip(rows, sol[:k], strict=True):
                    x[i] = max(p, 0.0)
                v = min(sum(x[i] * a[i][j] for i in range(m)) for j in range(n))
                if v > best_v + 1e-12:
                    best_x, best_v = x, v
    return best_x, best_v


def _gauss(rows: list[list[float]]) -> list[float] | None:
    """Solve a square system given as augmented rows; None if singular."""
    size = len(rows)
    mat = [r[:] for r in rows]
    for col in range(size):
        piv = max(range(col, size), key=lambda r: abs(mat[r][col]))
        if abs(mat[piv][col]) < 1e-12:
            return None
        mat[col], mat[piv] = mat[piv], mat[col]
        for r in range(size):
            if r != col:
                f = mat[r][col] / mat[col][col]
                if f:
                    mat[r] = [x - f * y for x, y in zip(mat[r], mat[col], strict=True)]
    return [mat[i][size] / mat[i][i] for i in range(size)]


class Evidence:
    """What the opponent's plays and discards since the start say about its hand, for a model that
    plays the highest card of the tier it picks and discards by ``keep_order`` (``greedy`` and
    ``mixed`` both do), read from the public record of rounds only.

    Its hand at round r is the first ``drawn[r]`` cards of its deck order less the cards it played
    and discarded before r; so a guess at the order of the cards it drew (its discard pile and its
    hand now, in some order) fixes every past hand, and ``misses`` counts the rounds the model would
    have played or discarded otherwise with them. ``ok`` is False when the record cannot be followed
    (a reshuffle, or counts that do not add up): then there is no evidence."""

    def __init__(self, world: Any, seat: int) -> None:
        opp = 1 - seat
        self.opp = opp
        self.ok = False
        self.rounds: list[tuple[int, tuple[int, ...], int]] = []  # (card played, discarded, drawn by then)
        if world.reshuffles[opp]:
            return
        drawn = HAND_SIZE
        for entry in world.rounds_log:
            cards = entry.get("cards")
            if not cards:
                return
            card = parse_card(cards[opp])
            lost = entry.get("outcome") == "tier" and entry.get("winner") == seat
            gone = tuple(parse_card(t) for t in entry.get("discarded", ())) if lost else ()
            self.rounds.append((card, gone, drawn))
            drawn += 1 + (entry.get("outcome") == "rank" and entry.get("winner") == opp)
        self.left = [c for c, gone, _ in self.rounds for c in (c, *gone)]  # in the order they left the hand
        self.ok = (
            bool(self.rounds)
            and sorted(self.left) == sorted(world.piles[opp])
            and (drawn == len(self.left) + len(world.hands[opp]))
        )

    def held(self, order: Sequence[int]) -> list[list[int]] | None:
        """The opponent's hand at each round before it played, sorted, as this deck order gives them;
        None if the order is impossible (a card played or discarded before it was drawn)."""
        out = []
        hand = set(order[: self.rounds[0][2]])
        top = self.rounds[0][2]
        for card, gone, drawn in self.rounds:
            if drawn > top:
                hand.update(order[top:drawn])
                top = drawn
            if card not in hand:
                return None
            out.append(sorted(hand))
            hand.discard(card)
            if gone:
                if not hand.issuperset(gone):
                    return None
                hand.difference_update(gone)
        return out

    def misses(self, order: Sequence[int]) -> int:
        """Rounds the model would have played otherwise, holding the hands this deck order gives;
        -1 if the order is impossible."""
        hands = self.held(order)
        if hands is None:
            return -1
        miss = 0
        for hand, (card, gone, _) in zip(hands, self.rounds, strict=True):
            t, r = tier(card), rank(card)
            if any(tier(c) == t and rank(c) > r for c in hand):
                miss += 1
            if gone and not _keeps(hand, card, gone):
                miss += 1
        return miss


def _keeps(hand: Sequence[int], card: int, gone: Sequence[int]) -> bool:
    """Did a bot that discards by ``keep_order`` discard ``gone`` from ``hand`` less ``card``?"""
    rest = [c for c in hand if c != card]
    drop = keep_order(rest)[len(rest) - len(gone) :]
    return sorted(map(rank, drop)) == sorted(map(rank, gone))


def fitter(
    world: Any, seat: int, model: Any = None, rounds: Any = None
) -> Callable[[Any, Rng, int], tuple[int, int]] | None:
    """A refit of worlds drawn from ``seat``'s view (``world`` one of them) so that the opponent's
    hand fits its plays and discards seen (``Evidence``); None when they say nothing."""
    evidence = Evidence(world, seat)
    if not evidence.ok:
        return None
    return lambda w, rng, steps: refit(w, evidence, rng, steps)


def refit(world: Any, evidence: Evidence, rng: Rng, steps: int) -> tuple[int, int]:
    """Change the order in which the opponent drew its cards (``fit_order``), then deal the world the hand
    that order gives, its deck shuffled. The cards stay those the view allows: its hand and deck hold the
    same cards between them, in the same numbers. Returns the rounds missed before and after."""
    opp = evidence.opp
    order, deck, before, now = fit_order(world, evidence, rng, steps)
    held = set(evidence.left)
    world.hands[opp] = sorted(c for c in order if c not in held)
    rng.shuffle(deck)
    world.decks[opp] = deck[::-1]  # the state's decks keep the top card last
    if opp in world.pending:  # its hidden choice, guessed from the hand it had: guessed again
        world.pending[opp] = play(world.hands[opp][rng.below(len(world.hands[opp]))])
    return before, now


def fit_order(world: Any, evidence: Evidence, rng: Rng, steps: int) -> tuple[list[int], list[int], int, int]:
    """An order in which the opponent may have drawn its cards, from ``world``'s hand and deck: swap two
    cards of the order, or a card of its hand for one of its deck, keeping a change when the rounds
    missed do not grow (and 6% of the time when they grow by one). Returns the order, the deck left and
    the rounds missed before and after."""
    hand = list(world.hands[evidence.opp])
    rng.shuffle(hand)
    order = [*evidence.left, *hand]  # cards in the order they left, the hand's last: a possible order
    deck = world.decks[evidence.opp][::-1]  # from the top
    held = set(evidence.left)
    before = now = evidence.misses(order)
    for _ in range(steps):
        if now == 0:
            break
        i = rng.below(len(order))
        other = deck if deck and order[i] not in held and rng.below(2) else order  # a hand card for a deck card
        j = rng.below(len(other))
        order[i], other[j] = other[j], order[i]
        new = evidence.misses(order)
        if new < 0 or new > now + 1 or (new == now + 1 and rng.below(100) >= 6):
            order[i], other[j] = other[j], order[i]
        else:
            now = new
    return order, deck, before, now


KINDS = ("mixed", "greedy", "random")  # the bot kinds an opponent is told apart as
PRIOR = {"mixed": 0.7, "greedy": 0.2, "random": 0.1}  # mixed (the equilibrium) until the moves say otherwise
SLIP = 0.05  # how often a modelled kind is seen to play otherwise: the hand it held is only guessed
_GREEDY = GreedyBot()
_MIXED = MixedBot()  # its strategy only: no card drawn from its generator
Memo = dict[tuple[int, tuple[int, ...]], tuple[float, ...]]  # (round, hand) -> each kind's chance


class Habits:
    """The opponent's past decisions as it saw them, to tell which bot kind plays it (``odds``): for each
    round of the public record, what its view showed then but its hand (our hand size, our discard pile,
    the rounds before). Read from ``seat``'s view; ``ok`` is False when it cannot be followed (a
    reshuffle, a discard to make, or hand sizes that do not add up)."""

    def __init__(self, view: dict[str, Any]) -> None:
        me = int(view["seat"])
        opp = 1 - me
        self.ok = False
        self.contexts: list[dict[str, Any]] = []
        players = view["players"]
        if view["phase"] != "play" or players[0]["reshuffles"] or players[1]["reshuffles"]:
            return
        size = HAND_SIZE
        pile: list[str] = []
        log = view["rounds_log"]
        for r, entry in enumerate(log):
            cards = entry.get("cards")
            if not cards:
                return
            mine = {"seat": me, "hand_size": size, "discard": pile[::-1]}
            self.contexts.append(
                {
                    "seat": opp,
                    "phase": "play",
                    "discard_table": view["discard_table"],
                    "rounds_log": log[:r],
                    "players": [mine, {"seat": opp}] if me == 0 else [{"seat": opp}, mine],
                }
            )
            lost = entry.get("outcome") == "tier" and entry.get("winner") == opp
            gone = list(entry.get("discarded", ())) if lost else []
            pile = [*pile, cards[me], *gone]
            size += -len(gone) + (entry.get("outcome") == "rank" and entry.get("winner") == me)
        self.ok = bool(self.contexts) and size == len(view["hand"])

    def chances(self, evidence: Evidence, hands: Sequence[Sequence[int]], memo: Memo) -> list[tuple[float, ...]]:
        """Per round, per kind (``KINDS``): the chance it made the opponent's play and discard seen,
        holding ``hands`` (its hand at each round, ``Evidence.held``)."""
        out = []
        for r, (hand, (card, gone, _)) in enumerate(zip(hands, evidence.rounds, strict=True)):
            key = (r, tuple(hand))
            if key not in memo:
                memo[key] = self._round(r, hand, card, gone)
            out.append(memo[key])
        return out

    def _round(self, r: int, hand: Sequence[int], card: int, gone: Sequence[int]) -> tuple[float, ...]:
        view = {**self.contexts[r], "hand": [TEXT[c] for c in hand]}
        n = len(hand)
        same = (tier(card), rank(card))
        greedy = _GREEDY.card(view)
        cards, x, _ = _MIXED.strategy(view)
        p = sum(q for c, q in zip(cards, x, strict=True) if (tier(c), rank(c)) == same)
        out = [
            (1 - SLIP) * p + SLIP / n,
            1 - SLIP if (tier(greedy), rank(greedy)) == same else SLIP / max(1, n - 1),
            1 / n,
        ]
        if gone:
            ways = comb(n - 1, len(gone))
            kept = 1 - SLIP if _keeps(hand, card, gone) else SLIP / ways
            out = [out[0] * kept, out[1] * kept, out[2] / ways]
        return tuple(out)


def odds(
    view: dict[str, Any], sample: Callable[[dict[str, Any], int], Any], rng: Rng, worlds: int = 8, steps: int = 100
) -> dict[str, float] | None:
    """How likely each bot kind (``KINDS``) is to be the opponent, from its plays and discards seen and a
    prior that favours ``mixed``: the chance of its moves averaged over ``worlds`` hands drawn from the
    view (``sample(view, seed)``) and fitted to them (``fit_order``). None when nothing can be read."""
    habits = Habits(view)
    if not habits.ok:
        return None
    world = sample(view, rng.next64())
    evidence = Evidence(world, int(view["seat"]))
    if not evidence.ok or len(evidence.rounds) != len(habits.contexts):
        return None
    memo: Memo = {}
    runs = []
    for i in range(worlds):
        if i:
            world = sample(view, rng.next64())
        hands = evidence.held(fit_order(world, evidence, rng, steps)[0])
        if hands is not None:
            runs.append(habits.chances(evidence, hands, memo))
    if not runs:
        return None
    # each round's chance averaged over the hands guessed, the rounds taken as independent: a hand
    # guessed wrong at one round then costs that round only
    logs = [log(PRIOR[kind]) for kind in KINDS]
    for r in range(len(habits.contexts)):
        for k in range(len(KINDS)):
            logs[k] += log(sum(run[r][k] for run in runs) / len(runs))
    top = max(logs)
    weights = [exp(v - top) for v in logs]
    total = sum(weights)
    return {kind: w / total for kind, w in zip(KINDS, weights, strict=True)}


BOTS: Mapping[str, BotFactory] = {"greedy": GreedyBot, "mixed": MixedBot}  # random is every game's
