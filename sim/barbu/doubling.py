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
* ``OWN`` (3): a Python seat's own choices (``double_policy="own"``, issue #18), asked through the step API:
  :func:`doubling_round_given_nb` takes the choices made so far (``given``) and stops at the first one
  beyond them (``stop``); the state runs the round again from the deal's start with each new choice. It
  draws nothing, and a forced double is made without asking. The kernels never ask (a seat of any other
  policy; :func:`doubling_round_nb` plays an ``own`` seat, which only a Python seat may have, as the
  heuristic).

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
    OWN: int = 3


class Action(NamedTuple):
    """``kind`` codes of the doubling log."""

    DOUBLE: int = 1
    REDOUBLE: int = 2
    LATE_REDOUBLE: int = 3


DOUBLING_POLICY = DoublingPolicy()
DOUBLING_POLICY_NAMES = ("random", "heuristic", "maximum", "own")
POLICY_RANDOM, POLICY_HEURISTIC, POLICY_MAXIMUM, POLICY_OWN = 0, 1, 2, 3
ACTION = Action()
DOUBLE, REDOUBLE, LATE_REDOUBLE = 1, 2, 3
DEFAULT_OBLIGATION = 2
NO_ACTION = -1  # log padding
STOP_LENGTH = 4  # a stopped round's pending choice: actor, target, kind, the heuristic's answer (1 yes, 0 no)


def doubling_policy_ids(policy, players: int) -> np.ndarray:
    """int64 policy ids from one name for every seat or one per seat (sequence or comma-separated).

    >>> doubling_policy_ids("heuristic,random,maximum", 3)
    array([1, 0, 2])
    """
    names = parse_per_seat("double_policy", policy, players, DOUBLING_POLICY_NAMES)
    return np.array([DOUBLING_POLICY_NAMES.index(p) for p in names], np.int64)


def run_double_policies(policies: tuple, double_policy=None, person: int | None = None) -> tuple:
    """Each seat's doubling policy in a run of whole games whose card ``policies`` are given: ``double_policy`` (one
    name, or one per seat), by default the seat's card policy (a search, oracle, Numba or Python seat doubles as the
    heuristic does). Only a Python seat (or the seat ``person`` a person plays in ``cardlab play``) may choose its
    own doubles (``own``): refused in one line elsewhere."""
    from cardlab.sim.python_seats import is_python_name
    from cardlab.sim.user import is_numba_name

    if double_policy is None:
        doubles = tuple("heuristic" if p in ("search", "oracle") or is_numba_name(p) or is_python_name(p) else p
                        for p in policies)
    else:
        doubles = parse_per_seat("double_policy", double_policy, len(policies), DOUBLING_POLICY_NAMES)
    for seat, (double, policy) in enumerate(zip(doubles, policies)):
        if double == "own" and not is_python_name(policy) and seat != person:
            raise ValueError(f"double_policy: seat {seat} is a {policy} seat, which cannot choose its own doubles; own "
                             f"is allowed only for a Python seat (a function in policy=[...]); give random, heuristic "
                             f"or maximum")
    return doubles


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


@njit(cache=True, error_model="numpy", inline="always")
def _choose(policy, state, mine, expected_other, margin, given, stop, asked, actor, target, kind):
    """One choice on an allowed double or redouble: returns ``(state, yes, asked, ask)``. An ``own`` seat's
    choice is ``given[asked]`` (then ``asked`` counts it); beyond ``given``, ``ask`` is true and ``stop`` holds
    the pending choice. Without ``stop`` (the kernels) an ``own`` seat chooses as the heuristic."""
    if policy == POLICY_OWN and stop.shape[0] > 0:
        if asked < given.shape[0]:
            return state, given[asked] == 1, asked + 1, False
        stop[0] = actor
        stop[1] = target
        stop[2] = kind
        stop[3] = 1 if mine - expected_other > margin else 0
        return state, False, asked, True
    if policy == POLICY_OWN:
        policy = POLICY_HEURISTIC
    state, yes = _decide(policy, state, mine, expected_other, margin)
    return state, yes, asked, False


@njit(cache=True, error_model="numpy", inline="always")
def _doubling_round(n, declarer, positive, late_redouble, required, done, remaining, estimates, baseline,
                    declarer_bonus, margin, policies, state, m, initiator, log, given, stop):
    """The round (:func:`doubling_round_nb`), an ``own`` seat's choices from ``given`` (int8, 1 yes, 0 no, in the
    order asked); ``stop`` (int64, empty or :data:`STOP_LENGTH` long) receives the first choice beyond them (its
    ``stop[0]`` stays -1 when the round ends), and the round then returns at once."""
    for i in range(n):
        for j in range(n):
            m[i, j] = 0
            initiator[i, j] = 0
    for i in range(log.shape[0]):
        log[i] = NO_ACTION
    for i in range(stop.shape[0]):
        stop[i] = -1
    k = 0
    asked = 0
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
                state, yes, asked, ask = _choose(policy, state, mine, baseline, margin, given, stop, asked, i, j,
                                                 REDOUBLE)
                if ask:
                    return state
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
                state, yes, asked, ask = _choose(policy, state, mine, declarer_expected if j == declarer else baseline,
                                                 margin, given, stop, asked, i, j, DOUBLE)
                if ask:
                    return state
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
                    state, yes, asked, ask = _choose(policies[i], state, estimates[i], baseline, margin, given, stop,
                                                     asked, i, j, LATE_REDOUBLE)
                    if ask:
                        return state
                    if yes:
                        m[i, j] = 2
                        m[j, i] = 2
                        k = _record(log, k, i, j, LATE_REDOUBLE)
    return state


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
    ``doubling_log_length(n)``). Nobody is asked: an ``own`` seat chooses as the heuristic.
    """
    return _doubling_round(n, declarer, positive, late_redouble, required, done, remaining, estimates, baseline,
                           declarer_bonus, margin, policies, state, m, initiator, log, np.empty(0, np.int8),
                           np.empty(0, np.int64))


@njit(cache=True, error_model="numpy")
def doubling_round_given_nb(n, declarer, positive, late_redouble, required, done, remaining, estimates, baseline,
                            declarer_bonus, margin, policies, state, m, initiator, log, given, stop):
    """:func:`doubling_round_nb` where the ``own`` seats (policy 3) choose: their choices so far ``given`` (int8,
    1 yes, 0 no, in the order the round asks them); ``stop`` (int64[:data:`STOP_LENGTH`]) receives the next choice
    to ask, ``(actor, target, kind, the heuristic's answer)``, the round then returning at once with ``m``,
    ``initiator``, ``log`` and ``done`` as they stand; ``stop[0]`` is -1 when the round is over. Run from the
    deal's start (the same ``done`` and ``state``) with one more choice each time: the other seats then draw and
    decide exactly as in :func:`doubling_round_nb`."""
    return _doubling_round(n, declarer, positive, late_redouble, required, done, remaining, estimates, baseline,
                           declarer_bonus, margin, policies, state, m, initiator, log, given, stop)


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
