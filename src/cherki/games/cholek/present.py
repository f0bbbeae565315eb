"""How Cholek Tiga is shown (:class:`~cherki.core.view.GameView`): the stock, the pool of
face-up cards and the card on the table waiting for a capture [002], each seat's captures
and bonuses, its actions (``turn`` up a stock card, ``capture A B with C``, ``no
capture``) and its result (the points of the captured cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cherki.core.cards import CODES, IS_RED, card_name, format_hand
from cherki.core.contract import Observation
from cherki.core.events import Result, ScoreItem
from cherki.core.options import Rules
from cherki.core.sets import GROUP_KINDS, GROUPINGS
from cherki.core.view import (
    ActionView,
    GameView,
    Hint,
    ScoringLine,
    SeatLine,
    SeatSide,
    Zone,
    codes,
    held,
    own_observation,
    zone,
)
from cherki.games.cholek.observation import CholekObservation
from cherki.games.cholek.rules import (
    CAPTURE,
    CAPTURES,
    DISCARD,
    NORMAL_POINTS,
    RED_POINTS,
    TURN,
    CholekRules,
    score_captured,
)
from cherki.i18n.voice import Voice, format_cents, money_text


def _cholek(obs: Observation) -> CholekObservation:
    return own_observation(obs, CholekObservation, "Cholek Tiga")


class CholekView(GameView):
    """Cholek Tiga's view."""

    help_key: ClassVar[str] = "term.help.cholek"
    glossary: ClassVar[tuple[str, ...]] = ("ayam", "kandang")
    short_forms: ClassVar[Mapping[str, str]] = {"p": "no capture", "pass": "no capture"}
    action_words: ClassVar[Mapping[str, tuple[str, str | None, str | None]]] = {
        "turn": ("action.turn", "u", "stock"),
        "no capture": ("action.no_capture", "n", None),
    }

    def table_lines(self, obs: Observation, voice: Voice) -> list[str]:
        o, v = _cholek(obs), voice
        lines = [
            v.t("table.stock", n=o.stock_left),
            v.t("table.pool", cards=format_hand(o.pool) or "-"),
        ]
        if o.active is not None:
            src = v.t("table.discarded" if o.active_from == "hand" else "table.turned_up")
            lines.append(v.t("table.active", card=card_name(o.active), how=src))
        for s in range(o.players):
            cap = format_hand(o.captured[s]) or "-"
            bits = [v.t("table.in_hand", n=o.hand_sizes[s]), v.t("table.captured", cards=cap)]
            if o.bonus_money[s]:
                bits.append(v.t("table.bonuses", money=f"{o.bonus_money[s]:+d}¢"))
            lines.append(f"{v.name(s)}: " + ", ".join(bits))
        return lines

    def zones(self, obs: Observation, voice: Voice) -> list[Zone]:
        o, v = _cholek(obs), voice
        out = [
            self.stock_zone(o, v),
            zone(
                "pool",
                "cards",
                v.t("page.table.pool"),
                cards=held(o.pool),
                empty=v.t("page.table.empty"),
            ),
        ]
        if o.active is not None:
            how = v.t("table.turned_up" if o.active_from == "stock" else "table.discarded")
            title = v.t("page.table.on_table_how", how=how)
            out.append(zone("active", "card", title, cards=[CODES[o.active]]))
        return out

    def seat_side(self, obs: Observation, seat: int, voice: Voice) -> SeatSide:
        o, v = _cholek(obs), voice
        lines = [SeatLine(label=v.t("page.table.captured"), cards=held(o.captured[seat]))]
        if o.bonus_money[seat]:
            money = money_text(o.bonus_money[seat])
            lines.append(SeatLine(label=v.t("page.table.bonuses", money=money), cards=None))
        return SeatSide(call=None, lines=lines)

    def action(self, action: int, obs: Observation, voice: Voice) -> ActionView:
        out = super().action(action, obs, voice)
        text = out["text"]
        if out["kind"] == "capture":  # "capture A B with C": numbered, in order
            found = text.split()
            out["card"] = found[-1]
            out["cards"] = found[1:3]
            out["label"] = voice.t("action.capture", cards=" ".join(found[1:3]), card=found[-1])
            out["numbered"] = True
        elif text == "no capture":
            out["kind"] = "no-capture"
        return out

    def hints(self, obs: Observation, voice: Voice) -> list[Hint]:
        """What each capture open adds to the seat's piles (points, and the bonus of three
        identical cards), and for each card of the hand whether it captures at once or how
        many cards of its rank it leaves in the pool for the next player [002]."""
        o, v = _cholek(obs), voice
        lines: list[Hint] = []
        if o.phase == "capture":
            before = score_captured(o.captured[o.seat])[0]
            for a in o.legal:
                if a < CAPTURE:
                    continue
                c, x, y = CAPTURES[a - CAPTURE]
                mine = list(o.captured[o.seat])
                for k in (x, y, c):
                    mine[k] += 1
                gained = score_captured(mine)[0] - before
                text = v.t(
                    "why.cholek.capture", card=CODES[c], cards=f"{CODES[x]} {CODES[y]}", n=gained
                )
                if x == y == c:
                    text += " " + v.t("why.cholek.bonus")
                lines.append(Hint(text, style="act"))
        elif o.phase == "discard":
            grouping, kinds_of = GROUPINGS[o.honours], GROUP_KINDS[o.honours]
            for a in o.legal:
                if not DISCARD <= a < TURN:
                    continue
                k = a - DISCARD
                in_pool = sum(o.pool[x] for x in kinds_of[grouping[k]])
                key = "why.cholek.captures" if in_pool >= 2 else "why.cholek.leaves"
                lines.append(Hint(v.t(key, card=CODES[k], n=in_pool), style="act"))
        return lines

    def result_summary(self, result: Result, voice: Voice) -> str:
        v = voice
        scores = result.scores or ()
        score_text = ", ".join(f"{v.obj(t)} {x}" for t, x in enumerate(scores))
        best = result.total
        if result.winner is not None:
            return v.say("result.cholek.win", result.winner, best=best, scores=score_text)
        tops = [v.obj(t) for t, x in enumerate(scores) if x == best]
        return v.t("result.cholek.shared", best=best, tops=v.both(tops), scores=score_text)

    def item_label(self, item: ScoreItem, result: Result, voice: Voice) -> str | None:
        if item.kind != "captured":
            return None
        v = voice
        k = item.cards[0]
        if IS_RED[k]:
            what = ("one", "pair", "three", "four")[item.count - 1]
            said = v.t(f"item.captured.red_{what}", card=card_name(k))
        else:
            said = v.t(f"item.captured.{'three' if item.count == 3 else 'four'}", card=card_name(k))
        return f"{v.name(item.seat)}: {said}"

    def scoring_lines(self, rules: Rules, voice: Voice) -> list[ScoringLine]:
        """Cholek Tiga's scoring list under ``rules`` [002]: the points of the cards
        captured (``NORMAL_POINTS``, ``RED_POINTS``), the bonuses paid in money, what a
        point is worth."""
        if not isinstance(rules, CholekRules):
            raise TypeError(f"Cholek Tiga scores its own rules, not {type(rules).__name__}")
        v = voice
        out = [
            ScoringLine(v.t("pays.cholek.red_one"), f"{RED_POINTS[1]:+d}"),
            ScoringLine(v.t("pays.cholek.red_two"), f"{RED_POINTS[2]:+d}"),
            ScoringLine(v.t("pays.cholek.three"), f"{NORMAL_POINTS[3]:+d}"),
            ScoringLine(v.t("pays.cholek.four"), f"{NORMAL_POINTS[4]:+d}"),
        ]
        cents = (
            ("ayam", rules.ayam_cents),
            ("kandang", rules.kandang_cents),
            ("ang_pow", rules.ang_pow_cents),
            ("ang_pow_besar", rules.ang_pow_besar_cents),
        )
        out += [ScoringLine(v.t(f"pays.cholek.{k}"), format_cents(c)) for k, c in cents if c]
        if rules.cents_per_point:
            out.append(ScoringLine(v.t("pays.point"), format_cents(rules.cents_per_point)))
        return out


__all__ = ["CholekView", "codes"]
