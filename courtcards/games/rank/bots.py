"""A greedy heuristic bot for Rank.

It sees only its seat's view and the legal actions. Its judgement rests on
``badness``: a rough count of the plays a hand still needs, where low sets cost
more than high ones (they rarely win a round) and Crowns, Wilds and modifiers
make a hand better. Leading, it sheds the set whose loss lowers that count
most (low and awkward sets first); following, it plays the cheapest beating set
when that sheds a real set, and passes rather than spend a valuable card early.
Counting the cards it has seen, it knows when a set cannot be beaten, and in
the endgame plays those first so that its last set is led.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from courtcards.bots.base import BotFactory, pick_card
from courtcards.bots.lite import LiteBot
from courtcards.core.errors import CourtcardsError
from courtcards.core.rng import Rng
from courtcards.core.state import Action
from courtcards.games.rank.actions import RankAction, parse_action
from courtcards.games.rank.cards import (
    CROWN,
    CROWN2,
    DECK_COUNTS,
    DOWN,
    NCODES,
    NUMBERS,
    UP,
    WILD,
    counts_of,
    parse_card,
)

HAND_SIZE = 15


@dataclass(frozen=True)
class Weights:
    """The heuristic's knobs (one set of defaults; tuned by simulation)."""

    set_base: float = 1.4  # cost of a set of value x: set_base - set_slope * x
    set_slope: float = 0.1
    card: float = 0.05  # every card still to shed
    crown: float = 0.9
    crown2: float = 0.3
    wild: float = 0.45
    up: float = 0.25
    down: float = 0.35
    play_early: float = -0.15  # follow when it lowers badness at least this much
    play_late: float = 0.6  # ... or by less (even raise it a little) late in the hand
    late_cards: int = 5  # "late": my hand or an opponent's at most this many cards
    crown2_min_cards: int = 6  # use a Crown + Draw 2 to seize the lead with at least this many cards
    steal_max: int = 7  # steal when I can give back a lone number card at most this
    swap_margin: float = 0.3  # take the King's Hand when mine is this much worse than average
    crown_min_cards: int = 99  # likewise a plain Crown (99: keep it for the finish)
    lead_count: float = 0.0  # leading, favour sets of more cards (harder to follow) by this much a card


def hand_counts(texts: Sequence[str]) -> list[int]:
    return counts_of([parse_card(t) for t in texts])


def badness(h: Sequence[int], w: Weights = Weights()) -> float:
    """Lower is better: roughly the rounds the hand still needs to be shed."""
    b = 0.0
    for x in NUMBERS:
        c = h[x]
        if c:
            b += w.set_base - w.set_slope * x + w.card * c
    b -= w.crown * h[CROWN] + w.crown2 * h[CROWN2] + w.wild * h[WILD] + w.up * h[UP] + w.down * h[DOWN]
    b += w.card * (h[CROWN] + h[CROWN2] + h[WILD] + h[UP] + h[DOWN])
    return b


def sets_needed(h: Sequence[int]) -> int:
    """Leads needed to shed everything but Crowns (Wilds and modifiers ride along)."""
    groups = sum(1 for x in NUMBERS if h[x])
    if groups == 0 and (h[WILD] or h[UP] or h[DOWN]):
        return 1 if h[WILD] else h[UP] + h[DOWN]
    return groups


def unseen_counts(view: dict[str, Any], h: Sequence[int]) -> list[int]:
    """Cards this seat has not seen: the deck less its hand, the discard pile and the pile."""
    seen = [0] * NCODES
    for t in (*view.get("discard", []), *view["pile"]["cards"]):
        seen[parse_card(t)] += 1
    return _unseen(int(view.get("num_players", 4)), h, seen)


def _unseen(num_players: int, h: Sequence[int], seen: Sequence[int]) -> list[int]:
    decks = 2 if num_players >= 7 else 1  # RK-1
    return [max(0, DECK_COUNTS[c] * decks - h[c] - seen[c]) for c in range(NCODES)]


