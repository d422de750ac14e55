"""Royals in brief, for text agents' prompts (condensed from docs/rules/royals.md)."""

BRIEF = """\
Royals is a game for 3-6 players, each with their own 52-card deck. Build Royals and attack the others'.
- A Royal is a face card (J, Q, K) over a number card (A=1 ... 10) of the same suit, worth the number card.
- Win: begin your turn with at least 20 - players points in Royals in play.
- Your turn: draw up to the hand limit (2 x players), then exactly one action: `royal QH 7H`,
  `attack 2` (a player with a Royal), `assassinate 2 QH` (one Royal), or `discard hand`.
- Fights: players commit cards face down at the same time (`commit 7H KS`, `commit none`); counts are
  fixed by the rules and shown to you. Red number cards attack, black number cards block, whoever
  committed them; face cards are bluffs.
- The defender pairs blocks with attacks one at a time (`block 7 with 9`: a block cancels an attack of
  equal or lower value), then `done`. Each unpaired attack is a hit, placed on the defender's Royals
  (`hit QH`).
- A Royal of value v with h hits is discarded (`discard QH`) or gets a number card of its suit worth at most
  v - h from hand (`replace QH 3H`).
- Option max_turns ends the game as a draw; options hand_limit and target replace 2 x players and
  20 - players (small games: the view shows the table's values)."""
