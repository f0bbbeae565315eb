"""How the games of sets are shown (:class:`~cherki.core.view.GameView`): the table (the
stock, the discards, a card on offer to callers, Chot's pot), each seat's call and the olo
or cards it has shown, the hand's best arrangement into sets, the hints (what a hand waits
on, with the rules' own limits on a caller's exchanges), the results and score items the
family words its own way, and Chot's bangkong.

The words are the catalogues' (:mod:`cherki.i18n`); the rules they state are the games'
(``games/sets/state.py`` and ``scoring.py`` cite them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from cherki.core.cards import CODES, N_KINDS, card_name, format_hand
from cherki.core.contract import Observation
from cherki.core.events import Result, ScoreItem
from cherki.core.options import Rules
from cherki.core.pieces import ORDER, count_sets, discard_breaks, take_joins
from cherki.core.sets import mata_count
from cherki.core.view import (
    GameView,
    HandExtras,
    Hint,
    ScoringLine,
    SeatLine,
    SeatSide,
    Zone,
    codes,
    discards_text,
    hand_text,
    held,
    own_observation,
    piece_text,
    zone,
)
from cherki.games.sets.actions import DISCARD, TAKE
from cherki.games.sets.analysis import analyse_under, arranged_under
from cherki.games.sets.calls import kept_ceki_waits
from cherki.games.sets.observation import SetsObservation
from cherki.games.sets.rules import SCORING, Paid, SetsRules
from cherki.i18n.voice import Voice, format_cents


def _sets(obs: Observation) -> SetsObservation:
    return own_observation(obs, SetsObservation, "a game of sets")


def waits_hint(text: str, waits: Sequence[int], unseen: Sequence[int]) -> Hint:
    """A hint line that lists the cards waited on with how many of each are unseen."""
    return Hint(text, tuple(waits), tuple(unseen[k] for k in waits), lists_waits=True)


class SetsView(GameView):
    """The games of sets: Balik Satu and its relatives."""

    help_key: ClassVar[str] = "term.help.sets"
    short_forms: ClassVar[Mapping[str, str]] = {"s": "sampei", "sampei!": "sampei", "p": "pass"}
    action_words: ClassVar[Mapping[str, tuple[str, str | None, str | None]]] = {
        "sampei": ("action.sampei", "s", None),
        "pass": ("action.pass", "p", None),
    }
    going_out: ClassVar[frozenset[str]] = frozenset({"sampei"})
    shouts: ClassVar[Mapping[str, str]] = {"sampei": "Sampei!", "expose": "olo!"}
    #: the words every game of sets shares; each game's view adds its own (its calls, its
    #: word for a mata, its scoring's words), so a table explains only its game's words
    glossary: ClassVar[tuple[str, ...]] = (
        "set",
        "mata",
        "winning_hand",
        "sampei",
        "kandang_tangan",
    )

    # -- the table ------------------------------------------------------------------------
    def table_lines(self, obs: Observation, voice: Voice) -> list[str]:
        o, v = _sets(obs), voice
        lines = [v.t("table.stock_to_play", n=o.stock_left)]
        top = o.top
        lines.append(v.t("table.last_discard", card=card_name(top) if top is not None else "-"))
        if o.pile:
            lines.append(v.t("table.discards", cards=discards_text(o.pile, v)))
        for s in range(o.players):
            bits = [v.words.count("count.cards", o.hand_sizes[s])]
            call = o.calls[s]
            if call:
                name = o.call_names[0 if call == "tan" else 1]
                bits.append(
                    v.t("table.called", call=name)
                    + (v.t("table.changed") if o.call_changed[s] else "")
                )
            if o.melds and any(o.melds[s]):
                bits.append(v.t("table.exposed_olo", cards=format_hand(o.melds[s])))
            if any(o.exposed[s]):
                bits.append(v.t("table.known", cards=format_hand(o.exposed[s])))
            lines.append(f"{v.name(s)}: " + ", ".join(bits))
        if o.claim_card is not None:
            key = "table.claim_discard" if o.claim_from_discard else "table.claim_shown"
            lines.append(v.t(key, card=card_name(o.claim_card)))
        if o.pot:
            lines.append(v.t("table.pot", n=o.pot))
        return lines

    def zones(self, obs: Observation, voice: Voice) -> list[Zone]:
        o, v = _sets(obs), voice
        top = o.top
        out = [
            self.stock_zone(o, v),
            zone(
                "pile",
                "pile",
                v.t("page.table.discards"),
                cards=codes(o.pile),
                seats=o.pile_seats,
                top=CODES[top] if top is not None else None,
                empty=v.t("page.table.none_yet"),
            ),
        ]
        if o.claim_card is not None:
            key = "page.table.claim_discard" if o.claim_from_discard else "page.table.claim_shown"
            out.append(zone("claim", "card", v.t(key), cards=[CODES[o.claim_card]]))
        if o.pot:
            out.append(zone("pot", "count", v.t("page.table.pot"), count=o.pot))
        return out

    def seat_side(self, obs: Observation, seat: int, voice: Voice) -> SeatSide:
        o, v = _sets(obs), voice
        call = None
        if o.calls[seat] is not None:
            name = o.call_names[0 if o.calls[seat] == "tan" else 1]
            call = name + (v.t("table.changed") if o.call_changed[seat] else "")
        lines: list[SeatLine] = []
        if o.melds and any(o.melds[seat]):
            lines.append(SeatLine(label=v.t("page.table.olo"), cards=held(o.melds[seat])))
        if any(o.exposed[seat]):
            lines.append(SeatLine(label=v.t("page.table.known"), cards=held(o.exposed[seat])))
        return SeatSide(call=call, lines=lines)

    def takeable(self, obs: Observation) -> int | None:
        return _sets(obs).top

    def status(self, obs: Observation, voice: Voice, mine: bool) -> str | None:
        o = _sets(obs)
        if mine and o.phase == "claim" and o.claim_card is not None:
            return voice.t("status.yours.claim_card", card=CODES[o.claim_card])
        return None

    # -- the hand -------------------------------------------------------------------------
    def hand_extras(self, obs: Observation) -> HandExtras:
        o = _sets(obs)
        out = HandExtras(sets=[], leftover=[], winning=False, laid=[])
        if any(o.hand):
            sets, leftover, winning = arranged_under(o.hand, o.rules)
            out["sets"] = [codes(s) for s in sets]
            out["leftover"] = codes(leftover)
            out["winning"] = winning
        return out

    def hints(self, obs: Observation, voice: Voice) -> list[Hint]:
        """What the hand waits on under each call, and the discards that leave a hand one
        card from winning (for a caller, only the exchanges its call allows)."""
        o, v = _sets(obs), voice
        r = o.rules
        lines: list[Hint] = []
        unseen = o.unseen()
        report = analyse_under(o.hand, r)
        words = dict(zip(("tan", "ceki"), self.game.call_words, strict=True))
        full = r.set_size * r.sets
        size = r.set_size
        if o.phase == "draw" and o.legal and report.cards == full - 1:
            lines.append(Hint(hand_text(o.hand, unseen, o.honours, size, v)))
        if report.cards == full - 1:
            if o.calls[o.seat] == "ceki" and report.call == "tan":
                # a ceki kept after making a mata waits on a card that completes a mata
                waits = kept_ceki_waits(report.waits, o.hand, size)
                lines.append(waits_hint(v.t("hint.ceki_waits", call=words["ceki"]), waits, unseen))
            elif report.waits:
                call = words.get(report.call or "", report.call)
                lines.append(waits_hint(v.t("hint.calls", call=call), report.waits, unseen))
            else:
                lines.append(Hint(v.t("hint.not_one")))
        elif report.cards == full:
            if report.winning:
                lines.append(Hint(v.t("hint.winning"), style="good"))
            called = o.calls[o.seat]
            if called is not None:  # a caller may only make the exchanges the rules allow
                open_now = {(a - DISCARD) % N_KINDS for a in o.legal if a >= DISCARD}
                lines.append(Hint(v.t("hint.called", call=words.get(called, called))))
            else:
                open_now = set(range(N_KINDS))
            if called is None and o.legal:
                lines.append(Hint(hand_text(o.hand, unseen, o.honours, size, v)))
            explained = o.legal and not report.winning  # a winning hand: sampei says it all
            shown = self._shown_discards(o, report.discards_to_call, unseen) if explained else []
            for k, (call, waits) in sorted(report.discards_to_call.items()):
                if k not in open_now:
                    continue
                word = words.get(call, call)
                if called is None and k in shown:
                    text = self._discard_text(o, k, unseen, v)
                    text += " " + v.t("why.then_calls", call=word)
                    lines.append(waits_hint(text, waits, unseen))
                    pays = self._win_pays(o, k, waits, v)
                    if pays is not None:
                        lines.append(pays)
                    continue
                lines.append(
                    waits_hint(v.t("hint.discard_to", card=CODES[k], call=word), waits, unseen)
                )
                if called == "ceki" and call == "tan" and DISCARD + k in o.legal:
                    hand = list(o.hand)
                    hand[k] -= 1
                    kept = kept_ceki_waits(waits, hand, size)
                    text = v.t("hint.discard_keep", card=CODES[k], call=words["ceki"])
                    lines.append(waits_hint(text, kept, unseen))
            if not report.discards_to_call and not report.winning:
                lines.append(Hint(v.t("hint.none")))
            if called is None:
                for k in shown:
                    if k not in report.discards_to_call:
                        lines.append(Hint(self._discard_text(o, k, unseen, v) + ".", style="act"))
                if shown and any(k in report.discards_to_call for k in shown):
                    pays = self.call_pay_hint(r, v)
                    if pays is not None:
                        lines.append(pays)
        if o.phase == "draw" and TAKE in o.legal and o.top is not None:
            joins = take_joins(o.hand, o.top, unseen, o.honours, size)
            text = v.t("why.take", card=CODES[o.top], joins=piece_text(joins, "joins", v))
            lines.append(Hint(text, style="act"))
        return lines

    #: how many discards that leave no call a hint shows (those that break least)
    shown_discards: ClassVar[int] = 4

    def _shown_discards(
        self, o: SetsObservation, calls: Mapping[int, object], unseen: Sequence[int]
    ) -> list[int]:
        """The discards worth showing: every one that leaves a call, and the few others that
        break least (a lone card before a part-set before a set; the fewest live first)."""
        size = o.rules.set_size
        kinds = sorted({(a - DISCARD) % N_KINDS for a in o.legal if a >= DISCARD})
        broken = {k: discard_breaks(o.hand, k, unseen, o.honours, size) for k in kinds}
        rest = sorted(
            (k for k in kinds if k not in calls),
            key=lambda k: (ORDER[broken[k].kind], o.hand[k] == size - 1 > 1, broken[k].live, k),
        )
        return [k for k in kinds if k in calls] + rest[: self.shown_discards]

    def _discard_text(self, o: SetsObservation, k: int, unseen: Sequence[int], v: Voice) -> str:
        """``Discard C9: keeps 4 sets (1 mata); breaks nothing (a lone card, 3 live)``."""
        size = o.rules.set_size
        hand = list(o.hand)
        broken = discard_breaks(hand, k, unseen, o.honours, size)
        hand[k] -= 1
        sets, mata = count_sets(hand, o.honours, size)
        kept = v.words.count("why.sets", sets, m=mata)
        text = v.t("why.discard", card=CODES[k], kept=kept, broken=piece_text(broken, "breaks", v))
        if o.hand[k] == size - 1 > 1:  # an identical pair: a mata to be
            pair = " ".join([CODES[k]] * (size - 1))
            text += v.t("why.and_pair", cards=pair, n=unseen[k])
        return text

    # -- the scoring list -----------------------------------------------------------------
    def scoring_lines(self, rules: Rules, voice: Voice) -> list[ScoringLine]:
        """What each item pays under ``rules``: the scoring method's own list
        (``ScoringMethod.paid``), then kandang tangan and what a point is worth."""
        if not isinstance(rules, SetsRules):
            raise TypeError(f"a game of sets scores its own rules, not {type(rules).__name__}")
        method = SCORING[rules.scoring]
        out = [paid_line(p, voice) for p in method.paid(rules)]
        if rules.kandang_tangan:
            out.append(
                paid_line(Paid("kandang-tangan", rules.kandang_tangan_multiplier, unit="x"), voice)
            )
        if method.money and rules.cents_per_point:
            out.append(paid_line(Paid("point", rules.cents_per_point, unit="c"), voice))
        return out

    def _win_pays(
        self, o: SetsObservation, k: int, waits: Sequence[int], voice: Voice
    ) -> Hint | None:
        """What the mata of a win after discarding ``k`` pay under the scoring in force
        (its list's line for a mata, olo or bak, and for a red one), on the wait card that
        pays most; None where the scoring pays no such line."""
        per = {p.key: p.points for p in SCORING[o.rules.scoring].paid(o.rules)}
        plain = next((per[x] for x in PLAIN_MATA if per.get(x) is not None), None)
        if plain is None:
            return None
        red_each = next((per[x] for x in RED_MATA if per.get(x) is not None), plain)
        best: tuple[int, int, int, int] | None = None
        for w in waits:
            hand = list(o.hand)
            hand[k] -= 1
            hand[w] += 1
            mata, red = mata_count(hand, o.rules.set_size)
            pts = plain * (mata - red) + (red_each or 0) * red
            if best is None or pts > best[0]:
                best = (pts, w, mata, red)
        if best is None:
            return None
        pts, w, mata, red = best
        text = voice.t("why.win_pays", card=CODES[w], n=mata, m=red, points=f"{pts:+d}")
        return Hint(text, style="act")

    def call_pay_hint(self, rules: SetsRules, voice: Voice) -> Hint | None:
        """What a win after each call pays beyond the hand's own score, under ``rules``: the
        scoring list's lines that a call decides (tan, ayam, kandang, a ceki win's
        tokens), or None where no line depends on the call."""
        lines = [
            paid_line(p, voice).plain()
            for p in SCORING[rules.scoring].paid(rules)
            if p.key in CALL_ITEMS
        ]
        if not lines:
            return None
        return Hint(voice.t("why.call_pays", lines="; ".join(lines)), style="act")

    # -- words ----------------------------------------------------------------------------
    def result_summary(self, result: Result, voice: Voice) -> str:
        v = voice
        how = result.how
        if how == "stock-out":
            return v.t("result.stock_out")
        if how == "yeo":
            seat = result.would_be_winner if result.would_be_winner is not None else -1
            turned = result.win.turned[0] if result.win and result.win.turned else None
            card = card_name(turned) if turned is not None else v.t("log.a_card")
            return v.t("result.yeo", name=v.name(seat), how=how_won(result, v), card=card)
        if how == "chiqui-failed":
            seat = result.would_be_winner if result.would_be_winner is not None else -1
            if not result.payments or not any(result.payments):
                return v.t("result.chiqui_void", name=v.name(seat))
            return v.say("result.chiqui_pays", seat, total=result.total)
        w = result.winner if result.winner is not None else -1
        won = how_won(result, v)
        word = result.detail.get("win")
        if result.pot is not None and result.winner is not None:
            return v.say("result.pot", w, how=won, word=word, taken=result.pot.taken)
        if result.detail.get("side_bets"):
            return v.say("result.side_bets", w, how=won, word=word, total=result.total)
        if result.tokens is not None:
            return v.say("result.tokens", w, how=won, total=result.total)
        if result.winner is None:
            return v.t("result.no_one")
        return v.say("result.win", w, how=won, total=result.total)

    def item_label(self, item: ScoreItem, result: Result, voice: Voice) -> str | None:
        v = voice
        if item.kind == "olo":
            each = item.points // item.count if item.count else 0
            text = f"{item.count} olo × {each}"
            exposed = result.detail.get("exposed_olo", 0)
            return text + (v.t("item.olo_exposed", n=exposed) if exposed else "")
        if item.kind == "chiqui":
            if item.cards:
                cards = ", ".join(card_name(k) for k in item.cards)
                return v.t("item.chiqui", cards=cards, among=item.among)
            return v.t("item.chiqui_none", among=item.among)
        return None


class BalikView(SetsView):
    """Balik Satu and Balik Lima Belas: their calls, kena and the calling bonuses [000]."""

    glossary: ClassVar[tuple[str, ...]] = (
        "tan",
        "ceki",
        "mata",
        "sampei",
        "kena",
        "ayam",
        "kandang",
        "kandang_tangan",
        "set",
        "winning_hand",
    )


class ChaquiView(SetsView):
    """Chaqui: the Kristang olo and chiqui [001]."""

    glossary: ClassVar[tuple[str, ...]] = (*SetsView.glossary, "olo", "chiqui")


class BakView(SetsView):
    """Gonggong, Tantanan and Cekèn: bak, metu and rabas [001]."""

    glossary: ClassVar[tuple[str, ...]] = (
        "set",
        "bak",
        "winning_hand",
        "metu",
        "rabas",
        "kandang_tangan",
    )


def how_won(result: Result, voice: Voice) -> str:
    """How the winner went out, in words (a self-draw, a claimed discard...)."""
    w = result.win
    frm = w.from_seat if w is not None else -1
    seat = result.winner if result.winner is not None else result.would_be_winner
    v = voice
    how = result.how
    if how == "self-draw":
        return v.t("won.self.you" if v.is_you(seat if seat is not None else -1) else "won.self")
    if how == "claim":
        return v.t("won.claim", owner=v.owner(frm))
    if how == "discard":
        return v.t("won.discard", owner=v.owner(frm))
    if how == "kandang-tangan":
        return v.t("won.kandang_tangan")
    return how


#: the scoring list's lines a call decides
CALL_ITEMS = frozenset({"tan-bonus", "ayam", "kandang", "ceki-tokens"})
#: the scoring list's lines that pay each mata (olo, bak) of a winning hand, and a red one
PLAIN_MATA = ("mata", "olo", "bak", "mata-swapped", "bak-of-all")
RED_MATA = ("red-mata", "red-bak")


def paid_line(paid: Paid, voice: Voice) -> ScoringLine:
    """A line of the scoring list in words: ``pays.<key>`` with its params, and what it
    pays (``+10``, ``×2``, ``10¢``; nothing where its words say it)."""
    v = voice
    label = v.t(f"pays.{paid.key}", **dict(paid.params))
    if paid.points is None:
        return ScoringLine(label, "")
    if paid.unit == "x":
        return ScoringLine(label, f"×{paid.points}")
    if paid.unit == "c":
        return ScoringLine(label, format_cents(paid.points))
    return ScoringLine(label, f"{paid.points:+d}")


__all__ = [
    "CALL_ITEMS",
    "SetsView",
    "hand_text",
    "how_won",
    "paid_line",
    "piece_text",
    "waits_hint",
]
