"""What one finished game shows a spectator, as numbers to total over many games.

Everything here is read from the game's record, replayed, and the spectator
view (``state.view(None)``) after each action: no private information and no
reach into a rules engine's internals. :func:`observe` dispatches on the game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from courtcards.core.record import GameRecord

JSON = dict[str, Any]

SPECIAL_ROUNDS = "Special cards: rounds taken"
SPECIAL_PILES = "Special cards: piles taken"
KING = "The King"
TAXES = "Taxes and roles"
PLACES = "Finish place by role at the round's start"
TIER = "Tiers (each card played)"
TIER_SHARE = "Share of round wins by tier"
END = "How games end"
ASSASSINATIONS = "Assassinations"


@dataclass
class GameFacts:
    """One game, as a spectator saw it.

    ``events`` maps a name to (times it happened, chances it had) in this game;
    ``values`` to numbers averaged over all games (several per game allowed).
    ``clear_at`` is the share of the game (in the game's scoring units: hands,
    rounds, turns) played when the winner took the lead for good; ``comeback``
    says the winner was not leading halfway through (None: too short to say).
    """

    winner: int | None
    kinds: tuple[str, ...]
    roles: tuple[str, ...]
    lengths: dict[str, int]
    lead_changes: int = 0
    clear_at: float | None = None
    comeback: bool | None = None
    events: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    values: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def count(self, section: str, name: str, happened: bool | int, chances: int = 1) -> None:
        done, total = self.events.get((section, name), (0, 0))
        self.events[section, name] = (done + int(happened), total + chances)

    def value(self, section: str, name: str, v: float) -> None:
        self.values.setdefault((section, name), []).append(float(v))


def replay_views(record: GameRecord) -> Iterator[tuple[int, str, JSON]]:
    """The spectator view at the start (seat -1) and after each action of the record."""
    state = record.initial_state()
    yield -1, "", state.view(None)
    for seat, text in record.actions:
        state.apply(seat, text)
        yield seat, text, state.view(None)


def drama(scores: Sequence[Sequence[float]], winner: int | None, lower_is_better: bool = False
          ) -> tuple[int, float | None, bool | None]:
    """Lead changes, when the winner led for good (share of checkpoints) and whether it came from behind.

    ``scores`` holds every seat's score at each checkpoint (after each hand,
    round or turn). A seat leads when it alone has the best score; the lead
    changes when a new sole leader differs from the last one. The winner "leads
    for good" from the first checkpoint after which it is never behind.
    """
    sign = -1 if lower_is_better else 1
    changes = 0
    last: int | None = None
    for row in scores:
        best = max(sign * v for v in row)
        top = [s for s, v in enumerate(row) if sign * v == best]
        if len(top) == 1:
            if last is not None and top[0] != last:
                changes += 1
            last = top[0]
    if winner is None or not scores:
        return changes, None, None
    ahead = [sign * row[winner] >= max(sign * v for v in row) for row in scores]
    k = len(ahead)
    first = k - 1
    while first > 0 and ahead[first - 1]:
        first -= 1
    clear_at = (first + 1) / k
    comeback = None if k < 2 else not ahead[math.ceil(k / 2) - 1]
    return changes, clear_at, comeback


def decided_round(entries: Sequence[Sequence[Any]], specials: Callable[[str], list[str]]) -> list[str] | None:
    """The special cards in the play that took a finished round (its last play; None if no play)."""
    plays = [str(t) for _, t in entries if t != "pass"]
    return specials(plays[-1]) if plays else None


# -- Rank ----------------------------------------------------------------------------------------
_RANK_SPECIALS = (("Crown", ("C", "C2")), ("Wild", ("W",)), ("Rank-Up", ("U",)), ("Rank-Down", ("D",)))


def _rank_specials(play: str) -> list[str]:
    cards = play.split()
    return [name for name, marks in _RANK_SPECIALS if any(c in marks for c in cards)]


def _rank_taker(play: str) -> bool:
    """A lone Rank-Up / Rank-Down played on a pile moves it but does not take the round (RK-7)."""
    return play not in ("U", "D", "pass")


_BENEFITS = {"lead": "leading (RK-12)", "steal": "a steal (RK-12)",
             "exchange": "the Classic President exchange (RK-13)"}


def observe_rank(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    views = replay_views(record)
    _, _, first = next(views)
    roles = tuple(str(p["character"]) for p in first["players"])
    rounds = turns = 0
    decided = dict.fromkeys((name for name, _ in _RANK_SPECIALS), 0)
    benefit: dict[int, str] = {}  # hand number -> how the King began it
    kings_hand: dict[int, str] = {}
    prev = first
    for seat, text, view in views:
        phase = prev["phase"]
        hand = int(prev["round"])
        if phase == "play":
            turns += 1
            if not view["round_log"]:  # the round just ended: it is the previous log plus this action
                rounds += 1
                entries = [e for e in [*prev["round_log"], [seat, text]] if _rank_taker(str(e[1]))]
                for name in decided_round(entries, _rank_specials) or []:
                    decided[name] += 1
        elif phase == "benefit":
            benefit[hand] = text
        elif phase == "exchange":
            benefit[hand] = "exchange"
        elif phase == "kings_hand":
            kings_hand[hand] = text
        prev = view
    final = prev
    res = final["result"]
    hands_log = final["hands_log"]
    facts = GameFacts(res["winner"], kinds, roles,
                      {"hands": len(hands_log), "rounds": rounds, "turns": turns, "actions": len(record.actions)})
    for name, k in decided.items():
        facts.count(SPECIAL_ROUNDS, f"round taken by a play with a {name}", k, rounds)
    kings = [int(h["king"]) for h in hands_log]
    for i in range(1, len(kings)):
        stays = kings[i] == kings[i - 1]
        facts.count(KING, "King stays King", stays)
        how = benefit.get(i + 1)
        if how is not None:
            facts.count(KING, f"King stays King after {_BENEFITS[how]}", stays)
            if how in ("lead", "steal"):
                facts.count(KING, "King steals (rather than leads)", how == "steal")
        if i + 1 in kings_hand:
            facts.count(KING, f"King stays King after a King's Hand {kings_hand[i + 1]} (RK-14)", stays)
    if final["options"].get("endless"):
        totals = [0] * len(roles)
        timeline = []
        for k in kings:
            totals[k] += 1
            timeline.append(list(totals))
    else:
        timeline = [list(h["tokens"]) for h in hands_log]
    facts.lead_changes, facts.clear_at, facts.comeback = drama(timeline, res["winner"])
    return facts


# -- King Queens & Paupers -----------------------------------------------------------------------
def _kqp_specials(play: str) -> list[str]:
    cards = play.split()
    return [name for name, mark in (("Queen", "Q"), ("King", "K")) if mark in cards]


def observe_kqp(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    views = replay_views(record)
    _, _, first = next(views)
    roles = tuple(str(p["role"]) for p in first["players"])
    n = len(roles)
    piles = turns = 0
    decided = {"Queen": 0, "King": 0}
    prev = first
    for seat, text, view in views:
        if prev["phase"] == "play":
            turns += 1
            if not view["pile"]["plays"]:
                piles += 1
                for name in decided_round([*prev["pile"]["plays"], [seat, text]], _kqp_specials) or []:
                    decided[name] += 1
        prev = view
    final = prev
    res = final["result"]
    rounds_log = final["rounds_log"]
    facts = GameFacts(res["winner"], kinds, roles,
                      {"rounds": len(rounds_log), "piles": piles, "turns": turns, "actions": len(record.actions)})
    for name, k in decided.items():
        facts.count(SPECIAL_PILES, f"pile taken by a play with a {name}", k, piles)
    # positions at the start of a round: the first round's are dealt (KQ-2), then the last finish
    starts = [list(first["positions"])] + [list(r["finish"]) for r in rounds_log[:-1]]
    role_names = ("King", "Queen", *(["Commoner"] * (n - 4)), "Pauper-1", "Pauper-2")
    for start, r in zip(starts, rounds_log, strict=True):
        place = {s: i for i, s in enumerate(r["finish"])}
        for i, s in enumerate(start):
            facts.value(PLACES, f"finish place (1 = first) of the round's {role_names[i]}", place[s] + 1)
        facts.count(TAXES, "King stays King (taxes paid to him)", place[start[0]] == 0)
        for pauper in ("Pauper-1", "Pauper-2"):
            s = start[role_names.index(pauper)]
            facts.count(TAXES, f"{pauper} climbs out of the Pauper places", place[s] < n - 2)
    facts.lead_changes, facts.clear_at, facts.comeback = drama(
        [list(r["scores"]) for r in rounds_log], res["winner"], lower_is_better=True)
    return facts


# -- Rank Royale ---------------------------------------------------------------------------------
TIERS = ("low", "middle", "high")


def observe_royale(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    final = record.replay().view(None)  # one rounds_log entry per round is all a spectator needs here
    res = final["result"]
    log = final["rounds_log"]
    facts = GameFacts(res["winner"], kinds, ("seat 0", "seat 1"), {"rounds": len(log), "actions": len(record.actions)})
    wins = [0, 0]
    timeline = []
    for entry in log:
        tiers = [TIERS.index(t) for t in entry["tiers"]]
        outcome = entry["outcome"]
        for t, name in enumerate(TIERS):
            facts.count(TIER, f"{name} card chosen (share of cards played)", tiers.count(t), 2)
        for s, t in enumerate(tiers):
            name = TIERS[t]
            won = outcome != "tie" and entry["winner"] == s
            facts.count(TIER, f"{name} card wins its round", won)
            facts.count(TIER, f"{name} card wins on tier", won and outcome == "tier")
            facts.count(TIER, f"{name} card ties", outcome == "tie")
        if outcome != "tie":
            facts.count(TIER_SHARE, f"{TIERS[tiers[entry['winner']]]} card", True)
            for t, name in enumerate(TIERS):
                if t != tiers[entry["winner"]]:
                    facts.count(TIER_SHARE, f"{name} card", False)
        if outcome == "tier":
            wins[entry["winner"]] += 1
        timeline.append(list(wins))
    for t, name in enumerate(TIERS):
        # RR-4: a game ends on a tier win the loser cannot pay for
        facts.count(END, f"game ended by a {name} tier win", any(
            e.get("lost") and e["outcome"] == "tier" and TIERS.index(e["tiers"][e["winner"]]) == t for e in log))
    facts.count(END, "draw (round limit)", res["winner"] is None)
    facts.lead_changes, facts.clear_at, facts.comeback = drama(timeline, res["winner"])
    return facts


# -- Royals --------------------------------------------------------------------------------------
def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'} to play"


def observe_royals(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    views = replay_views(record)
    _, _, view = next(views)
    n = int(view["num_players"])
    first_player = int(view["first_player"])
    roles = tuple(_ordinal((s - first_player) % n + 1) for s in range(n))
    timeline: list[list[int]] = []
    swing_turns: list[bool] = []  # per turn: a successful assassination took the lead from its target
    attempts = successes = swings = 0
    fight: JSON | None = None
    before: list[int] = []
    swung = False
    turn = int(view["round"])
    prev = view
    for _, _, view in views:
        points = [int(p["score"]) for p in view["players"]]
        cur = view["fight"]
        if fight is None and cur is not None and cur["kind"] == "assassinate":
            fight, before = cur, [int(p["score"]) for p in prev["players"]]
            attempts += 1
        if fight is not None and (cur is None or cur["kind"] != "assassinate" or view["phase"] == "over"):
            d, face = int(fight["defender"]), fight["target"]
            if all(r["face"] != face for r in view["players"][d]["royals"]):
                successes += 1
                led = before[d] == max(before) and before.count(before[d]) == 1
                if led and not (points[d] == max(points) and points.count(points[d]) == 1):
                    swings += 1
                    swung = True
            fight = None
        if int(view["round"]) != turn or view["phase"] == "over":
            timeline.append(points)
            swing_turns.append(swung)
            swung = False
            turn = int(view["round"])
        prev = view
    res = prev["result"]
    turns = int(res["details"]["turns"])
    facts = GameFacts(res["winner"], kinds, roles,
                      {"rounds": math.ceil(turns / n), "turns": turns, "actions": len(record.actions)})
    facts.count(ASSASSINATIONS, "assassination succeeds (the Royal is discarded)", successes, attempts)
    facts.count(ASSASSINATIONS, "successful assassination takes the lead from its target", swings, successes)
    facts.value(ASSASSINATIONS, "assassination attempts per game", attempts)
    facts.count(END, "draw (turn limit)", res["winner"] is None)
    facts.lead_changes, facts.clear_at, facts.comeback = drama(timeline, res["winner"])
    if res["winner"] is not None and facts.clear_at is not None:
        # the turn from which the winner led for good: did an assassination open that lead?
        k = round(facts.clear_at * len(timeline)) - 1
        facts.count(ASSASSINATIONS, "winner's final lead opened by an assassination", k > 0 and swing_turns[k])
    return facts


OBSERVERS: dict[str, Callable[[GameRecord, tuple[str, ...]], GameFacts]] = {
    "rank": observe_rank,
    "kqp": observe_kqp,
    "royale": observe_royale,
    "royals": observe_royals,
}


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    """The facts of a finished game from its record (``kinds``: the bot kind in each seat)."""
    return OBSERVERS[record.game](record, kinds)