def beatable(value: int, count: int, unseen: Sequence[int]) -> bool:
    """Could the unseen cards beat a set of ``count`` at ``value`` (RK-4, RK-5)? Conservative."""
    if unseen[CROWN] or unseen[CROWN2]:
        return True
    w = unseen[WILD]
    if w >= count and value < 12:
        return True
    if unseen[DOWN] and any(unseen[x] and unseen[x] + w >= count for x in NUMBERS):
        return True
    up = unseen[UP] > 0
    for t in range(value + 1, 13):
        if unseen[t] and unseen[t] + w >= count:
            return True
        if up and unseen[t] and unseen[t - 1] and unseen[t] + 1 + w >= count:
            return True
    return up and any(unseen[x] and unseen[x] + w >= count for x in range(max(value, 1), 13))


def _without(h: Sequence[int], cards: Sequence[int]) -> list[int]:
    out = list(h)
    for c in cards:
        out[c] -= 1
    return out


_AVERAGE: dict[Weights, float] = {}


def average_badness(w: Weights) -> float:
    """Mean badness of a random 15-card hand from one deck (fixed sample)."""
    if w not in _AVERAGE:
        rng = Rng(20240601)
        deck = [c for c in range(NCODES) for _ in range(DECK_COUNTS[c])]
        total = 0.0
        samples = 400
        for _ in range(samples):
            rng.shuffle(deck)
            h = [0] * NCODES
            for c in deck[:HAND_SIZE]:
                h[c] += 1
            total += badness(h, w)
        _AVERAGE[w] = total / samples
    return _AVERAGE[w]


class Table(NamedTuple):
    """What the greedy bot reads: the seat's hand (counts) and public facts."""

    hand: list[int]
    phase: str
    seat: int | None
    sizes: list[int]
    leading: bool
    deck_size: int
    pile_value: int
    pile_count: int
    pile_owner: int | None
    unseen: list[int]  # cards the seat has not seen (play phase only; else empty)


def table_of_view(view: dict[str, Any]) -> Table:
    h = hand_counts(view.get("hand", []))
    pile = view["pile"]
    play = view["phase"] not in ("kings_hand", "benefit", "give_back", "exchange")
    return Table(
        h,
        view["phase"],
        view.get("seat"),
        [int(p["hand_size"]) for p in view["players"]],
        bool(view["leading"]),
        int(view.get("deck_size", 0)),
        int(pile["value"]),
        int(pile["count"]),
        pile["owner"],
        unseen_counts(view, h) if play else [],
    )


def table_of_state(state: Any, seat: int, hand: list[int] | None = None) -> Table:
    """The same table read from a Rank state (a sampled world): ``seat``'s hand (or ``hand``, counts per
    card code, in its place) and the public facts only."""
    h = list(state.hands[seat]) if hand is None else hand
    phase = state.phase
    unseen: list[int] = []
    if phase not in ("kings_hand", "benefit", "give_back", "exchange"):
        seen = list(state.discard)  # counts per code
        for c in state.pile:
            seen[c] += 1
        unseen = _unseen(state.num_players, h, seen)
    count = state.pile_count
    return Table(
        h,
        phase,
        seat,
        list(state.sizes),
        phase == "play" and count == 0,
        len(state.draw),
        state.pile_value,
        count,
        state.owner if state.owner >= 0 else None,
        unseen,
    )


