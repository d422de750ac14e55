"""Rank Royale in brief, for text agents' prompts (condensed from docs/rules/royale.md)."""

BRIEF = """\
Rank Royale is a two-player duel. Each player has their own 52-card deck; only ranks count (Ace = 1).
- Tiers: Low = A-4, Middle = 5-10, High = J-K. Low beats High, Middle beats Low, High beats Middle.
- Each round both players choose one card from hand in secret; the cards are revealed together.
- Different tiers: the loser discards as many cards of their choice as the winner's tier says
  (default Low 4, Middle 3, High 2): `discard 3C 9S`. A loser who must discard more cards than they hold
  loses the game.
- Same tier: the higher rank draws one card; the same rank: nothing happens.
- Then both draw one card (a player with an empty deck reshuffles their own discard pile).
- Option max_rounds ends the game as a draw."""
