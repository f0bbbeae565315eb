"""The courses of the games of sets (issue 37, *Learn*): each game's rule statements, quoted
from its sources, and the lessons that teach them (:mod:`cherki.core.lessons`). A lesson is a
stacked deal and the actions that reach its position; its words are the catalogues'
``learn.<lesson>.*`` keys (``cherki/i18n/learn/``)."""

from __future__ import annotations

from cherki.core.lessons import Course, Lesson, Statement, WrongAnswer

__all__ = ["BALIK_LIMA_BELAS", "BALIK_SATU", "CEKEN", "CHAQUI", "CHOT", "GONGGONG", "TANTANAN"]


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
        "balik.players",
        "001",
        "Balik Satu can be played by almost any number of people as long as you have enough cards.",
    ),
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
        "balik.changed-not-ceki",
        "001",
        "If the winner initially called ‘ceki’ and later changed their call to ‘tan’, it does "
        "not count as calling ceki.",
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
    Statement("balik.rate", "001", "this is done by paying 10¢ per point."),
    Statement(
        "balik.tan-point",
        "001",
        "The rules given in Pwee (2003) also award 1 point for winning after calling tan, but "
        "this seems superfluous as the winner will always win at least 1 point for their mata.",
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
        teaches=("balik.players", "balik.deal", "balik.stock", "balik.wash", "balik.first-discard"),
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
        teaches=("balik.change", "balik.change-call", "balik.changed-not-ceki"),
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
        ("balik.turned", "balik.values", "balik.nyonya", "balik.mata-points", "balik.rate"),
    ),
    Lesson(
        "balik.tan-win",
        teaches=("balik.tan-point",),
        hands=(TAN14 + " C9", JUNK),
        stock="C4 S8 C5",
        moves=("0: discard C9 tan", "1: draw", "1: discard C4", "0: draw"),
        right=("sampei",),
        wrong=(_w("balik.tan-win", "discard S8", "discard"),),
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


# -- the relatives: each game's own section of [001] ----------------------------------------
def _st(sid: str, quote: str) -> Statement:
    return Statement(sid, "001", quote)


#: idle hands of 14 for the other seats of a table of four
IDLE = (
    "C1 S1 C2 S2 C3 S3 C4 S4 C5 S5 C6 C7 C9 M9",
    "M1 S1 M2 S2 M3 S3 M4 S4 M5 S5 M6 M7 C9 M9",
    "C1 M1 C2 M2 C4 M3 C4 M4 C5 M5 C6 C7 S9 S6",
)
#: four sets with the bak M2 M2 M2, waiting on any 8 once WF goes (kowah / tan)
KOWAH14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 C7 S7 M7 C8 WF"
#: four sets, no bak, the pair M8 M8 to make one once WF goes (nocog / ceki)
NOCOG14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 WF"
#: seat 0 draws M8 and calls; the others draw and discard; seat 0 draws its S8
ROUND = ("1: draw", "1: discard S1", "2: draw", "2: discard M1", "3: draw", "3: discard C1")


def _gong(lesson: str, teaches: tuple[str, ...], scoring: str, rabas: bool) -> Lesson:
    """A Gonggong win after calling kowah: rabas (self-drawn) or metu (another's draw)."""
    call = ("0: draw", "0: discard WF kowah")
    moves: tuple[str, ...]
    if rabas:
        moves, stock, wrong = (*call, *ROUND, "0: draw"), "M8 S1 M1 C1 S8 RF", "discard S8"
    else:
        moves, stock, wrong = (*call, "1: draw"), "M8 S8 RF", "pass"
    return Lesson(
        lesson,
        teaches=teaches,
        hands=(KOWAH14, *IDLE),
        stock=stock,
        moves=moves,
        right=("sampei",),
        wrong=(_w(lesson, wrong, "discard" if rabas else "pass"),),
        options={"scoring": scoring},
    )


GONGGONG_STATEMENTS = (
    _st(
        "gong.shoe",
        "It is played with six sets of cards (180 cards) for four players, or eight sets (240 "
        "cards) for six players.",
    ),
    _st("gong.play", "Deal 14 cards each and play as with Balik Satu."),
    _st(
        "gong.bak", "In order to win, again at least one triplet (called a bak) must be completed."
    ),
    _st(
        "gong.nocog",
        "Waiting for a specific card to win (to complete a bak) is called ceki nocog, and is "
        "announced by placing one coin on the table.",
    ),
    _st(
        "gong.kowah",
        "Waiting for any card of a particular rank is called ceki kowah and is announced by "
        "placing two coins on top of each other.",
    ),
    _st("gong.rabas", "A self-drawn win is called rabas ‘clear’."),
    _st("gong.metu", "A win by the opponents’ card is called metu (formal medal) ‘came out’."),
    _st(
        "gong.pickings",
        "At the beginning of the game a pot is formed with a stake from each player. If a "
        "player wins with metu, they win one stake from it. If a player wins with rabas, they "
        "win the entire remaining pot.",
    ),
    _st(
        "gong.toh1",
        "1 for metu; 2 for metu with a red card, or rabas; or 3 for rabas with a red card,",
    ),
    _st("gong.toh2", "an additional 1 for each bak or 2 for each red bak in their hand,"),
    _st(
        "gong.toh3",
        "and then turn over the top card and add its points. Nyonya/Lau Chian/1 Myriads score "
        "10 points, everything else according to rank (White Flower scores 1).",
    ),
    _st("gong.toh4", "These cards are worth 10 points each."),
    _st(
        "gong.alt",
        "The winner’s score is calculated according to steps 1 & 2 in toh bayaran but instead "
        "of step 3, they draw 14 cards from the stock. They combine these 14 with the 14 cards "
        "from their hand (excluding the winning card) and try to form bak from these cards. "
        "For each bak they can form, they add 1 point, or 2 for a red bak.",
    ),
    _st("gong.pay", "In the 1940s the toh bayaran methods were paid out at 2¢"),
    _st(
        "gong.bak-bakan",
        "This is payment according to the number of bak, i.e. the same as toh bayaran.",
    ),
    _st(
        "gong.umbuk",
        "A pot is formed with a stake from each player. If a player wins with metu, they win "
        "half the pot. If a player wins with rabas, they win the entire pot.",
    ),
    _st(
        "gong.ceken",
        "Ad-hoc bets are made between the players, whoever wins receives the staked amount "
        "from the others.",
    ),
)

GONGGONG = Course(
    statements=GONGGONG_STATEMENTS,
    lessons=(
        Lesson(
            "gong.play",
            teaches=("gong.shoe", "gong.play"),
            hands=(KOWAH14, *IDLE),
            stock="M8",
            right=("draw",),
            wrong=(_w("gong.play", "take", "take"),),
        ),
        Lesson(
            "gong.kowah",
            teaches=("gong.bak", "gong.kowah"),
            hands=(KOWAH14, *IDLE),
            stock="M8",
            moves=("0: draw",),
            right=("discard WF kowah",),
            wrong=(
                _w("gong.kowah", "discard WF nocog", "nocog"),
                _w("gong.kowah", "discard WF", "no-call"),
            ),
        ),
        Lesson(
            "gong.nocog",
            teaches=("gong.nocog",),
            hands=(NOCOG14, *IDLE),
            stock="M8",
            moves=("0: draw",),
            right=("discard WF nocog",),
            wrong=(_w("gong.nocog", "discard WF kowah", "kowah"),),
        ),
        _gong(
            "gong.rabas",
            ("gong.rabas", "gong.toh1", "gong.toh2", "gong.toh3", "gong.toh4", "gong.pay"),
            "toh-bayaran",
            rabas=True,
        ),
        _gong("gong.metu", ("gong.metu",), "toh-bayaran", rabas=False),
        _gong("gong.pickings", ("gong.pickings",), "undhuh-undhuhan", rabas=False),
        _gong("gong.umbuk", ("gong.umbuk",), "umbuk", rabas=False),
        _gong("gong.alt", ("gong.alt",), "toh-bayaran-14", rabas=True),
        _gong("gong.bak-bakan", ("gong.bak-bakan",), "bak-bakan", rabas=True),
        _gong("gong.ceken", ("gong.ceken",), "ceken", rabas=True),
    ),
)

# -- Tantanan and Cekèn: pairs ----------------------------------------------------------------
TANTANAN_STATEMENTS = (
    _st("tan.cards", "The game is played by four people with one full set of 60 cards."),
    _st("tan.deal", "Each player is dealt five cards."),
    _st(
        "tan.win",
        "In this reduced game, a player must form three pairs to win, and one pair must be "
        "identical (a bak).",
    ),
    _st(
        "tan.honours",
        "All honour cards are considered to be rank 1, so can be paired with other rank-1 cards.",
    ),
    _st("tan.tan", "Waiting for a one card to win is called tan, as in Balik Satu."),
    _st(
        "tan.nokang",
        "Waiting for a identical card is called tan nokang, waiting for any card of the same "
        "rank is called tan kowah.",
    ),
    _st(
        "tan.scoring", "Scoring is performed the same as the toh bayaran method of Gonggong, above."
    ),
)
CEKEN_STATEMENT = _st(
    "tan.ceken",
    "In Yogyakarta this game was played with three people and known as Cekèn or Sampèn.",
)

#: idle hands of five
IDLE5 = ("C1 S2 C4 S6 M9", "M1 C2 S4 M6 C9", "S1 M2 M4 C6 S9")


def _pairs(players: int, ceken: bool) -> tuple[Lesson, ...]:
    """Tantanan's lessons at a table of ``players`` (Cekèn: three)."""
    idle = IDLE5[: players - 1]
    first = ("tan.cards", "tan.deal", "tan.ceken") if ceken else ("tan.cards", "tan.deal")
    p = "tan"  # Cekèn's lessons are Tantanan's, worded once
    return (
        Lesson(
            f"{p}.deal",
            teaches=first,
            hands=("C3 C3 S5 M5 C7", *idle),
            stock="M9",
            right=("draw",),
            wrong=(_w(f"{p}.deal", "take", "take"),),
        ),
        Lesson(
            f"{p}.kowah",
            teaches=("tan.win", "tan.tan", "tan.nokang"),
            hands=("C3 C3 S5 M5 C7", *idle),
            stock="M8",
            moves=("0: draw",),
            right=("discard M8 kowah", "discard C7 kowah"),
            wrong=(
                _w(f"{p}.kowah", "discard M8 nokang", "nokang"),
                _w(f"{p}.kowah", "discard C3", "bak"),
            ),
        ),
        Lesson(
            f"{p}.nokang",
            teaches=("tan.nokang",),
            hands=("S3 C3 S5 M5 M8", *idle),
            stock="M7",
            moves=("0: draw",),
            right=("discard M7 nokang", "discard M8 nokang"),
            wrong=(_w(f"{p}.nokang", "discard M7 kowah", "kowah"),),
        ),
        Lesson(
            f"{p}.honours",
            teaches=("tan.honours", "tan.scoring"),
            hands=("C3 C3 S5 M5 C1", *idle),
            stock="WF RF",
            moves=("0: draw",),
            right=("sampei",),
            wrong=(_w(f"{p}.honours", "discard WF", "discard"),),
        ),
    )


TANTANAN = Course(statements=TANTANAN_STATEMENTS, lessons=_pairs(4, ceken=False))
CEKEN = Course(statements=(*TANTANAN_STATEMENTS, CEKEN_STATEMENT), lessons=_pairs(3, ceken=True))

# -- Chaqui -----------------------------------------------------------------------------------
CHAQUI = Course(
    statements=(
        _st(
            "chaqui.name",
            "Amongst the Kristang (Christão), the game was known as Chaqui, Chiqui, or Chekki.",
        ),
        _st("chaqui.olo", "A set of three identical cards is called a olo (‘eye’)."),
        _st(
            "chaqui.expose",
            "If an olo is completed by drawing another player’s discard, then it must be exposed.",
        ),
        _st(
            "chaqui.scoring",
            "The game is played as above, except that scoring is a fixed amount per olo, for "
            "example five points.",
        ),
        _st(
            "chaqui.chiqui",
            "If a player completes their hand via chiqui, an identical pair, they may turn "
            "over the next 15 cards of the stock to try to turn the chiqui into an olo.",
        ),
    ),
    lessons=(
        Lesson(
            "chaqui.expose",
            teaches=("chaqui.name", "chaqui.olo", "chaqui.expose"),
            hands=(JUNK + " M9", "M2 M2 S2 C3 S3 M3 C6 S6 M6 C7 C7 C8 S9 WF"),
            moves=("0: discard C7",),
            seat=1,
            right=("take",),
            wrong=(_w("chaqui.expose", "draw", "draw"),),
        ),
        Lesson(
            "chaqui.olo",
            teaches=("chaqui.scoring",),
            hands=(JUNK + " M9", TAN14),
            stock="S8",
            moves=("0: discard M9", "1: draw"),
            seat=1,
            right=("sampei",),
            wrong=(_w("chaqui.olo", "discard S8", "discard"),),
        ),
        Lesson(
            "chaqui.chiqui",
            teaches=("chaqui.chiqui",),
            hands=(JUNK + " M9", "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"),
            stock="S8 C9 M2",
            moves=("0: discard M9", "1: draw"),
            seat=1,
            right=("sampei",),
            wrong=(_w("chaqui.chiqui", "discard S8", "discard"),),
        ),
    ),
)

# -- Chot ---------------------------------------------------------------------------------------
CHOT = Course(
    statements=(
        _st(
            "chot.table",
            "Chot or Kiong is a version played with four players in partnerships, with partners "
            "sitting opposite each other. Three decks of cards are used (180 cards).",
        ),
        _st(
            "chot.tokens",
            "The smaller (or white) tokens count as one point and the larger (or black) as ten "
            "points.",
        ),
        _st("chot.scored", "The game is played and scored as in Balik Lima Belas."),
        _st(
            "chot.take",
            "Players take one token for each point scored, and if a player wins by completing a "
            "mata (ayam or kandang) then they take 10-point tokens instead of single-point "
            "tokens.",
        ),
        _st("chot.separate", "Players keep their seeds separate until one bangkong is completed."),
        _st(
            "chot.bangkong",
            "Once any player has obtained twenty points (called a bangkong, ‘large frog’?), the "
            "partnerships pool their tokens.",
        ),
        _st(
            "chot.side",
            "The side with the larger number of points wins the bangkong and records this "
            "number. The number of excess points above the other team they have is also "
            "recorded. All tokens are then returned to the pool.",
        ),
        _st(
            "chot.settle",
            "Once a fixed number of bangkong have been completed, the overall scores are "
            "tallied. The partnership with fewer bangkong pays the team with more for the "
            "difference between their totals (e.g. $20 per bangkong). The partnership with "
            "fewer ‘excess points’ also pays for the difference (e.g. 10¢ per point).",
        ),
    ),
    lessons=(
        Lesson(
            "chot.tokens",
            teaches=("chot.table", "chot.tokens", "chot.scored", "chot.take"),
            hands=(TAN14 + " C9", *IDLE),
            stock="S1 M1 C1 S8",
            moves=("0: discard C9 tan", *ROUND, "0: draw"),
            right=("sampei",),
            wrong=(_w("chot.tokens", "discard S8", "discard"),),
        ),
        Lesson(
            "chot.ceki",
            teaches=("chot.take",),
            hands=(CEKI14 + " C9", *IDLE),
            stock="S1 M1 C1 M8",
            moves=("0: discard C9 ceki", *ROUND, "0: draw"),
            right=("sampei",),
            wrong=(_w("chot.ceki", "discard M8", "discard"),),
        ),
        Lesson(
            "chot.bangkong",
            teaches=("chot.separate", "chot.bangkong", "chot.side", "chot.settle"),
            hands=(CEKI14 + " C9", *IDLE),
            stock="M8",
            moves=("0: discard C9 ceki", "1: draw"),
            right=("sampei",),
            wrong=(_w("chot.bangkong", "pass", "pass"),),
        ),
    ),
)
