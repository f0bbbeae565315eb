"""Ceki (Kowah).

The rules (source ``003_d2bfcc59e0e90443.txt`` = [003], "Ceki (or Kowah), a traditional game
for 2 - 6 players"; the Balik texts [000] [001] give context only)
------------------------------------------------------------------------------------------
* Equipment: two Ceki packs of 60 cards, so 120 cards, each of the 30 kinds four times.
  [003 "two packs are required, so each single card will be repeated four times", R-SHOE]
* 2 to 6 players. A dealer, chosen at random, shuffles; the player on his right cuts. He deals
  two cards to each player clockwise, four times, eight cards each; no one looks until the
  deal is complete. The rest is a face-down pile; the first player, on the dealer's left,
  starts. [003 "The opening deal", R-DEAL]
* Goal: three sets of three cards of one value; suits do not matter; honours form sets only
  with their own kind. [003 "The aim of the game", R-SETS]
* A set is worth the sum of its cards; honours are worth 1 (a set of honours scores 3), three
  9s are worth 27. [003, R-VALUE]
* On a turn draw a covered card from the pile or pick the last discard; a drawn card may be
  kept (discarding one from the hand) or discarded straight away; each player always ends a
  turn with eight cards. Only the uppermost discard may be taken. [003, R-TURN]
* With two full sets and a couple a player calls "ceki", placing the couple face down in front
  of him; from then on his only goal is the third card of the couple and he may make no
  further changes to his two full sets. He may find that card by drawing from the pile or by
  picking another player's discard. [003, R-CALL]
* When a set held has the couple's value, all five cards of that value are laid face down.
  [003, R-FIVE]
* Others may call too; the first to complete three sets wins. [003, R-FIRST]
* The winner shows his cards and is the only one to score: the three sets' total, ×1 (plain)
  when the card is the previous player's discard of a card he drew and threw straight away,
  ×2 (double) when it is a card the previous player had held in hand, ×3 (triple) when drawn
  from the pile. [003 "The end of the game", R-MULT]
* Settling: at the end of each hand the winner receives from his opponents an amount
  corresponding to the points; or play to an agreed total; or play a given number of hands,
  the highest total winning. [003, R-SETTLE]

Our specifications (each is an option of :class:`CekiRules` unless marked *fixed*)
------------------------------------------------------------------------------------
* Seats are numbered in playing order, clockwise: seat ``i + 1`` sits on seat ``i``'s left.
  ``first`` is the player on the dealer's left; the dealer is seat ``first - 1``. *fixed*
* The deal (*fixed*): from the top of the shoe (already cut), two cards to each seat starting
  with ``first``, clockwise, four rounds. A stacked deal gives each seat's eight cards.
* ``honours`` (default ``own``, [003]): how honours form sets; ``rank1`` puts them with the
  1s, ``frames`` puts WF and RF with the 1s (see :mod:`cherki.core.sets`). Card values do not
  change: honours are worth 1.
* A turn (*fixed*): ``draw`` or ``take`` (the last discard, always the previous player's, since
  every turn ends with a discard), then ``discard CARD``. After taking a discard a player may
  not discard a card of the same kind (that would undo the turn). When a player discards the
  kind he has just drawn from the pile, it counts as the drawn card thrown straight away.
* Calling (*fixed*): optional, made by ``discard CARD ceki`` when the eight cards left are two
  sets and a couple (exactly one value group holds 2 mod 3 cards, every other a multiple of
  three), or by ``ceki`` at the start of one's turn when the eight cards already are (a dealt
  hand, or a call put off). All cards of the couple's value are laid face down (2, 5 or 8
  cards): others see *that* a seat called and how many cards lie face down, never which.
* After calling (*fixed*, R-CALL "no further changes"): the caller's eight cards are frozen.
  On a turn he either draws, then wins if the card completes the couple or else must discard
  that drawn card, or wins with the last discard (``win`` at the start of the turn). A caller
  never takes a discard that does not win.
* Sampled deals (``determinize``, for search; *fixed*): the hidden cards are dealt again
  keeping every public commitment (``CekiState.record_faults``): a caller's eight cards are
  two sets and a couple whose value group holds exactly the number of cards it laid face
  down (the laid cards are that group's), drawn exactly and uniformly among such hands by
  :class:`cherki.core.sample.OpenGroupSampler`; a caller to discard holds one more card
  (its private draw, any unseen card); with the stock spent, the seat to draw holds a hand
  the last discard completes; every seat holds the discards it took. A caller's possible
  draws that would have won are not excluded (a caller may decline a win). A non-caller to
  discard, seen by another seat, gets no drawn card (a draw is private): it may throw any
  card, the one it took included.
* ``must_call_to_win`` (default on): only a player who has called may win, as [003] describes
  the win only for "a player who has called ceki". Off: any player whose nine cards form three
  sets may win.
* Winning (*fixed*): ``win`` at the start of a turn takes the last discard and wins with it;
  ``win`` after drawing wins with the drawn card. A win is optional (a player may discard).
  Only the player to act may take a discard, so a caller cannot claim a discard out of turn:
  the winning discard is always the previous player's [003 R-MULT "the previous player's
  discard"]. Plain when the previous player drew it from the pile and threw it straight away,
  double otherwise (dealt, kept from an earlier turn, or a card he had held while taking a
  discard), triple when drawn from the pile.
* The pile running out (*fixed*): after the last pile card has been drawn and discarded, the
  next player may still win with that discard; otherwise the hand ends with no winner and no
  payments.
* ``payment`` (default ``each``): each opponent pays the winner the total; ``total``: the
  winner receives the total once, shared by the opponents as evenly as possible (any
  remainder paid one point more by the opponents first in turn order after the winner).
* ``cents_per_point`` (default 10): [003] gives no rate; we use the 10¢ a point of the Balik
  and Cholek Tiga texts. ``money`` is ``payments`` × rate when ``settlement`` is
  ``per-hand``, zero otherwise (the match is settled at its end).
* ``settlement`` (default ``per-hand``), ``target_points`` (200), ``match_hands`` (10): the
  three schemes of [003]. Each hand's ``Result.scores`` gives the points each seat
  scored (the winner's total, 0 for the others); ``target`` ends a match when a seat's running
  total reaches ``target_points`` (that seat wins), ``hands`` after ``match_hands`` hands,
  highest total winning. The match itself (who won, a tied lead) is decided in one place,
  ``cherki.play.match.Match`` (``docs/matches.md``): a lead tied after the agreed hands shares
  the win by default (``Match(tie="play-on")`` plays on); [003] says nothing of ties.
* ``next_dealer`` (default ``rotate``): the deal passes to the left each hand, so the next
  first player is ``first + 1``; ``winner``: the winner deals next (first player on his
  left); after a hand with no winner the same dealer deals again.
* The public view (*fixed*; ``state.public_observation()``, what anyone watching the table
  sees): the dealer, the discards and who threw each, whether the top discard was thrown
  straight from the draw (at the table the drawn card goes to the pile without joining the
  hand), every hand's size, who called and how many cards each laid face down, the
  discards each seat took (``exposed``), the pile's size, and the result with the winning
  hand once the hand is over. Never a hand's cards, *which* cards lie face down, the pile's
  order, or the card the seat to act drew from the pile and where it came from; whether a
  taken discard was thrown straight (``taken_straight``, the plain win) is the taker's own,
  as in every other seat's view (the discard and the take themselves are public).
"""

from __future__ import annotations

from cherki.games.ceki.game import CekiGame
from cherki.games.ceki.observation import CekiObservation
from cherki.games.ceki.rules import (
    CALL,
    CALL_DISCARD,
    CEKI_PRESETS,
    DISCARD,
    DRAW,
    NUM_ACTIONS,
    TAKE,
    VALUE,
    WIN,
    CekiRules,
    couple_group,
    hand_points,
)
from cherki.games.ceki.state import CekiState

__all__ = [
    "CALL",
    "CALL_DISCARD",
    "CEKI_PRESETS",
    "DISCARD",
    "DRAW",
    "NUM_ACTIONS",
    "TAKE",
    "VALUE",
    "WIN",
    "CekiGame",
    "CekiObservation",
    "CekiRules",
    "CekiState",
    "couple_group",
    "hand_points",
]