class GreedyRankBot:
    """Greedy Rank bot; its seed only breaks ties between equally good actions."""

    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        self.rng = Rng(seed)
        self.w = weights or Weights()

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        acts = [a if isinstance(a, RankAction) else parse_action(a.text) for a in legal]
        if len(acts) == 1:
            return legal[0]
        return legal[acts.index(self._decide(table_of_view(view), acts))]

    def choose_state(self, state: Any, seat: int, legal: Sequence[Action]) -> Action:
        """The move ``choose`` makes from ``seat``'s view, read from a (sampled) state: its hand and public facts."""
        if len(legal) == 1:
            return legal[0]
        acts: list[RankAction] = legal  # type: ignore[assignment]  # the state's own actions
        return self._decide(table_of_state(state, seat), acts)

    def choose_hand(self, state: Any, seat: int, hand: list[int], legal: Sequence[Action]) -> Action:
        """The move ``seat`` would make in ``state`` holding ``hand`` (``legal``: its plays with it)."""
        if len(legal) == 1:
            return legal[0]
        acts: list[RankAction] = legal  # type: ignore[assignment]
        return self._decide(table_of_state(state, seat, hand), acts)

    def _decide(self, t: Table, acts: list[RankAction]) -> RankAction:
        h = t.hand
        if t.phase == "kings_hand":
            return self._kings_hand(h)
        if t.phase == "benefit":
            return self._benefit(h, acts)
        if t.phase in ("give_back", "exchange"):
            return self._give(h, acts)
        return self._play(t, h, acts)

    # -- before play -------------------------------------------------------------------
    def _kings_hand(self, h: list[int]) -> RankAction:
        weak = badness(h, self.w) > average_badness(self.w) + self.w.swap_margin
        return parse_action("swap" if weak else "keep")

    def _benefit(self, h: list[int], acts: list[RankAction]) -> RankAction:
        """Steal when I hold a lone low number card to give back; else lead (RK-12)."""
        if any(a.kind == "steal" for a in acts):
            junk = [x for x in NUMBERS if h[x] == 1 and x <= self.w.steal_max]
            if junk:
                return parse_action("steal")
        return parse_action("lead")

    def _give(self, h: list[int], acts: list[RankAction]) -> RankAction:
        """Give back what hurts least: the lowest lone cards (RK-12, RK-13)."""
        return self._best(acts, lambda a: (badness(_without(h, a.cards), self.w), sum(a.cards)))

    # -- play ----------------------------------------------------------------------------
    def _play(self, t: Table, h: list[int], acts: list[RankAction]) -> RankAction:
        size = sum(h)
        draw = t.deck_size
        plays = [a for a in acts if a.kind == "play"]
        for a in plays:  # go out whenever a play empties the hand (RK-6: not a Crown + Draw 2 that draws)
            if len(a.cards) == size and not (a.cards == (CROWN2,) and draw > 0):
                return a
        crowns = [a for a in plays if a.is_crown]
        sets = [a for a in plays if not a.is_crown]
        sure = h[CROWN] + (h[CROWN2] if draw == 0 else 0)
        rest = _without(h, [CROWN] * h[CROWN] + [CROWN2] * h[CROWN2])
        me = t.seat
        opp_min = min((n for s, n in enumerate(t.sizes) if s != me and n), default=HAND_SIZE)
        late = size <= self.w.late_cards or opp_min <= self.w.late_cards

        unseen = t.unseen
        groups = [x for x in NUMBERS if h[x]]
        safe = {x for x in groups if not beatable(x, h[x], unseen)}

        if t.leading:
            # every set but one wins its round (or a Crown covers it): lead the safe sets first
            if safe and len(groups) - len(safe) <= 1 + sure:
                for a in sets:
                    if a.cards == (min(safe),) * h[min(safe)]:
                        return a
            if not sets:
                return self._best(crowns, lambda a: (a.cards[0] == CROWN,))  # only Crowns: C2 first
            return self._best(sets, lambda a: self._lead_key(h, a))

        k = t.pile_count
        for x in sorted(safe):  # a safe exact set takes the round; then the rest must be nearly done
            if h[x] == k and x > t.pile_value and len(groups) - len(safe) <= 1 + sure:
                for a in sets:
                    if a.cards == (x,) * k:
                        return a
        base = badness(h, self.w)
        scored = [(badness(_without(h, a.cards), self.w) - base, a) for a in sets]
        scored.sort(key=lambda d: (d[0], self._value(d[1], t)))
        if scored:
            delta, best = scored[0]
            limit = self.w.play_late if late else self.w.play_early
            if delta <= limit:
                return best
        # would pass: seize the lead with a Crown when that surely takes me out, or to dump a big hand
        if crowns:
            if sets_needed(rest) <= sure:
                return self._best(crowns, lambda a: (a.cards[0] != CROWN,))
            c2 = [a for a in crowns if a.cards == (CROWN2,)]
            if c2 and size >= self.w.crown2_min_cards:
                return c2[0]
            c1 = [a for a in crowns if a.cards == (CROWN,)]
            if c1 and size >= self.w.crown_min_cards:
                return c1[0]
            if late and opp_min <= 2 and t.pile_owner is not None and t.pile_owner != me:
                return self._best(crowns, lambda a: (a.cards[0] == CROWN2,))
        for a in acts:
            if a.kind == "pass":
                return a
        return self._best(plays, lambda a: (badness(_without(h, a.cards), self.w),))

    def _lead_key(self, h: list[int], a: RankAction) -> tuple[float, ...]:
        after = _without(h, a.cards)
        return (badness(after, self.w) - self.w.lead_count * a.count, -len(a.cards), max(a.cards))

    @staticmethod
    def _value(a: RankAction, t: Table) -> int:
        if a.base > 0:
            return a.base
        value = t.pile_value + 1 if t.pile_count else 1
        return value + (1 if UP in a.cards else 0)

    def _best(self, acts: Sequence[RankAction], key: Any) -> RankAction:
        """The action with the smallest key; ties broken by the seeded generator."""
        keyed = [(key(a), a) for a in acts]
        low = min(k for k, _ in keyed)
        ties = [a for k, a in keyed if k == low]
        return ties[self.rng.below(len(ties))] if len(ties) > 1 else ties[0]


