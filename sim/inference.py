"""Inference for the search policies: a searcher's worlds drawn in proportion to how likely the other
seats' past actions are in them.

What the other seats did says something about what they hold. A game's search that infers models each
other seat as its heuristic softened by ``eps``: at a decision with ``k > 1`` legal actions the seat takes
the heuristic's action with probability ``1 - eps`` and a uniformly random legal action with probability
``eps``, so the action it did take has probability ``1 - eps + eps / k`` when it is the heuristic's, else
``eps / k`` (:func:`softened_nb`). A world's *likelihood* is the product over the other seats' past
decisions, each judged on that seat's hand in the world at the time (the game writes this function: it
alone knows its decisions and its heuristic).

The posterior over worlds is then uniform over the deals consistent with what the searcher has seen
(:mod:`cardlab.sim.worlds`), times the likelihood. A searcher reaches it in two steps:

1. **Resampling.** It draws a pool of :data:`POOL_FACTOR` ``* worlds`` worlds (exactly uniform, as without
   inference), weighs each by its likelihood, and keeps ``worlds`` of them by systematic resampling: one
   uniform ``start`` (:func:`uniform_nb`) and ``worlds`` evenly spaced teeth over the cumulative weights,
   tooth ``r`` falling in the world :func:`comb_pick_nb` finds, so a world is kept about ``worlds * weight /
   total`` times.
2. **Moves** (resample-move, Gilks and Berzuini, 2001). Each tooth's world then takes :data:`MOVE_STEPS`
   Metropolis steps, each from the tooth's own stream (:func:`move_stream_nb`): :func:`propose_swap_nb`
   swaps a random card of one other seat with a random card of another, refused when either seat is known
   not to hold its new card; the game computes the new likelihood, and :func:`accepted_nb` keeps the swap
   with probability min(1, new / old) (else :func:`undo_swap_nb`). The proposal is symmetric and keeps
   every hand's size and every seat's exclusions, so the steps leave the posterior invariant; they turn a
   likely world kept several times into as many distinct likely worlds, each played out once.

The likelihood reads only the sampled world and the public history, and the swaps only what the table has
shown, so a seat that infers still uses nothing it has not seen. Every draw comes from the decision's own
stream, so a search stays reproducible from (seed, deal, decision). Worlds here are 64-bit hands, one word
a seat (Barbu, Euchre for five, Hearts).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import ZERO, bit, nth_card, popcount
from cardlab.sim.rng import below_n, mix64, next_u64

POOL_FACTOR = 16  # worlds drawn per world played out (Barbu: 4 measured weaker; 32 to 128 no better)
MOVE_STEPS = 32  # Metropolis card swaps per kept world (Barbu: none closed a fifth of the gap; 8 to 64: 28-33%)
MOVE_SALT = np.uint64(0x9E3779B97F4A7C15)
UNIT = 1.0 / 9007199254740992.0  # 2**-53: 53 random bits to a float in [0, 1)


@njit(cache=True, error_model="numpy", inline="always")
def softened_nb(eps, k, modelled):
    """The probability that a seat modelled as the heuristic softened by ``eps`` takes the action it took, out
    of ``k`` legal ones: ``1 - eps + eps / k`` when it is the heuristic's (``modelled``), else ``eps / k``."""
    if modelled:
        return 1.0 - eps + eps / k
    return eps / k


@njit(cache=True, error_model="numpy", inline="always")
def uniform_nb(state):
    """Advance a stream: returns (new_state, a uniform float in [0, 1))."""
    state, bits = next_u64(state)
    return state, (bits >> np.uint64(11)) * UNIT


@njit(cache=True, error_model="numpy", inline="always")
def comb_pick_nb(cumulative, pick, r, start, total, worlds):
    """The index of the pool world that tooth ``r`` of the systematic comb (``worlds`` teeth from ``start``)
    falls in over the running sums ``cumulative`` (their last ``total``), searching on from ``pick`` (the
    previous tooth's: the teeth come in order)."""
    last = cumulative.shape[0] - 1
    while cumulative[pick] <= (r + start) * total / worlds and pick < last:
        pick += 1
    return pick


@njit(cache=True, error_model="numpy", inline="always")
def move_stream_nb(pool_state, r):
    """The stream of tooth ``r``'s moves, from the stream as it stood after its pool world was drawn."""
    return mix64(pool_state ^ np.uint64(r + 1) * MOVE_SALT)


@njit(cache=True, error_model="numpy", inline="always")
def propose_swap_nb(state, world, s, n, excluded):
    """One Metropolis proposal on ``world`` (``n`` seats' 64-bit hands, searcher ``s``): a random card ``ca`` of
    another seat ``a`` swapped with a random card ``cb`` of another seat ``b``. Returns ``(state, a, b, ca, cb,
    u)``, ``u`` the uniform that will accept or refuse it; ``ca`` is -1 when nothing moved (the same seat, an
    empty hand, or a seat known not to hold its new card: ``excluded``), else the swap is made in ``world``."""
    state, a = below_n(state, n - 1)
    state, b = below_n(state, n - 1)
    state, ia = below_n(state, 1 << 30)
    state, ib = below_n(state, 1 << 30)
    state, u = uniform_nb(state)
    if a >= s:
        a += 1
    if b >= s:
        b += 1
    na = popcount(world[a])
    nb = popcount(world[b])
    if a == b or na == 0 or nb == 0:
        return state, a, b, -1, -1, u
    ca = nth_card(world[a], ia % na)
    cb = nth_card(world[b], ib % nb)
    if excluded[b] & bit(ca) != ZERO or excluded[a] & bit(cb) != ZERO:
        return state, a, b, -1, -1, u
    world[a] = (world[a] & ~bit(ca)) | bit(cb)
    world[b] = (world[b] & ~bit(cb)) | bit(ca)
    return state, a, b, ca, cb, u


@njit(cache=True, error_model="numpy", inline="always")
def undo_swap_nb(world, a, b, ca, cb):
    """Take back the swap :func:`propose_swap_nb` made."""
    world[a] = (world[a] & ~bit(cb)) | bit(ca)
    world[b] = (world[b] & ~bit(ca)) | bit(cb)


@njit(cache=True, error_model="numpy", inline="always")
def accepted_nb(u, likelihood, moved):
    """Whether a proposal from a world of ``likelihood`` to one of likelihood ``moved`` is accepted, ``u`` its
    uniform: with probability min(1, moved / likelihood)."""
    return u * likelihood < moved
