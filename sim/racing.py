"""Racing the candidates of a searched decision: a candidate clearly worse than the leader stops being rolled out.

A search (Euchre for five's bids, calls and cards; Minchiate's cards; Barbu's cards) rolls every candidate out in
every sampled world, paired: the same worlds for every candidate. Racing spends fewer rollouts on
the same decision. The searcher records each alive candidate's value in each world, ``values[w, j]``
(worlds in rows, the candidates compacted to indices ``0 .. n-1`` in the order the search tries
them). **The rule:** after 8 worlds, and then after every 4 more (12, 16, ...), the **leader** is the
alive candidate with the highest mean so far (the lowest index among equals), and every other alive
candidate is dropped when its paired mean difference to the leader over the worlds played so far,
plus 2 standard errors of that mean difference (sample sd, ddof=1, over sqrt(w)), is below 0. The
decision ends early when one candidate is left, or when all the survivors have tied in every world
so far (the same value world by world). A dropped candidate is simply not rolled out in the later
worlds; the worlds still come in the same order from the decision's own stream, so the results
depend only on (seed, deal, decision), as without racing.

The choice is the best mean among the survivors, ties broken as without racing (the search's
fallback when it survived, then the lowest index). A candidate's reported mean is over the worlds
it was played on (``played[j]``). Racing off (``racing`` 0) plays every candidate in every world:
exactly the search without racing.

**Levels.** The ``racing`` int a search takes is a row of :data:`LEVELS`: 0 is off, 1 the rule above (Euchre for
five, Minchiate), 2 Barbu's: its first check comes after 12 worlds (then 16, 20 ...), Z = 2 as above. A study passes
its game's ``racing_level``. Measured on Barbu (2026-12-05; every seat searching, W = 32, the trick contracts in
rotation; the strength ladder's search seat among heuristic players on the same 40,000 deals at seeds 7 and 8,
against no racing): the shared rule lost 0.017 and 0.030 points per deal (both 95% intervals below zero), the first
check at 12 loses -0.006 (-0.018 to +0.005) and -0.012 (-0.023 to +0.000), and keeps 1.32 times the speed of no
racing against the shared rule's 1.45 (CPU time, 1 thread, in turns). Z = 3 at 8 worlds kept half of the loss
(-0.016, -0.028 to -0.004, seed 8) and only 1.20 times the speed: most of the loss comes from deciding on 8 worlds.

>>> import numpy as np
>>> values, alive, played = race_start_nb(16, 2)
>>> for w in range(8):
...     values[w] = (4.0, 0.0)
...     race_world_nb(values, w, alive, played, 1)
False
False
False
False
False
False
False
True
>>> alive.tolist(), played.tolist(), race_best_nb(values, alive, played, 1)
([True, False], [8, 8], 0)
"""
from __future__ import annotations

import numpy as np
from numba import njit

FIRST_CHECK = 8  # worlds played before the first check
CHECK_EVERY = 4  # worlds between two checks
Z = 2.0  # standard errors of the paired difference a dropped candidate must lie below the leader
#: Each level's rule: worlds before the first check, worlds between two checks, Z (see the module docstring).
LEVELS = np.array([[0, 0, 0.0], [FIRST_CHECK, CHECK_EVERY, Z], [12, CHECK_EVERY, Z]], np.float64)


@njit(cache=True, error_model="numpy")
def race_start_nb(worlds, n):
    """A race of ``n`` candidates over at most ``worlds`` worlds: ``(values, alive, played)``, ``values``
    ``(worlds, n)`` float64 (each candidate's value in each world), every candidate alive, none played."""
    return np.empty((worlds, n), np.float64), np.ones(n, np.bool_), np.zeros(n, np.int64)


@njit(cache=True, error_model="numpy")
def race_check_nb(values, w, alive, z=Z):
    """Drop every alive candidate clearly worse than the leader over the first ``w`` worlds (the module's
    rule, ``z`` standard errors); returns whether the decision can stop (one candidate left, or the survivors tied
    in every world)."""
    n = values.shape[1]
    leader = -1
    best = 0.0
    for j in range(n):
        if alive[j]:
            s = 0.0
            for k in range(w):
                s += values[k, j]
            if leader < 0 or s > best:
                leader = j
                best = s
    left = 0
    for j in range(n):
        if not alive[j]:
            continue
        if j != leader:
            mean = 0.0
            for k in range(w):
                mean += values[k, j] - values[k, leader]
            mean /= w
            var = 0.0
            for k in range(w):
                d = values[k, j] - values[k, leader] - mean
                var += d * d
            se = np.sqrt(var / (w - 1) / w)
            if mean + z * se < 0.0:
                alive[j] = False
                continue
        left += 1
    if left <= 1:
        return True
    for j in range(n):  # all tied: every survivor's value equals the leader's in every world
        if alive[j] and j != leader:
            for k in range(w):
                if values[k, j] != values[k, leader]:
                    return False
    return True


@njit(cache=True, error_model="numpy")
def race_world_nb(values, w, alive, played, racing):
    """World ``w`` (from 0) has been played by every alive candidate (``values[w]`` filled for them): count it
    in ``played`` and, when ``w + 1`` worlds is a check of level ``racing`` (level 1: 8, 12, 16 ...; 0: never),
    race (:func:`race_check_nb`). Returns whether the decision can stop."""
    for j in range(values.shape[1]):
        if alive[j]:
            played[j] += 1
    if racing == 0:
        return False
    done = w + 1
    first = int(LEVELS[racing, 0])
    if done < first or (done - first) % int(LEVELS[racing, 1]) != 0:
        return False
    return race_check_nb(values, done, alive, LEVELS[racing, 2])


@njit(cache=True, error_model="numpy")
def race_sum_nb(values, played, j):
    """Candidate ``j``'s summed value over the worlds it was played on."""
    s = 0.0
    for k in range(played[j]):
        s += values[k, j]
    return s


@njit(cache=True, error_model="numpy")
def race_best_nb(values, alive, played, fallback):
    """The index of the alive candidate with the best mean (the survivors have played the same worlds): ties
    go to ``fallback`` when it is alive (-1: none), then to the lowest index."""
    choice = fallback if fallback >= 0 and alive[fallback] else -1
    best = race_sum_nb(values, played, choice) if choice >= 0 else 0.0
    for j in range(values.shape[1]):
        if alive[j]:
            s = race_sum_nb(values, played, j)
            if choice < 0 or s > best:
                choice = j
                best = s
    return choice


@njit(cache=True, error_model="numpy")
def race_choice_nb(cands, values, alive, played, fallback, counts):
    """The race's choice among ``cands`` (the candidates in index order; :func:`race_best_nb` breaks the ties), after
    writing each candidate's number of worlds played to ``counts[cands[j]]``."""
    for j in range(values.shape[1]):
        counts[cands[j]] = played[j]
    return cands[race_best_nb(values, alive, played, fallback)]
