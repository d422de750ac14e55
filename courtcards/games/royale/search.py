"""What the search bot knows of Rank Royale (its ``search`` profile): playouts to the end of the game.
The opponent plays mixed (an equilibrium of the one-round game) in the tree and the playouts, chooses its
card there even when it already has, and holds a hand that fits its plays seen; once its plays make
greedy or random nine times in ten the likelier, it is modelled so. Guided by the network (``ismcts+nn``), the
search keeps the network's move unless another beats it by two standard errors."""

from __future__ import annotations

from courtcards.bots.profile import SearchProfile
from courtcards.games.royale.bots import fitter, odds

PROFILE = SearchProfile(
    rollout="greedy",
    depth=0,
    worlds=32,
    model="mixed",
    fit=100,
    open_choices=True,
    adapt=True,
    fitter=fitter,
    odds=odds,
    confident=0.9,
    net_keep=2.0,  # ismcts+nn: 61 of 100 validation deals against greedy where the search's rule won 40
)
