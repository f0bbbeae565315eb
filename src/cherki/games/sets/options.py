"""The rule options of the games of sets, declared once, in named groups.

Every game of sets plays on one :class:`~cherki.games.sets.rules.SetsRules`; each game
module composes, from the groups below, the tuple of options a player may change
(``Game.options``). A field of ``SetsRules`` that a game does not list is fixed by that
game's presets (Tantanan's pairs, Chot's token scoring...), and asking to change it is an
error naming the options the game has. Each option cites its source; ``ours`` marks a
reading the project chose where the sources are silent (see each rules document).
"""

from __future__ import annotations

from typing import Final

from cherki.core.options import Option
from cherki.core.sets import HONOUR_RULES
from cherki.games.sets.rules import MAX_HALF_PACKS, SHOE_TABLES
from cherki.games.sets.scoring import YEO_CARDS

#: The shoe and the deal.
SHOE: Final = (
    Option(
        "shoe_table",
        "pwee",
        "which table sizes the shoe for the number of players",
        "[000] [001] R-SHOE (Pwee, The Babas, Amaro)",
        choices=tuple(SHOE_TABLES),
        title="Shoe size table",
    ),
    Option(
        "half_packs",
        None,
        "the shoe's size in half-packs of 30 cards (auto: from the shoe table)",
        "ours",
        minimum=1,
        maximum=MAX_HALF_PACKS,
        optional=True,
        kind=int,
        title="Half-packs in the shoe",
    ),
    Option(
        "deal",
        "rounds",
        "deal in packets in turn (rounds), or let each seat take its whole hand (wash)",
        "[000] R-DEAL",
        choices=("rounds", "wash"),
        title="How the cards are dealt",
    ),
)

#: How the honours (WF, RF, OT) form sets.
HONOURS: Final = (
    Option(
        "honours",
        "rank1",
        "honours in sets: with the 1s (rank1), WF and RF with the 1s (frames), only alike (own)",
        "ours: [001] Tantanan's rule extended, after Pwee's card table (not in the sources)",
        choices=HONOUR_RULES,
        title="Honours (WF, RF, OT) in sets",
    ),
)

#: Calling, claims and what a caller may still change.
CALLING: Final = (
    Option(
        "must_call_to_win",
        False,
        "a player must have called to win",
        "ours: calling is something a player 'can' do [000] R-CALL",
        title="Must call to win",
    ),
    Option(
        "call_timing",
        "any",
        "when a call may be made: on any discard while the hand is a card from winning (any), "
        "or only on the next discard after the hand gets there (next)",
        '[000] R-CALL: "once a player has formed four sets in their hand and only needs one '
        "card to win, they can 'call' on their next discard\" (any: ours, see the rules)",
        choices=("any", "next"),
        title="When a call may be made",
    ),
    Option(
        "caller_changes",
        "mata-only",
        "what a caller may still exchange: only for a mata (mata-only), anything that still "
        "waits (free), nothing (none)",
        "[000] R-CHANGE",
        choices=("mata-only", "free", "none"),
        title="What a caller may still change",
    ),
    Option(
        "claim_priority",
        "turn-order",
        "when a shown card wins for several callers, who comes first after the drawer",
        "ours (as the next player in Mahjong)",
        choices=("turn-order", "first-caller"),
        title="Several callers win: who comes first",
    ),
)

#: A caller may win on another seat's discard (the relatives' metu).
DISCARD_WINS: Final = (
    Option(
        "discard_wins",
        False,
        "a caller may also win by claiming another seat's discard",
        "ours (Balik Satu forbids it [000] R-WIN)",
        title="Win on another's discard",
    ),
)

#: Who starts the next hand, and money.
TABLE: Final = (
    Option(
        "next_starter",
        "winner",
        "who starts the next hand: the winner, or the next seat",
        "ours",
        choices=("winner", "next"),
        title="Who starts the next hand",
    ),
    Option(
        "cents_per_point",
        10,
        "money a point is worth, in cents",
        "[000] R-PAY",
        minimum=0,
        title="Money a point (cents)",
    ),
)

