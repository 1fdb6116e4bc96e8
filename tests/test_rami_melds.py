"""The meld search is exact: it agrees with a plain brute force over every collection of melds."""
import itertools

import numpy as np
import pytest

from cardlab.sim.rami.melds import (MAX_MELDS, new_scratch, MELD_W, MODE_HAND, MODE_MELD, NO_JOKER_LIMIT, RUN, SET, add_meld_cards,
                                    best_melds_nb, best_opening, meld_value, valid_meld)
from cardlab.sim.rami.rules import HAND_VALUE, JOKER, RUN_VALUE, SET_VALUE, parse_hand


def kind_at(suit, pos):
    return suit * 13 + (pos - 1 if pos <= 13 else 0)


def all_melds(hand, jmax):
    """Every meld the hand can make, as (cards used as a count vector, meld value, hand value, jokers, row)."""
    out = []
    jk = int(hand[JOKER])
    for r in range(13):
        held = [s for s in range(4) if hand[s * 13 + r] > 0]
        for k in range(1, len(held) + 1):
            for suits in itertools.combinations(held, k):
                for j in (0, 1):
                    size = k + j
                    if 3 <= size <= 4 and j <= min(jk, jmax) and j < k:
                        used = np.zeros(53, np.int64)
                        for s in suits:
                            used[s * 13 + r] += 1
                        used[JOKER] = j
                        row = [SET, r + 1, sum(1 << s for s in suits), j, 0, 0]
                        out.append((used, SET_VALUE[r] * size, row))
    for s in range(4):
        for lo in range(1, 15):
            for hi in range(lo + 2, min(14, lo + 12) + 1):
                positions = range(lo, hi + 1)
                for nj in range(0, min(jk, jmax) + 1):
                    for jpos in itertools.combinations(positions, nj):
                        if nj >= len(positions) - nj:
                            continue
                        used = np.zeros(53, np.int64)
                        for p in positions:
                            if p not in jpos:
                                used[kind_at(s, p)] += 1
                        used[JOKER] = nj
                        if (used <= hand).all():
                            value = sum(RUN_VALUE[p] for p in positions)
                            out.append((used, value, [RUN, s, lo, hi, sum(1 << p for p in jpos), 0]))
    return out


def brute(hand, mode, need_pure=False, min_value=0, force=-1, min_jokers=0, min_left=0, jmax=1, values=HAND_VALUE):
    """Best objective over every multiset of disjoint melds (-1 when none meets the constraints)."""
    melds = all_melds(hand, jmax)
    best = -1
    total = int(hand.sum())

    def visit(i, left, chosen):
        nonlocal best
        used = hand - left
        mval = sum(melds[m][1] for m in chosen)
        obj = mval if mode == MODE_MELD else int(used @ values)
        pure = any(melds[m][2][0] == RUN and melds[m][2][4] == 0 for m in chosen)
        if ((not need_pure or pure) and mval >= min_value and (force < 0 or used[force] > 0)
                and used[JOKER] >= min_jokers and total - used.sum() >= min_left):
            best = max(best, obj)
        for m in range(i, len(melds)):
            if (melds[m][0] <= left).all():
                chosen.append(m)
                visit(m, left - melds[m][0], chosen)
                chosen.pop()

    visit(0, hand.astype(np.int64).copy(), [])
    return best


def random_hand(rng, size):
    """A hand clustered on a few suits and ranks so that it holds melds, twins and jokers."""
    suits = rng.choice(4, size=2, replace=False)
    start = rng.integers(0, 9)
    pool = [s * 13 + (start + d) % 13 for s in suits for d in range(6)]
    pool += [s * 13 + (start + 2) % 13 for s in range(4)]
    hand = np.zeros(53, np.int64)
    while hand.sum() < size:
        if rng.random() < 0.12:
            if hand[JOKER] < 4:
                hand[JOKER] += 1
            continue
        k = pool[rng.integers(len(pool))] if rng.random() < 0.85 else rng.integers(52)
        if hand[k] < 2:
            hand[k] += 1
    return hand


SCRATCH = new_scratch()


