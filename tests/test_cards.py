"""Card ids, names and the kernel bit tricks against plain Python."""
import numpy as np
from hypothesis import given, settings, strategies as st
from numba import njit

import llvmlite.binding as llvm
import pytest

from cardlab.sim.cards import (ACE, HEARTS, KING, card, card_name, cards_of, clz, ctz, french_deck, highest_card,
                               lowest_card, nth_card, nth_card_deposit, nth_card_loop, parse_card, popcount)
from cardlab.sim.rng import below_n, deal_state


@njit(cache=True)
def _bits(x, k):

    return popcount(x), ctz(x), clz(x), lowest_card(x), highest_card(x), nth_card(x, k)


@settings(deadline=None)  # the first example compiles (or loads) the kernel: no per-example time limit
@given(st.integers(min_value=1, max_value=2**64 - 1), st.integers(min_value=0, max_value=63))
def test_bit_tricks_match_python(x, k):
    k = k % bin(x).count("1")
    ids = cards_of(x)
    assert _bits(np.uint64(x), k) == (len(ids), ids[0], 64 - x.bit_length(), ids[0], ids[-1], ids[k])


@njit(cache=True)
def _nth_both(x, k):
    return nth_card_loop(x, k), nth_card_deposit(x, k)


@pytest.mark.skipif(not llvm.get_host_cpu_features().get("bmi2", False), reason="pdep needs BMI2")
@settings(deadline=None)
@given(st.integers(min_value=1, max_value=2**64 - 1), st.integers(min_value=0, max_value=63))
def test_both_ways_to_the_kth_card_agree(x, k):
    k = k % bin(x).count("1")
    assert _nth_both(np.uint64(x), k) == (cards_of(x)[k],) * 2


def test_names_round_trip_over_every_card():
    for c in french_deck(0):
        assert parse_card(card_name(c)) == c
    assert card_name(card(KING, HEARTS)) == "K♥" and parse_card("as") == card(ACE, 3) and parse_card("10d") == 16 + 8


def test_decks_have_the_expected_sizes():
    assert [len(french_deck(r)) for r in (0, 5, 6)] == [52, 32, 28]


@njit(cache=True)
def _draws(seed, n, count):
    out = np.empty(count, np.int64)
    s = deal_state(seed, 0)
    for i in range(count):
        s, out[i] = below_n(s, n)
    return out


def test_bounded_draws_are_in_range_and_roughly_uniform():
    d = _draws(5, 7, 70_000)
    counts = np.bincount(d, minlength=7)
    assert d.min() == 0 and d.max() == 6
    assert np.all(np.abs(counts - 10_000) < 500)  # ~5 standard deviations


def test_kernel_cache_follows_every_source_file(tmp_path):
    """source_digest sees an edit to any file below a folder, nested ones too (per-game keys: test_kernel_cache.py)."""
    import numba

    from cardlab.sim import source_digest

    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    before = source_digest(tmp_path)
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")
    assert source_digest(tmp_path) != before
    assert "numba-" in numba.config.CACHE_DIR
