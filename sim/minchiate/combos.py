"""Combinations (versicole and the others) of §4, found on a card set: a hand or a team pile.

* **R1** low run: three or more consecutive trumps inside 1-5 (at most one piece).
* **R2** high run: every maximal run of three or more consecutive trumps inside 28-40 is one
  piece (28-29-30-31 is one run, not two).
* **C3** trumps 1 + 40 + the Matto.  **C4** trumps 1 + 13 + 28.
* **C5** trumps 10-20-30 or 20-30-40; holding all four is one four-card combination
  (``c5_merge``) or both triples (``c5_merge=False``).
* **C6** three or four Kings.

A combination is worth the values of its cards, trump 29 counting ``combo_29`` (5), the Matto its
``matto_points`` (5) in C3. *Matto bonus*: when the set holds the Matto, every combination found earns
``matto_bonus`` (5) more, C3 only with ``matto_bonus_on_c3``. The values are options
(:class:`~cardlab.sim.minchiate.rules.MinchiateOptions`); the order below does not depend on them. With ``combos_may_share`` (default) a card may serve in combinations of
different types (trump 1 in R1, C3 and C4); without it each card serves once, the types taking
their cards in the order R1, R2, C3, C4, C5, C6 (runs are kept whole; with four C5 trumps and
no merge, 20-30-40 is taken before 10-20-30 as it is worth more).

Two versions that tests prove equal: :func:`find_combinations` (plain Python, readable, used by
the referee and the replay) and :func:`combos_nb` (the kernel, on the two-word hand).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from cardlab.sim.cards import ONE, ZERO, ctz, popcount
from cardlab.sim.minchiate.points import combo_points_nb
from cardlab.sim.minchiate.rules import KING_GROUP, KINGS, MATTO, OPT, SUIT_BASE, MinchiateOptions, trump

R1, R2, C3, C4, C5, C6 = range(6)
DEFAULT = MinchiateOptions()


class Combination(NamedTuple):
    kind: str  # R1, R2, C3, C4, C5 or C6
    cards: tuple  # card ids
    value: int  # card values (29 as 5) plus the Matto bonus


def _runs(numbers, low, high):
    """Maximal runs of three or more consecutive numbers inside low..high."""
    runs, run = [], []
    for n in range(low, high + 2):
        if n <= high and n in numbers:
            run.append(n)
        else:
            if len(run) >= 3:
                runs.append(run)
            run = []
    return runs


def find_combinations(cards, *, c5_merge: bool = True, combos_may_share: bool = True,
                      matto_bonus_on_c3: bool = False, combo_points=None,
                      matto_bonus: int = DEFAULT.matto_bonus) -> list[Combination]:
    """Every combination of §4 in the card set ``cards`` (ids), in the order R1, R2, C3, C4, C5, C6;
    ``combo_points`` (by card id; default :meth:`MinchiateOptions.combo_points`) and ``matto_bonus`` value them."""
    points = DEFAULT.combo_points() if combo_points is None else combo_points
    held = {int(c) for c in cards}
    free = set(held)  # cards not yet used by a combination (matters only without sharing)
    bonus = matto_bonus if MATTO in held else 0
    found = []

    def trumps_free():
        return {c + 1 for c in free if c < 40}

    def add(kind, ids):
        value = sum(int(points[c]) for c in ids)
        if kind != "C3" or matto_bonus_on_c3:
            value += bonus
        found.append(Combination(kind, tuple(sorted(ids)), value))
        if not combos_may_share:
            free.difference_update(ids)

    for run in _runs(trumps_free(), 1, 5):
        add("R1", [trump(n) for n in run])
    for run in _runs(trumps_free(), 28, 40):
        add("R2", [trump(n) for n in run])
    if {trump(1), trump(40), MATTO} <= free:
        add("C3", [trump(1), trump(40), MATTO])
    if {trump(1), trump(13), trump(28)} <= free:
        add("C4", [trump(1), trump(13), trump(28)])
    t = trumps_free()
    if c5_merge and {10, 20, 30, 40} <= t:
        add("C5", [trump(n) for n in (10, 20, 30, 40)])
    else:
        for triple in ((20, 30, 40), (10, 20, 30)):
            if set(triple) <= trumps_free():
                add("C5", [trump(n) for n in triple])
    kings = [k for k in KINGS if k in free]
    if len(kings) >= 3:
        add("C6", kings)
    return found


# ---------------------------------------------------------------- the kernel

LOW_RUN = np.uint64(0x1F)  # trumps 1-5: ids 0..4
HIGH_SHIFT = np.uint64(27)  # trumps 28-40: ids 27..39
HIGH_RUN = np.uint64(0x1FFF)
M_C3 = np.uint64((1 << trump(1)) | (1 << trump(40)) | (1 << MATTO))
M_C4 = np.uint64((1 << trump(1)) | (1 << trump(13)) | (1 << trump(28)))
M_C5_ALL = np.uint64(sum(1 << trump(n) for n in (10, 20, 30, 40)))
M_C5_HIGH = np.uint64(sum(1 << trump(n) for n in (20, 30, 40)))
M_C5_LOW = np.uint64(sum(1 << trump(n) for n in (10, 20, 30)))
M_MATTO = np.uint64(1 << MATTO)
M_KINGS = np.uint64(sum(1 << (k - SUIT_BASE) for k in KINGS))  # bit 13 of each suit lane


@njit(cache=True, error_model="numpy", inline="always")
def _mask_value(mask, opts):
    """Sum of the combination values (29 as ``combo_29``) of the trump/Matto bits of ``mask``."""
    v = 0
    while mask:
        c = ctz(mask)
        v += combo_points_nb(opts, c)
        mask &= mask - ONE
    return v


@njit(cache=True, error_model="numpy", inline="always")
def _runs_nb(bits, shift, kind, bonus, share, free, opts, out):
    """Record every run of >= 3 consecutive set bits of ``bits`` (trump ids from ``shift``); returns free."""
    total = 0
    b = bits
    while b:
        start = ctz(b)
        rest = ~(b >> np.uint64(start))
        length = ctz(rest) if rest else 64 - start
        run = ((ONE << np.uint64(length)) - ONE) << np.uint64(start)
        if length >= 3:
            m = run << shift
            v = _mask_value(m, opts) + bonus
            out[kind] += 1
            out[6 + kind] += v
            total += v
            if not share:
                free &= ~m
        b &= ~run
    return total, free


@njit(cache=True, error_model="numpy", _nrt=False)
def combos_nb(lo, hi, opts, out):
    """Total value of the §4 combinations of the two-word set (lo, hi) under the options array ``opts``
    (its rules ``c5_merge``, ``combos_may_share``, ``matto_bonus_on_c3`` and its values).

    ``out`` (length 12) receives the count (0..5) and the value (6..11) of each type R1..C6. Without reference
    counting (``_nrt=False``: it allocates nothing), as ``kernels.end_points_nb``, which calls it twice per rollout.
    """
    c5_merge, share, matto_c3 = opts[OPT.C5_MERGE] != 0, opts[OPT.MAY_SHARE] != 0, opts[OPT.MATTO_C3] != 0
    for i in range(12):
        out[i] = 0
    bonus = opts[OPT.MATTO_BONUS] if lo & M_MATTO else 0
    free = lo
    total = 0
    v, free = _runs_nb(free & LOW_RUN, ZERO, R1, bonus, share, free, opts, out)
    total += v
    v, free = _runs_nb((free >> HIGH_SHIFT) & HIGH_RUN, HIGH_SHIFT, R2, bonus, share, free, opts, out)
    total += v
    if free & M_C3 == M_C3:
        v = _mask_value(M_C3, opts) + (bonus if matto_c3 else 0)
        out[C3] += 1
        out[6 + C3] += v
        total += v
        if not share:
            free &= ~M_C3
    if free & M_C4 == M_C4:
        v = _mask_value(M_C4, opts) + bonus
        out[C4] += 1
        out[6 + C4] += v
        total += v
        if not share:
            free &= ~M_C4
    if c5_merge and free & M_C5_ALL == M_C5_ALL:
        v = _mask_value(M_C5_ALL, opts) + bonus
        out[C5] += 1
        out[6 + C5] += v
        total += v
    else:
        if free & M_C5_HIGH == M_C5_HIGH:
            v = _mask_value(M_C5_HIGH, opts) + bonus
            out[C5] += 1
            out[6 + C5] += v
            total += v
            if not share:
                free &= ~M_C5_HIGH
        if free & M_C5_LOW == M_C5_LOW:
            v = _mask_value(M_C5_LOW, opts) + bonus
            out[C5] += 1
            out[6 + C5] += v
            total += v
    kings = popcount(hi & M_KINGS)
    if kings >= 3:
        v = opts[OPT.GROUP_POINTS + KING_GROUP] * kings + bonus
        out[C6] += 1
        out[6 + C6] += v
        total += v
    return total
