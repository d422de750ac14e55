"""Agents that play a seat from outside the engine (text / language-model agents)."""
