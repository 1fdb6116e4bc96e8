"""What a hand is worth in each contract: a linear model over cheap bit-op features of the hand.

The heuristic players use it to pick a contract in Geronimo, to name the trump suit and to decide
doubles. Its weights are fitted, at first use and for each table (players, deck, scoring and
rules), by least squares on seeded deals of heuristic play: each seat's hand features against
that seat's score, per contract (Trumps with a uniformly random trump suit, so the trump
features learn what a suit is worth as trumps). The fit is deterministic: same options, same
weights.

Features (``trump`` = -1 outside Trumps): a constant; the number of cards of each rank (2 … A);
voids, singletons, doubletons and the longest suit; hearts held, A♥, K♥, Q♥ and an unguarded K♥;
queens with at most two lower cards of their suit; whether the seat declares (and so leads);
and, with a trump suit, trump length, trump honours (A K Q J), side Aces and side voids.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import LANE, ONE, ZERO, popcount, below
from cardlab.sim.barbu.policies import SUIT

N_FEATURES = 31
RANK_MASKS = np.array([sum(np.uint64(1) << np.uint64(LANE * s + r) for s in range(4)) for r in range(13)],
                      np.uint64)
HONOURS = np.uint64(0b1111 << 9)  # J Q K A within a lane


@njit(cache=True, error_model="numpy")
def hand_features_nb(hand, trump, declares, out):
    """Write the features of ``hand`` into ``out`` (float64[N_FEATURES])."""
    base_features_nb(hand, declares, out)
    if trump >= 0:
        trump_features_nb(hand, trump, out)


@njit(cache=True, error_model="numpy")
def base_features_nb(hand, declares, out):
    """The features that do not depend on a trump suit (the trump features are set to 0)."""
    out[0] = 1.0
    for r in range(13):
        out[1 + r] = popcount(hand & RANK_MASKS[r])
    voids = 0
    singles = 0
    doubles = 0
    longest = 0
    thin_queens = 0
    for s in range(4):
        length = popcount(hand & SUIT[s])
        voids += length == 0
        singles += length == 1
        doubles += length == 2
        longest = max(longest, length)
        q = np.uint64(1) << np.uint64(LANE * s + 10)
        if hand & q != ZERO and popcount(hand & SUIT[s] & below(LANE * s + 10)) <= 2:
            thin_queens += 1
    out[14] = voids
    out[15] = singles
    out[16] = doubles
    out[17] = longest
    hearts = hand & SUIT[2]
    out[18] = popcount(hearts)
    out[19] = (hearts >> np.uint64(LANE * 2 + 12)) & ONE
    out[20] = (hearts >> np.uint64(LANE * 2 + 11)) & ONE
    out[21] = (hearts >> np.uint64(LANE * 2 + 10)) & ONE
    out[22] = out[20] * (popcount(hearts) <= 3)
    out[23] = thin_queens
    out[24] = 1.0 if declares else 0.0
    clear_trump_features_nb(out)


@njit(cache=True, error_model="numpy", inline="always")
def clear_trump_features_nb(out):
    """Set the trump features to 0 (no trump suit)."""
    for k in range(25, N_FEATURES):
        out[k] = 0.0


@njit(cache=True, error_model="numpy")
def trump_features_nb(hand, trump, out):
    """Set the trump features of ``out`` for ``trump`` (the rest of ``out`` is left as it is)."""
    trumps = hand & SUIT[trump]
    out[25] = popcount(trumps)
    out[26] = popcount((trumps >> np.uint64(LANE * trump)) & HONOURS)
    side_aces = 0
    side_voids = 0
    for s in range(4):
        if s != trump:
            side_aces += (hand >> np.uint64(LANE * s + 12)) & ONE
            side_voids += popcount(hand & SUIT[s]) == 0
    out[27] = side_aces
    out[28] = side_voids
    out[29] = out[25] * out[25]
    out[30] = out[25] * side_voids


@njit(cache=True, error_model="numpy", inline="always")
def dot_nb(weights, contract, features):
    """The model's estimate for ``contract`` from a feature vector."""
    total = 0.0
    for k in range(N_FEATURES):
        total += weights[contract, k] * features[k]
    return total


@njit(cache=True, error_model="numpy")
def best_trump_from_features_nb(hand, contract, weights, features):
    """(suit, estimate) of the best trump suit, given ``features`` already holding the base features."""
    best = 0
    best_value = -1e300
    for s in range(4):
        trump_features_nb(hand, s, features)
        v = dot_nb(weights, contract, features)
        if v > best_value:
            best_value = v
            best = s
    return best, best_value


@njit(cache=True, error_model="numpy")
def best_trump_nb(hand, contract, weights, scratch):
    """The suit with the highest estimated Trumps score for its declarer."""
    base_features_nb(hand, True, scratch)
    return best_trump_from_features_nb(hand, contract, weights, scratch)[0]


@njit(cache=True, error_model="numpy")
def features_matrix_nb(hands, declarers, trumps, out):
    """Features of every seat's hand of every deal: rows deal*n + seat."""
    n = hands.shape[1]
    for j in range(hands.shape[0]):
        for p in range(n):
            hand_features_nb(hands[j, p], trumps[j], p == declarers[j], out[j * n + p])


@njit(cache=True, error_model="numpy")
def normal_equations_nb(x, y):
    """``(x.T @ x, x.T @ y)`` for a least-squares fit, single-threaded."""
    k = x.shape[1]
    xtx = np.zeros((k, k))
    xty = np.zeros(k)
    for i in range(x.shape[0]):
        for a in range(k):
            xa = x[i, a]
            if xa == 0.0:
                continue
            xty[a] += xa * y[i]
            for b in range(a, k):
                xtx[a, b] += xa * x[i, b]
    for a in range(k):
        for b in range(a):
            xtx[a, b] = xtx[b, a]
    return xtx, xty
