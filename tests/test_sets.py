"""Sets of three: winning hands, waits, arrangements and kena swaps, per honours rule."""

from __future__ import annotations

import pytest

from cherki.core.cards import format_cards, parse_cards, parse_hand
from cherki.core.errors import RulesError
from cherki.core.sets import (
    GROUPINGS,
    NO_WAIT,
    Wait,
    arrangement,
    improved_mata,
    is_winning,
    mata_count,
    splits_into_sets,
    wait_for,
)
from cherki.core.sets import _grouping as grouping_of

RULES = ("rank1", "frames", "own")
SOURCE_CEKI = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"
BASE12 = "C3 S3 M3 C6 S6 M6 S7 S7 M7"  # three mixed sets, no mata
MATA12 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7"  # one mata, three mixed sets


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def test_unknown_honours_rule() -> None:
    with pytest.raises(RulesError, match="rank1, frames, own"):
        grouping_of("jokers")


# -- is_winning --------------------------------------------------------------------------------
# (hand, {rule: expected})
WINNING = [
    (MATA12 + " C8 S8 M8", dict(rank1=True, frames=True, own=True)),
    ("C2 S2 M2 " + BASE12 + " C8 S8 M8", dict(rank1=False, frames=False, own=False)),  # no mata
    (MATA12 + " C8 S8 M7", dict(rank1=False, frames=False, own=False)),  # M7 M7 S7 S7 ... 8s
    (MATA12 + " C8 S8", dict(rank1=False, frames=False, own=False)),  # 14 cards
    (MATA12 + " WF RF OT", dict(rank1=True, frames=False, own=False)),
    (MATA12 + " C1 WF RF", dict(rank1=True, frames=True, own=False)),
    (MATA12 + " C1 S1 OT", dict(rank1=True, frames=False, own=False)),
    (MATA12 + " OT OT OT", dict(rank1=True, frames=True, own=True)),
    (BASE12 + " C2 S2 M2 WF WF WF", dict(rank1=True, frames=True, own=True)),  # honour mata
    (BASE12 + " C1 C1 C1 C2 S2 M2", dict(rank1=True, frames=True, own=True)),
    (BASE12 + " RF RF C1 C2 S2 M2", dict(rank1=False, frames=False, own=False)),  # no mata
]


@pytest.mark.parametrize(("hand", "expected"), WINNING)
@pytest.mark.parametrize("rule", RULES)
def test_is_winning(hand: str, expected: dict[str, bool], rule: str) -> None:
    counts = parse_hand(hand)
    assert is_winning(counts, GROUPINGS[rule]) is expected[rule]


def test_is_winning_without_the_mata_requirement() -> None:
    counts = parse_hand("C2 S2 M2 " + BASE12 + " C8 S8 M8")
    assert not is_winning(counts, GROUPINGS["rank1"])
    assert is_winning(counts, GROUPINGS["rank1"], need_mata=False)
    assert splits_into_sets(counts, GROUPINGS["rank1"])


# -- wait_for ----------------------------------------------------------------------------------
ALL8 = "C8 S8 M8"
RANK1_ALL = "C1 S1 M1 WF RF OT"
WAITS = [
    # the source's example: four sets, an identical pair of 8s, no mata yet: ceki on M8
    (SOURCE_CEKI, {r: ("ceki", "M8") for r in RULES}),
    # a mata already formed: tan, any 8 wins
    (MATA12 + " C8 M8", {r: ("tan", ALL8) for r in RULES}),
    # a mata anywhere (here in the open group) also makes tan
    (BASE12 + " C8 C8 C8 S8 M8", {r: ("tan", ALL8) for r in RULES}),
    # ceki with two identical pairs in a five-card open group
    (BASE12 + " C8 C8 S8 S8 M8", {r: ("ceki", "C8 S8") for r in RULES}),
    # no identical pair and no mata: nothing to call
    ("C2 S2 M2 " + BASE12 + " C8 M8", {r: (None, "") for r in RULES}),
    # two open groups: no wait
    (MATA12 + " C8 C9", {r: (None, "") for r in RULES}),
    # honours in the open group
    (
        MATA12 + " C1 WF",
        dict(rank1=("tan", RANK1_ALL), frames=("tan", "C1 S1 M1 WF RF"), own=(None, "")),
    ),
    (
        MATA12 + " OT OT",
        dict(rank1=("tan", RANK1_ALL), frames=("tan", "OT"), own=("tan", "OT")),
    ),
    (
        "C2 S2 M2 " + BASE12 + " OT OT",
        dict(rank1=("ceki", "OT"), frames=("ceki", "OT"), own=("ceki", "OT")),
    ),
    (
        "C2 S2 M2 " + BASE12 + " WF RF",
        dict(rank1=(None, ""), frames=(None, ""), own=(None, "")),
    ),
    (
        MATA12 + " WF RF",
        dict(rank1=("tan", RANK1_ALL), frames=("tan", "C1 S1 M1 WF RF"), own=(None, "")),
    ),
    # a complete 15-card hand or 13 cards do not wait
    (MATA12 + " C8 S8 M8", {r: (None, "") for r in RULES}),
    (MATA12 + " C8", {r: (None, "") for r in RULES}),
]


