"""Rank in brief, for text agents' prompts (condensed from docs/rules/rank.md)."""

BRIEF = """\
Rank is a climbing game for 3-12 players: get rid of your cards first to become King and earn Royal Tokens;
the first player to 5 tokens (option tokens_to_win) wins.
- Cards: numbers 1-12, W (Wild), U (Rank-Up), D (Rank-Down), C (Crown), C2 (Crown + Draw 2). 15 cards each.
- A play is a set: number cards and Wilds (all one value; a Wild copies it) plus at most one U or one D.
  Its count is the number cards plus Wilds. A U adds one to the value (up to 13) or lifts one card that is
  one below the rest (8 8 7 U is three 8s). Wilds alone are worth 1 when leading, one above the pile when
  following (at most 12).
- The leader of a round plays any set. Each later player must play the same count at a higher value, or pass.
  A set with a D needs only the same count and sets the pile's value to its number (3 3 D on 11 11 makes
  two 3s). A Crown (C or C2, always alone) beats anything and wins the round at once; C2 also draws 2 cards.
- U or D alone only when your hand holds nothing else: it moves the pile's value by one and you drop out
  of the round.
- Passing keeps you out until the next round. When all others have passed, the owner of the pile leads anew.
- A hand ends when one player still holds cards: first out is King (2 tokens), second Queen (1 token),
  the last one Beggar. Next hand the King chooses `lead` (he leads) or `steal` (takes the Beggar's
  highest number card and gives back any card with `give CARD`).
- Variants: Classic President (taxes: the Beggar gives the King his two highest cards, the King gives
  back two), King's Hand (`swap` or `keep` an extra hand), Endless (most times King after N hands)."""
