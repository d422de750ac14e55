"""King Queens & Paupers in brief, for text agents' prompts (condensed from docs/rules/kqp.md)."""

BRIEF = """\
King Queens & Paupers is a climbing game for 4-9 players; the LOWEST total of points wins.
- Cards from low to high: 3 ... 14, S (Silver), G (Gold), Q (Queen), K (King).
- Each round the k-th player out scores k points; the last scores n (number of players). The finish order
  gives the next round's positions: King, Queen, Commoners, Pauper-1, Pauper-2.
- Taxes before play: Pauper-2 gives the King their two highest cards, Pauper-1 the Queen their highest.
  The King gives back any two cards and the Queen any one (`give 3 4`), secretly and at the same time.
- Pauper-2 leads. A play is one or more cards of one value. Later players play the same number of cards of
  a higher value, or pass. A single Queen beats any single card, both Queens any pair, the King anything.
- Passing does not lock you out of the pile. When everyone else has passed since the last play, that
  play's owner leads a new pile.
- Consecutive mode: if the second play on a pile is exactly one value above the first, every later play on
  that pile must be exactly one value above the top.
- The game ends when someone reaches the target total or after the set number of rounds."""