BOTS: Mapping[str, BotFactory] = {"greedy": GreedyRankBot}  # the bot kinds of Rank (random is every game's)


class LiteRankBot(LiteBot):
    """Greedy-lite for Rank: keeps Crowns for the end (a playout policy of the search, not a player)."""

    plain = NUMBERS


Moves = list[tuple[int, str]]


def round_start(state: Any, rounds: Sequence[Moves] | None = None) -> tuple[Any, Moves] | None:
    """A copy of a Rank state (a sampled world) as it was when the earliest round it can undo began, with
    the moves to replay on it; None when there is nothing to rebuild. ``rounds``: the finished rounds of
    this hand before the one in play, oldest first (default: the round before, from the state). No card
    is drawn but by a Crown + Draw 2, which ends its round: rounds back to the last one is undone, the
    hands being today's plus the plays since and the finished rounds' cards back from the discard."""
    if state.phase != "play" or state.pending:
        return None
    done = [list(r) for r in (rounds if rounds is not None else [state.last_round]) if r]
    back = [0] * NCODES  # the finished rounds' cards, out of the discard
    kept: list[Moves] = []
    for moves in reversed(done):  # newest first, until a Crown + Draw 2 or a round of another hand
        cards = [c for _, text in moves if text != "pass" for c in parse_action(text).cards]
        more = counts_of(cards)
        if more[CROWN2] or any(b + m > d for b, m, d in zip(back, more, state.discard, strict=True)):
            break
        back = [b + m for b, m in zip(back, more, strict=True)]
        kept.insert(0, moves)
    log = [m for moves in kept for m in moves] + list(state.round_log)
    if not log:
        return None
    w = state.copy()
    pile = 0
    for s, text in log:
        if text != "pass":
            played = parse_action(text).cards
            for c in played:
                w.hands[s][c] += 1
            w.sizes[s] += len(played)
            pile += len(played)
    if pile != len(w.pile) + sum(back):
        return None
    w.discard = [d - b for d, b in zip(w.discard, back, strict=True)]
    w.pile, w.top, w.pile_value, w.pile_count, w.owner = [], (), 0, 0, -1
    w.passed = [False] * w.num_players
    w.finished = [s for s in w.finished if w.sizes[s] == 0]
    w.turn = log[0][0]
    w.round_log = []
    w.last_round = [] if kept else list(state.last_round)
    w.version += 1  # the copy's cached legal actions and movers are keyed on the version: stale now
    return w, log


