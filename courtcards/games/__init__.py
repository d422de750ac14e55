"""The built-in games; importing this package registers them."""

from courtcards.games import rank  # noqa: F401
