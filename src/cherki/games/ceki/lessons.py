"""Ceki's course (issue 37): the rule statements of [003], quoted, and the lessons that teach
them (:mod:`cherki.core.lessons`); the words are the catalogues' ``learn.ceki.*`` keys."""

from __future__ import annotations

from cherki.core.lessons import Course, Lesson, Statement, WrongAnswer

__all__ = ["CEKI"]

S = "003"


def _w(lesson: str, action: str, why: str) -> WrongAnswer:
    return WrongAnswer(action, f"learn.{lesson}.why.{why}")


def _s(sid: str, quote: str) -> Statement:
    return Statement(sid, S, quote)


STATEMENTS = (
    _s(
        "ceki.deck",
        "For the game, though, two packs are required, so each single card will be repeated "
        "four times.",
    ),
    _s("cards.suits", "Each suit has nine value cards (no courts), running from 1 to 9."),
    _s(
        "cards.honours",
        'Three "special" cards (or honours) are called White Flower, Red Flower and Old Thousand.',
    ),
    _s("ceki.players", "Any number of players from 2 to 6 can take part."),
    _s(
        "ceki.dealer",
        "A dealer, randomly chosen, shuffles the pack and asks the player on his right to cut it.",
    ),
    _s(
        "ceki.no-look", "Players are not allowed to look at them until the deal has been completed."
    ),
    _s(
        "ceki.deal",
        "He then deals two cards to each of the players, in clockwise direction, repeating the "
        "operation four times for a total of eight cards.",
    ),
    _s(
        "ceki.first",
        "The undealt cards are placed in a pile, face down, in the middle of the table, and the "
        "first player (on the dealer's left) opens the game by taking his turn.",
    ),
    _s(
        "ceki.sets",
        "The aim of the game is to form three sets of three cards of the same value: for "
        "example, three 5s, three 9s and three 1s.",
    ),
    _s(
        "ceki.suits-ignored",
        "In forming sets, suits are given no consideration, so a 7 of Coins and two 7 of "
        "Myriads (as shown in the picture), would make a set of 7's.",
    ),
    _s(
        "ceki.honours-own",
        "Honour cards only form sets of the same kind (i.e. three White Flowers, three Red "
        "Flowers, three Old Thousands).",
    ),
    _s(
        "ceki.value",
        "Each set is worth the sum of the cards it is made of, so the same one shown on the "
        "right would be worth 7+7+7 = 21 points.",
    ),
    _s(
        "ceki.honour-value",
        "Honour cards are only worth 1 (each set scores 3 points), so the most cherished "
        "combinations are the ones made of three 9s, worth 27.",
    ),
    _s(
        "ceki.turn",
        "The simple principle on which sets are built is that each player, at his turn, can "
        "choose whether to draw a covered card from the pile, or to pick the last discard made "
        "by a previous player.",
    ),
    _s(
        "ceki.keep",
        "In the first case, he can decide to keep what he has found, discarding one of the "
        "cards he already holds in hand, or to discard straight away the one he has just "
        "drawn.",
    ),
    _s(
        "ceki.top",
        "All discards must be piled in a heap, close to the uncovered cards, but only the "
        "uppermost one (i.e. the last discard left on the table) can be taken by other "
        "players.",
    ),
    _s(
        "ceki.eight",
        "Therefore, at the end of his turn, each player always remains with eight cards.",
    ),
    _s("ceki.call", 'Any player who suceeds in making this arrangement, calls "ceki".'),
    _s(
        "ceki.others-call",
        "During the game, other players may call ceki, as soon as they obtain two sets and a "
        "couple.",
    ),
    _s(
        "ceki.find",
        "In taking his turns, he may find the last card by either drawing from the pile, or by "
        "picking another player's discard.",
    ),
    _s(
        "ceki.show",
        "When a player who has called ceki obtains the last card he is looking for, he turns "
        "all his cards face up, showing the three sets: he is the winner of the hand, and the "
        "only player to score points.",
    ),
    _s(
        "ceki.frozen",
        "From this moment, his only goal will be to obtain the third card which matches his "
        "couple, and he is no longer allowed to make further changes to his two full sets.",
    ),
    _s(
        "ceki.five",
        "In case any of the two sets held in hand by the player who called ceki has the same "
        "value as his couple (for example, he holds a set of 3's, a set of 9s, and has a "
        "couple of 3s), he will have to lay face down not only the couple, but all five cards "
        "of the same value, i.e. the five 3's in this example, illustrated below.",
    ),
    _s("ceki.first-wins", "The first player to complete three sets is the winner."),
    _s(
        "ceki.plain",
        "If the last card comes from the previous player's discard, it is a plain win, only "
        "scoring the total made by the sum of the three sets.",
    ),
    _s(
        "ceki.double",
        "If the player wins by using a card which the previous player had been holding in "
        "hand, it is a double win, and his total is multiplied by two.",
    ),
    _s(
        "ceki.triple",
        "If he wins with a card drawn directly from the pile, it is a triple win, and his "
        "total is multiplied by three.",
    ),
    _s(
        "ceki.settle",
        "At the end of each hand, players can settle their dues, the winner receiving from his "
        "opponents an amount of money corresponding to the points scored.",
    ),
    _s(
        "ceki.target",
        "But Ceki can also be played by agreeing a total number of points: the winner will be "
        "the player who reaches this total after a variable number of hands.",
    ),
    _s(
        "ceki.hands",
        "Lastly, a third scheme may be to play a given number of hands, and the winner is he "
        "who in the end has totalized the highest score.",
    ),
)

