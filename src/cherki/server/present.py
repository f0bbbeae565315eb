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

import re
from collections.abc import Sequence
from typing import Any

from cherki.core.cards import CODES, N_KINDS, RANK, parse_card
from cherki.core.contract import Game, Observation
from cherki.core.events import Result
from cherki.i18n import words
from cherki.play.match import Match
from cherki.play.records import HandRecord, replay_hand
from cherki.play.session import Session
from cherki.ui.text import (
    Voice,
    event_line,
    item_label,
    item_points,
    money_text,
    note_line,
    result_summary,
    settlement_lines,
)

_CODE = re.compile(r"\b([CSM][1-9]|WF|RF|OT)\b")

#: the keyboard key of each action that does not name a card of the hand
KEYS = {
    "draw": "d",
    "take": "t",
    "sampei": "s",
    "win": "w",
    "pass": "p",
    "ceki": "c",
    "turn": "u",
    "no capture": "n",
}


def seat_view(
    session: Session,
    seat: int | None,
    *,
    obs: Observation | None = None,
    data: dict[str, Any] | None = None,
    log: list[str] | None = None,
    finished: tuple[dict[str, Any] | None, dict[str, Any] | None] | None = None,
    hand: dict[str, Any] | None = None,
    lang: str | None = None,
) -> dict[str, Any]:
    """The presentation part of a ``state`` message for ``seat`` (None: a spectator, who
    reads the game's public view). A caller that already holds them passes the viewer's
    observation (``obs`` and its JSON ``data``), the hand's log in words (``log``) and the
    last result and score sheet (``finished``), which change only when a hand ends, and the
    seat's hand as :func:`hand_view` shows it (``hand``), which changes only with its cards.
    ``lang``: the reader's language (:mod:`cherki.i18n`; English unless told)."""
    state = session.state
    game = session.game
    voice = Voice.of(session.names, len(session.seats), seat, lang)
    if finished is None:
        finished = (last_result(session, voice), score_sheet(session.match, voice))
    out: dict[str, Any] = {
        "log": [],
        "actions": [],
        "hand": None,
        "drawn": None,
        "seats": [],
        "table": None,
        "status": "",
        "result": finished[0],
        "sheet": finished[1],
        "title": game.title,
        "call_names": list(game.call_names),
    }
    if state is None:
        out["status"] = voice.t("status.match_over" if session.is_over() else "status.dealing")
        return out
    viewer = seat if seat is not None else -1
    if log is None:
        log = [event_line(e, game, voice) for e in state.events_for(viewer)]
    out["log"] = log
    if obs is None:
        obs = state.observation(seat) if seat is not None else state.public_observation()
    if data is None:
        data = obs.to_json()
    out["seats"] = seats_view(data, voice)
    out["table"] = table_view(data)
    out["status"] = status_line(data, game, voice, seat)
    if seat is not None:
        out["actions"] = actions_view(game, obs.legal, data, voice)
        out["hand"] = hand if hand is not None else hand_view(obs)
        drawn = data.get("drawn")
        if isinstance(drawn, str):
            how = "status.you_took" if data.get("drawn_from") == "discard" else "status.you_drew"
            out["drawn"] = {"card": drawn, "text": voice.t(how, card=drawn)}
    return out


# -- actions -----------------------------------------------------------------------------
def action_view(
    game: Game, action: int, data: dict[str, Any], voice: Voice | None = None
) -> dict[str, Any]:
    """One legal action: its notation (``text``), a label for a button, what kind it is,
    the card of the hand it plays (``card``: a discard's) or the cards it involves
    (``cards``: a capture's pool cards, a take's discard), and its key (None: pick the card)."""
    v = voice if voice is not None else Voice(())
    text = game.action_text(action)
    codes = _CODE.findall(text)
    word = text.split()[0]
    out: dict[str, Any] = {
        "id": action,
        "text": text,
        "kind": word,
        "card": None,
        "cards": [],
        "call": None,
        "label": text[:1].upper() + text[1:],
        "key": KEYS.get(text if text in KEYS else word),
    }
    if word == "discard":
        out["card"] = codes[0]
        rest = text.split()[2:]
        if rest:
            out["kind"] = "call"
            out["call"] = rest[0]
            out["label"] = v.t("action.discard_call", card=codes[0], call=rest[0])
        else:
            out["label"] = v.t("action.discard", card=codes[0])
    elif word == "capture":
        out["card"] = codes[-1]
        out["cards"] = codes[:-1]
        out["label"] = v.t("action.capture", cards=" ".join(codes[:-1]), card=codes[-1])
    elif word == "take":
        top = data.get("top")
        out["cards"] = [top] if isinstance(top, str) else []
        out["label"] = (
            v.t("action.take", card=top) if isinstance(top, str) else v.t("action.take_discard")
        )
    elif word == "draw":
        out["label"] = v.t(f"action.draw_{game.stock_word}")
    elif text == "turn":
        out["label"] = v.t("action.turn")
    elif text == "no capture":
        out["kind"] = "no-capture"
        out["label"] = v.t("action.no_capture")
    elif text == "ceki":
        out["label"] = v.t("action.ceki")
    elif text == "sampei":
        out["label"] = v.t("action.sampei")
    elif text == "win":
        out["label"] = v.t("action.win")
    if word == "capture":  # captures are numbered, in order
        out["key"] = None
    return out