def round_fit(state: Any, seat: int, model: Any, rounds: Sequence[Moves] | None = None) -> tuple[int, int]:
    """How many of the other seats' choices seen (the round in play and ``rounds`` before it, see
    ``round_start``) ``model`` (a bot with ``choose_hand``) would have made in this world, out of how
    many: a world's fit to what was seen."""
    return Evidence(state, seat, model, rounds).fit(state)


class Evidence:
    """The other seats' choices seen this hand (back to the last Crown + Draw 2, see ``round_start``), each
    kept with its position, to test a guessed hand against: did ``model`` (a bot with ``choose_hand``)
    holding it make the move seen? A seat's hand at a choice is its hand now plus the cards it played
    since (no card is drawn in between), so each seat's hand is tested alone, from the public positions."""

    def __init__(self, world: Any, seat: int, model: Any, rounds: Sequence[Moves] | None = None) -> None:
        self.model = model
        self.points: dict[int, list[tuple[Any, str, list[int]]]] = {}  # seat -> (position, move, cards since)
        start = round_start(world, rounds)
        if start is None:
            return
        w, log = start
        seen: list[tuple[int, int, Any, str]] = []  # (index in the log, seat, position, move)
        try:
            for i, (s, text) in enumerate(log):
                legal = w.legal_actions(s)
                act = next((a for a in legal if a.text == text), None)
                if act is None:
                    return
                if s != seat:
                    seen.append((i, s, w.copy(), text))
                w.apply(s, act)
        except CourtcardsError:  # a rebuilt position the rules refuse: no evidence
            return
        since = [[0] * NCODES for _ in range(world.num_players)]  # cards each seat played from here on
        j = len(log)
        for i, s, position, text in reversed(seen):
            while j > i:
                j -= 1
                t, move = log[j]
                if move != "pass":
                    for c in parse_action(move).cards:
                        since[t][c] += 1
            self.points.setdefault(s, []).insert(0, (position, text, list(since[s])))

    def _choices(self, seat: int, hand: list[int]) -> Iterator[tuple[int, bool]]:
        """``seat``'s choices seen that offer more than one move with ``hand`` (its hand now): each one's
        index and whether the model, holding it, made the move seen."""
        for i, (position, text, since) in enumerate(self.points.get(seat, [])):
            then = [a + b for a, b in zip(hand, since, strict=True)]
            legal = position.plays_with(seat, then)
            if len(legal) > 1:
                yield i, self.model.choose_hand(position, seat, then, legal).text == text

    def misses(self, seat: int, hand: list[int], stop: int = 1 << 30) -> int:
        """In how many of ``seat``'s choices seen the model, holding ``hand`` now, would have chosen
        otherwise (counting stops past ``stop``)."""
        bad = 0
        points = self.points.get(seat, [])
        for i, made in self._choices(seat, hand):
            if not made:
                bad += 1
                if i:  # the choices hands miss most come first, so that a count past ``stop`` ends sooner
                    points.insert(0, points.pop(i))
                if bad > stop:
                    break
        return bad

    def fit(self, world: Any) -> tuple[int, int]:
        """How many of the choices seen the model makes with ``world``'s hands, out of how many."""
        made = [ok for s in self.points for _, ok in self._choices(s, world.hands[s])]
        return sum(made), len(made)


WORSE = 60  # in 1000: how often a swap that makes the fit one move worse is kept (to leave a dead end)


