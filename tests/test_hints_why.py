"""Hints that say why (issue 37, item 2): at a decision the hint lays the hand out (sets,
part-sets with the live cards that finish each, lone cards), says what each action worth
showing keeps and breaks (with the waits a call leaves and how many of each card are
unseen), and which action the heuristic bot picks and why, in every language; from the
seat's observation alone."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from conftest import JUNK, SATU, play, stacked

from cherki.bots import make_bot
from cherki.bots.balik import BalikHeuristicBot
from cherki.bots.base import Heuristic
from cherki.core.cards import CODES, counts_of, parse_card, parse_cards
from cherki.core.pieces import discard_breaks
from cherki.core.view import Reason
from cherki.games import find_game
from cherki.games.sets.actions import DISCARD, DRAW, TAKE
from cherki.i18n import words
from cherki.i18n.voice import Voice
from cherki.ui.table import hint_lines
from cherki.ui.text import hints

#: a mata (M2), two mixed sets, part-sets 3s, 7s and 8s, the honours WF OT, a lone C9
MIX15 = "M2 M2 M2 C3 S3 C6 S6 M6 S7 M7 C8 M8 C9 WF OT"
#: a mata and three sets, the part-set C8 M8 and a lone C9: discarding C9 calls tan
TAN15 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8 C9"


def plain(state: Any, seat: int = 0, lang: str = "en") -> list[str]:
    return [line.plain for line in hint_lines(SATU, state.observation(seat), words(lang))]


def test_a_discard_hint_lays_out_the_hand_and_what_each_discard_keeps_and_breaks() -> None:
    st = stacked(SATU, [MIX15, JUNK], stock="C4 M2 C8 C5")
    lines = plain(st)
    # seat 0 holds three 3s... of 56 less its own and JUNK is hidden: 4 copies of each kind
    # less the ones it holds (a part-set's live cards: its rank's unseen cards)
    assert lines[0] == (
        "Your hand: 2 sets (1 mata) (M2 M2 M2 · C6 S6 M6); part-set C3 S3 (13 live cards "
        "finish it); part-set C8 M8 (13 live cards finish it); part-set S7 M7 (13 live "
        "cards finish it); part-set WF OT (28 live cards finish it); lone C9."
    )
    assert "No discard leaves you one card from winning yet." in lines
    assert (
        "Discard C9: keeps 2 sets (1 mata); breaks nothing (a lone card; 14 live cards of "
        "its rank)." in lines
    )
    assert (
        "Discard C3: keeps 2 sets (1 mata); breaks the part-set C3 S3 (13 live cards finish "
        "it)." in lines
    )
    # the bot's pick and why
    assert "The heuristic bot would play: discard C9" in lines
    why = lines[lines.index("The heuristic bot would play: discard C9") + 1]
    assert why.startswith("Why: C9 is a lone card (only 14 live cards of its rank")
    # five sets and no mata (no win): every discard breaks a set; M7 leaves a ceki on S7
    st2 = stacked(SATU, ["C2 S2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 S8 M8", JUNK], stock="C4")
    lines2 = plain(st2)
    assert "Discard C2: keeps 4 sets (0 mata); breaks the set C2 S2 M2." in lines2
    assert (
        "Discard M7: keeps 4 sets (0 mata); breaks the set S7 S7 M7 — then ceki waits on S7 "
        "(3 unseen) — 3 live cards" in lines2
    )
    assert "Why: it is the only call open to you; its wait has 3 live cards." in lines2


def test_what_a_discard_breaks() -> None:
    hand = counts_of(parse_cards("M2 M2 M2 C2 C3 S3 C6 S6 M6 S7 M7 C9 WF OT C1"))
    live = [4] * 30

    def breaks(card: str) -> tuple[str, str]:
        p = discard_breaks(hand, parse_card(card), live, "rank1", 3)
        return p.kind, " ".join(CODES[k] for k in p.cards)

    assert breaks("M2") == ("mata", "M2 M2 M2")  # M2 M2 C2 is a set, not a mata
    assert breaks("C2") == ("lone", "C2")  # the 2s: a mata and a lone card
    assert breaks("C3") == ("part", "C3 S3")
    assert breaks("C6") == ("set", "C6 S6 M6")
    assert breaks("C9") == ("lone", "C9")
    assert breaks("WF")[0] == "set"  # WF OT C1: the honours set with the 1s (rank1)


def test_a_call_hint_names_the_wait_with_unseen_counts_and_the_bots_reason() -> None:
    st = stacked(SATU, [TAN15, JUNK], stock="C4 M2 C8 C5")
    lines = plain(st)
    assert lines[0].startswith("Your hand: 4 sets (1 mata) (M2 M2 M2 · C3 S3 M3 · C6 S6 M6")
    assert (
        "Discard C9: keeps 4 sets (1 mata); breaks nothing (a lone card; 14 live cards of its "
        "rank) — then tan waits on C8 (4 unseen), S8 (5 unseen), M8 (4 unseen) — 13 live cards"
        in lines
    )
    assert "The heuristic bot would play: discard C9 tan" in lines
    assert "Why: it is the only call open to you; its wait has 13 live cards." in lines
    # what a call adds to a win under the scoring in force (Pwee's: +1 tan, ayam 10, kandang 20)
    assert (
        "What a call adds to a win under these rules: Won after calling tan: +1; Ayam: ceki "
        "won on another's card (a discard or a card shown): +10; Kandang: ceki won on your own "
        "draw: +20." in lines
    )
    # what the win's mata pay (the best wait: any 8 leaves M2 M2 M2 the one mata, +1)
    assert (
        "A win on C8 would hold 1 mata (0 red): +1 from them under these rules, before what "
        "the call and the scoring draw add." in lines
    )
    babas = stacked(SATU, [TAN15, JUNK], stock="C4 M2 C8 C5", rules="babas")
    assert any(line.endswith("Kandang: ceki won on your own draw: +10.") for line in plain(babas))
    reasons = BalikHeuristicBot().explain(st.observation(0))
    assert reasons == [
        Reason("call_one", DISCARD + 30 + parse_card("C9"), (parse_card("C9"),), 13, 1)
    ]


def test_a_take_or_a_draw_is_explained_by_what_the_discard_would_join() -> None:
    st = stacked(SATU, [MIX15, JUNK], stock="C4 M2 C8 C5")
    play(st, "0: discard OT", "1: draw", "1: discard C3")  # C3 finishes the part-set C3 S3
    lines = plain(st)
    assert "Take C3: it completes the set C3 C3 S3." in lines
    assert "The heuristic bot would play: take" in lines
    assert any(line.startswith("Why: taking completes the set C3 C3 S3") for line in lines)
    assert BalikHeuristicBot().explain(st.observation(0))[0].kind == "take_set"
    st = stacked(SATU, [MIX15, JUNK], stock="C4 M2 C8 C5")
    play(st, "0: discard OT", "1: draw", "1: discard C4")  # no 4 in the hand
    lines = plain(st)
    assert "Take C4: it joins nothing (a lone card)." in lines
    assert "The heuristic bot would play: draw" in lines
    assert "Why: the discard on offer would join nothing in your hand (a lone card)." in lines
    reason = BalikHeuristicBot().explain(st.observation(0))[0]
    assert (reason.kind, reason.action, reason.other) == ("draw_lone", DRAW, TAKE)


def test_equal_discards_say_the_bot_drew_lots() -> None:
    st = stacked(SATU, [JUNK + " M9", "M1 S1 M2 S2 M3 S3 M4 S4 M5 S5 M6 M7 M8 M9"], stock="C4")
    lines = plain(st)
    assert "3 discards are worth the same to it (C6 C7 C8); it drew lots." in lines


def test_the_bots_reason_is_its_pick() -> None:
    """Whatever the decision, the first reason names the action the bot plays."""
    bot = BalikHeuristicBot()
    for seed in range(3):
        state = SATU.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            obs = state.observation(state.current)
            reasons = bot.explain(obs)
            assert reasons and reasons[0].action == bot.act(obs, random.Random(0))
            state.apply(rng.choice(obs.legal), state.current)


@pytest.mark.parametrize("lang", ["ms", "id"])
def test_the_explained_hint_is_worded_in_malay_and_indonesian(lang: str) -> None:
    st = stacked(SATU, [TAN15, JUNK], stock="C4 M2 C8 C5")
    lines = plain(st, lang=lang)
    english = ("Your hand", "keeps", "breaks", "Why:", "live card", "part-set", "lone")
    for line in lines:
        assert not any(word in line for word in english), line
    assert lines[0].startswith("Tangan anda" if lang == "ms" else "Tangan Anda")
    assert any(line.startswith(("Sebabnya:", "Alasannya:")) for line in lines)


@pytest.mark.parametrize("name", ["balik-satu", "ceki", "cholek-tiga", "tantanan", "chaqui"])
def test_hints_do_not_change_when_hidden_cards_change(name: str) -> None:
    """The hint reads the seat's observation alone: a deal that differs in every card the
    seat cannot see (``determinize``: another seat's hand, the stock) gives the same hint."""
    game = find_game(name)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    checked = 0
    while not state.is_terminal and checked < 12:
        seat = state.current
        obs = state.observation(seat)
        world = game.determinize(obs, random.Random(checked))
        assert world.observation(seat) == obs
        for lang in ("en", "ms"):
            voice = Voice((), words=words(lang))
            here = [h.plain(voice) for h in hints(game, obs, voice)]
            there = [h.plain(voice) for h in hints(game, world.observation(seat), voice)]
            assert here == there
        checked += 1
        state.apply(make_bot(name, "heuristic").act(obs, rng), seat)
    assert checked


# -- Ceki -------------------------------------------------------------------------------------
CEKI = find_game("ceki")


def _ceki_reasons_follow_the_pick(name: str) -> None:
    game = find_game(name)
    bot = make_bot(name, "heuristic")
    assert isinstance(bot, Heuristic)
    for seed in range(3):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            obs = state.observation(state.current)
            reasons = bot.explain(obs)
            assert reasons and reasons[0].action == bot.act(obs, random.Random(0)), reasons
            state.apply(rng.choice(obs.legal), state.current)


@pytest.mark.parametrize("name", ["ceki", "cholek-tiga"])
def test_each_games_bot_explains_the_action_it_picks(name: str) -> None:
    _ceki_reasons_follow_the_pick(name)


def test_a_ceki_hint_lays_out_the_hand_and_the_couple_a_call_waits_on() -> None:
    """Ceki [003]: two sets and a couple call ceki; the hint names the couple's wait with
    the unseen count of each card of its value, and the bot's reason."""
    from test_ceki import JUNK
    from test_ceki import stacked as ceki_stacked

    st = ceki_stacked(["C1 S1 M1 C5 S5 M5 C9 WF", JUNK], stock="S9")
    st.apply("draw", 0)  # S9: two sets, the couple C9 S9 and a lone WF
    lines = [line.plain for line in hint_lines(CEKI, st.observation(0))]
    assert lines[0] == (
        "Your hand: 2 sets (0 mata) (C1 S1 M1 · C5 S5 M5); part-set C9 S9 (10 live cards "
        "finish it); lone WF."
    ), lines
    discard_wf = next(line for line in lines if line.startswith("Discard WF"))
    assert discard_wf.startswith(
        "Discard WF: keeps 2 sets (0 mata); breaks nothing (a lone card; 3 live cards of its "
        "rank) — then ceki waits on C9 (3 unseen),"
    ), discard_wf
    assert discard_wf.endswith("M9 (4 unseen) — 10 live cards"), discard_wf
    assert "Discard C1: keeps 1 set (0 mata); breaks the set C1 S1 M1." in lines
    assert "The heuristic bot would play: discard WF ceki" in lines
    assert (
        "Why: it is the only call open to you; its couple has 10 live cards to complete it."
        in lines
    )


def test_a_cholek_hint_says_what_each_capture_adds() -> None:
    """Cholek Tiga [002]: each capture open with the points it adds, the bot's pick and why."""
    game = find_game("cholek-tiga")
    state = game.new_state(seed=2)
    rng = random.Random(2)
    seen = False
    while not state.is_terminal and not seen:
        obs = state.observation(state.current)
        if obs.phase == "capture" and len(obs.legal) > 1:
            lines = [line.plain for line in hint_lines(game, obs)]
            assert any(
                re.match(r"Capture with \w\w the pool's \w\w \w\w: -?\d+ points more", x)
                for x in lines
            ), lines
            assert any(x.startswith("Why: ") for x in lines), lines
            seen = True
        state.apply(rng.choice(obs.legal), state.current)
    assert seen
