"""Rank Royale's figures for ``courtcards analyze``: the tiers played and won with,
and how games end.

The game's observer profile (``GameInfo.profiles["observer"]``): read from the
record and the spectator views only, like every observer (courtcards.analysis.observe).
"""

from __future__ import annotations

from courtcards.analysis.observe import END, GameFacts, drama
from courtcards.core.record import GameRecord

TIER = "Tiers (each card played)"
TIER_SHARE = "Share of round wins by tier"


TIERS = ("low", "middle", "high")


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
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
        facts.count(
            END,
            f"game ended by a {name} tier win",
            any(e.get("lost") and e["outcome"] == "tier" and TIERS.index(e["tiers"][e["winner"]]) == t for e in log),
        )
    facts.count(END, "draw (round limit)", res["winner"] is None)
    facts.lead_changes, facts.clear_at, facts.comeback = drama(timeline, res["winner"])
    return facts