#: A winning hand as dealt (kandang tangan).
KANDANG_TANGAN: Final = (
    Option(
        "kandang_tangan",
        True,
        "a winning hand as dealt wins at once (kandang tangan)",
        "[000] R-KANDANG-TANGAN",
        title="Kandang tangan: a dealt hand wins",
    ),
    Option(
        "kandang_tangan_multiplier",
        2,
        "what kandang tangan multiplies the score by",
        "[000] R-KANDANG-TANGAN",
        minimum=1,
        title="Kandang tangan multiplies the score by",
    ),
)

#: Balik Satu's and Lima Belas's scoring: the turned card, yeo, kena and the bonuses.
BALIK_SCORING: Final = (
    Option(
        "kena",
        True,
        "the turned card may replace a same-rank card to make a mata (kena)",
        "[001] citing The Babas p.162, R-KENA",
        title="Kena: the turned card makes a mata",
    ),
    Option(
        "yeo_redeal",
        True,
        "a yeo turned card voids the win and the hand is dealt again",
        "[000] R-YEO ('a common rule')",
        title="Yeo voids the win, deal again",
    ),
    Option(
        "yeo_cards",
        "one-point",
        "which turned cards are yeo",
        "ours, after [000] R-YEO",
        choices=tuple(YEO_CARDS),
        title="Which turned cards are yeo",
    ),
    Option(
        "ayam_bonus",
        10,
        "bonus for a ceki win on another's draw (ayam)",
        "[000] R-BONUS",
        minimum=0,
        title="Ayam bonus: ceki on another's draw",
    ),
    Option(
        "kandang_bonus",
        20,
        "bonus for a ceki win on one's own draw (kandang)",
        "[000] R-BONUS",
        minimum=0,
        title="Kandang bonus: ceki on one's own draw",
    ),
    Option(
        "tan_bonus",
        1,
        "points for winning after calling tan",
        "[000] footnote, R-TAN-BONUS",
        minimum=0,
        title="Points for a win after tan",
    ),
)

#: The Javanese scoring methods and their stakes (Gonggong, Tantanan, Cekèn).
JAVANESE_METHODS: Final = (
    "toh-bayaran",
    "toh-bayaran-14",
    "bak-bakan",
    "undhuh-undhuhan",
    "umbuk",
    "ceken",
)

JAVANESE: Final = (
    Option(
        "scoring",
        "toh-bayaran",
        "how a win is paid: toh bayaran (and with 14 cards), bak-bakan, the pots "
        "undhuh-undhuhan and umbuk, ceken side bets",
        "[001] citing Javaanse Kaartspelen p.94-98",
        choices=JAVANESE_METHODS,
        title="How a win is paid",
    ),
    Option(
        "stake",
        10,
        "each seat's stake into an empty pot (pot methods), or a side bet (ceken)",
        "[001]",
        minimum=0,
        title="Stake",
    ),
    Option(
        "ceken_bets",
        "",
        "ceken side bets SEAT-SEAT:AMOUNT, comma-separated (empty: every pair at the stake)",
        "[001] citing Javaanse Kaartspelen p.98",
        kind=str,
        title="Ceken side bets",
    ),
    Option(
        "bak_bakan_turn",
        True,
        "bak-bakan also turns a card, as toh bayaran's step 3",
        "ours ([001] says bak-bakan is paid 'as toh bayaran')",
        title="Bak-bakan turns a card too",
    ),
    Option(
        "toh_step4",
        "restates",
        "toh bayaran's step 4, 'These cards are worth 10 points each': a restatement of step "
        "3's values (restates), or 10 more for each RF, OT and M1 in the winning hand (in-hand)",
        "[001] step 4 of toh bayaran; both readings are ours",
        choices=("restates", "in-hand"),
        title="Toh bayaran's step 4",
    ),
    Option(
        "starter_extra",
        False,
        "the starter is dealt one card more and opens by discarding",
        "ours ([001] deals every seat alike)",
        title="The starter gets one card more",
    ),
)

