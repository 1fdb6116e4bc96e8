"""Dealing: a seeded shuffle of a deck into equal bitmask hands, shared by every game's kernels."""
from __future__ import annotations

from numba import njit

from cardlab.sim.cards import ZERO, bit
from cardlab.sim.rng import below_n

BLOCK = 2048  # deals per parallel work item of a batch kernel


@njit(cache=True, error_model="numpy")
def deal_hands_nb(state, deck, scratch, n, hands):
    """Shuffle ``deck`` (Fisher-Yates) and give each of ``n`` seats an equal share as a bitmask."""
    m = deck.shape[0]
    for i in range(m):
        scratch[i] = deck[i]
    for i in range(m - 1, 0, -1):
        state, j = below_n(state, i + 1)
        t = scratch[i]
        scratch[i] = scratch[j]
        scratch[j] = t
    size = m // n
    i = 0
    for p in range(n):  # seat by seat: no division per card
        hand = ZERO
        for _ in range(size):
            hand |= bit(scratch[i])
            i += 1
        hands[p] = hand
    return state
