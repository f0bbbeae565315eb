"""The review of a seat's decisions after the hand (:mod:`cherki.play.review`): planted
errors in stacked hands are marked blunders, a hand played by the review's own evaluator
has none, the same record gives the same review, the other seats' hidden cards change
nothing, and bad requests are refused in words."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import JUNK, JUNK2, SATU, play, stacked

from cherki.bots.base import heuristic_for
from cherki.bots.review import EvaluatorBot, Thresholds, thresholds_for
from cherki.core.deal import DealRequest
from cherki.core.errors import RecordError
from cherki.games import find_game
from cherki.play.records import Record, hand_record, new_record, parse_record
from cherki.play.review import Review, ReviewError, review_record

CEKI14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"  # the source's ceki hand, waits on M8
CEKI15 = CEKI14 + " C9"
TAN14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"  # mata M2, waits on any 8

BUDGET = 16


def finish(state: Any, seed: int = 1) -> Record:
    """Play the hand on with the heuristic on every seat; its record."""
    bot = heuristic_for(state.game.name)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(bot.act(state.observation(state.current), rng))
    players = len(state.result.payments)
    record = new_record(state.game, state.rules, [f"p{i}" for i in range(players)])
    record.hands.append(hand_record(state))
    return record


def decision(review: Review, taken: str) -> Any:
    found = [d for d in review.decisions if d.taken.text == taken]
    assert found, [d.taken.text for d in review.decisions]
    return found[0]


# -- planted errors ------------------------------------------------------------------------
def test_discarding_the_card_that_completes_the_call_lets_a_kandang_pass() -> None:
    # seat 0 calls ceki on M8, draws M8 (a kandang win) and discards it instead
    st = stacked(SATU, [CEKI15, JUNK, JUNK2], stock="C4 C4 M8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "2: draw", "2: discard C4")
    play(st, "0: draw", "0: discard M8")
    review = review_record(finish(st), 0, budget=BUDGET)
    bad = decision(review, "discard M8")
    assert bad.best.text == "sampei"
    assert bad.mark == "blunder"
    assert bad.loss.low > review.thresholds.blunder / 2
    assert review.total_loss >= bad.loss.mean


def test_letting_an_ayam_pass_is_a_blunder() -> None:
    # seat 1 draws M8, shown to all: seat 0, waiting ceki on it, passes instead of sampei
    st = stacked(SATU, [CEKI15, JUNK, JUNK2], stock="M8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "0: pass")
    review = review_record(finish(st), 0, budget=BUDGET)
    bad = decision(review, "pass")
    assert bad.best.text == "sampei" and bad.mark == "blunder"


def test_a_take_that_breaks_the_mata_is_a_blunder() -> None:
    # seat 1 waits tan on any 8 with its mata M2 M2 M2; it takes the M9 and breaks the mata
    st = stacked(SATU, [JUNK + " M9", TAN14, JUNK2], stock="C4 C4 M8 C5")
    play(st, "0: discard M9", "1: take", "1: discard M2")
    review = review_record(finish(st), 1, budget=BUDGET)
    bad = decision(review, "discard M2")
    assert bad.mark == "blunder"
    assert bad.best.value.mean - bad.taken.value.mean >= review.thresholds.blunder


def test_a_hand_played_by_the_evaluator_has_no_loss() -> None:
    game = find_game("balik-satu")
    rules = game.default_preset().rules
    st = game.start(rules, 3, DealRequest(seed=5))
    me = EvaluatorBot("balik-satu", budget=8, seed=3)
    other = heuristic_for("balik-satu")
    rng = random.Random(2)
    while not st.is_terminal:
        who = st.current
        obs = st.observation(who)
        st.apply(me.act(obs, rng) if who == 0 else other.act(obs, rng))
    record = new_record(game, rules, ["me", "b1", "b2"])
    record.hands.append(hand_record(st))
    review = review_record(record, 0, budget=8, seed=3)
    assert review.decisions
    assert all(d.mark is None and d.loss.mean == 0 for d in review.decisions)
    assert review.total_loss == 0


# -- reproducible, hidden stays hidden ---------------------------------------------------------
def kandang_record(hands: list[str], seed: int | None) -> Record:
    """The kandang hand played to its end by script: seat 0 wins at its second turn."""
    st = stacked(SATU, hands, stock="C4 C4 M8 C5", seed=seed)
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "2: draw", "2: discard C4")
    play(st, "0: draw", "0: sampei")
    assert st.is_terminal
    record = new_record(SATU, st.rules, ["a", "b", "c"])
    record.hands.append(hand_record(st))
    return record


def test_the_same_record_gives_the_same_review() -> None:
    text = kandang_record([CEKI15, JUNK, JUNK2], None).dumps()
    one = review_record(parse_record(text), 0, budget=8).to_json()
    two = review_record(parse_record(text), 0, budget=8).to_json()
    assert one == two
    assert one["evaluator"] == "search" and one["budget"] == 8
    other_seed = review_record(parse_record(text), 0, budget=8, seed=1).to_json()
    assert other_seed["decisions"] != one["decisions"]


def test_other_seats_hidden_cards_change_nothing() -> None:
    """The other seats' hands (never shown to seat 0) swapped and the stock below its top
    shuffled by another seed: seat 0's review is the same."""
    base = review_record(kandang_record([CEKI15, JUNK, JUNK2], None), 0, budget=8).to_json()
    scrambled = review_record(kandang_record([CEKI15, JUNK2, JUNK], 77), 0, budget=8)
    assert scrambled.to_json() == base
    # and seat 1's review does change with them (its own cards): the test can fail
    assert (
        review_record(kandang_record([CEKI15, JUNK2, JUNK], 77), 1, budget=8).to_json()
        != review_record(kandang_record([CEKI15, JUNK, JUNK2], None), 1, budget=8).to_json()
    )