def actions_view(
    game: Game, legal: Sequence[int], data: dict[str, Any], voice: Voice | None = None
) -> list[dict[str, Any]]:
    acts = [action_view(game, a, data, voice) for a in legal]
    n = 0
    for a in acts:
        if a["kind"] == "capture":
            n += 1
            a["key"] = str(n) if n <= 9 else None
    return acts


# -- the hand ----------------------------------------------------------------------------
def hand_view(obs: Observation) -> dict[str, Any]:
    """The seat's hand grouped by printed rank (honours with the 1s) as the terminal's
    ``hand_by_rank`` groups it, and, in the games of sets, its best arrangement into sets."""
    counts = _counts(obs.hand)
    groups: dict[int, list[str]] = {}
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            groups.setdefault(RANK[k], []).append(CODES[k])
    out: dict[str, Any] = {
        "count": sum(counts),
        "groups": [{"rank": r, "cards": groups[r]} for r in sorted(groups)],
        "sets": [],
        "leftover": [],
        "winning": False,
        "laid": [],
    }
    laid = getattr(obs, "laid", None)
    if laid is not None and any(laid):
        out["laid"] = held_cards(laid)
    from cherki.games.sets.analysis import analyse_under
    from cherki.games.sets.observation import SetsObservation

    if isinstance(obs, SetsObservation) and out["count"] > 0:
        r = obs.rules
        report = analyse_under(counts, r)
        out["sets"] = [[CODES[k] for k in s] for s in report.sets]
        out["leftover"] = [CODES[k] for k in report.leftover]
        out["winning"] = report.winning
    return out


def _counts(hand: Sequence[int]) -> list[int]:
    """A hand as 30 counts (observations hold counts)."""
    if len(hand) == N_KINDS:
        return list(hand)
    out = [0] * N_KINDS  # pragma: no cover (every observation holds counts)
    for k in hand:
        out[k] += 1
    return out


# -- the table ---------------------------------------------------------------------------
def _codes(value: Any) -> list[str]:
    return [c for c in value if isinstance(c, str)] if isinstance(value, list) else []


def seats_view(data: dict[str, Any], voice: Voice) -> list[dict[str, Any]]:
    """Every seat's public side of the table: its name, cards in hand, call, what it has
    laid down or exposed, what it has captured."""
    n = int(data["players"])
    current = data.get("current", -1)
    calls = data.get("calls")
    call_names = data.get("call_names") or ["tan", "ceki"]
    out = []
    for s in range(n):
        row: dict[str, Any] = {
            "seat": s,
            "name": voice.names[s] if s < len(voice.names) else voice.t("voice.seat", n=s + 1),
            "you": voice.is_you(s) and voice.you == s,
            "turn": current == s,
            "cards": data["hand_sizes"][s],
            "call": None,
            "exposed": [],
            "melds": [],
            "captured": [],
            "laid": 0,
            "bonus": None,
        }
        if isinstance(calls, list) and calls[s] is not None:
            name = call_names[0 if calls[s] == "tan" else 1]
            changed = data.get("call_changed") or []
            row["call"] = name + (
                voice.t("table.changed") if s < len(changed) and changed[s] else ""
            )
        called = data.get("called")
        if isinstance(called, list) and called[s]:
            row["call"] = "ceki"
            row["laid"] = data["laid_count"][s]
        exposed = data.get("exposed")
        if isinstance(exposed, list):
            row["exposed"] = _codes(exposed[s])
        melds = data.get("melds")
        if isinstance(melds, list) and melds:
            row["melds"] = _codes(melds[s])
        captured = data.get("captured")
        if isinstance(captured, list):
            row["captured"] = _codes(captured[s])
        bonus = data.get("bonus_money_cents")
        if isinstance(bonus, list) and bonus[s]:
            row["bonus"] = money_text(bonus[s])
        out.append(row)
    return out


def table_view(data: dict[str, Any]) -> dict[str, Any]:
    """The middle of the table: the stock, the discards (the top one takeable), a card on
    offer to callers, Cholek Tiga's pool and the card waiting for a capture."""
    claim = data.get("claim")
    return {
        "stock_left": data.get("stock_left", 0),
        "stock_name": "pile" if data.get("game") == "ceki" else "stock",
        "pile": _codes(data.get("pile")),
        "pile_seats": data.get("pile_seats") or [],
        "top": data.get("top"),
        "claim": claim if isinstance(claim, dict) else None,
        "pool": _codes(data.get("pool")) if "pool" in data else None,
        "active": data.get("active"),
        "active_from": data.get("active_from"),
        "pot": data.get("pot", 0),
    }