@pytest.mark.parametrize(("hand", "expected"), WAITS)
@pytest.mark.parametrize("rule", RULES)
def test_wait_for(hand: str, expected: dict[str, tuple[str | None, str]], rule: str) -> None:
    call, waits = expected[rule]
    got = wait_for(parse_hand(hand), GROUPINGS[rule])
    assert got == Wait(call, cards(waits)) if call else got == NO_WAIT
    # every card waited on really wins, every other card does not
    counts = parse_hand(hand)
    for k in range(30):
        counts[k] += 1
        assert is_winning(counts, GROUPINGS[rule]) is (k in got.cards), format_cards([k])
        counts[k] -= 1


def test_source_example_is_ceki_on_the_pair_of_eights() -> None:
    w = wait_for(parse_hand(SOURCE_CEKI), GROUPINGS["rank1"])
    assert w.call == "ceki"
    assert format_cards(w.cards) == "M8"


# -- arrangement -------------------------------------------------------------------------------
ARRANGEMENTS = [
    # hand, rule, expected sets (in order), leftover, mata, red mata
    (SOURCE_CEKI, "rank1", ["S2 M2 M2", "C3 S3 M3", "C6 S6 M6", "S7 S7 M7"], "M8 M8", 0, 0),
    (
        MATA12 + " C8 S8 M8",
        "rank1",
        ["M2 M2 M2", "C3 S3 M3", "C6 S6 M6", "S7 S7 M7", "C8 S8 M8"],
        "",
        1,
        0,
    ),
    # a group that can hold two mata holds both, red counted
    ("C9 C9 C9 S9 S9 S9", "rank1", ["C9 C9 C9", "S9 S9 S9"], "", 2, 1),
    ("S9 S9 S9 S9 C9 M9", "rank1", ["S9 S9 S9", "C9 S9 M9"], "", 1, 1),
    ("RF RF RF C1 C1 C1 OT", "rank1", ["C1 C1 C1", "RF RF RF"], "OT", 2, 1),
    ("RF RF RF WF C1 OT OT OT", "rank1", ["RF RF RF", "OT OT OT"], "C1 WF", 2, 2),
    ("RF RF RF WF C1 OT OT OT", "frames", ["RF RF RF", "OT OT OT"], "C1 WF", 2, 2),
    ("RF RF RF WF C1 S1 OT OT OT", "own", ["RF RF RF", "OT OT OT"], "C1 S1 WF", 2, 2),
    ("C1 WF RF", "rank1", ["C1 WF RF"], "", 0, 0),
    ("C1 WF RF", "frames", ["C1 WF RF"], "", 0, 0),
    ("C1 WF RF", "own", [], "C1 WF RF", 0, 0),
]


@pytest.mark.parametrize(("hand", "rule", "sets", "leftover", "mata", "red"), ARRANGEMENTS)
def test_arrangement(
    hand: str, rule: str, sets: list[str], leftover: str, mata: int, red: int
) -> None:
    arr = arrangement(parse_hand(hand), GROUPINGS[rule])
    assert [format_cards(s) for s in arr.sets] == sets
    assert format_cards(arr.leftover) == leftover
    assert (arr.mata, arr.red_mata) == (mata, red)
    n_mata = sum(1 for s in arr.sets if arr.is_mata(s))
    assert n_mata == mata
    # mata come first
    assert all(arr.is_mata(s) for s in arr.sets[:mata])


def test_arrangement_keeps_the_ceki_pair_as_leftover() -> None:
    arr = arrangement(parse_hand(BASE12 + " C2 S2 M2 C8 C8 S8 M8 M8"), GROUPINGS["rank1"])
    assert arr.leftover in (cards("C8 C8"), cards("M8 M8"))


def test_mata_count() -> None:
    assert mata_count(parse_hand("S9 S9 S9 C9 C9 C9 C9 OT OT OT OT OT OT")) == (4, 3)


