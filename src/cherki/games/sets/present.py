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
from cherki.core.view import (
    GameView,
    HandExtras,
    Hint,
    SeatLine,
    SeatSide,
    Zone,
    codes,
    discards_text,
    own_observation,
    zone,
)
from cherki.games.sets.actions import DISCARD
from cherki.games.sets.analysis import analyse_under
from cherki.games.sets.calls import kept_ceki_waits
from cherki.games.sets.observation import SetsObservation
from cherki.i18n.voice import Voice


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
    glossary: ClassVar[tuple[str, ...]] = (
        "tan",
        "ceki",
        "mata",
        "sampei",
        "kena",
        "ayam",
        "kandang",
        "kandang_tangan",
        "olo",
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
            lines.append(SeatLine(label=v.t("page.table.olo"), cards=_held(o.melds[seat])))
        if any(o.exposed[seat]):
            lines.append(SeatLine(label=v.t("page.table.known"), cards=_held(o.exposed[seat])))
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
            r = o.rules
            report = analyse_under(o.hand, r)
            out["sets"] = [codes(s) for s in report.sets]
            out["leftover"] = codes(report.leftover)
            out["winning"] = report.winning
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
            for k, (call, waits) in sorted(report.discards_to_call.items()):
                if k not in open_now:
                    continue
                word = words.get(call, call)
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
        return lines

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


def _held(counts: Sequence[int]) -> list[str]:
    return [CODES[k] for k in range(N_KINDS) for _ in range(counts[k])]


__all__ = ["SetsView", "how_won", "waits_hint"]
