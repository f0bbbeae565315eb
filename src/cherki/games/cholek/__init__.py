"""Cholek Tiga ('draw three'), a Peranakan fishing game.

The rules (source ``002_328af3bada55227b.txt`` = [002], after Pwee, "Chiki Cards" p.125-7)
------------------------------------------------------------------------------------------
* Two or three players, two Cherki decks: 120 cards, four copies of each card. [002, R-SHOE]
* Shuffle and place the cards face down in the middle; each player draws three cards.
  [002 "Play", R-DEAL]
* On a turn a player first discards a card face up to a pool in the centre, then turns up a
  card from the stock into the same pool. Each of these cards can capture if it matches two
  other cards of the same rank (the face does not matter); the player takes all three and
  piles them by rank in front of himself. Both cards may capture (six cards in a turn).
  Capturing is not mandatory. [002, R-TURN, R-CAPTURE]
* When everyone has played their three cards, all draw three again; when the stock and the
  hands are played out each player scores his captured cards. [002, R-REDRAW, R-END]
* Scoring [002 "Scoring", R-SCORE]: normal cards: 3 points per three identical cards (won on
  any turns), 8 for all four identical. Red-stamped cards (S9, RF, OT): 1 point a card, 4 for
  an identical pair, 3 for an identical triplet, 8 for all four.
* The player with most points wins the difference between his score and each other player's,
  settled at 10¢ a point. [002, R-PAY]
* Ang pow (a red identical triplet) wins $1, ang pow besar (the four) $2, from each other
  player. [002, R-ANGPOW]
* The player who scored least goes first in the next game. [002, R-NEXT]
* In-play bonuses, paid at once by each other player, for capturing three identical cards:
  ayam 50¢ when the capture was made with a card from the hand, kandang $1 when made with the
  card from the stock. [002 "In-play bonuses", R-BONUS]

Our specifications (each is an option of :class:`CholekRules` unless marked *fixed*)
------------------------------------------------------------------------------------
* Seats are numbered in playing order (seat ``i + 1`` plays after seat ``i``). *fixed*
* The deal (*fixed*): from the top of the shoe each seat from ``first`` on takes three cards
  in turn. A stacked deal gives each seat's three cards and the top of the stock.
* Sampled deals (``determinize``, for search; *fixed*): no seat commits to anything about
  its hidden cards (captures and the pool are public), so the other hands and the stock are
  a uniform deal of the cards the seat has not seen.
* ``initial_pool`` (default 0): the source turns nothing up before play, so the pool starts
  empty; a number turns that many stock cards face up into the pool after the deal.
* ``honours`` (default ``rank1``): which cards share a "rank" for capturing. The honours have
  no index; Pwee's card table (the source of [002]) puts WF, RF and OT in the rank-1 row, so
  by default an honour captures and is captured with the 1s. ``frames``: WF and RF with the
  1s (they wear the 1s' frame [003]), OT only with OTs; ``own``: each honour only with its
  own kind. Scoring always counts *identical* cards (same kind).
* Capturing (*fixed*): a card captures exactly two pool cards of its rank; with more than two
  there, the player names the two (``capture A B with C``); with fewer, it cannot capture.
  The capture decision for the discarded card is taken before the stock card is turned up,
  then the turned card is decided. A capture is "made with" the card that captures: the
  discarded hand card (ayam when all three are identical) or the turned stock card (kandang).
  Pool cards left by an earlier turn's hand card do not change this: what counts is the
  capturing card. ``no capture`` leaves the card in the pool.
* The turn-up (*fixed*): an explicit ``turn`` action, so records show the order of play.
* Redraws (*fixed*): when every hand is empty each player, from the seat to play, draws
  ``min(3, stock // (2 × players))`` cards, so that every card played from the hand has a stock
  card to turn. With 120 cards and no initial pool this is 10 rounds of three for two players
  and 6 rounds of three plus one of two for three players. Any stock cards left over (only
  with an ``initial_pool``) are turned up one per turn by the players in turn, with no
  discard, until the stock is empty.
* ``leftover_pool`` (default ``none``): cards still in the pool at the end score for nobody;
  ``last-capturer`` gives them to the last player who captured (they count toward identical
  sets like any captured card).
* Scoring (*fixed*): per kind captured, normal: 3 → 3 points, 4 → 8, fewer → 0; red: 1 → 1,
  2 → 4, 3 → 3, 4 → 8. Ang pow: a red kind captured exactly three times; ang pow besar: all
  four. The four copies of a kind in play bound counts at 4.
* ``tie_rule`` (default ``each``): every seat with the top score is a winner and is paid the
  difference by each seat below it (tied winners pay each other nothing, their difference
  being 0); ``none``: a tied top score means no point payments. A three-way tie pays nothing.
  ``Result.winner`` is the single top scorer, or ``None`` when the top is shared.
* Payments: ``Result.payments`` are points (zero-sum): the differences. ``Result.money`` is
  cents (zero-sum): ``payments × cents_per_point`` plus ang pow / ang pow besar settled at the
  end plus the ayam / kandang bonuses paid during play. Amounts are options:
  ``cents_per_point`` 10, ``ayam_cents`` 50, ``kandang_cents`` 100, ``ang_pow_cents`` 100,
  ``ang_pow_besar_cents`` 200.
* The next game (*fixed*, R-NEXT): the lowest scorer starts; among tied lowest scorers the
  one first in playing order from this game's first player.
* The public view (*fixed*; ``state.public_observation()``, what anyone watching the table
  sees): everything but the hands: the pool, every seat's captures, the card on the table
  waiting for a capture decision and whether it came from the hand or the stock, the bonuses
  paid, the last capturer, the rounds dealt, the hands' and the stock's sizes, and the
  result once the game is over. Never a card in a hand (each is seen once discarded) or the
  stock's order.
"""

from __future__ import annotations

from cherki.games.cholek.game import CholekGame
from cherki.games.cholek.observation import CholekObservation
from cherki.games.cholek.rules import (
    CAPTURE,
    CAPTURE_ID,
    CAPTURES,
    CHOLEK_PRESETS,
    DISCARD,
    NORMAL_POINTS,
    NUM_ACTIONS,
    PASS,
    RED_POINTS,
    TURN,
    CholekRules,
    score_captured,
)
from cherki.games.cholek.state import CholekState

__all__ = [
    "CAPTURE",
    "CAPTURES",
    "CAPTURE_ID",
    "CHOLEK_PRESETS",
    "DISCARD",
    "NORMAL_POINTS",
    "NUM_ACTIONS",
    "PASS",
    "RED_POINTS",
    "TURN",
    "CholekGame",
    "CholekObservation",
    "CholekRules",
    "CholekState",
    "score_captured",
]
