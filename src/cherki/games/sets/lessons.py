"""The courses of the games of sets (issue 37, *Learn*): each game's rule statements, quoted
from its sources, and the lessons that teach them (:mod:`cherki.core.lessons`). A lesson is a
stacked deal and the actions that reach its position; its words are the catalogues'
``learn.<lesson>.*`` keys (``cherki/i18n/learn/``)."""

from __future__ import annotations

from cherki.core.lessons import Course, Lesson, Statement, WrongAnswer

__all__ = ["BALIK_LIMA_BELAS", "BALIK_SATU"]


def _w(lesson: str, action: str, why: str) -> WrongAnswer:
    return WrongAnswer(action, f"learn.{lesson}.why.{why}")


#: 14 cards far from waiting, for a seat that only passes the turn on
JUNK = "C1 S1 C2 S2 C3 S3 C4 S4 C5 S5 C6 C7 C8 C9"
#: a hand of four sets with a mata (M2) waiting on any 8: tan
TAN14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"
#: the source's ceki hand [000]: four sets, no mata, the pair of M8 to make one
CEKI14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"

# -- the statements of Balik Satu: [001] (the plain text of [000]) and the cards of [003] -----
CARD_STATEMENTS = (
    Statement(
        "cards.pack",
        "001",
        "Recall that a Cherki deck contains 60 cards, two of each type, so a ½ deck has 30 "
        "cards, one of each type.",
    ),
    Statement(
        "cards.suits",
        "003",
        "Each suit has nine value cards (no courts), running from 1 to 9.",
    ),
    Statement(
        "cards.honours",
        "003",
        'Three "special" cards (or honours) are called White Flower, Red Flower and Old Thousand.',
    ),
    Statement(
        "cards.red",
        "003",
        "All patterns are in black & white, but three cards feature a red stamp: the 9 of "
        "Strings, the Red Flower and the Old Thousand.",
    ),
)

PLAY_STATEMENTS = (
    Statement(
        "balik.deal",
        "001",
        "Deal 7 cards to each player, an additional card to the first player, and then a "
        "second round of 7 cards to each player.",
    ),
    Statement(
        "balik.stock",
        "001",
        "Set the remainder of the cards in the middle of the table face-down, to form the stock.",
    ),
    Statement(
        "balik.wash",
        "001",
        "Alternately, with a large number of people it is faster to wash-shuffle the cards in "
        "the centre of the table and then for each person to draw 14 cards (15 for the "
        "starting player).",
    ),
    Statement(
        "balik.first-discard",
        "001",
        "The first player starts the game by discarding one card face-up to the middle.",
    ),
    Statement(
        "balik.direction",
        "001",
        "Play in an anti-clockwise direction; the next player is the person to their right.",
    ),
    Statement(
        "balik.turn",
        "001",
        "On a player’s turn they can either take the last discard or the next face-down card, "
        "and must discard a card to complete their turn.",
    ),
    Statement(
        "balik.sets",
        "001",
        "The goal is to form your hand into five sets of three: a set can be three of the same "
        "rank (i.e. with the same indices) or three of the exact same card, which is called a "
        "mata (‘eye’), or a ‘passport’ in Melaka.",
    ),
    Statement(
        "balik.winning",
        "001",
        "A player must have at least one mata to win, and the winning card that completes the "
        "hand (making 15 cards) must be drawn from the stock, not from a discard.",
    ),
    Statement(
        "balik.call",
        "001",
        "Calling: once a player has formed four sets in their hand and only needs one card to "
        "win, they can “call” on their next discard.",
    ),
    Statement(
        "balik.tan",
        "001",
        "If they have formed at least one mata already, they call ‘tan’",
    ),
    Statement(
        "balik.ceki",
        "001",
        "or else (if they are trying to form a mata for their last set) they call ‘ceki’.",
    ),
    Statement(
        "balik.shown",
        "001",
        "Once any player has called, whenever a player draws from the face-down stock, they "
        "must reveal the card before adding it to their hand.",
    ),
    Statement(
        "balik.claim",
        "001",
        "If it is the winning card for a player who has called, the calling player takes it "
        "and wins the round.",
    ),
    Statement(
        "balik.sampei",
        "001",
        "When a player claims or draws a winning card they call ‘sampei!’ (‘arrived!’).",
    ),
    Statement(
        "balik.change",
        "001",
        "A player who has called can still change their hand if they think they can improve "
        "it, by turning an existing mixed set into a mata.",
    ),
    Statement(
        "balik.change-call",
        "001",
        "If they do this and have already called ‘ceki’ they can change their call to ‘tan’.",
    ),
    Statement(
        "balik.ayam",
        "001",
        "if someone else drew the winning card from the stock (called ayam, ‘chicken’), they "
        "earn an additional 1",
    ),
    Statement(
        "balik.kandang",
        "001",
        "if they self-drew the winning card (called kandang ‘cage’), they earn an additional 2",
    ),
    Statement("balik.pay", "001", "The player is then paid their total score by each player."),
    Statement(
        "balik.kandang-tangan",
        "001",
        "In the case that a player is initially dealt a winning hand (kandang tangan ‘cage in "
        "hand’), they win instantly and double the normal scoring (no calling bonuses will "
        "apply).",
    ),
)