# -- improved_mata (kena and the fifteen-card swap) --------------------------------------------
WIN15 = MATA12 + " C8 S8 M8"
IMPROVED = [
    # hand, extra, {rule: (mata, red)}
    (WIN15, "", {r: (1, 0) for r in RULES}),
    # kena: the turned S7 replaces M7 in S7 S7 M7, making a mata
    (WIN15, "S7", {r: (2, 0) for r in RULES}),
    (WIN15, "M2", {r: (1, 0) for r in RULES}),  # already a mata
    (WIN15, "C5", {r: (1, 0) for r in RULES}),  # no set of 5s
    (WIN15, "M3", {r: (1, 0) for r in RULES}),  # one M3 is not enough
    # red kena
    (MATA12 + " S9 S9 C9", "S9", {r: (2, 1) for r in RULES}),
    # honours: RF RF C1 is a set only when RF joins the rank-1 group
    (MATA12 + " RF RF C1", "RF", dict(rank1=(2, 1), frames=(2, 1), own=(1, 0))),
    (MATA12 + " OT OT C1", "OT", dict(rank1=(2, 1), frames=(1, 0), own=(1, 0))),
    (MATA12 + " WF WF WF", "OT", {r: (2, 0) for r in RULES}),
    # the Lima Belas swap from fifteen cards: C3 and S6 sets become mata; the 7s too
    (
        WIN15,
        "C3 C3 S6 S6 S7 C4 C5 C9 S1 S4 S5 M4 M5 WF RF",
        {r: (4, 0) for r in RULES},
    ),
    # junk fifteen: nothing to swap
    (WIN15, "C4 C5 C9 S1 S4 S5 M4 M5 M9 WF RF OT C4 C5 C9", {r: (1, 0) for r in RULES}),
    # one set of 3s can hold one mata however many 3s are drawn; red preferred
    ("C9 S9 M9 " + MATA12, "C9 C9 S9 S9", {r: (2, 1) for r in RULES}),
    ("C3 S3 M3 C3 S3 M3", "C3 C3 S3 S3", {r: (2, 0) for r in RULES}),
    ("C3 S3 M3", "C3 C3 S3 S3", {r: (1, 0) for r in RULES}),
]


@pytest.mark.parametrize(("hand", "extra", "expected"), IMPROVED)
@pytest.mark.parametrize("rule", RULES)
def test_improved_mata(
    hand: str, extra: str, expected: dict[str, tuple[int, int]], rule: str
) -> None:
    assert improved_mata(parse_hand(hand), parse_hand(extra), GROUPINGS[rule]) == expected[rule]


@pytest.mark.parametrize(
    "name", ["balik-satu", "chaqui", "tantanan", "gonggong", "chot", "balik-lima-belas"]
)
def test_the_fast_encoding_is_the_layouts_view_by_view(name: str) -> None:
    """``encode`` fills the vector with numpy, and ``state.encode(seat)`` from the blocks the
    state keeps between steps; both must equal the vector built view by view with the
    layout's checks, for every seat and the public view at every step of random hands
    (takes, exposed olo, calls and claims change the kept blocks)."""
    import random

    import numpy as np

    from cherki.core.events import NOBODY
    from cherki.games import find_game
    from cherki.games.sets.observation import _encode_by_views

    game = find_game(name)
    for seed in range(12):
        lo, hi = game.players
        state = game.new_state(seed=seed, players=[lo, game.default_players, hi][seed % 3])
        rng = random.Random(seed)
        while True:
            for seat in range(state.n):
                obs = state.observation(seat)
                want = _encode_by_views(obs)
                assert np.array_equal(obs.encode(), want)
                # the state's fast path (blocks kept between steps), the adapters' way
                assert np.array_equal(state.encode(seat), want), (seed, seat)
            pub = _encode_by_views(state.public_observation())
            assert np.array_equal(state.encode(NOBODY), pub)
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["balik-satu", "chaqui", "gonggong", "chot"])
def test_the_fast_encoding_holds_across_steps_it_did_not_see(name: str) -> None:
    """The blocks ``state.encode`` keeps must follow any number of steps between two calls
    (a learner reads one seat now and then, a search reads clones): encoded for a random
    seat after random stretches of play, from the state and from clones, the vector equals
    the one built view by view."""
    import random

    import numpy as np

    from cherki.core.events import NOBODY
    from cherki.games import find_game
    from cherki.games.sets.observation import _encode_by_views

    game = find_game(name)
    for seed in range(16):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            for _ in range(rng.choice([1, 1, 2, 3, 7])):
                if state.is_terminal:
                    break
                state.apply(rng.choice(state.legal_actions()))
            seat = rng.choice([NOBODY, state.current if state.current >= 0 else 0, 0])
            read = state.clone() if rng.random() < 0.2 else state
            want = _encode_by_views(
                read.observation(seat) if seat >= 0 else read.public_observation()
            )
            assert np.array_equal(read.encode(seat), want), (seed, seat)