def search(hand, mode, need_pure=False, min_value=0, force=-1, min_jokers=0, min_left=0, jmax=1, values=HAND_VALUE):
    out = np.zeros((MAX_MELDS, MELD_W), np.int64)
    value, n, mval = best_melds_nb(hand, mode, need_pure, min_value, force, min_jokers, min_left, jmax, values, out,
                                   SCRATCH)
    if value >= 0:  # the melds returned are legal, disjoint, drawn from the hand and worth what is claimed
        used = np.zeros(53, np.int64)
        for i in range(n):
            assert valid_meld(out[i], jmax)
            add_meld_cards(out[i], used, 1)
        assert (used <= hand).all()
        assert mval == sum(meld_value(out[i]) for i in range(n))
        assert value == (mval if mode == MODE_MELD else int(used @ values))
        assert mval >= min_value and used[JOKER] >= min_jokers and hand.sum() - used.sum() >= min_left
        if force >= 0:
            assert used[force] > 0
        if need_pure:
            assert any(out[i, 0] == RUN and out[i, 4] == 0 for i in range(n))
    return value


@pytest.mark.slow
@pytest.mark.parametrize("jmax", [1, 2, NO_JOKER_LIMIT])
def test_search_matches_brute_force(jmax):
    rng = np.random.default_rng(jmax)
    checked = 0
    for trial in range(150 if jmax == 1 else 60):
        hand = random_hand(rng, int(rng.integers(6, 10)))
        force = int(rng.choice(np.flatnonzero(hand[:52]))) if hand[:52].any() else -1
        cases = [dict(mode=MODE_MELD, need_pure=True), dict(mode=MODE_HAND), dict(mode=MODE_MELD),
                 dict(mode=MODE_HAND, force=force), dict(mode=MODE_HAND, min_left=1),
                 dict(mode=MODE_MELD, need_pure=True, min_value=30), dict(mode=MODE_HAND, min_jokers=1)]
        for case in cases:
            assert search(hand, jmax=jmax, **case) == brute(hand, jmax=jmax, **case), (hand.nonzero(), case)
            checked += 1
    assert checked >= 400


def test_best_opening_examples():
    assert best_opening("A♥ 2♥ 3♥ K♠ K♦ K♣ JK 9♣").value == 6 + 40
    assert best_opening("Q♥ K♥ A♥ 2♥ 3♥").value == 31  # the ace is high or low, never both
    assert best_opening("K♥ A♥ 2♥").value == 0  # no wrap
    assert best_opening("5♥ 5♥ 6♥ 6♥ 7♥ 7♥").value == 36  # twins make two runs
    assert best_opening("7♥ 7♥ 7♠").value == 0  # a set never holds twins
    assert best_opening("K♠ K♦ K♣").value == 0  # no joker-free run: no opening
    assert best_opening("K♠ K♦ K♣", open_needs_pure_run=False).value == 30
    assert best_opening("5♥ 6♥ JK 7♠ 7♦ 7♣ 7♥").value == 18 + 28
    assert best_opening("10C JC QC KC AC").value == 51  # the ace high counts 11
    assert best_opening("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC").value == 95  # Q-K-A high + 3 runs
    assert best_opening("2C 3C JK JK").value == 0  # one joker per meld
    assert best_opening("2C 3C 4C 5C JK JK", max_jokers_per_meld=2).value == 14  # the run must stay pure
    assert best_opening("2C 3C 4C 5C JK JK", max_jokers_per_meld=2, open_needs_pure_run=False).value == 27
    opening = best_opening("A♥ 2♥ 3♥ K♠ K♦ K♣ JK 9♣")
    assert sorted(opening.melds) == ["A♥ 2♥ 3♥", "K♣ K♦ K♠ JK"]


@pytest.mark.parametrize("text", ["1♥", "11C", "A", "KX", "JK♥", "A♥ A♥ A♥"])
def test_bad_hand_is_one_line_error(text):
    with pytest.raises(ValueError, match=r"^hand: .*") as err:
        best_opening(text)
    assert "\n" not in str(err.value)


def test_parse_hand_symbols_and_letters_agree():
    assert (parse_hand("A♥ 10♠ JK Q♣ 2♦") == parse_hand("AH 10S jk QC 2D")).all()