#: Chaqui's olo and chiqui.
CHAQUI: Final = (
    Option(
        "olo_points", 5, "points an olo scores", "[001] C-SCORING", minimum=0, title="Points an olo"
    ),
    Option(
        "chiqui",
        True,
        "a hand may go out on a chiqui (an identical pair in a set) and turn fifteen",
        "[001] C-CHIQUI",
        title="Chiqui go-out",
    ),
    Option(
        "chiqui_fail",
        "void",
        "a chiqui go-out that turns up no olo: the hand ends with no winner (void, as the "
        "source reads), or the player pays one olo to each other player (pays: a house rule)",
        "[001] C-CHIQUI states no penalty; pays is a house rule after the song it quotes",
        choices=("void", "pays"),
        house=True,
        title="A chiqui go-out without an olo",
    ),
    Option(
        "chiqui_turn",
        "any",
        "which go-outs holding a chiqui turn fifteen: any (an olo already held included, "
        "as the source reads) or no-olo (only a hand without an olo)",
        "[001] C-CHIQUI puts no condition on the turn; no-olo is the narrower reading",
        choices=("any", "no-olo"),
        title="Which chiqui go-outs turn fifteen",
    ),
    Option(
        "expose_olo",
        True,
        "an olo completed from another's discard is laid face up",
        "[001] C-EXPOSE",
        title="Olo from a discard laid face up",
    ),
)

#: Chot's partnerships, tokens and bangkong.
CHOT: Final = (
    Option(
        "partnerships",
        True,
        "partners sit opposite and score together",
        "[001] citing Pwee p.127",
        title="Partners opposite",
    ),
    Option(
        "ceki_tokens",
        10,
        "a ceki win is paid in tokens of this many points",
        "[001] K-SCORE",
        minimum=1,
        title="Tokens a ceki win",
    ),
    Option(
        "bangkong_points",
        20,
        "a bangkong is completed when a player's tokens reach this",
        "[001] K-BANGKONG",
        minimum=1,
        title="Points to a bangkong",
    ),
    Option(
        "bangkong_count",
        3,
        "the match ends after this many bangkong",
        "[001] K-BANGKONG",
        minimum=1,
        title="Bangkong to end the match",
    ),
    Option(
        "cents_per_bangkong",
        2000,
        "money a bangkong won is worth, in cents",
        "[001] K-SETTLE",
        minimum=0,
        title="Money a bangkong (cents)",
    ),
    Option(
        "cents_per_excess",
        10,
        "money an excess point is worth, in cents",
        "[001] K-SETTLE",
        minimum=0,
        title="Money an excess point (cents)",
    ),
)

#: Balik Satu and Balik Lima Belas.
BALIK_OPTIONS: Final = SHOE + HONOURS + CALLING + TABLE + KANDANG_TANGAN + BALIK_SCORING
#: Gonggong (honours are a choice there).
GONGGONG_OPTIONS: Final = (
    SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + JAVANESE
)
#: Tantanan and Cekèn: honours rank 1 is the source's rule [001], not a choice.
TANTANAN_OPTIONS: Final = SHOE + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + JAVANESE
#: Chaqui.
CHAQUI_OPTIONS: Final = SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + CHAQUI
#: Chot: money is settled by the bangkong, not by the point.
CHOT_OPTIONS: Final = SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE[:1] + KANDANG_TANGAN + CHOT

#: Every option of the family (for checking a ``SetsRules`` made by hand).
ALL_OPTIONS: Final = tuple(
    {o.name: o for o in BALIK_OPTIONS + GONGGONG_OPTIONS + CHAQUI_OPTIONS + CHOT_OPTIONS}.values()
)
