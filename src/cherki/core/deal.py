"""Shuffles, shoes and stacked deals: where a hand's cards come from.

Randomness: shuffles use only :meth:`random.Random.random`, whose output for a given seed
Python guarantees across versions, so seeds recorded today replay tomorrow.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from cherki.compiled import reduce_fields
from cherki.core.cards import N_KINDS, card_name
from cherki.core.errors import RulesError
from cherki.core.events import JSON, slot_init


def shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """Fisher-Yates using only ``rng.random()`` (stable across Python versions)."""
    out = list(cards)
    rand = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(rand() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def shoe_cards(half_packs: int) -> list[int]:
    """The cards of a shoe of ``half_packs`` half-packs (one of each kind each), sorted."""
    return list(_shoe(half_packs))


@cache
def _shoe(half_packs: int) -> tuple[int, ...]:
    return tuple(k for k in range(N_KINDS) for _ in range(half_packs))


def check_shoe_order(order: Sequence[int], half_packs: int) -> None:
    """Raise :class:`RulesError` unless ``order`` holds exactly the shoe's cards."""
    if len(order) != half_packs * N_KINDS:
        raise RulesError(
            f"the shoe order has {len(order)} cards but {half_packs} half-packs hold "
            f"{half_packs * N_KINDS}"
        )
    counts = [0] * N_KINDS
    for k in order:
        counts[k] += 1
    wrong = [f"{card_name(k)} appears {c} times" for k, c in enumerate(counts) if c != half_packs]
    if wrong:
        raise RulesError(
            f"the shoe order must hold each card {half_packs} times: " + "; ".join(wrong[:5])
        )


def fill_stack(
    hands: Sequence[Sequence[int]],
    stock_top: Sequence[int],
    half_packs: int,
    rng: random.Random | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Hands given card by card and the top of the stock; the rest of the shoe follows.

    The remaining cards go under ``stock_top`` in kind order, or shuffled when ``rng`` is
    given. Raises :class:`RulesError` when the stack uses a card more often than the shoe
    holds it.
    """
    remaining = [half_packs] * N_KINDS
    for k in [k for h in hands for k in h] + list(stock_top):
        remaining[k] -= 1
        if remaining[k] < 0:
            raise RulesError(
                f"the stacked deal uses {card_name(k)} more than the {half_packs} times "
                "the shoe holds it"
            )
    rest = [k for k in range(N_KINDS) for _ in range(remaining[k])]
    if rng is not None:
        rest = shuffled(rest, rng)
    return [list(h) for h in hands], list(stock_top) + rest


#: A stacked deal: each seat's cards (card by card), and the top of the stock, top first.
Stack = tuple[Sequence[Sequence[int]], Sequence[int]]


@dataclass(frozen=True, slots=True)
class DealRequest:
    """How a hand's cards are to be set up: one of a ``seed``, an outside generator
    (``rng``), a whole ``shoe`` order (top card first) or a ``stack`` (each seat's hand and
    the stock's top; the rest follows in kind order, or shuffled by ``seed``); who starts
    (``first``); and what a match carries into the hand (``context``: a pot...)."""

    seed: int | None = None
    rng: random.Random | None = None
    shoe: Sequence[int] | None = None
    stack: Stack | None = None
    first: int = 0
    context: Mapping[str, JSON] | None = None

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(DealRequest)  # made for every hand: its slots set directly (core.events.slot_init)


@dataclass(frozen=True, slots=True)
class DealInfo:
    """What a record needs to deal a hand again exactly (see ``docs/records.md``)."""

    first: int
    seed: int | None = None
    shoe: tuple[int, ...] | None = None
    stack: tuple[tuple[tuple[int, ...], ...], tuple[int, ...]] | None = None
    context: Mapping[str, JSON] | None = None
    #: sampled for search from one seat's observation, not dealt
    determinized: bool = False

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(DealInfo)


@dataclass
class DealSource:
    """Where a hand's cards come from, as :func:`deal_source` settles it.

    Either ``order`` (the whole shoe, top card first, for the game to deal by its own
    method) or, for a stacked deal, ``hands`` (each seat's cards) and ``stock`` (top first).
    ``info`` is what a record needs to reproduce the deal.
    """

    order: list[int] | None
    hands: list[list[int]] | None
    stock: list[int] | None
    info: DealInfo


def deal_source(
    request: DealRequest,
    *,
    players: int,
    half_packs: int,
    hand_sizes: Sequence[int],
) -> DealSource:
    """Settle a deal from a stacked deal, an explicit shoe order, a generator or a seed.

    A stacked deal must give each seat ``hand_sizes[seat]`` cards; the rest of the shoe goes
    under its stock top in kind order, or shuffled by ``seed``. A shoe must hold exactly the
    shoe's cards. A generator with no seed keeps its order in ``info`` so the hand replays.
    """
    seed, first = request.seed, request.first
    context = dict(request.context) if request.context else None
    if request.stack is not None:
        hands_cards, top = request.stack
        if len(hands_cards) != players:
            raise RulesError(
                f"the stacked deal gives {len(hands_cards)} hands for {players} players"
            )
        for i, h in enumerate(hands_cards):
            if len(h) != hand_sizes[i]:
                raise RulesError(f"seat {i}'s stacked hand has {len(h)} cards, not {hand_sizes[i]}")
        stack_rng = random.Random(seed) if seed is not None else None
        hand_lists, stock = fill_stack(hands_cards, top, half_packs, stack_rng)
        stacked = (tuple(tuple(h) for h in hands_cards), tuple(top))
        info = DealInfo(first, seed, None, stacked, context)
        return DealSource(None, hand_lists, stock, info)
    if request.shoe is not None:
        check_shoe_order(request.shoe, half_packs)
        order = list(request.shoe)
        return DealSource(order, None, None, DealInfo(first, seed, tuple(order), None, context))
    rng = request.rng if request.rng is not None else random.Random(seed)
    order = shuffled(shoe_cards(half_packs), rng)
    # an outside generator with no seed: keep the order to replay
    kept = tuple(order) if seed is None else None
    return DealSource(order, None, None, DealInfo(first, seed, kept, None, context))


def tally(vectors: Iterable[Sequence[int]] = (), cards: Iterable[int] = ()) -> list[int]:
    """One count vector of several count vectors and loose cards (for ``card_counts``)."""
    counts = [0] * N_KINDS
    for vec in vectors:
        for k in range(N_KINDS):
            counts[k] += vec[k]
    for k in cards:
        counts[k] += 1
    return counts
