"""Barbu doubling (§5, option "Double") as Numba kernels over small integer arrays.

Rules as coded: ``docs/rules/barbu.md`` §5, with the §7 defaults: order left of the declarer …
declarer last (item 10), optional late redoubles (item 10), obligation ``min(2, D_d)`` that
``obligation=0`` disables (item 11), positive contracts let non-declarers double only the
declarer (item 13; Anti-Salade, Trumps and Domino are positive).

State of one deal (the kernel resets it):

* ``m`` int8[n, n], symmetric: 0 none, 1 doubled, 2 redoubled, per pair of seats;
* ``initiator`` int8[n, n]: ``initiator[i, j] = 1`` when ``i`` doubled ``j``.

State of one game (the caller's game loop owns it; :func:`start_obligations` builds it):

* ``required`` int16[n]: ``required[d] = min(obligation, D_d)`` doubles each other player owes
  declarer ``d`` over the game (:func:`required_doubles`);
* ``done`` int16[n, n]: ``done[i, d]`` = deals declared by ``d`` in which ``i`` doubled ``d``
  (the round kernel increments it);
* ``remaining`` int16[n]: deals ``d`` still has to declare, counting the current one (the
  caller decrements ``remaining[d]`` after each deal ``d`` declared).

Procedure (:func:`doubling_round_nb`): seats ``d+1 … d+n-1`` then the declarer ``d``, one
turn each. In a turn a seat first considers, in seat order from its left, redoubling each
player who has already doubled it (``1 → 2``), then doubling each player with ``m = 0``
(non-declarers only; in a positive contract only the declarer). With ``late_redouble`` the
non-declarers then get, in seat order, one redouble-only turn for the doubles they received
after their own turn. A non-declarer ``i`` must double the declarer when
``required[d] - done[i, d] >= remaining[d]``.

Policies (integer ids per seat; 0 and 1 match ``sim.barbu.policies.POLICY``):

* ``RANDOM`` (0): every allowed double or redouble with probability 1/2 (one ``below_n(state, 2)``
  draw each); forced doubles draw nothing.
* ``HEURISTIC`` (1): uses the seat's own estimate ``estimates[i]`` of its score in this deal
  (from its hand), the contract's average seat score ``baseline``, a ``declarer_bonus`` (the
  declarer chose the contract, so it is expected to score ``baseline + declarer_bonus``;
  everyone else is expected to score ``baseline``) and a ``margin``. A double or redouble
  between ``i`` and ``j`` pays ``i`` when ``s_i > s_j``, so seat ``i`` doubles ``j`` — and
  redoubles a double received from ``j`` — exactly when
  ``estimates[i] - expected(j) > margin``. Hence it doubles other players when its estimate
  beats the baseline by the margin, doubles the declarer when its estimate beats
  ``baseline + declarer_bonus`` by the margin (the only double allowed in positive contracts),
  and redoubles (received doubles always come from non-declarers) when its estimate beats the
  baseline by the margin. It always meets the obligation. It uses no random draw.
* ``MAXIMUM`` (2): redouble every double received, double every player still allowed (for the
  declarer: redouble every double received).

Log (one deal): a fixed-size int8 array of :func:`doubling_log_length` ``= 3·n·(n−1)``
entries holding consecutive ``(actor, target, kind)`` triples in the order they happened,
padded with -1. ``kind`` is ``ACTION.DOUBLE`` (1), ``ACTION.REDOUBLE`` (2, in the actor's own
turn) or ``ACTION.LATE_REDOUBLE`` (3, in the late redouble-only turn). A pair of seats can
see at most one double and one redouble, so ``n·(n−1)`` actions always fit.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from cardlab.sim.options import parse_per_seat
from cardlab.sim.rng import below_n


class DoublingPolicy(NamedTuple):
    RANDOM: int = 0
    HEURISTIC: int = 1
    MAXIMUM: int = 2


class Action(NamedTuple):
    """``kind`` codes of the doubling log."""

    DOUBLE: int = 1
    REDOUBLE: int = 2
    LATE_REDOUBLE: int = 3


DOUBLING_POLICY = DoublingPolicy()
DOUBLING_POLICY_NAMES = ("random", "heuristic", "maximum")
POLICY_RANDOM, POLICY_HEURISTIC, POLICY_MAXIMUM = 0, 1, 2
ACTION = Action()
DOUBLE, REDOUBLE, LATE_REDOUBLE = 1, 2, 3
DEFAULT_OBLIGATION = 2
NO_ACTION = -1  # log padding


def doubling_policy_ids(policy, players: int) -> np.ndarray:
    """int64 policy ids from one name for every seat or one per seat (sequence or comma-separated).

    >>> doubling_policy_ids("heuristic,random,maximum", 3)
    array([1, 0, 2])
    """
    names = parse_per_seat("double_policy", policy, players, DOUBLING_POLICY_NAMES)
    return np.array([DOUBLING_POLICY_NAMES.index(p) for p in names], np.int64)


@njit(cache=True, error_model="numpy")
def doubling_log_length(n):
    """Entries of one deal's doubling log: ``3 * n * (n - 1)`` (36 for 4 players)."""
    return 3 * n * (n - 1)


