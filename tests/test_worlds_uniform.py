"""The world sampler (``sim/worlds.py``) is exactly uniform over the deals consistent with a view.

On small positions every consistent deal is enumerated in plain Python; the sampler's plan must
count them exactly, and over 200,000 draws the deals must come up equally often (a chi-square test
against the uniform distribution, p > 0.001 for each position), with no, one, two and three voids,
forced cards (a card only one holder may hold), a kitty and unseen discard piles (Minchiate's
holders), through both the card-list core and the 64-bit hand interface the trick games use.
"""
import math
from collections import Counter

import numpy as np
import pytest
from numba import njit

from cardlab.sim.worlds import P_ASSIGN, P_ECUM, P_ESTART, P_HDR, draw_deal_nb, draw_world_nb, plan_deal_nb, \
    plan_world_nb

DRAWS = 200_000


def chi2_sf(x, k):
    """P(chi-square with ``k`` degrees of freedom > ``x``): 1 - P(k/2, x/2), the regularized lower gamma
    function summed as its power series (exact enough for the p-values a test reads)."""
    a, z = k / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    term = 1.0 / a
    total = term
    n = 1
    while term > total * 1e-17:
        term *= z / (a + n)
        total += term
        n += 1
    return max(0.0, 1.0 - math.exp(a * math.log(z) - z - math.lgamma(a) + math.log(total)))


def consistent_deals(allowed, need):
    """Every deal (a holder per card) giving holder ``h`` exactly ``need[h]`` cards, each card to an allowed holder."""
    out = []

    def place(i, room, assign):
        if i == len(allowed):
            out.append(tuple(assign))
            return
        for h in range(len(need)):
            if allowed[i] >> h & 1 and room[h] > 0:
                room[h] -= 1
                assign.append(h)
                place(i + 1, room, assign)
                assign.pop()
                room[h] += 1

    place(0, list(need), [])
    return out


@njit(cache=True)
def draw_codes(state, plan, count, nh, out):
    """``count`` draws of ``plan``, each coded as its holders in base ``nh`` (card 0 lowest)."""
    m = plan[P_HDR][0]
    for w in range(count):
        state = draw_deal_nb(state, plan)
        assign = plan[P_ASSIGN]
        code = 0
        for i in range(m - 1, -1, -1):
            code = code * nh + assign[i]
        out[w] = code
    return state


def planned_count(plan, allowed, need):
    """The number of consistent deals the plan's dynamic programme counted (its weights times prod n_T!)."""
    hdr, estart, ecum = plan[P_HDR], plan[P_ESTART], plan[P_ECUM]
    pos = sum(1 << h for h, k in enumerate(need) if k > 0)
    types = Counter(int(a) & pos for a in allowed)
    total = ecum[estart[1] - 1] if hdr[2] > 0 else math.prod(1 / math.factorial(k) for k in need)
    return total * math.prod(math.factorial(n) for n in types.values())


def check_uniform(allowed, need, seed):
    allowed = np.array(allowed, np.int64)
    need = np.array(need, np.int64)
    deals = consistent_deals(allowed, need)
    m, nh = len(allowed), len(need)
    plan = plan_deal_nb(np.arange(m, dtype=np.int64), allowed, m, need, nh)
    assert round(planned_count(plan, allowed, need)) == len(deals)
    codes = np.empty(DRAWS, np.int64)
    draw_codes(np.uint64(seed), plan, DRAWS, nh, codes)
    index = {sum(h * nh ** i for i, h in enumerate(d)): j for j, d in enumerate(deals)}
    seen = Counter(codes.tolist())
    assert set(seen) <= set(index), "a drawn deal is not consistent"
    expected = DRAWS / len(deals)
    chi2 = sum((seen.get(code, 0) - expected) ** 2 / expected for code in index)
    p = chi2_sf(chi2, len(deals) - 1)
    print(f"{len(deals)} consistent deals, chi2 = {chi2:.1f} on {len(deals) - 1} dof, p = {p:.3f}")
    assert p > 1e-3
    return p, deals, codes


def test_chi2_sf_matches_known_values():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(100.0, 100) == pytest.approx(0.48119, abs=1e-4)


