"""Standard environments over the engine's action ids, masks, observations and returns.

- :mod:`courtcards.envs.pettingzoo`: AEC and Parallel multi-agent envs (``pip install 'courtcards[rl]'``).
- :mod:`courtcards.envs.gymnasium`: one seat against bots, one env per game (its ``GameInfo.gym_id``).
- :mod:`courtcards.envs.openspiel`: every game registered with OpenSpiel (``courtcards[openspiel]``).
- :mod:`courtcards.envs.vector`: N games in self-play stepped together, observations and masks stacked.

Environments see the state, but their players only get a seat's observation (computed from its view)
and mask; bots get views. See docs/research.md.
"""

from courtcards.envs.table import EnvError, Table

__all__ = ["EnvError", "Table"]
