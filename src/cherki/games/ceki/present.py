"""How Ceki (Kowah) is shown (:class:`~cherki.core.view.GameView`): the pile (Ceki's word
for the stock [003]) and the discards, the dealer, each caller's cards laid face down, the
words of its deal and of its results (a triple, a plain or a double win, its base and
multiplier), its actions ``win`` and ``ceki``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cherki.core.cards import CODES, N_KINDS, card_name, format_hand
from cherki.core.contract import Observation
from cherki.core.events import Event, EventKind, Result
from cherki.core.options import Rules
from cherki.core.pieces import ORDER, count_sets, discard_breaks, take_joins
from cherki.core.sets import GROUP_KINDS, GROUPINGS
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
from cherki.games.ceki.observation import CekiObservation
from cherki.games.ceki.rules import (
    CALL_DISCARD,
    DISCARD,
    HAND_SIZE,
    MULTIPLIERS,
    TAKE,
    VALUE,
    CekiRules,
    couple_group,
)
from cherki.i18n.voice import Voice, format_cents


def _ceki(obs: Observation) -> CekiObservation:
    return own_observation(obs, CekiObservation, "Ceki")


class CekiView(GameView):
    """Ceki's view."""

    help_key: ClassVar[str] = "term.help.ceki"
    short_forms: ClassVar[Mapping[str, str]] = {"s": "win", "sampei": "win"}
    action_words: ClassVar[Mapping[str, tuple[str, str | None, str | None]]] = {
        "win": ("action.win", "w", None),
        "ceki": ("action.ceki", "c", None),
    }
    going_out: ClassVar[frozenset[str]] = frozenset({"win"})
    shouts: ClassVar[Mapping[str, str]] = {"win": "Ceki!"}
    glossary: ClassVar[tuple[str, ...]] = ("ceki", "set", "winning_hand")

    def table_lines(self, obs: Observation, voice: Voice) -> list[str]:
        o, v = _ceki(obs), voice
        lines = [
            v.t("table.pile", n=o.stock_left),
            v.t("table.dealer", name=v.name((o.first - 1) % o.players)),
        ]
        top = o.top
        if top is not None:
            how = v.t("table.top_straight" if o.top_straight else "table.top_hand")
            lines.append(v.t("table.last_discard_how", card=card_name(top), how=how))
        else:
            lines.append(v.t("table.last_discard", card="-"))
        if o.pile:
            lines.append(v.t("table.discards", cards=discards_text(o.pile, v)))
        for s in range(o.players):
            bits = [v.words.count("count.cards", o.hand_sizes[s])]
            if o.called[s]:
                bits.append(v.t("table.called_ceki", n=o.laid_count[s]))
            if any(o.exposed[s]) and s != o.seat:
                bits.append(v.t("table.known", cards=format_hand(o.exposed[s])))
            lines.append(f"{v.name(s)}: " + ", ".join(bits))
        if any(o.laid):
            lines.append(v.t("table.your_laid", cards=format_hand(o.laid)))
        return lines

    def zones(self, obs: Observation, voice: Voice) -> list[Zone]:
        o, v = _ceki(obs), voice
        top = o.top
        pile = zone(
            "pile",
            "pile",
            v.t("page.table.discards"),
            cards=codes(o.pile),
            seats=o.pile_seats,
            top=CODES[top] if top is not None else None,
            empty=v.t("page.table.none_yet"),
        )
        return [self.stock_zone(o, v), pile]

    def seat_side(self, obs: Observation, seat: int, voice: Voice) -> SeatSide:
        o, v = _ceki(obs), voice
        lines: list[SeatLine] = []
        if o.called[seat]:
            lines.append(
                SeatLine(label=v.t("page.table.face_down", n=o.laid_count[seat]), cards=None)
            )
        if any(o.exposed[seat]):
            lines.append(SeatLine(label=v.t("page.table.known"), cards=held(o.exposed[seat])))
        return SeatSide(call=self.game.call_names[1] if o.called[seat] else None, lines=lines)

    def takeable(self, obs: Observation) -> int | None:
        return _ceki(obs).top

    def hand_extras(self, obs: Observation) -> HandExtras:
        o = _ceki(obs)
        return HandExtras(sets=[], leftover=[], winning=False, laid=held(o.laid))

    #: how many discards that make no call a hint shows (those that break least)
    shown_discards: ClassVar[int] = 4

    def hints(self, obs: Observation, voice: Voice) -> list[Hint]:
        """The hand as sets, pairs and lone cards with the live cards of each value; what
        each discard worth showing keeps and breaks, and the couple a ceki call waits on
        with how many of each card are unseen; what a take joins; the danger of a double
        win when the next player has called [003]."""
        o, v = _ceki(obs), voice
        if not o.legal:
            return []
        unseen = o.unseen()
        honours = o.honours
        lines = [Hint(hand_text(o.hand, unseen, honours, 3, v))]
        if o.phase == "draw" and TAKE in o.legal and o.top is not None:
            joins = take_joins(o.hand, o.top, unseen, honours, 3)
            text = v.t("why.take", card=CODES[o.top], joins=piece_text(joins, "joins", v))
            lines.append(Hint(text, style="act"))
        if o.phase != "discard":
            return lines
        kinds = sorted(
            {(a - DISCARD) % N_KINDS for a in o.legal if DISCARD <= a < CALL_DISCARD + N_KINDS}
        )
        calls = {a - CALL_DISCARD for a in o.legal if a >= CALL_DISCARD}
        broken = {k: discard_breaks(o.hand, k, unseen, honours, 3) for k in kinds}
        rest = sorted(
            (k for k in kinds if k not in calls),
            key=lambda k: (ORDER[broken[k].kind], broken[k].live, k),
        )
        grouping = GROUPINGS[honours]
        for k in [k for k in kinds if k in calls] + rest[: self.shown_discards]:
            hand = list(o.hand)
            hand[k] -= 1
            sets, mata = count_sets(hand, honours, 3)
            text = v.t(
                "why.discard",
                card=CODES[k],
                kept=v.words.count("why.sets", sets, m=mata),
                broken=piece_text(broken[k], "breaks", v),
            )
            if k in calls and sum(hand) == HAND_SIZE:
                g = couple_group(hand, grouping)
                waits = [c for c in GROUP_KINDS[honours][g] if unseen[c]] if g >= 0 else []
                text += " " + v.t("why.then_calls", call=self.game.call_names[1])
                lines.append(
                    Hint(text, tuple(waits), tuple(unseen[c] for c in waits), lists_waits=True)
                )
            else:
                lines.append(Hint(text + ".", style="act"))
        nxt = (o.seat + 1) % o.players
        if o.called[nxt]:
            lines.append(Hint(v.t("why.ceki.next_called"), style="act"))
        return lines

    def status(self, obs: Observation, voice: Voice, mine: bool) -> str | None:
        if not (mine and obs.phase == "draw"):
            return None
        can_take = any(self.game.action_text(a).split()[0] == "take" for a in obs.legal)
        return voice.t("status.yours.draw_ceki") if can_take else None  # else: from the pile

    def event_line(self, event: Event, voice: Voice) -> str | None:
        if event.kind == EventKind.DEAL:
            return voice.say("log.deal_ceki", event.seat, n=event.number)
        return None

    def result_summary(self, result: Result, voice: Voice) -> str:
        v = voice
        if result.winner is None:
            return v.t("result.ceki.pile_out")
        s = result.winner
        w = result.win
        card = card_name(w.card) if w is not None and w.card is not None else v.t("log.a_card")
        prev = w.from_seat if w else -1
        how = result.how
        if how == "triple":
            how_text = v.t("result.ceki.triple", card=card)
        elif how == "plain":
            how_text = v.t("result.ceki.plain", owner=v.owner(prev), card=card)
        elif v.is_you(prev):
            how_text = v.t("result.ceki.double.you", card=card)
        else:
            how_text = v.t("result.ceki.double", owner=v.owner(prev), name=v.name(prev), card=card)
        base = result.detail.get("base", result.total)
        mult = result.detail.get("multiplier", 1)
        if result.detail.get("payment") == "total":
            pay_text = v.t("result.ceki.pay_total", total=result.total)
        else:
            pay_text = v.t("result.ceki.pay_each", total=result.total)
        return v.say(
            "result.ceki.win",
            s,
            how=how_text,
            base=base,
            mult=mult,
            total=result.total,
            pay=pay_text,
        )

    def scoring_lines(self, rules: Rules, voice: Voice) -> list[ScoringLine]:
        """Ceki's scoring list under ``rules`` [003]: each set its cards' values (from
        ``VALUE``), the win's factor by how the winning card came (``MULTIPLIERS``), who
        pays, what a point is worth."""
        if not isinstance(rules, CekiRules):
            raise TypeError(f"Ceki scores its own rules, not {type(rules).__name__}")
        v = voice
        out = [ScoringLine(v.t("pays.ceki.set", low=min(VALUE), high=max(VALUE)), "")]
        out += [ScoringLine(v.t(f"pays.ceki.{how}"), f"×{m}") for how, m in MULTIPLIERS.items()]
        out.append(ScoringLine(v.t(f"pays.ceki.payment.{rules.payment}"), ""))
        if rules.cents_per_point:
            out.append(ScoringLine(v.t("pays.point"), format_cents(rules.cents_per_point)))
        return out
