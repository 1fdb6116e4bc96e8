"""The bit-level tests of Rami's hot paths give exactly the answers of the card-by-card functions they replace."""
import numpy as np

from cardlab.sim.rami.melds import (RUN, SET, hand_bits, in_natural_meld, isolated, isolated_bits, layoff_slot,
                                    retrieve_slot, valid_meld)
from cardlab.sim.rami.policies import (held_mask, in_natural_meld_bits, layoff_mask, lowest_bit, neighbours,
                                       neighbours_bits, retrieve_mask)
from cardlab.sim.rami.rules import JOKER


def hands(rng, n):
    """Random hands: mostly a few suits and ranks (so that neighbours, runs and sets occur), twins and jokers."""
    for _ in range(n):
        hand = np.zeros(53, np.int64)
        size = int(rng.integers(1, 16))
        suits = rng.choice(4, size=int(rng.integers(1, 5)), replace=False)
        for _ in range(size):
            k = int(rng.choice(suits)) * 13 + int(rng.integers(13)) if rng.random() < 0.8 else int(rng.integers(53))
            hand[k] = min(hand[k] + 1, 2)
        yield hand


def test_hand_bits_card_tests_match_the_count_vector_ones():
    rng = np.random.default_rng(22)
    checked = 0
    for hand in hands(rng, 3000):
        b = hand_bits(hand)
        jokers = hand[JOKER] > 0
        assert int(held_mask(hand)) == sum(1 << k for k in range(52) if hand[k] > 0)
        for k in range(52):
            if hand[k] == 0:
                continue
            for jmax in (0, 1, 2, 99):
                assert isolated_bits(b, jokers, k, jmax) == isolated(hand, k, jmax), (np.flatnonzero(hand), k, jmax)
            assert in_natural_meld_bits(b, k) == in_natural_meld(hand, k), (np.flatnonzero(hand), k)
            assert neighbours_bits(b, k) == neighbours(hand, k), (np.flatnonzero(hand), k)
            checked += 1
    assert checked > 20000


def random_melds(rng, n):
    """Random legal table melds, jokers included (up to two per meld)."""
    made = 0
    while made < n:
        m = np.zeros(6, np.int64)
        if rng.random() < 0.4:
            m[:4] = SET, rng.integers(1, 14), rng.integers(16), rng.integers(2)
        else:
            lo = int(rng.integers(1, 13))
            hi = int(rng.integers(lo + 2, min(14, lo + 12) + 1))
            jokers = 0
            for p in range(lo, hi + 1):
                if rng.random() < 0.15:
                    jokers |= 1 << p
            m[:5] = RUN, rng.integers(4), lo, hi, jokers
        if valid_meld(m, 2):
            made += 1
            yield m


def test_meld_masks_match_layoff_and_retrieve_slots():
    rng = np.random.default_rng(23)
    for m in random_melds(rng, 3000):
        lay, back = int(layoff_mask(m)), int(retrieve_mask(m))
        for k in range(52):
            for jmax in (1, 2, 99):
                assert (lay >> k & 1) == (layoff_slot(m, k, jmax) >= 0), (m, k, jmax)
            assert (back >> k & 1) == (retrieve_slot(m, k) >= 0), (m, k)
    for x in (1, 6, 1 << 51, (1 << 40) | (1 << 45)):
        assert lowest_bit(x) == (x & -x).bit_length() - 1


def test_freed_joker_answer_matches_the_meld_search():
    """``freed_joker_usable`` answers from a pair of naturals what the meld search (a meld using a joker) answers."""
    from cardlab.sim.rami.melds import MAX_MELDS, MELD_W, MODE_HAND, best_melds_nb, new_scratch
    from cardlab.sim.rami.policies import freed_joker_usable, jokers_pair
    from cardlab.sim.rami.rules import OPT, RamiOptions

    o = RamiOptions().kernel_ints()
    out, scratch = np.zeros((MAX_MELDS, MELD_W), np.int64), new_scratch()
    rng = np.random.default_rng(24)
    seen = set()
    for hand in hands(rng, 1500):
        naturals = np.flatnonzero(hand[:52])
        if len(naturals) == 0:
            continue
        kind = int(rng.choice(naturals))
        for min_left in (0, 1):
            after = hand.copy()
            after[kind] -= 1
            after[JOKER] += 1
            value, _, _ = best_melds_nb(after, MODE_HAND, False, 0, -1, 1, min_left, 1, o[OPT.card_values:], out,
                                        scratch)
            before = hand.copy()
            assert freed_joker_usable(hand, kind, o, min_left, out, scratch) == (value >= 0)
            assert (hand == before).all()
            if min_left == 0:
                assert jokers_pair(after) == (value >= 0)
            seen.add(value >= 0)
    assert seen == {True, False}