SATU_STATEMENTS = (
    Statement(
        "balik.turned",
        "001",
        "The winner draws an additional card from the deck (hence the name of the game), and "
        "this determines the value of their hand.",
    ),
    Statement(
        "balik.values",
        "001",
        "Unmarked cards are worth their rank value (1–9 points), and the red-stamped cards are "
        "worth more:",
    ),
    Statement("balik.red-nine", "001", "Red Nine scores 10 points."),
    Statement("balik.nyonya", "001", "Nyonya scores 11 points."),
    Statement("balik.lau-chian", "001", "Lau Chian scores 12 points."),
    Statement(
        "balik.yeo",
        "001",
        "A common rule is that if the drawn card is a rank-1 yeo card, then the winning player "
        "does not score and the round is played again.",
    ),
    Statement(
        "balik.kena",
        "001",
        "The drawn card may be used to improve a set in the hand into a mata, if possible, by "
        "replacing a card of the same rank.",
    ),
    Statement(
        "balik.mata-points",
        "001",
        "To the point value of the drawn card, the winner adds one point for each unmarked "
        "mata, and two points for each mata of red-stamped cards.",
    ),
)

# -- the lessons ------------------------------------------------------------------------------
LESSONS_PLAY = (
    Lesson(
        "balik.cards",
        teaches=("cards.pack", "cards.suits", "cards.honours", "cards.red"),
        hands=("S9 RF OT M2 M2 M2 C3 S3 M3 C6 S6 M6 C7 S7 M8", JUNK),
        right=("discard RF",),
        wrong=(
            _w("balik.cards", "discard S9", "red-nine"),
            _w("balik.cards", "discard OT", "lau-chian"),
        ),
    ),
    Lesson(
        "balik.first-discard",
        teaches=("balik.deal", "balik.stock", "balik.wash", "balik.first-discard"),
        hands=("M2 M2 M2 C3 S3 M3 C6 S6 M6 C7 S7 C8 M8 C9 WF", JUNK),
        right=("discard WF", "discard C9"),
        wrong=(
            _w("balik.first-discard", "draw", "draw"),
            _w("balik.first-discard", "discard M2", "mata"),
        ),
    ),
    Lesson(
        "balik.take",
        teaches=("balik.direction", "balik.turn"),
        hands=(JUNK + " M9", "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 M7 C8 S9 WF", JUNK),
        moves=("0: discard C7",),
        seat=1,
        right=("take",),
        wrong=(_w("balik.take", "draw", "draw"),),
    ),
    Lesson(
        "balik.sets",
        teaches=("balik.sets",),
        hands=(JUNK + " M9", "M2 M2 S2 C3 S3 M3 C6 S6 M6 C7 S7 M7 C8 S8"),
        stock="M2",
        moves=("0: discard M9", "1: draw"),
        seat=1,
        right=("discard S2", "discard S2 tan"),
        wrong=(_w("balik.sets", "discard M2", "mixed"),),
    ),
    Lesson(
        "balik.winning",
        teaches=("balik.winning",),
        hands=("C1 S1 C2 S2 C3 S3 C4 S4 C5 S5 C6 C7 C9 S9 S8", TAN14),
        moves=("0: discard S8",),
        seat=1,
        right=("draw",),
        wrong=(_w("balik.winning", "take", "take"),),
    ),
    Lesson(
        "balik.call-tan",
        teaches=("balik.call", "balik.tan"),
        hands=(JUNK + " M9", "M2 M2 M2 C3 S3 M3 C6 S6 M6 C7 S7 M7 C8 WF"),
        stock="M8",
        moves=("0: discard M9", "1: draw"),
        seat=1,
        right=("discard WF tan",),
        wrong=(
            _w("balik.call-tan", "discard WF", "no-call"),
            _w("balik.call-tan", "discard WF ceki", "ceki"),
        ),
    ),
    Lesson(
        "balik.call-ceki",
        teaches=("balik.call", "balik.ceki"),
        hands=(JUNK + " M9", "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 WF"),
        stock="M8",
        moves=("0: discard M9", "1: draw"),
        seat=1,
        right=("discard WF ceki",),
        wrong=(
            _w("balik.call-ceki", "discard WF tan", "tan"),
            _w("balik.call-ceki", "discard M8", "pair"),
        ),
    ),
    Lesson(
        "balik.ayam",
        teaches=("balik.shown", "balik.claim", "balik.sampei", "balik.ayam", "balik.pay"),
        hands=(CEKI14 + " C9", JUNK),
        stock="M8 C5",
        moves=("0: discard C9 ceki", "1: draw"),
        right=("sampei",),
        wrong=(_w("balik.ayam", "pass", "pass"),),
    ),
    Lesson(
        "balik.kandang",
        teaches=("balik.sampei", "balik.kandang"),
        hands=(CEKI14 + " C9", JUNK),
        stock="C4 M8 C5",
        moves=("0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw"),
        right=("sampei",),
        wrong=(_w("balik.kandang", "discard M8", "discard"),),
    ),
    Lesson(
        "balik.change-call",
        teaches=("balik.change", "balik.change-call"),
        hands=(CEKI14 + " C9", JUNK),
        stock="C4 M2 C5",
        moves=("0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw"),
        right=("discard S2 tan",),
        wrong=(_w("balik.change-call", "discard S2", "keep-ceki"),),
    ),
    Lesson(
        "balik.kandang-tangan",
        teaches=("balik.kandang-tangan",),
        hands=(TAN14 + " S8", JUNK),
        stock="C5",
        right=("sampei",),
        wrong=(_w("balik.kandang-tangan", "discard M2", "discard"),),
    ),
)