# -- refusals ------------------------------------------------------------------------------------
def test_refusals_in_words() -> None:
    record = kandang_record([CEKI15, JUNK, JUNK2], None)
    with pytest.raises(ReviewError, match="seat 3 did not play"):
        review_record(record, 3)
    with pytest.raises(ReviewError, match="there is no hand 2"):
        review_record(record, 0, hand=1)
    with pytest.raises(ReviewError, match="budget"):
        review_record(record, 0, budget=1)
    live = record.to_json()
    hands = live["hands"]
    assert isinstance(hands, list) and isinstance(hands[0], dict)
    actions = hands[0]["actions"]
    assert isinstance(actions, list)
    hands[0]["actions"] = actions[:-1]
    hands[0].pop("result", None)
    with pytest.raises(ReviewError, match="not finished"):
        review_record(parse_record(live), 0)
    hands[0]["actions"] = [*actions[:-1], "0: discard WF"]
    with pytest.raises(RecordError, match="action 7"):
        review_record(parse_record(live), 0)


def test_thresholds_are_declared_per_game() -> None:
    assert thresholds_for("balik-satu") == Thresholds(1.0, 2.5, 5.0)
    assert thresholds_for("ceki") == Thresholds(15.0, 37.5, 75.0)
    assert thresholds_for("cholek-tiga") == Thresholds(2.0, 5.0, 10.0)


@pytest.mark.parametrize(("name", "players"), [("balik-satu", 4), ("ceki", 4), ("cholek-tiga", 3)])
def test_a_decision_judged_the_same_whatever_the_others_hold(name: str, players: int) -> None:
    """At a decision of seat 0 in the middle of a hand, the other seats' hidden cards (and
    the stock's order) dealt again as seat 0's observation allows: the judgement is the
    same, and it differs for another review seed (the check can fail)."""
    from cherki.bots.review import judge, make_evaluator

    game = find_game(name)
    state = game.start(game.default_preset().rules, players, DealRequest(seed=9))
    bot = heuristic_for(name)
    rng = random.Random(4)
    seen = 0
    while True:
        obs = state.observation(state.current)
        if state.current == 0 and len(obs.legal) > 1:
            seen += 1
            if seen == 3:
                break
        state.apply(bot.act(obs, rng))
    mine = state.observation(0)
    other = game.determinize(mine, random.Random(123))
    assert other.observation(0).to_json() == mine.to_json()
    assert other.card_counts() != state.card_counts() or other.observation(1).to_json() != (
        state.observation(1).to_json()
    )

    def judged(s: Any, seed: int = 0) -> Any:
        obs = s.observation(0)
        return judge(
            make_evaluator(name),
            obs,
            int(obs.legal[0]),
            seed=seed,
            budget=4,
            thresholds=thresholds_for(name),
            game=name,
        )

    assert judged(state) == judged(other)
    assert judged(state) != judged(state, seed=1)


