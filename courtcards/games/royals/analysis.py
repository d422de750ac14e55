"""Royals' figures for ``courtcards analyze``: the seats by order of play,
assassinations and the leads they open, and draws.

The game's observer profile (``GameInfo.profiles["observer"]``): read from the
record and what a spectator sees only, like every observer (courtcards.analysis.observe): the
events of each action, and the spectator view where they show something counted changed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from courtcards.analysis.observe import END, JSON, GameFacts, drama, listen
from courtcards.core.record import GameRecord

ASSASSINATIONS = "Assassinations"
# the steps after which a view is read (courtcards.games.royals.events): a turn begins, the game ends,
# an assassination is declared
_LOOK = frozenset({"draw", "wins", "turn_limit", "assassinate"})


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'} to play"


def _step_kinds(events: list[tuple[str, Mapping[str, Any]]]) -> set[str]:
    return {str(step["kind"]) for _, data in events for step in data.get("steps", ())}


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    heard = listen(record)
    view = heard.first
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
    for _, _, events in heard:
        steps = _step_kinds(events)
        # the view only where it can show what is counted: a turn's start (a draw) or the end, an
        # assassination declared (which changes no score: its scores are those before) or under way
        if fight is None and not steps & _LOOK:
            continue
        view = heard.view()
        points = [int(p["score"]) for p in view["players"]]
        cur = view["fight"]
        if fight is None and cur is not None and cur["kind"] == "assassinate":
            fight, before = cur, points
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
    prev = heard.last()
    res = prev["result"]
    turns = int(res["details"]["turns"])
    facts = GameFacts(
        res["winner"], kinds, roles, {"rounds": math.ceil(turns / n), "turns": turns, "actions": len(record.actions)}
    )
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
