"""Worlds for the search policies: the cards a player has not seen, dealt to the other seats
consistently with what the table has shown, and the pick of the best searched candidate.

Shared by every game's search over one 64-bit card mask per seat (Barbu, Euchre for five); it
knows no rules: a game passes, per seat, the cards that seat has shown it cannot hold. Minchiate's
sampler, over two-word hands and hidden discard piles, keeps its own card lists but shares the Hall
bookkeeping (:func:`keeps_possible_nb`, :func:`take_card_nb`).

**Sampling.** Unseen cards go one at a time, most constrained first (fewest seats that may
hold them), to a seat that may hold them, with probability proportional to the cards that
seat still has to receive, among the seats that keep the rest of the deal possible: Hall's
condition is checked for every set of seats (``slack[S]`` = cards the seats of ``S`` still
take minus unseen cards only they may hold must stay >= 0), so sampling never fails and
needs no retries. Without constraints this deals uniformly at random; with voids it is close
to uniform over the consistent deals.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardlab.sim.cards import ONE, ZERO, bit, lowest_card, popcount
from cardlab.sim.rng import below_n


@njit(cache=True, error_model="numpy", inline="always")
def best_candidate_nb(legal, totals, fallback):
    """The card of ``legal`` with the highest ``totals``; ties go to ``fallback`` (the rollout
    policy's own card), then to the lowest card id."""
    choice = fallback
    m = legal
    while m != ZERO:
        c = lowest_card(m)
        m &= m - ONE
        if totals[c] > totals[choice]:
            choice = c
    return choice


@njit(cache=True, error_model="numpy", inline="always")
def _holders(x, s, n, excluded):
    """Bit set of the seats other than ``s`` that may hold card ``x``."""
    T = 0
    for p in range(n):
        if p != s and excluded[p] & bit(x) == ZERO:
            T |= 1 << p
    return T


@njit(cache=True, error_model="numpy")
def sample_world_nb(state, s, n, hands, excluded, world, slack):
    """Deal the cards ``s`` has not seen to the other seats (see the module docstring); returns the stream.

    ``hands`` are the true hands (only their sizes and the union of the others' are read),
    ``excluded[p]`` the cards seat ``p`` has shown it cannot hold; ``world`` receives the
    sampled hands (``world[s] = hands[s]``); ``slack`` is scratch of length ``2**n``. Cards some
    seat cannot hold are placed first, under Hall's condition; the others then go to any seat
    with room, each with probability proportional to that room.
    """
    unseen = ZERO
    need = np.zeros(8, np.int64)
    for p in range(n):
        world[p] = ZERO
        if p != s:
            unseen |= hands[p]
            need[p] = popcount(hands[p])
    world[s] = hands[s]
    constrained = ZERO
    for p in range(n):
        if p != s:
            constrained |= excluded[p] & unseen
    if constrained != ZERO:
        n_sets = 1 << n
        others = (n_sets - 1) & ~(1 << s)
        n_free = popcount(unseen & ~constrained)
        for S in range(n_sets):
            cap = 0
            for p in range(n):
                if S >> p & 1:
                    cap += need[p]
            slack[S] = cap - (n_free if S & others == others else 0)
        m = constrained
        while m != ZERO:  # each constrained card counts against every seat set holding all its holders
            x = lowest_card(m)
            m &= m - ONE
            T = _holders(x, s, n, excluded)
            for S in range(n_sets):
                if S & T == T:
                    slack[S] -= 1
        for width in range(1, n - 1):  # fewest holders first
            m = constrained
            while m != ZERO:
                x = lowest_card(m)
                m &= m - ONE
                T = _holders(x, s, n, excluded)
                k = 0
                for p in range(n):
                    k += T >> p & 1
                if k != width:
                    continue
                total = 0
                for p in range(n):
                    if T >> p & 1 and keeps_possible_nb(slack, n_sets, T, p):
                        total += need[p]
                state, r = below_n(state, total)
                q = -1
                for p in range(n):
                    if T >> p & 1 and keeps_possible_nb(slack, n_sets, T, p):
                        if r < need[p]:
                            q = p
                            break
                        r -= need[p]
                world[q] |= bit(x)
                need[q] -= 1
                take_card_nb(slack, n_sets, T, q)
    left = popcount(unseen & ~constrained)
    m = unseen & ~constrained
    while m != ZERO:  # free cards: any seat with room, in proportion to its room
        x = lowest_card(m)
        m &= m - ONE
        state, r = below_n(state, left)
        q = 0
        while r >= need[q]:
            r -= need[q]
            q += 1
        world[q] |= bit(x)
        need[q] -= 1
        left -= 1
    return state


@njit(cache=True, error_model="numpy", inline="always")
def keeps_possible_nb(slack, n_sets, T, p):
    """Whether giving a card that holders ``T`` may hold to holder ``p`` keeps Hall's condition.

    The holder sets that hold ``p`` lose a place; those holding all of ``T`` also lose a card to place.
    """
    for S in range(n_sets):
        if S >> p & 1 and S & T != T and slack[S] < 1:
            return False
    return True


@njit(cache=True, error_model="numpy", inline="always")
def take_card_nb(slack, n_sets, T, q):
    """Holder ``q`` took a card that holders ``T`` may hold: every holder set with ``q`` has a place less,
    every set holding all of ``T`` a card less to place."""
    for S in range(n_sets):
        if S >> q & 1:
            slack[S] -= 1
        if S & T == T:
            slack[S] += 1
