"""§4 combinations: the kernel equals the plain-Python finder, and the hand-worked values hold."""
import itertools

import numpy as np
import pytest

from cardlab.sim.minchiate.combos import combos_nb, find_combinations
from cardlab.sim.minchiate.rules import COMBO_TYPES, KINGS, MATTO, MinchiateOptions, split, suit_card, trump

OPTION_SETS = [dict(c5_merge=a, combos_may_share=b, matto_bonus_on_c3=c)
               for a, b, c in itertools.product((True, False), repeat=3)]
# Issue 19: the values are options too; the two finders agree under changed card points, 29 and Matto bonus.
OPTION_SETS += [dict(top_trumps=7, mid_trumps=4, low_trumps=2, matto_points=6, king_points=9, combo_29=11, matto_bonus=3),
                dict(c5_merge=False, combos_may_share=False, matto_bonus_on_c3=True, top_trumps=1, mid_trumps=30,
                     combo_29=0, matto_bonus=0, king_points=1)]
RELEVANT = [trump(n) for n in (1, 2, 3, 4, 5, 10, 13, 20, *range(28, 41))] + [MATTO, *KINGS]


def T(*numbers):
    return [trump(n) for n in numbers]


def kernel(cards, o):
    out = np.zeros(12, np.int64)
    lo, hi = split(cards)
    total = combos_nb(np.uint64(lo), np.uint64(hi), MinchiateOptions(**o).kernel_flags(), out)
    return int(total), out


def agree(cards, o):
    found = find_combinations(cards, **MinchiateOptions(**o).combination_keywords())
    total, out = kernel(cards, o)
    assert total == sum(c.value for c in found), (sorted(cards), o)
    for i, kind in enumerate(COMBO_TYPES):
        mine = [c for c in found if c.kind == kind]
        assert out[i] == len(mine) and out[6 + i] == sum(c.value for c in mine), (sorted(cards), o, kind)
    return total


DEFAULT = OPTION_SETS[0] | dict(matto_bonus_on_c3=False)


@pytest.mark.parametrize("cards, value, kinds", [
    (T(1, 2, 3, 4, 5), 17, ["R1"]),                      # reference value of the full low run
    (T(1, 2, 3), 11, ["R1"]),
    (T(1, 2, 4, 5), 0, []),                              # no three in a row
    (T(*range(28, 41)), 90, ["R2"]),                     # reference value of the full high run (29 counts 5)
    (T(28, 29, 30), 15, ["R2"]),
    (T(28, 29, 30, 32, 33, 34), 30, ["R2", "R2"]),       # two separate pieces
    (T(28, 29, 30, 31), 20, ["R2"]),                     # adjacent pieces merge into one run
    (T(1, 40) + [MATTO], 20, ["C3"]),                    # reference value, no Matto bonus on C3 by default
    (T(1, 13, 28), 15, ["C4"]),
    (T(10, 20, 30), 15, ["C5"]), (T(20, 30, 40), 20, ["C5"]), (T(10, 20, 30, 40), 25, ["C5"]),
    (list(KINGS[:3]), 15, ["C6"]), (list(KINGS), 20, ["C6"]),
    (T(1, 2, 3) + [MATTO], 16, ["R1"]),                  # Matto bonus +5
    (list(KINGS[:3]) + [MATTO], 20, ["C6"]),
    (T(1, 2, 3, 13, 28, 40) + [MATTO], 56, ["R1", "C3", "C4"]),  # trump 1 serves three types; bonus on R1, C4
    (T(*range(28, 41), 10, 20), 115, ["R2", "C5"]),       # 30 and 40 in R2 and in C5
    ([suit_card(0, 13), trump(29)], 0, []),
])
def test_hand_worked(cards, value, kinds):
    found = find_combinations(cards, **DEFAULT)
    assert sum(c.value for c in found) == value and [c.kind for c in found] == kinds
    assert agree(cards, DEFAULT) == value


def test_hand_worked_options():
    assert sum(c.value for c in find_combinations(T(10, 20, 30, 40), c5_merge=False)) == 35  # both triples
    assert sum(c.value for c in find_combinations(T(1, 40) + [MATTO], matto_bonus_on_c3=True)) == 25
    no_share = dict(combos_may_share=False)
    assert [c.kind for c in find_combinations(T(1, 2, 3, 13, 28, 40) + [MATTO], **no_share)] == ["R1"]
    assert sum(c.value for c in find_combinations(T(*range(28, 41), 10, 20), **no_share)) == 90
    assert [c.cards for c in find_combinations(T(10, 20, 30, 40), c5_merge=False, **no_share)] == [tuple(T(20, 30, 40))]


@pytest.mark.slow
@pytest.mark.parametrize("o", OPTION_SETS, ids=str)
def test_every_high_run_subset(o):
    """Exhaustive: every subset of trumps 28-40, alone, with 10, 20 and the Matto, with 1, 13 and 40."""
    high = T(*range(28, 41))
    for extra in ([], T(10, 20) + [MATTO], T(1, 13, 40)):
        for mask in range(1 << 13):
            agree([c for i, c in enumerate(high) if mask >> i & 1] + extra, o)


@pytest.mark.parametrize("o", OPTION_SETS, ids=str)
def test_every_low_and_other_subset(o):
    """Exhaustive: every subset of trumps 1-5, 10, 13, 20, 28, 30, 40, the Matto and the Kings' count."""
    cards = T(1, 2, 3, 4, 5, 10, 13, 20, 28, 30, 40) + [MATTO]
    for mask in range(1 << len(cards)):
        chosen = [c for i, c in enumerate(cards) if mask >> i & 1]
        agree(chosen + list(KINGS[: mask % 5]), o)


@pytest.mark.parametrize("o", OPTION_SETS, ids=str)
def test_random_sets(o):
    """A large random sample of the 26 cards that can matter, with unrelated cards mixed in."""
    rng = np.random.default_rng(9)
    for _ in range(1500):
        chosen = [c for c in RELEVANT if rng.random() < rng.uniform(0.2, 0.9)]
        noise = list(rng.choice(np.arange(97), size=rng.integers(0, 30), replace=False))
        agree(set(chosen) | {int(c) for c in noise}, o)