@njit(cache=True, error_model="numpy")
def required_doubles(deals_declared, obligation):
    """Doubles each other player owes each declarer: ``min(obligation, D_d)`` as int16[n].

    ``deals_declared`` (int array, one entry per seat) holds ``D_d``, the deals seat ``d``
    declares in the whole game; ``obligation`` is 2 by default (§5) and 0 disables the rule.
    """
    n = deals_declared.shape[0]
    out = np.zeros(n, np.int16)
    for d in range(n):
        out[d] = min(obligation, deals_declared[d])
    return out


@njit(cache=True, error_model="numpy")
def start_obligations(deals_declared, obligation):
    """Fresh game state ``(required int16[n], done int16[n, n], remaining int16[n])``.

    ``remaining`` starts at ``deals_declared``; after each deal the caller does
    ``remaining[declarer] -= 1``.
    """
    n = deals_declared.shape[0]
    required = required_doubles(deals_declared, obligation)
    done = np.zeros((n, n), np.int16)
    remaining = np.zeros(n, np.int16)
    for d in range(n):
        remaining[d] = deals_declared[d]
    return required, done, remaining


@njit(cache=True, error_model="numpy", inline="always")
def _decide(policy, state, mine, expected_other, margin):
    """One policy decision on an allowed double or redouble: returns (state, yes)."""
    if policy == POLICY_MAXIMUM:
        return state, True
    if policy == POLICY_HEURISTIC:
        return state, mine - expected_other > margin
    state, r = below_n(state, 2)
    return state, r == 1


@njit(cache=True, error_model="numpy", inline="always")
def _wrap(seat, n):
    """``seat % n`` for 0 <= seat < 2n, without a division."""
    return seat - n if seat >= n else seat


@njit(cache=True, error_model="numpy", inline="always")
def _record(log, k, actor, target, kind):
    if log.shape[0] > 0:
        log[k] = actor
        log[k + 1] = target
        log[k + 2] = kind
    return k + 3


@njit(cache=True, error_model="numpy")
def doubling_round_nb(n, declarer, positive, late_redouble, required, done, remaining, estimates, baseline,
                      declarer_bonus, margin, policies, state, m, initiator, log):
    """Play the doubling of one deal (see the module docstring); returns the advanced stream.

    ``n`` seats, ``declarer`` seat, ``positive`` (bool) whether the contract is positive,
    ``late_redouble`` (bool) the §7 option. ``required`` int16[n], ``done`` int16[n, n] (updated
    for doubles of the declarer), ``remaining`` int16[n] (read only): the obligation state.
    ``estimates`` float64[n], ``baseline``, ``declarer_bonus``, ``margin`` (float64): heuristic
    inputs. ``policies`` int64[n] ids, ``state`` uint64 random stream. Writes ``m`` and
    ``initiator`` (int8[n, n], reset here) and, when it is non-empty, ``log`` (int8, length
    ``doubling_log_length(n)``).
    """
    for i in range(n):
        for j in range(n):
            m[i, j] = 0
            initiator[i, j] = 0
    for i in range(log.shape[0]):
        log[i] = NO_ACTION
    k = 0
    declarer_expected = baseline + declarer_bonus
    for step in range(n):
        i = declarer + 1 + step
        if i >= n:
            i -= n
        policy = policies[i]
        mine = estimates[i]
        # Redouble doubles already received (all come from earlier seats, never the declarer).
        for o in range(1, n):
            j = _wrap(i + o, n)
            if initiator[j, i] == 1 and m[i, j] == 1:
                state, yes = _decide(policy, state, mine, baseline, margin)
                if yes:
                    m[i, j] = 2
                    m[j, i] = 2
                    k = _record(log, k, i, j, REDOUBLE)
        if i == declarer:
            break
        forced = required[declarer] - done[i, declarer] >= remaining[declarer]
        for o in range(1, n):
            j = _wrap(i + o, n)
            if m[i, j] != 0 or (positive and j != declarer):
                continue
            if j == declarer and forced:
                yes = True
            else:
                state, yes = _decide(policy, state, mine, declarer_expected if j == declarer else baseline, margin)
            if yes:
                m[i, j] = 1
                m[j, i] = 1
                initiator[i, j] = 1
                if j == declarer:
                    done[i, declarer] += 1
                k = _record(log, k, i, j, DOUBLE)
    if late_redouble:
        # Redouble-only turns for doubles received from later seats (after one's own turn).
        for step in range(n - 1):
            i = declarer + 1 + step
            if i >= n:
                i -= n
            for o in range(1, n):
                j = _wrap(i + o, n)
                later = (j - declarer + n) % n > step + 1
                if later and j != declarer and initiator[j, i] == 1 and m[i, j] == 1:
                    state, yes = _decide(policies[i], state, estimates[i], baseline, margin)
                    if yes:
                        m[i, j] = 2
                        m[j, i] = 2
                        k = _record(log, k, i, j, LATE_REDOUBLE)
    return state


@njit(cache=True, error_model="numpy")
def settle_nb(raw, m, n, out):
    """Doubling settlement: ``out[i] = raw[i] + Σ_j m[i, j] · (raw[i] − raw[j])``; preserves the sum.

    ``raw`` integer[n] (raw deal scores), ``m`` int8[n, n] pair multipliers, ``out`` integer[n]
    (int32 or int64) receives the final deal scores.
    """
    for i in range(n):
        acc = np.int64(raw[i])
        for j in range(n):
            if j != i and m[i, j] != 0:
                acc += np.int64(m[i, j]) * (np.int64(raw[i]) - np.int64(raw[j]))
        out[i] = acc
