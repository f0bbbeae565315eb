"""Cholek Tiga's course (issue 37): the rule statements of [002], quoted, and the lessons
that teach them (:mod:`cherki.core.lessons`); the words are the catalogues'
``learn.cholek.*`` keys."""

from __future__ import annotations

from cherki.core.lessons import Course, Lesson, Statement, WrongAnswer

__all__ = ["CHOLEK"]

S = "002"


def _w(lesson: str, action: str, why: str) -> WrongAnswer:
    return WrongAnswer(action, f"learn.{lesson}.why.{why}")


def _s(sid: str, quote: str) -> Statement:
    return Statement(sid, S, quote)


STATEMENTS = (
    _s("cholek.shoe", "There will be four copies of each card in the game."),
    _s(
        "cholek.stock",
        "Shuffle the cards and place them face-down in the middle of the table.",
    ),
    _s("cholek.deal", "Each player draws three cards (hence the name of the game)."),
    _s(
        "cholek.turn",
        "On a player’s turn they first **discard** a card face-up to a ‘pool’ in the centre of "
        "the table, and then **turn up** a card from the stock into the same pool of cards.",
    ),
    _s(
        "cholek.capture",
        "Each of these cards can capture, if the card matches **two other** cards of the same "
        "rank (the face of the card does not matter).",
    ),
    _s(
        "cholek.take",
        "If a card successfully matches, the player takes all three cards and piles them (by "
        "rank) in front of themselves.",
    ),
    _s(
        "cholek.six",
        "A player can potentially capture six cards (two sets of three) on their turn, if both "
        "the card from their hand and the turned-up card match two other cards.",
    ),
    _s(
        "cholek.optional",
        "Capturing is not mandatory, if the player does not think it is advantageous.",
    ),
    _s(
        "cholek.redraw",
        "Once everyone has played three turns (so has used the three cards in their hand), all "
        "players once again draw three cards, and play continues.",
    ),
    _s(
        "cholek.end",
        "Once the stock and the player’s hands are completely played out, each player scores "
        "their captured cards.",
    ),
    _s(
        "cholek.red-cards",
        "There are three types of red-stamped cards in the deck (twelve cards total).",
    ),
    _s(
        "cholek.normal",
        "For normal cards (without a red stamp): 3 points for each set of **three identical** "
        "cards (these can be won on different turns, which is why captured cards are simply "
        "piled by rank), or 8 points for a set of all **four identical** cards.",
    ),
    _s(
        "cholek.red",
        "For red-stamped cards: 1 point for each card, 4 points for an identical pair, 3 points "
        "(only, but see the bonuses) for an identical triplet, or 8 points for all four "
        "identical red-stamped cards.",
    ),
    _s(
        "cholek.pay",
        "The player with the most points wins the difference in points between their score "
        "and the other players’ scores.",
    ),
    _s("cholek.rate", "This is settled between the players at a rate of 10¢ per point."),
    _s(
        "cholek.ang-pow",
        "the player wins a bonus of $1, or $2, respectively, from **each** other player.",
    ),
    _s("cholek.next", "The player who scored the least points goes first in the next game."),
    _s(
        "cholek.bonus",
        "If a player captures a set of three **identical** cards on their turn, they win a "
        "bonus from **each** other player, which is paid instantly:",
    ),
    _s(
        "cholek.ayam",
        "If the capture was made with a card from their hand, it is called an",
    ),
    _s(
        "cholek.kandang",
        "If the capture was made with a card from the stock, it is called a",
    ),
)

OTHER = "C1 C2 C3"

LESSONS = (
    Lesson(
        "cholek.discard",
        teaches=("cholek.shoe", "cholek.stock", "cholek.deal", "cholek.turn"),
        hands=("C5 C9 RF", OTHER),
        right=("discard C5", "discard C9", "discard RF"),
        wrong=(_w("cholek.discard", "turn", "turn"),),
    ),
    Lesson(
        "cholek.capture",
        teaches=("cholek.capture", "cholek.take", "cholek.optional"),
        hands=("M5 C9 RF", OTHER),
        stock="C5 S5",
        moves=("0: discard M5",),
        right=("capture C5 S5 with M5",),
        wrong=(_w("cholek.capture", "no capture", "pass"),),
        options={"initial_pool": 2},
    ),
    Lesson(
        "cholek.ayam",
        teaches=("cholek.bonus", "cholek.ayam", "cholek.normal"),
        hands=("M5 C9 RF", OTHER),
        stock="M5 M5",
        moves=("0: discard M5",),
        right=("capture M5 M5 with M5",),
        wrong=(_w("cholek.ayam", "no capture", "pass"),),
        options={"initial_pool": 2},
    ),
    Lesson(
        "cholek.kandang",
        teaches=("cholek.kandang", "cholek.six"),
        hands=("M5 C9 RF", OTHER),
        stock="C5 S5 M7 M7 M7",
        moves=("0: discard M5", "0: capture C5 S5 with M5", "0: turn"),
        right=("capture M7 M7 with M7",),
        wrong=(_w("cholek.kandang", "no capture", "pass"),),
        options={"initial_pool": 4},
    ),
    Lesson(
        "cholek.ang-pow",
        teaches=(
            "cholek.red-cards",
            "cholek.red",
            "cholek.ang-pow",
            "cholek.end",
            "cholek.pay",
            "cholek.rate",
            "cholek.next",
        ),
        hands=("OT C9 RF", OTHER),
        stock="OT OT",
        moves=("0: discard OT",),
        right=("capture OT OT with OT",),
        wrong=(_w("cholek.ang-pow", "no capture", "pass"),),
        options={"initial_pool": 2},
    ),
    Lesson(
        "cholek.redraw",
        teaches=("cholek.redraw",),
        hands=(OTHER, "S4 S5 S6"),
        stock="M7 M8 M9 S7 S8 S9 C7 WF S3 M1 M2 M3",
        moves=(
            "0: discard C1",
            "0: turn",
            "1: discard S4",
            "1: turn",
            "0: discard C2",
            "0: turn",
            "1: discard S5",
            "1: turn",
            "0: discard C3",
            "0: turn",
            "1: discard S6",
            "1: turn",
        ),
        right=("discard C7",),
        wrong=(_w("cholek.redraw", "discard S3", "no-match"),),
    ),
)

CHOLEK = Course(statements=STATEMENTS, lessons=LESSONS)
