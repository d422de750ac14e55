"""King Queens & Paupers' figures for ``courtcards analyze``: the special cards that
take piles, taxes, and finish places by the role held at a round's start.

The game's observer profile (``GameInfo.profiles["observer"]``): read from the
record and the spectator views only, like every observer (courtcards.analysis.observe).
"""

from __future__ import annotations

from courtcards.analysis.observe import GameFacts, decided_round, drama, replay_views
from courtcards.core.record import GameRecord

SPECIAL_PILES = "Special cards: piles taken"
TAXES = "Taxes and roles"
PLACES = "Finish place by role at the round's start"


def _kqp_specials(play: str) -> list[str]:
    cards = play.split()
    return [name for name, mark in (("Queen", "Q"), ("King", "K")) if mark in cards]


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
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
    facts = GameFacts(
        res["winner"],
        kinds,
        roles,
        {"rounds": len(rounds_log), "piles": piles, "turns": turns, "actions": len(record.actions)},
    )
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
        [list(r["scores"]) for r in rounds_log], res["winner"], lower_is_better=True
    )
    return facts
