"""The sources a report cites, and what their rule identifiers stand for (issue 40).

Every rule row of a report ends with its source: ``[000] R-PAY``, ``[001] citing Javaanse
Kaartspelen p.94-98``, ``ours``. This module says what ``[000]``–``[003]`` are (title,
author, year, where to find them) and what each identifier refers to: a section of that
source and what it says there. A report prints both below the rules (``cherki simulate
--report``), and ``docs/research.md`` has the same list. The identifiers are ours: labels
of the passages the code and the rules pages cite; the same label may name passages of two
sources (``[000] R-PAY`` is Balik Satu's payment, ``[002] R-PAY`` Cholek Tiga's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["IDENTIFIERS", "SOURCES", "Source", "cited", "explain"]


@dataclass(frozen=True)
class Source:
    """One source: its number, title, author, year and where to find it."""

    key: str
    title: str
    author: str
    year: str
    where: str


SOURCES: tuple[Source, ...] = (
    Source(
        "000",
        "Balik Satu (with Balik Lima Belas): a web article, Markdown source",
        "not named in the text; it draws on Pwee, 'Chiki Cards' (2003, p.122), with "
        "additions from 'The Babas' (p.155) and 'Gateway to Old School Games' (Asiapac)",
        "after 2003 (its sources); the file carries no date",
        "cherki's copy: shared/sources/000_4a123d847e7e4436.txt (sections Equipment, Play, "
        "Scoring, Balik Lima Belas); money in Singapore cents",
    ),
    Source(
        "001",
        "Balik Satu, with Chaqui, Balik Lima Belas, Chot, Gonggong, Tantanan and Cekèn: the "
        "same web article, a later rendered version",
        "not named in the text; it cites Pwee (2003), The Babas, Amaro (1993), Gateway to Old "
        "School Games, the Journal of the International Playing-Card Society (vol. 22 (2) and "
        "32 (3)) and 'Javaanse Kaartspelen' (Verhandelingen van het Koninklijk Bataviaasch "
        "Genootschap vol. 75, A. C. Nix & Co., Bandung)",
        "after 2003; Gonggong and Tantanan as recorded in Java in the 1940s",
        "cherki's copy: shared/sources/001_848bc251e0992f3b.txt (sections Equipment, Play, "
        "Scoring, Chaqui, Balik Lima Belas, Chot, Similar games: Gonggong, Tantanan); money "
        "in Singapore cents, Gonggong's 2¢ in cents of the Netherlands-Indies gulden (1940s)",
    ),
    Source(
        "002",
        "Cholek Tiga: a web article, Markdown source",
        "not named in the text; based on Pwee, 'Chiki Cards' (pp.125-7)",
        "created 2024-12-22, modified 2025-01-22 (the file's dates)",
        "cherki's copy: shared/sources/002_328af3bada55227b.txt (sections Equipment, Play, "
        "Scoring, In-play bonuses); money in Singapore cents and dollars",
    ),
    Source(
        "003",
        "Ceki (or Kowah): a traditional game for 2-6 players, a web page",
        "not named in the text (a playing-card site with a Chinese gallery and a "
        "multi-language glossary)",
        "the file carries no date",
        "cherki's copy: shared/sources/003_d2bfcc59e0e90443.txt (sections Composition of "
        "the deck, The opening deal, Rules of the game, The end of the game); names no "
        "money rate",
    ),
)

#: (source, identifier) -> (the source's section, what it says there)
IDENTIFIERS: dict[tuple[str, str], tuple[str, str]] = {
    ("000", "R-SHOE"): ("Equipment", "the table of packs for each number of players"),
    ("001", "R-SHOE"): ("Equipment", "the packs for each number of players: Pwee, The Babas, "
                        "Amaro (1993)"),
    ("000", "R-DEAL"): ("Play", "\"Deal 7 cards to each player, an additional card to the "
                        "first player, and then a second round of 7\"; or wash-shuffle"),
    ("000", "R-TURN"): ("Play", "a turn: take the last discard or the stock's top, discard"),
    ("000", "R-WIN"): ("Play", "five sets of three, at least one mata; the winning card"),
    ("000", "R-MATA"): ("Play", "a mata: three identical cards"),
    ("000", "R-CALL"): ("Play", "\"once a player has formed four sets … they can 'call' on "
                        "their next discard\": tan and ceki"),
    ("000", "R-CLAIM"): ("Play", "draws shown once anyone has called; sampei"),
    ("000", "R-CHANGE"): ("Play", "a caller changing a set into a mata, and the call"),
    ("000", "R-KANDANG-TANGAN"): ("Scoring", "a hand that wins as dealt (kandang tangan), "
                                  "its score doubled"),
    ("000", "R-TURNED"): ("Scoring", "the turned card's points by rank"),
    ("000", "R-YEO"): ("Scoring", "\"a common rule\": a yeo turned card voids the win"),
    ("000", "R-BONUS"): ("Scoring", "the ayam and kandang bonuses"),
    ("000", "R-TAN-BONUS"): ("Scoring", "a footnote: a point for winning after calling tan"),
    ("000", "R-KENA"): ("Scoring", "the turned card completing a mata (kena)"),
    ("000", "R-PAY"): ("Scoring", "each player pays the winner the total: 10¢ a point in "
                       "Singapore (5¢ in the 1970s)"),
    ("001", "R-KENA"): ("Scoring", "kena, citing The Babas p.162"),
    ("001", "R-LIMA-BELAS"): ("Balik Lima Belas", "the fifteen-card scoring draw"),
    ("001", "C-CHIQUI"): ("Chaqui", "the chiqui and what it turns"),
    ("001", "C-EXPOSE"): ("Chaqui", "exposing the hand"),
    ("001", "C-SCORING"): ("Chaqui", "Chaqui's scoring"),
    ("001", "C-OLO"): ("Chaqui", "the olo"),
    ("001", "C-NAME"): ("Chaqui", "the game's names"),
    ("001", "K-BANGKONG"): ("Chot", "the bangkong"),
    ("001", "K-SCORE"): ("Chot", "Chot's scoring"),
    ("001", "K-SETTLE"): ("Chot", "settling the bangkong: $20 a bangkong, 10¢ a point over"),
    ("001", "K-TOKENS"): ("Chot", "the tokens"),
    ("001", "K-TABLE"): ("Chot", "the partnerships at the table"),
    ("001", "G-SCORING"): ("Similar games: Gonggong", "undhuh-undhuhan, toh bayaran, "
                           "bak-bakan, umbuk, ceken"),
    ("001", "G-PAY"): ("Similar games: Gonggong", "\"In the 1940s the toh bayaran methods were "
                       "paid out at 2¢ per point\": cents of the Netherlands-Indies gulden"),
    ("001", "G-WIN"): ("Similar games: Gonggong", "at least one bak to win"),
    ("001", "G-SHOE"): ("Similar games: Gonggong", "six sets for four players, eight for six"),
    ("001", "G-DEAL"): ("Similar games: Gonggong", "deal 14 each, play as Balik Satu"),
    ("001", "G-CALL"): ("Similar games: Gonggong", "ceki nocog and ceki kowah"),
    ("001", "G-RABAS-METU"): ("Similar games: Gonggong", "rabas (self-drawn) and metu"),
    ("001", "T-SCORING"): ("Similar games: Tantanan", "scored as Gonggong's toh bayaran"),
    ("001", "T-WIN"): ("Similar games: Tantanan", "three pairs, one identical (a bak)"),
    ("001", "T-SHOE"): ("Similar games: Tantanan", "one full set of 60 cards"),
    ("001", "T-DEAL"): ("Similar games: Tantanan", "five cards each"),
    ("001", "T-CALL"): ("Similar games: Tantanan", "tan, tan nokang, tan kowah"),
    ("001", "T-CEKEN"): ("Similar games: Tantanan", "Cekèn or Sampèn: three players"),
    ("002", "R-SHOE"): ("Equipment", "two decks, 120 cards"),
    ("002", "R-TURN"): ("Play", "discard to the pool, turn up a stock card; capturing"),
    ("002", "R-CAPTURE"): ("Play", "a card capturing two of its rank"),
    ("002", "R-REDRAW"): ("Play", "drawing again"),
    ("002", "R-NEXT"): ("Play", "who plays next"),
    ("002", "R-END"): ("Play", "the end of the hand"),
    ("002", "R-PAY"): ("Scoring", "points settled at 10¢ a point (Singapore)"),
    ("002", "R-ANGPOW"): ("In-play bonuses", "the ang pow and bonuses paid in money"),
    ("003", "R-FIRST"): ("The opening deal", "the dealer and the first player"),
    ("003", "R-TURN"): ("Rules of the game", "a turn: take or draw, discard"),
    ("003", "R-CALL"): ("Rules of the game", "calling ceki, the couple laid face down"),
    ("003", "R-SETS"): ("Rules of the game", "three sets of three"),
    ("003", "R-FIVE"): ("The end of the game", "the points of the sets"),
    ("003", "R-VALUE"): ("The end of the game", "the cards' values"),
    ("003", "R-MULT"): ("The end of the game", "plain, double and triple wins"),
    ("003", "R-SCORE"): ("The end of the game", "the winner's total"),
    ("003", "R-SETTLE"): ("The end of the game", "\"by agreeing a total number of points\" or "
                          "\"a given number of hands\""),
}  # fmt: skip

#: what each prefix of an identifier means, for one the table above lacks
PREFIXES = {
    "R": "a rule of the source's main game",
    "C": "Chaqui",
    "G": "Gonggong",
    "K": "Chot (kiong)",
    "T": "Tantanan and Cekèn",
}


def cited(texts: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The sources (``"000"``…) and the (source, identifier) pairs the ``texts`` cite, each
    once, in order."""
    keys: dict[str, None] = {}
    ids: dict[tuple[str, str], None] = {}
    for text in texts:
        last = None
        for m in re.finditer(r"\[(\d{3})\]|\[(\d{3}),|\b([A-Z]{1,2}-[A-Z][A-Z0-9-]*)\b", text):
            key = m.group(1) or m.group(2)
            if key:
                keys[key] = None
                last = key
            elif last is not None:
                ids[(last, m.group(3))] = None
    return list(keys), list(ids)


def explain(source: str, ident: str) -> str:
    """What ``[source] ident`` refers to: the section and what it says there."""
    known = IDENTIFIERS.get((source, ident))
    if known is not None:
        return f'[{source}] section "{known[0]}": {known[1]}'
    prefix = PREFIXES.get(ident.split("-", 1)[0], "a passage")
    return f"[{source}]: {prefix}, {ident.split('-', 1)[1].lower().replace('-', ' ')}"
