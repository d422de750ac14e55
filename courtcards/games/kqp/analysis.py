"""King Queens & Paupers' figures for ``courtcards analyze``: the special cards that
take piles, taxes, and finish places by the role held at a round's start.

The game's observer profile (``GameInfo.profiles["observer"]``): read from the
record and what a spectator sees only, like every observer (courtcards.analysis.observe): the
events of each action, and the spectator views at the start and the end.
"""

from __future__ import annotations

from courtcards.analysis.observe import GameFacts, decided_round, drama, listen
from courtcards.core.record import GameRecord

SPECIAL_PILES = "Special cards: piles taken"
TAXES = "Taxes and roles"
PLACES = "Finish place by role at the round's start"
_TURN = frozenset({"play", "pass", "pile_won"})  # the events of the play phase's actions (courtcards.games.kqp.events)
_PILE_ENDS = frozenset({"pile_won", "round_over"})


def _kqp_specials(play: str) -> list[str]:
    cards = play.split()
    return [name for name, mark in (("Queen", "Q"), ("King", "K")) if mark in cards]


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    heard = listen(record)
    first = heard.first
    roles = tuple(str(p["role"]) for p in first["players"])
    n = len(roles)
    piles = turns = 0
    decided = {"Queen": 0, "King": 0}
    pile: list[list[object]] = []  # the plays on the pile
    for seat, text, events in heard:
        kinds_heard = {kind for kind, _ in events}
        if kinds_heard & _TURN:  # an action of the play phase
            turns += 1
            if "play" in kinds_heard:
                pile.append([seat, text])
            if kinds_heard & _PILE_ENDS:  # the pile is taken, or the round is over
                piles += 1
                for name in decided_round(pile, _kqp_specials) or []:
                    decided[name] += 1
                pile = []
    final = heard.last()
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