def _turned(lesson: str, card: str, teaches: tuple[str, ...]) -> Lesson:
    """A self-drawn win with no call, the winner's turned card ``card``."""
    return Lesson(
        lesson,
        teaches=teaches,
        hands=(JUNK + " M9", TAN14),
        stock=f"S8 {card}",
        moves=("0: discard M9", "1: draw"),
        seat=1,
        right=("sampei",),
        wrong=(_w(lesson, "discard S8", "discard"),),
    )


LESSONS_SATU = (
    _turned(
        "balik.turned",
        "RF",
        ("balik.turned", "balik.values", "balik.nyonya", "balik.mata-points"),
    ),
    _turned("balik.red-nine", "S9", ("balik.red-nine",)),
    _turned("balik.lau-chian", "OT", ("balik.lau-chian",)),
    _turned("balik.kena", "S7", ("balik.kena",)),
    _turned("balik.yeo", "C1", ("balik.yeo",)),
)

BALIK_SATU = Course(
    statements=CARD_STATEMENTS + PLAY_STATEMENTS + SATU_STATEMENTS,
    lessons=LESSONS_PLAY + LESSONS_SATU,
)

# -- Balik Lima Belas: Balik Satu's play, its own scoring [001] ------------------------------
LIMA_STATEMENTS = (
    Statement(
        "lima.draw",
        "001",
        "At the end of each round, instead of drawing one card as in Balik Satu, the winner "
        "draws fifteen cards from the stock.",
    ),
    Statement(
        "lima.swap",
        "001",
        "They must use these cards to try to improve their sets into mata by swapping cards "
        "of equivalent rank, as in the kena rule of Balik Satu.",
    ),
    Statement(
        "lima.score",
        "001",
        "Scoring is calculated as one point for winning plus one for each mata (so, always at "
        "least two points).",
    ),
    Statement(
        "lima.bonus",
        "001",
        "In this form of the game the red-stamped cards do not score extra, but bonuses for "
        "winning by completing a mata (ayam or kandang) still apply.",
    ),
)

LESSONS_LIMA = (
    Lesson(
        "lima.fifteen",
        teaches=("lima.draw", "lima.swap", "lima.score", "lima.bonus"),
        hands=(JUNK + " M9", TAN14),
        stock="S8 S7 C3 M6 C9 C9 C9 C5 C5 C5 C4 C4 C4 M1 M1 M1",
        moves=("0: discard M9", "1: draw"),
        seat=1,
        right=("sampei",),
        wrong=(_w("lima.fifteen", "discard S8", "discard"),),
    ),
    Lesson(
        "lima.kandang-tangan",
        teaches=("balik.kandang-tangan",),
        hands=(TAN14 + " S8", JUNK),
        right=("sampei",),
        wrong=(_w("lima.kandang-tangan", "discard M2", "discard"),),
    ),
)

BALIK_LIMA_BELAS = Course(
    statements=CARD_STATEMENTS + PLAY_STATEMENTS + LIMA_STATEMENTS,
    lessons=tuple(x for x in LESSONS_PLAY if x.id != "balik.kandang-tangan") + LESSONS_LIMA,
)
