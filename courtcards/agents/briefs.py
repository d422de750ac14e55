"""The rules of each game in brief, for prompts (condensed from docs/rules/<game>.md)."""

from __future__ import annotations

RANK = """\
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

KQP = """\
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

ROYALE = """\
Rank Royale is a two-player duel. Each player has their own 52-card deck; only ranks count (Ace = 1).
- Tiers: Low = A-4, Middle = 5-10, High = J-K. Low beats High, Middle beats Low, High beats Middle.
- Each round both players choose one card from hand in secret; the cards are revealed together.
- Different tiers: the loser discards as many cards of their choice as the winner's tier says
  (default Low 4, Middle 3, High 2): `discard 3C 9S`. A loser who must discard more cards than they hold
  loses the game.
- Same tier: the higher rank draws one card; the same rank: nothing happens.
- Then both draw one card (a player with an empty deck reshuffles their own discard pile).
- Option max_rounds ends the game as a draw."""

ROYALS = """\
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
- Option max_turns ends the game as a draw."""

BRIEFS: dict[str, str] = {"rank": RANK, "kqp": KQP, "royale": ROYALE, "royals": ROYALS}
