"""What the browser shows beside a seat's observation (the ``ui`` part of each ``state``
message): the log in plain words, each legal action with its text, the cards it involves
and its keyboard key, the hand grouped by rank with the sets it forms, every seat's public
table, whose turn it is, the last hand's result item by item and the match's score sheet.
The words are :mod:`cherki.ui.text`'s, in the reader's language (:mod:`cherki.i18n`), so
the terminal and the browser agree; the page's JavaScript only draws what it is given.

Everything here is built from what the seat may know: its own observation, the events as
it saw them (a spectator: seat ``None``, the game's public view and events as seat -1
saw them) and what is public once a hand is over: its result and every seat's hand as it
ended (laid face up, as at a real table; :func:`final_hands` replays only finished hands).
Nothing reads the hidden parts of the hand in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from cherki.core.cards import CODES, N_KINDS, RANK, parse_card
from cherki.core.contract import Game, Observation
from cherki.core.events import Origin, Result
from cherki.core.view import ActionView
from cherki.i18n import Words, words
from cherki.play.match import Match
from cherki.play.records import HandRecord, replay_hand
from cherki.play.session import Session
from cherki.server.messages import (
    DrawnOut,
    FinalHand,
    HandOut,
    ItemOut,
    KeyOut,
    PaymentOut,
    RankGroup,
    ResultOut,
    SeatOut,
    SheetOut,
    SheetRow,
    TableOut,
    UiOut,
)
from cherki.ui.text import (
    Voice,
    event_line,
    hints,
    item_label,
    item_points,
    money_text,
    note_line,
    result_summary,
    settlement_lines,
)

#: the finished hand's result and the match's score sheet, as a viewer reads them
Finished = tuple[ResultOut | None, SheetOut | None]


def seat_view(
    session: Session,
    seat: int | None,
    *,
    obs: Observation | None = None,
    log: list[str] | None = None,
    finished: Finished | None = None,
    hand: HandOut | None = None,
    lang: str | None = None,
    public: Public | None = None,
) -> UiOut:
    """The presentation part of a ``state`` message for ``seat`` (None: a spectator, who
    reads the game's public view), as the game's view (``Game.view()``) declares it. A
    caller that already holds them passes the viewer's observation (``obs``), the hand's
    log in words (``log``) and the last result and score sheet (``finished``), which change
    only when a hand ends, and the seat's hand as :func:`hand_view` shows it (``hand``),
    which changes only with its cards, and the table's public parts (``public``:
    :func:`public_parts` in the reader's language), which every reader shares. ``lang``:
    the reader's language (:mod:`cherki.i18n`; English unless told)."""
    state = session.state
    game = session.game
    voice = Voice.of(session.names, len(session.seats), seat, lang)
    if finished is None:
        finished = (last_result(session, voice), score_sheet(session.match, voice))
    out = UiOut(
        log=[],
        actions=[],
        hand=None,
        drawn=None,
        seats=[],
        table=None,
        status="",
        result=finished[0],
        sheet=finished[1],
        **_static(game, voice),
    )
    if state is None:
        out["status"] = voice.t("status.match_over" if session.is_over() else "status.dealing")
        return out
    viewer = seat if seat is not None else -1
    if log is None:
        log = [event_line(e, game, voice) for e in state.events_for(viewer)]
    out["log"] = log
    if obs is None:
        obs = state.observation(seat) if seat is not None else state.public_observation()
    if public is None:  # worked out for this reader
        out["seats"] = seats_view(obs, game, voice)
        out["table"] = table_view(obs, game, voice)
    else:
        out["seats"], out["table"] = _as_seen_by(public[0], seat), public[1]
    out["status"] = status_line(obs, game, voice, seat)
    if seat is not None:
        out["actions"] = actions_view(game, obs, voice)
        out["hand"] = hand if hand is not None else hand_view(obs, game)
        if obs.drawn is not None:
            how = "status.you_took" if obs.drawn_from == Origin.DISCARD else "status.you_drew"
            card = CODES[obs.drawn]
            out["drawn"] = DrawnOut(card=card, text=voice.t(how, card=card))
    return out


#: per game and language: the parts of a seat's view that never change (its title, its
#: calls, glossary, shouts and keys), worked out once, with the words they are in (every
#: message holds the same lists, which nothing changes)
_STATICS: dict[tuple[str, str], tuple[Words, _Static]] = {}


class _Static(TypedDict):
    title: str
    call_names: list[str]
    glossary: list[str]
    shouts: dict[str, str]
    keys: list[KeyOut]


def _static(game: Game, voice: Voice) -> _Static:
    """The parts of ``game``'s view that are the same in every message in ``voice``'s
    language."""
    key = (game.name, voice.words.lang)
    kept = _STATICS.get(key)
    if kept is None or kept[0] is not voice.words:  # new, or the words were added to
        view = game.view()
        made = _Static(
            title=game.title,
            call_names=list(game.call_names),
            glossary=list(view.glossary),
            shouts=dict(view.shouts),
            keys=[KeyOut(key=k, label=label) for k, label in view.keys(voice)],
        )
        kept = (voice.words, made)
        _STATICS[key] = kept
    return kept[1]  # its lists shared by every message: they are read, never changed


# -- actions -----------------------------------------------------------------------------
def actions_view(game: Game, obs: Observation, voice: Voice | None = None) -> list[ActionView]:
    """Each legal action of the observing seat as a button (the game's view words it);
    the choices among several like them (captures) numbered 1-9 in order."""
    v = voice if voice is not None else Voice(())
    view = game.view()
    acts = [view.action(a, obs, v) for a in obs.legal]
    n = 0
    for a in acts:
        if a["numbered"]:
            n += 1
            a["key"] = str(n) if n <= 9 else None
    return acts


# -- the hand ----------------------------------------------------------------------------
def hand_view(obs: Observation, game: Game) -> HandOut:
    """The seat's hand grouped by printed rank (honours with the 1s) as the terminal's
    ``hand_by_rank`` groups it, with what its game shows under it (the games of sets: its
    best arrangement into sets; Ceki: the cards laid face down)."""
    counts = _counts(obs.hand)
    groups: dict[int, list[str]] = {}
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            groups.setdefault(RANK[k], []).append(CODES[k])
    extras = game.view().hand_extras(obs)
    return HandOut(
        count=sum(counts),
        groups=[RankGroup(rank=r, cards=groups[r]) for r in sorted(groups)],
        sets=extras["sets"],
        leftover=extras["leftover"],
        winning=extras["winning"],
        laid=extras["laid"],
    )


def _counts(hand: Sequence[int]) -> list[int]:
    """A hand as 30 counts (observations hold counts)."""
    if len(hand) == N_KINDS:
        return list(hand)
    out = [0] * N_KINDS  # pragma: no cover (every observation holds counts)
    for k in hand:
        out[k] += 1
    return out


# -- the table ---------------------------------------------------------------------------
def seats_view(obs: Observation, game: Game, voice: Voice) -> list[SeatOut]:
    """Every seat's public side of the table: its name, cards in hand, and what its game
    shows beside it (a call, cards laid down or shown, captures)."""
    view = game.view()
    out = []
    for s in range(obs.players):
        side = view.seat_side(obs, s, voice)
        out.append(
            SeatOut(
                seat=s,
                name=voice.names[s] if s < len(voice.names) else voice.t("voice.seat", n=s + 1),
                you=voice.you == s and voice.is_you(s),
                turn=obs.current == s,
                cards=obs.hand_sizes[s],
                call=side["call"],
                lines=side["lines"],
            )
        )
    return out


#: every seat's public side and the middle of the table, as every reader in one language
#: sees them (``you`` aside)
Public = tuple[list[SeatOut], TableOut]

#: the games whose public parts were found to speak to the reader (Chot's "partners with
#: you"): worked out for each reader
_SPEAKING: set[str] = set()


@dataclass(frozen=True)
class _Listening(Voice):
    """A voice that reads for nobody and notes whether it was asked who "you" are (every
    wording that depends on the reader asks :meth:`Voice.is_you`)."""

    asked: list[bool] = field(default_factory=list, compare=False)

    def is_you(self, seat: int) -> bool:
        self.asked.append(True)
        return super().is_you(seat)


def public_parts(public: Observation, game: Game, voice: Voice) -> Public | None:
    """:func:`seats_view` and :func:`table_view` of the game's public view
    (``State.public_observation``) in ``voice``'s language, which a server works out once
    for all a change's readers: a game's view words them from what every seat sees
    (``GameView.seat_side`` and ``GameView.zones``), so each seat's own observation gives
    the same, bar the reader's own row being ``you`` (:func:`_as_seen_by`). None where
    they speak to the reader (a game's view asked who "you" are): they are worked out for
    each reader then, and never tried again for that game. ``tests/test_server_views.py``
    checks the shared parts against each reader's own for every game."""
    if game.name in _SPEAKING:
        return None
    nobody = _Listening(voice.names, None, voice.words)
    made = seats_view(public, game, nobody), table_view(public, game, nobody)
    if nobody.asked:
        _SPEAKING.add(game.name)
        return None
    return made


def _as_seen_by(rows: list[SeatOut], seat: int | None) -> list[SeatOut]:
    """The shared rows of :func:`public_parts` as ``seat`` reads them: its own is ``you``
    (a copy; the shared rows are never changed)."""
    if seat is None or not 0 <= seat < len(rows):
        return rows
    out = list(rows)
    mine = rows[seat].copy()
    mine["you"] = True
    out[seat] = mine
    return out


def table_view(obs: Observation, game: Game, voice: Voice) -> TableOut:
    """The middle of the table: the zones the game's view declares (the stock, the
    discards with the top one takeable, a card on offer, a pool, a pot...)."""
    return TableOut(zones=game.view().zones(obs, voice))


#: the phases worded in the status line: ``status.yours.<phase>`` and ``status.theirs.<phase>``
_PHASES = ("draw", "discard", "claim", "capture", "turn")


def _can_take(obs: Observation, game: Game) -> bool:
    """Whether one of the seat's legal actions takes the top discard."""
    return any(game.action_text(a).split()[0] == "take" for a in obs.legal)


def status_line(obs: Observation, game: Game, voice: Voice, seat: int | None) -> str:
    """Whose turn it is and what they are doing, in words (the game's view may say what
    the seat to act is asked to do its own way)."""
    current = obs.current
    v = voice
    if current < 0:
        return v.t("log.end")
    phase = obs.phase
    known = phase if phase in _PHASES else "other"
    view = game.view()
    if seat is not None and current == seat:
        yours = view.status(obs, v, True)
        if yours is None and known == "draw" and not _can_take(obs, game):
            yours = v.t(f"status.yours.draw_only_{game.stock_word}")  # no discard to take
        elif yours is None:
            yours = v.t(f"status.yours.{known}")
        return v.t("status.your_turn", what=yours)
    return view.status(obs, v, False) or v.t(f"status.theirs.{known}", name=v.name(current))


# -- results and the match ----------------------------------------------------------------
def result_view(result: Result, game: Game, voice: Voice, number: int) -> ResultOut:
    """A finished hand's public result: the sentence, the score item by item, the payments,
    the winning hand's sets and the turned cards."""
    win = result.win
    return ResultOut(
        hand=number,
        summary=result_summary(result, game, voice),
        items=[
            ItemOut(
                label=item_label(i, result, game, voice),
                points=item_points(i),
                cards=_k(i.cards),
            )
            for i in result.items
        ],
        total=result.total,
        payments=[
            PaymentOut(
                seat=s,
                name=voice.name(s),
                points=f"{p:+d}",
                # no money changed hands (Chot's tokens, a game without a stake): no money
                money=money_text(result.money[s]) if any(result.money) else "",
            )
            for s, p in enumerate(result.payments)
        ],
        points_heading=game.view().payments_heading(voice),
        winner=result.winner,
        hand_cards=_k(_cards_of(win.hand)) if win is not None else [],
        sets=[_k(s) for s in win.sets] if win is not None else [],
        winning_card=CODES[win.card] if win is not None and win.card is not None else None,
        turned=_k(win.turned) if win is not None else [],
        redeal=result.redeal,
    )


def _k(cards: Sequence[int]) -> list[str]:
    return [CODES[k] for k in cards]


def _cards_of(counts: Sequence[int]) -> list[int]:
    if len(counts) != N_KINDS:
        return list(counts)
    return [k for k in range(N_KINDS) for _ in range(counts[k])]


def last_result(session: Session, voice: Voice) -> ResultOut | None:
    """The last finished hand's result (public once the hand is over), with the match's
    notes on it (a bangkong completed) and every seat's hand as it ended, face up."""
    results = session.match.results
    if not results:
        return None
    index = len(results) - 1
    out = result_view(results[-1], session.game, voice, index + 1)
    game = session.game
    out["notes"] = [note_line(n, game, voice) for n in session.match.notes.get(index, [])]
    hands = final_hands(session.match, index)
    out["final_hands"] = (
        [FinalHand(seat=s, name=voice.name(s), cards=h) for s, h in enumerate(hands)]
        if hands is not None
        else []
    )
    return out


#: the final hands of finished hands, by the hand record's id (with the record, to be sure)
_FINAL: dict[int, tuple[HandRecord, list[list[str]]]] = {}
_FINAL_KEEP = 256


def final_hands(match: Match, index: int) -> list[list[str]] | None:
    """Every seat's hand as finished hand ``index`` ended: what the players lay face up
    when a hand is over. Only a hand that is over is ever replayed here (from the match's
    record, on the server): nothing of a hand in play, of the stock or of the next deal is
    shown."""
    if not 0 <= index < len(match.results) or index >= len(match.record.hands):
        return None
    hand = match.record.hands[index]
    held = _FINAL.get(id(hand))
    if held is not None and held[0] is hand:
        return held[1]
    state = replay_hand(match.record, index, check=False)
    if not state.is_terminal:
        return None  # pragma: no cover (a scored hand's record is a finished hand)
    out = [held_cards(state.observation(s).hand) for s in range(state.n)]
    if len(_FINAL) >= _FINAL_KEEP:
        _FINAL.pop(next(iter(_FINAL)))
    _FINAL[id(hand)] = (hand, out)
    return out


def held_cards(hand: Sequence[int]) -> list[str]:
    """A hand's cards as codes, in card order."""
    counts = _counts(hand)
    return [CODES[k] for k in range(N_KINDS) for _ in range(counts[k])]


def score_sheet(match: Match, voice: Voice) -> SheetOut | None:
    """The match's running score sheet as rows of cells, with the money, the pot, Chot's
    tokens and bangkong, and how it settles."""
    if not match.results:
        return None
    rows = match.sheet_rows()
    has_pot = any(r["pot"] is not None for r in rows)
    names = [voice.name(s) for s in range(len(match.players))]
    body = []
    for r in rows:
        totals = r["totals"]
        assert isinstance(totals, list)
        body.append(
            SheetRow(
                hand=r["hand"],
                totals=[f"{int(str(p)):+d}" for p in totals],
                how=match.game.view().ending(str(r["how"]), voice),
                pot="" if r["pot"] is None else str(r["pot"]),
            )
        )
    lines: list[str] = []
    if match.hands is not None or match.target is not None or match.ledger is not None:
        best = max(match.scores)
        leaders = [names[i] for i, x in enumerate(match.scores) if x == best]
        verb = "won" if match.is_over() else ("lead" if len(leaders) > 1 else "leads")
        if leaders == [voice.name(voice.you if voice.you is not None else -1)]:
            verb = "won" if match.is_over() else "lead"
        lines.append(voice.t(f"sheet.match_{verb}", names=voice.both(leaders), best=best))
    sides = match.game.sides(match.rules, len(match.players))
    teams = match.team_totals()
    if sides is not None and teams is not None:
        for side, total in zip(sides, teams, strict=True):
            lines.append(
                voice.t("sheet.side", names=" & ".join(names[t] for t in side), total=f"{total:+d}")
            )
    if match.ledger is not None:
        lines += match.game.view().ledger_lines(match.ledger, voice)
        if match.is_over():
            lines += settlement_lines(match.ledger, match.game, voice)
    return SheetOut(
        names=names,
        rows=body,
        has_pot=has_pot,
        scored=[str(x) for x in match.scores] if match.scores != match.totals else None,
        money=[money_text(m) for m in match.money],
        lines=lines,
        hands_played=len(match.results),
        match_length=match.hands,
    )


def hint(session: Session, seat: int, lang: str | None = None) -> list[str]:
    """``seat``'s hint as plain lines (:func:`cherki.ui.text.hints`: what the hand waits
    on with the live outs, the heuristic bot's suggestion), as the terminal gives it."""
    state = session.state
    if state is None:
        return []
    voice = Voice((), words=words(lang))
    return [h.plain(voice) for h in hints(session.game, state.observation(seat), voice)]


def card_code(text: str) -> str:
    """A card's code from any spelling (``m7`` → ``M7``); raises for no card."""
    return CODES[parse_card(text)]
