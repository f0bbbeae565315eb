"""Tantanan, and its three-player form Cekèn (Sampèn).

The rules ([001], the section "Tantanan", citing Javaanse Kaartspelen p.97-8: Surakarta in
the 1940s)
------------------------------------------------------------------------------------------
* Four players, one full set of 60 cards; five cards each. A faster game than Balik Satu.
  [T-SHOE, T-DEAL]
* To win, three pairs, one of them identical (a *bak*). All honours count as rank 1, so they
  pair with the other rank-1 cards. [T-WIN]
* Waiting for one card to win is *tan*, as in Balik Satu; waiting for an identical card is
  *tan nokang*, for any card of the same rank *tan kowah*. [T-CALL]
* Scoring as Gonggong's toh bayaran. [T-SCORING]
* In Yogyakarta the game was played by three and called Cekèn or Sampèn ([001] citing
  Javaanse Kaartspelen p.98). [T-CEKEN]

Our specifications (options of :class:`~cherki.games.sets.gonggong.GonggongRules`)
---------------------------------------------------------------------------------
* Sets are pairs: ``set_size=2``, ``sets=3``; a hand holds five cards between turns and six
  when complete. ``honours=rank1`` is the source's rule, not a choice.
* ``starter_extra`` off: everyone is dealt five and the starter opens by drawing (as in
  Gonggong; on, the starter is dealt six and opens by discarding).
* Play is Balik Satu's: take the last discard or draw, then discard; the winning card comes
  from the stock (``discard_wins`` off); once someone has called, draws are shown and a
  caller may claim a shown winning card (a metu).
* The calls: *tan kowah* is Balik's tan (a bak already held; any card of the open rank
  wins), *tan nokang* Balik's ceki (no bak yet; the card identical to the lone card wins).
  Notation ``discard C3 kowah``, ``discard C3 nokang``. The source's plain "tan" (waiting for
  one card) is the general word for both.
* Toh bayaran as in Gonggong (:mod:`cherki.games.sets.gonggong`): metu / rabas 1-3, 1 a bak
  (2 a red bak: S9 S9, RF RF, OT OT), a turned card (RF, OT, M1 10), 2¢ a point. No yeo,
  no kena, no kandang tangan, no calling bonus.
* Cekèn: three players, the same pack and rules (the source gives no other difference).
* The public view (what anyone watching sees), in both: Balik Satu's
  (:mod:`cherki.games.sets.balik`): the discards, the calls (kowah or nokang), hand sizes,
  taken discards and draws shown while a call stands; never a hand's other cards, the
  stock's order or a draw while no call stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

from cherki.core.lessons import Course
from cherki.core.options import Option, Preset, Value, restate
from cherki.games.sets.game import NO_BALIK_SCORING, SetsGame
from cherki.games.sets.gonggong import JAVANESE, GonggongRules
from cherki.games.sets.lessons import CEKEN, TANTANAN
from cherki.games.sets.options import (
    CALLING,
    DISCARD_WINS,
    KANDANG_TANGAN,
    SHOE,
    STARTER_EXTRA,
    TABLE,
)
from cherki.games.sets.present import BakView, SetsView
from cherki.games.sets.rules import SetsRules

#: Tantanan and Cekèn: honours rank 1 is the source's rule [001], not a choice; the scoring
#: and stakes are Gonggong's ([001] T-SCORING: "scoring as Gonggong's toh bayaran").
TANTANAN_OPTIONS: Final = restate(
    SHOE + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + JAVANESE + STARTER_EXTRA,
    "cents_per_point",
    "[001] T-SCORING, scored as Gonggong: G-PAY (Netherlands-Indies cents, the 1940s' 2¢)",
)

#: Tantanan's own rules [001 citing Javaanse Kaartspelen p.97-8]: one pack, pairs, three of
#: them; Gonggong's Javanese scoring and stakes (toh bayaran, 2¢ a point), written out here
#: so that a change to Gonggong's presets never changes Tantanan's.
TANTANAN_RULES: Final = GonggongRules(
    scoring="toh-bayaran",
    shoe_table="tantanan",
    set_size=2,
    sets=3,
    honours="rank1",
    starter_extra=False,
    kandang_tangan=False,
    cents_per_point=2,
)


def _preset(
    name: str, desc: str, aliases: tuple[str, ...] = (), *, title: str, **kw: Value
) -> Preset:
    rules = TANTANAN_RULES.with_fields(**kw)
    return Preset(
        name, rules, desc, "[001] citing Javaanse Kaartspelen p.97-8", aliases, title=title
    )


TANTANAN_PRESETS: Final = (
    _preset(
        "surakarta",
        "Surakarta: one pack, five cards each, three pairs with a bak, toh bayaran, 2¢ a point",
        ("toh-bayaran",),
        title="Surakarta",
    ),
)


CEKEN_PRESETS: Final = (
    Preset(
        "yogyakarta",
        TANTANAN_RULES,
        "Yogyakarta: Tantanan for three (Cekèn or Sampèn), toh bayaran, 2¢ a point",
        "[001] citing Javaanse Kaartspelen p.98",
        ("toh-bayaran", "sampen"),
        title="Yogyakarta (Cekèn or Sampèn)",
    ),
)


class TantananGame(SetsGame):
    """Tantanan: three pairs, one identical (a bak); tan kowah and tan nokang."""

    view_type: ClassVar[type[SetsView]] = BakView
    options: ClassVar[tuple[Option, ...]] = TANTANAN_OPTIONS
    rules_type: ClassVar[type[SetsRules]] = GonggongRules
    legacy_fixed: ClassVar[Mapping[str, Value]] = NO_BALIK_SCORING

    name: ClassVar[str] = "tantanan"
    title: ClassVar[str] = "Tantanan"
    players: ClassVar[tuple[int, int]] = (3, 4)
    default_players: ClassVar[int] = 4
    presets: ClassVar[tuple[Preset, ...]] = TANTANAN_PRESETS
    call_words: ClassVar[tuple[str, str]] = ("kowah", "nokang")
    call_names: ClassVar[tuple[str, str]] = ("tan kowah", "tan nokang")
    rules_doc: ClassVar[str] = "tantanan"

    def lessons(self) -> Course:
        """Tantanan's course: every statement of its section of [001]
        (:mod:`cherki.games.sets.lessons`)."""
        return TANTANAN


class CekenGame(TantananGame):
    """Cekèn (Sampèn): Tantanan for three, as played in Yogyakarta."""

    name: ClassVar[str] = "ceken"
    title: ClassVar[str] = "Cekèn"
    players: ClassVar[tuple[int, int]] = (3, 3)
    default_players: ClassVar[int] = 3
    presets: ClassVar[tuple[Preset, ...]] = CEKEN_PRESETS

    def lessons(self) -> Course:
        """Cekèn's course: Tantanan's, at a table of three (:mod:`cherki.games.sets.lessons`)."""
        return CEKEN


__all__ = ["CEKEN_PRESETS", "TANTANAN_PRESETS", "TANTANAN_RULES", "CekenGame", "TantananGame"]
