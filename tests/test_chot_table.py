"""Chot at the table (issue 39): the partners marked under each seat during the hand, the
tokens and the bangkong in play in the table's middle, and a result whose payments are
tokens headed as tokens, with no money column of "+0¢". All through Chot's view; the front
ends test no game's name."""

from __future__ import annotations

import random

import pytest

from cherki.bots import make_bot
from cherki.core.contract import play_out
from cherki.games import find_game
from cherki.i18n.voice import Voice
from cherki.server.present import result_view, table_view

CHOT = find_game("chot")
NAMES = ["Ann", "Ben", "Siti", "Kok"]


def _state(seed: int = 3, context: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    return CHOT.new_state(CHOT.default_preset().rules, 4, seed=seed, context=context)


@pytest.mark.parametrize("lang", ["en", "ms", "id"])
def test_partners_tokens_and_the_bangkong_are_shown_during_the_hand(lang: str) -> None:
    state = _state(context={"tokens": [3, 0, 12, 5], "bangkong": 1})
    voice = Voice.of(NAMES, 4, you=0, lang=lang)
    obs = state.observation(0)
    view = CHOT.view()
    lines = [[line["label"] for line in view.seat_side(obs, s, voice)["lines"]] for s in range(4)]
    partner = voice.t("chot.partner", name=voice.obj(2))
    assert partner in lines[0] and voice.t("chot.partner", name=voice.obj(0)) in lines[2]
    assert voice.t("chot.partner", name=voice.obj(3)) in lines[1]
    assert voice.t("chot.tokens_held", n=12) in lines[2]
    zones = {z["id"]: z for z in table_view(obs, CHOT, voice)["zones"]}
    assert zones["bangkong"]["count"] == 1
    assert zones["side-0"]["count"] == 15 and zones["side-1"]["count"] == 5
    # a spectator sees the same
    public = state.public_observation()
    watcher = Voice.of(NAMES, 4, lang=lang)
    assert view.seat_side(public, 1, watcher)["lines"][0]["label"] == watcher.t(
        "chot.partner", name="Kok"
    )


def test_a_chot_result_pays_in_tokens_not_money() -> None:
    state = _state(seed=11)
    bots = [make_bot("chot", "heuristic") for _ in range(4)]
    rngs = [random.Random(i) for i in range(4)]
    play_out(state, lambda seat, obs: bots[seat].act(obs, rngs[seat]))
    voice = Voice.of(NAMES, 4, you=0)
    out = result_view(state.result, CHOT, voice, 1)
    assert out["points_heading"] == "tokens (by side)"
    assert all(p["money"] == "" for p in out["payments"])  # no "+0¢"
    other = find_game("balik-satu")
    assert other.view().payments_heading(voice) == voice.t("page.result.points")
