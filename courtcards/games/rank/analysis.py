"""Rank's figures for ``courtcards analyze``: the special cards that take rounds and
whether the King stays King (after which benefit).

The game's observer profile (``GameInfo.profiles["observer"]``): read from the
record and the spectator views only, like every observer (courtcards.analysis.observe).
"""

from __future__ import annotations

from courtcards.analysis.observe import GameFacts, decided_round, drama, replay_views
from courtcards.core.record import GameRecord

SPECIAL_ROUNDS = "Special cards: rounds taken"
KING = "The King"


_RANK_SPECIALS = (("Crown", ("C", "C2")), ("Wild", ("W",)), ("Rank-Up", ("U",)), ("Rank-Down", ("D",)))


def _rank_specials(play: str) -> list[str]:
    cards = play.split()
    return [name for name, marks in _RANK_SPECIALS if any(c in marks for c in cards)]


def _rank_taker(play: str) -> bool:
    """A lone Rank-Up / Rank-Down played on a pile moves it but does not take the round (RK-7)."""
    return play not in ("U", "D", "pass")


_BENEFITS = {
    "lead": "leading (RK-12)",
    "steal": "a steal (RK-12)",
    "exchange": "the Classic President exchange (RK-13)",
}


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
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
    facts = GameFacts(
        res["winner"],
        kinds,
        roles,
        {"hands": len(hands_log), "rounds": rounds, "turns": turns, "actions": len(record.actions)},
    )
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
