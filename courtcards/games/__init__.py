"""The built-in games; importing this package registers them."""

from courtcards.games import kqp  # noqa: F401
from courtcards.games import rank  # noqa: F401
from courtcards.games import royale  # noqa: F401
from courtcards.games import royals  # noqa: F401