#: eight cards far from two sets and a couple
IDLE = "C1 C2 C3 C4 S1 S2 S3 S4"
#: two sets (7s, 9s) and the couple M5 M5: a ceki hand waiting on a 5
CALLER = "C7 M7 S7 C9 M9 S9 M5 M5"

LESSONS = (
    Lesson(
        "ceki.draw",
        teaches=(
            "ceki.deck",
            "cards.suits",
            "cards.honours",
            "ceki.players",
            "ceki.dealer",
            "ceki.no-look",
            "ceki.deal",
            "ceki.first",
        ),
        hands=("C7 M7 S5 S5 C9 M9 WF RF", IDLE),
        stock="S7",
        right=("draw",),
        wrong=(_w("ceki.draw", "take", "take"),),
    ),
    Lesson(
        "ceki.sets",
        teaches=(
            "ceki.sets",
            "ceki.suits-ignored",
            "ceki.honours-own",
            "ceki.turn",
            "ceki.keep",
            "ceki.eight",
        ),
        hands=("C7 M7 S5 S5 C9 M9 WF RF", IDLE),
        stock="S7",
        moves=("0: draw",),
        right=("discard WF", "discard RF"),
        wrong=(_w("ceki.sets", "discard S7", "drawn"), _w("ceki.sets", "discard S5", "couple")),
    ),
    Lesson(
        "ceki.call",
        teaches=("ceki.call", "ceki.others-call"),
        hands=(CALLER, IDLE),
        stock="WF",
        moves=("0: draw",),
        right=("discard WF ceki",),
        wrong=(_w("ceki.call", "discard WF", "no-call"), _w("ceki.call", "discard M5", "couple")),
    ),
    Lesson(
        "ceki.five",
        teaches=("ceki.five",),
        hands=("C3 S3 M3 C9 M9 S9 M3 S3", IDLE),
        stock="WF",
        moves=("0: draw",),
        right=("discard WF ceki",),
        wrong=(_w("ceki.five", "discard WF", "no-call"),),
    ),
    Lesson(
        "ceki.frozen",
        teaches=("ceki.frozen",),
        hands=(CALLER, IDLE),
        stock="WF C6 C1",
        moves=("0: draw", "0: discard WF ceki", "1: draw", "1: discard C6", "0: draw"),
        right=("discard C1",),
        wrong=(_w("ceki.frozen", "discard C7", "frozen"),),
    ),
    Lesson(
        "ceki.plain",
        teaches=(
            "ceki.top",
            "ceki.find",
            "ceki.first-wins",
            "ceki.plain",
            "ceki.value",
            "ceki.honour-value",
        ),
        hands=(IDLE, CALLER),
        stock="WF C8 S5",
        moves=(
            "0: draw",
            "0: discard WF",
            "1: draw",
            "1: discard C8 ceki",
            "0: draw",
            "0: discard S5",
        ),
        seat=1,
        right=("win",),
        wrong=(_w("ceki.plain", "draw", "draw"),),
    ),
    Lesson(
        "ceki.double",
        teaches=("ceki.double",),
        hands=("C1 C2 C3 C4 S1 S2 S3 S5", CALLER),
        stock="WF C8 S8",
        moves=(
            "0: draw",
            "0: discard WF",
            "1: draw",
            "1: discard C8 ceki",
            "0: draw",
            "0: discard S5",
        ),
        seat=1,
        right=("win",),
        wrong=(_w("ceki.double", "draw", "draw"),),
    ),
    Lesson(
        "ceki.triple",
        teaches=("ceki.triple", "ceki.show", "ceki.settle", "ceki.target", "ceki.hands"),
        hands=("C1 C2 C3 C4 S1 S2 S3 S6", CALLER),
        stock="WF C8 S8 S5",
        moves=(
            "0: draw",
            "0: discard WF",
            "1: draw",
            "1: discard C8 ceki",
            "0: draw",
            "0: discard S8",
            "1: draw",
        ),
        seat=1,
        right=("win",),
        wrong=(_w("ceki.triple", "discard S5", "discard"),),
    ),
)

CEKI = Course(statements=STATEMENTS, lessons=LESSONS)