# -- the learned bot's rollouts (issue 38) ----------------------------------------------------
def test_the_learned_bots_rollouts_judge_where_it_is_as_strong_as_the_search() -> None:
    """From the cards' arena figures: learned − search not below 0 and learned − heuristic
    above 0 with its whole interval (Balik Satu 2p and 6p, Chaqui 3p, Gonggong 5p, Tantanan
    3p, Ceki at every table, 2p to 6p); the search elsewhere: where the search's mean is
    ahead (Balik Satu 4p and 5p, Balik Lima Belas 4p, Chaqui 2p and 4p, Chot 4p, Gonggong
    4p and 6p) and where no model ships."""
    from cherki.bots.review import evaluator_for

    learned = [
        ("balik-satu", 2),
        ("balik-satu", 6),
        ("chaqui", 3),
        ("gonggong", 5),
        ("tantanan", 3),
        *(("ceki", n) for n in range(2, 7)),
    ]
    for game, n in learned:
        assert evaluator_for(game, n) == "learned", (game, n)
    tables = [
        ("balik-satu", 4),
        ("balik-satu", 5),
        ("balik-lima-belas", 4),
        ("chaqui", 2),
        ("chaqui", 4),
        ("chot", 4),
        ("gonggong", 4),
        ("gonggong", 6),
    ]
    for game, n in [*tables, ("balik-satu", 7), ("cholek-tiga", 3)]:
        assert evaluator_for(game, n) == "search", (game, n)


def _midhand(name: str, players: int, seed: int) -> Any:
    game = find_game(name)
    state = game.start(game.default_preset().rules, players, DealRequest(seed=seed))
    bot, rng = heuristic_for(name), random.Random(seed)
    while True:
        obs = state.observation(state.current)
        if state.current == 0 and len(obs.legal) > 2:
            return state
        state.apply(bot.act(obs, rng))


def test_the_learned_evaluator_plays_every_seat_on_with_the_learned_bot() -> None:
    from cherki.bots.learned import LearnedBot
    from cherki.bots.review import make_evaluator

    state = _midhand("balik-satu", 2, 11)
    obs = state.observation(0)
    actions = [int(a) for a in obs.legal]
    learned = make_evaluator("balik-satu", "learned")
    assert learned.name == "learned"
    got = learned.samples(obs, actions, random.Random(5), 3)
    # the same deals and seeds played on by hand, one learned bot a seat
    rng = random.Random(5)
    search = make_evaluator("balik-satu", "search")
    for i in range(3):
        world = search.bot.sample_world(obs, rng)  # type: ignore[attr-defined]
        seed = rng.randrange(1 << 30)
        for a in actions:
            w = world.clone()
            w.apply(a, 0)
            play = random.Random(seed)
            bots = [LearnedBot("balik-satu") for _ in range(2)]
            while not w.is_terminal:
                s = w.current
                w.apply(bots[s].act(w.observation(s), play), s)
            assert got[a][i] == w.result.payments[0]
    # and the search's rollouts (the hand-set heuristic) are not the same play
    plain = search.samples(obs, actions, random.Random(5), 3)
    assert plain != got


def test_a_review_says_which_evaluator_judged(tmp_path: Any) -> None:
    game = find_game("balik-satu")
    rules = game.default_preset().rules
    two = finish(game.start(rules, 2, DealRequest(seed=3)))
    review = review_record(two, 0, budget=2)
    assert review.evaluator == "learned" and review.decisions
    assert review_record(two, 0, budget=2, evaluator="search").evaluator == "search"
    four = finish(game.start(rules, 4, DealRequest(seed=3)))
    assert review_record(four, 0, budget=2).evaluator == "search"
    # no model for the table: the learned evaluator is refused in one sentence
    seven = finish(game.start(rules, 7, DealRequest(seed=3)))
    said = r"cannot judge this table: the learned models of Balik Satu are for .* players, not 7"
    with pytest.raises(ReviewError, match=said) as err:
        review_record(seven, 0, budget=2, evaluator="learned")
    assert "\n" not in str(err.value)