# holders 0 .. nh-1; ``A``, ``B``, ``C``, ``D``: the holder sets of four suits (a bit per holder that may hold it)
POSITIONS = {
    # no constraint at all (one shuffle): seats 1, 2, 3 of seat 0's view
    "no void": ([0b1110] * 7, [0, 3, 2, 2]),
    # seats 1, 2, 3 (seat 0 searches): seat 1 void in the first suit
    "one void": ([0b1100] * 4 + [0b1110] * 4, [0, 3, 3, 2]),
    # seat 1 void in one suit, seat 2 in another: the old sampler's 0.40/0.30/0.20/0.10 position
    "two voids": ([0b1100] * 4 + [0b1010] * 4, [0, 3, 3, 2]),
    # each of seats 1, 2, 3 void in a different suit, and a card of a fourth suit only seat 3 may hold
    "three voids and a forced card": ([0b1100] * 3 + [0b1010] * 3 + [0b0110] * 2 + [0b1000] + [0b1110] * 2,
                                      [0, 4, 4, 3]),
    # Euchre-like: four seats and a kitty (holder 4, two cards), two voids and a card kept from the maker
    "voids with a kitty": ([0b11100] * 3 + [0b10110] * 3 + [0b11010] + [0b11110] * 3, [0, 3, 3, 2, 2]),
    # Minchiate-like: three seats and two unseen discard piles (holders 3, 4: discardable cards only),
    # a declared card (its holder only), drawn cards (the drawer or its discards), a void
    "seats and discard piles": ([0b00111] * 3 + [0b11111] * 3 + [0b00001] + [0b01001] * 2 + [0b10101] +
                                [0b00110] * 2, [3, 3, 3, 2, 1]),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_every_consistent_deal_is_equally_likely(name):
    allowed, need = POSITIONS[name]
    check_uniform(allowed, need, seed=len(name))


def test_two_voids_give_the_low_cards_no_preference():
    """The issue's example: with seats 1 and 2 void in different suits, each card of the first suit lies
    with seat 3 a quarter of the time (the old sampler: 0.40, 0.30, 0.20, 0.10 by card id)."""
    _, deals, codes = check_uniform(*POSITIONS["two voids"], seed=3)
    assert len(deals) == 16
    assign = (codes[:, None] // 4 ** np.arange(8)) % 4
    share = (assign[:, :4] == 3).mean(axis=0)
    exact = np.array([sum(d[i] == 3 for d in deals) / len(deals) for i in range(4)])
    assert np.allclose(exact, 0.25)
    assert np.abs(share - exact).max() < 0.006  # about six standard errors


def test_the_hand_interface_deals_uniformly_too():
    """``plan_world_nb`` / ``draw_world_nb`` on 64-bit hands (seat 0 searching, voids as excluded cards)."""
    cards = [1, 5, 9, 17, 21, 33, 40, 50, 60]
    hands = np.array([1 << 2 | 1 << 3, 1 << 1 | 1 << 5 | 1 << 9, 1 << 17 | 1 << 21 | 1 << 33, 1 << 40 | 1 << 50 | 1 << 60],
                     np.uint64)
    excluded = np.array([0, 1 << 17 | 1 << 21 | 1 << 33, 1 << 1 | 1 << 5, 0], np.uint64)
    allowed = [sum(1 << p for p in (1, 2, 3) if not int(excluded[p]) >> c & 1) for c in cards]
    deals = consistent_deals(allowed, [0, 3, 3, 3])
    plan = plan_world_nb(0, 4, hands, excluded)
    world = np.empty(4, np.uint64)
    state = np.uint64(11)
    seen = Counter()
    for _ in range(100_000):
        state = np.uint64(draw_world_nb(state, plan, 0, hands, world))
        assert world[0] == hands[0] and all(bin(int(world[p])).count("1") == 3 for p in (1, 2, 3))
        assert not any(int(world[p]) & int(excluded[p]) for p in range(4))
        seen[tuple(next(p for p in range(4) if int(world[p]) >> c & 1) for c in cards)] += 1
    assert set(seen) == set(deals)
    expected = 100_000 / len(deals)
    chi2 = sum((seen[d] - expected) ** 2 / expected for d in deals)
    p = chi2_sf(chi2, len(deals) - 1)
    print(f"hands: {len(deals)} consistent deals, chi2 = {chi2:.1f} on {len(deals) - 1} dof, p = {p:.3f}")
    assert p > 1e-3


def test_a_forced_position_and_an_impossible_one():
    need = np.array([2, 1], np.int64)
    plan = plan_deal_nb(np.arange(3, dtype=np.int64), np.array([1, 1, 2], np.int64), 3, need, 2)
    for seed in range(5):
        draw_deal_nb(np.uint64(seed), plan)
        assert list(plan[P_ASSIGN]) == [0, 0, 1]
    with pytest.raises(ValueError):  # three cards only holder 0 may hold, and it has room for two
        plan_deal_nb(np.arange(3, dtype=np.int64), np.array([1, 1, 1], np.int64), 3, need, 2)


def test_the_plan_counts_large_positions_exactly():
    """The dynamic programme's count against a closed form: 39 cards among three seats of 13, seat 0 void
    in a 13-card suit. Seat 0 takes 13 of the 26 other cards; seats 1 and 2 share the suit (``k`` and
    ``13 - k`` of it) and the other 13."""
    allowed = np.array([0b110] * 13 + [0b111] * 26, np.int64)
    need = np.array([13, 13, 13], np.int64)
    plan = plan_deal_nb(np.arange(39, dtype=np.int64), allowed, 39, need, 3)
    count = math.comb(26, 13) * sum(math.comb(13, k) * math.comb(13, 13 - k) for k in range(14))
    assert planned_count(plan, allowed, need) == pytest.approx(count, rel=1e-12)