def refit(world: Any, seat: int, evidence: Evidence, rng: Rng, steps: int) -> tuple[int, int]:
    """Swap hidden cards (a hand's with another hand's or the draw pile's) so that the model makes in
    ``world`` the other seats' moves seen (``evidence``): at most ``steps`` swaps, each taking a card from
    a hand that misses some, kept when the misses do not grow (and now and then when they grow by one),
    until none is missed. The world changes in place and keeps fitting the view: the same hidden cards,
    the same hand sizes. Returns the misses before and after. Only for play without exchanges, where
    every deal of the hidden cards with those sizes fits the view (``fitter`` checks)."""
    others = [s for s in range(world.num_players) if s != seat and world.sizes[s]]
    miss = {s: evidence.misses(s, world.hands[s]) for s in others if s in evidence.points}
    first = sum(miss.values())
    draw = world.draw
    for _ in range(steps):
        bad = [s for s, m in miss.items() if m]
        if not bad:
            break
        a = bad[rng.below(len(bad))]
        ha = world.hands[a]
        c = pick_card(ha, rng)
        k = rng.below(sum(world.sizes[s] for s in others if s != a) + len(draw))
        b = -1  # the place of the other card: a hand, or -1 the draw pile at index k
        for s in others:
            if s != a:
                if k < world.sizes[s]:
                    b = s
                    break
                k -= world.sizes[s]
        hb = world.hands[b] if b >= 0 else None
        d = pick_card(hb, rng) if hb is not None else draw[k]
        if c == d:
            continue
        ha[c] -= 1
        ha[d] += 1
        if hb is not None:
            hb[d] -= 1
            hb[c] += 1
        else:
            draw[k] = c
        old = miss[a] + miss.get(b, 0)
        allowed = old + (1 if rng.below(1000) < WORSE else 0)
        new_a = evidence.misses(a, ha, allowed)
        new_b = evidence.misses(b, hb, allowed - new_a) if hb is not None and b in miss and new_a <= allowed else 0
        if new_a + new_b <= allowed:
            miss[a] = new_a
            if b in miss:
                miss[b] = new_b
            continue
        ha[c] += 1
        ha[d] -= 1
        if hb is not None:
            hb[d] += 1
            hb[c] -= 1
        else:
            draw[k] = d
    return first, sum(miss.values())


def fitter(
    world: Any, seat: int, model: Any, rounds: Sequence[Moves] | None = None
) -> Callable[[Any, Rng, int], tuple[int, int]] | None:
    """``refit`` with the evidence of ``seat``'s view (read from ``world``, a world drawn from it), or
    None when there is none."""
    if world.exchanges or not hasattr(model, "choose_hand"):  # refit's worlds would no longer fit the view
        return None
    evidence = Evidence(world, seat, model, rounds)
    if not evidence.points:
        return None
    return lambda w, rng, steps: refit(w, seat, evidence, rng, steps)


class RoundRecord:
    """The rounds of the hand in play one seat has seen, pieced together from its successive views
    (a view shows the round in play and the one before): what ``round_start`` can undo."""

    def __init__(self) -> None:
        self.hand = -1
        self.version = -1
        self.rounds: list[Moves] = []  # finished rounds, oldest first
        self.current: Moves = []

    def update(self, view: dict[str, Any]) -> list[Moves]:
        """Take in a view; the finished rounds of this hand seen without a gap, oldest first."""
        now: Moves = [(int(s), str(t)) for s, t in view["round_log"]]
        last: Moves = [(int(s), str(t)) for s, t in view["last_round"]]
        if int(view["round"]) != self.hand or int(view["version"]) < self.version:  # a new hand or game
            self.hand, self.rounds, self.current = int(view["round"]), [], []
        elif now[: len(self.current)] == self.current:
            pass  # the same round goes on
        elif self.current and last[: len(self.current)] == self.current:
            self.rounds.append(last)  # that round ended; a new one is in play
        else:
            self.rounds = []  # a gap: start again from what this view shows
        if not self.rounds and last:
            self.rounds = [last]
        self.current = now
        self.version = int(view["version"])
        return self.rounds

    def chose(self, view: dict[str, Any], text: str) -> None:
        """The seat's own move at ``view``: its next view may show the round already over."""
        if view.get("phase") == "play":
            self.current.append((int(view["seat"]), text))
