"""Counter-based random streams: every deal's randomness derives from (seed, deal index) alone.

A deal's stream starts from ``deal_state(seed, deal)`` and advances with ``next_u64`` (the
SplitMix64 generator). Nothing depends on thread, chunk or worker count, so deal 123456 of a
million-deal run can be replayed on its own. Kernels hold the state in a local ``uint64``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
U30, U31, U27, U32 = np.uint64(30), np.uint64(31), np.uint64(27), np.uint64(32)

SEED_MAX = 2**63 - 1


def check_seed(seed) -> int:
    """Validate a user seed: an integer in 0 .. 2**63-1."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= SEED_MAX:
        raise ValueError(f"seed: {seed!r} is not allowed; use an integer from 0 to {SEED_MAX}")
    return int(seed)


@njit(cache=True, error_model="numpy", inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of a uint64."""
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@njit(cache=True, error_model="numpy", inline="always")
def deal_state(seed, deal):
    """Initial stream state of deal number ``deal`` under ``seed``."""
    return mix64(np.uint64(seed) * STREAM_SALT + mix64(np.uint64(deal) + GOLDEN))


@njit(cache=True, error_model="numpy", inline="always")
def next_u64(state):
    """Advance a stream: returns (new_state, 64 random bits)."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, error_model="numpy", inline="always")
def below_n(state, n):
    """Advance a stream: returns (new_state, uniform integer in 0..n-1) for 1 <= n < 2**32.

    Multiply-shift on the top 32 bits: the bias is at most n / 2**32, far below Monte Carlo noise.
    """
    state, r = next_u64(state)
    return state, np.int64(((r >> U32) * np.uint64(n)) >> U32)