#: the phases worded in the status line: ``status.yours.<phase>`` and ``status.theirs.<phase>``
_PHASES = ("draw", "discard", "claim", "capture", "turn")


def status_line(data: dict[str, Any], game: Game, voice: Voice, seat: int | None) -> str:
    """Whose turn it is and what they are doing, in words."""
    current = data.get("current", -1)
    v = voice
    if not isinstance(current, int) or current < 0:
        return v.t("log.end")
    phase = str(data.get("phase", ""))
    known = phase if phase in _PHASES else "other"
    yours, theirs = (
        v.t(f"status.yours.{known}"),
        v.t(f"status.theirs.{known}", name=v.name(current)),
    )
    if phase == "draw" and game.name == "ceki":
        yours = v.t("status.yours.draw_ceki")
    claim = data.get("claim")
    if phase == "claim" and isinstance(claim, dict) and claim.get("card"):
        yours = v.t("status.yours.claim_card", card=claim["card"])
    if seat is not None and current == seat:
        return v.t("status.your_turn", what=yours)
    return theirs


# -- results and the match ----------------------------------------------------------------
def result_view(result: Result, game: Game, voice: Voice, number: int) -> dict[str, Any]:
    """A finished hand's public result: the sentence, the score item by item, the payments,
    the winning hand's sets and the turned cards."""
    data = result.to_json()
    detail = data["detail"]
    assert isinstance(detail, dict)
    win = result.win
    return {
        "hand": number,
        "summary": result_summary(result, game, voice),
        "items": [
            {"label": item_label(i, result, voice), "points": item_points(i), "cards": _k(i.cards)}
            for i in result.items
        ],
        "total": result.total,
        "payments": [
            {
                "seat": s,
                "name": voice.name(s),
                "points": f"{p:+d}",
                "money": money_text(result.money[s]) if result.money else "",
            }
            for s, p in enumerate(result.payments)
        ],
        "winner": result.winner,
        "hand_cards": _k(_cards_of(win.hand)) if win is not None else [],
        "sets": [_k(s) for s in win.sets] if win is not None else [],
        "winning_card": CODES[win.card] if win is not None and win.card is not None else None,
        "turned": _k(win.turned) if win is not None else [],
        "redeal": result.redeal,
    }


def _k(cards: Sequence[int]) -> list[str]:
    return [CODES[k] for k in cards]


def _cards_of(counts: Sequence[int]) -> list[int]:
    if len(counts) != N_KINDS:
        return list(counts)
    return [k for k in range(N_KINDS) for _ in range(counts[k])]


def last_result(session: Session, voice: Voice) -> dict[str, Any] | None:
    """The last finished hand's result (public once the hand is over), with the match's
    notes on it (a bangkong completed) and every seat's hand as it ended, face up."""
    results = session.match.results
    if not results:
        return None
    index = len(results) - 1
    out = result_view(results[-1], session.game, voice, index + 1)
    out["notes"] = [note_line(n, voice) for n in session.match.notes.get(index, [])]
    hands = final_hands(session.match, index)
    out["final_hands"] = (
        [{"seat": s, "name": voice.name(s), "cards": h} for s, h in enumerate(hands)]
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


def score_sheet(match: Match, voice: Voice) -> dict[str, Any] | None:
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
            {
                "hand": r["hand"],
                "totals": [f"{int(str(p)):+d}" for p in totals],
                "how": _how(str(r["how"]), voice),
                "pot": "" if r["pot"] is None else str(r["pot"]),
            }
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
        led = match.ledger.to_json()
        tokens, done = led.get("tokens"), led.get("bangkong")
        if isinstance(tokens, list):
            mine = ", ".join(f"{names[t]} {x}" for t, x in enumerate(tokens))
            lines.append(voice.t("sheet.tokens", tokens=mine))
        if isinstance(done, list):
            lines.append(voice.t("sheet.bangkong_done", n=len(done)))
        if match.is_over():
            lines += settlement_lines(match.ledger, voice)
    return {
        "names": names,
        "rows": body,
        "has_pot": has_pot,
        "scored": [str(x) for x in match.scores] if match.scores != match.totals else None,
        "money": [money_text(m) for m in match.money],
        "lines": lines,
        "hands_played": len(match.results),
        "match_length": match.hands,
    }


def _how(how: str, voice: Voice) -> str:
    """How a hand ended, for the score sheet's column (``sheet.how.<how>``; else as it is)."""
    key = f"sheet.how.{how}"
    return voice.t(key) if voice.words.has(key) else how


def hint(session: Session, seat: int, lang: str | None = None) -> list[str]:
    """The terminal's hint for ``seat`` as plain lines (waits, live outs, the heuristic
    bot's suggestion)."""
    from cherki.ui.table import hint_lines

    state = session.state
    if state is None:
        return []
    return [line.plain for line in hint_lines(session.game, state.observation(seat), words(lang))]


def card_code(text: str) -> str:
    """A card's code from any spelling (``m7`` → ``M7``); raises for no card."""
    return CODES[parse_card(text)]