@pytest.mark.parametrize(
    "name",
    ["balik-satu", "balik-lima-belas", "gonggong", "tantanan", "ceken", "chaqui", "chot", "ceki"],
)
def test_the_group_totals_kept_with_each_hand_stay_its_own(name: str) -> None:
    """The state keeps each seat's cards per group as its hand changes (takes, draws, shown
    draws passed or claimed, discards, exposed olo; Ceki's takes, draws and discards); they
    must always be the hand's, in copies too. Heuristic play half the time, so calls, claims
    and wins come often."""
    import random

    from cherki.bots import make_bot
    from cherki.core.sets import group_totals
    from cherki.games import find_game

    game = find_game(name)
    bot = make_bot(name, "heuristic")
    for seed in range(25):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.current
            if rng.random() < 0.5:
                action = bot.act(state.observation(seat), rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            copy = state.clone()
            for s in range(state.n):
                assert state.totals[s] == group_totals(state.hands[s], state.grouping)
                assert copy.totals[s] == state.totals[s] and copy.totals[s] is not state.totals[s]


def test_the_fast_observation_is_the_keyword_built_one() -> None:
    """``observation`` fills the fields in declared order without keywords; it must be the
    observation the keyword form describes, field by field."""
    import random

    from cherki.games import find_game
    from cherki.games.sets.actions import FROM_DEAL, PHASE_NAMES
    from cherki.games.sets.observation import SetsObservation

    game = find_game("chaqui")
    state = game.new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal:
        for seat in range(state.n):
            mine = seat == state.current
            want = SetsObservation(
                seat=seat, players=state.n, current=state.current,
                phase=PHASE_NAMES[state.phase], hand=tuple(state.hands[seat]),
                hand_sizes=tuple(sum(h) for h in state.hands),
                stock_left=max(0, state.live_end - state.pos), pile=tuple(state.pile),
                top_available=state.top_available, calls=tuple(state.calls),
                call_changed=tuple(state.call_changed),
                exposed=tuple(tuple(e) for e in state.exposed),
                claim_card=state.claim_card if state.claim_card >= 0 else None,
                drawn=state.drawn if state.drawn >= 0 and mine else None,
                legal=tuple(state.legal_actions(seat)), half_packs=state.half_packs,
                honours=state.rules.honours, result=None, rules=state.rules,
                first=state.first, call_order=tuple(state.call_order),
                pile_seats=tuple(state.pile_seats),
                drawn_from=state.drawn_from if mine else FROM_DEAL,
                claimants=tuple(state.claimants[:1]), claim_drawer=state.claim_drawer,
                melds=tuple(tuple(m) for m in state.melded),
                claim_from_discard=state.claim_from_discard, call_names=game.call_names,
                call_words=game.call_words,
                pot=state.pot, context=state.context or None, game=game.name,
            )  # fmt: skip
            assert state.observation(seat) == want
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gonggong", {"discard_wins": True}),
        ("gonggong", {"discard_wins": True, "claim_priority": "first-caller"}),
        ("balik-satu", {"call_timing": "next"}),
        ("tantanan", {"discard_wins": True}),
        ("chaqui", {"discard_wins": True}),
        ("chot", {"discard_wins": True}),
    ],
)
def test_the_fast_encoding_follows_the_options_that_change_the_pile(
    name: str, options: dict[str, object]
) -> None:
    """With a discard claimed (option ``discard_wins``: it leaves the pile again) or calls
    put off (``call_timing``), ``state.encode(seat)`` read for the seat to act at every step,
    before any observation is built, equals ``observation(seat).encode()``."""
    import random

    import numpy as np

    from cherki.games import find_game

    game = find_game(name)
    rules = game.rules(None, **options)
    claims = 0
    for seed in range(30):
        state = game.new_state(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.current
            fast = state.encode(seat)
            assert np.array_equal(fast, state.observation(seat).encode()), (seed, seat)
            claims += state.phase_name == "claim"
            state.apply(rng.choice(state.legal_actions()))
    assert claims or "discard_wins" not in options  # the claims were met
